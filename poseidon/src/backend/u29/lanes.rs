//! Two 64-bit lanes: Wasm `simd128` when the target has it, plain arrays elsewhere,
//! behind the same small API, so the two-lane arithmetic (`x2.rs`) is written once.
//!
//! - [`Pair`] holds two limbs < 2^32 (in Wasm: u32 lanes 0 and 1 of a `v128`), the
//!   form `i64x2.extmul_low_i32x4_u` multiplies: one instruction, two 32×32→64 products.
//! - [`Wide`] holds two 64-bit accumulators (`i64x2`).

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

/// Whether the two lanes are Wasm SIMD instructions in this build.
pub const SIMD128: bool = cfg!(all(target_arch = "wasm32", target_feature = "simd128"));
