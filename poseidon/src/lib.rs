//! Kimchi and legacy Poseidon over the Pasta fields, bit-for-bit as Mina computes it.
//!
//! - Fields [`Fp`] (Pallas base field) and [`Fq`] (Vesta base field), declared with ark-ff 0.5.
//! - Parameter sets [`ParamSet::Kimchi`] (x^7, 55 full rounds) and [`ParamSet::Legacy`]
//!   (x^5, 63 full rounds), constants derived in this crate from Mina's rule ([`params::derive`]).
//! - The [`Sponge`] (width 3, rate 2), [`hash`] and [`permute`].
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
pub mod encoding;
mod error;
mod field;
mod fields;
pub mod params;
pub mod permutation;
mod sponge;
pub mod vectors;

pub use error::Error;
pub use field::{Backend, FieldArith, FieldId, PastaField};
pub use fields::{Fp, FpMontConfig, Fq, FqMontConfig};
pub use params::{ParamSet, WIDTH};
pub use sponge::{Sponge, SpongeMode};

/// The backend the public API uses unless told otherwise: `u29` on wasm32,
/// `reference` elsewhere; `RUSTFLAGS='--cfg poseidon_backend="…"'` overrides it.
#[cfg(poseidon_backend = "u29")]
pub type DefaultBackend = backend::U29;
/// The backend the public API uses unless told otherwise: `u29` on wasm32,
/// `reference` elsewhere; `RUSTFLAGS='--cfg poseidon_backend="…"'` overrides it.
#[cfg(not(poseidon_backend = "u29"))]
pub type DefaultBackend = backend::Reference;

/// Name of [`DefaultBackend`] and why it was chosen (`target` or `override`).
pub const DEFAULT_BACKEND: (&str, &str) = (
    env!("POSEIDON_DEFAULT_BACKEND"),
    env!("POSEIDON_DEFAULT_BACKEND_REASON"),
);

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
