//! Choosing the arithmetic: every backend computes the same hashes, and the
//! public API uses [`poseidon::DefaultBackend`] unless told otherwise.
//!
//! ```text
//! cargo run --release -p kimchi-poseidon --example backend
//! ```
//! The default is chosen per target at build time (`u29` on wasm32, `u52` on
//! x86-64, `u64` on other 64-bit targets, `reference` elsewhere), and
//! `RUSTFLAGS='--cfg poseidon_backend="u64"'` overrides it. `*_with` functions
//! and `Sponge<F, B>` take one explicitly.

use std::time::Instant;

use poseidon::backend::{Reference, U64};
use poseidon::{Backend, Fp, ParamSet, Sponge};

/// The hash of `inputs` with backend `B`, and the time of 1000 such hashes.
fn run<B: Backend>(inputs: &[Fp]) -> Fp {
    let start = Instant::now();
    let mut digest = Fp::from(0u64);
    for _ in 0..1000 {
        digest = poseidon::hash_with::<Fp, B>(ParamSet::Kimchi, inputs);
    }
    println!("{:<10} {:>8.2?} per hash", B::NAME, start.elapsed() / 1000);
    digest
}

fn main() {
    let (name, why) = poseidon::DEFAULT_BACKEND;
    println!("default backend: {name} ({why})");

    let inputs = [Fp::from(1u64), Fp::from(2u64)];
    let want = run::<Reference>(&inputs);
    // Every backend of the crate (`poseidon::backend::NAMES`), one after another.
    poseidon::for_each_backend!(|_name, B| {
        assert_eq!(run::<B>(&inputs), want);
    });
    assert_eq!(poseidon::hash(ParamSet::Kimchi, &inputs), want);

    // A sponge computing with one backend.
    let mut sponge = Sponge::<Fp, U64>::new(ParamSet::Kimchi);
    sponge.absorb(&inputs);
    assert_eq!(sponge.squeeze(), want);
    println!("all backends agree");
}
