//! Limb-level tests: the arithmetic against ark-ff on the extreme inputs that the
//! bounds allow, including non-canonical representations (x + kp).

use ark_ff::{AdditiveGroup, Field, PrimeField};

use super::arith::*;
use super::{Fe29, Modulus29, Pallas, Vesta};
use crate::{FieldArith, Fp, Fq, PastaField, Permutation};

/// Σ limb_i · 2^(29 i) in the field (any limb sizes).
fn value<F: PrimeField>(x: &[u64; LIMBS]) -> F {
    let base = F::from(1u64 << BITS);
    x.iter()
        .rev()
        .fold(F::ZERO, |acc, &l| acc * base + F::from(l))
}

/// R^-1 = 2^-261.
fn r_inv<F: PrimeField>() -> F {
    F::from(2u64).pow([261]).inverse().unwrap()
}

/// A deterministic stream of limb patterns.
fn patterns(limb_max: u64, top_max: u64) -> Vec<[u64; LIMBS]> {
    let top = |mut x: [u64; LIMBS]| {
        x[8] = x[8].min(top_max);
        x
    };
    let mut out = vec![
        [0; LIMBS],
        top([limb_max; LIMBS]),
        top({
            let mut x = [0; LIMBS];
            x[8] = top_max;
            x
        }),
        top({
            let mut x = [limb_max; LIMBS];
            x[0] = 0;
            x
        }),
        top({
            let mut x = [0; LIMBS];
            x[0] = limb_max;
            x
        }),
    ];
    let mut s = 0x2545_f491_4f6c_dd1du64;
    for _ in 0..200 {
        let mut x = [0u64; LIMBS];
        for (i, l) in x.iter_mut().enumerate() {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            let max = if i == 8 { top_max } else { limb_max };
            // Bias towards the extremes: half the limbs at the maximum.
            *l = if s & 1 == 0 {
                max
            } else {
                (s >> 8) % (max + 1)
            };
        }
        out.push(x);
    }
    out
}

fn mul_and_square_at_the_bounds<F: PrimeField, M: Modulus29>() {
    let p = M::P;
    // Inputs at the documented maximum (limbs < 2^30, limb 8 < 2^25), and normalized ones.
    for (limb_max, top_max) in [((1 << 30) - 1, (1 << 25) - 1), (MASK, (1 << 24) - 1)] {
        let xs = patterns(limb_max, top_max);
        for (i, a) in xs.iter().enumerate() {
            let b = &xs[(i * 7 + 3) % xs.len()];
            let prod = mont_mul(a, b, &p);
            assert_eq!(
                value::<F>(&prod),
                value::<F>(a) * value::<F>(b) * r_inv::<F>()
            );
            let sq = mont_square(a, &p);
            assert_eq!(value::<F>(&sq), value::<F>(a).square() * r_inv::<F>());
            for out in [prod, sq] {
                assert!(is_normalized(&out), "{out:?}");
                assert!(out[8] < 1 << 23, "output < 2^255");
            }
        }
    }
}

#[test]
fn mul_and_square_at_the_bounds_fp() {
    mul_and_square_at_the_bounds::<Fp, Pallas>();
}

#[test]
fn mul_and_square_at_the_bounds_fq() {
    mul_and_square_at_the_bounds::<Fq, Vesta>();
}

fn non_canonical_representations<F: PastaField, M: Modulus29>()
where
    Fe29<M>: FieldArith<Field = F>,
{
    // x, x + p, x + 2p, x + 3p are all normalized (< 2^256) and the same element.
    for seed in 1..50u64 {
        let x = F::from(seed).pow([seed * 977]);
        let base = Fe29::<M>::from_field(x).0;
        let reps: Vec<[u64; LIMBS]> = (0..4)
            .map(|k| {
                let mut r = base;
                for (ri, pi) in r.iter_mut().zip(times(&M::P, k)) {
                    *ri += pi;
                }
                carry(r)
            })
            .filter(is_normalized)
            .collect();
        assert!(reps.len() >= 3);
        let y = Fe29::<M>::from_field(F::from(seed + 1));
        for r in reps {
            let e = Fe29::<M>::new(r);
            assert_eq!(e.to_field(), x);
            assert_eq!(e.mul(y).to_field(), x * F::from(seed + 1));
            assert_eq!(e.square().to_field(), x.square());
            assert_eq!(e.add(e).to_field(), x.double());
            assert_eq!(e.sub(y).to_field(), x - F::from(seed + 1));
            assert_eq!(y.sub(e).to_field(), F::from(seed + 1) - x);
            assert_eq!(e.pow7().to_field(), x.pow([7]));
        }
    }
}

#[test]
fn non_canonical_representations_fp() {
    non_canonical_representations::<Fp, Pallas>();
}

#[test]
fn non_canonical_representations_fq() {
    non_canonical_representations::<Fq, Vesta>();
}

fn lanes_match_scalar<M: Modulus29>() {
    use super::x2;
    // Lane pairs at the documented input maximum and normalized.
    for (limb_max, top_max) in [((1 << 30) - 1, (1 << 25) - 1), (MASK, (1 << 24) - 1)] {
        let xs = patterns(limb_max, top_max);
        for (i, a) in xs.iter().enumerate() {
            let b = &xs[(i * 5 + 1) % xs.len()];
            let c = &xs[(i * 11 + 2) % xs.len()];
            let d = &xs[(i * 13 + 3) % xs.len()];
            let (ab, cd) = (x2::join(a, b), x2::join(c, d));
            assert_eq!(
                x2::split(&x2::mul(&ab, &cd, &M::P)),
                [mont_mul(a, c, &M::P), mont_mul(b, d, &M::P)]
            );
            assert_eq!(
                x2::split(&x2::square(&ab, &M::P)),
                [mont_square(a, &M::P), mont_square(b, &M::P)]
            );
            let [da, db] = x2::dup(&ab);
            assert_eq!(x2::split(&da), [*a, *a]);
            assert_eq!(x2::split(&db), [*b, *b]);
        }
    }
}

/// The four-lane kernels against the scalar ones, lane by lane, at the input
/// maximum (limbs 2^30 − 1, top limb 2^25 − 1) and normalized; the MDS kernel with
/// three products at the bound of normalized operands.
fn four_lanes_match_scalar<M: Modulus29>() {
    use super::x4;
    let pc = x4::modulus_limbs(&M::P);
    for (limb_max, top_max) in [((1 << 30) - 1, (1 << 25) - 1), (MASK, (1 << 24) - 1)] {
        let xs = patterns(limb_max, top_max);
        let pick = |i: usize, k: usize| &xs[(i * (2 * k + 3) + k) % xs.len()];
        for i in 0..xs.len() {
            let a: [&[u64; LIMBS]; 4] = core::array::from_fn(|k| pick(i, k));
            let b: [&[u64; LIMBS]; 4] = core::array::from_fn(|k| pick(i + 7, k));
            let (a4, b4) = (x4::join(a), x4::join(b));
            assert_eq!(x4::split(&a4), a.map(|x| *x));
            let want: [_; 4] = core::array::from_fn(|k| mont_mul(a[k], b[k], &M::P));
            assert_eq!(x4::split(&x4::mul(&a4, &b4, &pc)), want);
            let want: [_; 4] = core::array::from_fn(|k| mont_square(a[k], &M::P));
            assert_eq!(x4::split(&x4::square(&a4, &pc)), want);
        }
    }
    let xs = patterns(MASK, (1 << 24) - 1);
    for i in 0..xs.len() {
        let m: [[u64; LIMBS]; 3] = core::array::from_fn(|j| xs[(i + 3 * j) % xs.len()]);
        let s: [[[u64; LIMBS]; 4]; 3] =
            core::array::from_fn(|j| core::array::from_fn(|k| xs[(i * 7 + 5 * j + k) % xs.len()]));
        let c: [[u64; LIMBS]; 4] = core::array::from_fn(|k| xs[(i * 3 + k + 1) % xs.len()]);
        let m4 = m.map(|e| x4::chunks(&x4::splat(&e)));
        let s4 = s.map(|e| x4::join([&e[0], &e[1], &e[2], &e[3]]));
        let got = x4::split(&x4::dot3_add(
            &m4,
            &s4,
            &x4::join([&c[0], &c[1], &c[2], &c[3]]),
            &pc,
        ));
        for k in 0..4 {
            let t = (0..3).fold([0u64; 2 * LIMBS - 1], |t, j| {
                add_columns(t, &product_columns(&m[j], &s[j][k]))
            });
            assert_eq!(got[k], reduce_add(&t, &c[k], &M::P), "lane {k}");
        }
    }
}

#[test]
fn four_lanes_match_scalar_fp() {
    four_lanes_match_scalar::<Pallas>();
}

#[test]
fn four_lanes_match_scalar_fq() {
    four_lanes_match_scalar::<Vesta>();
}

#[test]
fn lanes_match_scalar_fp() {
    lanes_match_scalar::<Pallas>();
}

#[test]
fn lanes_match_scalar_fq() {
    lanes_match_scalar::<Vesta>();
}

#[test]
fn the_primes_have_the_assumed_shape() {
    for p in [Pallas::P, Vesta::P] {
        assert!(is_pasta_shaped(&p));
        assert_eq!(p[4], 548, "c < 2^127 ends in limb 4");
        assert_eq!(to_u64x4(&p)[3], 1 << 62);
    }
    assert_eq!(value::<Fp>(&Pallas::FROM_ARK), Fp::from(2u64).pow([266]));
    assert_eq!(value::<Fq>(&Vesta::TO_ARK), Fq::from(2u64).pow([256]));
    assert_eq!(value::<Fp>(&Pallas::P8), Fp::ZERO);
    assert!(is_normalized(&Vesta::P2) && !is_normalized(&Vesta::P8));
}

#[test]
fn limb_split_round_trips() {
    let x = [u64::MAX, 0x0123_4567_89ab_cdef, 0, u64::MAX >> 1];
    assert_eq!(to_u64x4(&from_u64x4(&x)), x);
}

#[test]
fn masked_subtraction() {
    let p = Pallas::P;
    let p_plus_1 = carry({
        let mut x = p;
        x[0] += 1;
        x
    });
    let mut p_minus_1 = p;
    p_minus_1[0] -= 1;
    assert_eq!(sub_if_ge(&p, &p), [0; LIMBS]);
    assert_eq!(sub_if_ge(&p_plus_1, &p), {
        let mut one = [0; LIMBS];
        one[0] = 1;
        one
    });
    assert_eq!(sub_if_ge(&p_minus_1, &p), p_minus_1);
}

/// Karatsuba columns equal the schoolbook's: one product at the `mul` input bound
/// (limbs < 2^30, limb 8 < 2^25), and three products summed at the normalized bound
/// (the linear layer), with the extremes in the patterns. Debug builds also check
/// that no step overflows or goes below zero.
#[test]
fn karatsuba_columns_equal_schoolbook() {
    for (limb_max, top_max) in [((1 << 30) - 1, (1 << 25) - 1), (MASK, (1 << 24) - 1)] {
        let xs = patterns(limb_max, top_max);
        for (i, a) in xs.iter().enumerate() {
            let b = &xs[(i * 7 + 3) % xs.len()];
            assert_eq!(product_columns(a, b), columns(a, b), "{a:?} · {b:?}");
        }
    }
    let xs = patterns(MASK, (1 << 24) - 1);
    for i in 0..xs.len() {
        let m: [&[u64; LIMBS]; 3] = core::array::from_fn(|j| &xs[(i + 5 * j) % xs.len()]);
        let s: [&[u64; LIMBS]; 3] = core::array::from_fn(|j| &xs[(i * 3 + j + 1) % xs.len()]);
        let mut acc = [[0u64; 5]; 6];
        let mut want = [0u64; 2 * LIMBS - 1];
        for j in 0..3 {
            acc = chunk_products_add(acc, &chunks(m[j]), &chunks(s[j]));
            want = add_columns(want, &columns(m[j], s[j]));
        }
        assert_eq!(karatsuba_columns(&acc), want);
    }
}

/// Integers in and out without ark-ff: every value below p round-trips, nothing at
/// or above p is accepted.
fn canonical_conversions<F: PastaField, M: Modulus29>()
where
    Fe29<M>: FieldArith<Field = F>,
{
    let p = M::P64;
    let int = |x: F| x.into_bigint().0;
    let below = [
        [0; 4],
        [1, 0, 0, 0],
        int(-F::one()),
        int(-F::from(2u64)),
        [u64::MAX, u64::MAX, u64::MAX, p[3] - 1], // all limbs at their maximum below p
        [0, 0, 0, p[3]],
    ];
    for x in below {
        let e = Fe29::<M>::from_canonical(x).expect("below p");
        assert_eq!(e.to_canonical(), x);
        assert_eq!(int(e.to_field()), x);
    }
    let mut above = p;
    for k in 0..4 {
        above[k] = above[k].wrapping_add(1);
        assert!(Fe29::<M>::from_canonical(above).is_none(), "{above:?}");
    }
    assert!(Fe29::<M>::from_canonical(p).is_none());
    assert!(Fe29::<M>::from_canonical([u64::MAX; 4]).is_none());
    // Non-canonical internal representations (x + kp) leave as x.
    for seed in 1..50u64 {
        let x = F::from(seed).pow([seed * 131]);
        let base = Fe29::<M>::from_field(x).0;
        for k in 0..4 {
            let mut r = base;
            for (ri, pi) in r.iter_mut().zip(times(&M::P, k)) {
                *ri += pi;
            }
            let r = carry(r);
            if is_normalized(&r) {
                assert_eq!(Fe29::<M>::new(r).to_canonical(), x.into_bigint().0);
            }
        }
    }
}

#[test]
fn canonical_conversions_fp() {
    canonical_conversions::<Fp, Pallas>();
}

#[test]
fn canonical_conversions_fq() {
    canonical_conversions::<Fq, Vesta>();
}

/// Every limb at its maximum below p.
fn top_below_p<M: Modulus29>() -> [u64; LIMBS] {
    let mut top = [MASK; LIMBS];
    top[8] = M::P[8] - 1;
    top
}

/// The rows of `mds` and a constant row at [`top_below_p`].
fn rows_and_top<M: Modulus29>(mds: &[[Fe29<M>; 3]; 3]) -> [[Fe29<M>; 3]; 4] {
    [mds[0], mds[1], mds[2], [Fe29::new(top_below_p::<M>()); 3]]
}

/// The scalar rescaled output for power-of-two column `j` and limb shift `shift`.
fn scalar_row<M: Modulus29>(
    j: usize,
    shift: usize,
    m: &[Fe29<M>; 3],
    s: &[Fe29<M>; 3],
    k: &Fe29<M>,
) -> Fe29<M> {
    use super::rounds::mix_row_rescaled as row;
    match (j, shift) {
        (0, 0) => row::<M, 9, 0, 0>(m, s, k),
        (0, _) => row::<M, 9, 0, 1>(m, s, k),
        (1, 0) => row::<M, 9, 1, 0>(m, s, k),
        (1, _) => row::<M, 9, 1, 1>(m, s, k),
        (2, 0) => row::<M, 9, 2, 0>(m, s, k),
        _ => row::<M, 9, 2, 1>(m, s, k),
    }
}

/// One output of the rescaled linear layer for every column J and shift, at the
/// input extremes: the field's value, and a valid `mul` input.
fn rescaled_row_at_the_bounds<F: PrimeField, M: Modulus29>(mds: &[[Fe29<M>; 3]; 3]) {
    let xs = patterns(MASK, (1 << 24) - 1);
    // A constant row with every limb at its maximum below p, beside the real ones.
    let top = top_below_p::<M>();
    let rows = rows_and_top(mds);
    let shift_factor = |shift: u32| F::from(2u64).pow([u64::from(29 * (9 - shift))]);
    for (n, w) in xs.windows(3).enumerate() {
        let s = [Fe29::<M>::new(w[0]), Fe29::new(w[1]), Fe29::new(w[2])];
        let m = &rows[n % rows.len()];
        // Constants are below p: the largest element and small ones.
        let k = if n % 2 == 0 {
            sub_if_ge(&top, &M::P)
        } else {
            [n as u64; LIMBS]
        };
        let k = Fe29::<M>::new(k);
        for j in 0..3 {
            for shift in 0..2u32 {
                let out = scalar_row(j, shift as usize, m, &s, &k);
                let (a, b) = ((j + 1) % 3, (j + 2) % 3);
                let v = |e: &Fe29<M>| value::<F>(&e.0);
                let want =
                    (v(&m[a]) * v(&s[a]) + v(&m[b]) * v(&s[b]) + v(&s[j]) * shift_factor(shift))
                        * r_inv::<F>()
                        + v(&k);
                assert_eq!(
                    value::<F>(&out.0),
                    want,
                    "row {n}, column {j}, shift {shift}"
                );
                assert!(is_mul_input(&out.0), "{:?}", out.0);
            }
        }
    }
}

/// The four-lane rescaled output (`x4::place` and `x4::dot2_add`) against the
/// scalar `mix_row_rescaled`, lane by lane, for every column and shift, on the
/// same extremes (each lane its own state and constant).
fn four_lane_rescaled_row_matches_scalar<M: Modulus29>(mds: &[[Fe29<M>; 3]; 3]) {
    use super::x4;
    let pc = x4::modulus_limbs(&M::P);
    let xs = patterns(MASK, (1 << 24) - 1);
    let top = top_below_p::<M>();
    let rows = rows_and_top(mds);
    for n in 0..xs.len() {
        let m = &rows[n % rows.len()];
        let s: [[Fe29<M>; 3]; 4] = core::array::from_fn(|l| {
            core::array::from_fn(|e| Fe29::new(xs[(n + 3 * l + e) % xs.len()]))
        });
        let k: [Fe29<M>; 4] = core::array::from_fn(|l| {
            Fe29::new(if (n + l) % 2 == 0 {
                sub_if_ge(&top, &M::P)
            } else {
                [(n + l) as u64; LIMBS]
            })
        });
        let m4 = m.map(|e| x4::chunks(&x4::splat(&e.0)));
        let s4: [x4::Limbs4; 3] =
            core::array::from_fn(|e| x4::join([&s[0][e].0, &s[1][e].0, &s[2][e].0, &s[3][e].0]));
        let k4 = x4::join([&k[0].0, &k[1].0, &k[2].0, &k[3].0]);
        for j in 0..3 {
            for shift in 0..2 {
                let (a, b) = ((j + 1) % 3, (j + 2) % 3);
                let (low8, high) = x4::place(&s4[j], &k4, shift);
                let got = x4::split(&x4::dot2_add(
                    [&m4[a], &m4[b]],
                    [&s4[a], &s4[b]],
                    &low8,
                    &high,
                    &pc,
                ));
                for l in 0..4 {
                    let want = scalar_row(j, shift, m, &s[l], &k[l]);
                    assert_eq!(
                        got[l], want.0,
                        "state {n}, column {j}, shift {shift}, lane {l}"
                    );
                }
            }
        }
    }
}

#[test]
fn four_lane_rescaled_row_matches_scalar_fp() {
    four_lane_rescaled_row_matches_scalar::<Pallas>(&super::tables::kimchi_fp::RESCALED.mds);
    four_lane_rescaled_row_matches_scalar::<Pallas>(&super::tables::legacy_fp::RESCALED.mds);
}

#[test]
fn four_lane_rescaled_row_matches_scalar_fq() {
    four_lane_rescaled_row_matches_scalar::<Vesta>(&super::tables::kimchi_fq::RESCALED.mds);
    four_lane_rescaled_row_matches_scalar::<Vesta>(&super::tables::legacy_fq::RESCALED.mds);
}

#[test]
fn rescaled_row_at_the_bounds_fp() {
    rescaled_row_at_the_bounds::<Fp, Pallas>(&super::tables::kimchi_fp::RESCALED.mds);
    rescaled_row_at_the_bounds::<Fp, Pallas>(&super::tables::legacy_fp::RESCALED.mds);
}

#[test]
fn rescaled_row_at_the_bounds_fq() {
    rescaled_row_at_the_bounds::<Fq, Vesta>(&super::tables::kimchi_fq::RESCALED.mds);
    rescaled_row_at_the_bounds::<Fq, Vesta>(&super::tables::legacy_fq::RESCALED.mds);
}

/// The rescaled rounds (Wasm's path for the crate's parameters) against ark-ff's
/// permutation, natively too: edge values and seeded random states.
fn rescaled_rounds_match<F: PastaField + Permutation<Field = F>, M: Modulus29>(
    set: crate::ParamSet,
    rounds: fn(&crate::params::Params<Fe29<M>>, &mut [Fe29<M>; 3]),
) where
    Fe29<M>: FieldArith<Field = F>,
{
    let edges = [F::ZERO, F::ONE, -F::ONE, -F::from(2u64)];
    let mut states: Vec<[F; 3]> = Vec::new();
    for &a in &edges {
        for &b in &edges {
            states.push([a, b, edges[(states.len()) % 4]]);
        }
    }
    let mut x = 0x9e37_79b9_7f4a_7c15u64;
    for _ in 0..20 {
        states.push(core::array::from_fn(|_| {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            F::from(x).pow([x >> 40])
        }));
    }
    for st in states {
        let mut want = st;
        F::permute(F::params(set), &mut want);
        let mut got = st.map(Fe29::<M>::from_field);
        rounds(Fe29::<M>::params(set), &mut got);
        assert_eq!(got.map(|e| e.to_field()), want, "{set} {st:?}");
    }
}

#[test]
fn rescaled_rounds_match_fp() {
    use crate::ParamSet::{Kimchi, Legacy};
    rescaled_rounds_match::<Fp, Pallas>(Kimchi, super::tables::kimchi_fp::rounds);
    rescaled_rounds_match::<Fp, Pallas>(Legacy, super::tables::legacy_fp::rounds);
}

#[test]
fn rescaled_rounds_match_fq() {
    use crate::ParamSet::{Kimchi, Legacy};
    rescaled_rounds_match::<Fq, Vesta>(Kimchi, super::tables::kimchi_fq::rounds);
    rescaled_rounds_match::<Fq, Vesta>(Legacy, super::tables::legacy_fq::rounds);
}

/// `to_words`/`from_words` (how the npm package's FMA backend takes elements):
/// every normalized element, the limbs at their maxima included, goes to four
/// words and back unchanged, and the words hold its value.
fn words_round_trip<F: PrimeField, M: Modulus29>() {
    for limbs in patterns((1 << 29) - 1, (1 << 24) - 1) {
        let x = Fe29::<M>::new(limbs);
        let w = x.to_words();
        assert_eq!(Fe29::<M>::from_words(&w), x, "{limbs:?}");
        let from_words = F::from_le_bytes_mod_order(
            &w.iter().flat_map(|l| l.to_le_bytes()).collect::<Vec<u8>>(),
        );
        assert_eq!(from_words, value::<F>(&limbs), "{limbs:?}");
    }
    // 2^256 − 1, the largest value: limb 8 at 2^24 − 1.
    assert_eq!(
        Fe29::<M>::from_words(&[u64::MAX; 4]).limbs(),
        &[
            (1 << 29) - 1,
            (1 << 29) - 1,
            (1 << 29) - 1,
            (1 << 29) - 1,
            (1 << 29) - 1,
            (1 << 29) - 1,
            (1 << 29) - 1,
            (1 << 29) - 1,
            (1 << 24) - 1
        ]
    );
}

#[test]
fn words_round_trip_fp() {
    words_round_trip::<Fp, Pallas>();
}

#[test]
fn words_round_trip_fq() {
    words_round_trip::<Fq, Vesta>();
}
