//! Two 64-bit lanes: Wasm `simd128` when the target has it, plain arrays elsewhere,
//! behind the same small API, so the two-lane arithmetic (`x2.rs`) is written once.
//!
//! - [`Pair`] holds two limbs < 2^32 (in Wasm: u32 lanes 0 and 1 of a `v128`), the
//!   form `i64x2.extmul_low_i32x4_u` multiplies: one instruction, two 32×32→64 products.
//! - [`Wide`] holds two 64-bit accumulators (`i64x2`).
//! - [`L4`] holds limb i of four elements (`i32x4`, each < 2^32) and [`W4`] four
//!   64-bit accumulators (two `i64x2`): one [`L4::mul`] is an
//!   `i64x2.extmul_low_i32x4_u` and an `i64x2.extmul_high_i32x4_u`, four products.
//!
//! LLVM emits the extmuls only when both operands are visibly `i32x4` values in the
//! same basic block; an operand it can see to be a constant, a splat or a vector
//! built from scalars becomes an `i64x2.mul` (three multiplies in V8). So the
//! four-lane kernels (`x4.rs`) take constants from memory it cannot see
//! (`core::hint::black_box`), run out of line, and are fully unrolled; `make test`
//! counts the operators of the built module.

use super::arith::{BITS, MASK};

#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
mod imp {
    use core::arch::wasm32::*;

    use super::{BITS, MASK};

    #[derive(Clone, Copy)]
    pub(crate) struct Pair(v128);
    #[derive(Clone, Copy)]
    pub(crate) struct Wide(v128);

    impl Pair {
        #[inline(always)]
        pub(crate) fn new(a: u64, b: u64) -> Self {
            Pair(u32x4(a as u32, b as u32, 0, 0))
        }
        #[inline(always)]
        pub(crate) fn splat(x: u64) -> Self {
            Pair(u32x4_splat(x as u32))
        }
        #[inline(always)]
        pub(crate) fn lanes(self) -> [u64; 2] {
            [
                u32x4_extract_lane::<0>(self.0) as u64,
                u32x4_extract_lane::<1>(self.0) as u64,
            ]
        }
        /// Lane-wise 32×32→64 products.
        #[inline(always)]
        pub(crate) fn mul(self, rhs: Pair) -> Wide {
            Wide(u64x2_extmul_low_u32x4(self.0, rhs.0))
        }
        /// Lane 0 in both lanes.
        #[inline(always)]
        pub(crate) fn dup0(self) -> Pair {
            Pair(i32x4_shuffle::<0, 0, 0, 0>(self.0, self.0))
        }
        /// Lane 1 in both lanes.
        #[inline(always)]
        pub(crate) fn dup1(self) -> Pair {
            Pair(i32x4_shuffle::<1, 1, 1, 1>(self.0, self.0))
        }
    }

    impl Wide {
        pub(crate) const ZERO: Wide = Wide(u64x2(0, 0));
        #[inline(always)]
        pub(crate) fn add(self, rhs: Wide) -> Wide {
            Wide(u64x2_add(self.0, rhs.0))
        }
        #[inline(always)]
        pub(crate) fn add_pair(self, rhs: Pair) -> Wide {
            Wide(u64x2_add(self.0, u64x2_extend_low_u32x4(rhs.0)))
        }
        #[inline(always)]
        pub(crate) fn shl(self, n: u32) -> Wide {
            Wide(u64x2_shl(self.0, n))
        }
        #[inline(always)]
        pub(crate) fn shr_limb(self) -> Wide {
            Wide(u64x2_shr(self.0, BITS))
        }
        /// `(−self) mod 2^29`, the Montgomery quotient limb.
        #[inline(always)]
        pub(crate) fn neg_low(self) -> Wide {
            Wide(v128_and(i64x2_neg(self.0), u64x2_splat(MASK)))
        }
        #[inline(always)]
        pub(crate) fn low(self) -> Wide {
            Wide(v128_and(self.0, u64x2_splat(MASK)))
        }
        /// Both lanes (< 2^32) as a [`Pair`].
        #[inline(always)]
        pub(crate) fn pack(self) -> Pair {
            Pair(i32x4_shuffle::<0, 2, 0, 2>(self.0, self.0))
        }
    }
}

#[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
mod imp {
    use super::{BITS, MASK};

    #[derive(Clone, Copy)]
    pub(crate) struct Pair([u64; 2]);
    #[derive(Clone, Copy)]
    pub(crate) struct Wide([u64; 2]);

    impl Pair {
        #[inline(always)]
        pub(crate) fn new(a: u64, b: u64) -> Self {
            debug_assert!(a >> 32 == 0 && b >> 32 == 0);
            Pair([a, b])
        }
        #[inline(always)]
        pub(crate) fn splat(x: u64) -> Self {
            Pair([x, x])
        }
        #[inline(always)]
        pub(crate) fn lanes(self) -> [u64; 2] {
            self.0
        }
        #[inline(always)]
        pub(crate) fn mul(self, rhs: Pair) -> Wide {
            Wide([self.0[0] * rhs.0[0], self.0[1] * rhs.0[1]])
        }
        #[inline(always)]
        pub(crate) fn dup0(self) -> Pair {
            Pair([self.0[0]; 2])
        }
        #[inline(always)]
        pub(crate) fn dup1(self) -> Pair {
            Pair([self.0[1]; 2])
        }
    }

    impl Wide {
        pub(crate) const ZERO: Wide = Wide([0, 0]);
        #[inline(always)]
        pub(crate) fn add(self, rhs: Wide) -> Wide {
            Wide([self.0[0] + rhs.0[0], self.0[1] + rhs.0[1]])
        }
        #[inline(always)]
        pub(crate) fn add_pair(self, rhs: Pair) -> Wide {
            Wide([self.0[0] + rhs.0[0], self.0[1] + rhs.0[1]])
        }
        #[inline(always)]
        pub(crate) fn shl(self, n: u32) -> Wide {
            Wide(self.0.map(|x| x << n))
        }
        #[inline(always)]
        pub(crate) fn shr_limb(self) -> Wide {
            Wide(self.0.map(|x| x >> BITS))
        }
        #[inline(always)]
        pub(crate) fn neg_low(self) -> Wide {
            Wide(self.0.map(|x| x.wrapping_neg() & MASK))
        }
        #[inline(always)]
        pub(crate) fn low(self) -> Wide {
            Wide(self.0.map(|x| x & MASK))
        }
        #[inline(always)]
        pub(crate) fn pack(self) -> Pair {
            Pair(self.0)
        }
    }
}

pub(crate) use imp::{Pair, Wide};

#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
mod imp4 {
    use core::arch::wasm32::*;

    use super::{BITS, MASK};

    /// Four u32 limbs.
    #[derive(Clone, Copy)]
    pub(crate) struct L4(v128);
    /// Four u64 accumulators: lanes 0, 1 and lanes 2, 3.
    #[derive(Clone, Copy)]
    pub(crate) struct W4(v128, v128);

    impl L4 {
        pub(crate) const ZERO: L4 = L4(u32x4(0, 0, 0, 0));
        #[inline(always)]
        pub(crate) fn new(x: [u64; 4]) -> Self {
            debug_assert!(x.iter().all(|&l| l >> 32 == 0));
            L4(u32x4(x[0] as u32, x[1] as u32, x[2] as u32, x[3] as u32))
        }
        #[inline(always)]
        pub(crate) fn splat(x: u64) -> Self {
            debug_assert!(x >> 32 == 0);
            L4(u32x4_splat(x as u32))
        }
        #[inline(always)]
        pub(crate) fn lanes(self) -> [u64; 4] {
            [
                u32x4_extract_lane::<0>(self.0) as u64,
                u32x4_extract_lane::<1>(self.0) as u64,
                u32x4_extract_lane::<2>(self.0) as u64,
                u32x4_extract_lane::<3>(self.0) as u64,
            ]
        }
        /// Lane-wise sum; the caller keeps it below 2^32.
        #[inline(always)]
        pub(crate) fn add(self, rhs: L4) -> L4 {
            L4(u32x4_add(self.0, rhs.0))
        }
        /// 2x; the caller keeps it below 2^32.
        #[inline(always)]
        pub(crate) fn double(self) -> L4 {
            L4(u32x4_shl(self.0, 1))
        }
        /// Lane-wise 32×32→64 products: two extmuls.
        #[inline(always)]
        pub(crate) fn mul(self, rhs: L4) -> W4 {
            W4(
                u64x2_extmul_low_u32x4(self.0, rhs.0),
                u64x2_extmul_high_u32x4(self.0, rhs.0),
            )
        }
        /// Zero-extended to 64 bits.
        #[inline(always)]
        pub(crate) fn widen(self) -> W4 {
            W4(
                u64x2_extend_low_u32x4(self.0),
                u64x2_extend_high_u32x4(self.0),
            )
        }
    }

    impl W4 {
        pub(crate) const ZERO: W4 = W4(u64x2(0, 0), u64x2(0, 0));
        #[inline(always)]
        pub(crate) fn add(self, rhs: W4) -> W4 {
            W4(u64x2_add(self.0, rhs.0), u64x2_add(self.1, rhs.1))
        }
        /// Lane-wise wrapping difference.
        #[inline(always)]
        pub(crate) fn sub(self, rhs: W4) -> W4 {
            W4(u64x2_sub(self.0, rhs.0), u64x2_sub(self.1, rhs.1))
        }
        #[inline(always)]
        pub(crate) fn add_l4(self, rhs: L4) -> W4 {
            self.add(rhs.widen())
        }
        #[inline(always)]
        pub(crate) fn shl(self, n: u32) -> W4 {
            W4(u64x2_shl(self.0, n), u64x2_shl(self.1, n))
        }
        #[inline(always)]
        pub(crate) fn shr_limb(self) -> W4 {
            W4(u64x2_shr(self.0, BITS), u64x2_shr(self.1, BITS))
        }
        /// Lanes < 2^32 as an [`L4`].
        #[inline(always)]
        pub(crate) fn pack(self) -> L4 {
            L4(i32x4_shuffle::<0, 2, 4, 6>(self.0, self.1))
        }
        /// `(−self) mod 2^29`, the Montgomery quotient limbs.
        #[inline(always)]
        pub(crate) fn neg_low(self) -> L4 {
            let m = u64x2_splat(MASK);
            W4(
                v128_and(i64x2_neg(self.0), m),
                v128_and(i64x2_neg(self.1), m),
            )
            .pack()
        }
        /// `self mod 2^29`.
        #[inline(always)]
        pub(crate) fn low(self) -> L4 {
            let m = u64x2_splat(MASK);
            W4(v128_and(self.0, m), v128_and(self.1, m)).pack()
        }
    }
}

#[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
mod imp4 {
    use super::{BITS, MASK};

    #[derive(Clone, Copy)]
    pub(crate) struct L4([u64; 4]);
    #[derive(Clone, Copy)]
    pub(crate) struct W4([u64; 4]);

    impl L4 {
        pub(crate) const ZERO: L4 = L4([0; 4]);
        #[inline(always)]
        pub(crate) fn new(x: [u64; 4]) -> Self {
            debug_assert!(x.iter().all(|&l| l >> 32 == 0));
            L4(x)
        }
        #[inline(always)]
        pub(crate) fn splat(x: u64) -> Self {
            Self::new([x; 4])
        }
        #[inline(always)]
        pub(crate) fn lanes(self) -> [u64; 4] {
            self.0
        }
        #[inline(always)]
        pub(crate) fn add(self, rhs: L4) -> L4 {
            Self::new(core::array::from_fn(|i| self.0[i] + rhs.0[i]))
        }
        #[inline(always)]
        pub(crate) fn double(self) -> L4 {
            Self::new(self.0.map(|x| x << 1))
        }
        #[inline(always)]
        pub(crate) fn mul(self, rhs: L4) -> W4 {
            W4(core::array::from_fn(|i| self.0[i] * rhs.0[i]))
        }
        #[inline(always)]
        pub(crate) fn widen(self) -> W4 {
            W4(self.0)
        }
    }

    impl W4 {
        pub(crate) const ZERO: W4 = W4([0; 4]);
        /// Overflow-checked in debug builds, as the scalar code is: the column bounds.
        #[inline(always)]
        pub(crate) fn add(self, rhs: W4) -> W4 {
            W4(core::array::from_fn(|i| self.0[i] + rhs.0[i]))
        }
        /// The callers' differences are sums of products, never below zero.
        #[inline(always)]
        pub(crate) fn sub(self, rhs: W4) -> W4 {
            W4(core::array::from_fn(|i| self.0[i] - rhs.0[i]))
        }
        #[inline(always)]
        pub(crate) fn add_l4(self, rhs: L4) -> W4 {
            self.add(rhs.widen())
        }
        #[inline(always)]
        pub(crate) fn shl(self, n: u32) -> W4 {
            W4(self.0.map(|x| x << n))
        }
        #[inline(always)]
        pub(crate) fn shr_limb(self) -> W4 {
            W4(self.0.map(|x| x >> BITS))
        }
        /// Lanes < 2^32 (asserted by `L4::new`).
        #[inline(always)]
        pub(crate) fn pack(self) -> L4 {
            L4::new(self.0)
        }
        #[inline(always)]
        pub(crate) fn neg_low(self) -> L4 {
            L4(self.0.map(|x| x.wrapping_neg() & MASK))
        }
        #[inline(always)]
        pub(crate) fn low(self) -> L4 {
            L4(self.0.map(|x| x & MASK))
        }
    }
}

pub(crate) use imp4::{L4, W4};

/// Whether the two lanes are Wasm SIMD instructions in this build.
pub const SIMD128: bool = cfg!(all(target_arch = "wasm32", target_feature = "simd128"));
