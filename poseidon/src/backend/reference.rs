//! The reference backend: upstream's algorithm on ark-ff 0.5.
//!
//! It computes what mina-poseidon computes, operation for operation, as of
//! o1-labs/proof-systems commit 136c1df (`poseidon/src/poseidon.rs`, `sbox`;
//! `poseidon/src/permutation.rs`, `full_round` and `apply_mds_matrix`):
//! - the kimchi S-box x^7 as `s = x²; x ·= s; s = s²; x ·= s` (two squarings, two
//!   multiplications); the legacy x^5 as ark-ff's generic `pow([5])`;
//! - each MDS output as the sum of `m_ij · s_j` from zero, `((0 + m_i0·s_0) + m_i1·s_1)
//!   + m_i2·s_2`, then the round constant added.
//!
//! Elements are ark-ff's `Fp256` (Montgomery form, 4×64-bit limbs, always fully
//! reduced); products go through `u128`, which Wasm lacks. Every faster backend is
//! tested against this one and measured against it and against upstream itself.
//! Figures before 2026-12-01 were taken against an earlier reference that used
//! ark-ff's `pow([7])` (three squarings, three multiplications), 1.3–1.8× slower.

use ark_ff::Field;

use crate::backend::Backend;
use crate::field::FieldArith;
use crate::params::{ParamSet, Params, KIMCHI_FP, KIMCHI_FQ, LEGACY_FP, LEGACY_FQ, WIDTH};
use crate::permutation::Permutation;
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
                let mut x = self;
                let mut square = x;
                square.square_in_place();
                x *= square;
                square.square_in_place();
                x *= square;
                x
            }
            #[inline(always)]
            fn mix(
                m: &[[Self; WIDTH]; WIDTH],
                s: &[Self; WIDTH],
                k: &[Self; WIDTH],
            ) -> [Self; WIDTH] {
                // ark-ff's `Sum` folds from zero with `+`, as upstream's row sum does.
                let mut out: [Self; WIDTH] =
                    core::array::from_fn(|i| m[i].iter().zip(s).map(|(mij, sj)| *mij * sj).sum());
                for (x, c) in out.iter_mut().zip(k) {
                    *x += c;
                }
                out
            }
            fn params(set: ParamSet) -> &'static Params<Self> {
                match set {
                    ParamSet::Kimchi => &$kimchi,
                    ParamSet::Legacy => &$legacy,
                }
            }
        }

        /// The default schedule: [`rounds`](crate::permutation::rounds), as upstream.
        impl Permutation for $field {}
    };
}

ark_field_arith!(Fp, KIMCHI_FP, LEGACY_FP);
ark_field_arith!(Fq, KIMCHI_FQ, LEGACY_FQ);
