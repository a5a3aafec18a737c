//! `cargo xtask ab-selftest`: the whole A/B path on stand-in upstream trees
//! ([`super::standin`]), as `make test` runs it without a proof-systems checkout.
//! It asserts what is exact, never a measured time: whether the interval of a
//! row holds 1 depends on the machine's noise (a loaded machine can widen it past
//! any slowdown), and the statistics' power is the simulation's to check
//! (bench/tests/ab.rs).
//!
//! - A against B, whose permutation costs two: built for the host and
//!   wasm32-wasip1, four interleaved rounds natively and under wasmtime on the
//!   default workloads (the permutation, the hash of 2); a row per runtime and
//!   workload with four paired rounds, its interval around its ratio and its
//!   verdict the interval's; the rounds saved in their interleaved order (BASE
//!   HEAD, HEAD BASE, …), and (where valgrind is) the permutation's counts doubled
//!   on every kind, to 0.1%, as B doubles the work, its rows' work `more` and the
//!   summary saying the arithmetic changed; the count program's upstream hash of 2
//!   giving our reference's digest;
//! - A as a revision of a git checkout (`DIR@REV`) against the same files as a
//!   directory: the two sides must build to identical binaries, and the checkout
//!   must be left as it was (`git status` clean, no new files).
//!
//! Prints `ok`/`FAIL` lines and `N passed, M failed`.

use std::path::Path;
use std::process::Command;

use serde_json::Value;

use super::sides::git;
use crate::checklist::Checklist;

/// Paired rounds of the slowed stand-in (the least `make ab` takes).
const ROUNDS: usize = 4;

const QUICK: &str =
    "--warm-up-time 0.2 --measurement-time 0.3 --sample-size 10 --nresamples 500 --noplot";

fn read(path: &Path) -> Result<Value, String> {
    let t = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    serde_json::from_str(&t).map_err(|e| format!("{}: {e}", path.display()))
}

fn args(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| s.to_string()).collect()
}

/// `cargo xtask ab-selftest`.
pub fn task(root: &Path, a: &[String]) -> Result<bool, String> {
    if !a.is_empty() {
        return Err(String::new());
    }
    let dir = root.join("target/ab-selftest");
    let (ta, tb, repo) = (dir.join("a"), dir.join("b"), dir.join("repo"));
    super::standin::write(&ta, root, false)?;
    super::standin::write(&tb, root, true)?;
    super::standin::write(&repo, root, false)?;
    let commit = commit_all(&repo)?;
    let mut r = Checklist::default();

    let out = dir.join("slower");
    let ok = super::task(
        root,
        &args(&[
            "--base",
            &ta.display().to_string(),
            "--head",
            &tb.display().to_string(),
            "--rounds",
            &ROUNDS.to_string(),
            "--runtimes",
            "native wasmtime",
            "--count-ids",
            "Poseidon/permutation/upstream",
            "--criterion",
            QUICK,
            "--out",
            &out.display().to_string(),
        ]),
    )?;
    let ab = read(&out.join("ab.json"))?;
    let rows = ab["rows"].as_array().cloned().unwrap_or_default();
    // The default workloads are the count program's default IDs.
    r.check(
        ok && rows.len() == 4
            && rows
                .iter()
                .all(|row| super::COUNT_IDS.iter().any(|w| row["workload"] == *w)),
        "A/B of the stand-ins: the 2 default workloads on 2 runtimes, a row each",
        || format!("{} rows: {rows:?}", rows.len()),
    );
    let margin = ab["margin"].as_f64().unwrap_or(f64::NAN);
    for row in &rows {
        let what = format!("{} {}", row["runtime"], row["workload"]);
        r.check(
            row_is_whole(row, margin),
            &format!(
                "{what}: {ROUNDS} paired rounds, a ratio inside its interval, the interval's verdict"
            ),
            || format!("{row}"),
        );
        let counts = row["counts"].as_object().cloned().unwrap_or_default();
        if row["workload"] == "Poseidon/permutation/upstream" && !counts.is_empty() {
            r.check(
                counts.values().all(|c| {
                    let (b, h) = (
                        c["base"].as_f64().unwrap_or(0.0),
                        c["head"].as_f64().unwrap_or(0.0),
                    );
                    // Exact counts: B permutes twice and does nothing else more.
                    b > 0.0 && (h / b - 2.0).abs() < 1e-3
                }),
                &format!("{what}: its counts double (to 0.1%)"),
                || format!("{counts:?}"),
            );
            r.check(
                row["work"] == "more"
                    && row["work_change_pct"]
                        .as_f64()
                        .is_some_and(|p| (p - 100.0).abs() < 0.1),
                &format!("{what}: work more, +100%"),
                || format!("{row}"),
            );
        }
    }
    if rows
        .iter()
        .any(|row| row["counts"].as_object().is_some_and(|c| !c.is_empty()))
    {
        r.check(
            ab["arithmetic_changed"] == true
                && ab["summary"][1]
                    .as_str()
                    .is_some_and(|l| l.starts_with("Work: the arithmetic changed")),
            "the summary says the arithmetic changed",
            || format!("{}", ab["summary"]),
        );
    }
    let count = root.join("target/ab/bin/base/count");
    let digest = |id: &str| {
        crate::lab::tools::stdout_of(Command::new(&count).args([id, "3"]))
            .and_then(|o| o.split_whitespace().nth(2).map(str::to_owned))
    };
    if count.is_file() {
        let (up, ours) = (
            digest("Poseidon/hash/upstream/2"),
            digest("Poseidon/hash/reference/2"),
        );
        r.check(
            up.is_some() && up == ours,
            "the count program's upstream hash of 2 gives our reference's digest",
            || format!("upstream {up:?}, reference {ours:?}"),
        );
    }
    let order = round_order(&root.join("target/ab/criterion"))?;
    let want: Vec<String> = (1..=ROUNDS)
        .flat_map(|k| {
            let (b, h) = (format!("base@{k}"), format!("head@{k}"));
            if k % 2 == 1 {
                [b, h]
            } else {
                [h, b]
            }
        })
        .collect();
    r.check(
        !order.is_empty() && order.iter().all(|(_, o)| *o == want),
        &format!(
            "every runtime's workloads saved in interleaved rounds: {}",
            want.join(" ")
        ),
        || format!("{order:?}"),
    );
    let bmf = read(&out.join("ab.bmf.json"))?;
    r.check(
        poseidon_bmf_shape(&bmf),
        "ab.bmf.json: a benchmark per row, latency in each",
        || format!("{bmf}"),
    );

    let same = dir.join("same");
    let ok = super::task(
        root,
        &args(&[
            "--base",
            &format!("{}@HEAD", repo.display()),
            "--head",
            &ta.display().to_string(),
            "--rounds",
            "4",
            "--runtimes",
            "native",
            "--workloads",
            "^Poseidon/permutation/upstream$",
            "--no-counts",
            "--criterion",
            QUICK,
            "--out",
            &same.display().to_string(),
        ]),
    )?;
    let env = read(&same.join("ab.json"))?["env"].clone();
    r.check(
        ok && env["binaries"]
            .as_str()
            .is_some_and(|b| b.starts_with("identical")),
        "A at a revision of a checkout (DIR@HEAD) against A's files: identical binaries",
        || format!("env {env}"),
    );
    let status = git(&repo, &["status", "--porcelain", "--ignored"])?;
    let head = git(&repo, &["rev-parse", "HEAD"])?;
    r.check(
        status.is_empty() && head == commit,
        "the checkout is left as it was: git status clean, HEAD unmoved, nothing ignored added",
        || format!("status {status:?}, HEAD {head} (was {commit})"),
    );
    Ok(r.finish())
}

/// Makes `dir` a git repository of its files in one commit; returns the commit.
fn commit_all(dir: &Path) -> Result<String, String> {
    git(dir, &["init", "-q"])?;
    git(dir, &["add", "-A"])?;
    let who = [
        "-c",
        "user.name=ab-selftest",
        "-c",
        "user.email=ab@selftest.invalid",
    ];
    git(
        dir,
        &[
            &who[..],
            &["commit", "-q", "--no-gpg-sign", "-m", "stand-in"],
        ]
        .concat(),
    )?;
    git(dir, &["rev-parse", "HEAD"])
}

/// A row's numbers are whole: its rounds, a positive ratio inside its interval,
/// and the verdict that interval gives (above 1 slower, below 1 faster, within
/// the report's `margin` same, else inconclusive).
fn row_is_whole(row: &Value, margin: f64) -> bool {
    let f = |k: &str| row[k].as_f64().filter(|x| x.is_finite() && *x > 0.0);
    let (Some(ratio), Some(low), Some(high)) = (f("ratio"), f("low"), f("high")) else {
        return false;
    };
    let verdict = if low > 1.0 {
        "slower"
    } else if high < 1.0 {
        "faster"
    } else if low >= 1.0 - margin && high <= 1.0 + margin {
        "same"
    } else {
        "inconclusive"
    };
    row["rounds"].as_u64() == Some(ROUNDS as u64)
        && low <= ratio
        && ratio <= high
        && row["verdict"] == verdict
}

/// For each benchmark directory under `criterion` (runtime/…/workload), its saved
/// baselines (`side@round`) in the order they were written.
fn round_order(criterion: &Path) -> Result<Vec<(String, Vec<String>)>, String> {
    fn walk(dir: &Path, out: &mut Vec<(String, Vec<String>)>) -> Result<(), String> {
        let entries = std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        let mut saved = Vec::new();
        for e in entries.flatten() {
            let p = e.path();
            let name = e.file_name().to_string_lossy().into_owned();
            if !p.is_dir() {
                continue;
            }
            if name.starts_with("base@") || name.starts_with("head@") {
                let t = std::fs::metadata(p.join("estimates.json"))
                    .and_then(|m| m.modified())
                    .map_err(|e| format!("{}: {e}", p.display()))?;
                saved.push((t, name));
            } else {
                walk(&p, out)?;
            }
        }
        if !saved.is_empty() {
            saved.sort();
            out.push((
                dir.display().to_string(),
                saved.into_iter().map(|(_, n)| n).collect(),
            ));
        }
        Ok(())
    }
    let mut out = Vec::new();
    walk(criterion, &mut out)?;
    Ok(out)
}

fn poseidon_bmf_shape(v: &Value) -> bool {
    v.as_object().is_some_and(|m| {
        m.len() == 4
            && m.values()
                .all(|b| b["latency"]["value"].as_f64().is_some_and(|x| x > 0.0))
    })
}

/// `cargo xtask ab-selftest --help`.
pub const USAGE: &str = "usage: cargo xtask ab-selftest
The A/B path on stand-in upstream trees (target/ab-selftest/): A against a B whose
permutation costs two (every row whole, the rounds interleaved, the counts doubled
and the work more; no verdict on time is asserted), and A as DIR@HEAD of a git checkout against A's
files (identical binaries; the checkout left clean).";
