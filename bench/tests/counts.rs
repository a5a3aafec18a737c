//! The counts' arithmetic and files: per-iteration counts,
//! counts.json, the table beside the times and the comparison of two reports.

use poseidon_benches::counts::{
    beside_times, compare_counts, counts_json, per_unit, rows_of, Count, Kind, Row,
};
use poseidon_benches::Table;
use serde_json::json;
use std::collections::BTreeMap;

fn row(id: &str, counts: &[(Kind, Count)]) -> Row {
    Row {
        id: id.into(),
        counts: counts.iter().cloned().collect(),
    }
}

#[test]
fn per_iteration_divides_exactly_or_says_it_is_a_mean() {
    assert_eq!(
        Count::per_iteration(1_000, 1_000 + 20 * 439_944, 20),
        Ok(Count::Exact(439_944))
    );
    assert_eq!(Count::per_iteration(7, 7, 5), Ok(Count::Exact(0)));
    assert_eq!(
        Count::per_iteration(100, 100 + 2001, 2000),
        Ok(Count::Mean(1.0005))
    );
    // Fewer at 2K than at K, or no iterations: the window is wrong, never a number.
    assert!(Count::per_iteration(10, 9, 1).is_err());
    assert!(Count::per_iteration(1, 2, 0).is_err());
}

fn sample() -> Vec<Row> {
    vec![
        row(
            "Poseidon/permutation/u29",
            &[
                (Kind::Native, Count::Exact(440_000)),
                (Kind::WasmOperators, Count::Exact(580_000)),
                (Kind::Wasmtime, Count::Exact(430_000)),
            ],
        ),
        row(
            "Field/square/reference",
            &[
                (Kind::Native, Count::Mean(200.5)),
                (Kind::WasmOperators, Count::Exact(1000)),
                (Kind::Wasmtime, Count::Mean(764.25)),
            ],
        ),
        row(
            "Field/mul/u52",
            &[
                (Kind::Native, Count::Missing("no IFMA here".into())),
                (
                    Kind::WasmOperators,
                    Count::Missing("no IFMA in wasm".into()),
                ),
            ],
        ),
    ]
}

fn key() -> BTreeMap<String, String> {
    [("rustc", "rustc 1.95.0"), ("valgrind", "valgrind-3.19.0")]
        .into_iter()
        .map(|(k, v)| (k.to_owned(), v.to_owned()))
        .collect()
}

#[test]
fn counts_json_round_trips_exact_means_and_missing() {
    let rows = sample();
    let j = counts_json(&key(), &rows);
    assert_eq!(j["key"]["rustc"], "rustc 1.95.0");
    let p = &j["counts"][0];
    assert_eq!(p["native_instructions"], 440_000);
    assert_eq!(
        p["wasm_operators_over_native"],
        json!(580_000.0 / 440_000.0)
    );
    assert_eq!(
        j["counts"][1]["means"],
        json!(["native_instructions", "wasmtime_instructions"])
    );
    // Missing is null with its reason, never a number.
    assert_eq!(j["counts"][2]["native_instructions"], json!(null));
    assert_eq!(
        j["counts"][2]["missing"]["wasm_operators"],
        "no IFMA in wasm"
    );
    assert!(j["counts"][2].get("wasm_operators_over_native").is_none());
    assert_eq!(rows_of(&j).unwrap(), rows);
    assert!(rows_of(&json!({"counts": [{"id": "x", "wasm_operators": 1.5}]})).is_err());
}

fn table() -> Table {
    Table {
        runtimes: vec![
            "native".into(),
            "wasmtime".into(),
            "node24".into(),
            "wasmtime-wide".into(),
        ],
        rows: vec![
            (
                "Field/square/reference".into(),
                vec![Some(40.1), Some(120.0), None, Some(1.0)],
            ),
            (
                "Poseidon/permutation/u29".into(),
                vec![Some(22_000.0), Some(23_200.0), Some(29_000.0), Some(9.0)],
            ),
        ],
    }
}

#[test]
fn time_per_unit_divides_each_runtimes_time_by_its_own_count() {
    let rows = sample();
    let u = per_unit(&rows[0], &table());
    let ps = |rt: &str, k: Kind| u.iter().find(|(r, kk, _)| r == rt && *kk == k).map(|x| x.2);
    assert_eq!(ps("native", Kind::Native), Some(22_000.0 * 1e3 / 440_000.0));
    assert_eq!(
        ps("wasmtime", Kind::WasmOperators),
        Some(23_200.0 * 1e3 / 580_000.0)
    );
    assert_eq!(
        ps("wasmtime", Kind::Wasmtime),
        Some(23_200.0 * 1e3 / 430_000.0)
    );
    assert_eq!(
        ps("node24", Kind::WasmOperators),
        Some(29_000.0 * 1e3 / 580_000.0)
    );
    // The wide build runs other code than was counted; node24 has no time here.
    assert_eq!(u.len(), 4);
    assert!(per_unit(&rows[1], &table())
        .iter()
        .all(|(r, _, _)| r != "node24"));
    assert!(per_unit(&rows[2], &table()).is_empty());
}

#[test]
fn the_table_beside_the_times_has_the_counts_ratios_and_times_per_unit() {
    let text = beside_times(&sample(), &table());
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3, "{text}");
    assert!(lines[0].contains("ops/instr") && lines[0].contains("node24 ps/op"));
    assert!(lines[0].contains("wasmtime ps/instr"));
    // Rows in the time table's order; u52 has no time, so no row.
    assert!(lines[1].starts_with("Field/square/reference"));
    assert!(lines[1].contains("200.500 (mean)") && lines[1].contains("4.99×"));
    assert!(lines[2].starts_with("Poseidon/permutation/u29"));
    assert!(
        lines[2].contains("1.32×") && lines[2].contains("50.0"),
        "{text}"
    );
}

#[test]
fn comparing_counts_is_an_error_only_under_the_same_key() {
    let a = counts_json(&key(), &sample());
    let same = compare_counts(&a, &a).unwrap();
    assert_eq!(same.equal, 6);
    assert!(same.differences.is_empty() && !same.is_error());

    let mut changed = sample();
    changed[0]
        .counts
        .insert(Kind::WasmOperators, Count::Exact(580_001));
    let b = counts_json(&key(), &changed);
    let c = compare_counts(&a, &b).unwrap();
    assert!(c.is_error());
    assert_eq!(c.differences.len(), 1);
    assert!(c.differences[0].contains("Poseidon/permutation/u29 wasm_operators"));

    let mut other = key();
    other.insert("valgrind".into(), "valgrind-3.22.0".into());
    let d = compare_counts(&a, &counts_json(&other, &changed)).unwrap();
    assert!(!d.is_error());
    assert_eq!(
        d.key_differences,
        vec!["valgrind: \"valgrind-3.19.0\" / \"valgrind-3.22.0\""]
    );

    // A count missing on one side only is a difference too.
    let mut gone = sample();
    gone[0]
        .counts
        .insert(Kind::Native, Count::Missing("not run".into()));
    assert!(compare_counts(&a, &counts_json(&key(), &gone))
        .unwrap()
        .is_error());
}
