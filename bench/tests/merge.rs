//! `bench-report merge` on two real reports of the same machine, one built for the
//! host's default CPU and one with `-C target-cpu=x86-64-v2` (both
//! `make counts` then `make bench` on the permutation's u29, u64 and u52 rows,
//! natively, under wasmtime and Node 24). Host only: it runs the command.
#![cfg(not(target_arch = "wasm32"))]

use std::process::Command;

use poseidon_benches::merge::merge;
use serde_json::Value;

const DEFAULT: &str = include_str!("data/merge/amd-epyc.json");
const V2: &str = include_str!("data/merge/amd-epyc-x86-64-v2.json");

fn report(name: &str) -> Value {
    let text = if name == "amd-epyc" { DEFAULT } else { V2 };
    serde_json::from_str(text).unwrap()
}

fn two() -> Vec<(String, Value)> {
    vec![
        ("default".to_owned(), report("amd-epyc")),
        ("x86-64-v2".to_owned(), report("amd-epyc-x86-64-v2")),
    ]
}

fn median(r: &Value, id: &str, rt: &str) -> f64 {
    r["results"]
        .as_array()
        .unwrap()
        .iter()
        .find(|x| x["id"] == id && x["runtime"] == rt)
        .unwrap()["median_ns"]
        .as_f64()
        .unwrap()
}

#[test]
fn every_machine_and_its_own_ratios_to_native() {
    let machines = two();
    let m = merge(&machines).unwrap();
    assert!(m.disagreements.is_empty(), "{:?}", m.disagreements);
    assert!(m.markdown.contains("| default | AMD EPYC | 2 |"));
    assert!(m.markdown.contains("`-C target-cpu=x86-64-v2`"));
    assert!(m
        .markdown
        .contains("node24: node v24.22.3 (V8 13.6.233.17-node.63)"));
    let times = m.json["times"].as_array().unwrap();
    // 3 benchmarks on 3 runtimes, both machines in each row.
    assert_eq!(times.len(), 9);
    for (label, r) in &machines {
        let id = "Poseidon/permutation/u29";
        let row = times
            .iter()
            .find(|t| t["id"] == id && t["runtime"] == "node24")
            .unwrap();
        let cell = &row["machines"][label];
        let want = median(r, id, "node24") / median(r, id, "native");
        assert!((cell["over_native"].as_f64().unwrap() - want).abs() < 1e-12);
        assert_eq!(cell["median_ns"].as_f64().unwrap(), median(r, id, "node24"));
    }
}

#[test]
fn counts_agree_where_the_keys_part_agrees() {
    let m = merge(&two()).unwrap();
    let counts = m.json["counts"].as_array().unwrap();
    // u29 and u64 counted in three kinds each (u52 has no counts: IFMA is not
    // run under valgrind).
    assert_eq!(counts.len(), 6);
    let line = |id: &str, kind: &str| {
        m.markdown
            .lines()
            .find(|l| l.starts_with(&format!("| {id} | {kind} |")))
            .unwrap()
            .to_owned()
    };
    // The Wasm counts depend on the Wasm flags only: the same key, equal counts.
    assert!(line("Poseidon/permutation/u29", "wasm_operators")
        .ends_with("| equal under the same key |"));
    assert!(line("Poseidon/permutation/u64", "wasmtime_instructions")
        .ends_with("| equal under the same key |"));
    // The native ones were built with other flags: other keys, nothing to agree on.
    assert!(line("Poseidon/permutation/u29", "native_instructions").ends_with("| different keys |"));
}

#[test]
fn a_count_that_differs_under_the_same_key_is_an_error() {
    let mut machines = two();
    let list = machines[1].1["counts"]["counts"].as_array_mut().unwrap();
    let u29 = list
        .iter_mut()
        .find(|c| c["id"] == "Poseidon/permutation/u29")
        .unwrap();
    u29["wasm_operators"] = (u29["wasm_operators"].as_u64().unwrap() + 1).into();
    let m = merge(&machines).unwrap();
    assert_eq!(m.disagreements.len(), 1, "{:?}", m.disagreements);
    assert!(m.disagreements[0].contains("Poseidon/permutation/u29 wasm_operators"));
    assert!(m.markdown.contains("DIFFER under the same key"));

    // Under another Wasm key the same difference is allowed.
    machines[1].1["counts"]["key"]["wasm_rustflags"] = "-C target-feature=-simd128".into();
    assert!(merge(&machines).unwrap().disagreements.is_empty());
}

#[test]
fn bad_input_is_refused() {
    let r = report("amd-epyc");
    let same = vec![("a".to_owned(), r.clone()), ("a".to_owned(), r)];
    assert!(merge(&same)
        .unwrap_err()
        .contains("two reports are labelled a"));
    let not_a_report = vec![("a".to_owned(), serde_json::json!({"counts": []}))];
    assert!(merge(&not_a_report)
        .unwrap_err()
        .contains("not a report.json"));
    assert!(merge(&[]).is_err());
}

#[test]
fn the_command_writes_both_files_and_fails_on_disagreement() {
    let dir = std::env::temp_dir().join(format!("merge-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (a, b) = (dir.join("a.json"), dir.join("b.json"));
    std::fs::write(&a, DEFAULT).unwrap();
    std::fs::write(&b, V2).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_bench-report"))
        .args(["merge", "--out"])
        .arg(&dir)
        .arg(format!("default={}", a.display()))
        .arg(format!("v2={}", b.display()))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let md = std::fs::read_to_string(dir.join("merged.md")).unwrap();
    let json: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("merged.json")).unwrap()).unwrap();
    assert!(md.contains("| v2 (× native) |"));
    assert_eq!(json["machines"].as_array().unwrap().len(), 2);

    let mut bad = report("amd-epyc-x86-64-v2");
    bad["counts"]["counts"][0]["wasm_operators"] = 1.into();
    let bad_file = dir.join("bad.json");
    std::fs::write(&bad_file, bad.to_string()).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_bench-report"))
        .args(["merge", "--out"])
        .arg(&dir)
        .arg(format!("default={}", a.display()))
        .arg(format!("bad={}", bad_file.display()))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let _ = std::fs::remove_dir_all(&dir);
}
