//! Backend `fma`: the JavaScript package's (`poseidon_js::fma::Fma`, the `fma`
//! module's arithmetic), whose kimchi permutations run through the generated FMA
//! kernels, under the same IDs and workloads as the library's backends.
//! Compiled only in the fma build (`--cfg poseidon_fma`, wasm32-wasip1 with
//! relaxed SIMD), into which `cargo xtask bench` merges the kernels
//! (`fma-kernel --merge`); the runtimes that validate relaxed SIMD (wasmtime,
//! Node 22 and later) run its `fma` rows beside the plain module's.

use std::sync::OnceLock;

use poseidon::backend::Reference;
use poseidon::params::ParamSet;
use poseidon::{permute_many_with, permute_with, Fp};
use poseidon_js::fma::{kernels_run, Fma};

/// Whether the `fma` rows are measured: the kernels run here (else the backend
/// computes with `u29`'s rounds, which rows `u29` measure already; said once),
/// and they agree with the reference on one state and on a batch of three (a
/// pair through `fma_permute2`, the last one alone), or the run stops.
pub fn ready(inputs: &[Fp]) -> bool {
    static READY: OnceLock<bool> = OnceLock::new();
    *READY.get_or_init(|| {
        if !kernels_run() {
            println!(
                "fma: this engine's relaxed_madd is not fused, the kernels do not run: no fma rows"
            );
            return false;
        }
        let states: Vec<[Fp; 3]> = inputs.chunks(3).map(|c| [c[0], c[1], c[2]]).collect();
        for n in [1, states.len()] {
            let mut ours = states[..n].to_vec();
            let mut want = ours.clone();
            permute_many_with::<Fp, Fma>(ParamSet::Kimchi, &mut ours);
            for s in &mut want {
                permute_with::<Fp, Reference>(ParamSet::Kimchi, s);
            }
            assert_eq!(
                ours, want,
                "fma: the kernels disagree with the reference ({n} states)"
            );
        }
        let mut one = states[0];
        permute_with::<Fp, Fma>(ParamSet::Kimchi, &mut one);
        let mut want = states[0];
        permute_with::<Fp, Reference>(ParamSet::Kimchi, &mut want);
        assert_eq!(one, want, "fma: the kernel disagrees with the reference");
        println!("fma: the kernels run and agree with the reference");
        true
    })
}
