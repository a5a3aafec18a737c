//! The Bencher Metric Format: the JSON that `bencher run --adapter json` reads,
//! `{BENCHMARK: {MEASURE: {"value": N, "lower_value": N, "upper_value": N}}}`.
//! Latency (Bencher's built-in measure) in nanoseconds; the counts as custom
//! measures `instructions`, `wasm-operators` and `wasmtime-instructions`;
//! benchmarks named `RUNTIME/ID`, so that one Bencher testbed per machine keeps
//! every runtime's history.

use serde_json::{json, Map, Value};

use crate::ab::{metrics_of, Counts, Row};

/// Bencher's measure slug of a count.
pub fn measure_slug(metric: &str) -> &'static str {
    match metric {
        "native_instructions" => "instructions",
        "wasm_operators" => "wasm-operators",
        _ => "wasmtime-instructions",
    }
}

/// One side (`"base"` or `"head"`) of an A/B.
pub fn of_ab(rows: &[Row], counts: &Counts, side: &str) -> Value {
    let mut out = Map::new();
    for r in rows {
        let ns = if side == "base" { r.base_ns } else { r.head_ns };
        let mut measures = Map::new();
        measures.insert("latency".into(), json!({"value": ns}));
        for k in metrics_of(&r.runtime) {
            if let Some((b, h)) = counts.get(&r.workload).and_then(|c| c.get(k)) {
                let v = if side == "base" { b } else { h };
                measures.insert(measure_slug(k).into(), json!({"value": v}));
            }
        }
        out.insert(
            format!("{}/{}", r.runtime, r.workload),
            Value::Object(measures),
        );
    }
    Value::Object(out)
}

/// A `report.json`: every result's median with criterion's interval, and the
/// counts (from its `counts` section) on the runtimes that run the counted code.
pub fn of_report(report: &Value) -> Result<Value, String> {
    let results = report["results"]
        .as_array()
        .ok_or("not a report.json (no \"results\")")?;
    let counts = match &report["counts"] {
        Value::Object(_) => crate::counts::rows_of(&report["counts"])?,
        _ => Vec::new(),
    };
    let mut out = Map::new();
    for r in results {
        let Some((id, rt, ns)) = crate::result_fields(r) else {
            continue;
        };
        let mut m = Map::new();
        let mut latency = json!({"value": ns});
        if let (Some(lo), Some(hi)) = (r["low_ns"].as_f64(), r["high_ns"].as_f64()) {
            latency["lower_value"] = json!(lo);
            latency["upper_value"] = json!(hi);
        }
        m.insert("latency".into(), latency);
        if let Some(row) = counts.iter().find(|c| c.id == id) {
            for k in crate::counts::units_of(rt) {
                if let Some(v) = row.get(*k) {
                    m.insert(measure_slug(k.field()).into(), json!({"value": v}));
                }
            }
        }
        out.insert(format!("{rt}/{id}"), Value::Object(m));
    }
    Ok(Value::Object(out))
}

/// Whether `v` has the format's shape: an object of benchmarks, each an object of
/// measures (slugs: lowercase letters, digits, `-`), each an object with a number
/// `value` and optionally numbers `lower_value` ≤ value ≤ `upper_value`, nothing else.
pub fn validate(v: &Value) -> Result<(), String> {
    let benches = v.as_object().ok_or("not an object of benchmarks")?;
    if benches.is_empty() {
        return Err("no benchmark".into());
    }
    for (name, measures) in benches {
        let measures = measures
            .as_object()
            .ok_or(format!("{name}: not an object of measures"))?;
        if name.is_empty() || measures.is_empty() {
            return Err(format!("{name:?}: an empty name or no measure"));
        }
        for (slug, m) in measures {
            let slug_ok = !slug.is_empty()
                && slug
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
            let m = m
                .as_object()
                .ok_or(format!("{name} {slug}: not an object"))?;
            let num = |k: &str| {
                m.get(k).map(|x| {
                    x.as_f64()
                        .ok_or(format!("{name} {slug}: {k} is not a number"))
                })
            };
            let value = num("value").ok_or(format!("{name} {slug}: no value"))??;
            let lower = num("lower_value").transpose()?;
            let upper = num("upper_value").transpose()?;
            if !slug_ok
                || m.keys()
                    .any(|k| !["value", "lower_value", "upper_value"].contains(&k.as_str()))
                || lower.is_some_and(|l| l > value)
                || upper.is_some_and(|u| u < value)
            {
                return Err(format!(
                    "{name} {slug}: not a measure of the format ({m:?})"
                ));
            }
        }
    }
    Ok(())
}

/// `bench-report bmf --help`.
pub const USAGE: &str = "usage: bench-report bmf REPORT.json [--out FILE]
report.json in the Bencher Metric Format (for `bencher run --adapter json`):
printed, or written to FILE.";

/// `bench-report bmf`.
pub fn cli(args: &[String]) -> Result<bool, String> {
    let (mut input, mut out) = (None, None);
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "-h" | "--help" => return Err(String::new()),
            "--out" => out = Some(it.next().ok_or("--out needs a file")?.clone()),
            s if s.starts_with('-') => return Err(format!("unknown option {s}")),
            s => input = Some(s.to_owned()),
        }
    }
    let input = input.ok_or("a report.json is needed")?;
    let text = std::fs::read_to_string(&input).map_err(|e| format!("{input}: {e}"))?;
    let report: Value = serde_json::from_str(&text).map_err(|e| format!("{input}: {e}"))?;
    let bmf = of_report(&report).map_err(|e| format!("{input}: {e}"))?;
    validate(&bmf)?;
    let text = serde_json::to_string_pretty(&bmf).expect("JSON values serialise") + "\n";
    match out {
        Some(f) => std::fs::write(&f, text).map_err(|e| format!("{f}: {e}"))?,
        None => print!("{text}"),
    }
    Ok(true)
}
