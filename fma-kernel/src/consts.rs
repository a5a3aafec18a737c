//! What the generator needs of a field: p, the kimchi constants as 52-bit limbs in
//! Montgomery form (R = 2^260), and kimchi Fp's rescaling.

use crate::prelude::*;

/// What the generator needs of a field: p, and the kimchi constants in Montgomery
/// form (R = 2^260) as 52-bit limbs.
pub(crate) struct Consts {
    pub(crate) p52: [u64; LIMBS],
    pub(crate) u: u64,
    /// mds[i][j] (rescaled where `d` is set: column 0 is then all 1).
    pub(crate) mds: [[[u64; LIMBS]; 3]; 3],
    /// rc[r][i] (rescaled: d_i·k_i).
    pub(crate) rc: Vec<[[u64; LIMBS]; 3]>,
    /// Whether the linear layer is rescaled (column 0 all ones).
    pub(crate) rescaled: bool,
    /// The factors the state is multiplied by on entry and exit: d/2 and 2/d (d = 1
    /// where there is no rescaling). A Montgomery product by them turns x·2^261 (the
    /// `u29` form the kernel takes and gives) into d·x·2^260 and back.
    pub(crate) scale: [[[u64; LIMBS]; 3]; 2],
}

/// Kimchi Fp's rescaling: a sixth root d_0 of M_00, with d_i = d_0^7/M_i0, makes
/// column 0 of M'_ij = d_i·M_ij·d_j^−7 all ones, in both lanes of both output
/// vectors; so that column is an addition, not a product. (Found by
/// `nthroot_mod(M_00, 6, p)` in sympy; the tests check the property. For kimchi Fq
/// no entry 2^(−52m) with m = 0..5 in one column has the root.)
pub(crate) const FP_D0: &str =
    "2793491442372001099662827327758548691091044710343976342610009297827824094720";

pub(crate) fn limbs52(x: &[u64]) -> [u64; LIMBS] {
    core::array::from_fn(|l| {
        let bit = 52 * l;
        let (w, s) = (bit / 64, bit % 64);
        let lo = x.get(w).copied().unwrap_or(0) >> s;
        let hi = if s > 12 {
            x.get(w + 1).copied().unwrap_or(0) << (64 - s)
        } else {
            0
        };
        (lo | hi) & MASK
    })
}

/// The rescaling from d_0 (see [`FP_D0`]) and the rescaled matrix.
pub(crate) fn rescaling<F: PrimeField>(mds: &[[F; 3]; 3], d0: F) -> ([F; 3], [[F; 3]; 3]) {
    let d: [F; 3] =
        core::array::from_fn(|i| d0.pow([7u64]) * mds[i][0].inverse().expect("nonzero"));
    let m = core::array::from_fn(|i| {
        core::array::from_fn(|j| d[i] * mds[i][j] * d[j].pow([7u64]).inverse().expect("nonzero"))
    });
    (d, m)
}

pub(crate) fn consts<F: PastaField + FieldArith>(d0: Option<&str>) -> Consts {
    let params = <F as FieldArith>::params(ParamSet::Kimchi);
    assert!(!ParamSet::Kimchi.initial_ark());
    let r = F::from(2u64).pow([260u64]);
    let m = |x: &F| limbs52((*x * r).into_bigint().as_ref());
    let (d, mds) = match d0 {
        Some(s) => {
            let d0: F = s.parse().ok().expect("a decimal element");
            let (d, mds) = rescaling(&params.mds, d0);
            assert!(mds.iter().all(|row| row[0] == F::ONE), "column 0 all ones");
            (Some(d), mds)
        }
        None => (None, params.mds),
    };
    let scale = |k: &[F; 3]| -> [F; 3] {
        match d {
            Some(d) => core::array::from_fn(|i| d[i] * k[i]),
            None => *k,
        }
    };
    let p52 = limbs52(F::MODULUS.as_ref());
    assert!(
        p52[0] & 0xffff_ffff == 1 && p52[3] == 0 && p52[4].is_power_of_two(),
        "a Pasta-shaped prime"
    );
    Consts {
        p52,
        u: (p52[0] >> 32) & ((1 << 20) - 1),
        mds: mds.map(|row| row.map(|x| m(&x))),
        rc: params
            .round_constants
            .iter()
            .map(|row| scale(row).map(|x| m(&x)))
            .collect(),
        rescaled: d.is_some(),
        scale: {
            let d = d.unwrap_or([F::ONE; 3]);
            let two = F::from(2u64);
            let half = two.inverse().expect("p is odd");
            [
                d.map(|x| m(&(x * half))),
                d.map(|x| m(&(x.inverse().expect("nonzero") * two))),
            ]
        },
    }
}
