//! The `u64` element: [`Modulus64`] (a Pasta prime's constants in 64-bit limbs)
//! and [`Fe64`], ark-ff's own Montgomery limbs.

use core::fmt;
use core::marker::PhantomData;

use ark_ff::{Fp256, MontBackend, MontConfig};

use super::arith::{bound, is_pasta_shaped, mont_mul, LIMBS};
use crate::backend::common::{is_below, split_limbs, Pallas, Vesta};
use crate::fields::{FpMontConfig, FqMontConfig};
use crate::params::WIDTH;

/// A Pasta modulus and the constants the 64-bit arithmetic needs, taken from
/// ark-ff's configuration at compile time.
pub trait Modulus64: Copy + fmt::Debug + Send + Sync + Eq + 'static {
    /// p in 64-bit limbs, little-endian.
    const P: [u64; LIMBS];
    /// −p⁻¹ mod 2^64.
    const INV: u64;
    /// 2^512 mod p: Montgomery-multiplying by it multiplies by 2^256.
    const R2: [u64; LIMBS];
    /// 1.25p: the lazy permutation's state stays below it (see `rounds::sbox3`).
    const STATE_BOUND: [u64; LIMBS] = bound(&Self::P, 2, 0);
    /// 1.53125p: S-box values stay below it.
    const SBOX_BOUND: [u64; LIMBS] = bound(&Self::P, 1, 5);
    /// 2^260 mod p: a Montgomery product (R = 2^256) with it multiplies by 2^4,
    /// moving from R = 2^256 to the batch path's R = 2^260.
    const TO52: [u64; LIMBS] = mont_mul(&Self::R2, &[16, 0, 0, 0], &Self::P, Self::INV);
    /// p in 5 limbs of 52 bits (the IFMA lanes' form).
    const P52: [u64; 5] = split_limbs(&Self::P, 52);
    /// [p_0, p_1, −p⁻¹ mod 2^64]: what a reduction step of the Pasta shape reads
    /// (the assembly products read it from memory, so it lives in a static).
    const REDUCTION: &'static [u64; 3] = &[Self::P[0], Self::P[1], Self::INV];
}

impl Modulus64 for Pallas {
    const P: [u64; LIMBS] = <FpMontConfig as MontConfig<4>>::MODULUS.0;
    const INV: u64 = <FpMontConfig as MontConfig<4>>::INV;
    const R2: [u64; LIMBS] = <FpMontConfig as MontConfig<4>>::R2.0;
}

impl Modulus64 for Vesta {
    const P: [u64; LIMBS] = <FqMontConfig as MontConfig<4>>::MODULUS.0;
    const INV: u64 = <FqMontConfig as MontConfig<4>>::INV;
    const R2: [u64; LIMBS] = <FqMontConfig as MontConfig<4>>::R2.0;
}

const _: () = assert!(is_pasta_shaped(&Pallas::P) && is_pasta_shaped(&Vesta::P));
// `arith::fold_top`: c = p − 2^254 < 2^126, so 3c fits in two words.
const _: () = assert!(Pallas::P[1] < 1 << 62 && Vesta::P[1] < 1 << 62);
const _: () = assert!(Pallas::INV.wrapping_mul(Pallas::P[0]) == u64::MAX);
const _: () = assert!(Vesta::INV.wrapping_mul(Vesta::P[0]) == u64::MAX);

/// An element in Montgomery form, x·2^256 mod p, fully reduced: ark-ff's limbs.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Fe64<M>(pub(super) [u64; LIMBS], PhantomData<M>);

/// [`Fp`](crate::Fp) in the `u64` representation.
pub type Fp64 = Fe64<Pallas>;
/// [`Fq`](crate::Fq) in the `u64` representation.
pub type Fq64 = Fe64<Vesta>;

impl<M> fmt::Debug for Fe64<M> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Fe64({:?})", self.0)
    }
}

impl<M: Modulus64> Fe64<M> {
    #[inline(always)]
    pub(super) const fn new(limbs: [u64; LIMBS]) -> Self {
        Fe64(limbs, PhantomData)
    }

    /// The limbs (Montgomery form, < p).
    pub const fn limbs(&self) -> &[u64; LIMBS] {
        &self.0
    }

    #[inline(always)]
    pub(super) fn check(&self) {
        debug_assert!(is_below(&self.0, &M::P), "not reduced: {:?}", self.0);
    }
}

pub(super) const fn convert<C: MontConfig<4>, M: Modulus64, const ROWS: usize>(
    table: &[[Fp256<MontBackend<C, 4>>; WIDTH]; ROWS],
) -> [[Fe64<M>; WIDTH]; ROWS] {
    let mut out = [[Fe64::new([0; LIMBS]); WIDTH]; ROWS];
    let mut r = 0;
    while r < ROWS {
        let mut c = 0;
        while c < WIDTH {
            out[r][c] = Fe64::new(table[r][c].0 .0);
            c += 1;
        }
        r += 1;
    }
    out
}
