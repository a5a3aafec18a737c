//! The crate's four parameter sets in the `u64` representation, converted at
//! compile time ([`Tables64`]), and the rounds specialised to them: the fused MDS
//! layer and the permutation on the rescaled state.

use ark_ff::{Fp256, MontBackend, MontConfig};

use super::arith::{
    dot2_shift_add, dot3_add, mont_mul, mont_mul_lazy, mont_square_lazy, sub_mod, top_offset, LIMBS,
};
use super::element::{convert, Fe64, Modulus64};
use super::lanes52;
use crate::backend::common::{is_below, Pallas, Vesta};
use crate::field::FieldArith;
use crate::params::{rescale, tables, ParamSet, Params, Sbox, WIDTH};

/// The MDS layer of one round with the round constants folded in: `k_r` holds each
/// constant times 2^256 (see [`arith::dot3_add`]).
#[inline(always)]
pub(super) fn mix_folded<M: Modulus64>(
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
/// single permutation (`Rescaled64`).
pub struct Tables64<M: 'static, const ROWS: usize> {
    pub(super) params: Params<Fe64<M>>,
    pub(super) rescaled: Rescaled64<ROWS>,
    /// The same constants for the batch path (52-bit limbs, R = 2^260); read only
    /// where IFMA code is compiled (x86-64) and by the tests.
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    pub(super) lanes: lanes52::Tables52<ROWS>,
}

/// A set's constants on the rescaled state (`params::rescale`): the scale factors
/// d and d⁻¹, the matrix M'_ij = d_i·M_ij·d_j^−α, and each round row D·k less 3c
/// (what the row's `fold_top` adds back), multiplied by 2^256 once more (so the
/// reduction of [`arith::dot2_shift_add`] turns it into D·k − 3c). Montgomery
/// limbs, below p. The columns and shifts of the power-of-two
/// entries are const parameters of [`permute_rescaled`].
pub(super) struct Rescaled64<const ROWS: usize> {
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
        // The rows' `fold_top` adds 3c; their constants take it away beforehand.
        let offset = mont_mul(&top_offset(p), &M::R2, p, inv);
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
                out.folded[row][i] = sub_mod(&mont_mul(&dk, &M::R2, p, inv), &offset, p);
                row += 1;
            }
            i += 1;
        }
        out
    }
}

macro_rules! u64_tables {
    ($name:ident, $modulus:ty, $set:expr, $table:ident, $alpha:expr) => {
        pub(super) mod $table {
            use super::*;
            pub(crate) const ROWS: usize = tables::$table::ROUND_CONSTANTS.len();
            pub(crate) const ROUND_CONSTANTS: [[Fe64<$modulus>; WIDTH]; ROWS] =
                convert(&tables::$table::ROUND_CONSTANTS);
            pub(crate) const MDS: [[Fe64<$modulus>; WIDTH]; WIDTH] = convert(&tables::$table::MDS);
            pub(crate) const RESCALED: Rescaled64<ROWS> = Rescaled64::new::<_, $modulus>(
                &tables::$table::ROUND_CONSTANTS,
                &tables::$table::MDS,
                &rescale::$name,
                $alpha,
            );
            /// The rescaled permutation of this set (its columns and shifts as
            /// constants), with the S-box's products in assembly where the CPU
            /// has BMI2 and ADX.
            pub(crate) fn permute(state: &mut [Fe64<$modulus>; WIDTH]) {
                #[cfg(target_arch = "x86_64")]
                if let Some(adx) = super::super::adx::Adx::detect() {
                    return permute_with(state, adx);
                }
                permute_with(state, Portable)
            }
            /// [`permute`] with the products given.
            #[inline(always)]
            pub(crate) fn permute_with<P: Products>(state: &mut [Fe64<$modulus>; WIDTH], prod: P) {
                permute_rescaled::<
                    $modulus,
                    ROWS,
                    { rescale::$name.column[0] },
                    { rescale::$name.column[1] },
                    { rescale::$name.column[2] },
                    { rescale::$name.limb_shift[0] as u32 },
                    { rescale::$name.limb_shift[1] as u32 },
                    { rescale::$name.limb_shift[2] as u32 },
                    P,
                >(&super::$name, state, prod)
            }
        }
        pub(super) static $name: Tables64<$modulus, { $table::ROWS }> = Tables64 {
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

/// How the rounds multiply (the S-box's products and the linear layer's rows):
/// [`Portable`] (`arith`'s `u128` code) or, on x86-64 CPUs with BMI2 and ADX,
/// [`Adx`](super::adx::Adx)'s assembly. The same bits.
pub(super) trait Products: Copy {
    fn mul<M: Modulus64>(self, a: &[u64; LIMBS], b: &[u64; LIMBS]) -> [u64; LIMBS];
    fn sq<M: Modulus64>(self, a: &[u64; LIMBS]) -> [u64; LIMBS];
    /// One output of the rescaled linear layer, [`dot2_shift_add`] with the
    /// power-of-two entry in column `J` and shift `S`.
    fn row<M: Modulus64, const J: usize, const S: u32>(
        self,
        m: &[[u64; LIMBS]; WIDTH],
        x: &[[u64; LIMBS]; WIDTH],
        k_r: &[u64; LIMBS],
    ) -> [u64; LIMBS] {
        dot2_shift_add(m, x, J, S, k_r, &M::P, M::INV)
    }
}

/// [`arith::mont_mul_lazy`] and [`arith::mont_square_lazy`].
#[derive(Clone, Copy, Debug)]
pub(super) struct Portable;

impl Products for Portable {
    #[inline(always)]
    fn mul<M: Modulus64>(self, a: &[u64; LIMBS], b: &[u64; LIMBS]) -> [u64; LIMBS] {
        mont_mul_lazy(a, b, &M::P, M::INV)
    }
    #[inline(always)]
    fn sq<M: Modulus64>(self, a: &[u64; LIMBS]) -> [u64; LIMBS] {
        mont_square_lazy(a, &M::P, M::INV)
    }
}

/// The square is the product a·a here (16 word products instead of 10, but on
/// the two carry chains): faster than `arith`'s square beside the assembly
/// product, and as fast as an assembly square with each cross product once.
#[cfg(target_arch = "x86_64")]
impl Products for super::adx::Adx {
    #[inline(always)]
    fn mul<M: Modulus64>(self, a: &[u64; LIMBS], b: &[u64; LIMBS]) -> [u64; LIMBS] {
        debug_assert!(is_below(a, &super::arith::neg(&M::P)));
        super::adx::Adx::mul(self, a, b, M::REDUCTION)
    }
    #[inline(always)]
    fn sq<M: Modulus64>(self, a: &[u64; LIMBS]) -> [u64; LIMBS] {
        Products::mul::<M>(self, a, a)
    }
    #[inline(always)]
    fn row<M: Modulus64, const J: usize, const S: u32>(
        self,
        m: &[[u64; LIMBS]; WIDTH],
        x: &[[u64; LIMBS]; WIDTH],
        k_r: &[u64; LIMBS],
    ) -> [u64; LIMBS] {
        debug_assert!(x.iter().all(|x| is_below(x, &M::SBOX_BOUND)));
        let y = super::arith::shifted_term(&x[J], S);
        let t = super::adx::Adx::row::<J>(self, m, x, &y, k_r, M::REDUCTION);
        super::arith::fold_top(&t, &M::P)
    }
}

/// The S-box on the three elements, without the final subtractions, each step
/// taken for all three before the next: three independent chains, which the CPU
/// overlaps. Bounds, as multiples of p (ρ = p/2^256 < 1/4 + 2^-128; a Montgomery
/// product of values below αp and βp is below (αβρ + 1)p): from inputs below 1.25p
/// ([`STATE_BOUND`](Modulus64::STATE_BOUND)), x² < 1.391p, x⁴ < 1.484p, x⁶ < 1.516p,
/// x⁷ < 1.474p (x⁵ < 1.464p): all below 1.53125p ([`SBOX_BOUND`](Modulus64::SBOX_BOUND)).
#[inline(always)]
fn sbox3<M: Modulus64, P: Products>(
    s: &[[u64; LIMBS]; WIDTH],
    pow7: bool,
    prod: P,
) -> [[u64; LIMBS]; WIDTH] {
    debug_assert!(s.iter().all(|x| is_below(x, &M::STATE_BOUND)));
    let [a, b, c] = s;
    let (a2, b2, c2) = (prod.sq::<M>(a), prod.sq::<M>(b), prod.sq::<M>(c));
    let (a4, b4, c4) = (prod.sq::<M>(&a2), prod.sq::<M>(&b2), prod.sq::<M>(&c2));
    let x = if pow7 {
        let (a6, b6, c6) = (
            prod.mul::<M>(&a4, &a2),
            prod.mul::<M>(&b4, &b2),
            prod.mul::<M>(&c4, &c2),
        );
        debug_assert!([a6, b6, c6].iter().all(|x| is_below(x, &M::SBOX_BOUND)));
        [
            prod.mul::<M>(&a6, a),
            prod.mul::<M>(&b6, b),
            prod.mul::<M>(&c6, c),
        ]
    } else {
        [
            prod.mul::<M>(&a4, a),
            prod.mul::<M>(&b4, b),
            prod.mul::<M>(&c4, c),
        ]
    };
    debug_assert!(x.iter().all(|x| is_below(x, &M::SBOX_BOUND)));
    x
}

/// The permutation on the rescaled state u = D·s (`params::rescale`): in by d, per
/// round [`sbox3`] and three rows ([`dot2_shift_add`], through `prod`; six 256-bit
/// products instead of nine), out by d⁻¹. C0..C2 are the columns of the
/// power-of-two entries and S0..S2 their shifts; constants, so each row's column
/// choice and shift fold away. The state between rounds is below 2^254 + 3c < 1.25p
/// (`fold_top`, whose 3c the folded constants take away beforehand).
#[inline(always)]
pub(super) fn permute_rescaled<
    M: Modulus64,
    const ROWS: usize,
    const C0: usize,
    const C1: usize,
    const C2: usize,
    const S0: u32,
    const S1: u32,
    const S2: u32,
    P: Products,
>(
    tables: &Tables64<M, ROWS>,
    state: &mut [Fe64<M>; WIDTH],
    prod: P,
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
        let x = sbox3::<M, P>(&s, pow7, prod);
        s = [
            prod.row::<M, C0, S0>(&r.mds[0], &x, &k_r[0]),
            prod.row::<M, C1, S1>(&r.mds[1], &x, &k_r[1]),
            prod.row::<M, C2, S2>(&r.mds[2], &x, &k_r[2]),
        ];
    }
    *state = core::array::from_fn(|i| Fe64::new(mont_mul(&s[i], &r.d_inv[i], p, inv)));
}
