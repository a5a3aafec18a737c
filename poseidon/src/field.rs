//! The backend seam: the little arithmetic the permutation needs, as traits.
//!
//! A backend supplies one [`FieldArith`] representation per Pasta field and
//! names them in a [`Backend`]. The permutation and the sponge are written once,
//! generic over these traits; the public API speaks the canonical ark-ff types
//! [`Fp`] and [`Fq`] and converts at its boundary.

use core::fmt::Debug;

use ark_ff::{BigInt, PrimeField};

use crate::params::{ParamSet, Params, WIDTH};
use crate::{Fp, Fq};

/// Field arithmetic in one backend's representation of a Pasta field.
///
/// Values may be kept partly reduced inside a representation, but
/// [`to_field`](Self::to_field) must return the canonical element.
pub trait FieldArith: Copy + Debug + Send + Sync + 'static {
    /// The canonical field this representation computes in.
    type Field: PastaField;

    /// Converts from the canonical field.
    fn from_field(x: Self::Field) -> Self;
    /// Converts to the canonical (fully reduced) field element.
    fn to_field(self) -> Self::Field;
    /// From a canonical integer (little-endian 64-bit limbs of its value, not
    /// Montgomery form); `None` unless it is below the modulus. The default goes
    /// through ark-ff; a backend may convert directly (in Wasm, ark-ff's
    /// conversions multiply through `u128`).
    #[inline]
    fn from_canonical(limbs: [u64; 4]) -> Option<Self> {
        Self::Field::from_bigint(BigInt(limbs)).map(Self::from_field)
    }
    /// The canonical integer (little-endian 64-bit limbs, below the modulus).
    #[inline]
    fn to_canonical(self) -> [u64; 4] {
        self.to_field().into_bigint().0
    }
    /// The additive identity.
    fn zero() -> Self;
    /// `self + rhs`.
    #[must_use]
    fn add(self, rhs: Self) -> Self;
    /// `self - rhs`.
    #[must_use]
    fn sub(self, rhs: Self) -> Self;
    /// `self * rhs`.
    #[must_use]
    fn mul(self, rhs: Self) -> Self;
    /// `self * self`.
    #[must_use]
    fn square(self) -> Self;

    /// `self^5`, the legacy S-box: two squarings and one multiplication.
    #[must_use]
    #[inline(always)]
    fn pow5(self) -> Self {
        self.square().square().mul(self)
    }

    /// `self^7`, the kimchi S-box: two squarings and two multiplications.
    #[must_use]
    #[inline(always)]
    fn pow7(self) -> Self {
        let x2 = self.square();
        let x4 = x2.square();
        x4.mul(x2).mul(self)
    }

    /// One round's linear layer, `m · s + k`: the MDS product then the round
    /// constants. The default sums each row as `((0 + m0·s0) + m1·s1) + m2·s2`, as
    /// upstream does; a backend may fuse it (one reduction per output).
    #[must_use]
    #[inline(always)]
    fn mix(m: &[[Self; WIDTH]; WIDTH], s: &[Self; WIDTH], k: &[Self; WIDTH]) -> [Self; WIDTH] {
        core::array::from_fn(|i| {
            m[i].iter()
                .zip(s)
                .fold(Self::zero(), |acc, (mij, sj)| mij.mul(*sj).add(acc))
                .add(k[i])
        })
    }

    /// The whole permutation. The default is [`permutation::rounds`](crate::permutation::rounds)
    /// over the operations above; a backend may schedule a round differently (e.g.
    /// two S-boxes in SIMD lanes).
    #[inline(always)]
    fn permute(params: &Params<Self>, state: &mut [Self; WIDTH]) {
        crate::permutation::rounds(params, state)
    }

    /// Permutes many independent states (batch hashing, Merkle tree levels). The
    /// default runs [`permute`](Self::permute) on each; a backend may run several
    /// at once in SIMD lanes.
    #[inline]
    fn permute_many(params: &Params<Self>, states: &mut [[Self; WIDTH]]) {
        for s in states {
            Self::permute(params, s);
        }
    }

    /// The constants of a parameter set in this representation.
    fn params(set: ParamSet) -> &'static Params<Self>;
}

/// A set of arithmetic backends, one representation per Pasta field.
pub trait Backend: Copy + Debug + Send + Sync + 'static {
    /// Short name used in benchmark IDs and tool output, e.g. `reference`.
    const NAME: &'static str;
    /// Representation of [`Fp`].
    type Fp: FieldArith<Field = Fp>;
    /// Representation of [`Fq`].
    type Fq: FieldArith<Field = Fq>;
}

/// Which Pasta field; the runtime counterpart of [`PastaField`].
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

impl core::str::FromStr for FieldId {
    type Err = crate::Error;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "fp" | "Fp" => Ok(FieldId::Fp),
            "fq" | "Fq" => Ok(FieldId::Fq),
            _ => Err(crate::Error::UnknownField(s.to_owned())),
        }
    }
}

/// [`Fp`] or [`Fq`]: the fields this crate hashes over.
pub trait PastaField: PrimeField<BigInt = BigInt<4>> {
    /// Which field this is.
    const ID: FieldId;
    /// Backend `B`'s representation of this field.
    type Repr<B: Backend>: FieldArith<Field = Self>;
}

impl PastaField for Fp {
    const ID: FieldId = FieldId::Fp;
    type Repr<B: Backend> = B::Fp;
}

impl PastaField for Fq {
    const ID: FieldId = FieldId::Fq;
    type Repr<B: Backend> = B::Fq;
}
