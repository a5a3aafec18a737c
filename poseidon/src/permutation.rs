//! The Poseidon permutation, written once for every backend.
//!
//! Each full round applies the S-box to all three elements, multiplies by the
//! MDS matrix, then adds that round's constants; the legacy set adds row 0 of
//! the constants before the first round. This is the order of operations of
//! mina-poseidon's `poseidon_block_cipher` with full rounds only.

use crate::field::FieldArith;
use crate::params::{Params, Sbox, WIDTH};

/// Applies the permutation in place, as the representation schedules it
/// ([`FieldArith::permute`]; by default [`rounds`]).
#[inline]
pub fn permute<E: FieldArith>(params: &Params<E>, state: &mut [E; WIDTH]) {
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
