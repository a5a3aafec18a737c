//! Backend `upstream` in the count program (`bench/examples/count.rs`), built
//! with feature "upstream" in the crate that `cargo xtask upstream-lab` writes:
//! mina-poseidon's permutation, sponge chain and hash of n elements, on the
//! inputs and between the markers of ours, so that `Poseidon/permutation/upstream`,
//! `Poseidon/poseidon_hash_kimchi/upstream` and `Poseidon/hash/upstream/N` are
//! counted as ours are.

use std::hint::black_box;

use ark_ff::{BigInteger, PrimeField};
use mina_curves::pasta::Fp as UpFp;
use mina_poseidon::constants::PlonkSpongeConstantsKimchi as Kimchi;
use mina_poseidon::pasta::{fp_kimchi, FULL_ROUNDS};
use mina_poseidon::permutation::poseidon_block_cipher;
use mina_poseidon::poseidon::{ArithmeticSponge, Sponge as _};
use poseidon::Fp;

use super::fixed;

/// The bodies upstream has (its permutation and its sponge; no field operations).
pub const BODIES: [&str; 3] = [
    "Poseidon/permutation",
    "Poseidon/poseidon_hash_kimchi",
    "Poseidon/hash",
];

fn to_up(x: Fp) -> UpFp {
    UpFp::from_le_bytes_mod_order(&x.into_bigint().to_bytes_le())
}

fn from_up(x: UpFp) -> Fp {
    Fp::from_le_bytes_mod_order(&x.into_bigint().to_bytes_le())
}

/// The body K times between the count program's markers (`window`), then the
/// digest (as ours); None for a body upstream lacks.
pub fn run(body: &str, n: usize, k: u64, window: fn(&mut dyn FnMut())) -> Option<Fp> {
    let params = fp_kimchi::static_params();
    match body {
        "Poseidon/permutation" => {
            let x = fixed::inputs(3);
            let mut state: [UpFp; 3] = [0, 1, 2].map(|i| to_up(x[i]));
            window(&mut || {
                for _ in 0..k {
                    poseidon_block_cipher::<UpFp, Kimchi, FULL_ROUNDS>(
                        params,
                        black_box(&mut state),
                    );
                }
            });
            Some(from_up(state[0]))
        }
        "Poseidon/poseidon_hash_kimchi" => {
            let mut sponge = ArithmeticSponge::<UpFp, Kimchi, FULL_ROUNDS>::new(params);
            let mut digest = UpFp::from(0u64);
            window(&mut || {
                for _ in 0..k {
                    sponge.absorb(&[digest]);
                    digest = sponge.squeeze();
                }
            });
            Some(from_up(digest))
        }
        "Poseidon/hash" => {
            // As the benchmark's hash/upstream/N and ours: a fresh sponge per hash,
            // the digests chained through the first input.
            let hash = |xs: &[UpFp]| {
                let mut s = ArithmeticSponge::<UpFp, Kimchi, FULL_ROUNDS>::new(params);
                s.absorb(xs);
                s.squeeze()
            };
            let mut xs: Vec<UpFp> = fixed::inputs(n).into_iter().map(to_up).collect();
            window(&mut || {
                for _ in 0..k {
                    let d = hash(black_box(&xs));
                    if let Some(x) = xs.first_mut() {
                        *x = d;
                    }
                }
            });
            Some(from_up(hash(&xs)))
        }
        _ => None,
    }
}
