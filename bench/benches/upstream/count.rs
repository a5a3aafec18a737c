//! `count BACKEND N`: N chained kimchi permutations over Fp with `reference`,
//! `upstream` (mina-poseidon), `u29` or `u64`, then the first element. Run under
//! `valgrind --tool=callgrind` with two values of N, the difference of the
//! instruction counts over the difference of N is the count per permutation:
//! repeatable on a noisy machine, where timings of the same code swing by 20%.
//! Built as the example `count` of the lab crate (`cargo xtask upstream-lab`).

use std::hint::black_box;

use ark_ff::{BigInteger, PrimeField};
use mina_curves::pasta::Fp as UpFp;
use mina_poseidon::constants::PlonkSpongeConstantsKimchi as Kimchi;
use mina_poseidon::pasta::{fp_kimchi, FULL_ROUNDS};
use mina_poseidon::permutation::poseidon_block_cipher;
use poseidon::backend::{Reference, U29, U64};
use poseidon::params::ParamSet;
use poseidon::Fp;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(backend), Some(Ok(n))) = (args.first(), args.get(1).map(|n| n.parse::<usize>()))
    else {
        eprintln!("usage: count reference|upstream|u29|u64 N");
        std::process::exit(2);
    };
    let start = [1u64, 2, 3].map(Fp::from);
    let out: Fp = match backend.as_str() {
        "reference" => chain::<Reference>(start, n),
        "u29" => chain::<U29>(start, n),
        "u64" => chain::<U64>(start, n),
        "upstream" => {
            let params = fp_kimchi::static_params();
            let mut s: [UpFp; 3] = [1u64, 2, 3].map(UpFp::from);
            for _ in 0..n {
                poseidon_block_cipher::<UpFp, Kimchi, FULL_ROUNDS>(params, black_box(&mut s));
            }
            Fp::from_le_bytes_mod_order(&s[0].into_bigint().to_bytes_le())
        }
        other => {
            eprintln!("count: unknown backend {other} (reference, upstream, u29, u64)");
            std::process::exit(2);
        }
    };
    println!("{out}");
}

fn chain<B: poseidon::Backend>(mut s: [Fp; 3], n: usize) -> Fp {
    for _ in 0..n {
        poseidon::permute_with::<Fp, B>(ParamSet::Kimchi, black_box(&mut s));
    }
    s[0]
}
