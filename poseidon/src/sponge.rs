//! Mina's arithmetic sponge: width 3, rate 2, as a small state machine.

use crate::field::{Backend, FieldArith, PastaField};
use crate::params::{ParamSet, Params, RATE, WIDTH};
use crate::permutation::permute;
use crate::DefaultBackend;

/// Where the sponge is: `n` elements absorbed or squeezed since the last permutation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SpongeMode {
    /// `n` elements absorbed (0 ≤ n ≤ 2).
    Absorbed(usize),
    /// `n` elements squeezed (1 ≤ n ≤ 2).
    Squeezed(usize),
}

/// The sponge over field `F`, computing with backend `B`.
///
/// ```
/// use poseidon::{Fp, ParamSet, Sponge};
/// let mut sponge = Sponge::<Fp>::new(ParamSet::Kimchi);
/// sponge.absorb(&[Fp::from(1u64), Fp::from(2u64)]);
/// let digest = sponge.squeeze();
/// assert_eq!(digest, poseidon::hash(ParamSet::Kimchi, &[Fp::from(1u64), Fp::from(2u64)]));
/// ```
#[derive(Clone, Debug)]
pub struct Sponge<F: PastaField, B: Backend = DefaultBackend> {
    state: [F::Repr<B>; WIDTH],
    mode: SpongeMode,
    params: &'static Params<F::Repr<B>>,
}

impl<F: PastaField, B: Backend> Sponge<F, B> {
    /// A fresh sponge: state [0, 0, 0], mode `Absorbed(0)`.
    pub fn new(set: ParamSet) -> Self {
        Self {
            state: [<F::Repr<B>>::zero(); WIDTH],
            mode: SpongeMode::Absorbed(0),
            params: <F::Repr<B>>::params(set),
        }
    }

    /// The parameter set.
    pub fn param_set(&self) -> ParamSet {
        self.params.set
    }

    /// The current mode.
    pub fn mode(&self) -> SpongeMode {
        self.mode
    }

    /// The current state, as canonical field elements.
    pub fn state(&self) -> [F; WIDTH] {
        self.state.map(FieldArith::to_field)
    }

    fn permute(&mut self) {
        permute(self.params, &mut self.state);
    }

    /// Absorbs elements one at a time; absorbing in pieces equals absorbing at once.
    pub fn absorb(&mut self, xs: &[F]) {
        for &x in xs {
            let x = <F::Repr<B>>::from_field(x);
            match self.mode {
                SpongeMode::Absorbed(n) if n == RATE => {
                    self.permute();
                    self.state[0] = self.state[0].add(x);
                    self.mode = SpongeMode::Absorbed(1);
                }
                SpongeMode::Absorbed(n) => {
                    self.state[n] = self.state[n].add(x);
                    self.mode = SpongeMode::Absorbed(n + 1);
                }
                SpongeMode::Squeezed(_) => {
                    self.state[0] = self.state[0].add(x);
                    self.mode = SpongeMode::Absorbed(1);
                }
            }
        }
    }

    /// Squeezes one element.
    pub fn squeeze(&mut self) -> F {
        let i = match self.mode {
            SpongeMode::Absorbed(_) => {
                self.permute();
                self.mode = SpongeMode::Squeezed(1);
                0
            }
            SpongeMode::Squeezed(n) if n == RATE => {
                self.permute();
                self.mode = SpongeMode::Squeezed(1);
                0
            }
            SpongeMode::Squeezed(n) => {
                self.mode = SpongeMode::Squeezed(n + 1);
                n
            }
        };
        self.state[i].to_field()
    }

    /// Back to state [0, 0, 0] and `Absorbed(0)`.
    pub fn reset(&mut self) {
        self.state = [<F::Repr<B>>::zero(); WIDTH];
        self.mode = SpongeMode::Absorbed(0);
    }
}
