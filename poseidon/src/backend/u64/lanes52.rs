//! Many permutations at once: Montgomery arithmetic on 5 limbs of 52 bits
//! (R = 2^260), one permutation per SIMD lane, written once over [`Lanes`].
//!
//! The shape is AVX-512 IFMA's: `vpmadd52luq`/`vpmadd52huq` add the low/high 52
//! bits of a 52×52-bit product to a 64-bit lane. A product's columns collect
//! those halves without carrying (≤ 30 terms < 2^52 each for an MDS row of three
//! products, < 2^57); the reduction adds m·p column by column, p's limb 3 being
//! zero for the Pasta primes.
//!
//! Bounds (ρ = p/2^260 < 2^-5.99): a Montgomery product of values below 2^256 is
//! below 2^252 + p < 1.25p. The state leaves an MDS row below 3·1.25p·p·ρ + p + p
//! (the round constant is added after the reduction) < 2.07p < 2^256, so every
//! multiplication input stays below 2^256 and, normalized, has limbs < 2^52 with
//! the top limb < 2^48. Values enter and leave through scalar code
//! ([`to_lanes`], [`from_lanes`]), which converts between R = 2^256 and R = 2^260
//! and reduces below p.

use super::arith::{self, LIMBS as LIMBS64};
use super::element::{Fe64, Modulus64};
use crate::backend::common::{Pallas, Vesta};

const _: () = assert!(is_pasta_shaped(&Pallas::P52) && is_pasta_shaped(&Vesta::P52));

/// Limb width.
pub(crate) const BITS: u32 = 52;
/// Low 52 bits.
pub(crate) const MASK: u64 = (1 << BITS) - 1;
/// Limbs per element: 5 × 52 = 260 bits.
pub(crate) const LIMBS: usize = 5;

/// A vector of 64-bit lanes with IFMA's operations.
pub(crate) trait Lanes: Copy {
    /// Every lane `x`.
    fn splat(x: u64) -> Self;
    /// From `N` values.
    fn load(x: &[u64]) -> Self;
    /// Into `N` values.
    fn store(self, out: &mut [u64]);
    /// Lane-wise wrapping addition.
    fn add(self, b: Self) -> Self;
    /// `self + low52(a·b)`; a and b must be < 2^52.
    fn madd_lo(self, a: Self, b: Self) -> Self;
    /// `self + high52(a·b)`; a and b must be < 2^52.
    fn madd_hi(self, a: Self, b: Self) -> Self;
    /// `low52((t mod 2^52)·c)` for any t: the reduction's quotient word.
    fn quotient(t: Self, c: Self) -> Self;
    /// `self >> 52`.
    fn shr52(self) -> Self;
    /// `self & (2^52 − 1)`.
    fn low52(self) -> Self;
    /// `self << 1`.
    fn double(self) -> Self;
}

/// Four lanes with a rotation of lanes 0–2, for the single permutation in one 256-bit
/// register ([`permute_single4`]).
pub(crate) trait Rotate: Lanes {
    /// Lanes 0–2 rotated down by `k` (1 or 2): lane i takes lane (i + k) mod 3;
    /// lane 3 stays.
    fn rotate3(self, k: usize) -> Self;
}

/// Eight lanes as two halves of four, for the single permutation's paired
/// products ([`permute_single8`]).
pub(crate) trait Halves: Lanes {
    /// Lanes 0–3 from `self`, lanes 4–7 from `hi`.
    fn blend_hi(self, hi: Self) -> Self;
    /// The two halves exchanged.
    fn swap_halves(self) -> Self;
    /// Lane `j0` in lanes 0–3 and lane `j1` in lanes 4–7.
    fn broadcast2(self, j0: usize, j1: usize) -> Self;
}

/// One element per lane: 5 limbs.
pub(crate) type El<V> = [V; LIMBS];
type Columns<V> = [V; 2 * LIMBS];

/// Splits a value < 2^256 into 52-bit limbs.
pub(crate) const fn split(x: &[u64; LIMBS64]) -> [u64; LIMBS] {
    crate::backend::common::split_limbs(x, BITS)
}

/// Joins normalized 52-bit limbs of a value < 2^256.
pub(crate) const fn join(x: &[u64; LIMBS]) -> [u64; LIMBS64] {
    crate::backend::common::join_limbs(x, BITS)
}

/// Whether p's 52-bit limb 3 is zero (the reduction skips it).
pub(crate) const fn is_pasta_shaped(p: &[u64; LIMBS]) -> bool {
    p[3] == 0 && p[4] < 1 << 47
}

/// The modulus and −p⁻¹ mod 2^52, splatted.
#[derive(Clone, Copy)]
pub(crate) struct Modulus<V> {
    p: El<V>,
    inv: V,
}

impl<V: Lanes> Modulus<V> {
    #[inline(always)]
    pub(crate) fn new(p: &[u64; LIMBS], inv: u64) -> Self {
        Modulus {
            p: p.map(V::splat),
            inv: V::splat(inv & MASK),
        }
    }
}

/// Adds the columns of a·b to `t`.
#[inline(always)]
pub(crate) fn mac_columns<V: Lanes>(t: &mut Columns<V>, a: &El<V>, b: &El<V>) {
    for i in 0..LIMBS {
        for j in 0..LIMBS {
            t[i + j] = t[i + j].madd_lo(a[i], b[j]);
            t[i + j + 1] = t[i + j + 1].madd_hi(a[i], b[j]);
        }
    }
}

/// The columns of Σ a_k·b_k, each column's low and high halves in accumulators of
/// their own per product, summed at the end: an accumulator takes each
/// multiply-add after the one before, so shorter chains are a shorter latency
/// (the single permutation waits on it; the same sums as [`mac_columns`]).
#[inline(always)]
fn dot_columns<V: Lanes, const K: usize>(a: &[El<V>; K], b: &[El<V>; K]) -> Columns<V> {
    // Plain loops: a closure (`array::from_fn`) would not inherit the caller's
    // target features, and its intrinsics would become calls.
    let zero = V::splat(0);
    let mut parts = [[[zero; 2 * LIMBS]; 2]; K];
    for k in 0..K {
        for i in 0..LIMBS {
            for j in 0..LIMBS {
                parts[k][0][i + j] = parts[k][0][i + j].madd_lo(a[k][i], b[k][j]);
                parts[k][1][i + j + 1] = parts[k][1][i + j + 1].madd_hi(a[k][i], b[k][j]);
            }
        }
    }
    let mut sum = [zero; 2 * LIMBS];
    for c in 0..2 * LIMBS {
        sum[c] = parts[0][0][c].add(parts[0][1][c]);
        for part in &parts[1..] {
            sum[c] = sum[c].add(part[0][c].add(part[1][c]));
        }
    }
    sum
}

/// The columns of a², cross products once and doubled.
#[inline(always)]
fn square_columns<V: Lanes>(a: &El<V>) -> Columns<V> {
    let mut t = [V::splat(0); 2 * LIMBS];
    for i in 0..LIMBS {
        for j in i + 1..LIMBS {
            t[i + j] = t[i + j].madd_lo(a[i], a[j]);
            t[i + j + 1] = t[i + j + 1].madd_hi(a[i], a[j]);
        }
    }
    for x in t.iter_mut() {
        *x = x.double();
    }
    for i in 0..LIMBS {
        t[2 * i] = t[2 * i].madd_lo(a[i], a[i]);
        t[2 * i + 1] = t[2 * i + 1].madd_hi(a[i], a[i]);
    }
    t
}

/// Montgomery reduction of the columns, then `k` added, then carries: (T + m·p)/2^260 + k,
/// normalized. Needs the result < 2^256 (see the module bounds).
#[inline(always)]
pub(crate) fn reduce_add<V: Lanes>(mut t: Columns<V>, k: &El<V>, m: &Modulus<V>) -> El<V> {
    let mask = V::splat(MASK);
    for i in 0..LIMBS {
        let q = V::quotient(t[i], m.inv);
        // t[i] + low52(q·p₀) is t[i] rounded up to a multiple of 2^52, so its carry
        // is ⌈t[i]/2^52⌉, known without q: the product itself is not formed.
        let carry = t[i].add(mask).shr52();
        // The next quotient waits on t[i + 1]: its two products go to separate
        // accumulators (one after the other, they would chain two latencies).
        let lo = V::splat(0).madd_lo(q, m.p[1]);
        t[i + 1] = t[i + 1].add(carry).madd_hi(q, m.p[0]).add(lo);
        t[i + 2] = t[i + 2].madd_hi(q, m.p[1]);
        for j in [2, 4] {
            t[i + j] = t[i + j].madd_lo(q, m.p[j]);
            t[i + j + 1] = t[i + j + 1].madd_hi(q, m.p[j]);
        }
    }
    let mut r: El<V> = core::array::from_fn(|j| t[LIMBS + j].add(k[j]));
    for j in 0..LIMBS - 1 {
        r[j + 1] = r[j + 1].add(r[j].shr52());
        r[j] = r[j].low52();
    }
    r
}

#[inline(always)]
pub(crate) fn mul<V: Lanes>(a: &El<V>, b: &El<V>, m: &Modulus<V>) -> El<V> {
    let mut t = [V::splat(0); 2 * LIMBS];
    mac_columns(&mut t, a, b);
    reduce_add(t, &[V::splat(0); LIMBS], m)
}

/// [`mul`] with the columns in short chains ([`dot_columns`]): more additions, less
/// latency. For the single permutation, which waits on each product; the batch,
/// limited by throughput, keeps [`mul`].
#[inline(always)]
pub(crate) fn mul_short<V: Lanes>(a: &El<V>, b: &El<V>, m: &Modulus<V>) -> El<V> {
    reduce_add(dot_columns(&[*a], &[*b]), &[V::splat(0); LIMBS], m)
}

#[inline(always)]
pub(crate) fn square<V: Lanes>(a: &El<V>, m: &Modulus<V>) -> El<V> {
    reduce_add(square_columns(a), &[V::splat(0); LIMBS], m)
}

/// One parameter set's constants in 52-bit limbs, Montgomery form with R = 2^260.
pub(crate) struct Tables52<const ROWS: usize> {
    /// Round constants, every row (the legacy set's row 0 is added before round 1).
    pub(crate) round_constants: [[[u64; LIMBS]; 3]; ROWS],
    /// The MDS matrix.
    pub(crate) mds: [[[u64; LIMBS]; 3]; 3],
    /// For one permutation across lanes (lane i = state element i, lane 3 zero):
    /// `rc_lanes[r][limb][i]` = limb of round constant (r, i).
    pub(crate) rc_lanes: [[[u64; 4]; LIMBS]; ROWS],
    /// `mds_cols[j][limb][i]` = limb of M[i][j]: column j of the MDS matrix across lanes.
    pub(crate) mds_cols: [[[u64; 4]; LIMBS]; 3],
    /// `mds_diags[k][limb][i]` = limb of M[i][(i + k) mod 3]: diagonal k of the MDS
    /// matrix across lanes (lane 3 zero).
    pub(crate) mds_diags: [[[u64; 4]; LIMBS]; 3],
}

impl<const ROWS: usize> Tables52<ROWS> {
    /// From the 64-bit tables (x·2^256 mod p, < p): x·2^260 mod p via a Montgomery
    /// product with 2^260 mod p, then split.
    pub(crate) const fn new<M: Modulus64>(
        round_constants: &[[Fe64<M>; 3]; ROWS],
        mds: &[[Fe64<M>; 3]; 3],
    ) -> Self {
        let (to52, p, inv) = (&M::TO52, &M::P, M::INV);
        let mut out = Tables52 {
            round_constants: [[[0; LIMBS]; 3]; ROWS],
            mds: [[[0; LIMBS]; 3]; 3],
            rc_lanes: [[[0; 4]; LIMBS]; ROWS],
            mds_cols: [[[0; 4]; LIMBS]; 3],
            mds_diags: [[[0; 4]; LIMBS]; 3],
        };
        let mut r = 0;
        while r < ROWS {
            let mut c = 0;
            while c < 3 {
                let k = to_lanes(&round_constants[r][c].0, to52, p, inv);
                out.round_constants[r][c] = k;
                let mut j = 0;
                while j < LIMBS {
                    out.rc_lanes[r][j][c] = k[j];
                    j += 1;
                }
                if r < 3 {
                    let m = to_lanes(&mds[r][c].0, to52, p, inv);
                    out.mds[r][c] = m;
                    let mut j = 0;
                    while j < LIMBS {
                        out.mds_cols[c][j][r] = m[j];
                        out.mds_diags[(c + 3 - r) % 3][j][r] = m[j];
                        j += 1;
                    }
                }
                c += 1;
            }
            r += 1;
        }
        out
    }
}

/// The permutation on `V::N` states at once; `states` in 52-bit limbs (R = 2^260),
/// each < 2p. Interleaves the three S-box chains, as the scalar backend does.
#[inline(always)]
pub(crate) fn permute<V: Lanes, const ROWS: usize>(
    tables: &Tables52<ROWS>,
    initial_ark: bool,
    pow7: bool,
    m: &Modulus<V>,
    s: &mut [El<V>; 3],
) {
    let splat = |x: &[u64; LIMBS]| x.map(V::splat);
    let mds: [[El<V>; 3]; 3] = tables.mds.map(|r| r.map(|x| splat(&x)));
    let mut rows = tables.round_constants.iter();
    if initial_ark {
        let k = rows.next().expect("the legacy set has an initial row");
        // States enter below p, so x + k < 2p.
        for (x, k) in s.iter_mut().zip(k) {
            *x = add_normalize(x, &splat(k));
        }
    }
    for k in rows {
        let [a, b, c] = *s;
        let (a2, b2, c2) = (square(&a, m), square(&b, m), square(&c, m));
        let (a4, b4, c4) = (square(&a2, m), square(&b2, m), square(&c2, m));
        let x = if pow7 {
            let (a6, b6, c6) = (mul(&a4, &a2, m), mul(&b4, &b2, m), mul(&c4, &c2, m));
            [mul(&a6, &a, m), mul(&b6, &b, m), mul(&c6, &c, m)]
        } else {
            [mul(&a4, &a, m), mul(&b4, &b, m), mul(&c4, &c, m)]
        };
        *s = core::array::from_fn(|i| {
            let mut t = [V::splat(0); 2 * LIMBS];
            for j in 0..3 {
                mac_columns(&mut t, &mds[i][j], &x[j]);
            }
            reduce_add(t, &splat(&k[i]), m)
        });
    }
}

/// One permutation across four lanes: lane i holds state element i (lane 3
/// zero), so the three S-boxes run side by side and each MDS output is a lane:
/// the matrix's diagonals times x rotated (see the round's comment). Per round
/// x² and x⁴ by squaring, x³ = x²·x beside x⁴, x⁷ = x⁴·x³ (three products deep,
/// not four); the legacy set (x⁵) takes x⁴·x. Values and bounds as in
/// [`permute`]: any product of inputs below 2^256 is below 1.25p, so the order
/// needs no new bound.
#[inline(always)]
pub(crate) fn permute_single4<V: Rotate, const ROWS: usize>(
    tables: &Tables52<ROWS>,
    initial_ark: bool,
    pow7: bool,
    m: &Modulus<V>,
    s: &mut El<V>,
) {
    // Plain loops, no closures (see `permute_single8`).
    let zero = V::splat(0);
    let mut diags = [[zero; LIMBS]; 3];
    for (diag, table) in diags.iter_mut().zip(&tables.mds_diags) {
        *diag = load_row(table);
    }
    let mut rows = tables.rc_lanes.iter();
    if initial_ark {
        let k = rows.next().expect("the legacy set has an initial row");
        *s = add_normalize(s, &load_row(k));
    }
    for k in rows {
        let x2 = square(s, m);
        let x4 = square(&x2, m);
        let x = if pow7 {
            let x3 = mul_short(&x2, s, m);
            mul_short(&x4, &x3, m)
        } else {
            mul_short(&x4, s, m)
        };
        // Row i = Σ_k M[i][(i + k) mod 3]·x_{(i + k) mod 3}: the diagonals times x
        // rotated, so the first product waits on no shuffle.
        let mut xs = [x; 3];
        for (r, xr) in xs.iter_mut().enumerate().skip(1) {
            for l in xr.iter_mut() {
                *l = l.rotate3(r);
            }
        }
        *s = reduce_add(dot_columns(&diags, &xs), &load_row(k), m);
    }
}

/// A 4-lane row's limbs, one vector each.
#[inline(always)]
fn load_row<V: Lanes>(row: &[[u64; 4]; LIMBS]) -> El<V> {
    let mut k = [V::splat(0); LIMBS];
    for l in 0..LIMBS {
        k[l] = V::load(&row[l]);
    }
    k
}

/// One permutation in eight lanes: the state in lanes 0–2 and again in lanes 4–6
/// (lanes 3 and 7 zero), so that one instruction computes two products where the
/// state in four lanes ([`permute_single4`]) would need two. Fewer instructions:
/// faster on a core whose 512-bit IFMA instruction costs what a 256-bit one does
/// (Zen 5), slower on the Intel Xeon measured (there 512-bit instructions leave
/// fewer vector ports). Per round: x², then [x³ | x⁴] as [x² | x²]·[x | x²], then
/// [x⁷ | x⁷] as [x³ | x⁴]·[x⁴ | x³]; the MDS layer as [M₀ | M₁]·[x₀ | x₁] +
/// [M₂ | 0]·[x₂ | x₂] (columns j of the matrix times element j broadcast), whose
/// two halves added give every row in both halves. The legacy set (x⁵) takes
/// x⁴ = (x²)² and x⁴·x. Values and bounds as in [`permute`].
#[inline(always)]
pub(crate) fn permute_single8<V: Halves, const ROWS: usize>(
    tables: &Tables52<ROWS>,
    initial_ark: bool,
    pow7: bool,
    m: &Modulus<V>,
    s: &mut El<V>,
) {
    let zero = V::splat(0);
    // 4-lane rows to 8 lanes: both halves, or the second half zero. Plain loops
    // and functions, no closures: a closure would not inherit the caller's target
    // features, and its intrinsics would become calls.
    let mut c01 = [zero; LIMBS];
    let mut c2 = [zero; LIMBS];
    for l in 0..LIMBS {
        c01[l] = load_pair(&tables.mds_cols[0][l], &tables.mds_cols[1][l]);
        c2[l] = load_pair(&tables.mds_cols[2][l], &[0; 4]);
    }
    let mut rows = tables.rc_lanes.iter();
    if initial_ark {
        let k = rows.next().expect("the legacy set has an initial row");
        *s = add_normalize(s, &load_twice(k));
    }
    for k in rows {
        let x2 = square(s, m);
        let x = if pow7 {
            let mut b = x2;
            for l in 0..LIMBS {
                b[l] = s[l].blend_hi(x2[l]);
            }
            let x34 = mul_short(&x2, &b, m);
            let mut x43 = x34;
            for l in x43.iter_mut() {
                *l = l.swap_halves();
            }
            mul_short(&x34, &x43, m)
        } else {
            mul_short(&square(&x2, m), s, m)
        };
        let (mut x01, mut x22) = (x, x);
        for l in 0..LIMBS {
            x01[l] = x[l].broadcast2(0, 1);
            x22[l] = x[l].broadcast2(2, 2);
        }
        let mut t = dot_columns(&[c01, c2], &[x01, x22]);
        for c in t.iter_mut() {
            *c = c.add(c.swap_halves());
        }
        *s = reduce_add(t, &load_twice(k), m);
    }
}

/// Eight lanes: `lo` in lanes 0–3, `hi` in lanes 4–7.
#[inline(always)]
fn load_pair<V: Lanes>(lo: &[u64; 4], hi: &[u64; 4]) -> V {
    let mut x = [0u64; 8];
    x[..4].copy_from_slice(lo);
    x[4..].copy_from_slice(hi);
    V::load(&x)
}

/// A 4-lane row's limbs in both halves of eight lanes.
#[inline(always)]
fn load_twice<V: Lanes>(row: &[[u64; 4]; LIMBS]) -> El<V> {
    let mut k = [V::splat(0); LIMBS];
    for l in 0..LIMBS {
        k[l] = load_pair(&row[l], &row[l]);
    }
    k
}

/// `a + b`, normalized.
#[inline(always)]
fn add_normalize<V: Lanes>(a: &El<V>, b: &El<V>) -> El<V> {
    let mut r: El<V> = core::array::from_fn(|j| a[j].add(b[j]));
    for j in 0..LIMBS - 1 {
        r[j + 1] = r[j + 1].add(r[j].shr52());
        r[j] = r[j].low52();
    }
    r
}

/// Scalar entry: ark-ff's limbs (x·2^256 mod p, < p) to x·2^260 mod p (< p) in 52-bit limbs.
#[inline(always)]
pub(crate) const fn to_lanes(
    x: &[u64; LIMBS64],
    to52: &[u64; LIMBS64],
    p: &[u64; LIMBS64],
    inv: u64,
) -> [u64; LIMBS] {
    split(&arith::mont_mul(x, to52, p, inv))
}

/// Scalar exit: x·2^260 mod p (normalized, < 2^256 and < 3p) to ark-ff's fully
/// reduced limbs: one subtraction brings it below 2p, the Montgomery product with
/// 2^252 divides by 16 (< 2p/16 + p), a last subtraction below p.
#[inline(always)]
pub(crate) fn from_lanes(x: &[u64; LIMBS], p: &[u64; LIMBS64], inv: u64) -> [u64; LIMBS64] {
    debug_assert!(x[..LIMBS - 1].iter().all(|&l| l <= MASK) && x[LIMBS - 1] < 1 << 48);
    let v = arith::sub_p_if_ge(&join(x), p);
    arith::sub_p_if_ge(&arith::reduce(&arith::mul_wide(&v, &FROM52), p, inv), p)
}

/// 2^252, which Montgomery-multiplied (R = 2^256) divides by 16.
const FROM52: [u64; LIMBS64] = [0, 0, 0, 1 << 60];

/// Portable lanes: the same algorithm on plain `u64` arrays, with the bounds the
/// hardware relies on asserted (operands < 2^52, no accumulator overflow). Used
/// to test the algorithm on every target.
#[cfg(test)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Portable<const N: usize>(pub(crate) [u64; N]);

#[cfg(test)]
impl Rotate for Portable<4> {
    fn rotate3(self, k: usize) -> Self {
        Portable(core::array::from_fn(|i| {
            if i < 3 {
                self.0[(i + k) % 3]
            } else {
                self.0[i]
            }
        }))
    }
}

#[cfg(test)]
impl Halves for Portable<8> {
    fn blend_hi(self, hi: Self) -> Self {
        Portable(core::array::from_fn(|i| {
            if i < 4 {
                self.0[i]
            } else {
                hi.0[i]
            }
        }))
    }
    fn swap_halves(self) -> Self {
        Portable(core::array::from_fn(|i| self.0[i ^ 4]))
    }
    fn broadcast2(self, j0: usize, j1: usize) -> Self {
        Portable(core::array::from_fn(|i| {
            if i < 4 {
                self.0[j0]
            } else {
                self.0[j1]
            }
        }))
    }
}

#[cfg(test)]
impl<const N: usize> Lanes for Portable<N> {
    fn splat(x: u64) -> Self {
        Portable([x; N])
    }
    fn load(x: &[u64]) -> Self {
        Portable(core::array::from_fn(|i| x[i]))
    }
    fn store(self, out: &mut [u64]) {
        out[..N].copy_from_slice(&self.0);
    }
    fn add(self, b: Self) -> Self {
        Portable(core::array::from_fn(|i| {
            self.0[i].checked_add(b.0[i]).expect("lane overflow")
        }))
    }
    fn madd_lo(self, a: Self, b: Self) -> Self {
        self.add(Portable(core::array::from_fn(|i| {
            (product(a.0[i], b.0[i]) as u64) & MASK
        })))
    }
    fn madd_hi(self, a: Self, b: Self) -> Self {
        self.add(Portable(core::array::from_fn(|i| {
            (product(a.0[i], b.0[i]) >> BITS) as u64
        })))
    }
    fn quotient(t: Self, c: Self) -> Self {
        Portable(core::array::from_fn(|i| {
            (((t.0[i] & MASK) as u128 * (c.0[i] & MASK) as u128) as u64) & MASK
        }))
    }
    fn shr52(self) -> Self {
        Portable(self.0.map(|x| x >> BITS))
    }
    fn low52(self) -> Self {
        Portable(self.0.map(|x| x & MASK))
    }
    fn double(self) -> Self {
        Portable(self.0.map(|x| x.checked_mul(2).expect("lane overflow")))
    }
}

/// A 52×52-bit product; asserts that both operands are limbs.
#[cfg(test)]
fn product(a: u64, b: u64) -> u128 {
    assert!(a <= MASK && b <= MASK, "madd52 operand above 52 bits");
    a as u128 * b as u128
}
