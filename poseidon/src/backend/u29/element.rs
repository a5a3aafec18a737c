//! The `u29` element: [`Modulus29`] (a Pasta prime's constants in 29-bit limbs),
//! [`Fe29`] and its conversions to and from ark-ff's form and integers.

use core::fmt;
use core::marker::PhantomData;

use ark_ff::{Fp256, MontBackend, MontConfig};

use super::arith::{
    from_u64x4, is_normalized, is_pasta_shaped, mont_mul, pow2_mod, reduce_add, sub_if_ge, times,
    to_u64x4, LIMBS,
};
use crate::backend::common::{is_below, Pallas, Vesta};
use crate::fields::{FpMontConfig, FqMontConfig};
use crate::params::WIDTH;

/// A Pasta modulus and the constants the 29-bit arithmetic needs, all computed at
/// compile time from ark-ff's modulus.
pub trait Modulus29: Copy + fmt::Debug + Send + Sync + Eq + 'static {
    /// p in 29-bit limbs.
    const P: [u64; LIMBS];
    /// 2p, 4p, 8p (for masked subtractions).
    const P2: [u64; LIMBS] = times(&Self::P, 2);
    /// 4p.
    const P4: [u64; LIMBS] = times(&Self::P, 4);
    /// 8p.
    const P8: [u64; LIMBS] = times(&Self::P, 8);
    /// 2^266 mod p: Montgomery-multiplying ark-ff's internal form (x·2^256) by it gives x·2^261.
    const FROM_ARK: [u64; LIMBS] = pow2_mod(266, &Self::P);
    /// 2^256 mod p: Montgomery-multiplying x·2^261 by it gives ark-ff's x·2^256.
    const TO_ARK: [u64; LIMBS] = pow2_mod(256, &Self::P);
    /// 2^522 mod p: Montgomery-multiplying an integer x by it gives x·2^261.
    const FROM_INT: [u64; LIMBS] = pow2_mod(522, &Self::P);
    /// p in 64-bit limbs (the canonical range check).
    const P64: [u64; 4];
}

/// The `Modulus29` impl of a Pasta prime, from its ark-ff modulus.
macro_rules! modulus29 {
    ($modulus:ty, $config:ty) => {
        impl Modulus29 for $modulus {
            const P: [u64; LIMBS] = from_u64x4(&Self::P64);
            const P64: [u64; 4] = <$config as MontConfig<4>>::MODULUS.0;
        }
    };
}

modulus29!(Pallas, FpMontConfig);
modulus29!(Vesta, FqMontConfig);

const _: () = assert!(is_pasta_shaped(&Pallas::P) && is_pasta_shaped(&Vesta::P));

/// An element in Montgomery form, x·2^261 mod p, as 9 normalized 29-bit limbs.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Fe29<M>(pub(super) [u64; LIMBS], PhantomData<M>);

/// [`Fp`](crate::Fp) in the `u29` representation.
pub type Fp29 = Fe29<Pallas>;
/// [`Fq`](crate::Fq) in the `u29` representation.
pub type Fq29 = Fe29<Vesta>;

impl<M> fmt::Debug for Fe29<M> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Fe29({:?})", self.0)
    }
}

impl<M: Modulus29> Fe29<M> {
    #[inline(always)]
    pub(crate) const fn new(limbs: [u64; LIMBS]) -> Self {
        Fe29(limbs, PhantomData)
    }

    /// The limbs (Montgomery form, normalized, not necessarily < p).
    pub const fn limbs(&self) -> &[u64; LIMBS] {
        &self.0
    }

    /// The same value, x·2^261 mod p below 2^256 (not necessarily < p), in four
    /// 64-bit words: how code outside the crate (the npm package's FMA kernels,
    /// which regroup it into 52-bit limbs) takes the element.
    pub const fn to_words(&self) -> [u64; 4] {
        to_u64x4(&self.0)
    }

    /// The element whose value, x·2^261 mod p below 2^256, is in `words` (the
    /// inverse of [`to_words`](Self::to_words)); any value below 2^256 is a
    /// normalized element.
    pub const fn from_words(words: &[u64; 4]) -> Self {
        Self::new(from_u64x4(words))
    }

    /// From ark-ff's internal Montgomery limbs (x·2^256 mod p, < p): x·2^261, < p.
    pub(super) const fn from_ark_limbs(ark: &[u64; 4]) -> Self {
        let x = mont_mul(&from_u64x4(ark), &M::FROM_ARK, &M::P);
        Self::new(sub_if_ge(&x, &M::P))
    }

    /// ark-ff's internal limbs (x·2^256 mod p, fully reduced).
    #[inline]
    pub(super) fn to_ark_limbs(self) -> [u64; 4] {
        let x = mont_mul(&self.0, &M::TO_ARK, &M::P); // < 2^256·p/2^261 + p < 2p
        to_u64x4(&sub_if_ge(&x, &M::P))
    }

    /// From an integer x < p (64-bit limbs): x·2^261, normalized (< 2^255).
    #[inline]
    pub(super) fn from_int(x: &[u64; 4]) -> Option<Self> {
        is_below(x, &M::P64).then(|| Self::new(mont_mul(&from_u64x4(x), &M::FROM_INT, &M::P)))
    }

    /// The integer below p. The limbs hold y ≡ x·2^261 (mod p), y < 2^256; reducing
    /// them alone gives (y + m·p)/2^261 ≡ x, below 1 + p, so one conditional
    /// subtraction finishes.
    #[inline]
    pub(super) fn to_int(self) -> [u64; 4] {
        self.check();
        let mut t = [0u64; 2 * LIMBS - 1];
        t[..LIMBS].copy_from_slice(&self.0);
        to_u64x4(&sub_if_ge(&reduce_add(&t, &[0; LIMBS], &M::P), &M::P))
    }

    #[inline(always)]
    pub(super) fn check(&self) {
        debug_assert!(is_normalized(&self.0), "not normalized: {:?}", self.0);
    }
}

/// Converts a table of ark-ff constants (compile time), reduced below p.
pub(super) const fn convert<C: MontConfig<4>, M: Modulus29, const ROWS: usize>(
    table: &[[Fp256<MontBackend<C, 4>>; WIDTH]; ROWS],
) -> [[Fe29<M>; WIDTH]; ROWS] {
    let mut out = [[Fe29::new([0; LIMBS]); WIDTH]; ROWS];
    let mut r = 0;
    while r < ROWS {
        let mut c = 0;
        while c < WIDTH {
            out[r][c] = Fe29::from_ark_limbs(&table[r][c].0 .0);
            c += 1;
        }
        r += 1;
    }
    out
}
