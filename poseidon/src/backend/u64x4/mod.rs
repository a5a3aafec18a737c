//! `u64`: 4 limbs of 64 bits, Montgomery form with R = 2^256 (ark-ff's own layout).
//!
//! Built for 64-bit CPUs, where a 64×64→128 product is one instruction. The
//! representation is the one ark-ff stores, so entering and leaving the backend
//! costs nothing; what is faster is the arithmetic (see [`arith`]):
//! - the reduction is specialised to the Pasta primes (limb 2 of p is zero, limb 3
//!   is 2^62: two word products and a shift per step instead of four products);
//! - squaring computes each cross product once;
//! - the S-box x^7 is two squarings and two multiplications (upstream's `pow`
//!   takes three of each), and the three S-box chains of a round are interleaved;
//! - each MDS output sums three unreduced 512-bit products and reduces once, with
//!   the round constant folded into that reduction (stored pre-multiplied by 2^256);
//! - constants are converted at compile time.
//!
//! Elements are always fully reduced (< p), because p > 2^256/4 leaves no room
//! for lazy reduction in 256 bits. Many permutations at once ([`FieldArith::permute_many`])
//! run 8 lanes of AVX-512 IFMA when the CPU has it ([`ifma`]), chosen at run time.

mod arith;
#[cfg(target_arch = "x86_64")]
pub mod ifma;
// Without IFMA (e.g. on wasm32) only the tables and the tests use it.
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
mod lanes52;
#[cfg(test)]
mod tests;

use core::fmt;
use core::marker::PhantomData;

use ark_ff::{BigInt, Fp256, MontBackend, MontConfig};

use self::arith::{
    add_mod, bound, dot3_add, is_pasta_shaped, mont_mul, mont_mul_lazy as mul, mont_square,
    mont_square_lazy as sq, sub_mod, sub_p_if_ge, LIMBS,
};
use super::is_below;
pub use super::{Pallas, Vesta};
use crate::field::{Backend, FieldArith};
use crate::fields::{FpMontConfig, FqMontConfig};
use crate::params::{tables, ParamSet, Params, Sbox, WIDTH};
use crate::{Fp, Fq};

/// A Pasta modulus and the constants the 64-bit arithmetic needs, taken from
/// ark-ff's configuration at compile time.
pub trait Modulus64: Copy + fmt::Debug + Send + Sync + Eq + 'static {
    /// p in 64-bit limbs, little-endian.
    const P: [u64; LIMBS];
    /// −p⁻¹ mod 2^64.
    const INV: u64;
    /// 2^512 mod p: Montgomery-multiplying by it multiplies by 2^256.
    const R2: [u64; LIMBS];
    /// 1.25p: the lazy permutation's state stays below it (see `permute_lazy`).
    const STATE_BOUND: [u64; LIMBS] = bound(&Self::P, 2, 0);
    /// 1.53125p: S-box values stay below it.
    const SBOX_BOUND: [u64; LIMBS] = bound(&Self::P, 1, 5);
    /// 2^260 mod p: a Montgomery product (R = 2^256) with it multiplies by 2^4,
    /// moving from R = 2^256 to the batch path's R = 2^260.
    const TO52: [u64; LIMBS] = mont_mul(&Self::R2, &[16, 0, 0, 0], &Self::P, Self::INV);
    /// p in 52-bit limbs.
    const P52: [u64; lanes52::LIMBS] = lanes52::split(&Self::P);
}

impl Modulus64 for Pallas {
    const P: [u64; LIMBS] = <FpMontConfig as MontConfig<4>>::MODULUS.0;
    const INV: u64 = <FpMontConfig as MontConfig<4>>::INV;
    const R2: [u64; LIMBS] = <FpMontConfig as MontConfig<4>>::R2.0;
}

impl Modulus64 for Vesta {
    const P: [u64; LIMBS] = <FqMontConfig as MontConfig<4>>::MODULUS.0;
    const INV: u64 = <FqMontConfig as MontConfig<4>>::INV;
    const R2: [u64; LIMBS] = <FqMontConfig as MontConfig<4>>::R2.0;
}

const _: () = assert!(is_pasta_shaped(&Pallas::P) && is_pasta_shaped(&Vesta::P));
const _: () =
    assert!(lanes52::is_pasta_shaped(&Pallas::P52) && lanes52::is_pasta_shaped(&Vesta::P52));
const _: () = assert!(Pallas::INV.wrapping_mul(Pallas::P[0]) == u64::MAX);
const _: () = assert!(Vesta::INV.wrapping_mul(Vesta::P[0]) == u64::MAX);

/// An element in Montgomery form, x·2^256 mod p, fully reduced: ark-ff's limbs.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Fe64<M>([u64; LIMBS], PhantomData<M>);

/// [`Fp`] in the `u64` representation.
pub type Fp64 = Fe64<Pallas>;
/// [`Fq`] in the `u64` representation.
pub type Fq64 = Fe64<Vesta>;

impl<M> fmt::Debug for Fe64<M> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Fe64({:?})", self.0)
    }
}

impl<M: Modulus64> Fe64<M> {
    #[inline(always)]
    const fn new(limbs: [u64; LIMBS]) -> Self {
        Fe64(limbs, PhantomData)
    }

    /// The limbs (Montgomery form, < p).
    pub const fn limbs(&self) -> &[u64; LIMBS] {
        &self.0
    }

    #[inline(always)]
    fn check(&self) {
        debug_assert!(is_below(&self.0, &M::P), "not reduced: {:?}", self.0);
    }
}

/// The MDS layer of one round with the round constants folded in: `k_r` holds each
/// constant times 2^256 (see [`arith::dot3_add`]).
#[inline(always)]
fn mix_folded<M: Modulus64>(
    mds: &[[Fe64<M>; WIDTH]; WIDTH],
    s: &[Fe64<M>; WIDTH],
    k_r: &[[u64; LIMBS]; WIDTH],
) -> [Fe64<M>; WIDTH] {
    let s = s.map(|x| {
        x.check();
        x.0
    });
    core::array::from_fn(|i| {
        let m = mds[i].map(|x| x.0);
        Fe64::new(dot3_add(&m, &s, &k_r[i], &M::P, M::INV))
    })
}

/// The constants of one parameter set: as elements, and the round rows the
/// permutation adds after the MDS product once more multiplied by 2^256.
pub struct Tables64<M: 'static, const ROWS: usize> {
    params: Params<Fe64<M>>,
    folded: [[[u64; LIMBS]; WIDTH]; ROWS],
    /// The same constants for the batch path (52-bit limbs, R = 2^260); read only
    /// where IFMA code is compiled (x86-64) and by the tests.
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    lanes: lanes52::Tables52<ROWS>,
}

const fn convert<C: MontConfig<4>, M: Modulus64, const ROWS: usize>(
    table: &[[Fp256<MontBackend<C, 4>>; WIDTH]; ROWS],
) -> [[Fe64<M>; WIDTH]; ROWS] {
    let mut out = [[Fe64::new([0; LIMBS]); WIDTH]; ROWS];
    let mut r = 0;
    while r < ROWS {
        let mut c = 0;
        while c < WIDTH {
            out[r][c] = Fe64::new(table[r][c].0 .0);
            c += 1;
        }
        r += 1;
    }
    out
}

/// k·2^256 mod p for every constant (Montgomery product with 2^512 mod p).
const fn fold<M: Modulus64, const ROWS: usize>(
    t: &[[Fe64<M>; WIDTH]; ROWS],
) -> [[[u64; LIMBS]; WIDTH]; ROWS] {
    let mut out = [[[0; LIMBS]; WIDTH]; ROWS];
    let mut r = 0;
    while r < ROWS {
        let mut c = 0;
        while c < WIDTH {
            out[r][c] = mont_mul(&t[r][c].0, &M::R2, &M::P, M::INV);
            c += 1;
        }
        r += 1;
    }
    out
}

macro_rules! u64_tables {
    ($name:ident, $modulus:ty, $set:expr, $table:ident) => {
        mod $table {
            use super::*;
            pub(super) const ROWS: usize = tables::$table::ROUND_CONSTANTS.len();
            pub(super) const ROUND_CONSTANTS: [[Fe64<$modulus>; WIDTH]; ROWS] =
                convert(&tables::$table::ROUND_CONSTANTS);
            pub(super) const MDS: [[Fe64<$modulus>; WIDTH]; WIDTH] = convert(&tables::$table::MDS);
        }
        static $name: Tables64<$modulus, { $table::ROWS }> = Tables64 {
            params: Params {
                set: $set,
                round_constants: &$table::ROUND_CONSTANTS,
                mds: $table::MDS,
            },
            folded: fold(&$table::ROUND_CONSTANTS),
            lanes: lanes52::Tables52::new(&$table::ROUND_CONSTANTS, &$table::MDS),
        };
    };
}

u64_tables!(KIMCHI_FP, Pallas, ParamSet::Kimchi, kimchi_fp);
u64_tables!(KIMCHI_FQ, Vesta, ParamSet::Kimchi, kimchi_fq);
u64_tables!(LEGACY_FP, Pallas, ParamSet::Legacy, legacy_fp);
u64_tables!(LEGACY_FQ, Vesta, ParamSet::Legacy, legacy_fq);

/// Bounds of the lazy permutation, as multiples of p (ρ = p/2^256 < 1/4 + 2^-128;
/// a Montgomery product of values below αp and βp is below (αβρ + 1)p):
/// - state between rounds < 1.25p ([`STATE_BOUND`](Modulus64::STATE_BOUND));
/// - S-box values: x² < 1.391p, x⁴ < 1.484p, x⁶ < 1.516p, x⁷ < 1.474p (x⁵ < 1.464p),
///   all < 1.53125p ([`SBOX_BOUND`](Modulus64::SBOX_BOUND)) and < 2^256;
/// - an MDS output sums three products below p·1.53125p plus the folded constant:
///   T < 4.6p² + p < 2^256·(2^256 − p), so the reduction gives < 2.15p, and one masked
///   subtraction brings it below 1.25p again.
///
/// Only the state leaving the permutation is brought below p (one more subtraction).
#[inline(always)]
fn permute_lazy<M: Modulus64, const ROWS: usize>(
    tables: &Tables64<M, ROWS>,
    state: &mut [Fe64<M>; WIDTH],
) where
    Fe64<M>: FieldArith,
{
    let params = &tables.params;
    let (p, inv) = (&M::P, M::INV);
    let (first, rows) = params.schedule();
    if let Some(k) = first {
        crate::permutation::add_row(state, k);
    }
    // The rows applied after an MDS product: all of them, or all but the initial one.
    let folded = &tables.folded[params.set.initial_ark() as usize..];
    debug_assert_eq!(folded.len(), rows.len());
    let mds = params.mds.map(|r| r.map(|x| x.0));
    let pow7 = params.set.sbox() == Sbox::Pow7;
    let mut s = state.map(|x| {
        x.check();
        x.0
    });
    for k_r in folded {
        debug_assert!(s.iter().all(|x| is_below(x, &M::STATE_BOUND)));
        let [a, b, c] = s;
        // Three independent chains side by side, which the CPU overlaps.
        let (a2, b2, c2) = (sq(&a, p, inv), sq(&b, p, inv), sq(&c, p, inv));
        let (a4, b4, c4) = (sq(&a2, p, inv), sq(&b2, p, inv), sq(&c2, p, inv));
        let x = if pow7 {
            let (a6, b6, c6) = (
                mul(&a4, &a2, p, inv),
                mul(&b4, &b2, p, inv),
                mul(&c4, &c2, p, inv),
            );
            debug_assert!([a6, b6, c6].iter().all(|x| is_below(x, &M::SBOX_BOUND)));
            [
                mul(&a6, &a, p, inv),
                mul(&b6, &b, p, inv),
                mul(&c6, &c, p, inv),
            ]
        } else {
            [
                mul(&a4, &a, p, inv),
                mul(&b4, &b, p, inv),
                mul(&c4, &c, p, inv),
            ]
        };
        debug_assert!(x.iter().all(|x| is_below(x, &M::SBOX_BOUND)));
        s = core::array::from_fn(|i| dot3_add(&mds[i], &x, &k_r[i], p, inv));
    }
    *state = s.map(|x| Fe64::new(sub_p_if_ge(&x, p)));
}
macro_rules! u64_field {
    ($field:ty, $modulus:ty, $kimchi:ident, $legacy:ident) => {
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
            #[inline]
            fn permute(params: &Params<Self>, state: &mut [Self; WIDTH]) {
                if !is_own(params, &$kimchi.params, &$legacy.params) {
                    return crate::permutation::rounds(params, state);
                }
                match params.set {
                    ParamSet::Kimchi => permute_lazy(&$kimchi, state),
                    ParamSet::Legacy => permute_lazy(&$legacy, state),
                }
            }
            fn permute_many(params: &Params<Self>, states: &mut [[Self; WIDTH]]) {
                if !is_own(params, &$kimchi.params, &$legacy.params) {
                    return permute_many_portable(params, states);
                }
                match params.set {
                    ParamSet::Kimchi => permute_many(&$kimchi, states),
                    ParamSet::Legacy => permute_many(&$legacy, states),
                }
            }
            fn params(set: ParamSet) -> &'static Params<Self> {
                match set {
                    ParamSet::Kimchi => &$kimchi.params,
                    ParamSet::Legacy => &$legacy.params,
                }
            }
        }
    };
}

u64_field!(Fp, Pallas, KIMCHI_FP, LEGACY_FP);
u64_field!(Fq, Vesta, KIMCHI_FQ, LEGACY_FQ);

/// The batch path: 8 lanes of AVX-512 IFMA when this CPU has them, else one
/// permutation after another.
fn permute_many<M: Modulus64, const ROWS: usize>(
    tables: &Tables64<M, ROWS>,
    states: &mut [[Fe64<M>; WIDTH]],
) where
    Fe64<M>: FieldArith,
{
    #[cfg(target_arch = "x86_64")]
    if ifma::available() {
        return ifma::permute_many(tables, states);
    }
    permute_many_portable(&tables.params, states)
}

/// The batch path without SIMD: [`FieldArith::permute`] on each state.
pub fn permute_many_portable<M: Modulus64>(
    params: &Params<Fe64<M>>,
    states: &mut [[Fe64<M>; WIDTH]],
) where
    Fe64<M>: FieldArith,
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
    Fe64<M>: FieldArith,
{
    #[cfg(target_arch = "x86_64")]
    if ifma::available() {
        return ifma::permute(tables, state);
    }
    Fe64::permute(&tables.params, state)
}

/// Whether `params` is one of the two statics (so its set's tables may stand in for it).
#[inline(always)]
fn is_own<E>(params: &Params<E>, kimchi: &Params<E>, legacy: &Params<E>) -> bool {
    core::ptr::eq(params, kimchi) || core::ptr::eq(params, legacy)
}

macro_rules! u52_field {
    ($field:ty, $modulus:ty, $kimchi:ident, $legacy:ident, $kimchi52:ident, $legacy52:ident) => {
        impl FieldArith for Fe52<$modulus> {
            type Field = $field;

            delegate_element_ops!();
            /// The IFMA (or `u64`) permutation on the crate's own tables when
            /// `params` are its statics; other parameters take the general rounds.
            #[inline]
            fn permute(params: &Params<Self>, state: &mut [Self; WIDTH]) {
                if !is_own(params, &$kimchi52, &$legacy52) {
                    return crate::permutation::rounds(params, state);
                }
                let mut s = state.map(|x| x.0);
                match params.set {
                    ParamSet::Kimchi => permute52(&$kimchi, &mut s),
                    ParamSet::Legacy => permute52(&$legacy, &mut s),
                }
                *state = s.map(Fe52);
            }
            fn permute_many(params: &Params<Self>, states: &mut [[Self; WIDTH]]) {
                if !is_own(params, &$kimchi52, &$legacy52) {
                    return states
                        .iter_mut()
                        .for_each(|st| crate::permutation::rounds(params, st));
                }
                let mut s: Vec<[Fe64<$modulus>; WIDTH]> =
                    states.iter().map(|st| st.map(|x| x.0)).collect();
                match params.set {
                    ParamSet::Kimchi => permute_many(&$kimchi, &mut s),
                    ParamSet::Legacy => permute_many(&$legacy, &mut s),
                }
                for (out, x) in states.iter_mut().zip(&s) {
                    *out = x.map(Fe52);
                }
            }
            fn params(set: ParamSet) -> &'static Params<Self> {
                match set {
                    ParamSet::Kimchi => &$kimchi52,
                    ParamSet::Legacy => &$legacy52,
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
