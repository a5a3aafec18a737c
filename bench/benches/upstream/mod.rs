//! Backend `upstream`: mina-poseidon's own sponge and permutation over
//! mina-curves' `Fp`, from a proof-systems checkout, under the same IDs and
//! workloads as ours. Compiled only in the crate that `cargo xtask`
//! (`xtask/src/lab/upstream.rs`) generates under `target/` with path dependencies on the
//! checkout (`PROOF_SYSTEMS=/path/to/proof-systems`); the checkout is only read.
//!
//! Written against proof-systems 136c1df (`ArithmeticSponge`, `Sponge`,
//! `poseidon_block_cipher`, `pasta::fp_kimchi::static_params`, `FULL_ROUNDS`).

use std::hint::black_box;

use ark_ff::{BigInteger, PrimeField};
use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, BenchmarkId};
use mina_curves::pasta::Fp as UpFp;
use mina_poseidon::constants::PlonkSpongeConstantsKimchi as Kimchi;
use mina_poseidon::pasta::{fp_kimchi, FULL_ROUNDS};
use mina_poseidon::permutation::poseidon_block_cipher;
use mina_poseidon::poseidon::{ArithmeticSponge, Sponge as _};
use poseidon::backend::Reference;
use poseidon::params::ParamSet;
use poseidon::Fp;

const NAME: &str = "upstream";

type UpSponge = ArithmeticSponge<UpFp, Kimchi, FULL_ROUNDS>;

/// Our element as upstream's (both are the same integer below the same modulus).
fn to_up(x: Fp) -> UpFp {
    UpFp::from_le_bytes_mod_order(&x.into_bigint().to_bytes_le())
}

fn from_up(x: UpFp) -> Fp {
    Fp::from_le_bytes_mod_order(&x.into_bigint().to_bytes_le())
}

fn up_hash(xs: &[UpFp]) -> UpFp {
    let mut s = UpSponge::new(fp_kimchi::static_params());
    s.absorb(xs);
    s.squeeze()
}

/// Upstream and our reference agree on what is benchmarked (hashes of 0..=5
/// elements, one permutation), or the run stops: a lab that times a different
/// function would mislead.
pub fn check(inputs: &[Fp]) {
    for n in 0..=5.min(inputs.len()) {
        let ours = poseidon::hash_with::<Fp, Reference>(ParamSet::Kimchi, &inputs[..n]);
        let theirs = from_up(up_hash(
            &inputs[..n].iter().copied().map(to_up).collect::<Vec<_>>(),
        ));
        assert_eq!(
            ours, theirs,
            "upstream and reference disagree on a hash of {n}"
        );
    }
    let mut ours = [inputs[0], inputs[1], inputs[2]];
    poseidon::permute_with::<Fp, Reference>(ParamSet::Kimchi, &mut ours);
    let mut theirs: Vec<UpFp> = inputs[..3].iter().copied().map(to_up).collect();
    poseidon_block_cipher::<UpFp, Kimchi, FULL_ROUNDS>(fp_kimchi::static_params(), &mut theirs);
    assert_eq!(
        ours.to_vec(),
        theirs.into_iter().map(from_up).collect::<Vec<_>>(),
        "upstream and reference disagree on the permutation"
    );
}

/// As upstream's `poseidon_bench`: absorb the previous digest, squeeze.
pub fn hash_kimchi_chain(g: &mut BenchmarkGroup<'_, WallTime>) {
    let mut sponge = UpSponge::new(fp_kimchi::static_params());
    let mut digest = UpFp::from(0u64);
    g.bench_function(BenchmarkId::new("poseidon_hash_kimchi", NAME), |b| {
        b.iter(|| {
            sponge.absorb(&[digest]);
            digest = sponge.squeeze();
        })
    });
    black_box(digest);
}

/// One bare kimchi permutation, on the state our `permutation` rows start from.
pub fn permutation(g: &mut BenchmarkGroup<'_, WallTime>, inputs: &[Fp]) {
    let params = fp_kimchi::static_params();
    let mut state: [UpFp; 3] = [0, 1, 2].map(|i| to_up(inputs[i]));
    g.bench_function(BenchmarkId::new("permutation", NAME), |b| {
        b.iter(|| poseidon_block_cipher::<UpFp, Kimchi, FULL_ROUNDS>(params, black_box(&mut state)))
    });
}

/// A fresh sponge, absorb n elements, squeeze: what `poseidon::hash` does.
pub fn hash_n(g: &mut BenchmarkGroup<'_, WallTime>, inputs: &[Fp]) {
    let xs: Vec<UpFp> = inputs.iter().copied().map(to_up).collect();
    g.bench_with_input(
        BenchmarkId::new(format!("hash/{NAME}"), xs.len()),
        &xs,
        |b, xs| b.iter(|| up_hash(black_box(xs))),
    );
}
