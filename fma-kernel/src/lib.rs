//! The kimchi permutation of the JavaScript package's `fma` module: on
//! 52-bit limbs held as `f64`, two per `v128`, every limb product split exactly by
//! two fused multiply-adds (relaxed SIMD's `f64x2.relaxed_madd`), and the Wasm
//! *generated here* in the order we choose. V8's Turboshaft keeps the order a
//! module gives it; LLVM, compiling the same algorithm from Rust, sums each column
//! as one reassociated tree and keeps every high half live (spills).
//!
//! Each kernel runs independent streams interleaved statement by statement (two
//! or three for the single permutation, three for the pair's), and scans
//! products column by column with the Montgomery reduction (R = 2^260) in the
//! same columns, so only two columns are live.
//!
//! Arithmetic (the same as `lanes52`'s, R = 2^260, values below 2^256):
//! - a·b < 2^104: hi = fma(a, b, 2^104) = 2^104 + k·2^52, and
//!   fnma(a, b, hi − (2^104 − 1.5·2^52)) = 1.5·2^52 − (a·b − k·2^52), exact and in
//!   [2^52, 2^53] (|a·b − k·2^52| ≤ 2^51). The first's bits added and the second's
//!   subtracted as integers put k in column c + 1 and the remainder in column c,
//!   each with a known excess (the anchors' bits) that the generator tracks and
//!   subtracts where a column is read.
//! - The Montgomery quotient of column c: p ≡ 1 mod 2^32 for both Pasta primes,
//!   so q = 2^32·(t·u mod 2^20) − t mod 2^52 with u = (p − 1)/2^32 (one
//!   `i32x4.mul`, whose low 32-bit lane shifted up by 32 is (t·u mod 2^32)·2^32,
//!   a subtraction, and the mask that keeps 52 bits). p's 52-bit limbs 0–2 are
//!   products; limb 3 is zero and limb 4 is 2^46, so q·2^46 is two shifts and a
//!   mask (15 products per reduction instead of 20).
//! - The quotient's product by p_0 needs no low half: t + q·p_0 ≡ 0 mod 2^52, so
//!   column c's carry is ⌊t/2^52⌋ + ⌊q·p_0/2^52⌋ + [q ≠ 0], and fma(q, p_0,
//!   2^104 − 2^51) rounds to 2^104 + ⌊q·p_0/2^52⌋·2^52 for q ≠ 0 and is 2^104 − 2^51
//!   (bits one less) for q = 0: one multiply-add instead of a split's five
//!   operators (`ir::quotient_high`).
//! - A column is carried by a logical shift while a known excess, a multiple of
//!   2^52, keeps it positive (2^61).
//!
//! Two exports: `fma_permute` (one state; elements 0 and 1 in the lanes of one
//! vector, element 2 in both lanes of another) and `fma_permute2` (two states, one
//! per lane: no lane is duplicated, and the rescaling below fits whole vectors).
//! The single permutation's S-box is x⁷ = x³·x⁴ with element 2's x³ and x⁴ in the
//! two lanes of one vector, so a round takes seven vector products where x⁶·x took
//! eight (`single_plan`).
//! Elements enter and leave as x·2^261 mod p, any value below 2^256 (the `u29`
//! backend's form, so the package converts by regrouping bits): the products by
//! d/2 on entry and 2/d on exit turn it into the kernel's d·x·2^260 and back.
//!
//! The generated statements are also interpreted here ([`Interp`], with
//! `f64::mul_add`), which is how the tests check the generator against the
//! reference permutation natively; `js/bench/fma-kernel.mjs` checks the module itself
//! against o1js and times it. Kimchi sets only (no initial round constants).

mod consts;
mod interp;
mod ir;
mod module;
mod schedule;
#[cfg(test)]
mod tests;
mod wat;

pub use interp::{pair_in, pair_out, state_in, state_out, Interp};
pub use module::{generate, Memory, Module, Which};

/// What every part of the generator sees of the others.
mod prelude {
    pub(crate) use std::collections::HashMap;
    pub(crate) use std::fmt::Write as _;

    pub(crate) use ark_ff::PrimeField;
    pub(crate) use poseidon::{FieldArith, ParamSet, PastaField};

    pub(crate) use crate::consts::*;
    #[cfg(test)]
    pub(crate) use crate::interp::*;
    pub(crate) use crate::ir::*;
    pub(crate) use crate::module::*;
    pub(crate) use crate::schedule::*;
    pub(crate) use crate::wat::*;
}
