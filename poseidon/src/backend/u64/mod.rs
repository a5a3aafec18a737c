//! `u64`: 4 limbs of 64 bits, Montgomery form with R = 2^256 (ark-ff's own layout).
//!
//! Built for 64-bit CPUs, where a 64×64→128 product is one instruction. The
//! representation is the one ark-ff stores, so entering and leaving the backend
//! costs nothing; what is faster is the arithmetic (see `arith.rs`):
//! - the reduction is specialised to the Pasta primes (limb 2 of p is zero, limb 3
//!   is 2^62: two word products and a shift per step instead of four products);
//! - products reduce limb by limb (CIOS), and on x86-64 CPUs with BMI2 and ADX
//!   the S-box's run in assembly on two carry chains (`adx.rs`, chosen at run time);
//! - squaring computes each cross product once;
//! - the S-box x^7 is two squarings and two multiplications (upstream's `pow`
//!   takes three of each), and the three S-box chains of a round are interleaved;
//! - each MDS output sums three unreduced 512-bit products and reduces once, with
//!   the round constant folded into that reduction (stored pre-multiplied by 2^256);
//! - constants are converted at compile time.
//!
//! Elements are always fully reduced (< p), because p > 2^256/4 leaves no room
//! for lazy reduction in 256 bits. Many permutations at once ([`Permutation::permute_many`](crate::Permutation::permute_many))
//! run 8 lanes of AVX-512 IFMA when the CPU has it ([`ifma`]), chosen at run time.

#[cfg(target_arch = "x86_64")]
mod adx;
mod arith;
mod element;
#[cfg(target_arch = "x86_64")]
pub mod ifma;
mod impls;
// Without IFMA (e.g. on wasm32) only the tables and the tests use it.
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
mod lanes52;
mod rounds;
#[cfg(test)]
mod tests;

pub use self::element::{Fe64, Fp64, Fq64, Modulus64};
pub use self::impls::{permute_many_portable, Fe52, U52, U64};
pub use self::rounds::Tables64;
pub use crate::backend::common::{Pallas, Vesta};
