//! Helpers shared by the integration tests.

#![allow(dead_code)]

use poseidon::vectors::{self, VectorFile};

/// Mina's published vector files, compiled in so the tests run unchanged under wasmtime.
pub const KIMCHI_JSON: &str = include_str!("../data/kimchi.json");
/// Legacy-set vectors.
pub const LEGACY_JSON: &str = include_str!("../data/legacy.json");

/// Both published files, parsed.
pub fn published() -> Vec<VectorFile> {
    [KIMCHI_JSON, LEGACY_JSON]
        .iter()
        .map(|t| vectors::parse(t).expect("published vector file parses"))
        .collect()
}

/// A small deterministic generator (SplitMix64), so failures reproduce from the seed.
pub struct SplitMix(pub u64);

impl SplitMix {
    /// Next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A uniformly random canonical element of `F`, by rejection.
    pub fn element<F: ark_ff::PrimeField<BigInt = ark_ff::BigInt<4>>>(&mut self) -> F {
        loop {
            let limbs = [
                self.next_u64(),
                self.next_u64(),
                self.next_u64(),
                self.next_u64() >> 1,
            ];
            if let Some(x) = F::from_bigint(ark_ff::BigInt(limbs)) {
                return x;
            }
        }
    }
}
