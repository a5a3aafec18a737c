//! The library's Merkle tree against the shared vectors
//! (`data/merkle-trees.json`: o1js's rules, written by the JavaScript package and
//! checked against o1js by its tests), and the parallel batches against the
//! single-threaded ones.
#![cfg(feature = "vectors")]

use std::str::FromStr;

use poseidon::merkle::{root_of_path, MerkleTree};
use poseidon::{Fp, ParamSet};
use serde_json::Value;

fn fp(v: &Value) -> Fp {
    Fp::from_str(v.as_str().expect("a decimal string")).expect("an element of Fp")
}

#[test]
fn roots_and_witnesses_equal_the_javascript_packages_and_o1js() {
    let doc: Value = serde_json::from_str(include_str!("data/merkle-trees.json")).unwrap();
    let trees = doc["trees"].as_array().unwrap();
    assert_eq!(trees.len(), 33);
    for t in trees {
        let height = t["height"].as_u64().unwrap() as usize;
        let leaves: Vec<Fp> = t["leaves"].as_array().unwrap().iter().map(fp).collect();
        let tree = MerkleTree::from_leaves(height, &leaves).unwrap();
        assert_eq!(tree.root(), fp(&t["root"]), "height {height}");
        for w in t["witnesses"].as_array().unwrap() {
            let index = w["index"].as_u64().unwrap();
            let path = tree.witness(index).unwrap();
            let want = w["path"].as_array().unwrap();
            assert_eq!(path.len(), want.len(), "height {height}, leaf {index}");
            for (got, want) in path.iter().zip(want) {
                assert_eq!(got.is_left, want["isLeft"].as_bool().unwrap());
                assert_eq!(
                    got.sibling,
                    fp(&want["sibling"]),
                    "height {height}, leaf {index}"
                );
            }
            assert_eq!(root_of_path(tree.node(0, index), &path), tree.root());
        }
    }
}

#[test]
fn parallel_batches_equal_the_single_threaded_ones() {
    use poseidon::backend::{Reference, U29, U64};
    // Sizes around the chunking: below one chunk, not a multiple of the lanes, many chunks.
    for n in [0usize, 1, 63, 65, 513, 4100] {
        let states: Vec<[Fp; 3]> = (0..n as u64)
            .map(|i| [Fp::from(i), Fp::from(i * 7 + 1), -Fp::from(i + 1)])
            .collect();
        let mut one = states.clone();
        poseidon::permute_many(ParamSet::Kimchi, &mut one);
        let mut par = states.clone();
        poseidon::permute_many_par(ParamSet::Kimchi, &mut par);
        assert_eq!(par, one, "{n} states");
        let mut u29 = states.clone();
        poseidon::permute_many_par_with::<Fp, U29>(ParamSet::Kimchi, &mut u29);
        assert_eq!(u29, one, "{n} states, u29");
        let mut u64 = states.clone();
        poseidon::permute_many_par_with::<Fp, U64>(ParamSet::Kimchi, &mut u64);
        assert_eq!(u64, one, "{n} states, u64");
        if n <= 65 {
            let mut r = states.clone();
            poseidon::permute_many_par_with::<Fp, Reference>(ParamSet::Kimchi, &mut r);
            assert_eq!(r, one, "{n} states, reference");
        }
        // Inputs of different lengths (0 to 3 elements), legacy too.
        let inputs: Vec<Vec<Fp>> = (0..n as u64)
            .map(|i| (0..i % 4).map(|k| Fp::from(4 * i + k)).collect())
            .collect();
        for set in [ParamSet::Kimchi, ParamSet::Legacy] {
            assert_eq!(
                poseidon::hash_many_par(set, &inputs),
                poseidon::hash_many(set, &inputs),
                "{n} inputs, {set:?}"
            );
        }
    }
}
