//! What the backends share: the two moduli as type-level tags, limb conversions,
//! the constant-time comparison, the identity test of the crate's own parameter
//! statics, and the element operations of wrapper representations.

use crate::params::{ParamSet, Params};

/// The element operations of a wrapper type `Outer(Inner)` that only schedules the
/// permutation differently (`U29x2` over `u29`, `U52` over `u64`): each one is the
/// inner type's. Used inside an `impl FieldArith for Outer<…>` block.
macro_rules! delegate_element_ops {
    () => {
        #[inline(always)]
        fn from_field(x: Self::Field) -> Self {
            Self(FieldArith::from_field(x))
        }
        #[inline(always)]
        fn to_field(self) -> Self::Field {
            self.0.to_field()
        }
        #[inline(always)]
        fn from_canonical(limbs: [u64; 4]) -> Option<Self> {
            FieldArith::from_canonical(limbs).map(Self)
        }
        #[inline(always)]
        fn to_canonical(self) -> [u64; 4] {
            self.0.to_canonical()
        }
        #[inline(always)]
        fn zero() -> Self {
            Self(FieldArith::zero())
        }
        #[inline(always)]
        fn add(self, rhs: Self) -> Self {
            Self(self.0.add(rhs.0))
        }
        #[inline(always)]
        fn sub(self, rhs: Self) -> Self {
            Self(self.0.sub(rhs.0))
        }
        #[inline(always)]
        fn mul(self, rhs: Self) -> Self {
            Self(self.0.mul(rhs.0))
        }
        #[inline(always)]
        fn square(self) -> Self {
            Self(self.0.square())
        }
    };
}

/// `a − b − borrow` as (difference word, borrow ∈ {0, 1}).
#[inline(always)]
pub(crate) const fn sbb(a: u64, b: u64, borrow: u64) -> (u64, u64) {
    // Two flag-producing subtractions: LLVM turns the chain into `sbb`.
    let (d, b1) = a.overflowing_sub(b);
    let (d, b2) = d.overflowing_sub(borrow);
    (d, (b1 | b2) as u64)
}

/// Whether `x < p` as 4×64-bit integers: the final borrow of x − p, with no branch
/// on the limbs (inputs may be secret).
#[inline(always)]
pub(crate) const fn is_below(x: &[u64; 4], p: &[u64; 4]) -> bool {
    let mut borrow = 0;
    let mut i = 0;
    while i < 4 {
        (_, borrow) = sbb(x[i], p[i], borrow);
        i += 1;
    }
    borrow == 1
}

/// Splits 4×64-bit little-endian limbs into `N` limbs of `bits` bits (the top limb
/// takes what is left).
pub(crate) const fn split_limbs<const N: usize>(x: &[u64; 4], bits: u32) -> [u64; N] {
    let mask = (1u64 << bits) - 1;
    let mut out = [0u64; N];
    let mut i = 0;
    while i < N {
        let bit = i * bits as usize;
        let (w, s) = (bit / 64, bit % 64);
        let mut v = if w < 4 { x[w] >> s } else { 0 };
        if s + bits as usize > 64 && w + 1 < 4 {
            v |= x[w + 1] << (64 - s);
        }
        out[i] = v & mask;
        i += 1;
    }
    out
}

/// Joins `N` normalized limbs of `bits` bits, of a value below 2^256, into 4×64-bit limbs.
pub(crate) const fn join_limbs<const N: usize>(x: &[u64; N], bits: u32) -> [u64; 4] {
    let mut out = [0u64; 4];
    let mut i = 0;
    while i < N {
        let bit = i * bits as usize;
        let (w, s) = (bit / 64, bit % 64);
        if w < 4 {
            out[w] |= x[i] << s;
        }
        if s + bits as usize > 64 && w + 1 < 4 {
            out[w + 1] |= x[i] >> (64 - s);
        }
        i += 1;
    }
    out
}

/// Which of a representation's two parameter statics `params` is, if either. By
/// address: only the crate's own constants may take rounds specialised to them (a
/// copy with other constants takes the general rounds).
#[inline(always)]
pub(crate) fn own_set<E>(
    params: &Params<E>,
    kimchi: &Params<E>,
    legacy: &Params<E>,
) -> Option<ParamSet> {
    if core::ptr::eq(params, kimchi) {
        Some(ParamSet::Kimchi)
    } else if core::ptr::eq(params, legacy) {
        Some(ParamSet::Legacy)
    } else {
        None
    }
}

/// The Pallas base field's modulus (for [`Fp`](crate::Fp)): a type-level tag for
/// the backends' per-modulus constants.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pallas;

/// The Vesta base field's modulus (for [`Fq`](crate::Fq)).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Vesta;
