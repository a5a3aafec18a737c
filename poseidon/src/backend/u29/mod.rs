//! `u29`: 9 limbs of 29 bits in 64-bit words, Montgomery form with R = 2^261.
//!
//! Built for WebAssembly, which has 64-bit multiplication but no 64×64→128 product:
//! every limb product is one `i64.mul`, sums of up to 27 products are accumulated
//! without carrying, and the Montgomery reduction exploits the Pasta primes (see
//! `arith.rs`: the quotient limb is a negation, limbs 5–7 of p are zero and limb 8
//! is a shift). Products use one level of three-way Karatsuba (54 limb products
//! instead of 81); squarings the schoolbook's 45. The S-box x^7 is two squarings
//! and two multiplications; the MDS product sums three unreduced products per
//! output and reduces once, adding the round constant inside that reduction.
//!
//! In Wasm, for the crate's own parameters, the rounds run on a rescaled state
//! (`params::rescale`): one MDS entry per row is a power of two, 2^0 or 2^−29,
//! so an output is two products plus limbs placed in the columns — six products
//! per round instead of nine. Each output is a small function of its own,
//! instantiated once, so its MDS limbs become immediate operands; that suits
//! V8's register allocator.
//!
//! Elements stay *normalized* (limbs 0..=7 < 2^29, limb 8 < 2^24, value < 2^256,
//! not necessarily < p) inside the permutation, and are reduced below p only when
//! they leave the backend ([`FieldArith::to_field`](crate::FieldArith::to_field)). Constants are converted
//! at compile time. Selected by default on `wasm32` (see the crate's `build.rs`).

mod arith;
mod element;
mod impls;
mod lanes;
mod rounds;
mod simd;
mod tables;
#[cfg(test)]
mod tests;
mod x2;
mod x4;

pub use self::element::{Fe29, Fp29, Fq29, Modulus29};
pub use self::impls::{U29x2, U29};
/// Whether the two-lane code ([`U29x2`], [`permute_x2`]) runs on Wasm SIMD in this
/// build (wasm32 with `+simd128`); elsewhere it runs on plain 64-bit lanes.
pub use self::lanes::SIMD128;
pub use self::simd::{mul_x2, permute_x2, permute_x4, square_x2, Fe29x2, OwnSets29};
pub use crate::backend::common::{Pallas, Vesta};
