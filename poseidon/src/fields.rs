//! The Pasta base fields, declared with ark-ff 0.5 as Mina declares them.
//!
//! `Fp` is the base field of Pallas (the scalar field of Vesta), `Fq` the base
//! field of Vesta. Both moduli are 2^254 + c with c < 2^127, and both have 5 as
//! the multiplicative generator. [`FieldId`] names them at run time.

use ark_ff::{Fp256, MontBackend, MontConfig};

/// ark-ff configuration of [`Fp`].
#[derive(MontConfig)]
#[modulus = "28948022309329048855892746252171976963363056481941560715954676764349967630337"]
#[generator = "5"]
pub struct FpMontConfig;

/// ark-ff configuration of [`Fq`].
#[derive(MontConfig)]
#[modulus = "28948022309329048855892746252171976963363056481941647379679742748393362948097"]
#[generator = "5"]
pub struct FqMontConfig;

/// The Pallas base field: p = 2^254 + 45560315531419706090280762371685220353.
pub type Fp = Fp256<MontBackend<FpMontConfig, 4>>;

/// The Vesta base field: q = 2^254 + 45560315531419706090280762371685220353 + 86663725065984043395317760.
pub type Fq = Fp256<MontBackend<FqMontConfig, 4>>;

/// Which Pasta field; the runtime counterpart of [`PastaField`](crate::PastaField).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FieldId {
    /// The Pallas base field.
    Fp,
    /// The Vesta base field.
    Fq,
}

impl FieldId {
    /// Both fields.
    pub const ALL: [FieldId; 2] = [FieldId::Fp, FieldId::Fq];

    /// Lower-case name as used on the command line: `fp` or `fq`.
    pub fn name(self) -> &'static str {
        match self {
            FieldId::Fp => "fp",
            FieldId::Fq => "fq",
        }
    }
}

impl core::fmt::Display for FieldId {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.name())
    }
}
