//! Batches across threads: [`permute_many_par`] and [`hash_many_par`] split a batch
//! into chunks, one per task of rayon's pool, and run each chunk through the same
//! batch path as [`crate::permute_many`] and [`crate::hash_many`] (AVX-512 IFMA lanes
//! where the CPU has them), so each thread still runs the fastest lane path.
//!
//! With the cargo feature `parallel` (a default) on a target with threads. On
//! wasm32, or without the feature, the same functions run on the calling thread:
//! code that calls them builds everywhere and gives the same results everywhere.

use crate::backend::{Backend, DefaultBackend, PastaField};
use crate::params::{ParamSet, WIDTH};

/// Whether [`permute_many_par`] and [`hash_many_par`] use more than the calling
/// thread in this build.
pub const PARALLEL: bool = cfg!(all(feature = "parallel", not(target_arch = "wasm32")));

#[cfg(all(feature = "parallel", not(target_arch = "wasm32")))]
use chunks::chunk_size;

/// How a batch is cut for rayon: compiled where the batches run on threads, and for
/// the tests everywhere.
#[cfg(any(test, all(feature = "parallel", not(target_arch = "wasm32"))))]
mod chunks {
    /// The widest lane batch of any backend (AVX-512 IFMA: 8 states): chunks are
    /// multiples of it, so no chunk leaves a partly filled batch but the last.
    pub(super) const LANES: usize = 8;

    /// Chunks per thread: a few, so that a thread slowed by the machine does not hold
    /// the others up at the end, and each chunk still fills many lane batches.
    pub(super) const CHUNKS_PER_THREAD: usize = 4;

    /// At least this many items per chunk: below it, the cost of a task (about a
    /// microsecond) is no longer small against the chunk's work (a permutation is
    /// several microseconds, a batch of 64 some hundreds).
    pub(super) const MIN_CHUNK: usize = 64;

    /// The chunk size for `n` items on `threads` threads: `n` split in about
    /// `threads * CHUNKS_PER_THREAD` parts, at least `MIN_CHUNK`, a multiple of `LANES`.
    pub(super) fn chunk_size(n: usize, threads: usize) -> usize {
        let parts = threads.max(1) * CHUNKS_PER_THREAD;
        let size = n.div_ceil(parts).max(MIN_CHUNK);
        size.div_ceil(LANES) * LANES
    }
}

#[cfg(all(feature = "parallel", not(target_arch = "wasm32")))]
fn threads() -> usize {
    rayon::current_num_threads()
}

/// [`crate::permute_many`] on every core: the permutation of `set` applied to every
/// state in place, chunks of the batch on rayon's threads.
///
/// ```
/// use poseidon::{Fp, ParamSet};
/// let mut states: Vec<[Fp; 3]> = (0..4096u64).map(|i| [Fp::from(i), Fp::from(1u64), Fp::from(2u64)]).collect();
/// let mut one_thread = states.clone();
/// poseidon::permute_many_par(ParamSet::Kimchi, &mut states);
/// poseidon::permute_many(ParamSet::Kimchi, &mut one_thread);
/// assert_eq!(states, one_thread);
/// ```
pub fn permute_many_par<F: PastaField>(set: ParamSet, states: &mut [[F; WIDTH]]) {
    permute_many_par_with::<F, DefaultBackend>(set, states)
}

/// [`permute_many_par`] computed with backend `B`.
pub fn permute_many_par_with<F: PastaField, B: Backend>(set: ParamSet, states: &mut [[F; WIDTH]]) {
    #[cfg(all(feature = "parallel", not(target_arch = "wasm32")))]
    {
        use rayon::prelude::*;
        let chunk = chunk_size(states.len(), threads());
        if states.len() > chunk {
            states
                .par_chunks_mut(chunk)
                .for_each(|c| crate::permute_many_with::<F, B>(set, c));
            return;
        }
    }
    crate::permute_many_with::<F, B>(set, states)
}

/// [`crate::hash_many`] on every core: each input hashed as [`crate::hash`] would,
/// in input order, chunks of the inputs on rayon's threads.
///
/// ```
/// use poseidon::{Fp, ParamSet};
/// let pairs: Vec<[Fp; 2]> = (0..1000u64).map(|i| [Fp::from(2 * i), Fp::from(2 * i + 1)]).collect();
/// let parents = poseidon::hash_many_par(ParamSet::Kimchi, &pairs);
/// assert_eq!(parents, poseidon::hash_many(ParamSet::Kimchi, &pairs));
/// ```
pub fn hash_many_par<F: PastaField, I: AsRef<[F]> + Sync>(set: ParamSet, inputs: &[I]) -> Vec<F> {
    hash_many_par_with::<F, DefaultBackend, I>(set, inputs)
}

/// [`hash_many_par`] computed with backend `B`.
pub fn hash_many_par_with<F: PastaField, B: Backend, I: AsRef<[F]> + Sync>(
    set: ParamSet,
    inputs: &[I],
) -> Vec<F> {
    #[cfg(all(feature = "parallel", not(target_arch = "wasm32")))]
    {
        use rayon::prelude::*;
        let chunk = chunk_size(inputs.len(), threads());
        if inputs.len() > chunk {
            let parts: Vec<Vec<F>> = inputs
                .par_chunks(chunk)
                .map(|c| crate::hash_many_with::<F, B, I>(set, c))
                .collect();
            return parts.concat();
        }
    }
    crate::hash_many_with::<F, B, I>(set, inputs)
}

#[cfg(test)]
mod tests {
    use super::chunks::*;

    #[test]
    fn chunks_are_lane_multiples_and_cover_the_batch() {
        for (n, threads) in [(0, 2), (1, 1), (100, 2), (4096, 2), (4096, 16), (10_001, 3)] {
            let c = chunk_size(n, threads);
            assert_eq!(c % LANES, 0, "n {n}, threads {threads}: chunk {c}");
            assert!(c >= MIN_CHUNK);
            // About CHUNKS_PER_THREAD chunks per thread, never more.
            assert!(n.div_ceil(c) <= threads.max(1) * CHUNKS_PER_THREAD);
        }
        assert_eq!(chunk_size(4096, 2), 512);
    }
}
