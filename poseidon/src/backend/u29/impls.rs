//! What makes `u29` a backend: the [`FieldArith`] and [`Permutation`] impls of
//! [`Fe29`] and [`Fe29x2`], and the backend types [`U29`] and [`U29x2`].

use ark_ff::BigInt;

use super::arith::{
    self, is_mul_input, mont_mul, mont_square, reduce_below_2p, sub_plus_8p, LIMBS,
};
use super::element::{Fe29, Fp29, Fq29, Modulus29};
use super::lanes::SIMD128;
use super::rounds::{mix_row, rounds_general};
use super::simd::{permute_paired, permute_x4, Fe29x2};
use super::tables::{
    kimchi_fp, kimchi_fq, legacy_fp, legacy_fq, KIMCHI_FP, KIMCHI_FP_X2, KIMCHI_FQ, KIMCHI_FQ_X2,
    LEGACY_FP, LEGACY_FP_X2, LEGACY_FQ, LEGACY_FQ_X2,
};
use crate::backend::common::{own_set, Pallas, Vesta};
use crate::backend::Backend;
use crate::field::FieldArith;
use crate::fields::{Fp, Fq};
use crate::params::{ParamSet, Params, WIDTH};
use crate::permutation::Permutation;

macro_rules! u29_field {
    ($field:ty, $modulus:ty, $kimchi:ident, $legacy:ident, $kimchi_t:ident, $legacy_t:ident) => {
        impl FieldArith for Fe29<$modulus> {
            type Field = $field;

            #[inline]
            fn from_field(x: $field) -> Self {
                Self::from_ark_limbs(&x.0 .0)
            }
            #[inline]
            fn to_field(self) -> $field {
                self.check();
                <$field>::new_unchecked(BigInt(self.to_ark_limbs()))
            }
            #[inline]
            fn from_canonical(limbs: [u64; 4]) -> Option<Self> {
                Self::from_int(&limbs)
            }
            #[inline]
            fn to_canonical(self) -> [u64; 4] {
                self.to_int()
            }
            #[inline(always)]
            fn zero() -> Self {
                Self::new([0; LIMBS])
            }
            #[inline(always)]
            fn add(self, rhs: Self) -> Self {
                self.check();
                rhs.check();
                // < 2^257 < 16p, then below 2p.
                let mut s = [0u64; LIMBS];
                for (i, si) in s.iter_mut().enumerate() {
                    *si = self.0[i] + rhs.0[i];
                }
                let s = arith::carry(s);
                Self::new(reduce_below_2p(
                    &s,
                    &<$modulus>::P8,
                    &<$modulus>::P4,
                    &<$modulus>::P2,
                ))
            }
            #[inline(always)]
            fn sub(self, rhs: Self) -> Self {
                self.check();
                rhs.check();
                let d = sub_plus_8p(&self.0, &rhs.0, &<$modulus>::P8);
                Self::new(reduce_below_2p(
                    &d,
                    &<$modulus>::P8,
                    &<$modulus>::P4,
                    &<$modulus>::P2,
                ))
            }
            #[inline(always)]
            fn mul(self, rhs: Self) -> Self {
                debug_assert!(is_mul_input(&self.0) && is_mul_input(&rhs.0));
                Self::new(mont_mul(&self.0, &rhs.0, &<$modulus>::P))
            }
            #[inline(always)]
            fn square(self) -> Self {
                debug_assert!(is_mul_input(&self.0));
                Self::new(mont_square(&self.0, &<$modulus>::P))
            }
            /// x³ = x²·x, then (x³)²·x: the same two squarings and two products as
            /// the trait's x⁴·x²·x, measured slightly faster under V8 (0.6%).
            #[inline(always)]
            fn pow7(self) -> Self {
                let x3 = self.square().mul(self);
                x3.square().mul(self)
            }
            /// Per output three Karatsuba products summed unreduced, one reduction
            /// that also adds the round constant (`mix_row`).
            #[inline(always)]
            fn mix(
                m: &[[Self; WIDTH]; WIDTH],
                s: &[Self; WIDTH],
                k: &[Self; WIDTH],
            ) -> [Self; WIDTH] {
                core::array::from_fn(|i| mix_row(&m[i], s, &k[i]))
            }
            fn params(set: ParamSet) -> &'static Params<Self> {
                match set {
                    ParamSet::Kimchi => &$kimchi,
                    ParamSet::Legacy => &$legacy,
                }
            }
        }

        impl Permutation for Fe29<$modulus> {
            /// In Wasm: the rescaled rounds (`rounds_rescaled`) when `params` are
            /// this crate's own statics, `rounds_general` otherwise. Natively the
            /// three S-box chains interleave well; in Wasm the three live chains
            /// cost spills (7% slower under wasmtime in one quick run, 30% faster
            /// natively).
            #[inline]
            fn permute(params: &Params<Self>, state: &mut [Self; WIDTH]) {
                if cfg!(target_arch = "wasm32") {
                    match own_set(params, &$kimchi, &$legacy) {
                        Some(ParamSet::Kimchi) => $kimchi_t::rounds(params, state),
                        Some(ParamSet::Legacy) => $legacy_t::rounds(params, state),
                        None => rounds_general(params, state),
                    }
                } else {
                    let rows = params.schedule().1;
                    crate::permutation::rounds_interleaved(params, state, |r, s| {
                        Self::mix(&params.mds, s, &rows[r])
                    })
                }
            }
            /// With Wasm SIMD: four at a time in `i32x4` lanes ([`permute_x4`]), the rest
            /// one by one. Elsewhere one after another (natively the scalar code wins;
            /// the lanes there are plain arrays, for the tests).
            fn permute_many(params: &Params<Self>, states: &mut [[Self; WIDTH]]) {
                let rest = if SIMD128 {
                    let mut quads = states.chunks_exact_mut(4);
                    for q in &mut quads {
                        let q: &mut [[Self; WIDTH]; 4] = q.try_into().expect("chunks of 4");
                        permute_x4(params, q);
                    }
                    quads.into_remainder()
                } else {
                    states
                };
                for s in rest {
                    Self::permute(params, s);
                }
            }
        }
    };
}

u29_field!(Fp, Pallas, KIMCHI_FP, LEGACY_FP, kimchi_fp, legacy_fp);
u29_field!(Fq, Vesta, KIMCHI_FQ, LEGACY_FQ, kimchi_fq, legacy_fq);

macro_rules! u29x2_field {
    ($field:ty, $modulus:ty, $kimchi:ident, $legacy:ident) => {
        impl FieldArith for Fe29x2<$modulus> {
            type Field = $field;

            delegate_element_ops!();
            fn params(set: ParamSet) -> &'static Params<Self> {
                match set {
                    ParamSet::Kimchi => &$kimchi,
                    ParamSet::Legacy => &$legacy,
                }
            }
        }

        impl Permutation for Fe29x2<$modulus> {
            #[inline]
            fn permute(params: &Params<Self>, state: &mut [Self; WIDTH]) {
                permute_paired(params, state)
            }
        }
    };
}

u29x2_field!(Fp, Pallas, KIMCHI_FP_X2, LEGACY_FP_X2);
u29x2_field!(Fq, Vesta, KIMCHI_FQ_X2, LEGACY_FQ_X2);

/// 9×29-bit limbs, Montgomery form; see the module documentation.
#[derive(Clone, Copy, Debug, Default)]
pub struct U29;

impl Backend for U29 {
    const NAME: &'static str = "u29";
    type Fp = Fp29;
    type Fq = Fq29;
}

/// `u29` arithmetic with the permutation scheduled over two lanes: Wasm SIMD
/// (`i64x2.extmul_low_i32x4_u`) when built with `+simd128`, plain lanes elsewhere.
#[derive(Clone, Copy, Debug, Default)]
pub struct U29x2;

impl Backend for U29x2 {
    const NAME: &'static str = "u29x2";
    type Fp = Fe29x2<Pallas>;
    type Fq = Fe29x2<Vesta>;
}
