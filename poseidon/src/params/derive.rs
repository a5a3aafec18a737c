//! Mina's rule for the Poseidon constants, run in this crate.
//!
//! A draw `D(s, i)` is the first SHA-256 digest of the ASCII string
//! `s ‖ decimal(i) ‖ "_" ‖ decimal(j)`, for j = 0, 1, 2, …, that read as a
//! big-endian integer is below the field's modulus (rejection sampling, so the
//! constant is uniform and canonical).
//!
//! - Round constant (r, c) is `D(P ‖ "RoundConstants", 3r + c)`.
//! - The MDS matrix is the Cauchy matrix `M[i][j] = 1 / (x_i − y_j)` of the
//!   first attempt a = 0, 1, … with `x_i = D(Q ‖ "x", 3a + i)`,
//!   `y_i = D(Q ‖ "y", 3a + i)` whose characteristic polynomial has no root in
//!   the field.
//!
//! This runs once to produce the checked-in tables and again in the tests.

use ark_ff::{BigInt, BigInteger, Field, PrimeField};
use sha2::{Digest, Sha256};

use super::{ParamSet, WIDTH};
use crate::backend::PastaField;
use crate::fields::FieldId;

/// Prefix `P` of the round-constant draws.
pub fn round_constant_prefix(set: ParamSet, field: FieldId) -> &'static str {
    match (set, field) {
        (ParamSet::Kimchi, FieldId::Fp) => "CodaRescuePasta_p_kimchi",
        (ParamSet::Kimchi, FieldId::Fq) => "CodaRescuePasta_q_kimchi",
        (ParamSet::Legacy, FieldId::Fp) => "Pasta_p",
        (ParamSet::Legacy, FieldId::Fq) => "Pasta_q",
    }
}

/// Prefix `Q` of the MDS draws.
pub fn mds_prefix(set: ParamSet, field: FieldId) -> &'static str {
    match (set, field) {
        (ParamSet::Kimchi, FieldId::Fp) => "CodaRescuePasta_p_kimchiMDS",
        (ParamSet::Kimchi, FieldId::Fq) => "CodaRescuePasta_q_kimchiMDS",
        (ParamSet::Legacy, _) => "CodaRescueMDS",
    }
}

/// `D(prefix, i)`: the first SHA-256 draw below the modulus.
pub fn draw<F: PrimeField<BigInt = BigInt<4>>>(prefix: &str, i: usize) -> F {
    (0u64..)
        .find_map(|j| {
            let digest = Sha256::digest(format!("{prefix}{i}_{j}").as_bytes());
            // Big-endian digest -> little-endian 64-bit limbs.
            let mut limbs = [0u64; 4];
            for (k, chunk) in digest.chunks_exact(8).enumerate() {
                limbs[3 - k] = u64::from_be_bytes(chunk.try_into().expect("8-byte chunk"));
            }
            F::from_bigint(BigInt(limbs))
        })
        .expect("a draw below the modulus is found with overwhelming probability")
}

/// The first `rows` rows of round constants.
pub fn round_constants<F: PastaField<BigInt = BigInt<4>>>(
    set: ParamSet,
    rows: usize,
) -> Vec<[F; WIDTH]> {
    let prefix = format!("{}RoundConstants", round_constant_prefix(set, F::ID));
    (0..rows)
        .map(|r| core::array::from_fn(|c| draw(&prefix, WIDTH * r + c)))
        .collect()
}

/// The chosen MDS matrix and the attempt that produced it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MdsChoice<F> {
    /// Index of the first attempt whose matrix has no eigenvalue in the field.
    pub attempt: usize,
    /// The matrix, row-major.
    pub matrix: [[F; WIDTH]; WIDTH],
}

/// The Cauchy matrix of attempt `a`, or `None` if some `x_i = y_j`.
pub fn cauchy_attempt<F: PastaField<BigInt = BigInt<4>>>(
    set: ParamSet,
    attempt: usize,
) -> Option<[[F; WIDTH]; WIDTH]> {
    let prefix = mds_prefix(set, F::ID);
    let xs: [F; WIDTH] = core::array::from_fn(|i| draw(&format!("{prefix}x"), WIDTH * attempt + i));
    let ys: [F; WIDTH] = core::array::from_fn(|i| draw(&format!("{prefix}y"), WIDTH * attempt + i));
    let mut m = [[F::zero(); WIDTH]; WIDTH];
    for i in 0..WIDTH {
        for j in 0..WIDTH {
            m[i][j] = (xs[i] - ys[j]).inverse()?;
        }
    }
    Some(m)
}

/// The MDS matrix of a parameter set: the first attempt with no eigenvalue in the field.
pub fn mds<F: PastaField<BigInt = BigInt<4>>>(set: ParamSet) -> MdsChoice<F> {
    (0..)
        .find_map(|attempt| {
            let matrix = cauchy_attempt::<F>(set, attempt)?;
            (!has_eigenvalue(&matrix)).then_some(MdsChoice { attempt, matrix })
        })
        .expect("some attempt succeeds")
}

/// Whether the characteristic polynomial of a 3×3 matrix has a root in `F`.
pub fn has_eigenvalue<F: PrimeField>(m: &[[F; WIDTH]; WIDTH]) -> bool {
    // det(X·I − M) = X^3 − tr·X^2 + s·X − det, with s the sum of principal 2×2 minors.
    let tr = m[0][0] + m[1][1] + m[2][2];
    let minor = |a: usize, b: usize| m[a][a] * m[b][b] - m[a][b] * m[b][a];
    let s = minor(0, 1) + minor(0, 2) + minor(1, 2);
    let det = m[0][0] * minor(1, 2) - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
        + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]);
    cubic_has_root(&[-det, s, -tr])
}

/// Whether the monic cubic `X^3 + c[2]·X^2 + c[1]·X + c[0]` has a root in `F`:
/// exactly when `gcd(f, X^|F| − X)` is not constant.
pub fn cubic_has_root<F: PrimeField>(c: &[F; 3]) -> bool {
    // Residues mod f are [a0, a1, a2] = a0 + a1·X + a2·X^2.
    let mul_mod = |a: &[F; 3], b: &[F; 3]| -> [F; 3] {
        let mut t = [F::zero(); 5];
        for i in 0..3 {
            for j in 0..3 {
                t[i + j] += a[i] * b[j];
            }
        }
        // X^3 ≡ −(c2·X^2 + c1·X + c0); fold degrees 4 then 3.
        for d in (3..5).rev() {
            let top = t[d];
            for k in 0..3 {
                t[d - 3 + k] -= top * c[k];
            }
        }
        [t[0], t[1], t[2]]
    };
    let x = [F::zero(), F::one(), F::zero()];
    let mut acc = [F::one(), F::zero(), F::zero()];
    for bit in F::MODULUS.to_bits_be() {
        acc = mul_mod(&acc, &acc);
        if bit {
            acc = mul_mod(&acc, &x);
        }
    }
    // g = X^|F| − X mod f, then gcd(f, g).
    acc[1] -= F::one();
    let f = vec![c[0], c[1], c[2], F::one()];
    poly_gcd_degree(f, acc.to_vec()) > 0
}

/// Degree of `gcd(a, b)` (coefficients low to high); the zero polynomial counts as `a`.
fn poly_gcd_degree<F: Field>(mut a: Vec<F>, mut b: Vec<F>) -> usize {
    let trim = |p: &mut Vec<F>| {
        while p.last().is_some_and(|c| c.is_zero()) {
            p.pop();
        }
    };
    trim(&mut a);
    trim(&mut b);
    while !b.is_empty() {
        // a <- a mod b
        let lead_inv = b
            .last()
            .and_then(|l| l.inverse())
            .expect("trimmed: nonzero lead");
        while a.len() >= b.len() {
            let shift = a.len() - b.len();
            let q = *a.last().expect("nonempty") * lead_inv;
            for (k, bk) in b.iter().enumerate() {
                a[shift + k] -= q * bk;
            }
            trim(&mut a);
            if a.is_empty() {
                break;
            }
        }
        core::mem::swap(&mut a, &mut b);
    }
    a.len().saturating_sub(1)
}
