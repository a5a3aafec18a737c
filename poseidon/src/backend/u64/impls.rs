//! What makes `u64` and `u52` backends: the [`FieldArith`] and [`Permutation`]
//! impls of [`Fe64`] and [`Fe52`], the batch paths, and the backend types
//! [`U64`] and [`U52`].

use core::fmt;

use ark_ff::BigInt;

use super::arith::{add_mod, mont_mul, mont_square, sub_mod, LIMBS};
use super::element::{Fe64, Fp64, Fq64, Modulus64};
#[cfg(target_arch = "x86_64")]
use super::ifma;
use super::rounds::{
    kimchi_fp, kimchi_fq, legacy_fp, legacy_fq, mix_folded, Tables64, KIMCHI_FP, KIMCHI_FQ,
    LEGACY_FP, LEGACY_FQ,
};
use crate::backend::common::{own_set, Pallas, Vesta};
use crate::backend::Backend;
use crate::field::FieldArith;
use crate::fields::{Fp, Fq};
use crate::params::{ParamSet, Params, WIDTH};
use crate::permutation::Permutation;

macro_rules! u64_field {
    ($field:ty, $modulus:ty, $kimchi:ident, $legacy:ident, $kimchi_t:ident, $legacy_t:ident) => {
        impl FieldArith for Fe64<$modulus> {
            type Field = $field;

            #[inline(always)]
            fn from_field(x: $field) -> Self {
                Self::new(x.0 .0)
            }
            #[inline(always)]
            fn to_field(self) -> $field {
                self.check();
                <$field>::new_unchecked(BigInt(self.0))
            }
            #[inline(always)]
            fn zero() -> Self {
                Self::new([0; LIMBS])
            }
            #[inline(always)]
            fn add(self, rhs: Self) -> Self {
                self.check();
                rhs.check();
                Self::new(add_mod(&self.0, &rhs.0, &<$modulus>::P))
            }
            #[inline(always)]
            fn sub(self, rhs: Self) -> Self {
                self.check();
                rhs.check();
                Self::new(sub_mod(&self.0, &rhs.0, &<$modulus>::P))
            }
            #[inline(always)]
            fn mul(self, rhs: Self) -> Self {
                self.check();
                rhs.check();
                Self::new(mont_mul(&self.0, &rhs.0, &<$modulus>::P, <$modulus>::INV))
            }
            #[inline(always)]
            fn square(self) -> Self {
                self.check();
                Self::new(mont_square(&self.0, &<$modulus>::P, <$modulus>::INV))
            }
            /// Three unreduced products per output, one reduction, then the constant.
            #[inline(always)]
            fn mix(
                m: &[[Self; WIDTH]; WIDTH],
                s: &[Self; WIDTH],
                k: &[Self; WIDTH],
            ) -> [Self; WIDTH] {
                let zero = [[0; LIMBS]; WIDTH];
                let out = mix_folded(m, s, &zero);
                core::array::from_fn(|i| out[i].add(k[i]))
            }
            /// The lazy rounds on the crate's own tables when `params` are its
            /// statics; other parameters are data for the general rounds.
            fn params(set: ParamSet) -> &'static Params<Self> {
                match set {
                    ParamSet::Kimchi => &$kimchi.params,
                    ParamSet::Legacy => &$legacy.params,
                }
            }
        }

        impl Permutation for Fe64<$modulus> {
            #[inline]
            fn permute(params: &Params<Self>, state: &mut [Self; WIDTH]) {
                match own_set(params, &$kimchi.params, &$legacy.params) {
                    Some(ParamSet::Kimchi) => $kimchi_t::permute(state),
                    Some(ParamSet::Legacy) => $legacy_t::permute(state),
                    None => crate::permutation::rounds(params, state),
                }
            }
            fn permute_many(params: &Params<Self>, states: &mut [[Self; WIDTH]]) {
                match own_set(params, &$kimchi.params, &$legacy.params) {
                    Some(ParamSet::Kimchi) => permute_many(&$kimchi, states),
                    Some(ParamSet::Legacy) => permute_many(&$legacy, states),
                    None => permute_many_portable(params, states),
                }
            }
        }
    };
}

u64_field!(Fp, Pallas, KIMCHI_FP, LEGACY_FP, kimchi_fp, legacy_fp);
u64_field!(Fq, Vesta, KIMCHI_FQ, LEGACY_FQ, kimchi_fq, legacy_fq);

/// The batch path: 8 lanes of AVX-512 IFMA when this CPU has them, else one
/// permutation after another.
fn permute_many<M: Modulus64, const ROWS: usize>(
    tables: &Tables64<M, ROWS>,
    states: &mut [[Fe64<M>; WIDTH]],
) where
    Fe64<M>: Permutation,
{
    #[cfg(target_arch = "x86_64")]
    if ifma::available() {
        return ifma::permute_many(tables, states);
    }
    permute_many_portable(&tables.params, states)
}

/// The batch path without SIMD: [`Permutation::permute`] on each state.
pub fn permute_many_portable<M: Modulus64>(
    params: &Params<Fe64<M>>,
    states: &mut [[Fe64<M>; WIDTH]],
) where
    Fe64<M>: Permutation,
{
    for s in states {
        Fe64::permute(params, s);
    }
}

/// 4×64-bit limbs, Montgomery form; see the module documentation.
#[derive(Clone, Copy, Debug, Default)]
pub struct U64;

impl Backend for U64 {
    const NAME: &'static str = "u64";
    type Fp = Fp64;
    type Fq = Fq64;
}

/// [`Fe64`] whose permutation runs across AVX-512 IFMA lanes when the CPU has
/// them: the three state elements in three 52-bit-limb lanes (R = 2^260), so the
/// three S-boxes and the three MDS rows run side by side. Elements, arithmetic
/// and the batch path are those of [`Fe64`]; without IFMA (or off x86-64) the
/// permutation is [`Fe64`]'s.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Fe52<M>(Fe64<M>);

impl<M> fmt::Debug for Fe52<M> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Fe52({:?})", self.0 .0)
    }
}

/// The same constants as [`Fe52`] elements.
const fn wrap52<M: Modulus64, const ROWS: usize>(
    t: &[[Fe64<M>; WIDTH]; ROWS],
) -> [[Fe52<M>; WIDTH]; ROWS] {
    let mut out = [[Fe52(Fe64::new([0; LIMBS])); WIDTH]; ROWS];
    let mut r = 0;
    while r < ROWS {
        let mut c = 0;
        while c < WIDTH {
            out[r][c] = Fe52(t[r][c]);
            c += 1;
        }
        r += 1;
    }
    out
}

macro_rules! u52_params {
    ($name:ident, $modulus:ty, $set:expr, $table:ident) => {
        static $name: Params<Fe52<$modulus>> = Params {
            set: $set,
            round_constants: &wrap52(&$table::ROUND_CONSTANTS),
            mds: wrap52(&$table::MDS),
        };
    };
}

u52_params!(KIMCHI_FP52, Pallas, ParamSet::Kimchi, kimchi_fp);
u52_params!(KIMCHI_FQ52, Vesta, ParamSet::Kimchi, kimchi_fq);
u52_params!(LEGACY_FP52, Pallas, ParamSet::Legacy, legacy_fp);
u52_params!(LEGACY_FQ52, Vesta, ParamSet::Legacy, legacy_fq);

/// The single permutation on IFMA lanes if this CPU has them, else [`Fe64`]'s.
#[inline]
fn permute52<M: Modulus64, const ROWS: usize>(
    tables: &Tables64<M, ROWS>,
    state: &mut [Fe64<M>; WIDTH],
) where
    Fe64<M>: Permutation,
{
    #[cfg(target_arch = "x86_64")]
    if ifma::available() {
        return ifma::permute(tables, state);
    }
    Fe64::permute(&tables.params, state)
}

macro_rules! u52_field {
    ($field:ty, $modulus:ty, $kimchi:ident, $legacy:ident, $kimchi52:ident, $legacy52:ident) => {
        impl FieldArith for Fe52<$modulus> {
            type Field = $field;

            delegate_element_ops!();
            /// The IFMA (or `u64`) permutation on the crate's own tables when
            /// `params` are its statics; other parameters take the general rounds.
            fn params(set: ParamSet) -> &'static Params<Self> {
                match set {
                    ParamSet::Kimchi => &$kimchi52,
                    ParamSet::Legacy => &$legacy52,
                }
            }
        }

        impl Permutation for Fe52<$modulus> {
            #[inline]
            fn permute(params: &Params<Self>, state: &mut [Self; WIDTH]) {
                let mut s = state.map(|x| x.0);
                match own_set(params, &$kimchi52, &$legacy52) {
                    Some(ParamSet::Kimchi) => permute52(&$kimchi, &mut s),
                    Some(ParamSet::Legacy) => permute52(&$legacy, &mut s),
                    None => return crate::permutation::rounds(params, state),
                }
                *state = s.map(Fe52);
            }
            fn permute_many(params: &Params<Self>, states: &mut [[Self; WIDTH]]) {
                let Some(set) = own_set(params, &$kimchi52, &$legacy52) else {
                    return states
                        .iter_mut()
                        .for_each(|st| crate::permutation::rounds(params, st));
                };
                let mut s: Vec<[Fe64<$modulus>; WIDTH]> =
                    states.iter().map(|st| st.map(|x| x.0)).collect();
                match set {
                    ParamSet::Kimchi => permute_many(&$kimchi, &mut s),
                    ParamSet::Legacy => permute_many(&$legacy, &mut s),
                }
                for (out, x) in states.iter_mut().zip(&s) {
                    *out = x.map(Fe52);
                }
            }
        }
    };
}

u52_field!(Fp, Pallas, KIMCHI_FP, LEGACY_FP, KIMCHI_FP52, LEGACY_FP52);
u52_field!(Fq, Vesta, KIMCHI_FQ, LEGACY_FQ, KIMCHI_FQ52, LEGACY_FQ52);

/// `u64` elements with the permutation across AVX-512 IFMA lanes (5×52-bit limbs)
/// when the CPU has them, chosen at run time; see [`Fe52`].
#[derive(Clone, Copy, Debug, Default)]
pub struct U52;

impl Backend for U52 {
    const NAME: &'static str = "u52";
    type Fp = Fe52<Pallas>;
    type Fq = Fe52<Vesta>;
}
