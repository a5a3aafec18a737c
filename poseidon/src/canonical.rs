//! Hashing and permuting integers: elements as the little-endian 64-bit limbs of
//! their value (below the modulus), not ark-ff's Montgomery form.
//!
//! For callers that hold integers, such as the JavaScript package: the backend
//! converts them directly (in `u29`, one Montgomery multiplication each way), which
//! skips ark-ff's own conversions; in Wasm those multiply through `u128`. Results
//! are those of the element API ([`crate::hash`], [`crate::permute`], …). A value
//! that is not below the modulus is an error naming its position.
//!
//! ```
//! use poseidon::{canonical, Fp, ParamSet};
//! let digest = canonical::hash::<Fp>(ParamSet::Kimchi, &[[1, 0, 0, 0], [2, 0, 0, 0]])?;
//! let expected = poseidon::hash(ParamSet::Kimchi, &[Fp::from(1u64), Fp::from(2u64)]);
//! assert_eq!(digest, ark_ff::PrimeField::into_bigint(expected).0);
//! # Ok::<(), poseidon::Error>(())
//! ```

use crate::backend::DefaultBackend;
use crate::backend::{Backend, PastaField};
use crate::error::Error;
use crate::field::FieldArith;
use crate::params::{ParamSet, WIDTH};
use crate::permutation;
use crate::sponge::sponges_lockstep;

/// The error for element `element` of input `input`.
fn not_canonical<F: PastaField>(input: usize, element: usize) -> Error {
    Error::NonCanonicalAt {
        field: F::ID,
        input,
        element,
    }
}

/// An integer as four little-endian 64-bit limbs.
pub type Limbs = [u64; 4];

/// [`crate::permute`] on integers; [`Error::NonCanonicalAt`] naming the first
/// element that is not below the modulus (the state is then unchanged).
pub fn permute<F: PastaField>(set: ParamSet, state: &mut [Limbs; WIDTH]) -> Result<(), Error> {
    permute_with::<F, DefaultBackend>(set, state)
}

/// [`permute`] computed with backend `B`.
pub fn permute_with<F: PastaField, B: Backend>(
    set: ParamSet,
    state: &mut [Limbs; WIDTH],
) -> Result<(), Error> {
    let mut s = [<F::Repr<B>>::zero(); WIDTH];
    for (i, (x, limbs)) in s.iter_mut().zip(state.iter()).enumerate() {
        *x = <F::Repr<B>>::from_canonical(*limbs).ok_or_else(|| not_canonical::<F>(0, i))?;
    }
    permutation::permute(<F::Repr<B>>::params(set), &mut s);
    *state = s.map(FieldArith::to_canonical);
    Ok(())
}

/// [`crate::hash`] of integers; [`Error::NonCanonicalAt`] naming the first element
/// that is not below the modulus.
pub fn hash<F: PastaField>(set: ParamSet, inputs: &[Limbs]) -> Result<Limbs, Error> {
    hash_with::<F, DefaultBackend>(set, inputs)
}

/// [`hash`] computed with backend `B`.
pub fn hash_with<F: PastaField, B: Backend>(
    set: ParamSet,
    inputs: &[Limbs],
) -> Result<Limbs, Error> {
    hash_many_with::<F, B, _>(set, &[inputs]).map(|d| d[0])
}

/// [`crate::hash_many`] of integers; [`Error::NonCanonicalAt`] naming the first
/// element (input, then element) that is not below the modulus.
pub fn hash_many<F: PastaField, I: AsRef<[Limbs]>>(
    set: ParamSet,
    inputs: &[I],
) -> Result<Vec<Limbs>, Error> {
    hash_many_with::<F, DefaultBackend, I>(set, inputs)
}

/// [`hash_many`] computed with backend `B`.
pub fn hash_many_with<F: PastaField, B: Backend, I: AsRef<[Limbs]>>(
    set: ParamSet,
    inputs: &[I],
) -> Result<Vec<Limbs>, Error> {
    let elements = inputs
        .iter()
        .enumerate()
        .map(|(k, input)| {
            input
                .as_ref()
                .iter()
                .enumerate()
                .map(|(i, x)| {
                    <F::Repr<B>>::from_canonical(*x).ok_or_else(|| not_canonical::<F>(k, i))
                })
                .collect::<Result<Vec<_>, _>>()
        })
        .collect::<Result<Vec<_>, _>>()?;
    let params = <F::Repr<B>>::params(set);
    Ok(sponges_lockstep(params, &elements, |x| *x)
        .into_iter()
        .map(FieldArith::to_canonical)
        .collect())
}

/// o1js's `Poseidon.update(state, inputs)` on integers: from `state` (not a fresh
/// sponge), absorb `inputs` two at a time, zero-padded to an even length, permuting
/// after each pair; no input permutes once. Salted hashes (`hashWithPrefix`) start
/// from a salt state this way. [`Error::NonCanonicalAt`] names the first element
/// that is not below the modulus, counting the three state elements first (the
/// state is then unchanged).
///
/// ```
/// use poseidon::{canonical, Fp, ParamSet};
/// let (one, two) = ([1, 0, 0, 0], [2, 0, 0, 0]);
/// let mut state = [[0; 4]; 3];
/// canonical::update::<Fp>(ParamSet::Kimchi, &mut state, &[one, two])?;
/// assert_eq!(state[0], canonical::hash::<Fp>(ParamSet::Kimchi, &[one, two])?);
/// # Ok::<(), poseidon::Error>(())
/// ```
pub fn update<F: PastaField>(
    set: ParamSet,
    state: &mut [Limbs; WIDTH],
    inputs: &[Limbs],
) -> Result<(), Error> {
    update_with::<F, DefaultBackend>(set, state, inputs)
}

/// [`update`] computed with backend `B`.
pub fn update_with<F: PastaField, B: Backend>(
    set: ParamSet,
    state: &mut [Limbs; WIDTH],
    inputs: &[Limbs],
) -> Result<(), Error> {
    let conv = |i: usize, x: &Limbs| {
        <F::Repr<B>>::from_canonical(*x).ok_or_else(|| not_canonical::<F>(0, i))
    };
    let mut s = [<F::Repr<B>>::zero(); WIDTH];
    for (i, (x, limbs)) in s.iter_mut().zip(state.iter()).enumerate() {
        *x = conv(i, limbs)?;
    }
    let xs = inputs
        .iter()
        .enumerate()
        .map(|(i, x)| conv(WIDTH + i, x))
        .collect::<Result<Vec<_>, _>>()?;
    let params = <F::Repr<B>>::params(set);
    if xs.is_empty() {
        permutation::permute(params, &mut s);
    }
    for pair in xs.chunks(crate::params::RATE) {
        for (slot, x) in s.iter_mut().zip(pair) {
            *slot = slot.add(*x);
        }
        permutation::permute(params, &mut s);
    }
    *state = s.map(FieldArith::to_canonical);
    Ok(())
}
