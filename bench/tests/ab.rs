//! The A/B's statistics and outputs (`poseidon_benches::ab`, `bmf`): Student's t,
//! the interval of a paired ratio, the false-verdict rate of a whole table of two
//! identical builds (simulated rounds with drift), and the Bencher Metric Format.

use std::collections::BTreeMap;

use poseidon_benches::ab::{json_report, ratio_interval, rows, t_cdf, t_quantile, verdict};
use poseidon_benches::bmf;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serde_json::{json, Value};

#[test]
fn student_t_matches_its_tables() {
    // Quantiles from standard tables (two-sided 95%, 99%, 99.8%).
    for (p, df, t) in [
        (0.975, 4.0, 2.776_445),
        (0.975, 30.0, 2.042_272),
        (0.995, 9.0, 3.249_836),
        (0.999, 2.0, 22.327_125),
        (0.999, 5.0, 5.893_430),
    ] {
        let q = t_quantile(p, df);
        assert!(
            (q - t).abs() < 1e-4 * t,
            "t({p}, {df}) = {q}, tables say {t}"
        );
        assert!((t_cdf(q, df) - p).abs() < 1e-9);
    }
    // One degree of freedom is Cauchy: P(T <= 1) = 3/4.
    assert!((t_cdf(1.0, 1.0) - 0.75).abs() < 1e-12);
    assert!((t_cdf(-2.0, 7.0) + t_cdf(2.0, 7.0) - 1.0).abs() < 1e-12);
}

#[test]
fn the_interval_is_of_the_geometric_mean_ratio() {
    let base = [100.0, 110.0, 90.0, 105.0];
    let head = [200.0, 220.0, 180.0, 210.0];
    let (r, lo, hi) = ratio_interval(&base, &head, 0.05).unwrap();
    assert!((r - 2.0).abs() < 1e-12 && (lo - 2.0).abs() < 1e-12 && (hi - 2.0).abs() < 1e-12);
    assert_eq!(verdict(lo * 0.99, hi * 1.01), "slower");
    let head = [101.0, 109.0, 91.0, 104.0];
    let (r, lo, hi) = ratio_interval(&base, &head, 0.05).unwrap();
    assert!(lo < r && r < hi && lo < 1.0 && hi > 1.0, "{lo} {r} {hi}");
    assert_eq!(verdict(lo, hi), "same");
    assert_eq!(verdict(0.8, 0.9), "faster");
    assert!(ratio_interval(&[1.0], &[1.0], 0.05).is_err());
    assert!(ratio_interval(&[1.0, 2.0], &[1.0], 0.05).is_err());
}

/// A standard normal draw (Box–Muller).
fn normal(rng: &mut StdRng) -> f64 {
    let (u, v): (f64, f64) = (rng.gen::<f64>().max(1e-300), rng.gen());
    (-2.0 * u.ln()).sqrt() * (2.0 * std::f64::consts::PI * v).cos()
}

type Rounds = BTreeMap<(String, String), BTreeMap<u32, f64>>;

/// One simulated run: `runtimes` × `workloads` rows, `rounds` rounds; each round
/// has a drift shared by both sides (a noisy neighbour), each run its own noise,
/// and the side measured first a small bias (the order alternates, as the A/B's
/// does). HEAD is `effect` times BASE.
fn simulate(
    rng: &mut StdRng,
    runtimes: usize,
    workloads: usize,
    rounds: u32,
    effect: f64,
) -> Vec<(String, Rounds)> {
    (0..runtimes)
        .map(|rt| {
            let mut m = Rounds::new();
            for w in 0..workloads {
                let true_ns = 1000.0 * (w + 1) as f64;
                for round in 1..=rounds {
                    let drift = 0.05 * normal(rng);
                    let first = if round % 2 == 1 { "base" } else { "head" };
                    for side in ["base", "head"] {
                        let bias = if side == first { 0.005 } else { 0.0 };
                        let scale = if side == "head" { effect } else { 1.0 };
                        let ns = true_ns * scale * (drift + bias + 0.01 * normal(rng)).exp();
                        m.entry((format!("Poseidon/w{w}"), side.to_owned()))
                            .or_default()
                            .insert(round, ns);
                    }
                }
            }
            (format!("rt{rt}"), m)
        })
        .collect()
}

#[test]
fn two_identical_builds_give_a_false_verdict_in_at_most_5_percent_of_tables() {
    let mut rng = StdRng::seed_from_u64(0x5eed);
    let tables = 2000;
    let mut false_tables = 0;
    for _ in 0..tables {
        let t = rows(&simulate(&mut rng, 5, 5, 6, 1.0), 0.05).unwrap();
        assert_eq!(t.len(), 25);
        if t.iter().any(|r| r.verdict != "same") {
            false_tables += 1;
        }
    }
    let rate = false_tables as f64 / tables as f64;
    // Bonferroni over 25 rows: at most 5% in expectation; 2000 tables measure the
    // rate within about ±1%.
    assert!(
        rate <= 0.06,
        "{false_tables} of {tables} tables had a false verdict"
    );
    // Without the correction the rate would be far above 5% (the reason for it).
    let mut uncorrected = 0;
    for _ in 0..500 {
        let t = rows(&simulate(&mut rng, 5, 5, 6, 1.0), 0.05 * 25.0).unwrap();
        if t.iter().any(|r| r.verdict != "same") {
            uncorrected += 1;
        }
    }
    assert!(
        uncorrected > 100,
        "{uncorrected} of 500 without the correction"
    );
}

#[test]
fn a_change_that_doubles_the_time_is_slower_everywhere() {
    let mut rng = StdRng::seed_from_u64(7);
    let t = rows(&simulate(&mut rng, 5, 5, 6, 2.0), 0.05).unwrap();
    for r in &t {
        assert_eq!(r.verdict, "slower", "{r:?}");
        assert!(r.low > 1.5 && r.high < 2.7, "{r:?}");
        assert_eq!(r.rounds, 6);
    }
    let t = rows(&simulate(&mut rng, 2, 3, 6, 0.7), 0.05).unwrap();
    assert!(t.iter().all(|r| r.verdict == "faster"));
}

#[test]
fn ab_json_has_the_promised_fields() {
    let mut rng = StdRng::seed_from_u64(1);
    let t = rows(&simulate(&mut rng, 1, 2, 4, 1.5), 0.05).unwrap();
    let mut counts = poseidon_benches::ab::Counts::new();
    counts
        .entry("Poseidon/w0".into())
        .or_default()
        .insert("native_instructions", (100.0, 150.0));
    let j = json_report(&t, &counts, 0.05, &[("BASE".into(), "abc".into())]);
    let row = &j["rows"][0];
    for k in [
        "runtime", "workload", "base_ns", "head_ns", "ratio", "low", "high", "verdict", "counts",
    ] {
        assert!(!row[k].is_null(), "rows[0] lacks {k}: {row}");
    }
    assert_eq!(
        row["counts"]["native_instructions"],
        json!({"base": 100.0, "head": 150.0})
    );
    assert_eq!(j["env"]["BASE"], "abc");
    let b = bmf::of_ab(&t, &counts, "head");
    bmf::validate(&b).unwrap();
    assert!(b["rt0/Poseidon/w0"]["latency"]["value"].as_f64().unwrap() > 0.0);
}

#[test]
fn a_report_in_the_bencher_metric_format() {
    let report: Value = serde_json::from_str(include_str!("data/merge/amd-epyc.json")).unwrap();
    let b = bmf::of_report(&report).unwrap();
    bmf::validate(&b).unwrap();
    let perm = &b["native/Poseidon/permutation/u29"];
    assert!(perm["latency"]["lower_value"].as_f64() <= perm["latency"]["value"].as_f64());
    assert_eq!(perm["instructions"]["value"], json!(439944.0));
    assert_eq!(
        b["wasmtime/Poseidon/permutation/u29"]["wasm-operators"]["value"],
        json!(584042.0)
    );
    // The validator refuses what Bencher would not read.
    for bad in [
        json!([]),
        json!({}),
        json!({"x": {}}),
        json!({"x": {"latency": {"value": "1"}}}),
        json!({"x": {"Latency": {"value": 1}}}),
        json!({"x": {"latency": {"value": 1, "lower_value": 2}}}),
        json!({"x": {"latency": {"value": 1, "extra": 2}}}),
    ] {
        assert!(bmf::validate(&bad).is_err(), "accepted {bad}");
    }
}
