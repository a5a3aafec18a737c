//! `u29`: 9 limbs of 29 bits in 64-bit words, Montgomery form with R = 2^261.
//!
//! Built for WebAssembly, which has 64-bit multiplication but no 64×64→128 product:
//! every limb product is one `i64.mul`, sums of up to 27 products are accumulated
//! without carrying, and the Montgomery reduction exploits the Pasta primes (see
//! [`arith`]: the quotient limb is a negation, limbs 5–7 of p are zero and limb 8
//! is a shift). Products use one level of three-way Karatsuba (54 limb products
//! instead of 81); squarings the schoolbook's 45. The S-box x^7 is two squarings
//! and two multiplications; the MDS product sums three unreduced products per
//! output and reduces once, adding the round constant inside that reduction.
//!
//! In Wasm, for the crate's own parameters, the rounds run on a rescaled state
//! (`params::rescale`): one MDS entry per row is a power of two, 2^0 or 2^−29,
//! so an output is two products plus limbs placed in the columns — six products
//! per round instead of nine. Each output is a small function of its own,
//! instantiated once, so its MDS limbs become immediate operands; that suits
//! V8's register allocator.
//!
//! Elements stay *normalized* (limbs 0..=7 < 2^29, limb 8 < 2^24, value < 2^256,
//! not necessarily < p) inside the permutation, and are reduced below p only when
//! they leave the backend ([`FieldArith::to_field`]). Constants are converted
//! at compile time. Selected by default on `wasm32` (see the crate's `build.rs`).

mod arith;
#[cfg(all(target_arch = "wasm32", poseidon_fma))]
mod fma;
mod lanes;
mod x2;
mod x4;

use core::fmt;
use core::marker::PhantomData;

use ark_ff::{BigInt, Fp256, MontBackend, MontConfig};

use self::arith::{
    add_columns, chunk_products_add, chunks, columns, from_u64x4, is_mul_input, is_normalized,
    is_pasta_shaped, karatsuba_columns, mont_mul, mont_square, pow2_mod, reduce_add,
    reduce_below_2p, sub_if_ge, sub_plus_8p, times, to_u64x4, LIMBS,
};
use self::x2::Limbs2;
use super::own_set;
pub use super::{Pallas, Vesta};
use crate::field::{Backend, FieldArith};
use crate::fields::{FpMontConfig, FqMontConfig};
use crate::params::{rescale, tables, ParamSet, Params, Sbox, WIDTH};
use crate::permutation::add_row;
use crate::{Fp, Fq};

/// A Pasta modulus and the constants the 29-bit arithmetic needs, all computed at
/// compile time from ark-ff's modulus.
pub trait Modulus29: Copy + fmt::Debug + Send + Sync + Eq + 'static {
    /// p in 29-bit limbs.
    const P: [u64; LIMBS];
    /// 2p, 4p, 8p (for masked subtractions).
    const P2: [u64; LIMBS] = times(&Self::P, 2);
    /// 4p.
    const P4: [u64; LIMBS] = times(&Self::P, 4);
    /// 8p.
    const P8: [u64; LIMBS] = times(&Self::P, 8);
    /// 2^266 mod p: Montgomery-multiplying ark-ff's internal form (x·2^256) by it gives x·2^261.
    const FROM_ARK: [u64; LIMBS] = pow2_mod(266, &Self::P);
    /// 2^256 mod p: Montgomery-multiplying x·2^261 by it gives ark-ff's x·2^256.
    const TO_ARK: [u64; LIMBS] = pow2_mod(256, &Self::P);
    /// 2^522 mod p: Montgomery-multiplying an integer x by it gives x·2^261.
    const FROM_INT: [u64; LIMBS] = pow2_mod(522, &Self::P);
    /// p in 64-bit limbs (the canonical range check).
    const P64: [u64; 4];

    /// Runs [`permute_x4`] on the rescaled state when `params` are one of the
    /// crate's own sets for this modulus, and says whether it did.
    #[doc(hidden)]
    fn permute_x4_own(
        _params: &Params<Fe29<Self>>,
        _states: &mut [[Fe29<Self>; WIDTH]; 4],
    ) -> bool {
        false
    }
}

/// The `Modulus29` impl of a Pasta prime: its ark-ff modulus, and the dispatch of
/// [`permute_x4`] to the rescaled rounds of the crate's own two sets for it.
macro_rules! modulus29 {
    ($modulus:ty, $config:ty, $kimchi:ident, $legacy:ident, $kimchi_t:ident, $legacy_t:ident) => {
        impl Modulus29 for $modulus {
            const P: [u64; LIMBS] = from_u64x4(&Self::P64);
            const P64: [u64; 4] = <$config as MontConfig<4>>::MODULUS.0;

            fn permute_x4_own(
                params: &Params<Fe29<Self>>,
                states: &mut [[Fe29<Self>; WIDTH]; 4],
            ) -> bool {
                match own_set(params, &$kimchi, &$legacy) {
                    Some(ParamSet::Kimchi) => $kimchi_t::rounds_x4(params, states),
                    Some(ParamSet::Legacy) => $legacy_t::rounds_x4(params, states),
                    None => return false,
                }
                true
            }
        }
    };
}

modulus29!(
    Pallas,
    FpMontConfig,
    KIMCHI_FP,
    LEGACY_FP,
    kimchi_fp,
    legacy_fp
);
modulus29!(
    Vesta,
    FqMontConfig,
    KIMCHI_FQ,
    LEGACY_FQ,
    kimchi_fq,
    legacy_fq
);

const _: () = assert!(is_pasta_shaped(&Pallas::P) && is_pasta_shaped(&Vesta::P));

/// An element in Montgomery form, x·2^261 mod p, as 9 normalized 29-bit limbs.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Fe29<M>([u64; LIMBS], PhantomData<M>);

/// [`Fp`] in the `u29` representation.
pub type Fp29 = Fe29<Pallas>;
/// [`Fq`] in the `u29` representation.
pub type Fq29 = Fe29<Vesta>;

impl<M> fmt::Debug for Fe29<M> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Fe29({:?})", self.0)
    }
}

impl<M: Modulus29> Fe29<M> {
    #[inline(always)]
    const fn new(limbs: [u64; LIMBS]) -> Self {
        Fe29(limbs, PhantomData)
    }

    /// The limbs (Montgomery form, normalized, not necessarily < p).
    pub const fn limbs(&self) -> &[u64; LIMBS] {
        &self.0
    }

    /// From ark-ff's internal Montgomery limbs (x·2^256 mod p, < p): x·2^261, < p.
    const fn from_ark_limbs(ark: &[u64; 4]) -> Self {
        let x = mont_mul(&from_u64x4(ark), &M::FROM_ARK, &M::P);
        Self::new(sub_if_ge(&x, &M::P))
    }

    /// ark-ff's internal limbs (x·2^256 mod p, fully reduced).
    #[inline]
    fn to_ark_limbs(self) -> [u64; 4] {
        let x = mont_mul(&self.0, &M::TO_ARK, &M::P); // < 2^256·p/2^261 + p < 2p
        to_u64x4(&sub_if_ge(&x, &M::P))
    }

    /// From an integer x < p (64-bit limbs): x·2^261, normalized (< 2^255).
    #[inline]
    fn from_int(x: &[u64; 4]) -> Option<Self> {
        super::is_below(x, &M::P64)
            .then(|| Self::new(mont_mul(&from_u64x4(x), &M::FROM_INT, &M::P)))
    }

    /// The integer below p. The limbs hold y ≡ x·2^261 (mod p), y < 2^256; reducing
    /// them alone gives (y + m·p)/2^261 ≡ x, below 1 + p, so one conditional
    /// subtraction finishes.
    #[inline]
    fn to_int(self) -> [u64; 4] {
        self.check();
        let mut t = [0u64; 2 * LIMBS - 1];
        t[..LIMBS].copy_from_slice(&self.0);
        to_u64x4(&sub_if_ge(&reduce_add(&t, &[0; LIMBS], &M::P), &M::P))
    }

    #[inline(always)]
    fn check(&self) {
        debug_assert!(is_normalized(&self.0), "not normalized: {:?}", self.0);
    }
}

/// Converts a table of ark-ff constants (compile time), reduced below p.
const fn convert<C: MontConfig<4>, M: Modulus29, const ROWS: usize>(
    table: &[[Fp256<MontBackend<C, 4>>; WIDTH]; ROWS],
) -> [[Fe29<M>; WIDTH]; ROWS] {
    let mut out = [[Fe29::new([0; LIMBS]); WIDTH]; ROWS];
    let mut r = 0;
    while r < ROWS {
        let mut c = 0;
        while c < WIDTH {
            out[r][c] = Fe29::from_ark_limbs(&table[r][c].0 .0);
            c += 1;
        }
        r += 1;
    }
    out
}

/// One output of the linear layer, `Σ_j m_j · s_j + k`: the three products by
/// Karatsuba, summed as chunk products (≤ 9 products < 2^60 per entry) and
/// recombined once, then one reduction that adds the round constant.
#[inline(always)]
fn mix_row<M: Modulus29>(m: &[Fe29<M>; WIDTH], s: &[Fe29<M>; WIDTH], k: &Fe29<M>) -> Fe29<M> {
    let mut acc = [[0u64; 5]; 6];
    for (mj, sj) in m.iter().zip(s) {
        sj.check();
        acc = chunk_products_add(acc, &chunks(&mj.0), &chunks(&sj.0));
    }
    Fe29::new(reduce_add(&karatsuba_columns(&acc), &k.0, &M::P))
}

/// The rounds in Wasm for parameters other than the crate's own: one element's
/// S-box after another, then the linear layer. Out of line, which keeps the
/// function small for the engine's register allocator.
#[inline(never)]
fn rounds_general<M: Modulus29>(params: &Params<Fe29<M>>, state: &mut [Fe29<M>; WIDTH])
where
    Fe29<M>: FieldArith,
{
    let (first, rows) = params.schedule();
    if let Some(k) = first {
        add_row(state, k);
    }
    let pow7 = params.set.sbox() == Sbox::Pow7;
    for row in rows {
        for x in state.iter_mut() {
            *x = if pow7 { x.pow7() } else { x.pow5() };
        }
        *state = FieldArith::mix(&params.mds, state, row);
    }
}

/// A set's constants for the rescaled rounds (`params::rescale`), in this
/// representation: d, d⁻¹, M' = D·M·D^−α and the round constants D·k, all below p.
/// The columns and shifts are const parameters of [`rounds_rescaled`].
struct Rescaled<M: 'static> {
    d: [Fe29<M>; WIDTH],
    d_inv: [Fe29<M>; WIDTH],
    mds: [[Fe29<M>; WIDTH]; WIDTH],
    rows: &'static [[Fe29<M>; WIDTH]],
}

/// x^e below p (compile time).
const fn pow_small<M: Modulus29>(x: &Fe29<M>, e: u32) -> Fe29<M> {
    let mut acc = x.0;
    let mut i = 1;
    while i < e {
        acc = mont_mul(&acc, &x.0, &M::P);
        i += 1;
    }
    Fe29::new(sub_if_ge(&acc, &M::P))
}

/// a·b below p (compile time; both below p, so the product is below 2p).
const fn mul_const<M: Modulus29>(a: &Fe29<M>, b: &Fe29<M>) -> Fe29<M> {
    Fe29::new(sub_if_ge(&mont_mul(&a.0, &b.0, &M::P), &M::P))
}

/// The rescaled matrix M'_ij = d_i·M_ij·d_j^−α (compile time).
const fn rescaled_mds<M: Modulus29>(
    mds: &[[Fe29<M>; WIDTH]; WIDTH],
    d: &[Fe29<M>; WIDTH],
    d_inv: &[Fe29<M>; WIDTH],
    alpha: u32,
) -> [[Fe29<M>; WIDTH]; WIDTH] {
    let mut out = *mds;
    let mut i = 0;
    while i < WIDTH {
        let mut j = 0;
        while j < WIDTH {
            out[i][j] = mul_const(&mul_const(&d[i], &mds[i][j]), &pow_small(&d_inv[j], alpha));
            j += 1;
        }
        i += 1;
    }
    out
}

/// The round constants D·k (compile time).
const fn rescaled_rows<M: Modulus29, const ROWS: usize>(
    rc: &[[Fe29<M>; WIDTH]; ROWS],
    d: &[Fe29<M>; WIDTH],
) -> [[Fe29<M>; WIDTH]; ROWS] {
    let mut out = *rc;
    let mut r = 0;
    while r < ROWS {
        let mut i = 0;
        while i < WIDTH {
            out[r][i] = mul_const(&d[i], &rc[r][i]);
            i += 1;
        }
        r += 1;
    }
    out
}

/// Output i of the rescaled linear layer, whose power-of-two entry is in column
/// J: `m_a·s_a + m_b·s_b + 2^(−29·SHIFT)·s_J + k` for the other columns a, b.
/// Two Karatsuba products; s_J's limbs are placed in the product columns (SHIFT
/// 1: from column 8) or added with the constant after the reduction (SHIFT 0),
/// which multiplies by 2^(29·(9 − SHIFT)) / R. Inputs normalized: a column holds
/// ≤ 18 products < 2^58 plus a limb, so the reduction stays below 2^64. The
/// output is below 2^252 + 2p + 2^256 < 2^257 (limb 8 < 2^25): a valid `mul`
/// input, not necessarily normalized.
#[inline(never)]
fn mix_row_rescaled<M: Modulus29, const SET: u8, const J: usize, const SHIFT: usize>(
    m: &[Fe29<M>; WIDTH],
    s: &[Fe29<M>; WIDTH],
    k: &Fe29<M>,
) -> Fe29<M> {
    let (a, b) = ((J + 1) % WIDTH, (J + 2) % WIDTH);
    for x in s {
        x.check();
    }
    let acc = chunk_products_add([[0; 5]; 6], &chunks(&m[a].0), &chunks(&s[a].0));
    let acc = chunk_products_add(acc, &chunks(&m[b].0), &chunks(&s[b].0));
    let mut t = karatsuba_columns(&acc);
    let mut high = k.0;
    for (l, x) in s[J].0.iter().enumerate() {
        // Column 17 does not exist: its limb goes with the constant's top limb.
        match t.get_mut(LIMBS - SHIFT + l) {
            Some(c) => *c += x,
            None => high[LIMBS - 1] += x,
        }
    }
    let out = reduce_add(&t, &high, &M::P);
    debug_assert!(is_mul_input(&out));
    Fe29::new(out)
}

/// The rounds on the rescaled state u = D·s: in by d, the rounds with M' and D·k,
/// out by d⁻¹. Out of line, one copy per set: C0..C2 are the columns of the
/// power-of-two entries and S0..S2 their limb shifts (`params::rescale`). SET
/// makes every instantiation of [`mix_row_rescaled`] have a single caller, so
/// the optimiser turns its MDS row into immediate operands (8% faster under V8
/// than rows shared between sets, which load it).
#[inline(never)]
fn rounds_rescaled<
    M: Modulus29,
    const SET: u8,
    const C0: usize,
    const C1: usize,
    const C2: usize,
    const S0: usize,
    const S1: usize,
    const S2: usize,
>(
    params: &Params<Fe29<M>>,
    r: &Rescaled<M>,
    state: &mut [Fe29<M>; WIDTH],
) where
    Fe29<M>: FieldArith,
{
    scale(state, &r.d);
    let (first, _) = params.schedule();
    let skip = usize::from(first.is_some());
    if first.is_some() {
        add_row(state, &r.rows[0]);
    }
    let m = &r.mds;
    let pow7 = params.set.sbox() == Sbox::Pow7;
    for k in &r.rows[skip..] {
        for x in state.iter_mut() {
            *x = if pow7 { x.pow7() } else { x.pow5() };
        }
        *state = [
            mix_row_rescaled::<M, SET, C0, S0>(&m[0], state, &k[0]),
            mix_row_rescaled::<M, SET, C1, S1>(&m[1], state, &k[1]),
            mix_row_rescaled::<M, SET, C2, S2>(&m[2], state, &k[2]),
        ];
    }
    scale(state, &r.d_inv);
}

/// `state[i] · d[i]`, out of line: it runs twice per permutation, not per round.
#[inline(never)]
fn scale<M: Modulus29>(state: &mut [Fe29<M>; WIDTH], d: &[Fe29<M>; WIDTH])
where
    Fe29<M>: FieldArith,
{
    for (x, d) in state.iter_mut().zip(d) {
        *x = x.mul(*d);
    }
}

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
            /// In Wasm: the rescaled rounds ([`rounds_rescaled`]) when `params` are
            /// this crate's own statics, [`rounds_general`] otherwise. Natively the
            /// three S-box chains interleave well; in Wasm the three live chains
            /// cost spills (7% slower under wasmtime in one quick run, 30% faster
            /// natively).
            #[inline]
            fn permute(params: &Params<Self>, state: &mut [Self; WIDTH]) {
                if cfg!(target_arch = "wasm32") {
                    match own_set(params, &$kimchi, &$legacy) {
                        Some(ParamSet::Kimchi) => {
                            // The package's `fma` module: the generated kernel of this field.
                            #[cfg(all(target_arch = "wasm32", poseidon_fma))]
                            if fma::permute_kimchi(state) {
                                return;
                            }
                            $kimchi_t::rounds(params, state)
                        }
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
            /// one by one (kimchi in the package's `fma` module: two at a time in the
            /// generated kernel's `f64x2` lanes). Elsewhere one after another (natively
            /// the scalar code wins; the lanes there are plain arrays, for the tests).
            fn permute_many(params: &Params<Self>, states: &mut [[Self; WIDTH]]) {
                // The package's `fma` module: the generated kernel, two states per call.
                #[cfg(all(target_arch = "wasm32", poseidon_fma))]
                if own_set(params, &$kimchi, &$legacy) == Some(ParamSet::Kimchi)
                    && fma::permute_many_kimchi(states)
                {
                    return;
                }
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
            fn params(set: ParamSet) -> &'static Params<Self> {
                match set {
                    ParamSet::Kimchi => &$kimchi,
                    ParamSet::Legacy => &$legacy,
                }
            }
        }
    };
}

u29_field!(Fp, Pallas, KIMCHI_FP, LEGACY_FP, kimchi_fp, legacy_fp);
u29_field!(Fq, Vesta, KIMCHI_FQ, LEGACY_FQ, kimchi_fq, legacy_fq);

/// Converts one generated table once at compile time; both `u29` element types use it.
macro_rules! u29_params {
    ($name:ident, $x2name:ident, $modulus:ty, $set:expr, $table:ident, $rescale:ident, $alpha:expr) => {
        mod $table {
            use super::*;
            pub(super) const ROUND_CONSTANTS: [[Fe29<$modulus>; WIDTH];
                tables::$table::ROUND_CONSTANTS.len()] = convert(&tables::$table::ROUND_CONSTANTS);
            pub(super) const MDS: [[Fe29<$modulus>; WIDTH]; WIDTH] = convert(&tables::$table::MDS);
            const R: rescale::Rescaling<<Fe29<$modulus> as FieldArith>::Field> = rescale::$rescale;
            const D: [Fe29<$modulus>; WIDTH] = convert(&[R.d])[0];
            const D_INV: [Fe29<$modulus>; WIDTH] = convert(&[R.d_inv])[0];
            static ROWS: [[Fe29<$modulus>; WIDTH]; ROUND_CONSTANTS.len()] =
                rescaled_rows(&ROUND_CONSTANTS, &D);
            pub(super) static RESCALED: Rescaled<$modulus> = Rescaled {
                d: D,
                d_inv: D_INV,
                mds: rescaled_mds(&MDS, &D, &D_INV, $alpha),
                rows: &ROWS,
            };
            /// The rescaled rounds for this set (its columns and shifts as constants).
            pub(super) fn rounds(
                params: &Params<Fe29<$modulus>>,
                state: &mut [Fe29<$modulus>; WIDTH],
            ) {
                rounds_rescaled::<
                    $modulus,
                    { $set as u8 },
                    { R.column[0] },
                    { R.column[1] },
                    { R.column[2] },
                    { R.limb_shift[0] },
                    { R.limb_shift[1] },
                    { R.limb_shift[2] },
                >(params, &RESCALED, state)
            }
            /// The rescaled four-lane rounds for this set.
            pub(super) fn rounds_x4(
                params: &Params<Fe29<$modulus>>,
                states: &mut [[Fe29<$modulus>; WIDTH]; 4],
            ) {
                permute_x4_rescaled::<
                    $modulus,
                    { R.column[0] },
                    { R.column[1] },
                    { R.column[2] },
                    { R.limb_shift[0] },
                    { R.limb_shift[1] },
                    { R.limb_shift[2] },
                >(params, &RESCALED, states)
            }
        }
        static $name: Params<Fe29<$modulus>> = Params {
            set: $set,
            round_constants: &$table::ROUND_CONSTANTS,
            mds: $table::MDS,
        };
        static $x2name: Params<Fe29x2<$modulus>> = Params {
            set: $set,
            round_constants: &wrap($table::ROUND_CONSTANTS),
            mds: wrap($table::MDS),
        };
    };
}

u29_params!(
    KIMCHI_FP,
    KIMCHI_FP_X2,
    Pallas,
    ParamSet::Kimchi,
    kimchi_fp,
    KIMCHI_FP,
    7
);
u29_params!(
    KIMCHI_FQ,
    KIMCHI_FQ_X2,
    Vesta,
    ParamSet::Kimchi,
    kimchi_fq,
    KIMCHI_FQ,
    7
);
u29_params!(
    LEGACY_FP,
    LEGACY_FP_X2,
    Pallas,
    ParamSet::Legacy,
    legacy_fp,
    LEGACY_FP,
    5
);
u29_params!(
    LEGACY_FQ,
    LEGACY_FQ_X2,
    Vesta,
    ParamSet::Legacy,
    legacy_fq,
    LEGACY_FQ,
    5
);

/// The same constants as [`Fe29x2`] elements.
const fn wrap<M: Modulus29, const ROWS: usize>(
    t: [[Fe29<M>; WIDTH]; ROWS],
) -> [[Fe29x2<M>; WIDTH]; ROWS] {
    let mut out = [[Fe29x2(Fe29::new([0; LIMBS])); WIDTH]; ROWS];
    let mut r = 0;
    while r < ROWS {
        let mut c = 0;
        while c < WIDTH {
            out[r][c] = Fe29x2(t[r][c]);
            c += 1;
        }
        r += 1;
    }
    out
}

/// 9×29-bit limbs, Montgomery form; see the module documentation.
#[derive(Clone, Copy, Debug, Default)]
pub struct U29;

impl Backend for U29 {
    const NAME: &'static str = "u29";
    type Fp = Fp29;
    type Fq = Fq29;
}

#[cfg(test)]
mod tests;

/// Whether the two-lane code ([`U29x2`], [`permute_x2`]) runs on Wasm SIMD in this
/// build (wasm32 with `+simd128`); elsewhere it runs on plain 64-bit lanes.
pub use self::lanes::SIMD128;

/// Two products at once, one per lane: `[a[0]·b[0], a[1]·b[1]]`.
#[inline]
pub fn mul_x2<M: Modulus29>(a: &[Fe29<M>; 2], b: &[Fe29<M>; 2]) -> [Fe29<M>; 2] {
    let r = x2::split(&x2::mul(
        &x2::join(&a[0].0, &a[1].0),
        &x2::join(&b[0].0, &b[1].0),
        &M::P,
    ));
    r.map(Fe29::new)
}

/// Two squares at once, one per lane.
#[inline]
pub fn square_x2<M: Modulus29>(a: &[Fe29<M>; 2]) -> [Fe29<M>; 2] {
    x2::split(&x2::square(&x2::join(&a[0].0, &a[1].0), &M::P)).map(Fe29::new)
}

/// Two independent permutations at once, one per SIMD lane (batch hashing).
pub fn permute_x2<M: Modulus29>(params: &Params<Fe29<M>>, states: &mut [[Fe29<M>; WIDTH]; 2])
where
    Fe29<M>: FieldArith,
{
    let p = &M::P;
    let (first, rows) = params.schedule();
    if let Some(k) = first {
        states.iter_mut().for_each(|st| add_row(st, k));
    }
    let m: [[Limbs2; WIDTH]; WIDTH] = params.mds.map(|r| r.map(|e| x2::splat(&e.0)));
    let mut s: [Limbs2; WIDTH] =
        core::array::from_fn(|i| x2::join(&states[0][i].0, &states[1][i].0));
    let pow7 = params.set.sbox() == Sbox::Pow7;
    for row in rows {
        for x in s.iter_mut() {
            *x = if pow7 { x2::pow7(x, p) } else { x2::pow5(x, p) };
        }
        s = core::array::from_fn(|i| x2::dot3_add(&m[i], &s, &x2::splat(&row[i].0), p));
    }
    for (i, x) in s.iter().enumerate() {
        let [a, b] = x2::split(x);
        states[0][i] = Fe29::new(a);
        states[1][i] = Fe29::new(b);
    }
}

/// Four independent permutations at once, one per SIMD lane (`i32x4` limbs, extmul
/// products; see `x4.rs`): the batch path of [`FieldArith::permute_many`] in Wasm.
/// The crate's own parameter sets run on the rescaled state (six products per
/// round in the linear layer, as the scalar rounds in Wasm), others nine.
pub fn permute_x4<M: Modulus29>(params: &Params<Fe29<M>>, states: &mut [[Fe29<M>; WIDTH]; 4])
where
    Fe29<M>: FieldArith,
{
    if !M::permute_x4_own(params, states) {
        permute_x4_general(params, states)
    }
}

/// [`permute_x4`] on the rescaled state u = D·s (`params::rescale`): scaled in
/// and the first constants added in scalar code (once per permutation), the
/// rounds in lanes with [`x4::dot2_add`] per output, scaled out in scalar
/// code. C0..C2 and S0..S2 as for [`rounds_rescaled`].
fn permute_x4_rescaled<
    M: Modulus29,
    const C0: usize,
    const C1: usize,
    const C2: usize,
    const S0: usize,
    const S1: usize,
    const S2: usize,
>(
    params: &Params<Fe29<M>>,
    r: &Rescaled<M>,
    states: &mut [[Fe29<M>; WIDTH]; 4],
) where
    Fe29<M>: FieldArith,
{
    let (first, _) = params.schedule();
    for st in states.iter_mut() {
        scale(st, &r.d);
        if first.is_some() {
            add_row(st, &r.rows[0]);
        }
    }
    let skip = usize::from(first.is_some());
    let pc = x4::modulus_limbs(&M::P);
    let m: [[x4::Chunks4; WIDTH]; WIDTH] =
        r.mds.map(|row| row.map(|e| x4::chunks(&x4::splat(&e.0))));
    let mut s = join_x4(states);
    let pow7 = params.set.sbox() == Sbox::Pow7;
    for k in &r.rows[skip..] {
        for x in s.iter_mut() {
            *x = if pow7 {
                x4::pow7(x, &pc)
            } else {
                x4::pow5(x, &pc)
            };
        }
        let row = |i: usize, j: usize, shift: usize| {
            let (a, b) = ((j + 1) % WIDTH, (j + 2) % WIDTH);
            let (low8, high) = x4::place(&s[j], &x4::splat(&k[i].0), shift);
            x4::dot2_add([&m[i][a], &m[i][b]], [&s[a], &s[b]], &low8, &high, &pc)
        };
        s = [row(0, C0, S0), row(1, C1, S1), row(2, C2, S2)];
    }
    split_x4(&s, states);
    for st in states.iter_mut() {
        scale(st, &r.d_inv);
    }
}

/// Element i of the four states as lanes.
fn join_x4<M: Modulus29>(states: &[[Fe29<M>; WIDTH]; 4]) -> [x4::Limbs4; WIDTH] {
    core::array::from_fn(|i| {
        states.iter().for_each(|st| st[i].check());
        x4::join([
            &states[0][i].0,
            &states[1][i].0,
            &states[2][i].0,
            &states[3][i].0,
        ])
    })
}

/// The lanes back into the four states, normalized (`mul` outputs are).
fn split_x4<M: Modulus29>(s: &[x4::Limbs4; WIDTH], states: &mut [[Fe29<M>; WIDTH]; 4]) {
    for (i, x) in s.iter().enumerate() {
        for (st, limbs) in states.iter_mut().zip(x4::split(x)) {
            st[i] = Fe29::new(limbs);
            st[i].check();
        }
    }
}

/// [`permute_x4`] for any parameters: the MDS product as three products per output.
fn permute_x4_general<M: Modulus29>(params: &Params<Fe29<M>>, states: &mut [[Fe29<M>; WIDTH]; 4])
where
    Fe29<M>: FieldArith,
{
    let (first, rows) = params.schedule();
    if let Some(k) = first {
        states.iter_mut().for_each(|st| add_row(st, k));
    }
    let pc = x4::modulus_limbs(&M::P);
    let m: [[x4::Chunks4; WIDTH]; WIDTH] =
        params.mds.map(|r| r.map(|e| x4::chunks(&x4::splat(&e.0))));
    let mut s = join_x4(states);
    let pow7 = params.set.sbox() == Sbox::Pow7;
    for row in rows {
        for x in s.iter_mut() {
            *x = if pow7 {
                x4::pow7(x, &pc)
            } else {
                x4::pow5(x, &pc)
            };
        }
        s = core::array::from_fn(|i| x4::dot3_add(&m[i], &s, &x4::splat(&row[i].0), &pc));
    }
    split_x4(&s, states);
}

/// One permutation with two S-boxes (and two MDS rows) in SIMD lanes and the third
/// in scalar code, which the CPU can overlap. Bounds as in the scalar backend.
fn permute_paired<M: Modulus29>(params: &Params<Fe29x2<M>>, state: &mut [Fe29x2<M>; WIDTH])
where
    Fe29<M>: FieldArith,
    Fe29x2<M>: FieldArith,
{
    let mds = params.mds.map(|r| r.map(|e| e.0));
    let p = &M::P;
    let (first, rows) = params.schedule();
    if let Some(k) = first {
        add_row(state, k);
    }
    // Lane l of m01[j] holds M[l][j]; row 2 stays scalar.
    let m01: [Limbs2; WIDTH] = core::array::from_fn(|j| x2::join(&mds[0][j].0, &mds[1][j].0));
    let m2 = &mds[2];
    let mut s01 = x2::join(&state[0].0 .0, &state[1].0 .0);
    let mut s2 = state[2].0;
    let pow7 = params.set.sbox() == Sbox::Pow7;
    for row in rows {
        if pow7 {
            s01 = x2::pow7(&s01, p);
            s2 = s2.pow7();
        } else {
            s01 = x2::pow5(&s01, p);
            s2 = s2.pow5();
        }
        let [s0, s1] = x2::dup(&s01);
        let [a, b] = x2::split(&s01);
        let k01 = x2::join(&row[0].0 .0, &row[1].0 .0);
        let next01 = x2::dot3_add(&m01, &[s0, s1, x2::splat(&s2.0)], &k01, p);
        let t = add_columns(
            add_columns(columns(&m2[0].0, &a), &columns(&m2[1].0, &b)),
            &columns(&m2[2].0, &s2.0),
        );
        s2 = Fe29::new(reduce_add(&t, &row[2].0 .0, p));
        s01 = next01;
    }
    let [a, b] = x2::split(&s01);
    *state = [Fe29x2(Fe29::new(a)), Fe29x2(Fe29::new(b)), Fe29x2(s2)];
}

/// [`Fe29`] for the two-lane schedule ([`U29x2`]): the same element and arithmetic;
/// only the permutation is scheduled differently.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Fe29x2<M>(Fe29<M>);

impl<M> fmt::Debug for Fe29x2<M> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Fe29x2({:?})", self.0 .0)
    }
}

macro_rules! u29x2_field {
    ($field:ty, $modulus:ty, $kimchi:ident, $legacy:ident) => {
        impl FieldArith for Fe29x2<$modulus> {
            type Field = $field;

            delegate_element_ops!();
            #[inline]
            fn permute(params: &Params<Self>, state: &mut [Self; WIDTH]) {
                permute_paired(params, state)
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

u29x2_field!(Fp, Pallas, KIMCHI_FP_X2, LEGACY_FP_X2);
u29x2_field!(Fq, Vesta, KIMCHI_FQ_X2, LEGACY_FQ_X2);

/// `u29` arithmetic with the permutation scheduled over two lanes: Wasm SIMD
/// (`i64x2.extmul_low_i32x4_u`) when built with `+simd128`, plain lanes elsewhere.
#[derive(Clone, Copy, Debug, Default)]
pub struct U29x2;

impl Backend for U29x2 {
    const NAME: &'static str = "u29x2";
    type Fp = Fe29x2<Pallas>;
    type Fq = Fe29x2<Vesta>;
}
