//! The comparison report: reading criterion's files, ordering, ratios, rendering.

use poseidon_benches::{compare_ids, format_ns, read_estimate, report_json, Estimate, Table};

fn benchmark_json(id: &str) -> String {
    format!(
        r#"{{"group_id":"G","function_id":"f","value_str":null,"throughput":null,"full_id":"{id}","directory_name":"{id}","title":"{id}"}}"#
    )
}

fn estimates_json(median: f64, low: f64, high: f64) -> String {
    let ci = |p: f64| {
        format!(
            r#"{{"confidence_interval":{{"confidence_level":0.95,"lower_bound":{low},"upper_bound":{high}}},"point_estimate":{p},"standard_error":0.1}}"#
        )
    };
    format!(
        r#"{{"mean":{},"median":{},"std_dev":null}}"#,
        ci(median + 1.0),
        ci(median)
    )
}

fn est(id: &str, runtime: &str, median_ns: f64) -> Estimate {
    Estimate {
        id: id.into(),
        runtime: runtime.into(),
        median_ns,
        low_ns: median_ns,
        high_ns: median_ns,
    }
}

#[test]
fn reads_the_median_and_its_interval() {
    let e = read_estimate(
        &benchmark_json("Field/mul/reference"),
        &estimates_json(19.5, 19.0, 20.0),
        "native",
    )
    .unwrap();
    assert_eq!(
        e,
        Estimate {
            id: "Field/mul/reference".into(),
            runtime: "native".into(),
            median_ns: 19.5,
            low_ns: 19.0,
            high_ns: 20.0
        }
    );
    assert!(read_estimate("{}", &estimates_json(1.0, 1.0, 1.0), "x")
        .unwrap_err()
        .contains("full_id"));
    assert!(read_estimate(&benchmark_json("a"), r#"{"mean":{}}"#, "x")
        .unwrap_err()
        .contains("median.point_estimate"));
}

#[test]
fn ids_sort_numbers_numerically() {
    let mut ids = vec![
        "P/hash/r/128",
        "P/hash/r/16",
        "P/hash/r/2",
        "F/mul/r",
        "P/hash/q/2",
    ];
    ids.sort_by(|a, b| compare_ids(a, b));
    assert_eq!(
        ids,
        [
            "F/mul/r",
            "P/hash/q/2",
            "P/hash/r/2",
            "P/hash/r/16",
            "P/hash/r/128"
        ]
    );
}

#[test]
fn units_keep_three_digits() {
    assert_eq!(format_ns(19.138), "19.1 ns");
    assert_eq!(format_ns(950.0), "950 ns");
    assert_eq!(format_ns(26_040.0), "26.0 µs");
    assert_eq!(format_ns(1_234_567.0), "1.23 ms");
    assert_eq!(format_ns(2.5e9), "2.50 s");
}

#[test]
fn table_has_ratios_and_gaps() {
    let results = [
        est("P/permutation/reference", "native", 26_000.0),
        est("P/permutation/reference", "wasmtime", 91_000.0),
        est("F/mul/reference", "wasmtime", 75.0),
    ];
    let runtimes = ["native".to_string(), "wasmtime".to_string()];
    let t = Table::new(&results, &runtimes);
    assert_eq!(t.rows.len(), 2);
    assert_eq!(t.rows[0].0, "F/mul/reference");
    assert_eq!(Table::ratio(&t.rows[1].1, 1), Some(3.5));
    assert_eq!(Table::ratio(&t.rows[0].1, 1), None);
    let text = t.to_text();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[0].split_whitespace().collect::<Vec<_>>(),
        [
            "benchmark",
            "native",
            "(median)",
            "wasmtime",
            "(median)",
            "wasmtime/native"
        ]
    );
    assert!(lines[1].starts_with("F/mul/reference") && lines[1].contains('—'));
    assert!(lines[2].ends_with("3.50×"), "{}", lines[2]);
    // Columns line up: every line is as wide as the header.
    let w = |s: &str| s.chars().count();
    assert_eq!(w(lines[2]), w(lines[0]));
    let md = t.to_markdown();
    assert!(md.starts_with("| benchmark | native (median) | wasmtime (median) | wasmtime/native |\n| --- | --- | --- | --- |\n"));
    assert!(md.contains("| P/permutation/reference | 26.0 µs | 91.0 µs | 3.50× |"));

    let env = [("cpu".to_string(), "test cpu".to_string())];
    let j = report_json(&env, &results, &t);
    assert_eq!(j["env"]["cpu"], "test cpu");
    assert_eq!(j["results"].as_array().unwrap().len(), 3);
    assert_eq!(j["results"][1]["runtime"], "wasmtime");
    assert_eq!(j["results"][1]["median_ns"], 91_000.0);
    assert_eq!(j["ratios"][0]["ratio"], 3.5);
    assert_eq!(j["ratios"].as_array().unwrap().len(), 1);
}

/// One saved baseline as criterion writes it: `<root>/<id>/<runtime>/{benchmark,estimates}.json`.
#[cfg(not(target_os = "wasi"))]
fn write_baseline(root: &std::path::Path, id: &str, runtime: &str, median: f64) {
    let d = root.join(id).join(runtime);
    std::fs::create_dir_all(&d).unwrap();
    std::fs::write(d.join("benchmark.json"), benchmark_json(id)).unwrap();
    std::fs::write(
        d.join("estimates.json"),
        estimates_json(median, median, median),
    )
    .unwrap();
}

/// Reads a real directory tree; skipped under WASI, whose sandbox has no temp dir.
#[cfg(not(target_os = "wasi"))]
#[test]
fn collects_fresh_baselines_from_a_tree() {
    use std::time::{Duration, SystemTime};
    let root = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("report-tree");
    let _ = std::fs::remove_dir_all(&root);
    for (id, rt, m) in [
        ("G/a/x", "native", 10.0),
        ("G/a/x", "wasmtime", 30.0),
        ("G/b/2", "native", 5.0),
        ("G/b/2", "other", 1.0),
    ] {
        write_baseline(&root, id, rt, m);
    }
    let runtimes = ["native".to_string(), "wasmtime".to_string()];
    let all = poseidon_benches::collect(&root, &runtimes, None).unwrap();
    let got: Vec<(&str, &str)> = all
        .iter()
        .map(|e| (e.id.as_str(), e.runtime.as_str()))
        .collect();
    assert_eq!(
        got,
        [
            ("G/a/x", "native"),
            ("G/a/x", "wasmtime"),
            ("G/b/2", "native")
        ]
    );
    let future = SystemTime::now() + Duration::from_secs(3600);
    assert!(poseidon_benches::collect(&root, &runtimes, Some(future))
        .unwrap()
        .is_empty());
    assert!(poseidon_benches::collect(&root.join("missing"), &runtimes, None).is_err());
}

#[test]
fn parity_divides_reference_by_upstream_per_runtime() {
    let rs = ["native".to_string(), "node24".to_string()];
    let results = [
        est("Poseidon/permutation/reference", "native", 18.0),
        est("Poseidon/permutation/upstream", "native", 20.0),
        est("Poseidon/permutation/reference", "node24", 66.0),
        est("Poseidon/permutation/upstream", "node24", 60.0),
        est("Poseidon/poseidon_hash_kimchi/reference", "native", 19.0),
        // No upstream row for the chain on node24: no figure there.
        est("Poseidon/poseidon_hash_kimchi/upstream", "native", 19.0),
        est("Poseidon/poseidon_hash_kimchi/reference", "node24", 70.0),
    ];
    let t = Table::new(&results, &rs);
    let p = poseidon_benches::parity(&t, "reference", "upstream");
    let got: Vec<(&str, &str, f64)> = p
        .iter()
        .map(|x| (x.workload.as_str(), x.runtime.as_str(), x.ratio))
        .collect();
    assert_eq!(
        got,
        [
            ("Poseidon/poseidon_hash_kimchi", "native", 1.0),
            ("Poseidon/permutation", "native", 0.9),
            ("Poseidon/permutation", "node24", 1.1),
        ]
    );
    let text = poseidon_benches::parity_text(&p, "reference", "upstream");
    assert_eq!(
        text,
        "reference / upstream, Poseidon/poseidon_hash_kimchi: native 1.00×\n\
         reference / upstream, Poseidon/permutation: native 0.90× · node24 1.10×\n"
    );
    assert!(poseidon_benches::parity(&t, "reference", "nobody").is_empty());
}

#[test]
fn upstream_own_pairs_with_the_lab_row() {
    let rs = ["native".to_string(), "wasmtime".to_string()];
    let lab = [
        est("Poseidon/poseidon_hash_kimchi/upstream", "native", 19.0),
        est("Poseidon/poseidon_hash_kimchi/upstream", "wasmtime", 63.0),
    ];
    let own = [
        est("Poseidon/poseidon_hash_kimchi", "native", 20.0),
        est("Poseidon/other", "wasmtime", 1.0),
    ];
    let t = Table::new(&lab, &rs);
    assert_eq!(
        poseidon_benches::upstream_own(&own, &t),
        [("native".to_string(), 20.0, 19.0)]
    );
}

#[test]
fn runtimes_sort_native_wasmtime_then_nodes_by_version() {
    let mut v = ["node26", "other", "node8", "wasmtime", "node24", "native"];
    v.sort_by_key(|r| poseidon_benches::runtime_order(r));
    assert_eq!(
        v,
        ["native", "wasmtime", "node8", "node24", "node26", "other"]
    );
}

#[cfg(not(target_os = "wasi"))]
#[test]
fn discovers_saved_runtimes_but_not_criterion_own_baselines() {
    let root = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("report-discover");
    let _ = std::fs::remove_dir_all(&root);
    for (id, rt) in [
        ("G/a", "node24"),
        ("G/a", "native"),
        ("G/a", "new"),
        ("G/b", "base"),
        ("G/b", "node20"),
    ] {
        write_baseline(&root, id, rt, 1.0);
    }
    assert_eq!(
        poseidon_benches::discover_runtimes(&root).unwrap(),
        ["native", "node20", "node24"]
    );
}

#[test]
fn rounds_merge_into_the_median_of_their_medians() {
    assert_eq!(poseidon_benches::runtime_of("node24@2"), "node24");
    assert_eq!(poseidon_benches::runtime_of("native"), "native");
    assert_eq!(poseidon_benches::runtime_of("a@b"), "a@b");
    assert_eq!(poseidon_benches::runtime_of("a@"), "a@");
    let merged = poseidon_benches::merge_rounds(vec![
        est("G/a", "native", 30.0),
        est("G/a", "native", 10.0),
        est("G/a", "native", 20.0),
        est("G/a", "wasmtime", 5.0),
        est("G/a", "wasmtime", 7.0),
        est("G/b", "native", 1.0),
    ]);
    assert_eq!(
        merged,
        [
            est("G/a", "native", 20.0),
            est("G/a", "wasmtime", 6.0),
            est("G/b", "native", 1.0)
        ]
    );
}
