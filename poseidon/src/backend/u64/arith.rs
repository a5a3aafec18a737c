//! Montgomery arithmetic on 4 limbs of 64 bits (R = 2^256), specialised to the Pasta primes.
//!
//! `const fn` on `[u64; 4]`, so the same code converts constant tables at compile
//! time and runs in the permutation. Products go through `u128`, which x86-64 and
//! AArch64 compile to one widening multiply.
//!
//! The primes: p = 2^254 + c with c < 2^127, so limb 2 of p is 0 and limb 3 is 2^62.
//! The reduction step `t += m·p·2^(64i)` therefore multiplies only by p_0 and p_1,
//! skips limb 2 and adds `m·2^62` as two shifted words. Products and the linear
//! layer's rows interleave it with the operand scanning ([`cios_step`]); squares
//! form the whole product first (each cross product once) and [`reduce`] it.
//!
//! Bounds (checked by `debug_assert!` where values enter):
//! - An element is *reduced*: value < p. Every public operation returns a reduced value.
//! - [`reduce`] needs T < p·2^256 and returns (T + m·p)/2^256 < 2p, which one masked
//!   subtraction brings below p. A product of reduced values is < p² < p·2^256; a sum
//!   of three such products plus one reduced value is < 3p² + p < p·2^256 (3p < 2^256).
//! - Since p > 2^254 = R/4, values in [p, 2p) cannot be fed back lazily: (2p)²/R + p
//!   exceeds 2p. Hence the subtraction after each reduction.
//!
//! No branch depends on limb values; the conditional subtraction uses a mask.

use crate::backend::common::{is_below, sbb};

/// Limbs per element.
pub(crate) const LIMBS: usize = 4;
/// A double-width value: the 8 limbs of a product before reduction.
pub(crate) type Wide = [u64; 2 * LIMBS];

/// `a + b·c + carry` as (low word, high word); cannot overflow u128.
#[inline(always)]
const fn mac(a: u64, b: u64, c: u64, carry: u64) -> (u64, u64) {
    let t = a as u128 + (b as u128) * (c as u128) + carry as u128;
    (t as u64, (t >> 64) as u64)
}

/// `a + b + carry` as (sum word, carry word).
#[inline(always)]
const fn adc(a: u64, b: u64, carry: u64) -> (u64, u64) {
    let t = a as u128 + b as u128 + carry as u128;
    (t as u64, (t >> 64) as u64)
}

/// Whether p has the shape the reduction relies on.
pub(crate) const fn is_pasta_shaped(p: &[u64; LIMBS]) -> bool {
    p[0] & 1 == 1 && p[2] == 0 && p[3] == 1 << 62
}

/// The full 512-bit product a·b (schoolbook, 16 word products).
#[inline(always)]
pub(crate) const fn mul_wide(a: &[u64; LIMBS], b: &[u64; LIMBS]) -> Wide {
    let mut t = [0u64; 2 * LIMBS];
    let mut i = 0;
    while i < LIMBS {
        let mut carry = 0;
        let mut j = 0;
        while j < LIMBS {
            (t[i + j], carry) = mac(t[i + j], a[i], b[j], carry);
            j += 1;
        }
        t[i + LIMBS] = carry;
        i += 1;
    }
    t
}

/// a², with each cross product computed once and doubled (10 word products).
#[inline(always)]
pub(crate) const fn square_wide(a: &[u64; LIMBS]) -> Wide {
    let mut t = [0u64; 2 * LIMBS];
    // Cross products a_i·a_j, i < j; row i's carry lands in the still-empty word i + 4.
    let mut i = 0;
    while i < LIMBS {
        let mut carry = 0;
        let mut j = i + 1;
        while j < LIMBS {
            (t[i + j], carry) = mac(t[i + j], a[i], a[j], carry);
            j += 1;
        }
        t[i + LIMBS] = carry;
        i += 1;
    }
    // Double (the cross sum is < 2^511, so nothing leaves the top word).
    let mut k = 2 * LIMBS - 1;
    while k > 0 {
        t[k] = (t[k] << 1) | (t[k - 1] >> 63);
        k -= 1;
    }
    t[0] <<= 1;
    // Add the squares on the diagonal.
    let mut carry = 0;
    let mut i = 0;
    while i < LIMBS {
        (t[2 * i], carry) = mac(t[2 * i], a[i], a[i], carry);
        (t[2 * i + 1], carry) = adc(t[2 * i + 1], 0, carry);
        i += 1;
    }
    t
}

/// `a + b` on double-width values; the caller guarantees the sum is < 2^512.
#[inline(always)]
pub(crate) const fn add_wide(a: &Wide, b: &Wide) -> Wide {
    let mut t = [0u64; 2 * LIMBS];
    let mut carry = 0;
    let mut k = 0;
    while k < 2 * LIMBS {
        (t[k], carry) = adc(a[k], b[k], carry);
        k += 1;
    }
    t
}

/// `a + b` where `b` has 4 limbs (added at the low end); sum < 2^512.
#[inline(always)]
pub(crate) const fn add_low(a: &Wide, b: &[u64; LIMBS]) -> Wide {
    let mut t = *a;
    let mut carry = 0;
    let mut k = 0;
    while k < 2 * LIMBS {
        let bk = if k < LIMBS { b[k] } else { 0 };
        (t[k], carry) = adc(t[k], bk, carry);
        k += 1;
    }
    t
}

/// Montgomery reduction (T + m·p) / 2^256 for the m that clears the low 256 bits.
/// Needs T < p·2^256; returns a value < 2p (not yet below p).
#[inline(always)]
pub(crate) const fn reduce(t: &Wide, p: &[u64; LIMBS], inv: u64) -> [u64; LIMBS] {
    let mut t = *t;
    // Carry out of word i + 4 from step i, added at step i + 1 (same word position).
    let mut pending = 0u64;
    let mut i = 0;
    while i < LIMBS {
        let m = t[i].wrapping_mul(inv);
        let (_, c) = mac(t[i], m, p[0], 0); // low word becomes 0 by the choice of m
        let (x, c) = mac(t[i + 1], m, p[1], c);
        t[i + 1] = x;
        let (x, c) = adc(t[i + 2], 0, c); // p_2 = 0
        t[i + 2] = x;
        let (x, c) = adc(t[i + 3], m << 62, c); // m·p_3 = m·2^62: low part
        t[i + 3] = x;
        // High part of m·2^62, this step's carry and the previous step's: < 2^65.
        let s = t[i + 4] as u128 + (m >> 2) as u128 + c as u128 + pending as u128;
        t[i + 4] = s as u64;
        pending = (s >> 64) as u64;
        i += 1;
    }
    // T + m·p < 2·p·2^256 < 2^512: nothing carries out of the top word.
    debug_assert!(pending == 0);
    [t[4], t[5], t[6], t[7]]
}

/// `x − p` if `x ≥ p`, else `x`: subtract p, then add it back under the borrow
/// mask (arithmetic, not a select, so the compiler keeps it branch-free). The result
/// is below p when x < 2p, and below x − p + … in general: below (α − 1)p for x < αp, α ≥ 2.
#[inline(always)]
pub(crate) const fn sub_p_if_ge(x: &[u64; LIMBS], p: &[u64; LIMBS]) -> [u64; LIMBS] {
    let mut d = [0u64; LIMBS];
    let mut borrow = 0;
    let mut k = 0;
    while k < LIMBS {
        (d[k], borrow) = sbb(x[k], p[k], borrow);
        k += 1;
    }
    add_masked(&d, p, borrow)
}

/// `d + (p if flag == 1 else 0)` modulo 2^256, with `flag` ∈ {0, 1} turned into a mask.
#[inline(always)]
const fn add_masked(d: &[u64; LIMBS], p: &[u64; LIMBS], flag: u64) -> [u64; LIMBS] {
    // Through `black_box`: without it LLVM makes the masked addition a branch on
    // the borrow (seen in the x86-64 code of the permutation's conversions).
    let mask = core::hint::black_box(0u64.wrapping_sub(flag));
    let mut out = [0u64; LIMBS];
    let mut carry = 0;
    let mut k = 0;
    while k < LIMBS {
        (out[k], carry) = adc(d[k], p[k] & mask, carry);
        k += 1;
    }
    out
}

/// 2^256 − p.
pub(crate) const fn neg(p: &[u64; LIMBS]) -> [u64; LIMBS] {
    let mut out = [0u64; LIMBS];
    let mut borrow = 0;
    let mut k = 0;
    while k < LIMBS {
        (out[k], borrow) = sbb(0, p[k], borrow);
        k += 1;
    }
    out
}

/// Montgomery product a·b/2^256 mod p of reduced inputs; reduced output.
#[inline(always)]
pub(crate) const fn mont_mul(
    a: &[u64; LIMBS],
    b: &[u64; LIMBS],
    p: &[u64; LIMBS],
    inv: u64,
) -> [u64; LIMBS] {
    sub_p_if_ge(&mont_mul_lazy(a, b, p, inv), p)
}

/// Montgomery square a²/2^256 mod p of a reduced input; reduced output.
#[inline(always)]
pub(crate) const fn mont_square(a: &[u64; LIMBS], p: &[u64; LIMBS], inv: u64) -> [u64; LIMBS] {
    sub_p_if_ge(&reduce(&square_wide(a), p, inv), p)
}

/// (a + b) mod p for reduced inputs: a + b < 2p < 2^256, then one masked subtraction.
#[inline(always)]
pub(crate) const fn add_mod(a: &[u64; LIMBS], b: &[u64; LIMBS], p: &[u64; LIMBS]) -> [u64; LIMBS] {
    let mut s = [0u64; LIMBS];
    let mut carry = 0;
    let mut k = 0;
    while k < LIMBS {
        (s[k], carry) = adc(a[k], b[k], carry);
        k += 1;
    }
    sub_p_if_ge(&s, p)
}

/// (a − b) mod p for reduced inputs: a − b, plus p under a mask when it borrowed.
#[inline(always)]
pub(crate) const fn sub_mod(a: &[u64; LIMBS], b: &[u64; LIMBS], p: &[u64; LIMBS]) -> [u64; LIMBS] {
    let mut d = [0u64; LIMBS];
    let mut borrow = 0;
    let mut k = 0;
    while k < LIMBS {
        (d[k], borrow) = sbb(a[k], b[k], borrow);
        k += 1;
    }
    add_masked(&d, p, borrow)
}

/// One output of the MDS layer with its round constant: (Σ m_j·s_j + k_R) / 2^256 mod p,
/// where `k_r` is the constant multiplied by 2^256 once more (so the reduction turns
/// it into the constant). Three products summed unreduced, one reduction, one masked
/// subtraction: for reduced `s` the sum is < 3p² + p < p·2^256 and the output < p;
/// for the lazy S-box outputs of the permutation (< 1.53125p) it is < 1.25p.
#[inline(always)]
pub(crate) const fn dot3_add(
    m: &[[u64; LIMBS]; 3],
    s: &[[u64; LIMBS]; 3],
    k_r: &[u64; LIMBS],
    p: &[u64; LIMBS],
    inv: u64,
) -> [u64; LIMBS] {
    let t = add_wide(&mul_wide(&m[0], &s[0]), &mul_wide(&m[1], &s[1]));
    let t = add_low(&add_wide(&t, &mul_wide(&m[2], &s[2])), k_r);
    sub_p_if_ge(&reduce(&t, p, inv), p)
}

/// 3c for p = 2^254 + c: what [`fold_top`] adds to every value's class. Below
/// 2^128 for the Pasta shape with p_1 < 2^62 (both primes: asserted at compile
/// time in `element.rs`).
pub(crate) const fn top_offset(p: &[u64; LIMBS]) -> [u64; LIMBS] {
    let (c0, carry) = mac(0, 3, p[0], 0);
    let (c1, c2) = mac(0, 3, p[1], carry);
    debug_assert!(c2 == 0);
    [c0, c1, 0, 0]
}

/// Any 256-bit value v brought below 2^254 + 3c < p + 2^128, its class moved by
/// 3c ([`top_offset`]): with q = ⌊v/2^254⌋ ≤ 3 and 2^254 ≡ −c, v + 3c ≡
/// (v mod 2^254) + (3 − q)·c, a sum of two non-negative terms (3 − q is the top
/// two bits of !v). No subtraction and no mask; the caller
/// has taken 3c from the value beforehand (the rescaled rows' folded constants).
#[inline(always)]
pub(crate) const fn fold_top(v: &[u64; LIMBS], p: &[u64; LIMBS]) -> [u64; LIMBS] {
    debug_assert!(p[1] < 1 << 62);
    let k = !v[3] >> 62;
    // k·c < 3·2^126: two words.
    let (c0, carry) = mac(0, k, p[0], 0);
    let (c1, _) = mac(0, k, p[1], carry);
    let (d0, carry) = adc(v[0], c0, 0);
    let (d1, carry) = adc(v[1], c1, carry);
    let (d2, carry) = adc(v[2], 0, carry);
    [d0, d1, d2, (v[3] & ((1 << 62) - 1)) + carry]
}

/// One step of the interleaved (CIOS) Montgomery reduction: with the limb's
/// contributions already in `t` (five words, t < 2^320), q = t_0·(−p⁻¹) mod 2^64
/// clears word 0, and (t + q·p)/2^64 is returned in four words. For the Pasta
/// shape q·p is q·p_0 + q·p_1·2^64 + q·2^254: two word products and two shifts.
/// The caller's bound keeps the result below 2^256 (the top word is never lost).
#[inline(always)]
const fn cios_step(t: &[u64; LIMBS], t4: u64, p: &[u64; LIMBS], inv: u64) -> [u64; LIMBS] {
    let q = t[0].wrapping_mul(inv);
    let (_, c) = mac(t[0], q, p[0], 0); // low word becomes 0 by the choice of q
    let (r0, c) = mac(t[1], q, p[1], c);
    // p_2 = 0; then q·2^254 = (q << 62) in word 3 and (q >> 2) in word 4.
    let (r1, c) = adc(t[2], 0, c);
    let w = t[3] as u128 + (((q >> 2) as u128) << 64 | (q << 62) as u128) + c as u128;
    [r0, r1, w as u64, t4.wrapping_add((w >> 64) as u64)]
}

/// `t + a·b` on five words (t in four, the product's carry out returned as the
/// fifth): one row of the operand-scanning product. Cannot overflow: each `mac`
/// is below 2^128, and t + a·b < 2^256 + (2^320 − 2^256) = 2^320.
#[inline(always)]
const fn mac_row(t: &mut [u64; LIMBS], a: &[u64; LIMBS], b: u64) -> u64 {
    let mut c = 0;
    let mut k = 0;
    while k < LIMBS {
        (t[k], c) = mac(t[k], a[k], b, c);
        k += 1;
    }
    c
}

/// One output of the rescaled linear layer (see `params::rescale`), whose
/// power-of-two entry 2^(−29·shift) is in column `j`: the two other products,
/// x_j times 2^(256 − 29·shift) (so the reduction leaves 2^(−29·shift)·x_j) and the
/// folded constant, reduced once, then [`fold_top`]. The value is
/// (T + Q·p)/2^256 for T = m_a·x_a + m_b·x_b + x_j·2^(256−29·shift) + k_r and the Q
/// that clears T's low 256 bits, computed limb by limb (CIOS): four steps, each
/// adding x_a's and x_b's limb i times the matrix entries, then one
/// [`cios_step`]; x_j's term, x_j·2^(64 − 29·shift) (five words, for shift ≤ 2),
/// enters at step 3, as 2^192 times it. The same Q as reducing T whole, so the
/// same bits; in Wasm the interleaved form compiles to fewer instructions (fewer
/// live words), and natively it is no slower.
///
/// Bounds: for inputs below 1.53125p (β) and m, k_r below p the sum is
/// < (2βρ + β)·p·2^256 + p < 2.3p·2^256 (ρ = p/2^256 < 1/4 + 2^-128), so the result
/// is < 3.3p < 2^256, which `fold_top` takes below 2^254 + 3c (its class moved by
/// 3c, which the folded constants took away). Within a step (before its
/// division) the five words hold less than 2^320: after step i the value is below
/// 3p + 2^-64·(the previous), under 3.01p, and step i adds at most 2p·2^64 (two
/// rows; at step 3, whose x limbs are below 2^63 since x < 2^255, at most p·2^64)
/// plus q·p < p·2^64 and, at step 3, x_j·2^(64−29·shift) < 1.54p·2^64: in all
/// below 3.01p + 3.54p·2^64 < 2^320.
#[inline(always)]
pub(crate) const fn dot2_shift_add(
    m: &[[u64; LIMBS]; 3],
    x: &[[u64; LIMBS]; 3],
    j: usize,
    shift: u32,
    k_r: &[u64; LIMBS],
    p: &[u64; LIMBS],
    inv: u64,
) -> [u64; LIMBS] {
    let (a, b) = ((j + 1) % 3, (j + 2) % 3);
    let y = shifted_term(&x[j], shift);
    let mut t = *k_r;
    let mut i = 0;
    while i < LIMBS {
        let mut t4 = mac_row(&mut t, &m[a], x[a][i]);
        t4 = t4.wrapping_add(mac_row(&mut t, &m[b], x[b][i]));
        if i == LIMBS - 1 {
            let mut c = 0;
            let mut k = 0;
            while k < LIMBS {
                (t[k], c) = adc(t[k], y[k], c);
                k += 1;
            }
            t4 = t4.wrapping_add(y[LIMBS]).wrapping_add(c);
        }
        t = cios_step(&t, t4, p, inv);
        i += 1;
    }
    fold_top(&t, p)
}

/// The power-of-two term of a rescaled linear-layer row ([`dot2_shift_add`]):
/// x_j·2^(64 − 29·shift) in five words, for shift ≤ 2 (a shift left by 6 to 64).
#[inline(always)]
pub(crate) const fn shifted_term(xj: &[u64; LIMBS], shift: u32) -> [u64; LIMBS + 1] {
    debug_assert!(shift <= 2);
    let s = 64 - 29 * shift;
    let mut y = [0u64; LIMBS + 1];
    let mut k = 0;
    while k <= LIMBS {
        let lo = if k < LIMBS && s < 64 { xj[k] << s } else { 0 };
        let hi = if k == 0 {
            0
        } else if s == 64 {
            xj[k - 1]
        } else {
            xj[k - 1] >> (64 - s)
        };
        y[k] = lo | hi;
        k += 1;
    }
    y
}

/// `p + p/2^a + p/2^b` (b = 0 omits the second term): bounds for lazy values.
pub(crate) const fn bound(p: &[u64; LIMBS], a: u32, b: u32) -> [u64; LIMBS] {
    let mut out = *p;
    let mut s = 0;
    while s < 2 {
        let sh = if s == 0 { a } else { b };
        if sh > 0 {
            let mut q = [0u64; LIMBS];
            let mut k = 0;
            while k < LIMBS {
                q[k] = p[k] >> sh;
                if k + 1 < LIMBS {
                    q[k] |= p[k + 1] << (64 - sh);
                }
                k += 1;
            }
            let mut carry = 0;
            let mut k = 0;
            while k < LIMBS {
                (out[k], carry) = adc(out[k], q[k], carry);
                k += 1;
            }
        }
        s += 1;
    }
    out
}

/// Montgomery product without the final subtraction: (a·b + m·p)/2^256 < a·b/2^256 + p.
/// The permutation tracks the bounds (see `rounds::sbox3`); needs a < 2^256 − p
/// (about 3p; any b below 2^256), the bound of the interleaved reduction.
///
/// In Wasm this and [`mont_square_lazy`] stay out of line: the rounds with all
/// twelve S-box products inlined made a loop of about 5,100 instructions in
/// wasmtime's code (about 20 KB; the likely cost is the CPU's front end), and
/// under wide arithmetic the permutation ran about 1.09× slower than with the two
/// functions called (`make ab`; only one of them out of line, or the MDS rows too,
/// or one function per S-box chain: slower; see docs/experiments/wasm-wide.md).
#[cfg_attr(target_arch = "wasm32", inline(never))]
#[cfg_attr(not(target_arch = "wasm32"), inline(always))]
pub(crate) const fn mont_mul_lazy(
    a: &[u64; LIMBS],
    b: &[u64; LIMBS],
    p: &[u64; LIMBS],
    inv: u64,
) -> [u64; LIMBS] {
    // Operand scanning with the reduction interleaved (CIOS): row i adds a·b_i,
    // then one reduction step divides by 2^64. The value stays below a + p < 2^256
    // after each step (a < 2^256 − p), below 2^320 within one; the result is the
    // same (a·b + Q·p)/2^256 as reducing the whole product.
    debug_assert!(is_below(a, &neg(p)));
    let mut t = [0u64; LIMBS];
    let mut i = 0;
    while i < LIMBS {
        let t4 = mac_row(&mut t, a, b[i]);
        t = cios_step(&t, t4, p, inv);
        i += 1;
    }
    t
}

/// Montgomery square without the final subtraction; as [`mont_mul_lazy`].
#[cfg_attr(target_arch = "wasm32", inline(never))]
#[cfg_attr(not(target_arch = "wasm32"), inline(always))]
pub(crate) const fn mont_square_lazy(a: &[u64; LIMBS], p: &[u64; LIMBS], inv: u64) -> [u64; LIMBS] {
    reduce(&square_wide(a), p, inv)
}
