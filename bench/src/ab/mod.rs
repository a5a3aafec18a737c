//! `bench-report ab`: HEAD against BASE, from interleaved rounds.
//!
//! `cargo xtask ab` runs two builds (BASE and HEAD) on every runtime in rounds,
//! alternating which side goes first (BASE HEAD, HEAD BASE, …), and criterion saves
//! each run as baseline `base@R` or `head@R` under `<criterion>/<runtime>/`. Here,
//! per runtime and workload, a row: the rounds' paired ratios, their geometric
//! mean and interval, and a verdict on time ([`stats`]: Benjamini–Hochberg over
//! the table's rows, equivalence margin, the change a row could have detected);
//! and, from the count program's exact counts of both sides, a verdict on the
//! work (`more`, `less`, `equal`), which needs no interval.

use std::collections::BTreeMap;
use std::path::Path;

use serde_json::{json, Value};

use crate::counts::{rows_of, Kind};
use crate::{compare_ids, format_ns, markdown, read_estimate, runtime_order};

pub mod cli;
pub mod stats;

pub use stats::{bh_count, ratio_interval, row_alpha, t_cdf, t_quantile, verdict, Paired, Verdict};

/// The two sides.
pub const SIDES: [&str; 2] = ["base", "head"];

/// How the table decides.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Settings {
    /// The false-discovery rate of the calls `faster`/`slower` (Benjamini–Hochberg);
    /// with no true change anywhere, the chance that a table shows any such call.
    pub fdr: f64,
    /// The equivalence margin: `same` only when the interval lies within 1 ± margin.
    pub margin: f64,
    /// The power at which an inconclusive row's detectable change is stated.
    pub power: f64,
    /// The fraction of a row's rounds set aside at each end of its log ratios
    /// (a trimmed mean); 0 for the plain mean.
    pub trim: f64,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            fdr: 0.05,
            margin: 0.03,
            power: 0.8,
            trim: 0.1,
        }
    }
}

/// One runtime's measurements: `(workload, side) → medians (ns) by round`.
pub type Rounds = BTreeMap<(String, String), BTreeMap<u32, f64>>;

/// Every saved `base@R` and `head@R` under one runtime's criterion home.
pub fn read_rounds(dir: &Path) -> Result<Rounds, String> {
    let mut out = Rounds::new();
    for path in crate::baseline_dirs(dir)? {
        let side_round = crate::baseline_name(&path)
            .split_once('@')
            .filter(|(s, _)| SIDES.contains(s))
            .and_then(|(s, r)| Some((s.to_owned(), r.parse::<u32>().ok()?)));
        let Some((side, round)) = side_round else {
            continue;
        };
        let read = |f: &str| {
            std::fs::read_to_string(path.join(f))
                .map_err(|e| format!("{}: {e}", path.join(f).display()))
        };
        let e = read_estimate(&read("benchmark.json")?, &read("estimates.json")?, "")
            .map_err(|e| format!("{}: {e}", path.display()))?;
        out.entry((e.id, side))
            .or_default()
            .insert(round, e.median_ns);
    }
    Ok(out)
}

/// One row of the A/B table.
#[derive(Clone, Debug)]
pub struct Row {
    /// The runtime (native, wasmtime, node24 …).
    pub runtime: String,
    /// Criterion's ID of the workload.
    pub workload: String,
    /// BASE's time: the geometric mean of its kept rounds' medians, ns.
    pub base_ns: f64,
    /// HEAD's, the same way (so HEAD/BASE of these two is `ratio`).
    pub head_ns: f64,
    /// HEAD/BASE: the geometric mean of the kept rounds' ratios.
    pub ratio: f64,
    /// The interval of the ratio (at the table's row confidence).
    pub low: f64,
    /// Its upper end.
    pub high: f64,
    /// The two-sided p-value of "no change".
    pub p: f64,
    /// The verdict on time.
    pub verdict: Verdict,
    /// The change this row would call with the table's power (a fraction).
    pub detectable: f64,
    /// Paired rounds.
    pub rounds: usize,
    /// The rounds the ratio is taken over (the trimmed mean's).
    pub kept: usize,
}

/// The rows and how they were decided.
#[derive(Clone, Debug)]
pub struct Table {
    /// Sorted by runtime, then workload.
    pub rows: Vec<Row>,
    /// The settings.
    pub settings: Settings,
    /// Rows called `faster` or `slower` (Benjamini–Hochberg).
    pub called: usize,
    /// The level of every row's interval: `max(called, 1)·fdr/m`.
    pub row_alpha: f64,
}

fn geometric_mean(xs: &[f64]) -> f64 {
    (xs.iter().map(|x| x.ln()).sum::<f64>() / xs.len() as f64).exp()
}

/// The table, from `(runtime, its rounds)`.
pub fn table(runtimes: &[(String, Rounds)], settings: Settings) -> Result<Table, String> {
    // (runtime, workload, its pairing, both sides' medians)
    let mut paired = Vec::new();
    for (rt, rounds) in runtimes {
        for ((workload, side), base) in rounds {
            if side != "base" {
                continue;
            }
            let Some(head) = rounds.get(&(workload.clone(), "head".to_owned())) else {
                continue;
            };
            let (b, h): (Vec<f64>, Vec<f64>) = base
                .iter()
                .filter_map(|(r, b)| Some((*b, *head.get(r)?)))
                .unzip();
            let p = Paired::trimmed(&b, &h, settings.trim)
                .map_err(|e| format!("{rt} {workload}: {e}"))?;
            paired.push((rt.clone(), workload.clone(), p, b, h));
        }
    }
    if paired.is_empty() {
        return Err("no workload measured on both sides".into());
    }
    let ps: Vec<f64> = paired.iter().map(|x| x.2.p_value()).collect();
    let called = bh_count(&ps, settings.fdr);
    let alpha = row_alpha(called, paired.len(), settings.fdr);
    let mut rows: Vec<Row> = paired
        .into_iter()
        .map(|(runtime, workload, p, b, h)| {
            let (low, high) = p.interval(alpha);
            let kept = |xs: &[f64]| p.kept.iter().map(|&i| xs[i]).collect::<Vec<f64>>();
            Row {
                base_ns: geometric_mean(&kept(&b)),
                head_ns: geometric_mean(&kept(&h)),
                ratio: p.ratio(),
                low,
                high,
                p: p.p_value(),
                verdict: verdict(low, high, settings.margin),
                detectable: p.detectable(alpha, settings.power),
                rounds: p.n,
                kept: p.kept.len(),
                runtime,
                workload,
            }
        })
        .collect();
    rows.sort_by(|a, b| {
        runtime_order(&a.runtime)
            .cmp(&runtime_order(&b.runtime))
            .then(compare_ids(&a.workload, &b.workload))
    });
    Ok(Table {
        rows,
        settings,
        called,
        row_alpha: alpha,
    })
}

/// Counts of both sides: `workload → metric → (base, head)`.
pub type Counts = BTreeMap<String, BTreeMap<&'static str, (f64, f64)>>;

/// Pairs two counts files (`cargo xtask counts` of each side). IDs are matched
/// as they are (the count program names upstream's workloads as the bench does).
pub fn pair_counts(base: &Value, head: &Value) -> Result<Counts, String> {
    let (rb, rh) = (rows_of(base)?, rows_of(head)?);
    let mut out = Counts::new();
    for b in &rb {
        let Some(h) = rh.iter().find(|h| h.id == b.id) else {
            continue;
        };
        for k in Kind::ALL {
            if let (Some(x), Some(y)) = (b.get(k), h.get(k)) {
                out.entry(b.id.clone())
                    .or_default()
                    .insert(k.field(), (x, y));
            }
        }
    }
    Ok(out)
}

/// Which count a runtime's row shows (natively the x86 instructions; in Wasm the
/// operators, and under wasmtime its compiled instructions too). The first decides
/// the row's percentage.
pub fn metrics_of(runtime: &str) -> &'static [&'static str] {
    match runtime {
        "native" => &["native_instructions"],
        "wasmtime" => &["wasm_operators", "wasmtime_instructions"],
        _ => &["wasm_operators"],
    }
}

/// A row's verdict on work, from its runtime's counts of both sides.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Work {
    /// Every count of the row identical.
    Equal,
    /// Every count that changed went up; the change of the row's first count, %.
    More(f64),
    /// Every count that changed went down; the same %.
    Less(f64),
    /// Some counts up, some down.
    Mixed,
}

impl Work {
    /// The word in ab.json.
    pub fn as_str(self) -> &'static str {
        match self {
            Work::Equal => "equal",
            Work::More(_) => "more",
            Work::Less(_) => "less",
            Work::Mixed => "mixed",
        }
    }

    fn text(self) -> String {
        match self {
            Work::More(pct) | Work::Less(pct) => format!("{} ({pct:+.3}%)", self.as_str()),
            w => w.as_str().into(),
        }
    }
}

/// The work verdict of a row, or None where its workload or runtime was not counted.
pub fn work_of(runtime: &str, workload: &str, counts: &Counts) -> Option<Work> {
    let c = counts.get(workload)?;
    let pairs: Vec<(f64, f64)> = metrics_of(runtime)
        .iter()
        .filter_map(|k| c.get(k).copied())
        .collect();
    let (b0, h0) = *pairs.first()?;
    let pct = change_pct(b0, h0);
    let (up, down) = (
        pairs.iter().any(|(b, h)| h > b),
        pairs.iter().any(|(b, h)| h < b),
    );
    Some(match (up, down) {
        (false, false) => Work::Equal,
        (true, false) => Work::More(pct),
        (false, true) => Work::Less(pct),
        (true, true) => Work::Mixed,
    })
}

/// Whether any count of any workload differs between the sides.
pub fn arithmetic_changed(counts: &Counts) -> bool {
    counts
        .values()
        .flat_map(|m| m.values())
        .any(|(b, h)| b != h)
}

/// A count per iteration: a whole number, or (data-dependent code, where the
/// count program's K extra iterations did not all cost the same) their mean to one
/// decimal; thousands separated.
fn count_text(x: f64) -> String {
    let whole = x.fract() == 0.0;
    let t = if whole {
        format!("{:.0}", x.abs())
    } else {
        format!("{:.1}", x.abs())
    };
    let (int, frac) = t.split_once('.').map_or((t.as_str(), ""), |(i, f)| (i, f));
    let mut grouped = String::new();
    for (i, c) in int.chars().enumerate() {
        if i > 0 && (int.len() - i) % 3 == 0 {
            grouped.push(',');
        }
        grouped.push(c);
    }
    let sign = if x < 0.0 { "-" } else { "" };
    if frac.is_empty() {
        format!("{sign}{grouped}")
    } else {
        format!("{sign}{grouped}.{frac}")
    }
}

/// A count's change from BASE to HEAD, %.
fn change_pct(b: f64, h: f64) -> f64 {
    100.0 * (h - b) / b
}

fn change(b: f64, h: f64) -> String {
    let d = h - b;
    if d == 0.0 {
        "equal".into()
    } else {
        let sign = if d > 0.0 { "+" } else { "" };
        format!("{sign}{} ({:+.2}%)", count_text(d), change_pct(b, h))
    }
}

fn percent(x: f64) -> String {
    let p = 100.0 * x;
    if p < 10.0 {
        format!("{p:.1}%")
    } else {
        format!("{p:.0}%")
    }
}

/// A row's time verdict as the table shows it.
fn verdict_text(r: &Row, margin: f64) -> String {
    match r.verdict {
        Verdict::Same => format!("same (±{})", percent(margin)),
        Verdict::Inconclusive => format!("inconclusive (sees ±{})", percent(r.detectable)),
        v => v.as_str().into(),
    }
}

/// The summary lines under the table: the time verdicts counted, and whether the
/// arithmetic changed.
pub fn summary(t: &Table, counts: &Counts) -> Vec<String> {
    let n = |v: Verdict| t.rows.iter().filter(|r| r.verdict == v).count();
    let mut lines = vec![format!(
        "Time: {} slower, {} faster, {} same (within ±{}), {} inconclusive, of {} rows.",
        n(Verdict::Slower),
        n(Verdict::Faster),
        n(Verdict::Same),
        percent(t.settings.margin),
        n(Verdict::Inconclusive),
        t.rows.len()
    )];
    if counts.is_empty() {
        lines.push("Work: not counted.".into());
    } else if arithmetic_changed(counts) {
        let changed: Vec<String> = counts
            .iter()
            .filter(|(_, m)| m.values().any(|(b, h)| b != h))
            .map(|(id, m)| {
                let each: Vec<String> = m
                    .iter()
                    .map(|(k, (b, h))| format!("{k} {:+.3}%", change_pct(*b, *h)))
                    .collect();
                format!("{id} ({})", each.join(", "))
            })
            .collect();
        lines.push(format!(
            "Work: the arithmetic changed: {}.",
            changed.join("; ")
        ));
    } else {
        lines.push(format!(
            "Work: equal: every count of the {} counted workloads is the same on both sides.",
            counts.len()
        ));
    }
    lines
}

/// `ab.md`: the header lines (commits, tools, machine), the table, the summary.
pub fn markdown_report(t: &Table, counts: &Counts, env: &[(String, String)]) -> String {
    let m = t.rows.len();
    let mut md = String::from("# HEAD against BASE\n\n");
    for (k, v) in env {
        md += &format!("- {k}: {v}\n");
    }
    let rounds = t.rows.iter().map(|r| r.rounds).min().unwrap_or(0);
    let kept = t.rows.iter().map(|r| r.kept).min().unwrap_or(0);
    let trim = percent(t.settings.trim);
    md += &format!(
        "- {rounds} paired rounds, sides alternating first; each row's ratio the geometric mean of its middle {kept} ({trim} set aside at each end); calls by Benjamini–Hochberg at a false-discovery rate of {} over {m} rows ({} called), each interval at {:.2}%; `same` when the interval lies within ±{}; `inconclusive` rows state the change they would see {:.0} times in 100\n\n",
        percent(t.settings.fdr),
        t.called,
        100.0 * (1.0 - t.row_alpha),
        percent(t.settings.margin),
        100.0 * t.settings.power,
    );
    let header: Vec<String> = [
        "runtime",
        "workload",
        "BASE",
        "HEAD",
        "HEAD/BASE",
        "interval",
        "time",
        "work",
        "counts BASE → HEAD",
    ]
    .map(String::from)
    .to_vec();
    let body: Vec<Vec<String>> = t
        .rows
        .iter()
        .map(|r| {
            let c = counts.get(&r.workload);
            let counted: Vec<String> = metrics_of(&r.runtime)
                .iter()
                .filter_map(|k| {
                    let (b, h) = c?.get(k)?;
                    Some(format!(
                        "{k} {} → {}: {}",
                        count_text(*b),
                        count_text(*h),
                        change(*b, *h)
                    ))
                })
                .collect();
            vec![
                r.runtime.clone(),
                r.workload.clone(),
                format_ns(r.base_ns),
                format_ns(r.head_ns),
                format!("{:.3}×", r.ratio),
                format!("{:.3}–{:.3}", r.low, r.high),
                verdict_text(r, t.settings.margin),
                work_of(&r.runtime, &r.workload, counts).map_or("—".into(), Work::text),
                if counted.is_empty() {
                    "—".into()
                } else {
                    counted.join("; ")
                },
            ]
        })
        .collect();
    let fractional = counts
        .values()
        .flat_map(|m| m.values())
        .any(|(b, h)| b.fract() != 0.0 || h.fract() != 0.0);
    let note = if fractional {
        "\nCounts are per iteration. A fractional one is a mean: the iterations of data-dependent code (a conditional subtraction) do not all cost the same; the count program runs the same inputs every time, so it too is exact from run to run.\n"
    } else {
        ""
    };
    md + &markdown(&header, &body) + "\n" + &summary(t, counts).join("  \n") + "\n" + note
}

/// `ab.json`: `rows` (with `counts`, `work` and the change per row), the
/// environment, how the verdicts were reached, and whether the arithmetic changed.
pub fn json_report(t: &Table, counts: &Counts, env: &[(String, String)]) -> Value {
    let env: serde_json::Map<String, Value> =
        env.iter().map(|(k, v)| (k.clone(), json!(v))).collect();
    let rows: Vec<Value> = t
        .rows
        .iter()
        .map(|r| {
            let c: serde_json::Map<String, Value> = counts
                .get(&r.workload)
                .into_iter()
                .flatten()
                .map(|(k, (b, h))| {
                    (
                        k.to_string(),
                        json!({"base": b, "head": h, "change_pct": change_pct(*b, *h)}),
                    )
                })
                .collect();
            let work = work_of(&r.runtime, &r.workload, counts);
            json!({
                "runtime": r.runtime, "workload": r.workload,
                "base_ns": r.base_ns, "head_ns": r.head_ns,
                "ratio": r.ratio, "low": r.low, "high": r.high, "p": r.p,
                "verdict": r.verdict.as_str(), "detectable": r.detectable,
                "rounds": r.rounds, "kept": r.kept, "counts": c,
                "work": work.map(Work::as_str),
                "work_change_pct": match work {
                    Some(Work::More(p) | Work::Less(p)) => json!(p),
                    Some(Work::Equal) => json!(0.0),
                    _ => Value::Null,
                },
            })
        })
        .collect();
    json!({
        "env": env,
        "procedure": "Benjamini-Hochberg over the rows; intervals at 1 - max(called, 1) * fdr / rows (Benjamini-Yekutieli)",
        "fdr": t.settings.fdr,
        "margin": t.settings.margin,
        "power": t.settings.power,
        "trim": t.settings.trim,
        "called": t.called,
        "row_confidence": 1.0 - t.row_alpha,
        "arithmetic_changed": (!counts.is_empty()).then(|| arithmetic_changed(counts)),
        "summary": summary(t, counts),
        "rows": rows,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_are_written_whole_or_to_one_decimal_with_separators() {
        assert_eq!(count_text(299_079.75), "299,079.8");
        assert_eq!(count_text(1_506_269.0), "1,506,269");
        assert_eq!(count_text(512.0), "512");
        assert_eq!(count_text(-1234.5), "-1,234.5");
        assert_eq!(change(100.0, 150.0), "+50 (+50.00%)");
        assert_eq!(change(1000.0, 900.0), "-100 (-10.00%)");
        assert_eq!(change(7.0, 7.0), "equal");
    }
}
