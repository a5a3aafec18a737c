//! Arithmetic backends. Each file is one representation of the Pasta fields.
//!
//! | backend | representation | selected by default |
//! | --- | --- | --- |
//! | [`reference`] | ark-ff 0.5 Montgomery, 4×64-bit limbs | everywhere, for now |
//!
//! To add a backend: implement [`FieldArith`](crate::FieldArith) for a type per
//! field, name them in a [`Backend`](crate::Backend), add it to the
//! differential tests and to the benchmark list (`benches/benches/poseidon.rs`).

pub mod reference;

pub use reference::Reference;
