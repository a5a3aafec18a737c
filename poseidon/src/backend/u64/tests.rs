//! Limb-level tests: the 64-bit arithmetic at the bounds the lazy permutation
//! allows (values ≥ p included), and the 52-bit lane algorithm on portable lanes,
//! whose operations assert the hardware's limits (operands < 2^52, no lane
//! overflow). Both run natively and under wasmtime.

use ark_ff::PrimeField;

use super::arith::*;
use super::lanes52::{self, Portable};
use super::{Fe64, Modulus64, Pallas, Vesta};
use crate::backend::common::is_below;
use crate::params::{ParamSet, WIDTH};
use crate::{FieldArith, Fp, Fq, PastaField};

/// Σ limb_i · base^i in the field.
fn value<F: PrimeField>(x: &[u64], bits: u32) -> F {
    let base = F::from(2u64).pow([bits as u64]);
    x.iter()
        .rev()
        .fold(F::ZERO, |acc, &l| acc * base + F::from(l))
}

fn v64<F: PrimeField>(x: &[u64; LIMBS]) -> F {
    value(x, 64)
}

/// 2^-bits.
fn r_inv<F: PrimeField>(bits: u64) -> F {
    F::from(2u64).pow([bits]).inverse().unwrap()
}

/// `x − 1` on 4 limbs (x > 0).
fn dec(x: &[u64; LIMBS]) -> [u64; LIMBS] {
    let mut out = *x;
    for l in out.iter_mut() {
        let (d, borrow) = l.overflowing_sub(1);
        *l = d;
        if !borrow {
            break;
        }
    }
    out
}

/// A deterministic xorshift stream.
struct Xs(u64);
impl Xs {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    /// A value below `bound` (4 limbs), biased to the extremes.
    fn below(&mut self, bound: &[u64; LIMBS]) -> [u64; LIMBS] {
        loop {
            let x: [u64; LIMBS] = core::array::from_fn(|i| match self.next() % 4 {
                0 => bound[i],
                1 => u64::MAX,
                2 => 0,
                _ => self.next(),
            });
            if is_below(&x, bound) {
                return x;
            }
        }
    }
}

/// Inputs below `bound`: 0, 1, p − 1, p, bound − 1, and biased random values.
fn inputs<M: Modulus64>(bound: &[u64; LIMBS], seed: u64) -> Vec<[u64; LIMBS]> {
    let mut rng = Xs(seed);
    let mut v = vec![[0; LIMBS], [1, 0, 0, 0], dec(&M::P), M::P, dec(bound)];
    v.extend((0..300).map(|_| rng.below(bound)));
    v
}

fn lazy_products<F: PrimeField, M: Modulus64>() {
    let xs = inputs::<M>(&M::SBOX_BOUND, 1);
    let rinv = r_inv::<F>(256);
    // Any two factors below 1.53125p: (1.53125²/4 + 1)p < 1.625p.
    let out_bound = bound(&M::P, 1, 3);
    for (i, a) in xs.iter().enumerate() {
        for b in xs.iter().skip(i % 7).step_by(7) {
            let r = mont_mul_lazy(a, b, &M::P, M::INV);
            assert_eq!(v64::<F>(&r), v64::<F>(a) * v64::<F>(b) * rinv);
            assert!(is_below(&r, &out_bound), "{a:?}·{b:?} = {r:?}");
        }
        let r = mont_square_lazy(a, &M::P, M::INV);
        assert_eq!(v64::<F>(&r), v64::<F>(a).square() * rinv);
    }
    // The interleaved reduction's own limit: a just below 2^256 − p, b anything
    // below 2^256 (its value, and the bits of the whole product reduced at once).
    let top = dec(&neg(&M::P));
    for b in [[u64::MAX; LIMBS], top, [0; LIMBS], [1, 0, 0, 0]] {
        for a in [top, dec(&top), M::P] {
            let r = mont_mul_lazy(&a, &b, &M::P, M::INV);
            assert_eq!(v64::<F>(&r), v64::<F>(&a) * v64::<F>(&b) * rinv);
            assert_eq!(r, reduce(&mul_wide(&a, &b), &M::P, M::INV));
        }
    }
    for (i, a) in xs.iter().enumerate() {
        let b = &xs[(i * 7 + 3) % xs.len()];
        assert_eq!(
            mont_mul_lazy(a, b, &M::P, M::INV),
            reduce(&mul_wide(a, b), &M::P, M::INV)
        );
    }
}

/// The S-box chain from states below 1.25p stays below 1.53125p (the bound
/// `rounds::sbox3` documents), also at the extremes.
fn sbox_chain_bounds<F: PrimeField, M: Modulus64>() {
    let rinv = r_inv::<F>(256);
    for x in inputs::<M>(&M::STATE_BOUND, 4) {
        let x2 = mont_square_lazy(&x, &M::P, M::INV);
        let x4 = mont_square_lazy(&x2, &M::P, M::INV);
        let x5 = mont_mul_lazy(&x4, &x, &M::P, M::INV);
        let x6 = mont_mul_lazy(&x4, &x2, &M::P, M::INV);
        let x7 = mont_mul_lazy(&x6, &x, &M::P, M::INV);
        for y in [x2, x4, x5, x6, x7] {
            assert!(is_below(&y, &M::SBOX_BOUND), "{x:?} → {y:?}");
        }
        // x⁷ in Montgomery form: x^7 · R^-6.
        assert_eq!(v64::<F>(&x7), v64::<F>(&x).pow([7]) * rinv.pow([6]));
    }
}

#[test]
fn sbox_chain_bounds_fp() {
    sbox_chain_bounds::<Fp, Pallas>();
}

#[test]
fn sbox_chain_bounds_fq() {
    sbox_chain_bounds::<Fq, Vesta>();
}

#[test]
fn lazy_products_fp() {
    lazy_products::<Fp, Pallas>();
}

#[test]
fn lazy_products_fq() {
    lazy_products::<Fq, Vesta>();
}

/// The MDS row at its worst case: constants p − 1, S-box outputs just below
/// 1.53125p, folded constant p − 1: the output stays below 1.25p.
fn mds_row_at_the_bounds<F: PrimeField, M: Modulus64>() {
    let rinv = r_inv::<F>(256);
    let xs = inputs::<M>(&M::SBOX_BOUND, 2);
    let ms = inputs::<M>(&M::P, 3);
    for (i, s0) in xs.iter().enumerate() {
        let s = [*s0, xs[(i * 5 + 1) % xs.len()], xs[(i * 11 + 2) % xs.len()]];
        let m = [
            ms[i % ms.len()],
            ms[(i + 1) % ms.len()],
            ms[(i + 2) % ms.len()],
        ];
        let k = ms[(i * 3) % ms.len()];
        let r = dot3_add(&m, &s, &k, &M::P, M::INV);
        let want = (0..3).fold(v64::<F>(&k), |acc, j| {
            acc + v64::<F>(&m[j]) * v64::<F>(&s[j])
        });
        assert_eq!(v64::<F>(&r), want * rinv);
        assert!(is_below(&r, &M::STATE_BOUND), "{r:?}");
    }
    let worst = dot3_add(
        &[dec(&M::P); 3],
        &[dec(&M::SBOX_BOUND); 3],
        &dec(&M::P),
        &M::P,
        M::INV,
    );
    assert!(is_below(&worst, &M::STATE_BOUND));
}

#[test]
fn mds_row_at_the_bounds_fp() {
    mds_row_at_the_bounds::<Fp, Pallas>();
}

#[test]
fn mds_row_at_the_bounds_fq() {
    mds_row_at_the_bounds::<Fq, Vesta>();
}

/// `fold_top` brings any 256-bit value below 2^254 + 3c and adds 3c to its class:
/// the multiples of p and 2^254 and their neighbours, 2^256 − 1, and biased
/// random values.
fn fold_top_everywhere<F: PrimeField, M: Modulus64>() {
    let max = [u64::MAX; LIMBS];
    let two254 = [0, 0, 0, 1 << 62];
    let mut v = vec![[0; LIMBS], max, two254, dec(&two254), dec(&max)];
    let mut multiple = [0u64; LIMBS];
    for _ in 0..3 {
        multiple = add_wide(&widen(&multiple), &widen(&M::P))[..LIMBS]
            .try_into()
            .unwrap();
        v.extend([
            multiple,
            dec(&multiple),
            add_low(&widen(&multiple), &[1, 0, 0, 0])[..LIMBS]
                .try_into()
                .unwrap(),
        ]);
    }
    let mut rng = Xs(21);
    v.extend((0..1000).map(|_| rng.below(&max)));
    let (offset, bound) = (v64::<F>(&top_offset(&M::P)), folded_bound::<M>());
    for x in v {
        let r = fold_top(&x, &M::P);
        assert!(is_below(&r, &bound), "{x:?} → {r:?}");
        assert_eq!(v64::<F>(&r), v64::<F>(&x) + offset, "{x:?}");
    }
}

/// 4 limbs as the low half of a double-width value.
fn widen(x: &[u64; LIMBS]) -> Wide {
    let mut t = [0; 2 * LIMBS];
    t[..LIMBS].copy_from_slice(x);
    t
}

/// 2^254 + 3c: [`fold_top`]'s outputs are below it.
fn folded_bound<M: Modulus64>() -> [u64; LIMBS] {
    let mut b = top_offset(&M::P);
    b[3] = 1 << 62;
    b
}

#[test]
fn fold_top_everywhere_fp() {
    fold_top_everywhere::<Fp, Pallas>();
}

#[test]
fn fold_top_everywhere_fq() {
    fold_top_everywhere::<Fq, Vesta>();
}

/// A matrix row, S-box outputs and a folded constant.
type RowCase = ([[u64; LIMBS]; 3], [[u64; LIMBS]; 3], [u64; LIMBS]);

/// Linear-layer row cases: the all-maximum sum (entries and constant p − 1, S-box
/// outputs just below 1.53125p), then `rounds` × as many as the seeded S-box
/// outputs (seed `x_seed`, up to 1.53125p), combined with seeded entries and
/// constants (seed `m_seed`, up to p − 1).
fn row_cases<M: Modulus64>(x_seed: u64, m_seed: u64, rounds: usize) -> Vec<RowCase> {
    let xs = inputs::<M>(&M::SBOX_BOUND, x_seed);
    let ms = inputs::<M>(&M::P, m_seed);
    let top = dec(&M::SBOX_BOUND);
    let mut cases: Vec<RowCase> = vec![([dec(&M::P); 3], [top; 3], dec(&M::P))];
    cases.extend((0..rounds * xs.len()).map(|i| {
        let pick = |v: &[[u64; LIMBS]], k: usize| v[(i * (k + 3) + k) % v.len()];
        (
            core::array::from_fn(|k| pick(&ms, k)),
            core::array::from_fn(|k| pick(&xs, k + 1)),
            pick(&ms, 7),
        )
    }));
    cases
}

/// The rescaled MDS row for every column and shift, with S-box outputs up to
/// 1.53125p, matrix entries and folded constants up to p − 1: its value (moved
/// by `fold_top`'s 3c), and an output below 2^254 + 3c. The all-maximum case is
/// the largest sum the reduction sees.
fn rescaled_row_at_the_bounds<F: PrimeField, M: Modulus64>() {
    let rinv = r_inv::<F>(256);
    let two29_inv = r_inv::<F>(29);
    let cases = row_cases::<M>(5, 6, 1);
    let (offset, bound) = (v64::<F>(&top_offset(&M::P)), folded_bound::<M>());
    for j in 0..WIDTH {
        for shift in 0..3u32 {
            for &(m, x, k) in &cases {
                let r = dot2_shift_add(&m, &x, j, shift, &k, &M::P, M::INV);
                let want = (0..WIDTH)
                    .filter(|&c| c != j)
                    .fold(v64::<F>(&k) * rinv, |acc, c| {
                        acc + v64::<F>(&m[c]) * v64::<F>(&x[c]) * rinv
                    })
                    + v64::<F>(&x[j]) * two29_inv.pow([shift as u64])
                    + offset;
                assert_eq!(v64::<F>(&r), want, "column {j}, shift {shift}");
                assert!(is_below(&r, &bound), "column {j}, shift {shift}: {r:?}");
            }
        }
    }
}

#[test]
fn rescaled_row_at_the_bounds_fp() {
    rescaled_row_at_the_bounds::<Fp, Pallas>();
}

#[test]
fn rescaled_row_at_the_bounds_fq() {
    rescaled_row_at_the_bounds::<Fq, Vesta>();
}

#[test]
fn constants_and_shapes() {
    fn check<F: PrimeField, M: Modulus64>() {
        assert_eq!(v64::<F>(&M::R2), F::from(2u64).pow([512]));
        assert_eq!(v64::<F>(&M::TO52), F::from(2u64).pow([260]));
        assert_eq!(v64::<F>(&M::P), F::ZERO);
        assert_eq!(lanes52::join(&M::P52), M::P);
        assert_eq!(M::INV.wrapping_mul(M::P[0]), u64::MAX);
        // 1.25p = p + ⌊p/4⌋ ≡ (p − 1)/4 since p ≡ 1 (mod 4); 1.53125p is below 2^255.
        assert_eq!(v64::<F>(&M::STATE_BOUND) * F::from(4u64), -F::ONE);
        assert!(M::SBOX_BOUND[3] < 1 << 63);
    }
    check::<Fp, Pallas>();
    check::<Fq, Vesta>();
}

/// The reduction at its largest input, T = p·2^256 − 1.
#[test]
fn reduce_at_the_bound() {
    fn check<F: PrimeField, M: Modulus64>() {
        let mut t = [0u64; 2 * LIMBS];
        t[LIMBS..].copy_from_slice(&M::P);
        let t = {
            let mut x = t;
            for l in x.iter_mut() {
                let (d, b) = l.overflowing_sub(1);
                *l = d;
                if !b {
                    break;
                }
            }
            x
        };
        let r = reduce(&t, &M::P, M::INV);
        assert_eq!(v64::<F>(&r), value::<F>(&t, 64) * r_inv::<F>(256));
        assert!(is_below(&sub_p_if_ge(&r, &M::P), &M::P));
    }
    check::<Fp, Pallas>();
    check::<Fq, Vesta>();
}

/// Lane values at the extremes: 0, p − 1, and every normalized limb at its maximum
/// (2^256 − 1, the largest value the lanes may hold).
fn lane_edges<M: Modulus64>() -> Vec<[u64; lanes52::LIMBS]> {
    let max = [u64::MAX; LIMBS];
    let mut rng = Xs(9);
    let mut v = vec![
        lanes52::split(&[0; LIMBS]),
        lanes52::split(&dec(&M::P)),
        lanes52::split(&M::P),
        lanes52::split(&max),
    ];
    v.extend((0..60).map(|_| lanes52::split(&rng.below(&max))));
    v
}

fn lane_arithmetic<F: PrimeField, M: Modulus64>() {
    const N: usize = 4;
    let m = lanes52::Modulus::<Portable<N>>::new(&M::P52, M::INV);
    let xs = lane_edges::<M>();
    let rinv = r_inv::<F>(260);
    let load = |v: [&[u64; lanes52::LIMBS]; N]| -> [Portable<N>; lanes52::LIMBS] {
        core::array::from_fn(|j| Portable(core::array::from_fn(|l| v[l][j])))
    };
    let lane = |x: &[Portable<N>; lanes52::LIMBS], l: usize| -> [u64; lanes52::LIMBS] {
        core::array::from_fn(|j| x[j].0[l])
    };
    for w in xs.windows(2 * N) {
        let a = load(core::array::from_fn(|l| &w[l]));
        let b = load(core::array::from_fn(|l| &w[N + l]));
        let prod = lanes52::mul(&a, &b, &m);
        assert_eq!(
            lanes52::mul_short(&a, &b, &m),
            prod,
            "the short-chain product is the same"
        );
        let sq = lanes52::square(&a, &m);
        for l in 0..N {
            let (x, y) = (value::<F>(&w[l], 52), value::<F>(&w[N + l], 52));
            let r = lane(&prod, l);
            assert_eq!(value::<F>(&r, 52), x * y * rinv);
            // Normalized and below 1.25p: limbs < 2^52, value < 2^256.
            assert!(r[..4].iter().all(|&x| x <= lanes52::MASK) && r[4] < 1 << 48);
            assert_eq!(value::<F>(&lane(&sq, l), 52), x * x * rinv);
        }
    }
}

#[test]
fn lane_arithmetic_fp() {
    lane_arithmetic::<Fp, Pallas>();
}

#[test]
fn lane_arithmetic_fq() {
    lane_arithmetic::<Fq, Vesta>();
}

/// Entering and leaving the lanes: x·2^256 → x·2^260 → x·2^256, including lane
/// values ≥ p (up to 3p, as the permutation's state may be).
fn lane_conversions<F: PrimeField + PastaField, M: Modulus64>()
where
    Fe64<M>: FieldArith<Field = F>,
{
    let mut rng = Xs(5);
    for _ in 0..200 {
        let x = rng.below(&M::P);
        let l = lanes52::to_lanes(&x, &M::TO52, &M::P, M::INV);
        assert_eq!(lanes52::from_lanes(&l, &M::P, M::INV), x);
        // x + 2p (< 3p < 2^256): the same element, reduced on the way out.
        let mut s = lanes52::join(&l);
        for _ in 0..2 {
            let mut c = 0u128;
            for (sk, pk) in s.iter_mut().zip(M::P) {
                c += *sk as u128 + pk as u128;
                *sk = c as u64;
                c >>= 64;
            }
        }
        assert_eq!(lanes52::from_lanes(&lanes52::split(&s), &M::P, M::INV), x);
    }
}

#[test]
fn lane_conversions_fp() {
    lane_conversions::<Fp, Pallas>();
}

#[test]
fn lane_conversions_fq() {
    lane_conversions::<Fq, Vesta>();
}

/// The lane permutation (portable lanes, 3 of them) against the reference, for
/// both parameter sets, on edge and random states.
fn lane_permutation<F: PastaField, M: Modulus64>(tables: impl Fn(ParamSet) -> LaneTables)
where
    Fe64<M>: FieldArith<Field = F>,
{
    const N: usize = 3;
    let mut rng = Xs(11);
    let edge = [F::ZERO, F::ONE, -F::ONE, -F::from(2u64)];
    let m = lanes52::Modulus::<Portable<N>>::new(&M::P52, M::INV);
    for set in ParamSet::ALL {
        for round in 0..6 {
            let states: [[F; WIDTH]; N] = core::array::from_fn(|l| {
                core::array::from_fn(|e| {
                    if round == 0 {
                        edge[(l + e) % edge.len()]
                    } else {
                        F::from(rng.next()) * F::from(rng.next()).square().square()
                    }
                })
            });
            let mut s: [[Portable<N>; lanes52::LIMBS]; WIDTH] = core::array::from_fn(|e| {
                let limbs: [[u64; lanes52::LIMBS]; N] = core::array::from_fn(|l| {
                    let x = Fe64::<M>::from_field(states[l][e]);
                    lanes52::to_lanes(x.limbs(), &M::TO52, &M::P, M::INV)
                });
                core::array::from_fn(|j| Portable(core::array::from_fn(|l| limbs[l][j])))
            });
            match tables(set) {
                LaneTables::Kimchi(t) => lanes52::permute(t, false, true, &m, &mut s),
                LaneTables::Legacy(t) => lanes52::permute(t, true, false, &m, &mut s),
            }
            for (l, st) in states.iter().enumerate() {
                let mut want = *st;
                crate::permute_with::<F, crate::backend::Reference>(set, &mut want);
                let got: [F; WIDTH] = core::array::from_fn(|e| {
                    let limbs = core::array::from_fn(|j| s[e][j].0[l]);
                    Fe64::<M>::new(lanes52::from_lanes(&limbs, &M::P, M::INV)).to_field()
                });
                assert_eq!(got, want, "{set} lane {l}");
            }
        }
    }
}

enum LaneTables {
    Kimchi(&'static lanes52::Tables52<55>),
    Legacy(&'static lanes52::Tables52<64>),
}

fn fp_lane_tables(set: ParamSet) -> LaneTables {
    match set {
        ParamSet::Kimchi => LaneTables::Kimchi(&super::rounds::KIMCHI_FP.lanes),
        ParamSet::Legacy => LaneTables::Legacy(&super::rounds::LEGACY_FP.lanes),
    }
}

fn fq_lane_tables(set: ParamSet) -> LaneTables {
    match set {
        ParamSet::Kimchi => LaneTables::Kimchi(&super::rounds::KIMCHI_FQ.lanes),
        ParamSet::Legacy => LaneTables::Legacy(&super::rounds::LEGACY_FQ.lanes),
    }
}

#[test]
fn lane_permutation_fp() {
    lane_permutation::<Fp, Pallas>(fp_lane_tables);
}

#[test]
fn lane_permutation_fq() {
    lane_permutation::<Fq, Vesta>(fq_lane_tables);
}

/// Runs one of the single permutations on portable lanes.
type SingleOnLanes<const N: usize> =
    fn(&LaneTables, &lanes52::Modulus<Portable<N>>, &mut [Portable<N>; lanes52::LIMBS]);

/// A single permutation on `N` portable lanes (the state in lanes 0–2 of each
/// group of four, the fourth lane zero), against the reference: every group holds
/// the result, every fourth lane stays zero.
fn lane_single_permutation<F: PastaField, M: Modulus64, const N: usize>(
    tables: impl Fn(ParamSet) -> LaneTables,
    permute: SingleOnLanes<N>,
) where
    Fe64<M>: FieldArith<Field = F>,
{
    let mut rng = Xs(17);
    let m = lanes52::Modulus::<Portable<N>>::new(&M::P52, M::INV);
    let max = [u64::MAX; LIMBS];
    for set in ParamSet::ALL {
        for round in 0..5 {
            let state: [F; WIDTH] = core::array::from_fn(|e| match round {
                0 => [F::ZERO, -F::ONE, F::ONE][e],
                1 => [-F::ONE; WIDTH][e],
                _ => value::<F>(&rng.below(&max), 64),
            });
            let limbs = state.map(|x| {
                lanes52::to_lanes(Fe64::<M>::from_field(x).limbs(), &M::TO52, &M::P, M::INV)
            });
            let mut s: [Portable<N>; lanes52::LIMBS] = core::array::from_fn(|j| {
                Portable(core::array::from_fn(|l| {
                    if l % 4 < WIDTH {
                        limbs[l % 4][j]
                    } else {
                        0
                    }
                }))
            });
            permute(&tables(set), &m, &mut s);
            let mut want = state;
            crate::permute_with::<F, crate::backend::Reference>(set, &mut want);
            for group in (0..N).step_by(4) {
                let got: [F; WIDTH] = core::array::from_fn(|e| {
                    let l = core::array::from_fn(|j| s[j].0[group + e]);
                    Fe64::<M>::new(lanes52::from_lanes(&l, &M::P, M::INV)).to_field()
                });
                assert_eq!(got, want, "{set}, lanes {group}..");
                assert!(
                    s.iter().all(|x| x.0[group + 3] == 0),
                    "lane {} stays zero",
                    group + 3
                );
            }
        }
    }
}

fn single4(t: &LaneTables, m: &lanes52::Modulus<Portable<4>>, s: &mut [Portable<4>; 5]) {
    match t {
        LaneTables::Kimchi(t) => lanes52::permute_single4(t, false, true, m, s),
        LaneTables::Legacy(t) => lanes52::permute_single4(t, true, false, m, s),
    }
}

fn single8(t: &LaneTables, m: &lanes52::Modulus<Portable<8>>, s: &mut [Portable<8>; 5]) {
    match t {
        LaneTables::Kimchi(t) => lanes52::permute_single8(t, false, true, m, s),
        LaneTables::Legacy(t) => lanes52::permute_single8(t, true, false, m, s),
    }
}

#[test]
fn lane_single4_permutation_fp() {
    lane_single_permutation::<Fp, Pallas, 4>(fp_lane_tables, single4);
}

#[test]
fn lane_single4_permutation_fq() {
    lane_single_permutation::<Fq, Vesta, 4>(fq_lane_tables, single4);
}

#[test]
fn lane_single8_permutation_fp() {
    lane_single_permutation::<Fp, Pallas, 8>(fp_lane_tables, single8);
}

#[test]
fn lane_single8_permutation_fq() {
    lane_single_permutation::<Fq, Vesta, 8>(fq_lane_tables, single8);
}

/// Both forms of the single permutation on this CPU's IFMA lanes, whichever the
/// backend picks, against the reference on edge and seeded random states (the
/// backend tests cover only the picked form). Passes vacuously without IFMA:
/// the portable tests above cover the algorithm there.
#[cfg(target_arch = "x86_64")]
#[test]
fn ifma_single_forms() {
    use super::ifma::{self, Single};
    if !ifma::available() {
        return;
    }
    fn check<F: PastaField, M: Modulus64, const ROWS: usize>(
        tables: &super::rounds::Tables64<M, ROWS>,
        set: ParamSet,
    ) where
        Fe64<M>: FieldArith<Field = F>,
    {
        let mut rng = Xs(29);
        let max = [u64::MAX; LIMBS];
        for round in 0..8 {
            let state: [F; WIDTH] = core::array::from_fn(|e| match round {
                0 => [F::ZERO, -F::ONE, F::ONE][e],
                1 => [-F::ONE; WIDTH][e],
                _ => value::<F>(&rng.below(&max), 64),
            });
            let mut want = state;
            crate::permute_with::<F, crate::backend::Reference>(set, &mut want);
            for form in [Single::Four, Single::Eight] {
                let mut got = state.map(Fe64::<M>::from_field);
                ifma::permute_in(form, tables, &mut got);
                assert_eq!(got.map(|x| x.to_field()), want, "{set}, {form:?}");
            }
        }
    }
    use super::rounds::{KIMCHI_FP, KIMCHI_FQ, LEGACY_FP, LEGACY_FQ};
    check::<Fp, Pallas, 55>(&KIMCHI_FP, ParamSet::Kimchi);
    check::<Fp, Pallas, 64>(&LEGACY_FP, ParamSet::Legacy);
    check::<Fq, Vesta, 55>(&KIMCHI_FQ, ParamSet::Kimchi);
    check::<Fq, Vesta, 64>(&LEGACY_FQ, ParamSet::Legacy);
}

/// The single permutation's form: eight lanes on AMD from Zen 5, four elsewhere,
/// `POSEIDON_U52_SINGLE` overriding either way.
#[cfg(target_arch = "x86_64")]
#[test]
fn single_form_rule() {
    use super::ifma::{choose_form, Single};
    assert_eq!(choose_form(None, true, 0x1A), Single::Eight);
    assert_eq!(choose_form(None, true, 0x1B), Single::Eight);
    assert_eq!(choose_form(None, true, 0x19), Single::Four, "Zen 4");
    assert_eq!(choose_form(None, false, 6), Single::Four, "Intel");
    assert_eq!(choose_form(Some("4"), true, 0x1A), Single::Four);
    assert_eq!(choose_form(Some(" 8\n"), false, 6), Single::Eight);
    assert_eq!(choose_form(Some("16"), false, 6), Single::Four, "ignored");
    assert_eq!(choose_form(Some(""), true, 0x1A), Single::Eight, "ignored");
}

/// The assembly product against `mont_mul_lazy`, bit for bit: every pair of the
/// lazy inputs (up to 1.53125p, edges included), squares, and the interleaved
/// reduction's limit (a just below 2^256 − p, b up to 2^256 − 1). Passes
/// vacuously without BMI2 and ADX, where the backend never runs it.
#[cfg(target_arch = "x86_64")]
#[test]
fn adx_products() {
    let Some(adx) = super::adx::Adx::detect() else {
        return;
    };
    fn check<M: Modulus64>(adx: super::adx::Adx) {
        let m = M::REDUCTION;
        let xs = inputs::<M>(&M::SBOX_BOUND, 31);
        for a in &xs {
            for b in &xs {
                assert_eq!(
                    adx.mul(a, b, m),
                    mont_mul_lazy(a, b, &M::P, M::INV),
                    "{a:?}·{b:?}"
                );
            }
            assert_eq!(
                adx.mul(a, a, m),
                mont_square_lazy(a, &M::P, M::INV),
                "{a:?}²"
            );
        }
        let top = dec(&neg(&M::P));
        let mut rng = Xs(37);
        let max = [u64::MAX; LIMBS];
        let bs = [
            max,
            top,
            [0; LIMBS],
            [1, 0, 0, 0],
            rng.below(&max),
            rng.below(&max),
        ];
        for a in [top, dec(&top), M::P, rng.below(&top)] {
            for b in &bs {
                assert_eq!(adx.mul(&a, b, m), mont_mul_lazy(&a, b, &M::P, M::INV));
            }
        }
    }
    check::<Pallas>(adx);
    check::<Vesta>(adx);
}

/// The assembly linear-layer row against `dot2_shift_add`, bit for bit, for every
/// column and shift on [`row_cases`] (S-box outputs up to 1.53125p, entries and
/// constants up to p − 1, the all-maximum sum). Passes vacuously without BMI2 and
/// ADX.
#[cfg(target_arch = "x86_64")]
#[test]
fn adx_rows() {
    use super::rounds::Products;
    let Some(adx) = super::adx::Adx::detect() else {
        return;
    };
    fn check<M: Modulus64>(adx: super::adx::Adx) {
        for (m, x, k) in &row_cases::<M>(7, 8, 3) {
            let want = |j, s| dot2_shift_add(m, x, j, s, k, &M::P, M::INV);
            assert_eq!(
                Products::row::<M, 0, 0>(adx, m, x, k),
                want(0, 0),
                "{m:?} {x:?} {k:?}"
            );
            assert_eq!(Products::row::<M, 0, 1>(adx, m, x, k), want(0, 1));
            assert_eq!(Products::row::<M, 0, 2>(adx, m, x, k), want(0, 2));
            assert_eq!(Products::row::<M, 1, 0>(adx, m, x, k), want(1, 0));
            assert_eq!(Products::row::<M, 1, 1>(adx, m, x, k), want(1, 1));
            assert_eq!(Products::row::<M, 1, 2>(adx, m, x, k), want(1, 2));
            assert_eq!(Products::row::<M, 2, 0>(adx, m, x, k), want(2, 0));
            assert_eq!(Products::row::<M, 2, 1>(adx, m, x, k), want(2, 1));
            assert_eq!(Products::row::<M, 2, 2>(adx, m, x, k), want(2, 2));
        }
    }
    check::<Pallas>(adx);
    check::<Vesta>(adx);
}

/// The permutations with `arith`'s portable products, against the reference: the
/// backend tests cover only the products this CPU picks.
#[test]
fn portable_products_permutation() {
    use super::rounds::{kimchi_fp, kimchi_fq, legacy_fp, legacy_fq, Portable};
    let mut rng = Xs(41);
    let max = [u64::MAX; LIMBS];
    for round in 0..6 {
        let fp: [Fp; WIDTH] = core::array::from_fn(|e| match round {
            0 => [Fp::from(0u64), -Fp::from(1u64), Fp::from(1u64)][e],
            _ => value::<Fp>(&rng.below(&max), 64),
        });
        let fq: [Fq; WIDTH] = core::array::from_fn(|e| match round {
            0 => [Fq::from(0u64), -Fq::from(1u64), Fq::from(1u64)][e],
            _ => value::<Fq>(&rng.below(&max), 64),
        });
        for set in [ParamSet::Kimchi, ParamSet::Legacy] {
            let (mut want_p, mut want_q) = (fp, fq);
            crate::permute_with::<Fp, crate::backend::Reference>(set, &mut want_p);
            crate::permute_with::<Fq, crate::backend::Reference>(set, &mut want_q);
            let mut got_p = fp.map(Fe64::<Pallas>::from_field);
            let mut got_q = fq.map(Fe64::<Vesta>::from_field);
            match set {
                ParamSet::Kimchi => {
                    kimchi_fp::permute_with(&mut got_p, Portable);
                    kimchi_fq::permute_with(&mut got_q, Portable);
                }
                _ => {
                    legacy_fp::permute_with(&mut got_p, Portable);
                    legacy_fq::permute_with(&mut got_q, Portable);
                }
            }
            assert_eq!(got_p.map(|x| x.to_field()), want_p, "{set}");
            assert_eq!(got_q.map(|x| x.to_field()), want_q, "{set}");
        }
    }
}
