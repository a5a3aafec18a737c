//! The sponge follows Mina's state machine, rule by rule, in both fields and sets.

mod common;

use ark_ff::BigInt;
use common::SplitMix;
use poseidon::{Fp, Fq, ParamSet, PastaField, Sponge, SpongeMode};

fn permuted<F: PastaField>(set: ParamSet, mut s: [F; 3]) -> [F; 3] {
    poseidon::permute(set, &mut s);
    s
}

fn rules<F: PastaField<BigInt = BigInt<4>>>(set: ParamSet, seed: u64) {
    let mut rng = SplitMix(seed);
    let [a, b, c, d]: [F; 4] = core::array::from_fn(|_| rng.element());

    let mut s = Sponge::<F>::new(set);
    assert_eq!(s.param_set(), set);
    assert_eq!(s.mode(), SpongeMode::Absorbed(0));
    assert_eq!(s.state(), [F::zero(); 3]);

    // Absorbed(n < 2): add to state[n], no permutation.
    s.absorb(&[a]);
    assert_eq!(
        (s.mode(), s.state()),
        (SpongeMode::Absorbed(1), [a, F::zero(), F::zero()])
    );
    s.absorb(&[b]);
    assert_eq!(
        (s.mode(), s.state()),
        (SpongeMode::Absorbed(2), [a, b, F::zero()])
    );
    // Absorbed(2): permute, then add to state[0].
    s.absorb(&[c]);
    let mut expect = permuted(set, [a, b, F::zero()]);
    expect[0] += c;
    assert_eq!((s.mode(), s.state()), (SpongeMode::Absorbed(1), expect));

    // Squeeze from Absorbed: permute, return state[0].
    let p = permuted(set, expect);
    assert_eq!(s.squeeze(), p[0]);
    assert_eq!((s.mode(), s.state()), (SpongeMode::Squeezed(1), p));
    // Squeezed(1): return state[1], no permutation.
    assert_eq!(s.squeeze(), p[1]);
    assert_eq!((s.mode(), s.state()), (SpongeMode::Squeezed(2), p));
    // Squeezed(2): permute, return state[0].
    let q = permuted(set, p);
    assert_eq!(s.squeeze(), q[0]);
    assert_eq!(s.mode(), SpongeMode::Squeezed(1));

    // Absorb while squeezed: add to state[0], no permutation.
    s.absorb(&[d]);
    assert_eq!(
        (s.mode(), s.state()),
        (SpongeMode::Absorbed(1), [q[0] + d, q[1], q[2]])
    );

    s.reset();
    assert_eq!(
        (s.mode(), s.state()),
        (SpongeMode::Absorbed(0), [F::zero(); 3])
    );

    // The empty hash permutes once.
    assert_eq!(
        poseidon::hash::<F>(set, &[]),
        permuted(set, [F::zero(); 3])[0]
    );
}

#[test]
fn state_machine_kimchi_fp() {
    rules::<Fp>(ParamSet::Kimchi, 1);
}
#[test]
fn state_machine_kimchi_fq() {
    rules::<Fq>(ParamSet::Kimchi, 2);
}
#[test]
fn state_machine_legacy_fp() {
    rules::<Fp>(ParamSet::Legacy, 3);
}
#[test]
fn state_machine_legacy_fq() {
    rules::<Fq>(ParamSet::Legacy, 4);
}

fn pieces<F: PastaField<BigInt = BigInt<4>>>(set: ParamSet, seed: u64) {
    let mut rng = SplitMix(seed);
    for len in 0..12 {
        let xs: Vec<F> = (0..len).map(|_| rng.element()).collect();
        let mut whole = Sponge::<F>::new(set);
        whole.absorb(&xs);
        let mut split = Sponge::<F>::new(set);
        let cut = (rng.next_u64() as usize) % (len + 1);
        split.absorb(&xs[..cut]);
        split.absorb(&[]);
        split.absorb(&xs[cut..]);
        assert_eq!(whole.mode(), split.mode());
        let out: Vec<F> = (0..5).map(|_| whole.squeeze()).collect();
        let out2: Vec<F> = (0..5).map(|_| split.squeeze()).collect();
        assert_eq!(out, out2, "len {len} cut {cut}");
        assert_eq!(out[0], poseidon::hash(set, &xs));
    }
}

#[test]
fn absorbing_in_pieces_equals_absorbing_at_once() {
    for set in ParamSet::ALL {
        pieces::<Fp>(set, 10);
        pieces::<Fq>(set, 11);
    }
}

#[test]
fn sets_and_fields_differ() {
    let one = [Fp::from(1u64)];
    assert_ne!(
        poseidon::hash(ParamSet::Kimchi, &one),
        poseidon::hash(ParamSet::Legacy, &one)
    );
    // Same small integer in both fields: different parameters give different digests.
    let h_fp = poseidon::hash(ParamSet::Kimchi, &one);
    let h_fq = poseidon::hash(ParamSet::Kimchi, &[Fq::from(1u64)]);
    assert_ne!(
        poseidon::encoding::to_hex(h_fp),
        poseidon::encoding::to_hex(h_fq)
    );
}
