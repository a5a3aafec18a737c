//! The reference backend: ark-ff 0.5 arithmetic, exactly as mina-poseidon uses it.
//!
//! Elements are ark-ff's `Fp256` (Montgomery form, 4×64-bit limbs, always fully
//! reduced); products go through `u128`, which Wasm lacks, so this is the
//! baseline every faster backend is measured against. The S-box is ark-ff's
//! generic `pow` with exponent 7 (or 5), as upstream computes it (3 squarings and
//! 3 multiplications for x^7), not the shorter addition chain.

use ark_ff::Field;

use crate::field::{Backend, FieldArith};
use crate::params::{ParamSet, Params, KIMCHI_FP, KIMCHI_FQ, LEGACY_FP, LEGACY_FQ};
use crate::{Fp, Fq};

/// ark-ff 0.5 arithmetic on the canonical types [`Fp`] and [`Fq`].
#[derive(Clone, Copy, Debug, Default)]
pub struct Reference;

impl Backend for Reference {
    const NAME: &'static str = "reference";
    type Fp = Fp;
    type Fq = Fq;
}

macro_rules! ark_field_arith {
    ($field:ty, $kimchi:ident, $legacy:ident) => {
        impl FieldArith for $field {
            type Field = $field;

            #[inline(always)]
            fn from_field(x: Self) -> Self {
                x
            }
            #[inline(always)]
            fn to_field(self) -> Self {
                self
            }
            #[inline(always)]
            fn zero() -> Self {
                <$field as ark_ff::AdditiveGroup>::ZERO
            }
            #[inline(always)]
            fn add(self, rhs: Self) -> Self {
                self + rhs
            }
            #[inline(always)]
            fn sub(self, rhs: Self) -> Self {
                self - rhs
            }
            #[inline(always)]
            fn mul(self, rhs: Self) -> Self {
                self * rhs
            }
            #[inline(always)]
            fn square(self) -> Self {
                Field::square(&self)
            }
            #[inline(always)]
            fn pow5(self) -> Self {
                self.pow([5])
            }
            #[inline(always)]
            fn pow7(self) -> Self {
                self.pow([7])
            }
            fn params(set: ParamSet) -> &'static Params<Self> {
                match set {
                    ParamSet::Kimchi => &$kimchi,
                    ParamSet::Legacy => &$legacy,
                }
            }
        }
    };
}

ark_field_arith!(Fp, KIMCHI_FP, LEGACY_FP);
ark_field_arith!(Fq, KIMCHI_FQ, LEGACY_FQ);
