//! What the lane probes (`f64x2_probe`, `dot_probe`) share: their count argument,
//! integers into Fp, edge inputs, a median timer and the scalar `u29` products they are held
//! against.

use ark_ff::PrimeField;
use poseidon::backend::u29::Fp29;
use poseidon::{FieldArith, Fp};
use std::hint::black_box;
use std::time::Instant;

/// The first argument as a count (at least 1), else `default`; anything else ends
/// the probe with a usage line (exit 2).
pub fn count_arg(default: u32) -> u32 {
    let Some(arg) = std::env::args().nth(1) else {
        return default;
    };
    match arg.parse::<u32>() {
        Ok(n) if n > 0 => n,
        _ => {
            let probe = std::env::args().next().unwrap_or_default();
            eprintln!(
                "usage: {probe} [N]: N, the count to time, a whole number from 1 (got {arg:?})"
            );
            std::process::exit(2);
        }
    }
}

/// Any 256-bit integer (64-bit limbs), reduced mod p.
pub fn fe(x: [u64; 4]) -> Fp {
    Fp::from_le_bytes_mod_order(&x.iter().flat_map(|w| w.to_le_bytes()).collect::<Vec<u8>>())
}

/// Edge inputs for the lane checks: 0, 1, p − 1, p − 2, 2^255 − 1 and 2^256 − 1 (every
/// limb at its maximum).
pub fn edges() -> [[u64; 4]; 6] {
    let pm = |k: u64| (-Fp::from(k)).into_bigint().0;
    [
        [0; 4],
        [1, 0, 0, 0],
        pm(1),
        pm(2),
        [u64::MAX, u64::MAX, u64::MAX, u64::MAX >> 1],
        [u64::MAX; 4],
    ]
}

/// The median of five runs of `f`, in nanoseconds.
pub fn median_ns(f: &dyn Fn() -> u64) -> f64 {
    let mut t: Vec<f64> = (0..5)
        .map(|_| {
            let s = Instant::now();
            black_box(f());
            s.elapsed().as_secs_f64() * 1e9
        })
        .collect();
    t.sort_by(f64::total_cmp);
    t[2]
}

/// Three independent chains of `n` scalar `u29` products by `b` (integers below p),
/// nanoseconds per product: the throughput the lanes must beat.
pub fn u29_three_chains(a: [[u64; 4]; 3], b: [u64; 4], n: u32) -> f64 {
    #[inline(never)]
    fn step(x: &mut [Fp29; 3], b: Fp29) {
        for y in x.iter_mut() {
            *y = y.mul(b);
        }
    }
    let elem = |x: [u64; 4]| Fp29::from_canonical(x).expect("below p");
    median_ns(&|| {
        let (mut x, b) = (a.map(elem), elem(b));
        for _ in 0..n {
            step(black_box(&mut x), b);
        }
        x[0].to_canonical()[0]
    }) / (3.0 * f64::from(n))
}
