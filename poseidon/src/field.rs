//! The lower half of the backend seam: the element arithmetic the permutation
//! needs, as one trait.
//!
//! A backend supplies one [`FieldArith`] representation per Pasta field; its
//! schedule of the rounds is the upper half ([`Permutation`](crate::Permutation),
//! in `permutation.rs`), and [`Backend`](crate::Backend) names the two
//! representations (`backend/`). The public API speaks the canonical ark-ff types
//! and converts at its boundary.

use core::fmt::Debug;

use ark_ff::{BigInt, PrimeField};

use crate::params::{ParamSet, Params, WIDTH};

/// Field arithmetic in one backend's representation of a Pasta field.
///
/// Values may be kept partly reduced inside a representation, but
/// [`to_field`](Self::to_field) must return the canonical element.
pub trait FieldArith: Copy + Debug + Send + Sync + 'static {
    /// The canonical field this representation computes in ([`Fp`](crate::Fp) or
    /// [`Fq`](crate::Fq)).
    type Field: PrimeField<BigInt = BigInt<4>>;

    /// Converts from the canonical field.
    fn from_field(x: Self::Field) -> Self;
    /// Converts to the canonical (fully reduced) field element.
    fn to_field(self) -> Self::Field;
    /// From a canonical integer (little-endian 64-bit limbs of its value, not
    /// Montgomery form); `None` unless it is below the modulus. The default goes
    /// through ark-ff; a backend may convert directly (in Wasm, ark-ff's
    /// conversions multiply through `u128`).
    #[inline]
    fn from_canonical(limbs: [u64; 4]) -> Option<Self> {
        Self::Field::from_bigint(BigInt(limbs)).map(Self::from_field)
    }
    /// The canonical integer (little-endian 64-bit limbs, below the modulus).
    #[inline]
    fn to_canonical(self) -> [u64; 4] {
        self.to_field().into_bigint().0
    }
    /// The additive identity.
    fn zero() -> Self;
    /// `self + rhs`.
    #[must_use]
    fn add(self, rhs: Self) -> Self;
    /// `self - rhs`.
    #[must_use]
    fn sub(self, rhs: Self) -> Self;
    /// `self * rhs`.
    #[must_use]
    fn mul(self, rhs: Self) -> Self;
    /// `self * self`.
    #[must_use]
    fn square(self) -> Self;

    /// `self^5`, the legacy S-box: two squarings and one multiplication.
    #[must_use]
    #[inline(always)]
    fn pow5(self) -> Self {
        self.square().square().mul(self)
    }

    /// `self^7`, the kimchi S-box: two squarings and two multiplications.
    #[must_use]
    #[inline(always)]
    fn pow7(self) -> Self {
        let x2 = self.square();
        let x4 = x2.square();
        x4.mul(x2).mul(self)
    }

    /// One round's linear layer, `m · s + k`: the MDS product then the round
    /// constants. The default sums each row as `((0 + m0·s0) + m1·s1) + m2·s2`, as
    /// upstream does; a backend may fuse it (one reduction per output).
    #[must_use]
    #[inline(always)]
    fn mix(m: &[[Self; WIDTH]; WIDTH], s: &[Self; WIDTH], k: &[Self; WIDTH]) -> [Self; WIDTH] {
        core::array::from_fn(|i| {
            m[i].iter()
                .zip(s)
                .fold(Self::zero(), |acc, (mij, sj)| mij.mul(*sj).add(acc))
                .add(k[i])
        })
    }

    /// The constants of a parameter set in this representation.
    fn params(set: ParamSet) -> &'static Params<Self>;
}
