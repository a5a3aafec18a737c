//! The A/B's statistics and outputs (`poseidon_benches::ab`, `bmf`): Student's t,
//! one hand-computed interval, the geometric mean, a row's coverage and power
//! where they are known, the false-verdict rate of whole tables of two identical
//! builds and the power of tables with a 3% and a 20% slowdown (simulated rounds
//! with a drift per round, noise per run shared by the run's workloads, noise per
//! workload and a first-runner bias), the verdicts on time and work, ab.json, and
//! the Bencher Metric Format.
//!
//! Each statistical test is sized to fail for a known mistake: the degrees of
//! freedom n for n − 1 or the variance over n (the hand-computed interval, the
//! coverage), the standard deviation in place of the standard error (coverage,
//! power), an arithmetic mean (ratios 1 and 4), a correction too strict (q/m²:
//! the false-table rate falls below its band) or none (it rises above).

use std::collections::BTreeMap;

use poseidon_benches::ab::{
    bh_count, json_report, markdown_report, ratio_interval, row_alpha, t_cdf, t_quantile, table,
    verdict, work_of, Counts, Paired, Settings, Verdict, Work,
};
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
fn one_interval_computed_by_hand() {
    // Log ratios 0.01, 0.03, 0.02, 0.04: mean 0.025, sample standard deviation
    // (over n − 1 = 3) 0.0129099, standard error 0.0064550, t(0.975, 3) = 3.1824463:
    // exp(0.025 ± 0.0205427) = 1.0044673 … 1.0465956 around exp(0.025) = 1.0253151.
    let base = [100.0; 4];
    let head = [0.01f64, 0.03, 0.02, 0.04].map(|l| 100.0 * l.exp());
    let (r, lo, hi) = ratio_interval(&base, &head, 0.05).unwrap();
    for (got, want) in [
        (r, 1.025_315_120_524_429),
        (lo, 1.004_467_346_405_009),
        (hi, 1.046_595_591_323_626),
    ] {
        assert!((got - want).abs() < 1e-9, "{got} against {want}");
    }
    let p = Paired::new(&base, &head).unwrap();
    // p: t = 0.025 / 0.0064550 = 3.8730 on 3 df, two-sided.
    assert!((p.p_value() - 2.0 * (1.0 - t_cdf(3.872_983_346, 3.0))).abs() < 1e-9);
    assert!(
        p.p_value() > 0.025 && p.p_value() < 0.035,
        "{}",
        p.p_value()
    );
    assert!(Paired::new(&[1.0], &[1.0]).is_err());
    assert!(Paired::new(&[1.0, 2.0], &[1.0]).is_err());
    assert!(Paired::new(&[1.0, 0.0], &[1.0, 1.0]).is_err());
}

#[test]
fn one_trimmed_interval_computed_by_hand() {
    // Ten log ratios, 20% trimmed: the two lowest (-0.4, 0.01) and two highest
    // (0.08, 0.5) set aside, the mean of 0.02 … 0.07 is 0.045. Winsorized (the
    // set-aside values pulled in to 0.02 and 0.07): standard deviation 0.0217307
    // over n − 1 = 9; standard error 0.0217307 · √10 / 6 = 0.0114531; t(0.975, 5)
    // = 2.5705818: exp(0.045 ± 0.0294410) = 1.0156806 … 1.0772818.
    let logs = [0.01f64, 0.02, 0.03, 0.04, 0.05, 0.06, 0.07, 0.08, 0.5, -0.4];
    let base = [100.0; 10];
    let head = logs.map(|l| 100.0 * l.exp());
    let p = Paired::trimmed(&base, &head, 0.2).unwrap();
    assert_eq!(p.kept, vec![1, 2, 3, 4, 5, 6]);
    assert_eq!(p.df(), 5.0);
    let (lo, hi) = p.interval(0.05);
    for (got, want) in [
        (p.ratio(), 1.046_027_859_908_717),
        (lo, 1.015_680_613_816_999_6),
        (hi, 1.077_281_843_150_698_7),
    ] {
        assert!((got - want).abs() < 1e-9, "{got} against {want}");
    }
    // Trim 0 is the plain mean; a trim that leaves fewer than two is refused or
    // capped.
    assert_eq!(
        Paired::trimmed(&base, &head, 0.0).unwrap(),
        Paired::new(&base, &head).unwrap()
    );
    assert!(Paired::trimmed(&base, &head, 0.5).is_err());
    assert_eq!(
        Paired::trimmed(&base[..3], &head[..3], 0.49)
            .unwrap()
            .kept
            .len(),
        3
    );
}

#[test]
fn a_run_that_went_wrong_does_not_hide_a_change() {
    // 16 rounds of a 3% slowdown at 1% noise, two of them with one side's run 30%
    // slow (a Wasm engine that did not tier up): the plain mean's interval reaches
    // past 1; the trimmed one (the default) calls it slower.
    let mut rng = StdRng::seed_from_u64(8);
    let base: Vec<f64> = (0..16).map(|_| (0.01 * normal(&mut rng)).exp()).collect();
    let mut head: Vec<f64> = base
        .iter()
        .map(|b| b * 1.03 * (0.01 * normal(&mut rng)).exp())
        .collect();
    let mut base = base;
    base[5] *= 1.3;
    head[11] *= 1.3;
    let plain = ratio_interval(&base, &head, 0.005).unwrap();
    assert!(plain.1 < 1.0, "{plain:?}");
    let runs = vec![("node20".to_owned(), {
        let pairs: Vec<(f64, f64)> = base.iter().copied().zip(head.iter().copied()).collect();
        rounds_of(&pairs)
    })];
    let t = table(&runs, Settings::default()).unwrap();
    let r = &t.rows[0];
    assert_eq!(r.verdict, Verdict::Slower, "{r:?}");
    assert!(r.ratio > 1.01 && r.ratio < 1.05 && r.kept == 14, "{r:?}");
}

#[test]
fn the_ratio_is_the_geometric_mean_of_the_rounds_ratios() {
    // Ratios 1 and 4: geometric mean 2 (arithmetic 2.5).
    let (r, _, _) = ratio_interval(&[10.0, 10.0], &[10.0, 40.0], 0.05).unwrap();
    assert!((r - 2.0).abs() < 1e-12, "{r}");
    // BASE and HEAD columns are geometric means too: HEAD/BASE is the ratio.
    let runs = vec![(
        "native".to_owned(),
        rounds_of(&[(10.0, 10.0), (20.0, 80.0)]),
    )];
    let t = table(&runs, Settings::default()).unwrap();
    let row = &t.rows[0];
    assert!(
        (row.head_ns / row.base_ns - row.ratio).abs() < 1e-12,
        "{row:?}"
    );
}

fn rounds_of(pairs: &[(f64, f64)]) -> Rounds {
    let mut m = Rounds::new();
    for (i, (b, h)) in pairs.iter().enumerate() {
        for (side, v) in [("base", b), ("head", h)] {
            m.entry(("Poseidon/w".to_owned(), side.to_owned()))
                .or_default()
                .insert(i as u32 + 1, *v);
        }
    }
    m
}

#[test]
fn benjamini_hochberg_and_the_row_level() {
    // Thresholds k·q/m = 0.01, 0.02, 0.03, 0.04, 0.05: the 4th smallest (0.04) is
    // under its own, so 4 are called, 0.035 among them although above 0.03.
    assert_eq!(bh_count(&[0.5, 0.035, 0.001, 0.04, 0.02], 0.05), 4);
    assert_eq!(bh_count(&[0.02, 0.5, 0.9], 0.05), 0);
    assert_eq!(bh_count(&[0.01, 0.01], 0.05), 2);
    assert_eq!(bh_count(&[], 0.05), 0);
    assert!((row_alpha(0, 10, 0.05) - 0.005).abs() < 1e-15);
    assert!((row_alpha(4, 10, 0.05) - 0.02).abs() < 1e-15);
}

#[test]
fn verdicts_on_time() {
    assert_eq!(verdict(1.01, 1.05, 0.03), Verdict::Slower);
    assert_eq!(verdict(0.90, 0.99, 0.03), Verdict::Faster);
    assert_eq!(verdict(0.98, 1.02, 0.03), Verdict::Same);
    assert_eq!(verdict(0.98, 1.04, 0.03), Verdict::Inconclusive);
    assert_eq!(verdict(0.96, 1.01, 0.03), Verdict::Inconclusive);
}

#[test]
fn verdicts_on_work() {
    let mut c = Counts::new();
    let w = c.entry("Poseidon/w".into()).or_default();
    w.insert("native_instructions", (1000.0, 1010.0));
    w.insert("wasm_operators", (500.0, 500.0));
    w.insert("wasmtime_instructions", (400.0, 390.0));
    assert_eq!(
        work_of("native", "Poseidon/w", &c),
        Some(Work::More(1.0)),
        "+10 of 1000"
    );
    assert_eq!(work_of("node24", "Poseidon/w", &c), Some(Work::Equal));
    // Operators equal, wasmtime's instructions down: less, by the first count's 0%.
    assert_eq!(work_of("wasmtime", "Poseidon/w", &c), Some(Work::Less(0.0)));
    assert_eq!(work_of("native", "Poseidon/other", &c), None);
    c.get_mut("Poseidon/w")
        .unwrap()
        .insert("wasm_operators", (500.0, 501.0));
    assert_eq!(work_of("wasmtime", "Poseidon/w", &c), Some(Work::Mixed));
}

/// A standard normal draw (Box–Muller).
fn normal(rng: &mut StdRng) -> f64 {
    let (u, v): (f64, f64) = (rng.gen::<f64>().max(1e-300), rng.gen());
    (-2.0 * u.ln()).sqrt() * (2.0 * std::f64::consts::PI * v).cos()
}

type Rounds = BTreeMap<(String, String), BTreeMap<u32, f64>>;

/// The noise of one simulated runtime, on the log scale: a run's (shared by its
/// workloads: a process's layout, the clock during it) and a workload's own.
#[derive(Clone, Copy)]
struct Noise {
    run: f64,
    workload: f64,
}

/// Per-round noise like the lab's on a 2-core VM (about 1.5% to 3.2% per ratio).
const VM: [Noise; 5] = [
    Noise {
        run: 0.008,
        workload: 0.008,
    },
    Noise {
        run: 0.008,
        workload: 0.010,
    },
    Noise {
        run: 0.012,
        workload: 0.014,
    },
    Noise {
        run: 0.014,
        workload: 0.016,
    },
    Noise {
        run: 0.016,
        workload: 0.016,
    },
];

/// One simulated A/B: a runtime per `noise`, `workloads` rows each, `rounds`
/// rounds; each round has a drift shared by both sides and every runtime (a noisy
/// neighbour), each run its own noise shared by its workloads, each measurement
/// its own, and the side measured first a small bias (the order alternates, as
/// the A/B's does). HEAD is `effect` times BASE.
fn simulate(
    rng: &mut StdRng,
    noise: &[Noise],
    workloads: usize,
    rounds: u32,
    effect: f64,
) -> Vec<(String, Rounds)> {
    let mut out: Vec<(String, Rounds)> = (0..noise.len())
        .map(|rt| (format!("rt{rt}"), Rounds::new()))
        .collect();
    for round in 1..=rounds {
        let drift = 0.05 * normal(rng);
        let first = if round % 2 == 1 { "base" } else { "head" };
        for (rt, n) in noise.iter().enumerate() {
            for side in ["base", "head"] {
                let run = n.run * normal(rng);
                let bias = if side == first { 0.005 } else { 0.0 };
                let scale = if side == "head" { effect } else { 1.0 };
                for w in 0..workloads {
                    let true_ns = 1000.0 * (w + 1) as f64;
                    let ns =
                        true_ns * scale * (drift + run + bias + n.workload * normal(rng)).exp();
                    out[rt]
                        .1
                        .entry((format!("Poseidon/w{w}"), side.to_owned()))
                        .or_default()
                        .insert(round, ns);
                }
            }
        }
    }
    out
}

/// The rounds the A/B's defaults give on a 2-core VM (docs/ab.md).
const ROUNDS: u32 = 20;

#[test]
fn a_row_s_interval_misses_as_often_as_its_level_says() {
    // One row, 3 rounds of pure normal noise, intervals at 80%: 20% of them must
    // miss the true ratio (±1.5%, five standard errors of 20,000 draws). With n
    // for n − 1 (in the variance or the degrees of freedom) they miss about 25% to
    // 30%; with the standard deviation for the standard error, about 5%.
    let mut rng = StdRng::seed_from_u64(0xc0ffee);
    let (sims, truth) = (20_000, 1.02f64);
    let mut missed = 0;
    for _ in 0..sims {
        let base: Vec<f64> = (0..3).map(|_| (0.02 * normal(&mut rng)).exp()).collect();
        let head: Vec<f64> = base
            .iter()
            .map(|b| b * truth * (0.02 * normal(&mut rng)).exp())
            .collect();
        let (_, lo, hi) = ratio_interval(&base, &head, 0.2).unwrap();
        if !(lo <= truth && truth <= hi) {
            missed += 1;
        }
    }
    let rate = missed as f64 / sims as f64;
    println!("80% intervals: {missed} of {sims} missed");
    assert!((0.185..=0.215).contains(&rate), "{missed} of {sims} missed");
}

#[test]
fn a_row_finds_a_change_at_its_detection_limit_half_the_time() {
    // 64 rounds, noise 2% per ratio, level 5%: a change of t(0.975, 63)·2%/8 is
    // found about half the time (the noncentral t puts it at 50.3%). An interval
    // too wide (the standard deviation for the standard error) finds it never.
    let mut rng = StdRng::seed_from_u64(99);
    let (n, sd) = (64usize, 0.02f64);
    let shift = t_quantile(0.975, (n - 1) as f64) * sd / (n as f64).sqrt();
    let sims = 4000;
    let mut found = 0;
    for _ in 0..sims {
        let base = vec![1.0; n];
        let head: Vec<f64> = (0..n)
            .map(|_| (shift + sd * normal(&mut rng)).exp())
            .collect();
        let (_, lo, _) = ratio_interval(&base, &head, 0.05).unwrap();
        if lo > 1.0 {
            found += 1;
        }
    }
    let rate = found as f64 / sims as f64;
    println!("at the detection limit: {found} of {sims} found");
    assert!((0.47..=0.53).contains(&rate), "{found} of {sims} found");
}

fn false_tables(rng: &mut StdRng, tables: usize, settings: Settings) -> usize {
    (0..tables)
        .filter(|_| {
            let t = table(&simulate(rng, &VM, 2, ROUNDS, 1.0), settings).unwrap();
            assert_eq!(t.rows.len(), 10);
            t.rows
                .iter()
                .any(|r| matches!(r.verdict, Verdict::Faster | Verdict::Slower))
        })
        .count()
}

#[test]
fn two_identical_builds_give_a_false_verdict_in_about_1_table_in_20() {
    let mut rng = StdRng::seed_from_u64(0x5eed);
    let tables = 4000;
    let n = false_tables(&mut rng, tables, Settings::default());
    // At most q = 5% in expectation, and not far under it (the rows of a runtime
    // share a run's noise, so a little under): a procedure too strict (q/m², about
    // 0.5%) or none at all (about 35%) falls outside. 4000 tables measure the rate
    // to about ±0.35%.
    let rate = n as f64 / tables as f64;
    println!("identical builds: {n} of {tables} tables with a false verdict");
    assert!(
        (0.025..=0.06).contains(&rate),
        "{n} of {tables} tables had a false verdict"
    );
    // What the band guards against: without a correction, far above.
    let loose = Settings {
        fdr: 0.05 * 10.0,
        ..Settings::default()
    };
    let n = false_tables(&mut rng, 500, loose);
    println!("no correction: {n} of 500 tables with a false verdict");
    assert!(n > 100, "{n} of 500 without the correction");
}

#[test]
fn two_identical_builds_are_the_same_within_the_margin_where_quiet() {
    // The two quieter runtimes (about 1.6% and 1.8% per ratio): 20 rounds put the
    // whole interval within ±3% on nearly every row. The noisiest (3.2%) reach past
    // it at times: inconclusive, never same by default.
    let mut rng = StdRng::seed_from_u64(5);
    let (mut same, mut rows) = (0, 0);
    for _ in 0..200 {
        let t = table(
            &simulate(&mut rng, &VM, 2, ROUNDS, 1.0),
            Settings::default(),
        )
        .unwrap();
        for r in t
            .rows
            .iter()
            .filter(|r| r.runtime == "rt0" || r.runtime == "rt1")
        {
            rows += 1;
            same += usize::from(r.verdict == Verdict::Same);
        }
        for r in &t.rows {
            if r.verdict == Verdict::Inconclusive {
                assert!(r.low < 0.97 || r.high > 1.03, "{r:?}");
            }
        }
    }
    println!("identical builds: {same} of {rows} quiet rows same");
    assert!(
        same as f64 >= 0.95 * rows as f64,
        "{same} of {rows} quiet rows same"
    );
}

#[test]
fn a_3_percent_slowdown_is_slower_on_most_rows_and_20_percent_on_all() {
    let mut rng = StdRng::seed_from_u64(3);
    let (mut slower, mut rows) = (0, 0);
    for _ in 0..200 {
        let t = table(
            &simulate(&mut rng, &VM, 2, ROUNDS, 1.03),
            Settings::default(),
        )
        .unwrap();
        rows += t.rows.len();
        slower += t
            .rows
            .iter()
            .filter(|r| r.verdict == Verdict::Slower)
            .count();
        assert!(t.rows.iter().all(|r| r.verdict != Verdict::Faster));
    }
    println!("3% slower: {slower} of {rows} rows slower");
    assert!(
        slower as f64 >= 0.9 * rows as f64,
        "{slower} of {rows} rows slower"
    );
    for _ in 0..50 {
        let t = table(
            &simulate(&mut rng, &VM, 2, ROUNDS, 1.2),
            Settings::default(),
        )
        .unwrap();
        for r in &t.rows {
            assert_eq!(r.verdict, Verdict::Slower, "{r:?}");
            assert!(r.low > 1.1 && r.high < 1.3, "{r:?}");
            assert_eq!(r.rounds, ROUNDS as usize);
        }
    }
    let t = table(
        &simulate(&mut rng, &VM[..2], 3, ROUNDS, 0.8),
        Settings::default(),
    )
    .unwrap();
    assert!(t.rows.iter().all(|r| r.verdict == Verdict::Faster));
}

#[test]
fn an_inconclusive_row_says_what_it_could_have_seen() {
    // Two rounds of 10% noise: nothing to call, nothing within ±3%.
    let mut rng = StdRng::seed_from_u64(11);
    let noisy = [Noise {
        run: 0.07,
        workload: 0.07,
    }];
    let t = table(&simulate(&mut rng, &noisy, 1, 4, 1.0), Settings::default()).unwrap();
    let r = &t.rows[0];
    assert_eq!(r.verdict, Verdict::Inconclusive, "{r:?}");
    assert!(r.detectable > 0.03, "{r:?}");
    let md = markdown_report(&t, &Counts::new(), &[]);
    assert!(md.contains("inconclusive (sees ±"), "{md}");
    assert!(md.contains("Work: not counted."), "{md}");
}

#[test]
fn ab_json_has_the_promised_fields() {
    let mut rng = StdRng::seed_from_u64(1);
    let t = table(
        &simulate(&mut rng, &VM[..1], 2, 4, 1.5),
        Settings::default(),
    )
    .unwrap();
    let mut counts = Counts::new();
    counts
        .entry("Poseidon/w0".into())
        .or_default()
        .insert("native_instructions", (100.0, 150.0));
    let j = json_report(&t, &counts, &[("BASE".into(), "abc".into())]);
    let row = &j["rows"][0];
    for k in [
        "runtime",
        "workload",
        "base_ns",
        "head_ns",
        "ratio",
        "low",
        "high",
        "p",
        "verdict",
        "detectable",
        "counts",
    ] {
        assert!(!row[k].is_null(), "rows[0] lacks {k}: {row}");
    }
    assert_eq!(
        row["counts"]["native_instructions"],
        json!({"base": 100.0, "head": 150.0, "change_pct": 50.0})
    );
    // rt0 is not "native": its counts are Wasm operators, which were not counted.
    assert!(row["work"].is_null(), "{row}");
    assert_eq!(j["env"]["BASE"], "abc");
    assert_eq!(j["arithmetic_changed"], json!(true));
    assert!(j["summary"][1]
        .as_str()
        .unwrap()
        .starts_with("Work: the arithmetic changed: Poseidon/w0 (native_instructions +50.000%)"));
    let b = bmf::of_ab(&t.rows, &counts, "head");
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
