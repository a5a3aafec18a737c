//! Montgomery arithmetic on 9 limbs of 29 bits, specialised to the Pasta primes.
//!
//! Everything here is `const fn` on `[u64; 9]`, so the same code converts the
//! constant tables at compile time and runs in the permutation. 64-bit words hold
//! 29-bit limbs so that a limb product is one `i64.mul` in Wasm (no `u128`, no
//! `__multi3`), and a column of products can be summed without carrying.
//!
//! Bounds (checked by `debug_assert!` where values enter):
//! - An element is *normalized*: limbs 0..=7 < 2^29, limb 8 < 2^24, so its value
//!   is < 2^256 (about 4p). It need not be below p.
//! - `mul`/`square` accept limbs 0..=7 < 2^30 and limb 8 < 2^25 (value < 2^257: a
//!   normalized value plus one lazy addition); a column then sums ≤ 9 products
//!   < 2^60 (< 2^63.2), and the reduction adds ≤ 6 terms < 2^58 and a carry
//!   < 2^35: below 2^64.
//! - Montgomery output (T + m·p) / 2^261 < T / 2^261 + p: for inputs < 2^257 this is
//!   < 2^253 + p < 2^255, and the final carry pass leaves it normalized.
//!
//! The primes: p = 2^254 + c with c < 2^127 and p ≡ 1 (mod 2^32). In 29-bit limbs
//! p_0 = 1, p_5 = p_6 = p_7 = 0 and p_8 = 2^22. So −p⁻¹ ≡ −1 (mod 2^29): the
//! quotient limb is a negation; the reduction multiplies only by p_1..p_4 and
//! shifts for p_8. No branch depends on limb values; conditional subtractions use masks.

/// Limb width.
pub(crate) const BITS: u32 = 29;
/// Low 29 bits.
pub(crate) const MASK: u64 = (1 << BITS) - 1;
/// Limbs per element: 9 × 29 = 261 bits, so R = 2^261.
pub(crate) const LIMBS: usize = 9;
/// Limb 8 of p is 2^22.
const P8_SHIFT: u32 = 22;

/// Columns of a 9×9 limb product: column k holds the sum of a_i·b_j with i + j = k.
pub(crate) type Columns = [u64; 2 * LIMBS - 1];

/// Splits 4×64-bit little-endian limbs into 9×29-bit limbs.
pub(crate) const fn from_u64x4(x: &[u64; 4]) -> [u64; LIMBS] {
    crate::backend::common::split_limbs(x, BITS)
}

/// Joins normalized 29-bit limbs of a value < 2^256 into 4×64-bit limbs.
pub(crate) const fn to_u64x4(x: &[u64; LIMBS]) -> [u64; 4] {
    crate::backend::common::join_limbs(x, BITS)
}

/// Whether p has the shape the reduction relies on.
pub(crate) const fn is_pasta_shaped(p: &[u64; LIMBS]) -> bool {
    p[0] == 1 && p[5] == 0 && p[6] == 0 && p[7] == 0 && p[8] == 1 << P8_SHIFT
}

/// Whether limbs 0..=7 are < 2^29 and limb 8 < 2^24 (value < 2^256).
pub(crate) const fn is_normalized(x: &[u64; LIMBS]) -> bool {
    let mut i = 0;
    while i < LIMBS - 1 {
        if x[i] > MASK {
            return false;
        }
        i += 1;
    }
    x[8] < 1 << 24
}

/// Whether limbs 0..=7 are < 2^30 and limb 8 < 2^25 (value < 2^257): what
/// `mont_mul` and `mont_square` accept.
pub(crate) const fn is_mul_input(x: &[u64; LIMBS]) -> bool {
    let mut i = 0;
    while i < LIMBS - 1 {
        if x[i] >= 1 << 30 {
            return false;
        }
        i += 1;
    }
    x[8] < 1 << 25
}

/// The 17 product columns of a·b, carries deferred. Inputs as for `mont_mul`.
#[inline(always)]
pub(crate) const fn columns(a: &[u64; LIMBS], b: &[u64; LIMBS]) -> Columns {
    let mut t = [0u64; 2 * LIMBS - 1];
    let mut i = 0;
    while i < LIMBS {
        let mut j = 0;
        while j < LIMBS {
            t[i + j] += a[i] * b[j];
            j += 1;
        }
        i += 1;
    }
    t
}

/// Adds columns `b` into `a` (three products summed: ≤ 27 terms < 2^58 per column).
#[inline(always)]
pub(crate) const fn add_columns(mut a: Columns, b: &Columns) -> Columns {
    let mut k = 0;
    while k < 2 * LIMBS - 1 {
        a[k] += b[k];
        k += 1;
    }
    a
}

/// The columns of a², each cross product computed once against a doubled limb.
/// Limbs < 2^30: doubled limbs < 2^31, so a column holds ≤ 4 cross products
/// < 2^61 and one square < 2^60: < 2^63 + 2^60 (8 shifts instead of 17).
#[inline(always)]
pub(crate) const fn square_columns(a: &[u64; LIMBS]) -> Columns {
    let mut d = [0u64; LIMBS];
    let mut i = 0;
    while i < LIMBS {
        d[i] = a[i] << 1;
        i += 1;
    }
    let mut t = [0u64; 2 * LIMBS - 1];
    let mut i = 0;
    while i < LIMBS {
        t[2 * i] += a[i] * a[i];
        let mut j = i + 1;
        while j < LIMBS {
            t[i + j] += a[i] * d[j];
            j += 1;
        }
        i += 1;
    }
    t
}

/// Montgomery reduction: (T + m·p) / 2^261 for the m that makes the low 261 bits
/// vanish, with `high` (normalized) added as `high · 2^261` on the way, which adds
/// `high` to the result for free. Output normalized when the value is < 2^256.
#[inline(always)]
pub(crate) const fn reduce_add(t: &Columns, high: &[u64; LIMBS], p: &[u64; LIMBS]) -> [u64; LIMBS] {
    let mut m = [0u64; LIMBS];
    let mut carry = 0u64;
    let mut k = 0;
    // Low columns: choose m_k so that column k becomes ≡ 0 (mod 2^29); p_0 = 1.
    // Terms known early are summed first; the previous step's carry and
    // m_{k-1}·p_1 last, which keeps the step-to-step dependency short.
    while k < LIMBS {
        let mut early = t[k];
        let mut j = 2;
        while j <= 4 {
            if j <= k {
                early += m[k - j] * p[j];
            }
            j += 1;
        }
        if k == 8 {
            early += m[0] << P8_SHIFT;
        }
        let mut acc = early + carry;
        if k >= 1 {
            acc += m[k - 1] * p[1];
        }
        let mk = acc.wrapping_neg() & MASK;
        m[k] = mk;
        carry = (acc + mk) >> BITS;
        k += 1;
    }
    // High columns: the result limbs; every term but the carry is known already.
    let mut r = [0u64; LIMBS];
    while k < 2 * LIMBS - 1 {
        let mut early = t[k] + high[k - LIMBS];
        let mut j = 1;
        while j <= 4 {
            if k - j < LIMBS {
                early += m[k - j] * p[j];
            }
            j += 1;
        }
        early += m[k - 8] << P8_SHIFT;
        let acc = early + carry;
        r[k - LIMBS] = acc & MASK;
        carry = acc >> BITS;
        k += 1;
    }
    r[LIMBS - 1] = carry + high[LIMBS - 1];
    r
}

const ZERO: [u64; LIMBS] = [0; LIMBS];

/// Montgomery product a·b / 2^261 (mod p), normalized, < 2^255 for inputs < 2^257.
#[inline(always)]
pub(crate) const fn mont_mul(a: &[u64; LIMBS], b: &[u64; LIMBS], p: &[u64; LIMBS]) -> [u64; LIMBS] {
    reduce_add(&product_columns(a, b), &ZERO, p)
}

/// Montgomery square a² / 2^261 (mod p).
#[inline(always)]
pub(crate) const fn mont_square(a: &[u64; LIMBS], p: &[u64; LIMBS]) -> [u64; LIMBS] {
    reduce_add(&square_columns(a), &ZERO, p)
}

/// Propagates carries: limbs < 2^63 in, limbs 0..=7 < 2^29 out (limb 8 keeps the rest).
#[inline(always)]
pub(crate) const fn carry(mut x: [u64; LIMBS]) -> [u64; LIMBS] {
    let mut i = 0;
    while i < LIMBS - 1 {
        x[i + 1] += x[i] >> BITS;
        x[i] &= MASK;
        i += 1;
    }
    x
}

/// `x − k·p` if that is ≥ 0, else `x`; both normalized. Constant time: the borrow
/// becomes a mask.
#[inline(always)]
pub(crate) const fn sub_if_ge(x: &[u64; LIMBS], kp: &[u64; LIMBS]) -> [u64; LIMBS] {
    let mut d = [0u64; LIMBS];
    let mut borrow = 0i64;
    let mut i = 0;
    while i < LIMBS {
        let v = x[i] as i64 - kp[i] as i64 + borrow;
        d[i] = (v as u64) & MASK;
        borrow = v >> BITS; // 0 or −1
        i += 1;
    }
    // borrow = −1 (all ones) when x < k·p: keep x.
    let keep = borrow as u64;
    let mut r = [0u64; LIMBS];
    let mut i = 0;
    while i < LIMBS {
        r[i] = (x[i] & keep) | (d[i] & !keep);
        i += 1;
    }
    r
}

/// k·p in normalized limbs (k = 2, 4, 8 fit: 8p < 2^258, limb 8 < 2^26).
pub(crate) const fn times(p: &[u64; LIMBS], k: u64) -> [u64; LIMBS] {
    let mut x = [0u64; LIMBS];
    let mut i = 0;
    while i < LIMBS {
        x[i] = p[i] * k;
        i += 1;
    }
    carry(x)
}

/// Brings a value < 16p down below 2p: subtract 8p, 4p, 2p where possible.
#[inline(always)]
pub(crate) const fn reduce_below_2p(
    x: &[u64; LIMBS],
    p8: &[u64; LIMBS],
    p4: &[u64; LIMBS],
    p2: &[u64; LIMBS],
) -> [u64; LIMBS] {
    sub_if_ge(&sub_if_ge(&sub_if_ge(x, p8), p4), p2)
}

/// 2^k mod p in normalized limbs, by doubling (compile time only).
pub(crate) const fn pow2_mod(k: u32, p: &[u64; LIMBS]) -> [u64; LIMBS] {
    let mut x = [0u64; LIMBS];
    x[0] = 1;
    let mut i = 0;
    while i < k {
        let mut j = 0;
        while j < LIMBS {
            x[j] <<= 1;
            j += 1;
        }
        x = sub_if_ge(&carry(x), p);
        i += 1;
    }
    x
}

/// `a − b + 8p`, carried (signed), for normalized a, b: a value in (0, 2^256 + 8p),
/// below 16p, with limbs 0..=7 < 2^29.
#[inline(always)]
pub(crate) const fn sub_plus_8p(
    a: &[u64; LIMBS],
    b: &[u64; LIMBS],
    p8: &[u64; LIMBS],
) -> [u64; LIMBS] {
    let mut r = [0u64; LIMBS];
    let mut carry = 0i64;
    let mut i = 0;
    while i < LIMBS {
        let v = a[i] as i64 + p8[i] as i64 - b[i] as i64 + carry;
        if i < LIMBS - 1 {
            r[i] = (v as u64) & MASK;
            carry = v >> BITS;
        } else {
            r[i] = v as u64; // the total is positive, so the top limb is
        }
        i += 1;
    }
    r
}

/// An operand split for one level of three-way Karatsuba: chunks A0, A1, A2 of three
/// limbs (Ai = limbs 3i..3i+3), then A0+A1, A0+A2, A1+A2. Six 3×3 chunk products
/// replace the schoolbook's nine: 54 limb products instead of 81. In Wasm engines
/// each product is an `i64.mul` plus register moves, so fewer products win even
/// though the recombination adds about 50 additions.
pub(crate) type Chunks = [[u64; 3]; 6];
/// The six chunk products (or sums of them), five columns each.
pub(crate) type ChunkColumns = [[u64; 5]; 6];

/// Splits `a` into Karatsuba chunk operands. Limbs < 2^30 give entries < 2^31.
#[inline(always)]
pub(crate) const fn chunks(a: &[u64; LIMBS]) -> Chunks {
    let mut e = [[0u64; 3]; 6];
    let mut l = 0;
    while l < 3 {
        let (x, y, z) = (a[l], a[3 + l], a[6 + l]);
        e[0][l] = x;
        e[1][l] = y;
        e[2][l] = z;
        e[3][l] = x + y;
        e[4][l] = x + z;
        e[5][l] = y + z;
        l += 1;
    }
    e
}

/// Adds the six chunk products x[c]·y[c] into `acc`. Each adds ≤ 3 products per
/// column: < 3·2^62 for entries < 2^31 (one product of `mul` inputs), and
/// < 9·2^60 after three products of normalized operands (the MDS rows).
#[inline(always)]
pub(crate) const fn chunk_products_add(
    mut acc: ChunkColumns,
    x: &Chunks,
    y: &Chunks,
) -> ChunkColumns {
    let mut c = 0;
    while c < 6 {
        let mut i = 0;
        while i < 3 {
            let mut j = 0;
            while j < 3 {
                acc[c][i + j] += x[c][i] * y[c][j];
                j += 1;
            }
            i += 1;
        }
        c += 1;
    }
    acc
}

/// The 17 product columns from the chunk products R0..R5. With z = 2^87 (three
/// limbs), A·B is R0, plus (R3 − R0 − R1)·z, plus (R4 − R0 − R2 + R1)·z², plus
/// (R5 − R1 − R2)·z³, plus R2·z⁴. Every difference is a sum of cross products, so no
/// step goes below zero, and the columns equal the schoolbook's (same bounds).
#[inline(always)]
pub(crate) const fn karatsuba_columns(r: &ChunkColumns) -> Columns {
    let mut t = [0u64; 2 * LIMBS - 1];
    let mut k = 0;
    while k < 5 {
        let [r0, r1, r2, r3, r4, r5] = [r[0][k], r[1][k], r[2][k], r[3][k], r[4][k], r[5][k]];
        let c = [r0, r3 - (r0 + r1), r4 - (r0 + r2) + r1, r5 - (r1 + r2), r2];
        let mut i = 0;
        while i < 5 {
            t[3 * i + k] += c[i];
            i += 1;
        }
        k += 1;
    }
    t
}

/// The 17 product columns of a·b by Karatsuba; equal to [`columns`].
#[inline(always)]
pub(crate) const fn product_columns(a: &[u64; LIMBS], b: &[u64; LIMBS]) -> Columns {
    karatsuba_columns(&chunk_products_add([[0; 5]; 6], &chunks(a), &chunks(b)))
}
