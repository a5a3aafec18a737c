//! The scalar rounds of `u29`: the fused linear layer ([`mix_row`]), the rounds
//! for any parameters, and the rescaled rounds for the crate's own sets.

use super::arith::{
    chunk_products_add, chunks, is_mul_input, karatsuba_columns, mont_mul, reduce_add, sub_if_ge,
    LIMBS,
};
use super::element::{Fe29, Modulus29};
use crate::field::FieldArith;
use crate::params::{Params, Sbox, WIDTH};
use crate::permutation::add_row;

/// One output of the linear layer, `Σ_j m_j · s_j + k`: the three products by
/// Karatsuba, summed as chunk products (≤ 9 products < 2^60 per entry) and
/// recombined once, then one reduction that adds the round constant.
#[inline(always)]
pub(super) fn mix_row<M: Modulus29>(
    m: &[Fe29<M>; WIDTH],
    s: &[Fe29<M>; WIDTH],
    k: &Fe29<M>,
) -> Fe29<M> {
    let mut acc = [[0u64; 5]; 6];
    for (mj, sj) in m.iter().zip(s) {
        sj.check();
        acc = chunk_products_add(acc, &chunks(&mj.0), &chunks(&sj.0));
    }
    Fe29::new(reduce_add(&karatsuba_columns(&acc), &k.0, &M::P))
}

/// The rounds in Wasm for parameters other than the crate's own: one element's
/// S-box after another, then the linear layer. Out of line, which keeps the
/// function small for the engine's register allocator.
#[inline(never)]
pub(super) fn rounds_general<M: Modulus29>(params: &Params<Fe29<M>>, state: &mut [Fe29<M>; WIDTH])
where
    Fe29<M>: FieldArith,
{
    let (first, rows) = params.schedule();
    if let Some(k) = first {
        add_row(state, k);
    }
    let pow7 = params.set.sbox() == Sbox::Pow7;
    for row in rows {
        for x in state.iter_mut() {
            *x = if pow7 { x.pow7() } else { x.pow5() };
        }
        *state = FieldArith::mix(&params.mds, state, row);
    }
}

/// A set's constants for the rescaled rounds (`params::rescale`), in this
/// representation: d, d⁻¹, M' = D·M·D^−α and the round constants D·k, all below p.
/// The columns and shifts are const parameters of [`rounds_rescaled`].
pub(super) struct Rescaled<M: 'static> {
    pub(super) d: [Fe29<M>; WIDTH],
    pub(super) d_inv: [Fe29<M>; WIDTH],
    pub(super) mds: [[Fe29<M>; WIDTH]; WIDTH],
    pub(super) rows: &'static [[Fe29<M>; WIDTH]],
}

/// x^e below p (compile time).
pub(super) const fn pow_small<M: Modulus29>(x: &Fe29<M>, e: u32) -> Fe29<M> {
    let mut acc = x.0;
    let mut i = 1;
    while i < e {
        acc = mont_mul(&acc, &x.0, &M::P);
        i += 1;
    }
    Fe29::new(sub_if_ge(&acc, &M::P))
}

/// a·b below p (compile time; both below p, so the product is below 2p).
pub(super) const fn mul_const<M: Modulus29>(a: &Fe29<M>, b: &Fe29<M>) -> Fe29<M> {
    Fe29::new(sub_if_ge(&mont_mul(&a.0, &b.0, &M::P), &M::P))
}

/// The rescaled matrix M'_ij = d_i·M_ij·d_j^−α (compile time).
pub(super) const fn rescaled_mds<M: Modulus29>(
    mds: &[[Fe29<M>; WIDTH]; WIDTH],
    d: &[Fe29<M>; WIDTH],
    d_inv: &[Fe29<M>; WIDTH],
    alpha: u32,
) -> [[Fe29<M>; WIDTH]; WIDTH] {
    let mut out = *mds;
    let mut i = 0;
    while i < WIDTH {
        let mut j = 0;
        while j < WIDTH {
            out[i][j] = mul_const(&mul_const(&d[i], &mds[i][j]), &pow_small(&d_inv[j], alpha));
            j += 1;
        }
        i += 1;
    }
    out
}

/// The round constants D·k (compile time).
pub(super) const fn rescaled_rows<M: Modulus29, const ROWS: usize>(
    rc: &[[Fe29<M>; WIDTH]; ROWS],
    d: &[Fe29<M>; WIDTH],
) -> [[Fe29<M>; WIDTH]; ROWS] {
    let mut out = *rc;
    let mut r = 0;
    while r < ROWS {
        let mut i = 0;
        while i < WIDTH {
            out[r][i] = mul_const(&d[i], &rc[r][i]);
            i += 1;
        }
        r += 1;
    }
    out
}

/// Output i of the rescaled linear layer, whose power-of-two entry is in column
/// J: `m_a·s_a + m_b·s_b + 2^(−29·SHIFT)·s_J + k` for the other columns a, b.
/// Two Karatsuba products; s_J's limbs are placed in the product columns (SHIFT
/// 1: from column 8) or added with the constant after the reduction (SHIFT 0),
/// which multiplies by 2^(29·(9 − SHIFT)) / R. Inputs normalized: a column holds
/// ≤ 18 products < 2^58 plus a limb, so the reduction stays below 2^64. The
/// output is below 2^252 + 2p + 2^256 < 2^257 (limb 8 < 2^25): a valid `mul`
/// input, not necessarily normalized.
#[inline(never)]
pub(super) fn mix_row_rescaled<M: Modulus29, const SET: u8, const J: usize, const SHIFT: usize>(
    m: &[Fe29<M>; WIDTH],
    s: &[Fe29<M>; WIDTH],
    k: &Fe29<M>,
) -> Fe29<M> {
    let (a, b) = ((J + 1) % WIDTH, (J + 2) % WIDTH);
    for x in s {
        x.check();
    }
    let acc = chunk_products_add([[0; 5]; 6], &chunks(&m[a].0), &chunks(&s[a].0));
    let acc = chunk_products_add(acc, &chunks(&m[b].0), &chunks(&s[b].0));
    let mut t = karatsuba_columns(&acc);
    let mut high = k.0;
    for (l, x) in s[J].0.iter().enumerate() {
        // Column 17 does not exist: its limb goes with the constant's top limb.
        match t.get_mut(LIMBS - SHIFT + l) {
            Some(c) => *c += x,
            None => high[LIMBS - 1] += x,
        }
    }
    let out = reduce_add(&t, &high, &M::P);
    debug_assert!(is_mul_input(&out));
    Fe29::new(out)
}

/// The rounds on the rescaled state u = D·s: in by d, the rounds with M' and D·k,
/// out by d⁻¹. Out of line, one copy per set: C0..C2 are the columns of the
/// power-of-two entries and S0..S2 their limb shifts (`params::rescale`). SET
/// makes every instantiation of [`mix_row_rescaled`] have a single caller, so
/// the optimiser turns its MDS row into immediate operands (8% faster under V8
/// than rows shared between sets, which load it).
#[inline(never)]
pub(super) fn rounds_rescaled<
    M: Modulus29,
    const SET: u8,
    const C0: usize,
    const C1: usize,
    const C2: usize,
    const S0: usize,
    const S1: usize,
    const S2: usize,
>(
    params: &Params<Fe29<M>>,
    r: &Rescaled<M>,
    state: &mut [Fe29<M>; WIDTH],
) where
    Fe29<M>: FieldArith,
{
    scale(state, &r.d);
    let (first, _) = params.schedule();
    let skip = usize::from(first.is_some());
    if first.is_some() {
        add_row(state, &r.rows[0]);
    }
    let m = &r.mds;
    let pow7 = params.set.sbox() == Sbox::Pow7;
    for k in &r.rows[skip..] {
        for x in state.iter_mut() {
            *x = if pow7 { x.pow7() } else { x.pow5() };
        }
        *state = [
            mix_row_rescaled::<M, SET, C0, S0>(&m[0], state, &k[0]),
            mix_row_rescaled::<M, SET, C1, S1>(&m[1], state, &k[1]),
            mix_row_rescaled::<M, SET, C2, S2>(&m[2], state, &k[2]),
        ];
    }
    scale(state, &r.d_inv);
}

/// `state[i] · d[i]`, out of line: it runs twice per permutation, not per round.
#[inline(never)]
pub(super) fn scale<M: Modulus29>(state: &mut [Fe29<M>; WIDTH], d: &[Fe29<M>; WIDTH])
where
    Fe29<M>: FieldArith,
{
    for (x, d) in state.iter_mut().zip(d) {
        *x = x.mul(*d);
    }
}
