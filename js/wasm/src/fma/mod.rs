//! Backend `fma`, the package's `fma` module's: the library's `u29` elements,
//! whose kimchi permutations go through the generated FMA kernels (two states at
//! once in a batch) and everything else through `u29`. It sits behind the
//! library's backend seam ([`FieldArith`], [`Permutation`], [`Backend`]) like the
//! library's own backends; the kernels' imports and the glue that binds them are
//! this crate's (`kernel.rs`), so the library builds without the package.
//!
//! The kernels run only where the engine fuses `relaxed_madd` (checked once);
//! elsewhere, and for the legacy sets, `u29`'s rounds run: the results are the
//! same bits either way (the package's tests hold both against o1js).

#[cfg(all(target_arch = "wasm32", poseidon_fma))]
mod kernel;
#[cfg_attr(not(all(target_arch = "wasm32", poseidon_fma)), allow(dead_code))]
mod limbs;

use std::sync::OnceLock;

use poseidon::backend::u29::{Fe29, Modulus29};
use poseidon::backend::{Pallas, Vesta};
use poseidon::params::{ParamSet, Params};
use poseidon::{Backend, FieldArith, Permutation, WIDTH};

/// A `u29` element of the `fma` backend.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FmaFe<M>(Fe29<M>);

/// Whether the kimchi permutations run through the generated kernels here: in a
/// module built with `--cfg poseidon_fma` (the kernels merged in) on an engine
/// whose `relaxed_madd` is fused. Elsewhere backend [`Fma`] computes with `u29`'s
/// rounds (the same results).
pub fn kernels_run() -> bool {
    #[cfg(all(target_arch = "wasm32", poseidon_fma))]
    return kernel::runs();
    #[cfg(not(all(target_arch = "wasm32", poseidon_fma)))]
    false
}

/// The kimchi permutation of `state` by the kernel; false where it cannot run.
fn kernel_kimchi<M: Modulus29>(state: &mut [Fe29<M>; WIDTH]) -> bool {
    #[cfg(all(target_arch = "wasm32", poseidon_fma))]
    return kernel::permute_kimchi(state);
    #[cfg(not(all(target_arch = "wasm32", poseidon_fma)))]
    {
        let _ = state;
        false
    }
}

/// The kimchi permutations of `states` by the kernel, two at a time; false where
/// it cannot run.
fn kernel_kimchi_many<M: Modulus29>(states: &mut [[Fe29<M>; WIDTH]]) -> bool {
    #[cfg(all(target_arch = "wasm32", poseidon_fma))]
    return kernel::permute_many_kimchi(states);
    #[cfg(not(all(target_arch = "wasm32", poseidon_fma)))]
    {
        let _ = states;
        false
    }
}

/// `u29`'s parameters as this backend's (the same elements, wrapped), made once
/// per set and kept for the program's life.
fn wrapped<M>(inner: &'static Params<Fe29<M>>) -> Params<FmaFe<M>>
where
    M: Modulus29,
{
    let rows: Vec<[FmaFe<M>; WIDTH]> = inner.round_constants.iter().map(|r| r.map(FmaFe)).collect();
    Params {
        set: inner.set,
        round_constants: rows.leak(),
        mds: inner.mds.map(|r| r.map(FmaFe)),
    }
}

macro_rules! fma_field {
    ($modulus:ty) => {
        impl FieldArith for FmaFe<$modulus> {
            type Field = <Fe29<$modulus> as FieldArith>::Field;

            #[inline]
            fn from_field(x: Self::Field) -> Self {
                Self(Fe29::from_field(x))
            }
            #[inline]
            fn to_field(self) -> Self::Field {
                self.0.to_field()
            }
            #[inline]
            fn from_canonical(limbs: [u64; 4]) -> Option<Self> {
                Fe29::from_canonical(limbs).map(Self)
            }
            #[inline]
            fn to_canonical(self) -> [u64; 4] {
                self.0.to_canonical()
            }
            #[inline]
            fn zero() -> Self {
                Self(Fe29::zero())
            }
            #[inline]
            fn add(self, rhs: Self) -> Self {
                Self(self.0.add(rhs.0))
            }
            #[inline]
            fn sub(self, rhs: Self) -> Self {
                Self(self.0.sub(rhs.0))
            }
            #[inline]
            fn mul(self, rhs: Self) -> Self {
                Self(self.0.mul(rhs.0))
            }
            #[inline]
            fn square(self) -> Self {
                Self(self.0.square())
            }
            #[inline]
            fn pow5(self) -> Self {
                Self(self.0.pow5())
            }
            #[inline]
            fn pow7(self) -> Self {
                Self(self.0.pow7())
            }
            #[inline]
            fn mix(
                m: &[[Self; WIDTH]; WIDTH],
                s: &[Self; WIDTH],
                k: &[Self; WIDTH],
            ) -> [Self; WIDTH] {
                let inner = |r: &[Self; WIDTH]| r.map(|x| x.0);
                Fe29::mix(&m.map(|r| inner(&r)), &inner(s), &inner(k)).map(Self)
            }
            fn params(set: ParamSet) -> &'static Params<Self> {
                static SETS: [OnceLock<Params<FmaFe<$modulus>>>; 2] =
                    [OnceLock::new(), OnceLock::new()];
                let i = usize::from(set == ParamSet::Legacy);
                SETS[i].get_or_init(|| wrapped(Fe29::params(set)))
            }
        }

        impl Permutation for FmaFe<$modulus> {
            /// The crate's kimchi constants: the kernel where it runs, else `u29`'s
            /// rounds; the legacy constants: `u29`'s rounds; other parameters (a
            /// copy, altered constants): the rounds written once over the arithmetic.
            fn permute(params: &Params<Self>, state: &mut [Self; WIDTH]) {
                let Some(set) = own_set(params) else {
                    return poseidon::permutation::rounds(params, state);
                };
                let mut inner = state.map(|x| x.0);
                if set != ParamSet::Kimchi || !kernel_kimchi(&mut inner) {
                    Fe29::permute(Fe29::params(set), &mut inner);
                }
                *state = inner.map(Self);
            }

            /// As [`permute`](Self::permute), the kernel taking two states per call.
            fn permute_many(params: &Params<Self>, states: &mut [[Self; WIDTH]]) {
                let Some(set) = own_set(params) else {
                    for s in states {
                        poseidon::permutation::rounds(params, s);
                    }
                    return;
                };
                let mut inner: Vec<[Fe29<$modulus>; WIDTH]> =
                    states.iter().map(|s| s.map(|x| x.0)).collect();
                if set != ParamSet::Kimchi || !kernel_kimchi_many(&mut inner) {
                    Fe29::permute_many(Fe29::params(set), &mut inner);
                }
                for (s, i) in states.iter_mut().zip(inner) {
                    *s = i.map(Self);
                }
            }
        }
    };
}

fma_field!(Pallas);
fma_field!(Vesta);

/// Which of this backend's own parameter statics `params` is, by address (a copy
/// or altered constants are none).
fn own_set<E: FieldArith>(params: &Params<E>) -> Option<ParamSet> {
    [ParamSet::Kimchi, ParamSet::Legacy]
        .into_iter()
        .find(|&set| std::ptr::eq(params, E::params(set)))
}

/// The `fma` backend: `u29` with the generated kernels for kimchi.
#[derive(Clone, Copy, Debug)]
pub struct Fma;

impl Backend for Fma {
    const NAME: &'static str = "fma";
    type Fp = FmaFe<Pallas>;
    type Fq = FmaFe<Vesta>;
}

#[cfg(test)]
mod tests {
    use super::*;
    use poseidon::{Fp, Fq, PastaField};

    /// Natively (no kernel) the backend is `u29`'s rounds behind a wrapper: every
    /// path (own kimchi and legacy, a copy of the constants, batches of 0 to 5
    /// states) agrees with the reference.
    fn agrees<F: PastaField>() {
        use poseidon::backend::Reference;
        for set in [ParamSet::Kimchi, ParamSet::Legacy] {
            for n in 0..6u64 {
                let mut states: Vec<[F; WIDTH]> = (0..n)
                    .map(|i| [F::from(i), F::from(7 * i + 1), F::from(u64::MAX - i)])
                    .collect();
                let want: Vec<[F; WIDTH]> = states
                    .iter()
                    .map(|s| {
                        let mut s = *s;
                        poseidon::permute_with::<F, Reference>(set, &mut s);
                        s
                    })
                    .collect();
                poseidon::permute_many_with::<F, Fma>(set, &mut states);
                assert_eq!(states, want, "{set:?}, {n} states");
            }
            let mut one = [F::from(1u64), F::from(2u64), F::from(3u64)];
            let mut want = one;
            poseidon::permute_with::<F, Reference>(set, &mut want);
            poseidon::permute_with::<F, Fma>(set, &mut one);
            assert_eq!(one, want);
            // A copy of the constants is not the backend's own: the plain rounds.
            let own = <F::Repr<Fma>>::params(set);
            let copy = Params {
                set,
                round_constants: own.round_constants,
                mds: own.mds,
            };
            let mut s =
                [F::from(5u64), F::from(6u64), F::from(7u64)].map(<F::Repr<Fma>>::from_field);
            <F::Repr<Fma>>::permute(&copy, &mut s);
            let mut want = [F::from(5u64), F::from(6u64), F::from(7u64)];
            poseidon::permute_with::<F, Reference>(set, &mut want);
            assert_eq!(s.map(FieldArith::to_field), want);
        }
    }

    #[test]
    fn agrees_with_the_reference_fp() {
        agrees::<Fp>();
    }

    #[test]
    fn agrees_with_the_reference_fq() {
        agrees::<Fq>();
    }
}
