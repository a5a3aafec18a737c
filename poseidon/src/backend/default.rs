//! The backend the public API uses: chosen per target by the crate's `build.rs`,
//! overridable with `--cfg poseidon_backend="…"`.

/// The backend the public API uses unless told otherwise: `u29` on wasm32, `u52`
/// on x86-64 (AVX-512 IFMA when the CPU has it, else the `u64` permutation), `u64`
/// on other 64-bit targets, `reference` elsewhere;
/// `RUSTFLAGS='--cfg poseidon_backend="…"'` overrides it.
#[cfg(poseidon_backend = "u29")]
pub type DefaultBackend = super::U29;
/// The backend the public API uses unless told otherwise: `u29` on wasm32, `u52`
/// on x86-64 (AVX-512 IFMA when the CPU has it, else the `u64` permutation), `u64`
/// on other 64-bit targets, `reference` elsewhere;
/// `RUSTFLAGS='--cfg poseidon_backend="…"'` overrides it.
#[cfg(poseidon_backend = "u64")]
pub type DefaultBackend = super::U64;
/// The backend the public API uses unless told otherwise: `u29` on wasm32, `u52`
/// on x86-64 (AVX-512 IFMA when the CPU has it, else the `u64` permutation), `u64`
/// on other 64-bit targets, `reference` elsewhere;
/// `RUSTFLAGS='--cfg poseidon_backend="…"'` overrides it.
#[cfg(poseidon_backend = "u52")]
pub type DefaultBackend = super::U52;
/// The backend the public API uses unless told otherwise: `u29` on wasm32, `u52`
/// on x86-64 (AVX-512 IFMA when the CPU has it, else the `u64` permutation), `u64`
/// on other 64-bit targets, `reference` elsewhere;
/// `RUSTFLAGS='--cfg poseidon_backend="…"'` overrides it.
#[cfg(not(any(
    poseidon_backend = "u29",
    poseidon_backend = "u64",
    poseidon_backend = "u52"
)))]
pub type DefaultBackend = super::Reference;

/// Name of [`DefaultBackend`] and why it was chosen (`target` or `override`).
pub const DEFAULT_BACKEND: (&str, &str) = (
    env!("POSEIDON_DEFAULT_BACKEND"),
    env!("POSEIDON_DEFAULT_BACKEND_REASON"),
);
