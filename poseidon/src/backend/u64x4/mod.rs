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
    add_mod, bound, dot2_shift_add, dot3_add, is_pasta_shaped, mont_mul, mont_mul_lazy as mul,
    mont_square, mont_square_lazy as sq, sub_mod, LIMBS,
};
use super::{is_below, own_set};
pub use super::{Pallas, Vesta};
use crate::field::{Backend, FieldArith};
use crate::fields::{FpMontConfig, FqMontConfig};
use crate::params::{rescale, tables, ParamSet, Params, Sbox, WIDTH};
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

/// The constants of one parameter set: as elements, and rescaled for the
/// single permutation ([`Rescaled64`]).
pub struct Tables64<M: 'static, const ROWS: usize> {
    params: Params<Fe64<M>>,
    rescaled: Rescaled64<ROWS>,
    /// The same constants for the batch path (52-bit limbs, R = 2^260); read only
    /// where IFMA code is compiled (x86-64) and by the tests.
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    lanes: lanes52::Tables52<ROWS>,
}

/// A set's constants on the rescaled state (`params::rescale`): the scale factors
/// d and d⁻¹, the matrix M'_ij = d_i·M_ij·d_j^−α, and each round row D·k multiplied
/// by 2^256 once more (so the reduction of [`arith::dot2_shift_add`] turns it into
/// D·k). Montgomery limbs, below p. The columns and shifts of the power-of-two
/// entries are const parameters of [`permute_rescaled`].
struct Rescaled64<const ROWS: usize> {
    d: [[u64; LIMBS]; WIDTH],
    d_inv: [[u64; LIMBS]; WIDTH],
    mds: [[[u64; LIMBS]; WIDTH]; WIDTH],
    folded: [[[u64; LIMBS]; WIDTH]; ROWS],
}

impl<const ROWS: usize> Rescaled64<ROWS> {
    /// Derived at compile time from the set's tables and its rescaling.
    const fn new<C: MontConfig<4>, M: Modulus64>(
        rc: &[[Fp256<MontBackend<C, 4>>; WIDTH]; ROWS],
        mds: &[[Fp256<MontBackend<C, 4>>; WIDTH]; WIDTH],
        r: &rescale::Rescaling<Fp256<MontBackend<C, 4>>>,
        alpha: u32,
    ) -> Self {
        let (p, inv) = (&M::P, M::INV);
        let d = [r.d[0].0 .0, r.d[1].0 .0, r.d[2].0 .0];
        let d_inv = [r.d_inv[0].0 .0, r.d_inv[1].0 .0, r.d_inv[2].0 .0];
        let mut out = Rescaled64 {
            d,
            d_inv,
            mds: [[[0; LIMBS]; WIDTH]; WIDTH],
            folded: [[[0; LIMBS]; WIDTH]; ROWS],
        };
        let mut i = 0;
        while i < WIDTH {
            let mut j = 0;
            while j < WIDTH {
                let mut d_inv_pow = d_inv[j];
                let mut e = 1;
                while e < alpha {
                    d_inv_pow = mont_mul(&d_inv_pow, &d_inv[j], p, inv);
                    e += 1;
                }
                let dm = mont_mul(&d[i], &mds[i][j].0 .0, p, inv);
                out.mds[i][j] = mont_mul(&dm, &d_inv_pow, p, inv);
                j += 1;
            }
            let mut row = 0;
            while row < ROWS {
                let dk = mont_mul(&d[i], &rc[row][i].0 .0, p, inv);
                out.folded[row][i] = mont_mul(&dk, &M::R2, p, inv);
                row += 1;
            }
            i += 1;
        }
        out
    }
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

macro_rules! u64_tables {
    ($name:ident, $modulus:ty, $set:expr, $table:ident, $alpha:expr) => {
        mod $table {
            use super::*;
            pub(super) const ROWS: usize = tables::$table::ROUND_CONSTANTS.len();
            pub(super) const ROUND_CONSTANTS: [[Fe64<$modulus>; WIDTH]; ROWS] =
                convert(&tables::$table::ROUND_CONSTANTS);
            pub(super) const MDS: [[Fe64<$modulus>; WIDTH]; WIDTH] = convert(&tables::$table::MDS);
            pub(super) const RESCALED: Rescaled64<ROWS> = Rescaled64::new::<_, $modulus>(
                &tables::$table::ROUND_CONSTANTS,
                &tables::$table::MDS,
                &rescale::$name,
                $alpha,
            );
            /// The rescaled permutation of this set (its columns and shifts as constants).
            pub(super) fn permute(state: &mut [Fe64<$modulus>; WIDTH]) {
                permute_rescaled::<
                    $modulus,
                    ROWS,
                    { rescale::$name.column[0] },
                    { rescale::$name.column[1] },
                    { rescale::$name.column[2] },
                    { rescale::$name.limb_shift[0] as u32 },
                    { rescale::$name.limb_shift[1] as u32 },
                    { rescale::$name.limb_shift[2] as u32 },
                >(&super::$name, state)
            }
        }
        static $name: Tables64<$modulus, { $table::ROWS }> = Tables64 {
            params: Params {
                set: $set,
                round_constants: &$table::ROUND_CONSTANTS,
                mds: $table::MDS,
            },
            rescaled: $table::RESCALED,
            lanes: lanes52::Tables52::new(&$table::ROUND_CONSTANTS, &$table::MDS),
        };
    };
}

u64_tables!(KIMCHI_FP, Pallas, ParamSet::Kimchi, kimchi_fp, 7);
u64_tables!(KIMCHI_FQ, Vesta, ParamSet::Kimchi, kimchi_fq, 7);
u64_tables!(LEGACY_FP, Pallas, ParamSet::Legacy, legacy_fp, 5);
u64_tables!(LEGACY_FQ, Vesta, ParamSet::Legacy, legacy_fq, 5);

/// The S-box on the three elements, without the final subtractions, each step
/// taken for all three before the next: three independent chains, which the CPU
/// overlaps. Bounds, as multiples of p (ρ = p/2^256 < 1/4 + 2^-128; a Montgomery
/// product of values below αp and βp is below (αβρ + 1)p): from inputs below 1.25p
/// ([`STATE_BOUND`](Modulus64::STATE_BOUND)), x² < 1.391p, x⁴ < 1.484p, x⁶ < 1.516p,
/// x⁷ < 1.474p (x⁵ < 1.464p): all below 1.53125p ([`SBOX_BOUND`](Modulus64::SBOX_BOUND)).
#[inline(always)]
fn sbox3<M: Modulus64>(s: &[[u64; LIMBS]; WIDTH], pow7: bool) -> [[u64; LIMBS]; WIDTH] {
    let (p, inv) = (&M::P, M::INV);
    debug_assert!(s.iter().all(|x| is_below(x, &M::STATE_BOUND)));
    let [a, b, c] = s;
    let (a2, b2, c2) = (sq(a, p, inv), sq(b, p, inv), sq(c, p, inv));
    let (a4, b4, c4) = (sq(&a2, p, inv), sq(&b2, p, inv), sq(&c2, p, inv));
    let x = if pow7 {
        let (a6, b6, c6) = (
            mul(&a4, &a2, p, inv),
            mul(&b4, &b2, p, inv),
            mul(&c4, &c2, p, inv),
        );
        debug_assert!([a6, b6, c6].iter().all(|x| is_below(x, &M::SBOX_BOUND)));
        [
            mul(&a6, a, p, inv),
            mul(&b6, b, p, inv),
            mul(&c6, c, p, inv),
        ]
    } else {
        [
            mul(&a4, a, p, inv),
            mul(&b4, b, p, inv),
            mul(&c4, c, p, inv),
        ]
    };
    debug_assert!(x.iter().all(|x| is_below(x, &M::SBOX_BOUND)));
    x
}

/// The permutation on the rescaled state u = D·s (`params::rescale`): in by d, per
/// round [`sbox3`] and three [`dot2_shift_add`] (six 256-bit products instead of
/// nine), out by d⁻¹. C0..C2 are the columns of the power-of-two entries and
/// S0..S2 their shifts; constants, so each row's column choice and shift fold
/// away. The state between rounds is below p (`reduce_top`).
#[inline(always)]
fn permute_rescaled<
    M: Modulus64,
    const ROWS: usize,
    const C0: usize,
    const C1: usize,
    const C2: usize,
    const S0: u32,
    const S1: u32,
    const S2: u32,
>(
    tables: &Tables64<M, ROWS>,
    state: &mut [Fe64<M>; WIDTH],
) where
    Fe64<M>: FieldArith,
{
    let (params, r) = (&tables.params, &tables.rescaled);
    let (p, inv) = (&M::P, M::INV);
    let (first, rows) = params.schedule();
    if let Some(k) = first {
        crate::permutation::add_row(state, k);
    }
    // The rows applied after an MDS product: all of them, or all but the initial one.
    let folded = &r.folded[params.set.initial_ark() as usize..];
    debug_assert_eq!(folded.len(), rows.len());
    let pow7 = params.set.sbox() == Sbox::Pow7;
    let mut s: [[u64; LIMBS]; WIDTH] = core::array::from_fn(|i| {
        state[i].check();
        mont_mul(&state[i].0, &r.d[i], p, inv)
    });
    for k_r in folded {
        let x = sbox3::<M>(&s, pow7);
        s = [
            dot2_shift_add(&r.mds[0], &x, C0, S0, &k_r[0], p, inv),
            dot2_shift_add(&r.mds[1], &x, C1, S1, &k_r[1], p, inv),
            dot2_shift_add(&r.mds[2], &x, C2, S2, &k_r[2], p, inv),
        ];
    }
    *state = core::array::from_fn(|i| Fe64::new(mont_mul(&s[i], &r.d_inv[i], p, inv)));
}

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
            fn params(set: ParamSet) -> &'static Params<Self> {
                match set {
                    ParamSet::Kimchi => &$kimchi.params,
                    ParamSet::Legacy => &$legacy.params,
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

macro_rules! u52_field {
    ($field:ty, $modulus:ty, $kimchi:ident, $legacy:ident, $kimchi52:ident, $legacy52:ident) => {
        impl FieldArith for Fe52<$modulus> {
            type Field = $field;

            delegate_element_ops!();
            /// The IFMA (or `u64`) permutation on the crate's own tables when
            /// `params` are its statics; other parameters take the general rounds.
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
