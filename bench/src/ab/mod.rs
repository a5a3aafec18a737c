//! `bench-report ab`: HEAD against BASE, from interleaved rounds.
//!
//! `cargo xtask ab` runs two builds (BASE and HEAD) on every runtime in rounds,
//! alternating which side goes first (BASE HEAD, HEAD BASE, …), and criterion saves
//! each run as baseline `base@R` or `head@R` under `<criterion>/<runtime>/`. Here,
//! per runtime and workload:
//!
//! - each round gives one paired ratio HEAD/BASE of criterion's medians; the rounds
//!   are the unit of the statistics, so drift between rounds (a noisy neighbour, a
//!   clock that changes) widens the interval instead of hiding in it;
//! - the ratio shown is the geometric mean of the rounds' ratios, with a Student-t
//!   interval on their logarithms;
//! - the table compares many rows at once, so each row's interval is at confidence
//!   1 − α/m (Bonferroni, m rows, α = 0.05 by default): an A/A comparison of two
//!   identical builds then gives a false verdict in at most 5% of runs, all rows
//!   together (the simulation in the tests checks this);
//! - verdict `faster` when the whole interval is below 1, `slower` above 1, `same`
//!   ("no difference detected at this noise") when it holds 1.
//!
//! Counts (`cargo xtask counts` of each side) are exact: their difference needs no
//! interval.

use std::collections::BTreeMap;
use std::path::Path;

use serde_json::{json, Value};

use crate::counts::{rows_of, Kind};
use crate::{compare_ids, format_ns, markdown, read_estimate, runtime_order};

pub mod cli;

/// The two sides.
pub const SIDES: [&str; 2] = ["base", "head"];

/// `ln Γ(x)` for x > 0 (Lanczos, g = 7, nine terms; relative error below 1e-13).
fn ln_gamma(x: f64) -> f64 {
    const G: [f64; 9] = [
        0.999_999_999_999_809_9,
        676.520_368_121_885_1,
        -1_259.139_216_722_402_8,
        771.323_428_777_653_1,
        -176.615_029_162_140_6,
        12.507_343_278_686_905,
        -0.138_571_095_265_720_12,
        9.984_369_578_019_572e-6,
        1.505_632_735_149_311_6e-7,
    ];
    if x < 0.5 {
        // Reflection: Γ(x) Γ(1 − x) = π / sin(πx).
        return (std::f64::consts::PI / (std::f64::consts::PI * x).sin()).ln() - ln_gamma(1.0 - x);
    }
    let x = x - 1.0;
    let t = x + 7.5;
    let series = G[1..]
        .iter()
        .enumerate()
        .fold(G[0], |s, (i, g)| s + g / (x + i as f64 + 1.0));
    0.5 * (2.0 * std::f64::consts::PI).ln() + (x + 0.5) * t.ln() - t + series.ln()
}

/// The continued fraction of the regularized incomplete beta function (modified
/// Lentz), valid for x < (a + 1) / (a + b + 2).
fn beta_fraction(a: f64, b: f64, x: f64) -> f64 {
    const TINY: f64 = 1e-300;
    let (qab, qap, qam) = (a + b, a + 1.0, a - 1.0);
    let mut c = 1.0;
    let mut d = 1.0 - qab * x / qap;
    d = 1.0 / if d.abs() < TINY { TINY } else { d };
    let mut h = d;
    for m in 1..=300 {
        let m = m as f64;
        let m2 = 2.0 * m;
        for aa in [
            m * (b - m) * x / ((qam + m2) * (a + m2)),
            -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2)),
        ] {
            d = 1.0 + aa * d;
            d = 1.0 / if d.abs() < TINY { TINY } else { d };
            c = 1.0 + aa / c;
            c = if c.abs() < TINY { TINY } else { c };
            h *= d * c;
        }
        if (d * c - 1.0).abs() < 1e-15 {
            break;
        }
    }
    h
}

/// The regularized incomplete beta function I_x(a, b).
fn incomplete_beta(a: f64, b: f64, x: f64) -> f64 {
    if x <= 0.0 {
        return 0.0;
    }
    if x >= 1.0 {
        return 1.0;
    }
    let front =
        (ln_gamma(a + b) - ln_gamma(a) - ln_gamma(b) + a * x.ln() + b * (1.0 - x).ln()).exp();
    if x < (a + 1.0) / (a + b + 2.0) {
        front * beta_fraction(a, b, x) / a
    } else {
        1.0 - front * beta_fraction(b, a, 1.0 - x) / b
    }
}

/// P(T ≤ t) for Student's t with `df` degrees of freedom.
pub fn t_cdf(t: f64, df: f64) -> f64 {
    let tail = 0.5 * incomplete_beta(df / 2.0, 0.5, df / (df + t * t));
    if t >= 0.0 {
        1.0 - tail
    } else {
        tail
    }
}

/// The p-quantile of Student's t with `df` degrees of freedom (0.5 < p < 1).
pub fn t_quantile(p: f64, df: f64) -> f64 {
    let (mut lo, mut hi) = (0.0, 1.0);
    while t_cdf(hi, df) < p {
        hi *= 2.0;
    }
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if t_cdf(mid, df) < p {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    0.5 * (lo + hi)
}

/// The geometric mean of HEAD/BASE over paired rounds, with its interval at
/// confidence `1 - alpha` (two-sided): `(ratio, low, high)`.
pub fn ratio_interval(base: &[f64], head: &[f64], alpha: f64) -> Result<(f64, f64, f64), String> {
    let n = base.len();
    if n != head.len() || n < 2 {
        return Err(format!(
            "{} BASE and {} HEAD rounds: paired rounds, two at least, are needed",
            n,
            head.len()
        ));
    }
    let logs: Vec<f64> = base.iter().zip(head).map(|(b, h)| (h / b).ln()).collect();
    let mean = logs.iter().sum::<f64>() / n as f64;
    let var = logs.iter().map(|l| (l - mean).powi(2)).sum::<f64>() / (n - 1) as f64;
    let half = t_quantile(1.0 - alpha / 2.0, (n - 1) as f64) * (var / n as f64).sqrt();
    Ok((mean.exp(), (mean - half).exp(), (mean + half).exp()))
}

/// The verdict of an interval of HEAD/BASE.
pub fn verdict(low: f64, high: f64) -> &'static str {
    if high < 1.0 {
        "faster"
    } else if low > 1.0 {
        "slower"
    } else {
        "same"
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
    /// Median over the rounds of BASE's medians, ns.
    pub base_ns: f64,
    /// The same for HEAD.
    pub head_ns: f64,
    /// HEAD/BASE: the geometric mean of the rounds' ratios.
    pub ratio: f64,
    /// The interval of the ratio.
    pub low: f64,
    /// Its upper end.
    pub high: f64,
    /// `faster`, `slower` or `same`.
    pub verdict: &'static str,
    /// Paired rounds.
    pub rounds: usize,
}

/// The rows, from `(runtime, its rounds)`; `alpha` is the family-wise error rate.
pub fn rows(runtimes: &[(String, Rounds)], alpha: f64) -> Result<Vec<Row>, String> {
    // (runtime, workload, paired base and head medians)
    let mut paired = Vec::new();
    for (rt, rounds) in runtimes {
        for ((workload, side), base) in rounds {
            if side != "base" {
                continue;
            }
            let Some(head) = rounds.get(&(workload.clone(), "head".to_owned())) else {
                continue;
            };
            let both: Vec<(f64, f64)> = base
                .iter()
                .filter_map(|(r, b)| Some((*b, *head.get(r)?)))
                .collect();
            paired.push((rt.clone(), workload.clone(), both));
        }
    }
    if paired.is_empty() {
        return Err("no workload measured on both sides".into());
    }
    let m = paired.len() as f64;
    let mut out = Vec::new();
    for (runtime, workload, both) in paired {
        let (b, h): (Vec<f64>, Vec<f64>) = both.iter().copied().unzip();
        let (ratio, low, high) =
            ratio_interval(&b, &h, alpha / m).map_err(|e| format!("{runtime} {workload}: {e}"))?;
        out.push(Row {
            base_ns: crate::median(b.clone()),
            head_ns: crate::median(h),
            ratio,
            low,
            high,
            verdict: verdict(low, high),
            rounds: b.len(),
            runtime,
            workload,
        });
    }
    out.sort_by(|a, b| {
        runtime_order(&a.runtime)
            .cmp(&runtime_order(&b.runtime))
            .then(compare_ids(&a.workload, &b.workload))
    });
    Ok(out)
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
/// operators, and under wasmtime its compiled instructions too).
pub fn metrics_of(runtime: &str) -> &'static [&'static str] {
    match runtime {
        "native" => &["native_instructions"],
        "wasmtime" => &["wasm_operators", "wasmtime_instructions"],
        _ => &["wasm_operators"],
    }
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

fn change(b: f64, h: f64) -> String {
    let d = h - b;
    if d == 0.0 {
        "equal".into()
    } else {
        let sign = if d > 0.0 { "+" } else { "" };
        format!("{sign}{} ({:+.2}%)", count_text(d), 100.0 * d / b)
    }
}

/// `ab.md`: the header lines (commits, tools, machine) then one table.
pub fn markdown_report(
    rows: &[Row],
    counts: &Counts,
    alpha: f64,
    env: &[(String, String)],
) -> String {
    let m = rows.len();
    let mut md = String::from("# HEAD against BASE\n\n");
    for (k, v) in env {
        md += &format!("- {k}: {v}\n");
    }
    let rounds = rows.iter().map(|r| r.rounds).min().unwrap_or(0);
    md += &format!(
        "- {rounds} paired rounds, sides alternating first; each interval at {:.2}% ({m} rows, Bonferroni: {:.0}% for the table together)\n\n",
        100.0 * (1.0 - alpha / m as f64),
        100.0 * (1.0 - alpha)
    );
    let header: Vec<String> = [
        "runtime",
        "workload",
        "BASE",
        "HEAD",
        "HEAD/BASE",
        "interval",
        "verdict",
        "counts BASE → HEAD",
    ]
    .map(String::from)
    .to_vec();
    let body: Vec<Vec<String>> = rows
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
                r.verdict.to_owned(),
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
    md + &markdown(&header, &body) + note
}

/// `ab.json`: `rows` (with `counts` per row), the environment, the confidence.
pub fn json_report(rows: &[Row], counts: &Counts, alpha: f64, env: &[(String, String)]) -> Value {
    let env: serde_json::Map<String, Value> =
        env.iter().map(|(k, v)| (k.clone(), json!(v))).collect();
    let rows: Vec<Value> = rows
        .iter()
        .map(|r| {
            let c: serde_json::Map<String, Value> = counts
                .get(&r.workload)
                .into_iter()
                .flatten()
                .map(|(k, (b, h))| (k.to_string(), json!({"base": b, "head": h})))
                .collect();
            json!({
                "runtime": r.runtime, "workload": r.workload,
                "base_ns": r.base_ns, "head_ns": r.head_ns,
                "ratio": r.ratio, "low": r.low, "high": r.high,
                "verdict": r.verdict, "rounds": r.rounds, "counts": c,
            })
        })
        .collect();
    json!({
        "env": env,
        "family_wise_alpha": alpha,
        "row_confidence": 1.0 - alpha / rows.len().max(1) as f64,
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
