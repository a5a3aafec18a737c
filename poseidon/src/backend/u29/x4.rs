//! Four elements at once: limb i of four elements in one [`L4`], so a limb product
//! is one `i64x2.extmul_low_i32x4_u` and one `…_high_…` for four elements. The
//! algorithms and bounds are those of [`arith`](super::arith), lane by lane
//! (Karatsuba products, schoolbook squares, the Pasta reduction; normalized limbs in
//! and out, column sums < 2^64); the tests compare every lane with the scalar code.
//!
//! Each kernel is out of line and fully unrolled (one basic block), and reads the
//! modulus and MDS limbs through [`black_box`], so LLVM sees every product operand
//! as an `i32x4` value and keeps the extmuls (see `lanes.rs`).

use core::hint::black_box;

use super::arith::{BITS, LIMBS};
use super::lanes::{L4, W4};

/// Limb i of four elements.
pub(crate) type Limbs4 = [L4; LIMBS];
type Columns4 = [W4; 2 * LIMBS - 1];
/// Karatsuba chunk operands (see `arith::chunks`), lane-wise.
pub(crate) type Chunks4 = [[L4; 3]; 6];
type ChunkColumns4 = [[W4; 5]; 6];
/// p_1..p_4 in every lane (index 0 unused: p_0 = 1).
pub(crate) type ModulusLimbs4 = [L4; 5];

/// Repeats `$body` with `$i` bound to each literal: full unrolling that does not
/// depend on LLVM's unroll heuristics.
macro_rules! each {
    ($i:ident in [$($n:literal)*] $body:block) => { $( { let $i: usize = $n; $body } )* };
}

/// Lane k from the scalar limbs `x[k]`.
#[inline(always)]
pub(crate) fn join(x: [&[u64; LIMBS]; 4]) -> Limbs4 {
    core::array::from_fn(|i| L4::new([x[0][i], x[1][i], x[2][i], x[3][i]]))
}

/// The same limbs in every lane.
#[inline(always)]
pub(crate) fn splat(a: &[u64; LIMBS]) -> Limbs4 {
    a.map(L4::splat)
}

/// The lanes back as scalar limb arrays.
#[inline(always)]
pub(crate) fn split(x: &Limbs4) -> [[u64; LIMBS]; 4] {
    let mut out = [[0u64; LIMBS]; 4];
    for (i, l) in x.iter().enumerate() {
        for (k, v) in l.lanes().into_iter().enumerate() {
            out[k][i] = v;
        }
    }
    out
}

/// p_1..p_4 as lanes, for [`mul`], [`square`] and [`dot3_add`].
pub(crate) fn modulus_limbs(p: &[u64; LIMBS]) -> ModulusLimbs4 {
    core::array::from_fn(|j| L4::splat(p[j]))
}

/// Karatsuba chunk operands of `a` (entries < 2^31 for limbs < 2^30).
#[inline(always)]
pub(crate) fn chunks(a: &Limbs4) -> Chunks4 {
    let mut e = [[L4::ZERO; 3]; 6];
    each!(l in [0 1 2] {
        let (x, y, z) = (a[l], a[3 + l], a[6 + l]);
        e[0][l] = x;
        e[1][l] = y;
        e[2][l] = z;
        e[3][l] = x.add(y);
        e[4][l] = x.add(z);
        e[5][l] = y.add(z);
    });
    e
}

/// Adds the six chunk products x[c]·y[c] into `acc` (bounds of `arith::chunk_products_add`).
#[inline(always)]
fn chunk_products_add(mut acc: ChunkColumns4, x: &Chunks4, y: &Chunks4) -> ChunkColumns4 {
    each!(c in [0 1 2 3 4 5] {
        each!(i in [0 1 2] {
            each!(j in [0 1 2] {
                acc[c][i + j] = acc[c][i + j].add(x[c][i].mul(y[c][j]));
            });
        });
    });
    acc
}

/// The 17 columns from the chunk products (see `arith::karatsuba_columns`; every
/// difference is a sum of cross products, so no lane goes below zero).
#[inline(always)]
fn karatsuba_columns(r: &ChunkColumns4) -> Columns4 {
    let mut t = [W4::ZERO; 2 * LIMBS - 1];
    each!(k in [0 1 2 3 4] {
        let [r0, r1, r2, r3, r4, r5] = [r[0][k], r[1][k], r[2][k], r[3][k], r[4][k], r[5][k]];
        let c = [
            r0,
            r3.sub(r0.add(r1)),
            r4.sub(r0.add(r2)).add(r1),
            r5.sub(r1.add(r2)),
            r2,
        ];
        each!(i in [0 1 2 3 4] {
            t[3 * i + k] = t[3 * i + k].add(c[i]);
        });
    });
    t
}

/// The columns of a² (see `arith::square_columns`).
#[inline(always)]
fn square_columns(a: &Limbs4) -> Columns4 {
    let d = a.map(L4::double);
    let mut t = [W4::ZERO; 2 * LIMBS - 1];
    each!(i in [0 1 2 3 4 5 6 7 8] {
        t[2 * i] = t[2 * i].add(a[i].mul(a[i]));
        each!(j in [1 2 3 4 5 6 7 8] {
            if i + j < LIMBS {
                t[2 * i + j] = t[2 * i + j].add(a[i].mul(d[i + j]));
            }
        });
    });
    t
}

/// Montgomery reduction of every lane, adding `high` (see `arith::reduce_add`).
#[inline(always)]
fn reduce_add(t: &Columns4, high: &Limbs4, pc: &ModulusLimbs4) -> Limbs4 {
    let mut m = [L4::ZERO; LIMBS];
    let mut carry = W4::ZERO;
    // As in the scalar code: the terms known early first, the previous step's
    // carry and m_{k−1}·p_1 last, which keeps the step-to-step dependency short.
    each!(k in [0 1 2 3 4 5 6 7 8] {
        let mut early = t[k];
        each!(j in [2 3 4] {
            if j <= k {
                early = early.add(m[k - j].mul(pc[j]));
            }
        });
        if k == 8 {
            early = early.add(m[0].widen().shl(22)); // m_0 · p_8, p_8 = 2^22
        }
        let mut acc = early.add(carry);
        if k >= 1 {
            acc = acc.add(m[k - 1].mul(pc[1]));
        }
        let mk = acc.neg_low();
        m[k] = mk;
        carry = acc.add_l4(mk).shr_limb();
    });
    let mut r = [L4::ZERO; LIMBS];
    each!(k in [9 10 11 12 13 14 15 16] {
        let mut acc = t[k].add_l4(high[k - LIMBS]);
        each!(j in [1 2 3 4] {
            if k - j < LIMBS {
                acc = acc.add(m[k - j].mul(pc[j]));
            }
        });
        acc = acc.add(m[k - 8].widen().shl(22)).add(carry);
        r[k - LIMBS] = acc.low();
        carry = acc.shr_limb();
    });
    r[LIMBS - 1] = carry.add_l4(high[LIMBS - 1]).pack();
    r
}

const _: () = assert!(BITS == 29 && LIMBS == 9);

/// Lane-wise Montgomery product.
#[inline(never)]
pub(crate) fn mul(a: &Limbs4, b: &Limbs4, pc: &ModulusLimbs4) -> Limbs4 {
    let pc = black_box(pc);
    let cols = karatsuba_columns(&chunk_products_add(
        [[W4::ZERO; 5]; 6],
        &chunks(a),
        &chunks(b),
    ));
    reduce_add(&cols, &[L4::ZERO; LIMBS], pc)
}

/// Lane-wise Montgomery square.
#[inline(never)]
pub(crate) fn square(a: &Limbs4, pc: &ModulusLimbs4) -> Limbs4 {
    let pc = black_box(pc);
    reduce_add(&square_columns(a), &[L4::ZERO; LIMBS], pc)
}

/// x^7 in every lane: two squarings, two multiplications.
#[inline(always)]
pub(crate) fn pow7(x: &Limbs4, pc: &ModulusLimbs4) -> Limbs4 {
    let x2 = square(x, pc);
    let x4 = square(&x2, pc);
    mul(&mul(&x4, &x2, pc), x, pc)
}

/// x^5 in every lane.
#[inline(always)]
pub(crate) fn pow5(x: &Limbs4, pc: &ModulusLimbs4) -> Limbs4 {
    mul(&square(&square(x, pc), pc), x, pc)
}

/// `Σ_j m[j] · s[j] + k` lane-wise with one reduction; `m` are the chunk operands
/// of three constants (≤ 9 products < 2^60 per chunk column, as in the scalar
/// `mix_row`).
#[inline(never)]
pub(crate) fn dot3_add(
    m: &[Chunks4; 3],
    s: &[Limbs4; 3],
    k: &Limbs4,
    pc: &ModulusLimbs4,
) -> Limbs4 {
    let (m, pc) = black_box((m, pc));
    let mut acc = [[W4::ZERO; 5]; 6];
    each!(j in [0 1 2] {
        acc = chunk_products_add(acc, &m[j], &chunks(&s[j]));
    });
    reduce_add(&karatsuba_columns(&acc), k, pc)
}

/// Output i of the rescaled linear layer in every lane (the scalar
/// `mix_row_rescaled`): `ma·sa + mb·sb`, two Karatsuba products (≤ 18 products
/// < 2^58 per column), plus `low8` in column 8 and `high` as in [`reduce_add`].
/// The caller places the power-of-two entry's element there ([`place`]). One
/// kernel for every output, set and field: the engines' code for a round stays
/// small. Output < 2^257, a `mul` input, as in the scalar code.
#[inline(never)]
pub(crate) fn dot2_add(
    m: [&Chunks4; 2],
    s: [&Limbs4; 2],
    low8: &L4,
    high: &Limbs4,
    pc: &ModulusLimbs4,
) -> Limbs4 {
    let (m, pc) = black_box((m, pc));
    let acc = chunk_products_add([[W4::ZERO; 5]; 6], m[0], &chunks(s[0]));
    let acc = chunk_products_add(acc, m[1], &chunks(s[1]));
    let mut t = karatsuba_columns(&acc);
    t[LIMBS - 1] = t[LIMBS - 1].add_l4(*low8);
    reduce_add(&t, high, pc)
}

/// The power-of-two term 2^(−29·shift)·x and the constant k, placed for
/// [`dot2_add`] (x normalized, k below p): shift 0 adds x to the high part
/// (limbs < 2^30, as the scalar code's columns 9..17 get them); shift 1 puts
/// limb 0 into column 8 and the others into the high part one limb down.
#[inline(always)]
pub(crate) fn place(x: &Limbs4, k: &Limbs4, shift: usize) -> (L4, Limbs4) {
    let mut high = *k;
    if shift == 0 {
        each!(l in [0 1 2 3 4 5 6 7 8] {
            high[l] = high[l].add(x[l]);
        });
        (L4::ZERO, high)
    } else {
        each!(l in [0 1 2 3 4 5 6 7] {
            high[l] = high[l].add(x[l + 1]);
        });
        (x[0], high)
    }
}
