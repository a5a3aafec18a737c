//! The Pasta base fields, declared with ark-ff 0.5 as Mina declares them.
//!
//! `Fp` is the base field of Pallas (the scalar field of Vesta), `Fq` the base
//! field of Vesta. Both moduli are 2^254 + c with c < 2^127, and both have 5 as
//! the multiplicative generator.

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
