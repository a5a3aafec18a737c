//! `u29`: 9 limbs of 29 bits in 64-bit words, Montgomery form with R = 2^261.
//!
//! Built for WebAssembly, which has 64-bit multiplication but no 64×64→128 product:
//! every limb product is one `i64.mul`, sums of up to 27 products are accumulated
//! without carrying, and the Montgomery reduction exploits the Pasta primes (see
//! [`arith`]: the quotient limb is a negation, limbs 5–7 of p are zero and limb 8
//! is a shift). The S-box x^7 is two squarings and two multiplications; the MDS
//! product sums three unreduced products per output and reduces once, adding the
//! round constant inside that reduction.
//!
//! Elements stay *normalized* (limbs 0..=7 < 2^29, limb 8 < 2^24, value < 2^256,
//! not necessarily < p) inside the permutation, and are reduced below p only when
//! they leave the backend ([`FieldArith::to_field`]). Constants are converted
//! at compile time. Selected by default on `wasm32` (see the crate's `build.rs`).

mod arith;

use core::fmt;
use core::marker::PhantomData;

use ark_ff::{BigInt, Fp256, MontBackend, MontConfig};

use self::arith::{
    add_columns, columns, from_u64x4, is_mul_input, is_normalized, is_pasta_shaped, mont_mul,
    mont_square, pow2_mod, reduce_add, reduce_below_2p, sub_if_ge, sub_plus_8p, times, to_u64x4,
    LIMBS,
};
use crate::field::{Backend, FieldArith};
use crate::fields::{FpMontConfig, FqMontConfig};
use crate::params::{tables, ParamSet, Params, WIDTH};
use crate::{Fp, Fq};

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
}

/// The Pallas base field's modulus (for [`Fp`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pallas;

/// The Vesta base field's modulus (for [`Fq`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Vesta;

impl Modulus29 for Pallas {
    const P: [u64; LIMBS] = from_u64x4(&<FpMontConfig as MontConfig<4>>::MODULUS.0);
}

impl Modulus29 for Vesta {
    const P: [u64; LIMBS] = from_u64x4(&<FqMontConfig as MontConfig<4>>::MODULUS.0);
}

const _: () = assert!(is_pasta_shaped(&Pallas::P) && is_pasta_shaped(&Vesta::P));

/// An element in Montgomery form, x·2^261 mod p, as 9 normalized 29-bit limbs.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Fe29<M>([u64; LIMBS], PhantomData<M>);

/// [`Fp`] in the `u29` representation.
pub type Fp29 = Fe29<Pallas>;
/// [`Fq`] in the `u29` representation.
pub type Fq29 = Fe29<Vesta>;

impl<M> fmt::Debug for Fe29<M> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Fe29({:?})", self.0)
    }
}

impl<M: Modulus29> Fe29<M> {
    #[inline(always)]
    const fn new(limbs: [u64; LIMBS]) -> Self {
        Fe29(limbs, PhantomData)
    }

    /// The limbs (Montgomery form, normalized, not necessarily < p).
    pub const fn limbs(&self) -> &[u64; LIMBS] {
        &self.0
    }

    /// From ark-ff's internal Montgomery limbs (x·2^256 mod p, < p): x·2^261, < p.
    const fn from_ark_limbs(ark: &[u64; 4]) -> Self {
        let x = mont_mul(&from_u64x4(ark), &M::FROM_ARK, &M::P);
        Self::new(sub_if_ge(&x, &M::P))
    }

    /// ark-ff's internal limbs (x·2^256 mod p, fully reduced).
    #[inline]
    fn to_ark_limbs(self) -> [u64; 4] {
        let x = mont_mul(&self.0, &M::TO_ARK, &M::P); // < 2^256·p/2^261 + p < 2p
        to_u64x4(&sub_if_ge(&x, &M::P))
    }

    #[inline(always)]
    fn check(&self) {
        debug_assert!(is_normalized(&self.0), "not normalized: {:?}", self.0);
    }
}

/// Converts a table of ark-ff constants (compile time), reduced below p.
const fn convert<C: MontConfig<4>, M: Modulus29, const ROWS: usize>(
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

macro_rules! u29_field {
    ($field:ty, $modulus:ty, $kimchi:ident, $legacy:ident) => {
        impl FieldArith for Fe29<$modulus> {
            type Field = $field;

            #[inline]
            fn from_field(x: $field) -> Self {
                Self::from_ark_limbs(&x.0 .0)
            }
            #[inline]
            fn to_field(self) -> $field {
                self.check();
                <$field>::new_unchecked(BigInt(self.to_ark_limbs()))
            }
            #[inline(always)]
            fn zero() -> Self {
                Self::new([0; LIMBS])
            }
            #[inline(always)]
            fn add(self, rhs: Self) -> Self {
                self.check();
                rhs.check();
                // < 2^257 < 16p, then below 2p.
                let mut s = [0u64; LIMBS];
                for (i, si) in s.iter_mut().enumerate() {
                    *si = self.0[i] + rhs.0[i];
                }
                let s = arith::carry(s);
                Self::new(reduce_below_2p(
                    &s,
                    &<$modulus>::P8,
                    &<$modulus>::P4,
                    &<$modulus>::P2,
                ))
            }
            #[inline(always)]
            fn sub(self, rhs: Self) -> Self {
                self.check();
                rhs.check();
                let d = sub_plus_8p(&self.0, &rhs.0, &<$modulus>::P8);
                Self::new(reduce_below_2p(
                    &d,
                    &<$modulus>::P8,
                    &<$modulus>::P4,
                    &<$modulus>::P2,
                ))
            }
            #[inline(always)]
            fn mul(self, rhs: Self) -> Self {
                debug_assert!(is_mul_input(&self.0) && is_mul_input(&rhs.0));
                Self::new(mont_mul(&self.0, &rhs.0, &<$modulus>::P))
            }
            #[inline(always)]
            fn square(self) -> Self {
                debug_assert!(is_mul_input(&self.0));
                Self::new(mont_square(&self.0, &<$modulus>::P))
            }
            /// Three unreduced products summed per output (≤ 27 terms < 2^58 a
            /// column), one reduction that also adds the round constant.
            #[inline(always)]
            fn mix(
                m: &[[Self; WIDTH]; WIDTH],
                s: &[Self; WIDTH],
                k: &[Self; WIDTH],
            ) -> [Self; WIDTH] {
                core::array::from_fn(|i| {
                    s[i].check();
                    let t = add_columns(
                        add_columns(columns(&m[i][0].0, &s[0].0), &columns(&m[i][1].0, &s[1].0)),
                        &columns(&m[i][2].0, &s[2].0),
                    );
                    Self::new(reduce_add(&t, &k[i].0, &<$modulus>::P))
                })
            }
            fn params(set: ParamSet) -> &'static Params<Self> {
                match set {
                    ParamSet::Kimchi => &$kimchi,
                    ParamSet::Legacy => &$legacy,
                }
            }
        }
    };
}

u29_field!(Fp, Pallas, KIMCHI_FP, LEGACY_FP);
u29_field!(Fq, Vesta, KIMCHI_FQ, LEGACY_FQ);

static KIMCHI_FP: Params<Fp29> = Params {
    set: ParamSet::Kimchi,
    round_constants: &convert(&tables::kimchi_fp::ROUND_CONSTANTS),
    mds: convert(&tables::kimchi_fp::MDS),
};
static KIMCHI_FQ: Params<Fq29> = Params {
    set: ParamSet::Kimchi,
    round_constants: &convert(&tables::kimchi_fq::ROUND_CONSTANTS),
    mds: convert(&tables::kimchi_fq::MDS),
};
static LEGACY_FP: Params<Fp29> = Params {
    set: ParamSet::Legacy,
    round_constants: &convert(&tables::legacy_fp::ROUND_CONSTANTS),
    mds: convert(&tables::legacy_fp::MDS),
};
static LEGACY_FQ: Params<Fq29> = Params {
    set: ParamSet::Legacy,
    round_constants: &convert(&tables::legacy_fq::ROUND_CONSTANTS),
    mds: convert(&tables::legacy_fq::MDS),
};

/// 9×29-bit limbs, Montgomery form; see the module documentation.
#[derive(Clone, Copy, Debug, Default)]
pub struct U29;

impl Backend for U29 {
    const NAME: &'static str = "u29";
    type Fp = Fp29;
    type Fq = Fq29;
}

#[cfg(test)]
mod tests;
