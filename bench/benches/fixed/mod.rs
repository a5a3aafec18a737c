//! The benchmark's inputs, shared with the count program (`examples/count.rs`).

use poseidon::Fp;

/// Deterministic, full-size inputs (no zero limbs that a backend might shortcut).
pub fn inputs(n: usize) -> Vec<Fp> {
    (1..=n as u64)
        .map(|i| {
            let x = Fp::from(0x9e37_79b9_7f4a_7c15u64.wrapping_mul(i));
            x * x * x
        })
        .collect()
}
