//! Runs only the `u29` kimchi permutation, so that its wasm32 build shows which
//! runtime helpers that backend pulls in. `make test` checks that the module has no
//! `__multi3` (the 128-bit multiplication helper that arkworks' `u128` products
//! become in Wasm): `cargo build --release -p poseidon-benches --example u29_probe --target wasm32-wasip1`.

use ark_ff::BigInt;
use poseidon::backend::u29::Fp29;
use poseidon::params::ParamSet;
use poseidon::{permutation, FieldArith, Fp};

fn main() {
    // Raw Montgomery limbs from the arguments: no ark-ff arithmetic is linked.
    let seed: u64 = std::env::args().count() as u64;
    let mut state =
        [1u64, 2, 3].map(|i| Fp29::from_field(Fp::new_unchecked(BigInt([seed * i, i, 0, 0]))));
    permutation::permute(Fp29::params(ParamSet::Kimchi), &mut state);
    let out = state[0].to_field();
    std::process::exit((out.0 .0[0] & 0x7f) as i32);
}
