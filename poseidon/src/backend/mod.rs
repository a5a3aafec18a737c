//! Arithmetic backends. Each file is one representation of the Pasta fields.
//!
//! | backend | representation | selected by default |
//! | --- | --- | --- |
//! | [`reference`] | ark-ff 0.5 Montgomery, 4×64-bit limbs (products through `u128`) | on 32-bit non-Wasm targets |
//! | [`u29`] | Montgomery, 9×29-bit limbs in `u64` words, lazy reduction | on `wasm32` |
//! | [`U29x2`] | the same, two S-boxes and MDS rows in SIMD lanes (`simd128`) | no |
//! | [`u64x4`] ([`U64`]) | Montgomery, 4×64-bit limbs, Pasta-shaped reduction, fused MDS | on 64-bit targets other than x86-64 |
//! | [`U52`] | `u64` elements; the permutation across AVX-512 IFMA lanes (5×52-bit limbs) when the CPU has them | on x86-64 |
//!
//! To add a backend: implement [`FieldArith`](crate::FieldArith) for a type per
//! field, name them in a [`Backend`](crate::Backend), add it to the
//! differential tests and to the benchmark list (`benches/benches/poseidon.rs`).

pub mod reference;
pub mod u29;
pub mod u64x4;

pub use reference::Reference;
pub use u29::{U29x2, U29};
pub use u64x4::{U52, U64};

/// The Pallas base field's modulus (for [`Fp`](crate::Fp)): a type-level tag for
/// the backends' per-modulus constants.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pallas;

/// The Vesta base field's modulus (for [`Fq`](crate::Fq)).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Vesta;
