//! The checked-in constant tables equal what Mina's rule derives, and the rule
//! reproduces Mina's published facts.

use ark_ff::{BigInt, Field, PrimeField};
use poseidon::params::{derive, ParamSet, Params};
use poseidon::{FieldArith, Fp, Fq, PastaField};

fn tables<F: PastaField<BigInt = BigInt<4>> + FieldArith>(set: ParamSet) -> &'static Params<F> {
    <F as FieldArith>::params(set)
}

fn regenerated_equal<F: PastaField<BigInt = BigInt<4>> + FieldArith>() {
    for set in ParamSet::ALL {
        let t = tables::<F>(set);
        assert_eq!(t.set, set);
        assert_eq!(t.round_constants.len(), set.constant_rows());
        let rc = derive::round_constants::<F>(set, set.constant_rows());
        assert!(
            rc == t.round_constants,
            "{set} {:?} round constants differ from the rule: run `make params`",
            F::ID
        );
        assert!(
            derive::mds::<F>(set).matrix == t.mds,
            "{set} {:?} MDS differs from the rule: run `make params`",
            F::ID
        );
    }
}

#[test]
fn tables_match_the_rule_fp() {
    regenerated_equal::<Fp>();
}

#[test]
fn tables_match_the_rule_fq() {
    regenerated_equal::<Fq>();
}

#[test]
fn published_kimchi_fp_facts() {
    let t = tables::<Fp>(ParamSet::Kimchi);
    assert_eq!(
        t.mds[0][0].into_bigint().to_string(),
        "12035446894107573964500871153637039653510326950134440362813193268448863222019"
    );
    assert_eq!(
        t.round_constants[0][0].into_bigint().to_string(),
        "21155079691556475130150866428468322463125560312786319980770950159250751855431"
    );
}

#[test]
fn mds_attempts() {
    assert_eq!(derive::mds::<Fp>(ParamSet::Kimchi).attempt, 0);
    assert_eq!(derive::mds::<Fp>(ParamSet::Legacy).attempt, 0);
    assert_eq!(derive::mds::<Fq>(ParamSet::Legacy).attempt, 0);
    assert_eq!(derive::mds::<Fq>(ParamSet::Kimchi).attempt, 4);
    for a in 0..4 {
        let m = derive::cauchy_attempt::<Fq>(ParamSet::Kimchi, a).unwrap();
        assert!(
            derive::has_eigenvalue(&m),
            "attempt {a} should have an eigenvalue in Fq"
        );
    }
}

#[test]
fn mds_is_cauchy_and_invertible() {
    for set in ParamSet::ALL {
        let m = tables::<Fp>(set).mds;
        // 1/M[i][j] = x_i - y_j, so the inverses satisfy the rank-2 Cauchy relation.
        let inv = |i: usize, j: usize| m[i][j].inverse().unwrap();
        for i in 1..3 {
            for j in 1..3 {
                assert_eq!(inv(i, j) - inv(i, 0), inv(0, j) - inv(0, 0));
            }
        }
    }
}

#[test]
fn cubic_root_detection() {
    let f = |c: [i64; 3]| c.map(Fp::from);
    // (X-1)(X-2)(X-3) = X^3 - 6X^2 + 11X - 6
    assert!(derive::cubic_has_root(&f([-6, 11, -6])));
    // (X-5)(X^2+1)? -1 is a square in Fp (p ≡ 1 mod 4), so use a non-residue: X^2 - 5.
    // 5 is a non-residue (it generates the multiplicative group), so X^2 - 5 has no root;
    // (X - 2)(X^2 - 5) = X^3 - 2X^2 - 5X + 10 has exactly the root 2.
    assert!(derive::cubic_has_root(&f([10, -5, -2])));
    // X^3 - 5: roots exist iff 5 is a cube; 5 generates the group and 3 | p - 1, so no.
    assert!(!derive::cubic_has_root(&f([-5, 0, 0])));
    assert!(Fp::from(5u64).legendre().is_qnr());
}

#[test]
fn moduli_are_2_254_plus_small() {
    let two_254 = Fp::from(2u64).pow([254]);
    // 2^254 mod p = p - c, i.e. -c; so p = 2^254 + c with the published c.
    let c_p: u128 = 45560315531419706090280762371685220353;
    assert_eq!(-two_254, Fp::from(c_p));
    let c_q: u128 = 45560315531419706090280762371685220353 + 86663725065984043395317760;
    assert_eq!(-Fq::from(2u64).pow([254]), Fq::from(c_q));
    assert_eq!(Fp::MODULUS_BIT_SIZE, 255);
    assert_eq!(Fq::MODULUS_BIT_SIZE, 255);
}
