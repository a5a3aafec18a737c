//! `bench-report merge`: the reports of several machines in one comparison.
//!
//! Each machine's `report.json` keeps its own file (as zkalc keeps one per
//! machine); the merge shows, per machine: the CPU and runtime versions, every
//! benchmark's median on every runtime with its ratio to native *on that machine*
//! (times of two machines are not comparable one by one; in-run ratios are), and
//! the counts where a machine has them.
//!
//! Counts are exact: the same binaries count the same on any machine. A count
//! depends on part of the counts' key only (the native instructions on the native
//! flags, the Wasm operators on the Wasm flags, wasmtime's instructions also on
//! Cranelift's flags), so machines whose key agrees on that part must report the
//! same number; a difference is an error (`disagreements`).

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{json, Value};

use crate::counts::{rows_of, Kind};
use crate::{compare_ids, format_ns, markdown, runtime_order};

/// The key fields each kind of count depends on.
pub fn key_fields(kind: Kind) -> &'static [&'static str] {
    const COMMON: [&str; 4] = ["rustc", "profile", "source_sha256", "cargo_lock_sha256"];
    match kind {
        Kind::Native => &[
            COMMON[0],
            COMMON[1],
            COMMON[2],
            COMMON[3],
            "rustflags",
            "valgrind",
        ],
        Kind::WasmOperators => &[
            COMMON[0],
            COMMON[1],
            COMMON[2],
            COMMON[3],
            "wasm_rustflags",
            "wasmtime_py",
        ],
        Kind::Wasmtime => &[
            COMMON[0],
            COMMON[1],
            COMMON[2],
            COMMON[3],
            "wasm_rustflags",
            "wasmtime_py",
            "cranelift",
            "valgrind",
        ],
    }
}

/// The merged comparison.
#[derive(Debug)]
pub struct Merged {
    /// The Markdown document (machines, times, counts).
    pub markdown: String,
    /// The same as JSON: `machines`, `times`, `counts`, `disagreements`.
    pub json: Value,
    /// Counts that differ between machines under the same key (an error).
    pub disagreements: Vec<String>,
}

fn env<'a>(report: &'a Value, k: &str) -> &'a str {
    report["env"][k].as_str().unwrap_or("—")
}

/// The runtimes a report measured, in the usual order.
fn runtimes(report: &Value) -> Vec<String> {
    let mut rts: Vec<String> = report["results"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|r| r["runtime"].as_str().map(str::to_owned))
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    rts.sort_by_key(|r| runtime_order(r));
    rts
}

/// The versions of a report's runtimes: wasmtime's, each Node's.
fn versions(report: &Value) -> String {
    runtimes(report)
        .iter()
        .filter(|rt| *rt != "native")
        .map(|rt| {
            let v = if rt.starts_with("wasmtime") {
                env(report, "wasmtime")
            } else {
                env(report, rt)
            };
            // "node v24.1.0 (V8 13.6…, node:wasi)": the version and V8's.
            format!("{rt}: {}", v.replace(", node:wasi)", ")"))
        })
        .collect::<Vec<_>>()
        .join("; ")
}

/// Merges `(label, report.json)` pairs, one per machine.
pub fn merge(machines: &[(String, Value)]) -> Result<Merged, String> {
    if machines.is_empty() {
        return Err("no report to merge".into());
    }
    let mut labels = BTreeSet::new();
    for (label, report) in machines {
        if !labels.insert(label) {
            return Err(format!("two reports are labelled {label}"));
        }
        if !report["results"].is_array() {
            return Err(format!("{label}: not a report.json (no \"results\")"));
        }
    }
    let mut md = String::from("# Every machine\n\n");

    // The machines.
    let header: Vec<String> = [
        "machine",
        "CPU",
        "cores",
        "OS",
        "runtimes",
        "rustc",
        "native flags",
        "date",
    ]
    .map(String::from)
    .to_vec();
    let rows: Vec<Vec<String>> = machines
        .iter()
        .map(|(label, r)| {
            vec![
                label.clone(),
                env(r, "cpu").to_owned(),
                env(r, "cores").to_owned(),
                env(r, "os").to_owned(),
                versions(r),
                env(r, "rustc").to_owned(),
                match env(r, "rustflags") {
                    "" => "none".to_owned(),
                    f => format!("`{f}`"),
                },
                env(r, "date").to_owned(),
            ]
        })
        .collect();
    md += &markdown(&header, &rows);
    let machines_json: Vec<Value> = machines
        .iter()
        .map(|(label, r)| json!({"machine": label, "env": r["env"], "runtimes": runtimes(r)}))
        .collect();

    // The times, with each machine's ratio to its own native run.
    let per: Vec<BTreeMap<(String, String), f64>> = machines
        .iter()
        .map(|(_, r)| crate::report_medians(r))
        .collect();
    let mut keys: Vec<(String, String)> = per
        .iter()
        .flat_map(|m| m.keys().cloned())
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    keys.sort_by(|a, b| {
        compare_ids(&a.0, &b.0).then(runtime_order(&a.1).cmp(&runtime_order(&b.1)))
    });
    let mut header = vec!["benchmark".to_owned(), "runtime".to_owned()];
    header.extend(machines.iter().map(|(l, _)| format!("{l} (× native)")));
    let mut rows = Vec::new();
    let mut times = Vec::new();
    for (id, rt) in &keys {
        let mut row = vec![id.clone(), rt.clone()];
        let mut cells = serde_json::Map::new();
        for ((label, _), m) in machines.iter().zip(&per) {
            let Some(t) = m.get(&(id.clone(), rt.clone())) else {
                row.push("—".into());
                continue;
            };
            let native = m.get(&(id.clone(), "native".to_owned()));
            let ratio = native.map(|n| t / n);
            row.push(match ratio {
                Some(x) if rt != "native" => format!("{} ({x:.2}×)", format_ns(*t)),
                _ => format_ns(*t),
            });
            cells.insert(label.clone(), json!({"median_ns": t, "over_native": ratio}));
        }
        rows.push(row);
        times.push(json!({"id": id, "runtime": rt, "machines": cells}));
    }
    md += "\n## Times\n\nMedian per iteration; in brackets, the ratio to native on the same machine (times of two machines are not comparable one by one, these ratios are).\n\n";
    md += &markdown(&header, &rows);

    // The counts, where machines have them, and their agreement.
    let mut counts = Vec::new();
    let mut disagreements = Vec::new();
    let mut rows = Vec::new();
    let counted: Vec<(&String, &Value, Vec<crate::counts::Row>)> = machines
        .iter()
        .filter(|(_, r)| r["counts"].is_object())
        .map(|(l, r)| {
            rows_of(&r["counts"])
                .map(|rows| (l, &r["counts"]["key"], rows))
                .map_err(|e| format!("{l}: counts: {e}"))
        })
        .collect::<Result<_, _>>()?;
    let ids: BTreeSet<&str> = counted
        .iter()
        .flat_map(|(_, _, rows)| rows.iter().map(|r| r.id.as_str()))
        .collect();
    let mut ids: Vec<&str> = ids.into_iter().collect();
    ids.sort_by(|a, b| compare_ids(a, b));
    for id in ids {
        for kind in Kind::ALL {
            // Machine → (the key's part this count depends on, the count).
            let mut got: Vec<(&String, Value, f64)> = Vec::new();
            for (label, key, rows) in &counted {
                let Some(v) = rows.iter().find(|r| r.id == id).and_then(|r| r.get(kind)) else {
                    continue;
                };
                let part: serde_json::Map<String, Value> = key_fields(kind)
                    .iter()
                    .map(|f| (f.to_string(), key[*f].clone()))
                    .collect();
                got.push((label, Value::Object(part), v));
            }
            if got.is_empty() {
                continue;
            }
            let mut agree = if got.len() > 1 {
                "different keys".to_owned()
            } else {
                "—".to_owned()
            };
            for (i, (la, ka, va)) in got.iter().enumerate() {
                for (lb, kb, vb) in &got[i + 1..] {
                    if ka == kb {
                        if va == vb {
                            agree = "equal under the same key".into();
                        } else {
                            disagreements.push(format!(
                                "{id} {}: {la} counts {va}, {lb} counts {vb} under the same key",
                                kind.field()
                            ));
                            agree = "DIFFER under the same key".into();
                        }
                    }
                }
            }
            let mut row = vec![id.to_owned(), kind.field().to_owned()];
            let mut cells = serde_json::Map::new();
            for (label, _) in machines {
                match got.iter().find(|(l, _, _)| *l == label) {
                    Some((_, _, v)) => {
                        row.push(format!("{v}"));
                        cells.insert(label.clone(), json!(v));
                    }
                    None => row.push("—".into()),
                }
            }
            row.push(agree);
            rows.push(row);
            counts.push(json!({"id": id, "count": kind.field(), "machines": cells}));
        }
    }
    if rows.is_empty() {
        md += "\n## Counts\n\nNo machine has counts (make counts, or `nix run .#counts`, before the benchmark puts them in report.json; they exist on x86-64 Linux).\n";
    } else {
        let mut header = vec!["benchmark".to_owned(), "count".to_owned()];
        header.extend(machines.iter().map(|(l, _)| l.clone()));
        header.push("machines with the same key".into());
        md += "\n## Counts\n\nExact work per iteration; machines whose key agrees on what a count depends on must count the same.\n\n";
        md += &markdown(&header, &rows);
    }
    for d in &disagreements {
        md += &format!("\n**Error:** {d}\n");
    }
    Ok(Merged {
        markdown: md,
        json: json!({
            "machines": machines_json,
            "times": times,
            "counts": counts,
            "disagreements": disagreements,
        }),
        disagreements,
    })
}
