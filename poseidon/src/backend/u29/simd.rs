//! The permutation in SIMD lanes: two states at once ([`permute_x2`]), four at
//! once ([`permute_x4`], the batch path in Wasm), and one state with two of its
//! S-boxes in lanes ([`Fe29x2`], the `u29x2` backend). The lane arithmetic is
//! in `x2.rs` and `x4.rs`.

use core::fmt;

use super::arith::{add_columns, columns, reduce_add, LIMBS};
use super::element::{Fe29, Modulus29};
use super::rounds::{scale, Rescaled};
use super::x2::{self, Limbs2};
use super::x4;
use crate::field::FieldArith;
use crate::params::{Params, Sbox, WIDTH};
use crate::permutation::add_row;

/// The crate's own parameter sets for a modulus: their rescaled four-lane rounds
/// (implemented beside the tables, `tables.rs`).
pub trait OwnSets29: Modulus29 {
    /// Runs [`permute_x4`] on the rescaled state when `params` are one of the
    /// crate's own sets for this modulus, and says whether it did.
    #[doc(hidden)]
    fn permute_x4_own(params: &Params<Fe29<Self>>, states: &mut [[Fe29<Self>; WIDTH]; 4]) -> bool;
}

/// Two products at once, one per lane: `[a[0]·b[0], a[1]·b[1]]`.
#[inline]
pub fn mul_x2<M: Modulus29>(a: &[Fe29<M>; 2], b: &[Fe29<M>; 2]) -> [Fe29<M>; 2] {
    let r = x2::split(&x2::mul(
        &x2::join(&a[0].0, &a[1].0),
        &x2::join(&b[0].0, &b[1].0),
        &M::P,
    ));
    r.map(Fe29::new)
}

/// Two squares at once, one per lane.
#[inline]
pub fn square_x2<M: Modulus29>(a: &[Fe29<M>; 2]) -> [Fe29<M>; 2] {
    x2::split(&x2::square(&x2::join(&a[0].0, &a[1].0), &M::P)).map(Fe29::new)
}

/// Two independent permutations at once, one per SIMD lane (batch hashing).
pub fn permute_x2<M: Modulus29>(params: &Params<Fe29<M>>, states: &mut [[Fe29<M>; WIDTH]; 2])
where
    Fe29<M>: FieldArith,
{
    let p = &M::P;
    let (first, rows) = params.schedule();
    if let Some(k) = first {
        states.iter_mut().for_each(|st| add_row(st, k));
    }
    let m: [[Limbs2; WIDTH]; WIDTH] = params.mds.map(|r| r.map(|e| x2::splat(&e.0)));
    let mut s: [Limbs2; WIDTH] =
        core::array::from_fn(|i| x2::join(&states[0][i].0, &states[1][i].0));
    let pow7 = params.set.sbox() == Sbox::Pow7;
    for row in rows {
        for x in s.iter_mut() {
            *x = if pow7 { x2::pow7(x, p) } else { x2::pow5(x, p) };
        }
        s = core::array::from_fn(|i| x2::dot3_add(&m[i], &s, &x2::splat(&row[i].0), p));
    }
    for (i, x) in s.iter().enumerate() {
        let [a, b] = x2::split(x);
        states[0][i] = Fe29::new(a);
        states[1][i] = Fe29::new(b);
    }
}

/// Four independent permutations at once, one per SIMD lane (`i32x4` limbs, extmul
/// products; see `x4.rs`): the batch path of [`Permutation::permute_many`](crate::Permutation::permute_many) in Wasm.
/// The crate's own parameter sets run on the rescaled state (six products per
/// round in the linear layer, as the scalar rounds in Wasm), others nine.
pub fn permute_x4<M: OwnSets29>(params: &Params<Fe29<M>>, states: &mut [[Fe29<M>; WIDTH]; 4])
where
    Fe29<M>: FieldArith,
{
    if !M::permute_x4_own(params, states) {
        permute_x4_general(params, states)
    }
}

/// [`permute_x4`] on the rescaled state u = D·s (`params::rescale`): scaled in
/// and the first constants added in scalar code (once per permutation), the
/// rounds in lanes with [`x4::dot2_add`] per output, scaled out in scalar
/// code. C0..C2 and S0..S2 as for [`rounds_rescaled`].
pub(super) fn permute_x4_rescaled<
    M: Modulus29,
    const C0: usize,
    const C1: usize,
    const C2: usize,
    const S0: usize,
    const S1: usize,
    const S2: usize,
>(
    params: &Params<Fe29<M>>,
    r: &Rescaled<M>,
    states: &mut [[Fe29<M>; WIDTH]; 4],
) where
    Fe29<M>: FieldArith,
{
    let (first, _) = params.schedule();
    for st in states.iter_mut() {
        scale(st, &r.d);
        if first.is_some() {
            add_row(st, &r.rows[0]);
        }
    }
    let skip = usize::from(first.is_some());
    let pc = x4::modulus_limbs(&M::P);
    let m: [[x4::Chunks4; WIDTH]; WIDTH] =
        r.mds.map(|row| row.map(|e| x4::chunks(&x4::splat(&e.0))));
    let mut s = join_x4(states);
    let pow7 = params.set.sbox() == Sbox::Pow7;
    for k in &r.rows[skip..] {
        for x in s.iter_mut() {
            *x = if pow7 {
                x4::pow7(x, &pc)
            } else {
                x4::pow5(x, &pc)
            };
        }
        let row = |i: usize, j: usize, shift: usize| {
            let (a, b) = ((j + 1) % WIDTH, (j + 2) % WIDTH);
            let (low8, high) = x4::place(&s[j], &x4::splat(&k[i].0), shift);
            x4::dot2_add([&m[i][a], &m[i][b]], [&s[a], &s[b]], &low8, &high, &pc)
        };
        s = [row(0, C0, S0), row(1, C1, S1), row(2, C2, S2)];
    }
    split_x4(&s, states);
    for st in states.iter_mut() {
        scale(st, &r.d_inv);
    }
}

/// Element i of the four states as lanes.
fn join_x4<M: Modulus29>(states: &[[Fe29<M>; WIDTH]; 4]) -> [x4::Limbs4; WIDTH] {
    core::array::from_fn(|i| {
        states.iter().for_each(|st| st[i].check());
        x4::join([
            &states[0][i].0,
            &states[1][i].0,
            &states[2][i].0,
            &states[3][i].0,
        ])
    })
}

/// The lanes back into the four states, normalized (`mul` outputs are).
fn split_x4<M: Modulus29>(s: &[x4::Limbs4; WIDTH], states: &mut [[Fe29<M>; WIDTH]; 4]) {
    for (i, x) in s.iter().enumerate() {
        for (st, limbs) in states.iter_mut().zip(x4::split(x)) {
            st[i] = Fe29::new(limbs);
            st[i].check();
        }
    }
}

/// [`permute_x4`] for any parameters: the MDS product as three products per output.
fn permute_x4_general<M: Modulus29>(params: &Params<Fe29<M>>, states: &mut [[Fe29<M>; WIDTH]; 4])
where
    Fe29<M>: FieldArith,
{
    let (first, rows) = params.schedule();
    if let Some(k) = first {
        states.iter_mut().for_each(|st| add_row(st, k));
    }
    let pc = x4::modulus_limbs(&M::P);
    let m: [[x4::Chunks4; WIDTH]; WIDTH] =
        params.mds.map(|r| r.map(|e| x4::chunks(&x4::splat(&e.0))));
    let mut s = join_x4(states);
    let pow7 = params.set.sbox() == Sbox::Pow7;
    for row in rows {
        for x in s.iter_mut() {
            *x = if pow7 {
                x4::pow7(x, &pc)
            } else {
                x4::pow5(x, &pc)
            };
        }
        s = core::array::from_fn(|i| x4::dot3_add(&m[i], &s, &x4::splat(&row[i].0), &pc));
    }
    split_x4(&s, states);
}

/// One permutation with two S-boxes (and two MDS rows) in SIMD lanes and the third
/// in scalar code, which the CPU can overlap. Bounds as in the scalar backend.
pub(super) fn permute_paired<M: Modulus29>(
    params: &Params<Fe29x2<M>>,
    state: &mut [Fe29x2<M>; WIDTH],
) where
    Fe29<M>: FieldArith,
    Fe29x2<M>: FieldArith,
{
    let mds = params.mds.map(|r| r.map(|e| e.0));
    let p = &M::P;
    let (first, rows) = params.schedule();
    if let Some(k) = first {
        add_row(state, k);
    }
    // Lane l of m01[j] holds M[l][j]; row 2 stays scalar.
    let m01: [Limbs2; WIDTH] = core::array::from_fn(|j| x2::join(&mds[0][j].0, &mds[1][j].0));
    let m2 = &mds[2];
    let mut s01 = x2::join(&state[0].0 .0, &state[1].0 .0);
    let mut s2 = state[2].0;
    let pow7 = params.set.sbox() == Sbox::Pow7;
    for row in rows {
        if pow7 {
            s01 = x2::pow7(&s01, p);
            s2 = s2.pow7();
        } else {
            s01 = x2::pow5(&s01, p);
            s2 = s2.pow5();
        }
        let [s0, s1] = x2::dup(&s01);
        let [a, b] = x2::split(&s01);
        let k01 = x2::join(&row[0].0 .0, &row[1].0 .0);
        let next01 = x2::dot3_add(&m01, &[s0, s1, x2::splat(&s2.0)], &k01, p);
        let t = add_columns(
            add_columns(columns(&m2[0].0, &a), &columns(&m2[1].0, &b)),
            &columns(&m2[2].0, &s2.0),
        );
        s2 = Fe29::new(reduce_add(&t, &row[2].0 .0, p));
        s01 = next01;
    }
    let [a, b] = x2::split(&s01);
    *state = [Fe29x2(Fe29::new(a)), Fe29x2(Fe29::new(b)), Fe29x2(s2)];
}

/// [`Fe29`] for the two-lane schedule ([`U29x2`](super::U29x2)): the same element and arithmetic;
/// only the permutation is scheduled differently.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Fe29x2<M>(pub(super) Fe29<M>);

impl<M> fmt::Debug for Fe29x2<M> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Fe29x2({:?})", self.0 .0)
    }
}

/// The same constants as [`Fe29x2`] elements.
pub(super) const fn wrap<M: Modulus29, const ROWS: usize>(
    t: [[Fe29<M>; WIDTH]; ROWS],
) -> [[Fe29x2<M>; WIDTH]; ROWS] {
    let mut out = [[Fe29x2(Fe29::new([0; LIMBS])); WIDTH]; ROWS];
    let mut r = 0;
    while r < ROWS {
        let mut c = 0;
        while c < WIDTH {
            out[r][c] = Fe29x2(t[r][c]);
            c += 1;
        }
        r += 1;
    }
    out
}
