//! The side-by-side report: reads the baselines that criterion saved for each
//! runtime (`<criterion home>/<benchmark>/<runtime>/{benchmark,estimates}.json`),
//! and renders one table (time per runtime, ratio to the first runtime) as text,
//! Markdown and JSON. No other tool is needed; criterion's own files are the input.

use std::cmp::Ordering;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use serde_json::{json, Value};

pub mod ab;
pub mod bmf;
#[cfg(all(feature = "chart", not(target_arch = "wasm32")))]
pub mod chart;
pub mod counts;
pub mod merge;
pub mod per_mul;

/// One benchmark's median on one runtime, with criterion's 95% interval for it.
#[derive(Clone, Debug, PartialEq)]
pub struct Estimate {
    /// Criterion's full ID, e.g. `Poseidon/permutation/reference`.
    pub id: String,
    /// The runtime (baseline name), e.g. `native`, `wasmtime`.
    pub runtime: String,
    /// Median time per iteration, ns.
    pub median_ns: f64,
    /// Lower bound of the median's confidence interval, ns.
    pub low_ns: f64,
    /// Upper bound, ns.
    pub high_ns: f64,
}

fn num(v: &Value, path: &[&str]) -> Result<f64, String> {
    path.iter()
        .try_fold(v, |v, k| v.get(k))
        .and_then(Value::as_f64)
        .ok_or_else(|| format!("missing number {}", path.join(".")))
}

/// Reads one saved baseline from the text of its `benchmark.json` and `estimates.json`.
pub fn read_estimate(benchmark: &str, estimates: &str, runtime: &str) -> Result<Estimate, String> {
    let b: Value = serde_json::from_str(benchmark).map_err(|e| format!("benchmark.json: {e}"))?;
    let e: Value = serde_json::from_str(estimates).map_err(|e| format!("estimates.json: {e}"))?;
    let id = b
        .get("full_id")
        .and_then(Value::as_str)
        .ok_or("benchmark.json: missing full_id")?;
    Ok(Estimate {
        id: id.to_owned(),
        runtime: runtime.to_owned(),
        median_ns: num(&e, &["median", "point_estimate"])?,
        low_ns: num(&e, &["median", "confidence_interval", "lower_bound"])?,
        high_ns: num(&e, &["median", "confidence_interval", "upper_bound"])?,
    })
}

/// Finds every baseline named after one of `runtimes` under `dir`, skipping
/// those written before `since` (left over from earlier, possibly filtered, runs).
pub fn collect(
    dir: &Path,
    runtimes: &[String],
    since: Option<SystemTime>,
) -> Result<Vec<Estimate>, String> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let entries = std::fs::read_dir(&d).map_err(|e| format!("{}: {e}", d.display()))?;
        for entry in entries {
            let path = entry.map_err(|e| format!("{}: {e}", d.display()))?.path();
            if !path.is_dir() {
                continue;
            }
            let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
            let est = path.join("estimates.json");
            let runtime = runtime_of(name);
            if runtimes.iter().any(|r| r == runtime) && est.is_file() {
                let fresh = since.is_none_or(|t| {
                    est.metadata()
                        .and_then(|m| m.modified())
                        .is_ok_and(|m| m >= t)
                });
                if fresh {
                    let read = |f: &str| {
                        std::fs::read_to_string(path.join(f))
                            .map_err(|e| format!("{}: {e}", path.join(f).display()))
                    };
                    let e =
                        read_estimate(&read("benchmark.json")?, &read("estimates.json")?, runtime)
                            .map_err(|e| format!("{}: {e}", path.display()))?;
                    out.push(e);
                }
            } else {
                stack.push(path);
            }
        }
    }
    out.sort_by(|a, b| compare_ids(&a.id, &b.id).then_with(|| a.runtime.cmp(&b.runtime)));
    Ok(merge_rounds(out))
}

/// The runtime of a baseline name: `node24@2` (round 2 of a run with several
/// rounds, `BENCH_ROUNDS`) is `node24`.
pub fn runtime_of(baseline: &str) -> &str {
    match baseline.rsplit_once('@') {
        Some((rt, k)) if !k.is_empty() && k.bytes().all(|b| b.is_ascii_digit()) => rt,
        _ => baseline,
    }
}

/// The median of `v` (the mean of the middle two for an even count).
pub fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

/// One estimate per benchmark and runtime: with several rounds, the median of the
/// rounds' medians (and of their interval bounds); input sorted by id and runtime.
pub fn merge_rounds(sorted: Vec<Estimate>) -> Vec<Estimate> {
    let mid = median;
    let mut out: Vec<Estimate> = Vec::new();
    let mut group: Vec<Estimate> = Vec::new();
    let mut flush = |group: &mut Vec<Estimate>| {
        if let Some(first) = group.first() {
            out.push(Estimate {
                id: first.id.clone(),
                runtime: first.runtime.clone(),
                median_ns: mid(group.iter().map(|e| e.median_ns).collect()),
                low_ns: mid(group.iter().map(|e| e.low_ns).collect()),
                high_ns: mid(group.iter().map(|e| e.high_ns).collect()),
            });
        }
        group.clear();
    };
    for e in sorted {
        if group
            .first()
            .is_some_and(|g| g.id != e.id || g.runtime != e.runtime)
        {
            flush(&mut group);
        }
        group.push(e);
    }
    flush(&mut group);
    out
}

/// Orders IDs part by part, numbers numerically (`hash/x/2` < `hash/x/16`).
pub fn compare_ids(a: &str, b: &str) -> Ordering {
    let key = |s: &str| -> Vec<(u64, String)> {
        s.split('/')
            .map(|p| {
                p.parse::<u64>()
                    .map_or((u64::MAX, p.to_owned()), |n| (n, String::new()))
            })
            .collect()
    };
    key(a).cmp(&key(b))
}

/// Time with three significant digits and a unit.
pub fn format_ns(ns: f64) -> String {
    let (v, unit) = match ns {
        n if n < 1e3 => (n, "ns"),
        n if n < 1e6 => (n / 1e3, "µs"),
        n if n < 1e9 => (n / 1e6, "ms"),
        n => (n / 1e9, "s"),
    };
    let digits = if v >= 100.0 {
        0
    } else if v >= 10.0 {
        1
    } else {
        2
    };
    format!("{v:.digits$} {unit}")
}

/// The comparison: one row per benchmark, one column per runtime, and the ratio
/// of every other runtime to the first.
#[derive(Clone, Debug)]
pub struct Table {
    /// Runtimes, the first being the base of the ratios.
    pub runtimes: Vec<String>,
    /// (benchmark ID, median per runtime).
    pub rows: Vec<(String, Vec<Option<f64>>)>,
}

impl Table {
    /// Builds the table from collected estimates.
    pub fn new(results: &[Estimate], runtimes: &[String]) -> Table {
        let mut ids: Vec<&str> = results.iter().map(|e| e.id.as_str()).collect();
        ids.sort_by(|a, b| compare_ids(a, b));
        ids.dedup();
        let rows = ids
            .into_iter()
            .map(|id| {
                let cells = runtimes
                    .iter()
                    .map(|r| {
                        results
                            .iter()
                            .find(|e| e.id == id && &e.runtime == r)
                            .map(|e| e.median_ns)
                    })
                    .collect();
                (id.to_owned(), cells)
            })
            .collect();
        Table {
            runtimes: runtimes.to_vec(),
            rows,
        }
    }

    /// The median of benchmark `id` on runtime `k`, if measured.
    pub fn cell(&self, id: &str, k: usize) -> Option<f64> {
        self.rows
            .iter()
            .find(|(i, _)| i == id)
            .and_then(|(_, c)| c.get(k).copied().flatten())
    }

    /// Ratio of runtime `k` to the first runtime in a row, if both were measured.
    pub fn ratio(cells: &[Option<f64>], k: usize) -> Option<f64> {
        Some(cells.get(k).copied()?? / cells.first().copied()??)
    }

    fn header(&self) -> Vec<String> {
        let base = &self.runtimes[0];
        let mut h = vec!["benchmark".to_owned()];
        h.extend(self.runtimes.iter().map(|r| format!("{r} (median)")));
        h.extend(self.runtimes[1..].iter().map(|r| format!("{r}/{base}")));
        h
    }

    fn cells(&self) -> Vec<Vec<String>> {
        let dash = || "—".to_owned();
        self.rows
            .iter()
            .map(|(id, cells)| {
                let mut row = vec![id.clone()];
                row.extend(cells.iter().map(|c| c.map_or_else(dash, format_ns)));
                row.extend(
                    (1..cells.len())
                        .map(|k| Table::ratio(cells, k).map_or_else(dash, |r| format!("{r:.2}×"))),
                );
                row
            })
            .collect()
    }

    /// Aligned plain text, for the terminal.
    pub fn to_text(&self) -> String {
        align(&self.header(), &self.cells())
    }

    /// A Markdown table.
    pub fn to_markdown(&self) -> String {
        markdown(&self.header(), &self.cells())
    }
}

/// A Markdown table of a header and rows.
pub fn markdown(header: &[String], body: &[Vec<String>]) -> String {
    let mut out = format!("| {} |\n|", header.join(" | "));
    out += &" --- |".repeat(header.len());
    out.push('\n');
    for r in body {
        out += &format!("| {} |\n", r.join(" | "));
    }
    out
}

/// Columns aligned with two blanks between them: the first to the left, the rest
/// to the right (numbers).
pub fn align(header: &[String], body: &[Vec<String>]) -> String {
    let width = |c: usize| {
        body.iter()
            .map(|r| r.get(c).map_or(0, |s| s.chars().count()))
            .chain([header[c].chars().count()])
            .max()
            .unwrap_or(0)
    };
    let widths: Vec<usize> = (0..header.len()).map(width).collect();
    let line = |r: &[String]| {
        let cols: Vec<String> = r
            .iter()
            .zip(&widths)
            .enumerate()
            .map(|(i, (c, w))| {
                let pad = " ".repeat(w - c.chars().count());
                if i == 0 {
                    format!("{c}{pad}")
                } else {
                    format!("{pad}{c}")
                }
            })
            .collect();
        cols.join("  ").trim_end().to_owned()
    };
    let mut out = line(header) + "\n";
    for r in body {
        out += &line(r);
        out.push('\n');
    }
    out
}

/// `report.json`: the environment and every measurement, plus the ratios.
pub fn report_json(env: &[(String, String)], results: &[Estimate], table: &Table) -> Value {
    let env: serde_json::Map<String, Value> = env
        .iter()
        .map(|(k, v)| (k.clone(), Value::String(v.clone())))
        .collect();
    let results: Vec<Value> = results
        .iter()
        .map(|e| {
            json!({"id": e.id, "runtime": e.runtime, "median_ns": e.median_ns,
                   "low_ns": e.low_ns, "high_ns": e.high_ns})
        })
        .collect();
    let base = &table.runtimes[0];
    let ratios: Vec<Value> = table
        .rows
        .iter()
        .flat_map(|(id, cells)| {
            (1..cells.len()).filter_map(move |k| {
                Table::ratio(cells, k).map(|r| {
                    json!({"id": id, "runtime": table.runtimes[k], "relative_to": base, "ratio": r})
                })
            })
        })
        .collect();
    json!({"env": env, "results": results, "ratios": ratios})
}

/// The rows the parity lines compare: the hash chain (one permutation per
/// iteration, upstream's own workload) and the bare permutation.
pub const PARITY_IDS: [&str; 2] = ["Poseidon/poseidon_hash_kimchi", "Poseidon/permutation"];

/// One parity figure: `of` / `to` for a workload on a runtime, e.g. reference / upstream.
#[derive(Clone, Debug, PartialEq)]
pub struct Parity {
    /// Benchmark without the backend, e.g. `Poseidon/permutation`.
    pub workload: String,
    /// The runtime.
    pub runtime: String,
    /// `of`'s median over `to`'s.
    pub ratio: f64,
}

/// `of` / `to` (backend names) for each parity workload and runtime where both ran.
pub fn parity(table: &Table, of: &str, to: &str) -> Vec<Parity> {
    PARITY_IDS
        .iter()
        .flat_map(|w| {
            table
                .runtimes
                .iter()
                .enumerate()
                .filter_map(move |(k, rt)| {
                    let a = table.cell(&format!("{w}/{of}"), k)?;
                    let b = table.cell(&format!("{w}/{to}"), k)?;
                    Some(Parity {
                        workload: (*w).to_owned(),
                        runtime: rt.clone(),
                        ratio: a / b,
                    })
                })
        })
        .collect()
}

/// The parity figures as text, one line per workload.
pub fn parity_text(p: &[Parity], of: &str, to: &str) -> String {
    let mut out = String::new();
    for w in PARITY_IDS {
        let cells: Vec<String> = p
            .iter()
            .filter(|x| x.workload == w)
            .map(|x| format!("{} {:.2}×", x.runtime, x.ratio))
            .collect();
        if !cells.is_empty() {
            out += &format!("{of} / {to}, {w}: {}\n", cells.join(" · "));
        }
    }
    out
}

/// Upstream's own `poseidon_bench` (ID `Poseidon/poseidon_hash_kimchi`, saved under
/// its own criterion home) beside the lab's `Poseidon/poseidon_hash_kimchi/upstream`,
/// per runtime: (runtime, own median, the lab's median), where both ran.
pub fn upstream_own(own: &[Estimate], table: &Table) -> Vec<(String, f64, f64)> {
    let lab = table
        .rows
        .iter()
        .find(|(id, _)| id == "Poseidon/poseidon_hash_kimchi/upstream");
    table
        .runtimes
        .iter()
        .enumerate()
        .filter_map(|(k, rt)| {
            let o = own
                .iter()
                .find(|e| e.id == "Poseidon/poseidon_hash_kimchi" && &e.runtime == rt)?;
            Some((rt.clone(), o.median_ns, lab?.1[k]?))
        })
        .collect()
}

/// Baseline names criterion writes itself, never a runtime.
const NOT_RUNTIMES: [&str; 4] = ["base", "new", "change", "report"];

/// Every saved criterion baseline under `dir`: the directories that hold an
/// `estimates.json` (named for their baseline), found at any depth.
pub fn baseline_dirs(dir: &Path) -> Result<Vec<PathBuf>, String> {
    let mut found = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).map_err(|e| format!("{}: {e}", d.display()))? {
            let path = entry.map_err(|e| format!("{}: {e}", d.display()))?.path();
            if !path.is_dir() {
                continue;
            }
            if path.join("estimates.json").is_file() {
                found.push(path);
            } else {
                stack.push(path);
            }
        }
    }
    Ok(found)
}

/// A baseline directory's name (its baseline).
pub fn baseline_name(path: &Path) -> &str {
    path.file_name().and_then(|n| n.to_str()).unwrap_or("")
}

/// One result of `report.json`: its ID, runtime and median (ns), when all are there.
pub fn result_fields(r: &Value) -> Option<(&str, &str, f64)> {
    Some((
        r["id"].as_str()?,
        r["runtime"].as_str()?,
        r["median_ns"].as_f64()?,
    ))
}

/// A report's medians (ns) by `(id, runtime)`.
pub fn report_medians(report: &Value) -> std::collections::BTreeMap<(String, String), f64> {
    report["results"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(result_fields)
        .map(|(id, rt, ns)| ((id.to_owned(), rt.to_owned()), ns))
        .collect()
}

/// Every runtime that has a saved baseline under `dir`, in table order: native,
/// wasmtime, then Nodes by major version, then the rest by name.
pub fn discover_runtimes(dir: &Path) -> Result<Vec<String>, String> {
    let found: std::collections::BTreeSet<String> = baseline_dirs(dir)?
        .iter()
        .map(|p| baseline_name(p))
        .filter(|name| !NOT_RUNTIMES.contains(name))
        .map(|name| runtime_of(name).to_owned())
        .collect();
    let mut v: Vec<String> = found.into_iter().collect();
    v.sort_by_key(|r| runtime_order(r));
    Ok(v)
}

/// One wall-clock cross-check: what a bench binary timed itself
/// (`<criterion>/wall-clock/<baseline>`, lines `BENCHMARK NS`, written by the
/// wide-arithmetic build) against criterion's median for the same benchmark.
#[derive(Debug, Clone, PartialEq)]
pub struct WallClock {
    /// The runtime (from the baseline's name).
    pub runtime: String,
    /// Benchmark ID.
    pub id: String,
    /// The binary's own timing (median over the rounds' files), ns.
    pub wall_ns: f64,
    /// Criterion's median in the table, ns.
    pub criterion_ns: f64,
}

impl WallClock {
    /// criterion / wall clock.
    pub fn ratio(&self) -> f64 {
        self.criterion_ns / self.wall_ns
    }
    /// Whether the two agree within a factor of 2: looser than this machine's noise,
    /// tight enough to catch a miscompiled measurement (the garbage seen was 20–600×).
    pub fn agrees(&self) -> bool {
        (0.5..=2.0).contains(&self.ratio())
    }
}

/// The wall-clock files under `criterion/wall-clock` for the table's runtimes,
/// matched with the table's medians.
pub fn wall_clock(criterion: &Path, table: &Table) -> Result<Vec<WallClock>, String> {
    let dir = criterion.join("wall-clock");
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return Ok(Vec::new());
    };
    let mut times: std::collections::BTreeMap<(String, String), Vec<f64>> = Default::default();
    for entry in entries {
        let path = entry.map_err(|e| format!("{}: {e}", dir.display()))?.path();
        let baseline = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        let rt = runtime_of(baseline).to_owned();
        if !table.runtimes.contains(&rt) {
            continue;
        }
        let text =
            std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            let (id, ns) = line
                .rsplit_once(' ')
                .and_then(|(id, ns)| Some((id, ns.trim().parse::<f64>().ok()?)))
                .ok_or(format!("{}: not 'BENCHMARK NS': {line}", path.display()))?;
            times
                .entry((rt.clone(), id.to_owned()))
                .or_default()
                .push(ns);
        }
    }
    let mut out = Vec::new();
    for ((rt, id), mut v) in times {
        v.sort_by(f64::total_cmp);
        let wall_ns = v[v.len() / 2];
        let k = table
            .runtimes
            .iter()
            .position(|r| *r == rt)
            .expect("filtered above");
        let cell = table
            .rows
            .iter()
            .find(|(row, _)| *row == id)
            .and_then(|(_, c)| c[k]);
        if let Some(criterion_ns) = cell {
            out.push(WallClock {
                runtime: rt,
                id,
                wall_ns,
                criterion_ns,
            });
        }
    }
    Ok(out)
}

/// Sort key of a runtime name: native, wasmtime, `node<N>` by N, then the rest.
pub fn runtime_order(r: &str) -> (u8, u64, String) {
    match r {
        "native" => (0, 0, String::new()),
        "wasmtime" => (1, 0, String::new()),
        "wasmtime-wide" => (1, 1, String::new()),
        _ => match r.strip_prefix("node").map(str::parse::<u64>) {
            Some(Ok(n)) => (2, n, String::new()),
            _ => (3, 0, r.to_owned()),
        },
    }
}
