//! A Merkle tree built a level at a time with `hash_many`, as o1js's `MerkleTree`
//! hashes it: a parent is the kimchi hash of its two children over `Fp`.
//!
//! ```text
//! cargo run --release -p kimchi-poseidon --example merkle_level [HEIGHT]   # default 12: 2^11 leaves
//! ```
//! `hash_many` runs the hashes of a level in lockstep, so a backend can spread
//! them over SIMD lanes (AVX-512 IFMA natively when the CPU has it). The root is
//! checked against one `hash` call per node.

use std::time::Instant;

use poseidon::{encoding, Fp, ParamSet};

/// The parents of one level: pairs of neighbours, hashed in one call.
fn parents(level: &[Fp]) -> Vec<Fp> {
    let pairs: Vec<[Fp; 2]> = level.chunks_exact(2).map(|p| [p[0], p[1]]).collect();
    poseidon::hash_many(ParamSet::Kimchi, &pairs)
}

/// The same root, one `hash` call per node.
fn root_one_by_one(level: &[Fp]) -> Fp {
    if level.len() == 1 {
        return level[0];
    }
    let up: Vec<Fp> = level
        .chunks_exact(2)
        .map(|p| poseidon::hash(ParamSet::Kimchi, p))
        .collect();
    root_one_by_one(&up)
}

fn main() {
    let height: u32 = match std::env::args().nth(1).map(|a| a.parse()) {
        None => 12,
        Some(Ok(h)) if (1..=24).contains(&h) => h,
        Some(_) => {
            eprintln!("usage: merkle_level [HEIGHT]   (1..=24; a tree of HEIGHT levels has 2^(HEIGHT-1) leaves)");
            std::process::exit(2);
        }
    };
    // o1js's height counts the levels, leaves included.
    let leaves: Vec<Fp> = (0..1u64 << (height - 1)).map(Fp::from).collect();

    let start = Instant::now();
    let mut level = leaves.clone();
    while level.len() > 1 {
        level = parents(&level);
    }
    let batched = start.elapsed();
    let root = level[0];

    let start = Instant::now();
    assert_eq!(root_one_by_one(&leaves), root);
    let single = start.elapsed();

    println!("height {height}, {} leaves", leaves.len());
    println!("root {}", encoding::to_hex(root));
    println!(
        "hash_many by level {batched:.2?}, one hash per node {single:.2?} (backend {})",
        poseidon::DEFAULT_BACKEND.0
    );
}
