//! A measured dead end, kept so that it can be measured again: the kimchi Fp
//! permutation four at a time in `i32x4` lanes, each element as 20 limbs of 13 bits
//! (R = 2^260), limb products by `i32x4.dot_i16x8_s` (x86's `pmaddwd`: eight
//! 16×16-bit products, summed in pairs, in one instruction; Cranelift and V8 emit
//! just that). Limbs of one element sit in one lane, two limbs to a lane as 16-bit
//! halves, so one dot adds a_i·b_j + a_(i+1)·b_(j−1) to column i + j. It checks
//! lane products against ark-ff and whole permutations against `poseidon::permute`,
//! then times them against the single permutation and `permute_many` (README,
//! "Products by i32x4.dot_i16x8_s"):
//!
//! ```sh
//! cargo build --release -p poseidon-benches --example dot_probe --target wasm32-wasip1
//! wasmtime run target/wasm32-wasip1/release/examples/dot_probe.wasm [N]
//! node --no-warnings scripts/node-wasi.mjs target/wasm32-wasip1/release/examples/dot_probe.wasm [N]
//! ```

#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
mod lanes {
    use core::arch::wasm32::*;

    pub const L: usize = 20;
    /// Pallas p in 13-bit limbs: p ≡ 1 (mod 2^32) makes limb 0 one and limb 1
    /// zero; limbs 10..18 are zero and limb 19 is 2^7 (p = 2^254 + c, c < 2^126).
    const P: [i32; L] = [
        1, 0, 6976, 6753, 6546, 7309, 1331, 8065, 1688, 274, 0, 0, 0, 0, 0, 0, 0, 0, 0, 128,
    ];
    /// Four elements: limb i of lane k's element in lane k of `v[i]`.
    pub type E = [v128; L];

    macro_rules! each {
        ($i:ident in [$($n:literal)*] $body:block) => { $( { let $i: usize = $n; $body } )* };
    }

    /// Two 13-bit numbers as the 16-bit halves of every lane.
    #[inline(always)]
    fn pair(lo: i32, hi: i32) -> v128 {
        i32x4_splat(lo | (hi << 16))
    }

    /// The 39 product columns of a·b. Limbs below 2^13: each term is below 2^26
    /// and a column holds at most 20, so below 2^30.4 (no 16-bit sign issue: the
    /// halves are below 2^13).
    #[inline(always)]
    fn columns(a: &E, b: &E) -> [v128; 2 * L] {
        let z = i32x4_splat(0);
        // (a_2u, a_2u+1) and (b_j, b_j−1), b_−1 = b_20 = 0.
        let pa: [v128; L / 2] =
            core::array::from_fn(|u| v128_or(a[2 * u], i32x4_shl(a[2 * u + 1], 16)));
        let qb: [v128; L + 1] = core::array::from_fn(|j| {
            let lo = if j < L { b[j] } else { z };
            if j == 0 {
                lo
            } else {
                v128_or(lo, i32x4_shl(b[j - 1], 16))
            }
        });
        let mut t = [z; 2 * L];
        // Unrolled by the macro: LLVM's unroller left these loops rolled, with the
        // columns in memory (2.5× slower).
        each!(k in [0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38] {
            let mut acc = z;
            each!(u in [0 1 2 3 4 5 6 7 8 9] {
                if k >= 2 * u && k - 2 * u <= L {
                    acc = i32x4_add(acc, i32x4_dot_i16x8(pa[u], qb[k - 2 * u]));
                }
            });
            t[k] = acc;
        });
        t
    }

    /// t·2^−260 mod p, plus k if given, as limbs below 2^13 (the top one below
    /// 2^13 too for values below 2^260). Columns below 2^32 − 2^30 as unsigned
    /// values: each reduction step adds at most 10 terms below 2^26 to a column and
    /// the carries are below 2^19. Montgomery steps two limbs at a time: p's limb 1
    /// is zero, so m_k·p changes column k + 1 only by the carry, and the quotient
    /// limbs m_k, m_(k+1) are known before either is multiplied by p.
    #[inline(always)]
    fn reduce(mut t: [v128; 2 * L], k: Option<&E>) -> E {
        let z = i32x4_splat(0);
        let mask = i32x4_splat(0x1fff);
        let mut c = z;
        each!(s in [0 1 2 3 4 5 6 7 8 9] {
            let k = 2 * s;
            // m = −t mod 2^13 (−p^−1 ≡ −1), and t + m ≡ 0: the carry is (t + m)/2^13.
            let v = i32x4_add(t[k], c);
            let m0 = v128_and(i32x4_sub(z, v), mask);
            c = u32x4_shr(i32x4_add(v, m0), 13);
            let v = i32x4_add(t[k + 1], c);
            let m1 = v128_and(i32x4_sub(z, v), mask);
            c = u32x4_shr(i32x4_add(v, m1), 13);
            let mm = v128_or(m0, i32x4_shl(m1, 16));
            each!(j in [2 3 4 5 6 7 8 9 10] {
                t[k + j] = i32x4_add(t[k + j], i32x4_dot_i16x8(mm, pair(P[j], P[j - 1])));
            });
            t[k + 19] = i32x4_add(t[k + 19], i32x4_dot_i16x8(mm, pair(P[19], 0)));
            if k + 20 < 2 * L {
                t[k + 20] = i32x4_add(t[k + 20], i32x4_dot_i16x8(mm, pair(0, P[19])));
            }
        });
        if let Some(k) = k {
            each!(i in [0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19] {
                t[L + i] = i32x4_add(t[L + i], k[i]);
            });
        }
        let mut out = [z; L];
        each!(i in [0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19] {
            let v = i32x4_add(t[L + i], c);
            out[i] = if i + 1 < L { v128_and(v, mask) } else { v };
            c = u32x4_shr(v, 13);
        });
        // Nothing is left above limb 19 for values below 2^260.
        debug_assert!(!v128_any_true(c));
        out
    }

    /// a·b·2^−260 mod p, below 2^256 + p for inputs below 2^258. Out of line: inlined
    /// four times into the S-box it spilled (0.81× the single permutation against
    /// 1.00–1.15×).
    #[inline(never)]
    pub fn mul(a: &E, b: &E) -> E {
        reduce(columns(a, b), None)
    }

    #[inline(never)]
    fn columns_of(a: &E, b: &E) -> [v128; 2 * L] {
        columns(a, b)
    }

    /// Σ_j m_j·s_j + k: the three products' columns summed (below 60·2^26 < 2^32,
    /// unsigned), one carry step in parallel (below 2^13 + 2^19), one reduction.
    #[inline(never)]
    #[allow(unused_assignments)] // the unrolled loop's last `prev`
    fn dot3(m: &[E; 3], s: &[E; 3], k: &E) -> E {
        let a = columns_of(&m[0], &s[0]);
        let b = columns_of(&m[1], &s[1]);
        let c = columns_of(&m[2], &s[2]);
        let mask = i32x4_splat(0x1fff);
        let mut t = [i32x4_splat(0); 2 * L];
        let mut prev = i32x4_splat(0);
        each!(i in [0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39] {
            let v = if i < 2 * L - 1 {
                i32x4_add(i32x4_add(a[i], b[i]), c[i])
            } else {
                i32x4_splat(0)
            };
            t[i] = i32x4_add(v128_and(v, mask), u32x4_shr(prev, 13));
            prev = v;
        });
        reduce(t, Some(k))
    }

    #[inline(never)]
    fn pow7(x: &E) -> E {
        let x2 = mul(x, x);
        let x3 = mul(&x2, x);
        let x6 = mul(&x3, &x3);
        mul(&x6, x)
    }

    /// The kimchi constants in this form, the same in every lane.
    pub struct Consts {
        pub mds: [[E; 3]; 3],
        pub rows: Vec<[E; 3]>,
    }

    /// The rounds (kimchi: no initial constants), nine products in the linear layer.
    #[inline(never)]
    pub fn rounds(c: &Consts, s: &mut [E; 3]) {
        for k in &c.rows {
            let x = [pow7(&s[0]), pow7(&s[1]), pow7(&s[2])];
            *s = [
                dot3(&c.mds[0], &x, &k[0]),
                dot3(&c.mds[1], &x, &k[1]),
                dot3(&c.mds[2], &x, &k[2]),
            ];
        }
    }

    fn lane(v: v128, l: usize) -> u64 {
        u64::from(match l {
            0 => u32x4_extract_lane::<0>(v),
            1 => u32x4_extract_lane::<1>(v),
            2 => u32x4_extract_lane::<2>(v),
            _ => u32x4_extract_lane::<3>(v),
        })
    }

    /// Four integers below 2^256 (64-bit limbs) into 13-bit limbs.
    pub fn from_ints(x: [[u64; 4]; 4]) -> E {
        core::array::from_fn(|i| {
            let limb = |x: &[u64; 4]| {
                let (w, b) = (13 * i / 64, 13 * i % 64);
                let hi = if b > 51 && w < 3 {
                    x[w + 1] << (64 - b)
                } else {
                    0
                };
                (((x[w] >> b) | hi) & 0x1fff) as u32
            };
            u32x4(limb(&x[0]), limb(&x[1]), limb(&x[2]), limb(&x[3]))
        })
    }

    /// The lanes as integers; each must be below 2^256 and have limbs below 2^13
    /// (asserted).
    pub fn to_ints(e: &E) -> [[u64; 4]; 4] {
        core::array::from_fn(|l| {
            let mut x = [0u64; 5];
            for (i, v) in e.iter().enumerate() {
                let f = lane(*v, l);
                assert!(f < 1 << 13, "limb {i} = {f}");
                let (w, b) = (13 * i / 64, 13 * i % 64);
                x[w] |= f << b;
                if b > 51 {
                    x[w + 1] |= f >> (64 - b);
                }
            }
            assert_eq!(x[4], 0, "lane {l} at or above 2^256");
            [x[0], x[1], x[2], x[3]]
        })
    }
}

#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
mod common;

#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
fn main() {
    use ark_ff::{Field, PrimeField};
    use common::{count_arg, fe, median_ns};
    use poseidon::{FieldArith, Fp, ParamSet};
    use rand::{Rng, SeedableRng};
    use std::hint::black_box;

    let n = count_arg(200_000);
    let mut rng = rand::rngs::StdRng::seed_from_u64(2026);
    let mut below_p = || fe(rng.gen::<[u64; 4]>()).into_bigint().0;

    // Lane products against ark-ff: seeded in lanes 0 and 1, every pair of edge
    // inputs (0, 1, p − 1, p − 2, 2^255 − 1, 2^256 − 1) in lanes 2 and 3.
    let r_inv = Fp::from(2u64)
        .pow([260])
        .inverse()
        .expect("2 is invertible");
    let edges = common::edges();
    let mut bad = 0;
    for k in 0..500 {
        let (e, f) = (edges[k % 6], edges[k / 6 % 6]);
        let a = [below_p(), below_p(), e, f];
        let b = [below_p(), below_p(), f, e];
        let got = lanes::to_ints(&lanes::mul(&lanes::from_ints(a), &lanes::from_ints(b)));
        for l in 0..4 {
            if fe(got[l]) != fe(a[l]) * fe(b[l]) * r_inv {
                bad += 1;
            }
        }
    }
    // Whole permutations against the crate's: x·2^260 in by a product with
    // 2^520, out by a product with 1.
    let params = <Fp as FieldArith>::params(ParamSet::Kimchi);
    let r2 = lanes::from_ints([Fp::from(2u64).pow([520]).into_bigint().0; 4]);
    let unit = lanes::from_ints([[1, 0, 0, 0]; 4]);
    let enter = |x: [Fp; 4]| lanes::mul(&lanes::from_ints(x.map(|v| v.into_bigint().0)), &r2);
    let consts = lanes::Consts {
        mds: params.mds.map(|row| row.map(|x| enter([x; 4]))),
        rows: params
            .round_constants
            .iter()
            .map(|row| row.map(|x| enter([x; 4])))
            .collect(),
    };
    let permute4 = |states: &mut [[Fp; 3]]| {
        let mut s: [lanes::E; 3] =
            core::array::from_fn(|i| enter(core::array::from_fn(|l| states[l][i])));
        lanes::rounds(&consts, &mut s);
        for (i, e) in s.iter().enumerate() {
            let out = lanes::to_ints(&lanes::mul(e, &unit));
            for (l, state) in states.iter_mut().enumerate() {
                state[i] = fe(out[l]);
            }
        }
    };
    let mut wrong = 0;
    for t in 0..8u64 {
        let mut states: Vec<[Fp; 3]> = (0..4)
            .map(|l| [Fp::from(t * 7 + l), -Fp::from(l + 1), fe(below_p())])
            .collect();
        let want: Vec<[Fp; 3]> = states
            .iter()
            .map(|x| {
                let mut x = *x;
                poseidon::permute(ParamSet::Kimchi, &mut x);
                x
            })
            .collect();
        permute4(&mut states);
        wrong += states.iter().zip(&want).filter(|(a, b)| a != b).count();
    }
    println!("dot lanes: 2000 products against ark-ff, {bad} wrong; 32 permutations against poseidon::permute, {wrong} wrong");
    // One check for make test's count, as each differential test is one.
    let failed = bad + wrong > 0;
    println!("{} passed, {} failed", u8::from(!failed), u8::from(failed));

    let (a, b) = ([below_p(), below_p(), below_p(), below_p()], below_p());
    let scalar = common::u29_three_chains([a[0], a[1], a[2]], b, n);
    let dot = median_ns(&|| {
        let b = lanes::from_ints([b; 4]);
        let mut x = lanes::from_ints(a);
        for _ in 0..n {
            x = lanes::mul(black_box(&x), &b);
        }
        lanes::to_ints(&x)[0][0]
    }) / (4 * n) as f64;
    let states: Vec<[Fp; 3]> = (0..64u64)
        .map(|i| [Fp::from(i), Fp::from(i + 1), Fp::from(i + 2)])
        .collect();
    let rounds = (n / 6400).max(1);
    let per = f64::from(rounds * 64);
    let single = median_ns(&|| {
        let mut st = states.clone();
        for _ in 0..rounds {
            for s in st.iter_mut() {
                poseidon::permute(ParamSet::Kimchi, black_box(s));
            }
        }
        st[0][0].into_bigint().0[0]
    }) / per;
    let many = median_ns(&|| {
        let mut st = states.clone();
        for _ in 0..rounds {
            poseidon::permute_many(ParamSet::Kimchi, black_box(&mut st));
        }
        st[0][0].into_bigint().0[0]
    }) / per;
    let lanes4 = median_ns(&|| {
        let mut st = states.clone();
        for _ in 0..rounds {
            for q in st.chunks_mut(4) {
                permute4(black_box(q));
            }
        }
        st[0][0].into_bigint().0[0]
    }) / per;
    println!(
        "per field multiplication: dot lanes {dot:.1} ns, u29 (three chains) {scalar:.1} ns, u29 / dot {:.2}",
        scalar / dot
    );
    println!(
        "per permutation, 64 states: single {:.2} µs, permute_many {:.2} µs ({:.2}× single), dot lanes {:.2} µs ({:.2}× single, {:.2}× permute_many)",
        single / 1e3,
        many / 1e3,
        single / many,
        lanes4 / 1e3,
        single / lanes4,
        many / lanes4
    );
    if failed {
        std::process::exit(1);
    }
}

#[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
fn main() {
    eprintln!("dot_probe: build it for wasm32 with simd128 (see the file's header)");
    std::process::exit(2);
}
