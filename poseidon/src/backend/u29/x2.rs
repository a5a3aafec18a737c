//! Two elements at once: limb i of both in one [`Pair`], so every limb product is
//! half an `i64x2.extmul_low_i32x4_u`. The algorithms and bounds are those of
//! [`arith`](super::arith), lane by lane (normalized limbs in and out, column sums
//! < 2^64); the tests compare the lanes with the scalar code.

use super::arith::LIMBS;
use super::lanes::{Pair, Wide};

/// Limb i of two elements in lane 0 and lane 1.
pub(crate) type Limbs2 = [Pair; LIMBS];
type Columns2 = [Wide; 2 * LIMBS - 1];

/// Both lanes from two scalar limb arrays.
#[inline(always)]
pub(crate) fn join(a: &[u64; LIMBS], b: &[u64; LIMBS]) -> Limbs2 {
    core::array::from_fn(|i| Pair::new(a[i], b[i]))
}

/// The same limbs in both lanes (a constant times two different elements).
#[inline(always)]
pub(crate) fn splat(a: &[u64; LIMBS]) -> Limbs2 {
    core::array::from_fn(|i| Pair::splat(a[i]))
}

/// Lane 0 and lane 1, each broadcast to both lanes.
#[inline(always)]
pub(crate) fn dup(x: &Limbs2) -> [Limbs2; 2] {
    [x.map(Pair::dup0), x.map(Pair::dup1)]
}

/// The two lanes back as scalar limb arrays.
#[inline(always)]
pub(crate) fn split(x: &Limbs2) -> [[u64; LIMBS]; 2] {
    let mut out = [[0u64; LIMBS]; 2];
    for (i, p) in x.iter().enumerate() {
        let [a, b] = p.lanes();
        out[0][i] = a;
        out[1][i] = b;
    }
    out
}

#[inline(always)]
fn columns(a: &Limbs2, b: &Limbs2) -> Columns2 {
    let mut t = [Wide::ZERO; 2 * LIMBS - 1];
    for i in 0..LIMBS {
        for j in 0..LIMBS {
            t[i + j] = t[i + j].add(a[i].mul(b[j]));
        }
    }
    t
}

#[inline(always)]
fn square_columns(a: &Limbs2) -> Columns2 {
    let mut t = [Wide::ZERO; 2 * LIMBS - 1];
    for i in 0..LIMBS {
        for j in i + 1..LIMBS {
            t[i + j] = t[i + j].add(a[i].mul(a[j]));
        }
    }
    for (k, tk) in t.iter_mut().enumerate() {
        *tk = tk.shl(1);
        if k % 2 == 0 {
            *tk = tk.add(a[k / 2].mul(a[k / 2]));
        }
    }
    t
}

/// Montgomery reduction of both lanes, adding `high` (see `arith::reduce_add`).
#[inline(always)]
fn reduce_add(t: &Columns2, high: &Limbs2, p: &[u64; LIMBS]) -> Limbs2 {
    let pj: [Pair; 5] = core::array::from_fn(|j| Pair::splat(p[j]));
    // m_i · p_8 = m_i · 2^22: m < 2^29, so the product fits one extmul.
    let p8 = Pair::splat(1 << 22);
    let mut m = [Pair::splat(0); LIMBS];
    let mut carry = Wide::ZERO;
    for k in 0..LIMBS {
        let mut acc = t[k].add(carry);
        for j in 1..=4 {
            if j <= k {
                acc = acc.add(m[k - j].mul(pj[j]));
            }
        }
        if k == 8 {
            acc = acc.add(m[0].mul(p8));
        }
        let mk = acc.neg_low();
        m[k] = mk.pack();
        acc = acc.add(mk);
        carry = acc.shr_limb();
    }
    let mut r = [Pair::splat(0); LIMBS];
    for k in LIMBS..2 * LIMBS - 1 {
        let mut acc = t[k].add(carry).add_pair(high[k - LIMBS]);
        for j in 1..=4 {
            if k - j < LIMBS {
                acc = acc.add(m[k - j].mul(pj[j]));
            }
        }
        acc = acc.add(m[k - 8].mul(p8));
        r[k - LIMBS] = acc.low().pack();
        carry = acc.shr_limb();
    }
    r[LIMBS - 1] = carry.add_pair(high[LIMBS - 1]).pack();
    r
}

const ZERO2: [u64; LIMBS] = [0; LIMBS];

/// Lane-wise Montgomery product.
#[inline(always)]
pub(crate) fn mul(a: &Limbs2, b: &Limbs2, p: &[u64; LIMBS]) -> Limbs2 {
    reduce_add(&columns(a, b), &splat(&ZERO2), p)
}

/// Lane-wise Montgomery square.
#[inline(always)]
pub(crate) fn square(a: &Limbs2, p: &[u64; LIMBS]) -> Limbs2 {
    reduce_add(&square_columns(a), &splat(&ZERO2), p)
}

/// x^7 in both lanes: two squarings, two multiplications.
#[inline(always)]
pub(crate) fn pow7(x: &Limbs2, p: &[u64; LIMBS]) -> Limbs2 {
    let x2 = square(x, p);
    let x4 = square(&x2, p);
    mul(&mul(&x4, &x2, p), x, p)
}

/// x^5 in both lanes.
#[inline(always)]
pub(crate) fn pow5(x: &Limbs2, p: &[u64; LIMBS]) -> Limbs2 {
    mul(&square(&square(x, p), p), x, p)
}

/// `Σ_j m[j] · s[j] + k` lane-wise, with one reduction (three products: ≤ 27
/// terms < 2^58 a column, as in the scalar `mix`).
#[inline(always)]
pub(crate) fn dot3_add(m: &[Limbs2; 3], s: &[Limbs2; 3], k: &Limbs2, p: &[u64; LIMBS]) -> Limbs2 {
    let mut t = columns(&m[0], &s[0]);
    for j in 1..3 {
        let u = columns(&m[j], &s[j]);
        for (tk, uk) in t.iter_mut().zip(u) {
            *tk = tk.add(uk);
        }
    }
    reduce_add(&t, k, p)
}
