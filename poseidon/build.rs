//! Picks the default arithmetic backend: `u29` on wasm32 (no 64×64→128 multiply
//! there), `u52` on x86-64 (AVX-512 IFMA lanes, detected at run time, else the
//! `u64` permutation), `u64` on other 64-bit targets, `reference` elsewhere. Override
//! with `RUSTFLAGS='--cfg poseidon_backend="reference"'` (or "u29", "u64", "u52"); the allowed
//! values are declared in the workspace's `unexpected_cfgs` lint, so a typo fails.

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rerun-if-env-changed=CARGO_ENCODED_RUSTFLAGS");
    // A --cfg given in RUSTFLAGS reaches build scripts as CARGO_CFG_<NAME>.
    let (backend, reason) = match std::env::var("CARGO_CFG_POSEIDON_BACKEND") {
        Ok(chosen) => (chosen, "override"),
        Err(_) => {
            let arch = std::env::var("CARGO_CFG_TARGET_ARCH").unwrap_or_default();
            let width = std::env::var("CARGO_CFG_TARGET_POINTER_WIDTH").unwrap_or_default();
            let default = match (arch.as_str(), width.as_str()) {
                ("wasm32", _) => "u29",
                ("x86_64", _) => "u52",
                (_, "64") => "u64",
                _ => "reference",
            };
            println!("cargo::rustc-cfg=poseidon_backend=\"{default}\"");
            (default.to_owned(), "target")
        }
    };
    println!("cargo::rustc-env=POSEIDON_DEFAULT_BACKEND={backend}");
    println!("cargo::rustc-env=POSEIDON_DEFAULT_BACKEND_REASON={reason}");
}
