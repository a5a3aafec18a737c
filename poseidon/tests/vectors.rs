//! Mina's published vectors, through the library and the vector-file checker.

mod common;

use common::{published, KIMCHI_JSON, LEGACY_JSON};
use poseidon::backend::Reference;
use poseidon::vectors::{self, VectorError, VectorKind};
use poseidon::{encoding, FieldId, Fp, ParamSet, Sponge};

fn decode(hex: &[String]) -> Vec<Fp> {
    hex.iter().map(|h| encoding::from_hex(h).unwrap()).collect()
}

#[test]
fn published_files_name_the_fp_hash_sets() {
    let kinds: Vec<VectorKind> = published().iter().map(|f| f.kind).collect();
    assert_eq!(
        kinds,
        [
            VectorKind::Hash(ParamSet::Kimchi, FieldId::Fp),
            VectorKind::Hash(ParamSet::Legacy, FieldId::Fp)
        ]
    );
}

#[test]
fn published_vectors_pass_the_checker() {
    for file in published() {
        let report = file.check::<Reference>().unwrap();
        assert!(report.failed.is_empty(), "{:?}", report.failed);
        assert_eq!(report.passed, file.vectors.len());
        assert!(report.passed >= 6);
    }
}

#[test]
fn published_vectors_through_hash_and_pieces() {
    for (set, text) in [
        (ParamSet::Kimchi, KIMCHI_JSON),
        (ParamSet::Legacy, LEGACY_JSON),
    ] {
        for v in vectors::parse(text).unwrap().vectors {
            let input = decode(&v.input);
            let expected = decode(&v.output)[0];
            assert_eq!(poseidon::hash(set, &input), expected);
            // One element at a time gives the same digest.
            let mut sponge = Sponge::<Fp>::new(set);
            for x in &input {
                sponge.absorb(core::slice::from_ref(x));
            }
            assert_eq!(sponge.squeeze(), expected);
        }
    }
}

#[test]
fn permutation_of_zero_state_is_the_empty_hash() {
    // hash([]) permutes [0, 0, 0] once and squeezes state[0].
    for (set, text) in [
        (ParamSet::Kimchi, KIMCHI_JSON),
        (ParamSet::Legacy, LEGACY_JSON),
    ] {
        let file = vectors::parse(text).unwrap();
        let empty = file.vectors.iter().find(|v| v.input.is_empty()).unwrap();
        let mut state = [Fp::from(0u64); 3];
        poseidon::permute(set, &mut state);
        assert_eq!(state[0], decode(&empty.output)[0]);
    }
}

#[test]
fn a_tampered_output_fails_and_is_reported() {
    let text = KIMCHI_JSON.replacen("\"fb5992f6", "\"fb5992f7", 1);
    assert_ne!(text, KIMCHI_JSON);
    let report = vectors::parse(&text).unwrap().check::<Reference>().unwrap();
    assert_eq!(report.failed.len(), 1);
    assert_eq!(report.failed[0].index, 1);
    assert_eq!(report.passed, 5);
    assert!(report.failed[0].actual[0].starts_with("fb5992f6"));
}

fn permutation_file(name: &str, vectors: &[([String; 3], [String; 3])]) -> String {
    let body: Vec<String> = vectors
        .iter()
        .map(|(i, o)| format!("{{\"input\": {i:?}, \"output\": {o:?}, \"extra\": 1}}"))
        .collect();
    format!(
        "{{\"name\": \"{name}\", \"test_vectors\": [{}]}}",
        body.join(",")
    )
}

#[test]
fn permutation_files_are_checked_in_both_fields() {
    let mut rng = common::SplitMix(7);
    let hex3 = |s: [poseidon::Fq; 3]| s.map(encoding::to_hex);
    let input: [poseidon::Fq; 3] = core::array::from_fn(|_| rng.element());
    let mut output = input;
    poseidon::permute(ParamSet::Kimchi, &mut output);
    let good = permutation_file("kimchi-fq-permutation", &[(hex3(input), hex3(output))]);
    let file = vectors::parse(&good).unwrap();
    assert_eq!(
        file.kind,
        VectorKind::Permutation(ParamSet::Kimchi, FieldId::Fq)
    );
    assert_eq!(file.check::<Reference>().unwrap().passed, 1);

    // Same numbers read as Fp: either non-canonical or a different permutation.
    let as_fp = good.replace("kimchi-fq-permutation", "kimchi-permutation");
    let fp = vectors::parse(&as_fp).unwrap().check::<Reference>();
    assert!(fp.is_err() || fp.unwrap().failed.len() == 1);

    // Output swapped with input fails.
    let bad = permutation_file("kimchi-fq-permutation", &[(hex3(output), hex3(output))]);
    let report = vectors::parse(&bad).unwrap().check::<Reference>().unwrap();
    assert_eq!(report.failed.len(), 1);
}

#[test]
fn every_kind_round_trips_its_name() {
    for kind in VectorKind::ALL {
        assert_eq!(VectorKind::from_name(&kind.name()), Some(kind));
    }
    let names: Vec<String> = VectorKind::ALL.iter().map(|k| k.name()).collect();
    assert_eq!(
        names,
        [
            "kimchi",
            "legacy",
            "kimchi-fq",
            "legacy-fq",
            "kimchi-permutation",
            "kimchi-fq-permutation"
        ]
    );
}

#[test]
fn malformed_files_name_the_problem_and_the_vector() {
    let err = |t: &str| {
        vectors::parse(t)
            .and_then(|f| f.check::<Reference>())
            .unwrap_err()
    };
    assert!(matches!(err("{"), VectorError::Format(_)));
    assert!(matches!(err("[]"), VectorError::Format(_)));
    assert!(matches!(
        err(r#"{"name": "x", "test_vectors": []}"#),
        VectorError::UnknownName(n) if n == "x"
    ));
    assert!(matches!(
        err(r#"{"name": "kimchi"}"#),
        VectorError::Format(_)
    ));
    let cases = [
        (
            r#"{"name":"kimchi","test_vectors":[{"input":[],"output":"00"},{"output":"00"}]}"#,
            1,
            "missing `input`",
        ),
        (
            r#"{"name":"kimchi","test_vectors":[{"input":[1],"output":"00"}]}"#,
            0,
            "hex strings",
        ),
        (
            r#"{"name":"kimchi","test_vectors":[{"input":[],"output":"abc"}]}"#,
            0,
            "odd number of hex digits",
        ),
        (
            r#"{"name":"kimchi","test_vectors":[{"input":["zz"],"output":"00"}]}"#,
            0,
            "invalid hex digit",
        ),
        (
            r#"{"name":"kimchi","test_vectors":[{"input":[],"output":["00","00"]}]}"#,
            0,
            "output element",
        ),
        (
            r#"{"name":"kimchi-permutation","test_vectors":[{"input":["00"],"output":["00","00","00"]}]}"#,
            0,
            "3 input",
        ),
    ];
    for (text, index, words) in cases {
        match err(text) {
            e @ VectorError::Malformed { index: i, .. } => {
                assert_eq!(i, index, "{e}");
                assert!(e.to_string().contains(words), "{e} lacks {words:?}");
                assert!(e.to_string().contains(&format!("vector {index}")), "{e}");
            }
            other => panic!("{text}: expected Malformed, got {other:?}"),
        }
    }
}
