//! Kimchi and legacy Poseidon over the Pasta fields, bit-for-bit as Mina computes it.
//!
//! - Fields [`Fp`] (Pallas base field) and [`Fq`] (Vesta base field), declared with ark-ff 0.5.
//! - Parameter sets [`ParamSet::Kimchi`] (x^7, 55 full rounds) and [`ParamSet::Legacy`]
//!   (x^5, 63 full rounds), constants derived in this crate from Mina's rule ([`params::derive`]).
//! - The [`Sponge`] (width 3, rate 2), [`hash`] and [`permute`]; batches
//!   ([`hash_many`], [`permute_many`]) in SIMD lanes, and on every core
//!   ([`hash_many_par`], [`permute_many_par`], feature `parallel`); o1js's
//!   [`merkle::MerkleTree`], and o1js's salted, length-tagged and packed hashes,
//!   list commitments, token ids and transaction commitments ([`o1js`]); Mina's
//!   group map onto Pallas and `hashToGroup` ([`group_map`]).
//! - Arithmetic behind a seam ([`FieldArith`], [`Backend`]): the permutation and the
//!   sponge are written once; [`backend`] holds the representations.
//!
//! ```
//! use poseidon::{encoding, Fp, ParamSet};
//! let x: Fp = encoding::from_hex("f2eee8d8f6e5fb182c610cae6c5393fce69dc4d900e7b4923b074e54ad00fb36")?;
//! let digest = poseidon::hash(ParamSet::Kimchi, &[x]);
//! assert_eq!(
//!     encoding::to_hex(digest),
//!     "fb5992f65c07f9335995f43fd791d39012ad466717729e61045c297507054f3d"
//! );
//! # Ok::<(), poseidon::Error>(())
//! ```

pub mod backend;
pub mod canonical;
pub mod encoding;
mod error;
mod field;
mod fields;
pub mod group_map;
pub mod merkle;
pub mod o1js;
mod parallel;
pub mod params;
pub mod permutation;
mod sponge;
#[cfg(feature = "vectors")]
pub mod vectors;

pub use backend::{Backend, DefaultBackend, PastaField, DEFAULT_BACKEND};
pub use error::Error;
pub use field::FieldArith;
pub use fields::{FieldId, Fp, FpMontConfig, Fq, FqMontConfig};
pub use parallel::{
    hash_many_par, hash_many_par_with, permute_many_par, permute_many_par_with, PARALLEL,
};
pub use params::{ParamSet, WIDTH};
pub use permutation::Permutation;
pub use sponge::{Sponge, SpongeMode};

/// Absorbs `inputs` into a fresh sponge and squeezes one element.
/// The empty input permutes once.
pub fn hash<F: PastaField>(set: ParamSet, inputs: &[F]) -> F {
    hash_with::<F, DefaultBackend>(set, inputs)
}

/// [`hash`] computed with backend `B`.
pub fn hash_with<F: PastaField, B: Backend>(set: ParamSet, inputs: &[F]) -> F {
    let mut sponge = Sponge::<F, B>::new(set);
    sponge.absorb(inputs);
    sponge.squeeze()
}

/// Hashes each input as [`hash`] would, all of them in one call: the sponges run
/// in lockstep and each step permutes every unfinished state at once
/// ([`permute_many`]), which a backend may spread over SIMD lanes. Inputs may
/// differ in length.
///
/// ```
/// use poseidon::{Fp, ParamSet};
/// // One level of a Merkle tree: the parents of 1024 leaf pairs.
/// let pairs: Vec<[Fp; 2]> = (0..1024u64).map(|i| [Fp::from(2 * i), Fp::from(2 * i + 1)]).collect();
/// let parents = poseidon::hash_many(ParamSet::Kimchi, &pairs);
/// assert_eq!(parents[3], poseidon::hash(ParamSet::Kimchi, &pairs[3]));
/// ```
pub fn hash_many<F: PastaField, I: AsRef<[F]>>(set: ParamSet, inputs: &[I]) -> Vec<F> {
    hash_many_with::<F, DefaultBackend, I>(set, inputs)
}

/// [`hash_many`] computed with backend `B`.
pub fn hash_many_with<F: PastaField, B: Backend, I: AsRef<[F]>>(
    set: ParamSet,
    inputs: &[I],
) -> Vec<F> {
    let params = <F::Repr<B>>::params(set);
    sponge::sponges_lockstep(params, inputs, |v: &F| <F::Repr<B>>::from_field(*v))
        .into_iter()
        .map(FieldArith::to_field)
        .collect()
}

/// Applies the permutation of `set` to every state in place, in one call (batch
/// hashing, Merkle tree levels): the `u64` and `u52` backends run 8 at a time on
/// AVX-512 IFMA when the CPU has it.
pub fn permute_many<F: PastaField>(set: ParamSet, states: &mut [[F; WIDTH]]) {
    permute_many_with::<F, DefaultBackend>(set, states)
}

/// [`permute_many`] computed with backend `B`.
pub fn permute_many_with<F: PastaField, B: Backend>(set: ParamSet, states: &mut [[F; WIDTH]]) {
    let mut s: Vec<[F::Repr<B>; WIDTH]> = states
        .iter()
        .map(|st| st.map(<F::Repr<B>>::from_field))
        .collect();
    <F::Repr<B>>::permute_many(<F::Repr<B>>::params(set), &mut s);
    for (out, x) in states.iter_mut().zip(&s) {
        *out = x.map(FieldArith::to_field);
    }
}

/// Applies the permutation of `set` to `state` in place.
pub fn permute<F: PastaField>(set: ParamSet, state: &mut [F; WIDTH]) {
    permute_with::<F, DefaultBackend>(set, state)
}

/// [`permute`] computed with backend `B`.
pub fn permute_with<F: PastaField, B: Backend>(set: ParamSet, state: &mut [F; WIDTH]) {
    let mut s = state.map(<F::Repr<B>>::from_field);
    permutation::permute(<F::Repr<B>>::params(set), &mut s);
    *state = s.map(FieldArith::to_field);
}

// The README's example, compiled and run with the doc tests.
#[cfg(doctest)]
#[doc = include_str!("../../README.md")]
struct ReadmeDoctests;
