//! Arithmetic backends. Each file is one representation of the Pasta fields.
//!
//! | backend | representation | selected by default |
//! | --- | --- | --- |
//! | [`reference`](mod@reference) | ark-ff 0.5 Montgomery, 4×64-bit limbs (products through `u128`) | on 32-bit non-Wasm targets |
//! | [`u29`] | Montgomery, 9×29-bit limbs in `u64` words, lazy reduction | on `wasm32` |
//! | [`U29x2`] | the same, two S-boxes and MDS rows in SIMD lanes (`simd128`) | no |
//! | [`u64`](mod@u64) ([`U64`]) | Montgomery, 4×64-bit limbs, Pasta-shaped reduction, fused MDS | on 64-bit targets other than x86-64 |
//! | [`U52`] | `u64` elements; the permutation across AVX-512 IFMA lanes (5×52-bit limbs) when the CPU has them | on x86-64 |
//!
//! To add a backend: implement [`FieldArith`](crate::FieldArith) and
//! [`Permutation`] for a type per field, name them in a [`Backend`], and add it to
//! the one list, [`for_each_backend!`](crate::for_each_backend): the differential
//! tests, the benchmark, the count program and the `poseidon` tool take their
//! backends from it.
//!
//! **Stability.** The backend types ([`Reference`], [`U29`], [`U29x2`], [`U64`],
//! [`U52`]) and [`DefaultBackend`] are the API: pass them to `hash_with`,
//! `permute_with`, `Sponge`. Everything else below `backend::` (the representations'
//! element types, their limbs, lane kernels and helper functions) is public so that
//! the tests and the benchmark can reach it, and may change in any release.
//!
//! The design below (limb bounds, the rescaled state, the lanes) is the
//! crate's `docs/backends.md`; the measurements behind it are in the repository's `docs/`.
#![doc = include_str!("../../docs/backends.md")]

use core::fmt::Debug;

use ark_ff::{BigInt, PrimeField};

use crate::fields::{FieldId, Fp, Fq};
use crate::permutation::Permutation;

#[macro_use]
mod common;
mod default;
mod list;
pub mod reference;
pub mod u29;
pub mod u64;

pub use common::{Pallas, Vesta};
pub use default::{DefaultBackend, DEFAULT_BACKEND};
pub use list::NAMES;
pub use reference::Reference;
pub use u29::{U29x2, U29};
pub use u64::{U52, U64};

/// A set of arithmetic backends, one representation per Pasta field.
pub trait Backend: Copy + Debug + Send + Sync + 'static {
    /// Short name used in benchmark IDs and tool output, e.g. `reference`.
    const NAME: &'static str;
    /// Representation of [`Fp`].
    type Fp: Permutation<Field = Fp>;
    /// Representation of [`Fq`].
    type Fq: Permutation<Field = Fq>;
}

/// [`Fp`] or [`Fq`]: the fields this crate hashes over, each with its
/// representation in every backend.
pub trait PastaField: PrimeField<BigInt = BigInt<4>> {
    /// Which field this is.
    const ID: FieldId;
    /// Backend `B`'s representation of this field.
    type Repr<B: Backend>: Permutation<Field = Self>;
}

impl PastaField for Fp {
    const ID: FieldId = FieldId::Fp;
    type Repr<B: Backend> = B::Fp;
}

impl PastaField for Fq {
    const ID: FieldId = FieldId::Fq;
    type Repr<B: Backend> = B::Fq;
}
