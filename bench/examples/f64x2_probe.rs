//! A measured dead end, kept so that it can be measured again: Montgomery
//! multiplication of two Fp elements at once in `f64x2` lanes (11 limbs of 24 bits,
//! R = 2^264), against the scalar `u29` product. Every limb product is below 2^48
//! and every column below 2^53, so the float arithmetic is exact integer arithmetic.
//! It checks the lanes against ark-ff on seeded and edge inputs, then times chains
//! of dependent multiplications, and three independent products at a time: all
//! scalar, or two in lanes beside one scalar (README, "Products in f64x2 lanes"):
//!
//! ```sh
//! cargo build --release -p poseidon-benches --example f64x2_probe --target wasm32-wasip1
//! wasmtime run target/wasm32-wasip1/release/examples/f64x2_probe.wasm [N]
//! node --no-warnings scripts/node-wasi.mjs target/wasm32-wasip1/release/examples/f64x2_probe.wasm [N]
//! ```
//! Built with `RUSTFLAGS="-C target-feature=+simd128,+relaxed-simd"` the lanes use
//! `f64x2.relaxed_madd` (run with `wasmtime run -W relaxed-simd=y`; Node 22+).

#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
mod lanes {
    use core::arch::wasm32::*;

    pub const L: usize = 11;
    /// Pallas p in 24-bit limbs: p ≡ 1 (mod 2^24), limbs 6..9 are zero.
    const P: [f64; L] = [
        1.0, 3206400.0, 1808685.0, 609529.0, 4626684.0, 34.0, 0.0, 0.0, 0.0, 0.0, 16384.0,
    ];
    /// Two elements, limb i of each in lane 0 and lane 1 of `v[i]`.
    pub type E = [v128; L];

    #[inline(always)]
    fn madd(a: v128, b: v128, c: v128) -> v128 {
        #[cfg(target_feature = "relaxed-simd")]
        {
            f64x2_relaxed_madd(a, b, c)
        }
        #[cfg(not(target_feature = "relaxed-simd"))]
        {
            f64x2_add(f64x2_mul(a, b), c)
        }
    }

    /// a·b·2^−264 mod p (below p + 2^246), lanes apart. Inputs: limbs below 2^24.
    #[inline(never)]
    pub fn mul(a: &E, b: &E) -> E {
        mul_inline(a, b)
    }

    /// [`mul`], inlined where it is called.
    #[inline(always)]
    pub fn mul_inline(a: &E, b: &E) -> E {
        let z = f64x2_splat(0.0);
        // Columns: at most 11 products and 6 reduction terms below 2^48, plus a carry
        // below 2^29: below 2^53.
        let mut t = [z; 2 * L];
        for i in 0..L {
            for j in 0..L {
                t[i + j] = madd(a[i], b[j], t[i + j]);
            }
        }
        let inv = f64x2_splat(1.0 / 16777216.0);
        let r = f64x2_splat(16777216.0);
        for i in 0..L {
            // m = ⌈t/2^24⌉·2^24 − t in [0, 2^24): t + m·p_0 = ⌈t/2^24⌉·2^24.
            let c = f64x2_ceil(f64x2_mul(t[i], inv));
            let m = f64x2_sub(f64x2_mul(c, r), t[i]);
            t[i + 1] = f64x2_add(t[i + 1], c);
            for j in 1..6 {
                t[i + j] = madd(m, f64x2_splat(P[j]), t[i + j]);
            }
            t[i + 10] = madd(m, f64x2_splat(P[10]), t[i + 10]);
        }
        let mut out = [z; L];
        let mut carry = z;
        for k in 0..L - 1 {
            let v = f64x2_add(t[L + k], carry);
            let q = f64x2_floor(f64x2_mul(v, inv));
            out[k] = f64x2_sub(v, f64x2_mul(q, r));
            carry = q;
        }
        out[L - 1] = carry;
        out
    }

    /// Where 24-bit limb i sits in four 64-bit words: its word, its bit there, and
    /// whether it runs on into the next word.
    fn at(i: usize) -> (usize, usize, bool) {
        let (word, bit) = (24 * i / 64, 24 * i % 64);
        (word, bit, bit > 40 && word < 3)
    }

    pub fn from_ints(x: [[u64; 4]; 2]) -> E {
        let limb = |x: &[u64; 4], i: usize| {
            let (word, bit, spills) = at(i);
            let hi = if spills { x[word + 1] << (64 - bit) } else { 0 };
            (((x[word] >> bit) | hi) & 0xff_ffff) as f64
        };
        core::array::from_fn(|i| f64x2(limb(&x[0], i), limb(&x[1], i)))
    }

    /// The two lanes as integers (the limbs must be integers below 2^24, the top one
    /// below 2^16: asserted).
    pub fn to_ints(e: &E) -> [[u64; 4]; 2] {
        let lane = |l: usize| {
            let mut x = [0u64; 4];
            for (i, v) in e.iter().enumerate() {
                let f = if l == 0 {
                    f64x2_extract_lane::<0>(*v)
                } else {
                    f64x2_extract_lane::<1>(*v)
                };
                let bound = if i == L - 1 { 65536.0 } else { 16777216.0 };
                assert!(f >= 0.0 && f < bound && f.fract() == 0.0, "limb {i} = {f}");
                let (word, bit, spills) = at(i);
                x[word] |= (f as u64) << bit;
                if spills {
                    x[word + 1] |= (f as u64) >> (64 - bit);
                }
            }
            x
        };
        [lane(0), lane(1)]
    }
}

#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
mod common;

#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
fn main() {
    use ark_ff::{Field, PrimeField};
    use common::{count_arg, fe, median_ns};
    use poseidon::backend::u29::Fp29;
    use poseidon::{FieldArith, Fp};
    use rand::{Rng, SeedableRng};

    let n = count_arg(1_000_000);
    let r_inv = Fp::from(2u64)
        .pow([264])
        .inverse()
        .expect("2 is invertible");
    let mut rng = rand::rngs::StdRng::seed_from_u64(2026);
    let below_p = |rng: &mut rand::rngs::StdRng| fe(rng.gen::<[u64; 4]>()).into_bigint().0;
    let edges = common::edges();
    let mut bad = 0;
    for k in 0..2000 {
        let a = [
            if k < 36 {
                edges[k % 6]
            } else {
                below_p(&mut rng)
            },
            below_p(&mut rng),
        ];
        let b = [
            if k < 36 {
                edges[k / 6]
            } else {
                below_p(&mut rng)
            },
            below_p(&mut rng),
        ];
        let got = lanes::to_ints(&lanes::mul(&lanes::from_ints(a), &lanes::from_ints(b)));
        for l in 0..2 {
            let want = fe(a[l]) * fe(b[l]) * r_inv;
            let below = got[l][3] < 1 << 63;
            if fe(got[l]) != want || !below {
                bad += 1;
            }
        }
    }
    // One check for make test's count, as each differential test is one.
    println!("f64x2 Montgomery products against ark-ff: 4000 compared, {bad} wrong");
    println!(
        "{} passed, {} failed",
        u8::from(bad == 0),
        u8::from(bad > 0)
    );

    let (a0, b0) = (
        [below_p(&mut rng), below_p(&mut rng)],
        [below_p(&mut rng), below_p(&mut rng)],
    );
    let lanes_ns = median_ns(&|| {
        let (mut a, b) = (lanes::from_ints(a0), lanes::from_ints(b0));
        for _ in 0..n {
            a = lanes::mul(&std::hint::black_box(a), &b);
        }
        lanes::to_ints(&a)[0][0]
    }) / (2.0 * n as f64);
    let scalar_ns = median_ns(&|| {
        let (mut a, b) = (
            Fp29::from_canonical(a0[0]).unwrap(),
            Fp29::from_canonical(b0[0]).unwrap(),
        );
        for _ in 0..n {
            a = std::hint::black_box(a).mul(b);
        }
        a.to_canonical()[0]
    }) / n as f64;
    // Throughput rather than latency: three independent products per step, either
    // all scalar or two in lanes beside one scalar product in the same function (the
    // float ports beside the integer multiplier).
    #[inline(never)]
    fn two_and_one(x: &mut lanes::E, y: &mut Fp29, bl: &lanes::E, b: Fp29) {
        *x = lanes::mul_inline(x, bl);
        *y = y.mul(b);
    }
    let scalar3_ns = common::u29_three_chains([a0[0], a0[1], b0[1]], b0[0], n);
    let mixed_ns = median_ns(&|| {
        let (mut x, bl) = (lanes::from_ints(a0), lanes::from_ints(b0));
        let (mut y, b) = (
            Fp29::from_canonical(b0[1]).unwrap(),
            Fp29::from_canonical(b0[0]).unwrap(),
        );
        for _ in 0..n {
            two_and_one(std::hint::black_box(&mut x), &mut y, &bl, b);
        }
        lanes::to_ints(&x)[0][0] ^ y.to_canonical()[0]
    }) / (3.0 * n as f64);
    let madd = if cfg!(target_feature = "relaxed-simd") {
        "f64x2.relaxed_madd"
    } else {
        "f64x2.mul + f64x2.add"
    };
    println!("per field multiplication, median of 5 chains of {n}: f64x2 ({madd}) {lanes_ns:.1} ns, u29 scalar {scalar_ns:.1} ns, f64x2 / u29 {:.2}", lanes_ns / scalar_ns);
    println!("three independent products: three u29 {scalar3_ns:.1} ns, two in f64x2 lanes + one u29 {mixed_ns:.1} ns per product, mixed / u29 {:.2}", mixed_ns / scalar3_ns);
    if bad > 0 {
        std::process::exit(1);
    }
}

#[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
fn main() {
    eprintln!("f64x2_probe: build it for wasm32 with simd128 (see the file's header)");
    std::process::exit(2);
}
