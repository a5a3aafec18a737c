//! Counted work per benchmark iteration (`counts.json`, written by `cargo xtask
//! counts`, which measures): its rows, its table, and how it sits beside the times.
//! Exact and the same on every machine for the same binaries and key.
//!
//! Three counts per benchmark ID of the count program (`bench/examples/count.rs`):
//! - `native_instructions`: x86 instructions executed natively (callgrind's `Ir`
//!   of the dump between the two `sched_yield` markers);
//! - `wasm_operators`: Wasm operators executed (wasmtime's fuel, through the PyPI
//!   package: `scripts/wasm-count.py fuel`);
//! - `wasmtime_instructions`: x86 instructions executed in wasmtime's compiled code
//!   (a module precompiled for a pinned target and flag set, run under callgrind;
//!   only the anonymous code mapping counts, so the host's Python and C API, whose
//!   counts drift by a few hundred instructions from run to run, stay out).
//!
//! Each runs K and 2K iterations; the count per iteration is the difference over K.
//! Branch-free code divides exactly; a mean is kept, marked, when it does not.

use std::collections::BTreeMap;
use std::path::Path;

use serde_json::{json, Map, Value};
use sha2::{Digest, Sha256};

/// What is counted, in the order of the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Kind {
    /// x86 instructions natively (callgrind).
    Native,
    /// Wasm operators (wasmtime fuel).
    WasmOperators,
    /// x86 instructions of wasmtime's compiled code (callgrind).
    Wasmtime,
}

impl Kind {
    /// Every kind.
    pub const ALL: [Kind; 3] = [Kind::Native, Kind::WasmOperators, Kind::Wasmtime];

    /// The JSON field.
    pub fn field(self) -> &'static str {
        match self {
            Kind::Native => "native_instructions",
            Kind::WasmOperators => "wasm_operators",
            Kind::Wasmtime => "wasmtime_instructions",
        }
    }

    /// The column title.
    pub fn title(self) -> &'static str {
        match self {
            Kind::Native => "x86 instr (native)",
            Kind::WasmOperators => "wasm operators",
            Kind::Wasmtime => "x86 instr (wasmtime)",
        }
    }

    /// What one unit is, for `report.json`.
    pub fn unit(self) -> &'static str {
        match self {
            Kind::Native => "x86 instruction executed natively (callgrind Ir)",
            Kind::WasmOperators => "Wasm operator executed (wasmtime fuel)",
            Kind::Wasmtime => {
                "x86 instruction executed in wasmtime's compiled code (callgrind Ir, precompiled module, pinned Cranelift target flags)"
            }
        }
    }

    fn from_field(s: &str) -> Option<Kind> {
        Kind::ALL.into_iter().find(|k| k.field() == s)
    }
}

/// One count per iteration.
#[derive(Clone, Debug, PartialEq)]
pub enum Count {
    /// The difference divided exactly.
    Exact(u64),
    /// It did not (data-dependent code): the mean over the K extra iterations.
    Mean(f64),
    /// The path did not run under this tool (and why); never a number.
    Missing(String),
}

impl Count {
    /// From the counts at K and 2K iterations.
    pub fn per_iteration(at_k: u64, at_2k: u64, k: u64) -> Result<Count, String> {
        if k == 0 || at_2k < at_k {
            return Err(format!(
                "count at 2K ({at_2k}) below the count at K ({at_k}), K = {k}"
            ));
        }
        let d = at_2k - at_k;
        Ok(if d.is_multiple_of(k) {
            Count::Exact(d / k)
        } else {
            Count::Mean(d as f64 / k as f64)
        })
    }

    /// The number, if there is one.
    pub fn value(&self) -> Option<f64> {
        match self {
            Count::Exact(n) => Some(*n as f64),
            Count::Mean(m) => Some(*m),
            Count::Missing(_) => None,
        }
    }

    fn to_json(&self) -> Value {
        match self {
            Count::Exact(n) => json!(n),
            Count::Mean(m) => json!(m),
            Count::Missing(_) => Value::Null,
        }
    }

    fn text(&self) -> String {
        match self {
            Count::Exact(n) => n.to_string(),
            Count::Mean(m) => format!("{m:.3} (mean)"),
            Count::Missing(_) => "missing".into(),
        }
    }
}

/// One benchmark ID's counts.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// Benchmark ID, as criterion names it.
    pub id: String,
    /// One count per kind that was asked for.
    pub counts: BTreeMap<Kind, Count>,
}

impl Row {
    /// The count of one kind, if measured.
    pub fn get(&self, k: Kind) -> Option<f64> {
        self.counts.get(&k).and_then(Count::value)
    }
}

/// SHA-256 of the sources the count program is built from (paths and contents,
/// sorted): Cargo manifests and lock, `.cargo/config.toml`, `poseidon/` (without
/// its tests) and the count program with its shared inputs.
pub fn source_sha256(root: &Path) -> Result<String, String> {
    let mut files = Vec::new();
    for f in [
        "Cargo.toml",
        "Cargo.lock",
        ".cargo/config.toml",
        "poseidon/Cargo.toml",
        "poseidon/build.rs",
        "bench/Cargo.toml",
    ] {
        if root.join(f).is_file() {
            files.push(f.to_owned());
        }
    }
    for dir in ["poseidon/src", "bench/examples", "bench/benches/fixed"] {
        let mut stack = vec![root.join(dir)];
        while let Some(d) = stack.pop() {
            let entries = std::fs::read_dir(&d).map_err(|e| format!("{}: {e}", d.display()))?;
            for e in entries {
                let p = e.map_err(|e| format!("{}: {e}", d.display()))?.path();
                if p.is_dir() {
                    stack.push(p);
                } else if let Ok(rel) = p.strip_prefix(root) {
                    files.push(rel.to_string_lossy().into_owned());
                }
            }
        }
    }
    files.sort();
    let mut h = Sha256::new();
    for f in &files {
        let bytes = std::fs::read(root.join(f)).map_err(|e| format!("{f}: {e}"))?;
        h.update(f.as_bytes());
        h.update([0]);
        h.update((bytes.len() as u64).to_le_bytes());
        h.update(&bytes);
    }
    Ok(format!("{:x}", h.finalize()))
}

/// SHA-256 of a file, hex.
pub fn file_sha256(path: &Path) -> Result<String, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(format!("{:x}", Sha256::digest(&bytes)))
}

/// `counts.json`: the key and one entry per ID with the count ratios.
pub fn counts_json(key: &BTreeMap<String, String>, rows: &[Row]) -> Value {
    let entries: Vec<Value> = rows
        .iter()
        .map(|r| {
            let mut m = Map::new();
            m.insert("id".into(), json!(r.id));
            let mut means = Vec::new();
            let mut missing = Map::new();
            for (k, c) in &r.counts {
                m.insert(k.field().into(), c.to_json());
                match c {
                    Count::Mean(_) => means.push(k.field()),
                    Count::Missing(why) => {
                        missing.insert(k.field().into(), json!(why));
                    }
                    Count::Exact(_) => {}
                }
            }
            let n = r.get(Kind::Native);
            for (k, name) in [
                (Kind::WasmOperators, "wasm_operators_over_native"),
                (Kind::Wasmtime, "wasmtime_over_native"),
            ] {
                if let (Some(a), Some(b)) = (r.get(k), n) {
                    m.insert(name.into(), json!(a / b));
                }
            }
            if !means.is_empty() {
                m.insert("means".into(), json!(means));
            }
            if !missing.is_empty() {
                m.insert("missing".into(), Value::Object(missing));
            }
            Value::Object(m)
        })
        .collect();
    let units: Map<String, Value> = Kind::ALL
        .iter()
        .map(|k| (k.field().to_owned(), json!(k.unit())))
        .collect();
    json!({"key": key, "units": units, "counts": entries})
}

/// The rows of a `counts.json` (or of a report's `counts` section).
pub fn rows_of(counts: &Value) -> Result<Vec<Row>, String> {
    let list = counts
        .get("counts")
        .and_then(Value::as_array)
        .ok_or("no \"counts\" list")?;
    list.iter()
        .map(|e| {
            let id = e
                .get("id")
                .and_then(Value::as_str)
                .ok_or("a count without \"id\"")?;
            let obj = e.as_object().ok_or("a count that is not an object")?;
            let means: Vec<&str> = e
                .get("means")
                .and_then(Value::as_array)
                .map(|v| v.iter().filter_map(Value::as_str).collect())
                .unwrap_or_default();
            let mut counts = BTreeMap::new();
            for (field, v) in obj {
                let Some(kind) = Kind::from_field(field) else {
                    continue;
                };
                let c = match v {
                    Value::Null => Count::Missing(
                        e.pointer(&format!("/missing/{field}"))
                            .and_then(Value::as_str)
                            .unwrap_or("")
                            .to_owned(),
                    ),
                    v if means.contains(&field.as_str()) => {
                        Count::Mean(v.as_f64().ok_or(format!("{id}: {field} not a number"))?)
                    }
                    v => Count::Exact(
                        v.as_u64()
                            .ok_or(format!("{id}: {field} not a whole number"))?,
                    ),
                };
                counts.insert(kind, c);
            }
            Ok(Row {
                id: id.to_owned(),
                counts,
            })
        })
        .collect()
}

/// The kinds any of `rows` was asked for (measured or missing), in table order.
pub fn kinds_asked(rows: &[Row]) -> Vec<Kind> {
    Kind::ALL
        .into_iter()
        .filter(|k| rows.iter().any(|r| r.counts.contains_key(k)))
        .collect()
}

/// The counts as an aligned table with the Wasm/native count ratios.
pub fn counts_text(rows: &[Row]) -> String {
    let kinds = kinds_asked(rows);
    let mut header = vec!["benchmark (per iteration)".to_owned()];
    header.extend(kinds.iter().map(|k| k.title().to_owned()));
    for k in &kinds[..] {
        if *k != Kind::Native && kinds.contains(&Kind::Native) {
            header.push(match k {
                Kind::WasmOperators => "ops/instr".into(),
                _ => "wasmtime/native".into(),
            });
        }
    }
    let body: Vec<Vec<String>> = rows
        .iter()
        .map(|r| {
            let mut cells = vec![r.id.clone()];
            cells.extend(
                kinds
                    .iter()
                    .map(|k| r.counts.get(k).map_or("—".into(), Count::text)),
            );
            for k in &kinds {
                if *k != Kind::Native && kinds.contains(&Kind::Native) {
                    cells.push(match (r.get(*k), r.get(Kind::Native)) {
                        (Some(a), Some(b)) => format!("{:.2}×", a / b),
                        _ => "—".into(),
                    });
                }
            }
            cells
        })
        .collect();
    crate::align(&header, &body)
}

/// The differences between two keys, field by field.
pub fn key_differences(a: &Value, b: &Value) -> Vec<String> {
    let (empty_a, empty_b) = (Map::new(), Map::new());
    let a = a.as_object().unwrap_or(&empty_a);
    let b = b.as_object().unwrap_or(&empty_b);
    let mut names: Vec<&String> = a.keys().chain(b.keys()).collect();
    names.sort();
    names.dedup();
    names
        .into_iter()
        .filter(|n| a.get(*n) != b.get(*n))
        .map(|n| {
            let show = |v: Option<&Value>| v.map_or("(none)".into(), |v| v.to_string());
            format!("{n}: {} / {}", show(a.get(n)), show(b.get(n)))
        })
        .collect()
}

/// Which count a runtime's time is divided by: natively the x86 instructions; a
/// Wasm runtime running the simd128 module, the Wasm operators (and, under
/// wasmtime, the instructions of its compiled code). Other builds (wasmtime-wide)
/// run other code than was counted.
pub fn units_of(runtime: &str) -> &'static [Kind] {
    match runtime {
        "native" => &[Kind::Native],
        "wasmtime" => &[Kind::WasmOperators, Kind::Wasmtime],
        r if r.starts_with("node") || r == "chromium" || r == "jsc" => &[Kind::WasmOperators],
        _ => &[],
    }
}

/// Time per counted unit, ps: one (runtime, kind, ps) per time and count that exist.
pub fn per_unit(row: &Row, table: &crate::Table) -> Vec<(String, Kind, f64)> {
    let Some((_, cells)) = table.rows.iter().find(|(id, _)| *id == row.id) else {
        return Vec::new();
    };
    table
        .runtimes
        .iter()
        .zip(cells)
        .filter_map(|(rt, t)| Some((rt, (*t)?)))
        .flat_map(|(rt, t)| {
            units_of(rt)
                .iter()
                .filter_map(move |k| Some((rt.clone(), *k, t * 1e3 / row.get(*k)?)))
        })
        .collect()
}

/// The counts beside the times: the counts, the Wasm/native count ratio and the
/// time per counted unit for each runtime of the table.
pub fn beside_times(rows: &[Row], table: &crate::Table) -> String {
    let kinds: Vec<Kind> = Kind::ALL
        .into_iter()
        .filter(|k| rows.iter().any(|r| r.get(*k).is_some()))
        .collect();
    let mut columns: Vec<(String, Kind)> = Vec::new();
    for rt in &table.runtimes {
        for k in units_of(rt) {
            if kinds.contains(k) {
                columns.push((rt.clone(), *k));
            }
        }
    }
    let mut header = vec!["benchmark (per iteration)".to_owned()];
    header.extend(kinds.iter().map(|k| k.title().to_owned()));
    header.push("ops/instr".into());
    header.extend(columns.iter().map(|(rt, k)| {
        format!(
            "{rt} ps/{}",
            if *k == Kind::WasmOperators {
                "op"
            } else {
                "instr"
            }
        )
    }));
    let mut shown: Vec<&Row> = rows
        .iter()
        .filter(|r| table.rows.iter().any(|(id, _)| *id == r.id))
        .collect();
    shown.sort_by(|a, b| crate::compare_ids(&a.id, &b.id));
    let body: Vec<Vec<String>> = shown
        .into_iter()
        .map(|r| {
            let mut cells = vec![r.id.clone()];
            cells.extend(
                kinds
                    .iter()
                    .map(|k| r.counts.get(k).map_or("—".into(), Count::text)),
            );
            cells.push(match (r.get(Kind::WasmOperators), r.get(Kind::Native)) {
                (Some(a), Some(b)) => format!("{:.2}×", a / b),
                _ => "—".into(),
            });
            let units = per_unit(r, table);
            cells.extend(columns.iter().map(|(rt, k)| {
                units
                    .iter()
                    .find(|(r2, k2, _)| r2 == rt && k2 == k)
                    .map_or("—".into(), |(_, _, ps)| format!("{ps:.1}"))
            }));
            cells
        })
        .collect();
    if body.is_empty() {
        return String::new();
    }
    crate::align(&header, &body)
}

/// A report's `counts` section: the counts file with each entry's time per unit.
pub fn report_section(counts: &Value, rows: &[Row], table: &crate::Table) -> Value {
    let mut section = counts.clone();
    if let Some(list) = section.get_mut("counts").and_then(Value::as_array_mut) {
        for (entry, row) in list.iter_mut().zip(rows) {
            let units: Vec<Value> = per_unit(row, table)
                .into_iter()
                .map(|(rt, k, ps)| json!({"runtime": rt, "count": k.field(), "ps_per_unit": ps}))
                .collect();
            if !units.is_empty() {
                entry["time_per_unit"] = units.into();
            }
        }
    }
    section
}

/// What `bench-report compare` finds between two reports' counts.
#[derive(Debug, Default, PartialEq)]
pub struct CountComparison {
    /// The key fields that differ (empty: same key).
    pub key_differences: Vec<String>,
    /// IDs and kinds whose counts differ, as lines.
    pub differences: Vec<String>,
    /// Counts compared and equal.
    pub equal: usize,
}

impl CountComparison {
    /// A difference under the same key: the counts were not reproducible.
    pub fn is_error(&self) -> bool {
        self.key_differences.is_empty() && !self.differences.is_empty()
    }
}

/// Compares the counts of two reports (or counts files).
pub fn compare_counts(a: &Value, b: &Value) -> Result<CountComparison, String> {
    let key_differences = key_differences(&a["key"], &b["key"]);
    let (ra, rb) = (rows_of(a)?, rows_of(b)?);
    let mut out = CountComparison {
        key_differences,
        ..Default::default()
    };
    for x in &ra {
        let Some(y) = rb.iter().find(|y| y.id == x.id) else {
            continue;
        };
        for (k, cx) in &x.counts {
            let Some(cy) = y.counts.get(k) else { continue };
            match (cx.value(), cy.value()) {
                (Some(p), Some(q)) if p == q => out.equal += 1,
                (Some(p), Some(q)) => out.differences.push(format!(
                    "{} {}: {} / {} ({:.4}×)",
                    x.id,
                    k.field(),
                    cx.text(),
                    cy.text(),
                    q / p
                )),
                (None, None) => {}
                _ => out.differences.push(format!(
                    "{} {}: {} / {}",
                    x.id,
                    k.field(),
                    cx.text(),
                    cy.text()
                )),
            }
        }
    }
    Ok(out)
}
