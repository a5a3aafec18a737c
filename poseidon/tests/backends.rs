//! Differential tests: every backend against the reference, on seeded random
//! inputs and edge values. A new backend joins by adding a line to `each_backend!`.

mod common;

use std::sync::OnceLock;

use ark_ff::{BigInt, Field};
use common::SplitMix;
use poseidon::backend::u29 as lanes29;
use poseidon::backend::{Reference, U29};
use poseidon::params::{ParamSet, Params};
use poseidon::{Backend, FieldArith, Fp, Fq, PastaField, Permutation};

/// A stand-in backend that wraps ark-ff but keeps the trait's default S-box
/// chains (x^7 = x^4·x^2·x, x^5 = x^4·x), as a fast backend would.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Chain<F>(F);

#[derive(Clone, Copy, Debug)]
struct ChainBackend;

fn leak_params<F: PastaField + FieldArith<Field = F>>(set: ParamSet) -> &'static Params<Chain<F>> {
    let p = <F as FieldArith>::params(set);
    let rows: Vec<[Chain<F>; 3]> = p.round_constants.iter().map(|r| r.map(Chain)).collect();
    Box::leak(Box::new(Params {
        set,
        round_constants: Box::leak(rows.into_boxed_slice()),
        mds: p.mds.map(|r| r.map(Chain)),
    }))
}

macro_rules! chain_arith {
    ($f:ty) => {
        impl FieldArith for Chain<$f> {
            type Field = $f;
            fn from_field(x: $f) -> Self {
                Chain(x)
            }
            fn to_field(self) -> $f {
                self.0
            }
            fn zero() -> Self {
                Chain(<$f>::from(0u64))
            }
            fn add(self, rhs: Self) -> Self {
                Chain(self.0 + rhs.0)
            }
            fn sub(self, rhs: Self) -> Self {
                Chain(self.0 - rhs.0)
            }
            fn mul(self, rhs: Self) -> Self {
                Chain(self.0 * rhs.0)
            }
            fn square(self) -> Self {
                Chain(Field::square(&self.0))
            }
            fn params(set: ParamSet) -> &'static Params<Self> {
                static CELLS: [OnceLock<&'static Params<Chain<$f>>>; 2] =
                    [OnceLock::new(), OnceLock::new()];
                let i = set as usize;
                CELLS[i].get_or_init(|| leak_params::<$f>(set))
            }
        }

        // The trait's default schedule: `rounds` over the operations above.
        impl Permutation for Chain<$f> {}
    };
}
chain_arith!(Fp);
chain_arith!(Fq);

impl Backend for ChainBackend {
    const NAME: &'static str = "chain";
    type Fp = Chain<Fp>;
    type Fq = Chain<Fq>;
}

/// Seeded random cases of the field operations (and, a twentieth of it, of the lane
/// batches). Fewer under wasmtime, which runs the reference 3–4× slower.
const RANDOM_CASES: usize = if cfg!(target_arch = "wasm32") {
    10_000
} else {
    100_000
};
/// Seeded random kimchi permutations per backend and field (a tenth of that for
/// legacy), beside the edge states and the chains. A kimchi permutation is about
/// 1,800 field operations (55 rounds of 12 S-box and 9 MDS multiplications, 12
/// additions): at the field operations' count (100,000 natively) the permutations
/// took 72% of the backend tests' time, to reach no path that the operations' own
/// random cases, the edge states and the chains leave out.
const PERMUTATION_CASES: usize = if cfg!(target_arch = "wasm32") {
    5_000
} else {
    20_000
};
/// Length of the permutation chain (each output is the next input); shorter in
/// Wasm, where at 10,000 the chains took 56% of the backend tests' time.
const CHAIN: usize = if cfg!(target_arch = "wasm32") {
    2_500
} else {
    10_000
};

/// Values at the edges: 0, 1, 2, p−1, p−2, (p−1)/2, 2^64, 2^128−1, 2^253.
fn edge_values<F: PastaField<BigInt = BigInt<4>>>() -> Vec<F> {
    let two = F::from(2u64);
    vec![
        F::from(0u64),
        F::from(1u64),
        two,
        -F::from(1u64),
        -two,
        -F::from(1u64) * two.inverse().unwrap(),
        F::from(u64::MAX) + F::from(1u64),
        F::from(u128::MAX),
        two.pow([253]),
    ]
}

fn agrees_with_reference<F: PastaField<BigInt = BigInt<4>>, B: Backend>(seed: u64) {
    let mut rng = SplitMix(seed);
    let edges = edge_values::<F>();
    let mut edge_states: Vec<[F; 3]> = Vec::new();
    for a in &edges {
        for b in &edges {
            edge_states.push([*a, *b, edges[(edge_states.len() * 7) % edges.len()]]);
        }
    }
    for set in ParamSet::ALL {
        let n = if set == ParamSet::Kimchi {
            PERMUTATION_CASES
        } else {
            PERMUTATION_CASES / 10
        };
        let random = (0..n).map(|_| core::array::from_fn(|_| rng.element()));
        for s in edge_states.iter().copied().chain(random) {
            let (mut want, mut got) = (s, s);
            poseidon::permute_with::<F, Reference>(set, &mut want);
            poseidon::permute_with::<F, B>(set, &mut got);
            assert_eq!(got, want, "{} {set} permutation of {s:?}", B::NAME);
        }
        for len in [0, 1, 2, 3, 5, 16] {
            let xs: Vec<F> = (0..len).map(|_| rng.element()).collect();
            assert_eq!(
                poseidon::hash_with::<F, B>(set, &xs),
                poseidon::hash_with::<F, Reference>(set, &xs)
            );
        }
    }
}

/// A long chain of permutations staying in the backend's representation (no
/// conversion in between): errors that survive one permutation compound.
fn chain_agrees<F: PastaField<BigInt = BigInt<4>>, B: Backend>() {
    let params = <F::Repr<B>>::params(ParamSet::Kimchi);
    let mut got = [1u64, 2, 3].map(|i| <F::Repr<B>>::from_field(F::from(i)));
    let mut want = [1u64, 2, 3].map(F::from);
    for _ in 0..CHAIN {
        poseidon::permutation::permute(params, &mut got);
        poseidon::permute_with::<F, Reference>(ParamSet::Kimchi, &mut want);
    }
    assert_eq!(got.map(FieldArith::to_field), want);
}

fn arithmetic_agrees<F: PastaField<BigInt = BigInt<4>>, B: Backend>(seed: u64)
where
    F::Repr<B>: FieldArith<Field = F>,
{
    let mut rng = SplitMix(seed);
    let mut xs = edge_values::<F>();
    xs.extend((0..RANDOM_CASES).map(|_| rng.element::<F>()));
    let r = |x: F| <F::Repr<B>>::from_field(x);
    for (i, &x) in xs.iter().enumerate() {
        let y = xs[(i * 31 + 7) % xs.len()];
        assert_eq!(r(x).to_field(), x);
        assert_eq!(r(x).add(r(y)).to_field(), x + y);
        assert_eq!(r(x).sub(r(y)).to_field(), x - y);
        assert_eq!(r(x).mul(r(y)).to_field(), x * y);
        assert_eq!(r(x).square().to_field(), x * x);
        if i % 10 == 0 {
            assert_eq!(r(x).pow5().to_field(), x.pow([5]));
            assert_eq!(r(x).pow7().to_field(), x.pow([7]));
        }
    }
    // Chains in the representation: results of one operation feed the next.
    let (mut acc, mut want) = (r(xs[1]), xs[1]);
    for &x in xs.iter().take(1000) {
        acc = acc.mul(r(x)).add(r(x)).square().sub(r(x));
        want = (want * x + x).square() - x;
        assert_eq!(acc.to_field(), want);
    }
}

/// The batch path: `permute_many` on batches of every size around the lane counts
/// (1, odd, one short of and one past a multiple of 8), so every lane and the
/// padded tail are checked; `hash_many` on inputs of mixed lengths 0..=20.
fn batch_agrees_with_reference<F: PastaField<BigInt = BigInt<4>>, B: Backend>(seed: u64) {
    let mut rng = SplitMix(seed);
    let edges = edge_values::<F>();
    for set in ParamSet::ALL {
        for n in [1, 2, 3, 5, 7, 8, 9, 15, 16, 17, 31, 64] {
            let states: Vec<[F; 3]> = (0..n)
                .map(|i| {
                    if i % 4 == 3 {
                        core::array::from_fn(|e| edges[(i + 3 * e) % edges.len()])
                    } else {
                        core::array::from_fn(|_| rng.element())
                    }
                })
                .collect();
            let mut got = states.clone();
            poseidon::permute_many_with::<F, B>(set, &mut got);
            for (i, (g, mut want)) in got.iter().zip(states).enumerate() {
                poseidon::permute_with::<F, Reference>(set, &mut want);
                assert_eq!(*g, want, "{} {set} batch of {n}, state {i}", B::NAME);
            }
        }
        let inputs: Vec<Vec<F>> = (0..45)
            .map(|i| (0..(i * 7) % 21).map(|_| rng.element()).collect())
            .collect();
        let got = poseidon::hash_many_with::<F, B, _>(set, &inputs);
        for (g, x) in got.iter().zip(&inputs) {
            assert_eq!(
                *g,
                poseidon::hash_with::<F, Reference>(set, x),
                "{} {set} hash_many, length {}",
                B::NAME,
                x.len()
            );
        }
        assert!(poseidon::hash_many_with::<F, B, Vec<F>>(set, &[]).is_empty());
    }
}

macro_rules! each_backend {
    // The reference is the oracle: every other backend is held against it.
    (reference => $reference:ty, $($rest:tt)*) => {
        each_backend! { $($rest)* }
    };
    ($($name:ident => $backend:ty),* $(,)?) => {
        $(mod $name {
            use super::*;
            #[test]
            fn permutation_fp() { agrees_with_reference::<Fp, $backend>(100); }
            #[test]
            fn permutation_fq() { agrees_with_reference::<Fq, $backend>(101); }
            #[test]
            fn arithmetic_fp() { arithmetic_agrees::<Fp, $backend>(102); }
            #[test]
            fn arithmetic_fq() { arithmetic_agrees::<Fq, $backend>(103); }
            #[test]
            fn chain_fp() { chain_agrees::<Fp, $backend>(); }
            #[test]
            fn chain_fq() { chain_agrees::<Fq, $backend>(); }
            #[test]
            fn batch_fp() { batch_agrees_with_reference::<Fp, $backend>(104); }
            #[test]
            fn batch_fq() { batch_agrees_with_reference::<Fq, $backend>(105); }
            #[test]
            fn canonical_fp() { canonical_agrees::<Fp, $backend>(106); }
            #[test]
            fn canonical_fq() { canonical_agrees::<Fq, $backend>(107); }
            #[test]
            fn own_params_fp() { own_params_agree::<Fp, $backend>(108); }
            #[test]
            fn own_params_fq() { own_params_agree::<Fq, $backend>(109); }
        })*
    };
}

// Every backend of the library's list (`poseidon::for_each_backend!`) but the
// reference, the oracle; and `default_chains`, the trait's default S-box chains
// and linear layer with ark-ff arithmetic.
poseidon::for_each_backend!(each_backend);
each_backend! {
    default_chains => ChainBackend,
}

/// Integers in and out (`poseidon::canonical`, `from_canonical`/`to_canonical`)
/// against the element API on the reference: edge values, values at or above the
/// modulus (rejected, with their position), random inputs.
fn canonical_agrees<F: PastaField<BigInt = BigInt<4>>, B: Backend>(seed: u64) {
    use poseidon::canonical;
    let mut rng = SplitMix(seed);
    let int = |x: F| x.into_bigint().0;
    let p = F::MODULUS.0;
    let mut xs = edge_values::<F>();
    xs.extend((0..200).map(|_| rng.element::<F>()));
    for &x in &xs {
        let e = <F::Repr<B>>::from_canonical(int(x)).expect("below the modulus");
        assert_eq!(e.to_field(), x);
        assert_eq!(e.to_canonical(), int(x));
        assert_eq!(<F::Repr<B>>::from_field(x).to_canonical(), int(x));
    }
    let mut too_big = vec![p, [u64::MAX; 4]];
    for k in 0..4 {
        let mut x = p;
        x[k] = x[k].wrapping_add(1);
        too_big.push(x);
    }
    for &x in &too_big {
        assert!(<F::Repr<B>>::from_canonical(x).is_none(), "{x:?}");
    }
    for set in ParamSet::ALL {
        for (i, w) in xs.windows(3).enumerate() {
            let mut want = [w[0], w[1], w[2]];
            poseidon::permute_with::<F, Reference>(set, &mut want);
            let mut got = [int(w[0]), int(w[1]), int(w[2])];
            canonical::permute_with::<F, B>(set, &mut got).unwrap();
            assert_eq!(got, want.map(int), "{} {set} permutation {i}", B::NAME);
        }
        let inputs: Vec<Vec<[u64; 4]>> = (0..30)
            .map(|i| xs[i..i + i % 21].iter().map(|&x| int(x)).collect())
            .collect();
        let digests = canonical::hash_many_with::<F, B, _>(set, &inputs).unwrap();
        for (d, x) in digests.iter().zip(&inputs) {
            let elements: Vec<F> = x
                .iter()
                .map(|l| F::from_bigint(BigInt(*l)).unwrap())
                .collect();
            let want = int(poseidon::hash_with::<F, Reference>(set, &elements));
            assert_eq!(*d, want, "{} {set} hash_many, length {}", B::NAME, x.len());
            assert_eq!(canonical::hash_with::<F, B>(set, x), Ok(want));
        }
        // o1js's update rule: from a given state, pairs zero-padded, none permutes once.
        for len in 0..8 {
            let start = [xs[len], xs[len + 1], xs[len + 2]];
            let input = &xs[3 * len..3 * len + len];
            let mut want = start;
            if input.is_empty() {
                poseidon::permute_with::<F, Reference>(set, &mut want);
            }
            for pair in input.chunks(2) {
                want[0] += pair[0];
                want[1] += pair.get(1).copied().unwrap_or_default();
                poseidon::permute_with::<F, Reference>(set, &mut want);
            }
            let mut got = start.map(int);
            let ints: Vec<[u64; 4]> = input.iter().map(|&x| int(x)).collect();
            canonical::update_with::<F, B>(set, &mut got, &ints).unwrap();
            assert_eq!(got, want.map(int), "{} {set} update, {len} inputs", B::NAME);
        }
        // Rejected values name their position; a rejected state is left unchanged.
        let at = |input, element| poseidon::Error::NonCanonicalAt {
            field: F::ID,
            input,
            element,
        };
        for (k, &bad) in too_big.iter().enumerate() {
            let mut state = [int(xs[0]), int(xs[1]), int(xs[2])];
            state[k % 3] = bad;
            let before = state;
            assert_eq!(
                canonical::permute_with::<F, B>(set, &mut state),
                Err(at(0, k % 3))
            );
            assert_eq!(state, before);
            let mut input: Vec<[u64; 4]> = xs[..5].iter().map(|&x| int(x)).collect();
            input[k % 5] = bad;
            assert_eq!(canonical::hash_with::<F, B>(set, &input), Err(at(0, k % 5)));
            let mut state = [int(xs[0]), int(xs[1]), int(xs[2])];
            let before = state;
            assert_eq!(
                canonical::update_with::<F, B>(set, &mut state, &input),
                Err(at(0, 3 + k % 5))
            );
            state[k % 3] = bad;
            assert_eq!(
                canonical::update_with::<F, B>(set, &mut state, &[]),
                Err(at(0, k % 3))
            );
            state[k % 3] = before[k % 3];
            assert_eq!(state, before);
            let many = [vec![int(xs[0])], input];
            assert_eq!(
                canonical::hash_many_with::<F, B, _>(set, &many),
                Err(at(1, k % 5))
            );
        }
    }
}

/// The permutation with parameters that are not the crate's own statics, which a
/// backend must treat as data: a copy of its own (`u29` in Wasm takes a separate
/// path for its statics and the general one for these) and altered ones (round
/// constants shifted by a row, MDS transposed), against the reference with the
/// same alteration; one permutation and a batch of three.
fn own_params_agree<F: PastaField<BigInt = BigInt<4>>, B: Backend>(seed: u64) {
    let mut rng = SplitMix(seed);
    for set in ParamSet::ALL {
        let ours = <F::Repr<B>>::params(set);
        let copy = Params {
            set,
            round_constants: ours.round_constants,
            mds: ours.mds,
        };
        let (altered_ref, altered) = (altered::<F, Reference>(set), altered::<F, B>(set));
        for _ in 0..20 {
            let s: [F; 3] = core::array::from_fn(|_| rng.element());
            let mut want = s;
            poseidon::permute_with::<F, Reference>(set, &mut want);
            let mut got = s.map(<F::Repr<B>>::from_field);
            poseidon::permutation::permute(&copy, &mut got);
            assert_eq!(got.map(FieldArith::to_field), want, "{} {set}", B::NAME);

            let mut want = s.map(<F::Repr<Reference>>::from_field);
            poseidon::permutation::permute(altered_ref, &mut want);
            let want = want.map(FieldArith::to_field);
            assert_ne!(want, s, "the altered permutation moves the state");
            let mut got = s.map(<F::Repr<B>>::from_field);
            poseidon::permutation::permute(altered, &mut got);
            assert_eq!(
                got.map(FieldArith::to_field),
                want,
                "{} {set} altered",
                B::NAME
            );
            let mut many = vec![s.map(<F::Repr<B>>::from_field); 3];
            <F::Repr<B>>::permute_many(altered, &mut many);
            for st in many {
                assert_eq!(
                    st.map(FieldArith::to_field),
                    want,
                    "{} {set} altered, batch",
                    B::NAME
                );
            }
        }
    }
}

/// A set's parameters with each round taking the next row's constants (the last
/// takes the first's) and the MDS matrix transposed, leaked for `'static`.
fn altered<F: PastaField, B: Backend>(set: ParamSet) -> &'static Params<F::Repr<B>> {
    let ours = <F::Repr<Reference>>::params(set);
    let conv = |x: &<F::Repr<Reference> as FieldArith>::Field| <F::Repr<B>>::from_field(*x);
    let n = ours.round_constants.len();
    let rows: Vec<[F::Repr<B>; 3]> = (0..n)
        .map(|r| ours.round_constants[(r + 1) % n].map(|x| conv(&x.to_field())))
        .collect();
    Box::leak(Box::new(Params {
        set,
        round_constants: Box::leak(rows.into_boxed_slice()),
        mds: core::array::from_fn(|i| core::array::from_fn(|j| conv(&ours.mds[j][i].to_field()))),
    }))
}

/// Two permutations per call, one per lane, against two reference permutations.
fn batch_agrees<F: PastaField<BigInt = BigInt<4>>, M: lanes29::Modulus29>(seed: u64)
where
    lanes29::Fe29<M>: FieldArith<Field = F>,
{
    let mut rng = SplitMix(seed);
    for set in ParamSet::ALL {
        let params = <lanes29::Fe29<M>>::params(set);
        for _ in 0..RANDOM_CASES / 20 {
            let states: [[F; 3]; 2] =
                core::array::from_fn(|_| core::array::from_fn(|_| rng.element()));
            let mut lanes = states.map(|s| s.map(<lanes29::Fe29<M>>::from_field));
            lanes29::permute_x2(params, &mut lanes);
            for (lane, mut want) in lanes.iter().zip(states) {
                poseidon::permute_with::<F, Reference>(set, &mut want);
                assert_eq!(lane.map(FieldArith::to_field), want, "{set}");
            }
        }
    }
}

/// Four permutations per call, one per `i32x4` lane, against the reference: the
/// own parameters and altered ones (another MDS matrix and constants), random
/// states and edge values in every lane.
fn batch_x4_agrees<F, M: lanes29::OwnSets29>(seed: u64)
where
    lanes29::Fe29<M>: FieldArith<Field = F>,
    F: PastaField<BigInt = BigInt<4>, Repr<U29> = lanes29::Fe29<M>>,
{
    let mut rng = SplitMix(seed);
    let edges = edge_values::<F>();
    for set in ParamSet::ALL {
        let own = (
            <lanes29::Fe29<M>>::params(set),
            <F::Repr<Reference>>::params(set),
        );
        let other = (altered::<F, U29>(set), altered::<F, Reference>(set));
        for (params, oracle) in [own, other] {
            for case in 0..RANDOM_CASES / 20 {
                let states: [[F; 3]; 4] = core::array::from_fn(|l| {
                    core::array::from_fn(|e| {
                        if (case + l) % 3 == 0 {
                            edges[(case + 4 * l + e) % edges.len()]
                        } else {
                            rng.element()
                        }
                    })
                });
                let mut lanes = states.map(|s| s.map(<lanes29::Fe29<M>>::from_field));
                lanes29::permute_x4(params, &mut lanes);
                for (l, (lane, s)) in lanes.iter().zip(states).enumerate() {
                    let mut want = s.map(<F::Repr<Reference>>::from_field);
                    poseidon::permutation::permute(oracle, &mut want);
                    assert_eq!(
                        lane.map(FieldArith::to_field),
                        want.map(FieldArith::to_field),
                        "{set} lane {l}"
                    );
                }
            }
        }
    }
}

#[test]
fn batch_x4_fp() {
    batch_x4_agrees::<Fp, lanes29::Pallas>(202);
}

#[test]
fn batch_x4_fq() {
    batch_x4_agrees::<Fq, lanes29::Vesta>(203);
}

#[test]
fn batch_x2_fp() {
    batch_agrees::<Fp, lanes29::Pallas>(200);
}

#[test]
fn batch_x2_fq() {
    batch_agrees::<Fq, lanes29::Vesta>(201);
}

/// The `u64` batch path without SIMD (what runs where the CPU lacks IFMA), and a
/// note of which path `permute_many` takes on this machine.
#[test]
fn u64_portable_batch() {
    use poseidon::backend::u64::{permute_many_portable, Fp64};
    #[cfg(target_arch = "x86_64")]
    eprintln!(
        "u64 batch path on this CPU: {}",
        if poseidon::backend::u64::ifma::available() {
            "AVX-512 IFMA"
        } else {
            "portable"
        }
    );
    let mut rng = SplitMix(300);
    for set in ParamSet::ALL {
        let states: Vec<[Fp; 3]> = (0..11)
            .map(|_| core::array::from_fn(|_| rng.element()))
            .collect();
        let mut got: Vec<[Fp64; 3]> = states.iter().map(|s| s.map(Fp64::from_field)).collect();
        permute_many_portable(Fp64::params(set), &mut got);
        for (g, mut want) in got.iter().zip(states) {
            poseidon::permute_with::<Fp, Reference>(set, &mut want);
            assert_eq!(g.map(FieldArith::to_field), want);
        }
    }
}

#[test]
fn default_backend_follows_the_target() {
    let (name, reason) = poseidon::DEFAULT_BACKEND;
    assert_eq!(<poseidon::DefaultBackend as Backend>::NAME, name);
    if reason == "target" {
        let expected = if cfg!(target_arch = "wasm32") {
            "u29"
        } else if cfg!(target_arch = "x86_64") {
            "u52"
        } else if cfg!(target_pointer_width = "64") {
            "u64"
        } else {
            "reference"
        };
        assert_eq!(name, expected);
    }
}
