//! The project's automation as a library: the check tiers and their runner, and
//! the checks and builders that `cargo xtask` runs (see `main.rs` for the tasks).
//! Nothing here is part of the product: the library (`poseidon/`), the npm package
//! (`js/`) and the benchmark (`bench/`) depend on none of it.

pub mod ab;
pub mod cargo_args;
pub mod checklist;
pub mod docs_check;
pub mod entry_points;
pub mod lab;
pub mod module_graph;
pub mod native_branches;
pub mod nix_eval;
pub mod nix_review;
pub mod release;
#[cfg(unix)]
pub mod replay;
pub mod runner;
#[cfg(unix)]
pub mod sandbox;
pub mod steps;
pub mod tasks;
pub mod test_binaries;
pub mod tiers;
pub mod tool_checks;
pub mod wasm_ops;
