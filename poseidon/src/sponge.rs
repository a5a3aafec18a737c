//! Mina's arithmetic sponge: width 3, rate 2, as a small state machine.

use crate::backend::{Backend, DefaultBackend, PastaField};
use crate::field::FieldArith;
use crate::params::{ParamSet, Params, RATE, WIDTH};
use crate::permutation::{permute, Permutation};

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

    /// A sponge that goes on from `state` (mode `Absorbed(0)`): o1js's
    /// `Poseidon.update(state, …)` continues from any state, a salt for instance.
    pub fn from_state(set: ParamSet, state: [F; WIDTH]) -> Self {
        Self {
            state: state.map(<F::Repr<B>>::from_field),
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

/// The sponges of [`hash_many`] in lockstep; `conv` brings an input element into
/// the representation. Returns each input's squeezed element.
pub(crate) fn sponges_lockstep<T, R: Permutation, I: AsRef<[T]>>(
    params: &Params<R>,
    inputs: &[I],
    conv: impl Fn(&T) -> R,
) -> Vec<R> {
    // Permutations per input: one per RATE elements absorbed, at least one (the
    // squeeze of the last block). Longest first, so the unfinished states are
    // always a prefix and are permuted in place.
    let perms = |x: &I| x.as_ref().len().div_ceil(RATE).max(1);
    let mut order: Vec<usize> = (0..inputs.len()).collect();
    order.sort_by_key(|&i| core::cmp::Reverse(perms(&inputs[i])));
    let mut states = vec![[R::zero(); WIDTH]; inputs.len()];
    let steps = order.first().map_or(0, |&i| perms(&inputs[i]));
    let mut active = order.len();
    for step in 0..steps {
        while active > 0 && perms(&inputs[order[active - 1]]) <= step {
            active -= 1;
        }
        for (state, &i) in states[..active].iter_mut().zip(&order) {
            let x = inputs[i].as_ref();
            let block = &x[(step * RATE).min(x.len())..((step + 1) * RATE).min(x.len())];
            for (s, v) in state.iter_mut().zip(block) {
                *s = s.add(conv(v));
            }
        }
        R::permute_many(params, &mut states[..active]);
    }
    let mut out = vec![R::zero(); inputs.len()];
    for (state, &i) in states.iter().zip(&order) {
        out[i] = state[0];
    }
    out
}
