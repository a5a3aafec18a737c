//! `cargo xtask ab-selftest`: the whole A/B path on stand-in upstream trees
//! ([`super::standin`]), as `make test` runs it without a proof-systems checkout.
//!
//! - A against B, whose permutation costs two: built for the host and
//!   wasm32-wasip1, four interleaved rounds natively and under wasmtime; HEAD must
//!   be slower on every row with an interval above 1, and (where valgrind is) the
//!   permutation's counts must grow on every kind;
//! - A as a revision of a git checkout (`DIR@REV`) against the same files as a
//!   directory: the two sides must build to identical binaries, and the checkout
//!   must be left as it was (`git status` clean, no new files).
//!
//! Prints `ok`/`FAIL` lines and `N passed, M failed`.

use std::path::Path;

use serde_json::Value;

use super::sides::git;
use crate::checklist::Checklist;

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
            "4",
            "--runtimes",
            "native wasmtime",
            "--workloads",
            "^Poseidon/(permutation|poseidon_hash_kimchi)/upstream$",
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
    r.check(
        ok && rows.len() == 4,
        "A/B of the stand-ins: 2 workloads on 2 runtimes, a row each",
        || format!("{} rows", rows.len()),
    );
    for row in &rows {
        let what = format!("{} {}", row["runtime"], row["workload"]);
        r.check(
            row["verdict"] == "slower" && row["low"].as_f64().is_some_and(|l| l > 1.0),
            &format!("{what}: HEAD (two permutations for one) is slower, its interval above 1"),
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
                    b > 0.0 && h > 1.8 * b && h < 2.2 * b
                }),
                &format!("{what}: its counts about double"),
                || format!("{counts:?}"),
            );
        }
    }
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
            "3",
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
permutation costs two (slower on every row, counts doubled), and A as DIR@HEAD of a
git checkout against A's files (identical binaries; the checkout left clean).";
