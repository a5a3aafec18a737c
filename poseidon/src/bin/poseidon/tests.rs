//! The command line, run in-process (also under wasmtime, where processes cannot be spawned).
//! Paths are relative to the package root, the working directory of cargo's test runs.

use super::run;

fn sh(args: &[&str]) -> (u8, String, String) {
    let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let code = run(&args, &mut out, &mut err);
    (
        code,
        String::from_utf8(out).unwrap(),
        String::from_utf8(err).unwrap(),
    )
}

const X: &str = "f2eee8d8f6e5fb182c610cae6c5393fce69dc4d900e7b4923b074e54ad00fb36";

#[test]
fn hash_prints_the_published_digest() {
    let (code, out, err) = sh(&["hash", X]);
    assert_eq!((code, err.as_str()), (0, ""));
    assert_eq!(
        out,
        "fb5992f65c07f9335995f43fd791d39012ad466717729e61045c297507054f3d\n"
    );
    let (code, out, _) = sh(&["hash", "--params=legacy", "--field", "fp"]);
    assert_eq!(code, 0);
    assert_eq!(
        out,
        "1b3251b6912d82edc78bbb0a5c88f0c6fde1781bc3e654123fa6862a4c63e617\n"
    );
}

#[test]
fn hash_in_fq_and_permute_agree_with_the_library() {
    use poseidon::{encoding, Fq, ParamSet};
    let x: Fq = encoding::from_hex(X).unwrap();
    let (code, out, _) = sh(&["hash", "--field", "fq", X]);
    assert_eq!(code, 0);
    assert_eq!(
        out.trim(),
        encoding::to_hex(poseidon::hash(ParamSet::Kimchi, &[x]))
    );
    let (code, out, _) = sh(&["permute", "--field", "fq", X, X, X]);
    assert_eq!(code, 0);
    let mut s = [x; 3];
    poseidon::permute(ParamSet::Kimchi, &mut s);
    let want: Vec<String> = s.iter().map(|e| encoding::to_hex(*e)).collect();
    assert_eq!(out.lines().collect::<Vec<_>>(), want);
}

#[test]
fn check_published_files() {
    let (code, out, _) = sh(&["check", "tests/data/kimchi.json", "tests/data/legacy.json"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("ok    tests/data/kimchi.json: kimchi (6 vectors)"));
    assert!(out.ends_with("12 passed, 0 failed\n"), "{out}");
}

#[test]
fn check_reports_failures_and_malformed_files() {
    let (code, out, _) = sh(&[
        "check",
        "tests/data/kimchi.json",
        "tests/data/bad/wrong-output.json",
        "tests/data/bad/non-canonical.json",
        "tests/data/bad/unknown-name.json",
        "tests/data/bad/not-json.json",
        "tests/data/bad/odd-hex.json",
        "tests/data/no-such-file.json",
    ]);
    assert_eq!(code, 1);
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines[0].starts_with("ok    tests/data/kimchi.json"));
    assert!(lines[1].starts_with("FAIL  tests/data/bad/wrong-output.json: kimchi (1 of 2"));
    assert!(lines[2].contains("vector 1: expected fa5992f6"));
    assert!(out.contains(
        "ERROR tests/data/bad/non-canonical.json: malformed vector 1: input[0]: not a canonical element of fp"
    ));
    assert!(out
        .contains("ERROR tests/data/bad/unknown-name.json: unknown vector set name \"kimchi-fr\""));
    assert!(out.contains("ERROR tests/data/bad/not-json.json: not a vector file"));
    assert!(
        out.contains("ERROR tests/data/bad/odd-hex.json: malformed vector 0: input[0]: odd number")
    );
    assert!(out.contains("ERROR tests/data/no-such-file.json: cannot read"));
    // 6 + 1 passing vectors; 1 mismatch and 5 unusable files.
    assert!(out.ends_with("7 passed, 6 failed\n"), "{out}");
}

#[test]
fn bad_input_is_a_message_and_status_2() {
    let p = "01000000ed302d991bf94c09fc98462200000000000000000000000000000040";
    let cases: [(&[&str], &str); 10] = [
        (&["hash", p], "element 1 (\"0100"),
        (&["hash", p], "not a canonical element of fp"),
        (&["hash", "abc"], "odd number of hex digits (3)"),
        (
            &["hash", "--params", "poseidon2"],
            "unknown parameter set \"poseidon2\"",
        ),
        (&["hash", "--field"], "--field needs a value"),
        (&["hash", "--field", "fr"], "unknown field \"fr\""),
        (&["hash", "--fast"], "unknown option --fast"),
        (&["permute", X], "exactly 3 elements, got 1"),
        (&["frobnicate"], "unknown command \"frobnicate\""),
        (&["check"], "check needs at least one FILE"),
    ];
    for (args, words) in cases {
        let (code, out, err) = sh(args);
        assert_eq!(code, 2, "{args:?}");
        assert_eq!(out, "", "{args:?}");
        assert!(err.starts_with("poseidon: "), "{err}");
        assert!(err.contains(words), "{args:?}: {err} lacks {words:?}");
    }
    let (code, _, err) = sh(&[]);
    assert_eq!(code, 2);
    assert!(err.contains("missing command"));
}

#[test]
fn every_backend_checks_the_vectors_and_agrees() {
    let (code, listed, _) = sh(&["backends"]);
    assert_eq!(code, 0);
    let mut listed: Vec<&str> = listed.lines().collect();
    assert_eq!(listed[0], poseidon::DEFAULT_BACKEND.0, "the default first");
    listed.sort_unstable();
    let mut names = poseidon::backend::NAMES.to_vec();
    names.sort_unstable();
    assert_eq!(listed, names);
    for &backend in poseidon::backend::NAMES {
        let (code, out, _) = sh(&[
            "check",
            "--backend",
            backend,
            "tests/data/kimchi.json",
            "tests/data/legacy.json",
        ]);
        assert_eq!(code, 0, "{backend}: {out}");
        assert!(out.ends_with("12 passed, 0 failed\n"), "{out}");
        let (code, out, _) = sh(&["permute", "--field=fq", "--backend", backend, X, X, X]);
        assert_eq!(code, 0);
        let (_, want, _) = sh(&["permute", "--field=fq", "--backend", "reference", X, X, X]);
        assert_eq!(out, want, "{backend}");
    }
    let (code, _, err) = sh(&["hash", "--backend", "u65"]);
    assert_eq!(code, 2);
    assert!(err.contains("unknown backend \"u65\""), "{err}");
    let (code, _, err) = sh(&["check", "--params", "legacy", "tests/data/kimchi.json"]);
    assert_eq!(code, 2);
    assert!(err.contains("check takes no --params"), "{err}");
}

#[test]
fn help_and_version() {
    let (code, out, _) = sh(&["--help"]);
    assert_eq!(code, 0);
    assert!(out.contains("poseidon check   [--backend NAME] FILE..."));
    let (code, out, _) = sh(&["--version"]);
    assert_eq!(code, 0);
    assert!(out.starts_with("poseidon 0."));
}
