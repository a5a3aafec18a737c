//! The Poseidon permutation, written once for every backend.
//!
//! Each full round applies the S-box to all three elements, multiplies by the
//! MDS matrix, then adds that round's constants; the legacy set adds row 0 of
//! the constants before the first round. This is the order of operations of
//! mina-poseidon's `poseidon_block_cipher` with full rounds only.
//!
//! The upper half of the backend seam is here: [`Permutation`], how a
//! representation schedules the rounds, over the element arithmetic of
//! [`FieldArith`] (`field.rs`).

use crate::field::FieldArith;
use crate::params::{Params, Sbox, WIDTH};

/// How a representation runs the whole permutation: by default [`rounds`] over
/// its [`FieldArith`] operations; a backend may schedule a round differently
/// (two S-boxes in SIMD lanes, rounds specialised to the crate's own constants)
/// or run many states at once.
pub trait Permutation: FieldArith {
    /// The whole permutation, in place.
    #[inline(always)]
    fn permute(params: &Params<Self>, state: &mut [Self; WIDTH]) {
        rounds(params, state)
    }

    /// Permutes many independent states (batch hashing, Merkle tree levels). The
    /// default runs [`permute`](Self::permute) on each; a backend may run several
    /// at once in SIMD lanes.
    #[inline]
    fn permute_many(params: &Params<Self>, states: &mut [[Self; WIDTH]]) {
        for s in states {
            Self::permute(params, s);
        }
    }
}

/// Applies the permutation in place, as the representation schedules it
/// ([`Permutation::permute`]; by default [`rounds`]).
#[inline]
pub fn permute<E: Permutation>(params: &Params<E>, state: &mut [E; WIDTH]) {
    E::permute(params, state)
}

/// The rounds, written once over [`FieldArith`]: per round the S-box on each
/// element, then [`FieldArith::mix`].
#[inline]
pub fn rounds<E: FieldArith>(params: &Params<E>, state: &mut [E; WIDTH]) {
    match params.set.sbox() {
        Sbox::Pow7 => rounds_with::<E, 7>(params, state),
        Sbox::Pow5 => rounds_with::<E, 5>(params, state),
    }
}

#[inline(always)]
fn rounds_with<E: FieldArith, const ALPHA: u32>(params: &Params<E>, state: &mut [E; WIDTH]) {
    let (first, rows) = params.schedule();
    if let Some(k) = first {
        add_row(state, k);
    }
    debug_assert_eq!(rows.len(), params.set.full_rounds());
    for row in rows {
        for x in state.iter_mut() {
            *x = if ALPHA == 7 { x.pow7() } else { x.pow5() };
        }
        *state = E::mix(&params.mds, state, row);
    }
}

#[inline(always)]
pub(crate) fn add_row<E: FieldArith>(state: &mut [E; WIDTH], row: &[E; WIDTH]) {
    for (x, k) in state.iter_mut().zip(row) {
        *x = x.add(*k);
    }
}

/// The rounds with each S-box step taken for all three elements before the next
/// (x², then x⁴, …): three independent multiplication chains side by side, which
/// an out-of-order CPU overlaps, instead of one element's dependent products at a
/// time. `mix(r, s)` is round `r`'s linear layer (MDS product plus constants), so a
/// backend can supply its own constant layout.
#[inline(always)]
pub(crate) fn rounds_interleaved<E: FieldArith>(
    params: &Params<E>,
    state: &mut [E; WIDTH],
    mix: impl Fn(usize, &[E; WIDTH]) -> [E; WIDTH],
) {
    let (first, rows) = params.schedule();
    if let Some(k) = first {
        add_row(state, k);
    }
    let pow7 = params.set.sbox() == Sbox::Pow7;
    let mut s = *state;
    for r in 0..rows.len() {
        let [a, b, c] = s;
        let (a2, b2, c2) = (a.square(), b.square(), c.square());
        let (a4, b4, c4) = (a2.square(), b2.square(), c2.square());
        s = if pow7 {
            let (a6, b6, c6) = (a4.mul(a2), b4.mul(b2), c4.mul(c2));
            [a6.mul(a), b6.mul(b), c6.mul(c)]
        } else {
            [a4.mul(a), b4.mul(b), c4.mul(c)]
        };
        s = mix(r, &s);
    }
    *state = s;
}
