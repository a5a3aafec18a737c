//! Checks of the GitHub workflow (`.github/workflows/ci.yml`): the cache's
//! permission and key, every x86_64-linux package and app built or run, the matrix
//! of machines and the job that merges their reports.

use std::path::Path;
use std::process::Command;

use serde_yaml::Value;

use crate::checklist::Checklist;

/// The runners of the machine matrix: x86-64 and arm64 Linux, arm64 macOS.
pub const RUNNERS: [&str; 3] = ["ubuntu-24.04", "ubuntu-24.04-arm", "macos-15"];

/// A job's steps.
pub(crate) fn steps(job: &Value) -> impl Iterator<Item = &Value> {
    job["steps"].as_sequence().into_iter().flatten()
}

/// Whether `step` uses `action` (at any version).
pub(crate) fn step_uses(step: &Value, action: &str) -> bool {
    step["uses"]
        .as_str()
        .is_some_and(|u| u.split('@').next() == Some(action))
}

fn runs(job: &Value) -> impl Iterator<Item = &str> {
    steps(job).filter_map(|s| s["run"].as_str())
}

fn uses<'a>(job: &'a Value, action: &'a str) -> impl Iterator<Item = &'a Value> + 'a {
    steps(job).filter(move |s| step_uses(s, action))
}

/// The steps that use cache-nix-action, whole (restore and save) or in part.
fn caches(job: &Value) -> impl Iterator<Item = &Value> {
    steps(job).filter(|s| {
        s["uses"]
            .as_str()
            .and_then(|u| u.split('@').next())
            .is_some_and(|a| a.starts_with("nix-community/cache-nix-action"))
    })
}

/// Whether `pattern` (a hashFiles glob: `**` any directories, `*` within one name)
/// matches `path` or a directory above it.
pub fn glob_matches(pattern: &str, path: &str) -> bool {
    fn segment(p: &[u8], s: &[u8]) -> bool {
        match (p.first(), s.first()) {
            (None, None) => true,
            (Some(b'*'), _) => segment(&p[1..], s) || (!s.is_empty() && segment(p, &s[1..])),
            (Some(a), Some(b)) if a == b => segment(&p[1..], &s[1..]),
            _ => false,
        }
    }
    fn parts(p: &[&str], s: &[&str]) -> bool {
        match (p.first(), s.first()) {
            (None, _) => true, // a directory above the path matched
            (Some(&"**"), _) => parts(&p[1..], s) || (!s.is_empty() && parts(p, &s[1..])),
            (Some(a), Some(b)) => segment(a.as_bytes(), b.as_bytes()) && parts(&p[1..], &s[1..]),
            (Some(_), None) => false,
        }
    }
    let p: Vec<&str> = pattern.split('/').filter(|x| !x.is_empty()).collect();
    let s: Vec<&str> = path.split('/').collect();
    parts(&p, &s)
}

/// The quoted arguments of every `hashFiles(…)` in `text`.
pub fn hash_patterns(text: &str) -> Vec<String> {
    text.split("hashFiles(")
        .skip(1)
        .flat_map(|rest| {
            let args = rest.split(')').next().unwrap_or("");
            args.split('\'')
                .skip(1)
                .step_by(2)
                .map(str::to_owned)
                .collect::<Vec<_>>()
        })
        .collect()
}

/// The flake outputs (`.#NAME`) that the lines of `runs` give to `nix VERB`.
pub fn outputs_given(runs: &[&str], verb: &str) -> Vec<String> {
    let mut out = Vec::new();
    for line in runs.iter().flat_map(|r| r.lines()) {
        let Some(rest) = line.split(&format!("nix {verb} ")).nth(1) else {
            continue;
        };
        for word in rest.split_whitespace() {
            if let Some(name) = word.strip_prefix(".#") {
                out.push(name.to_owned());
                if verb == "run" {
                    break; // what follows goes to the app
                }
            }
        }
    }
    out
}

/// The files crane's dependency builds and the flake's evaluation read: the cache
/// key must change when any of them does.
fn key_inputs(root: &Path) -> Result<Vec<String>, String> {
    let out = Command::new("git")
        .args(["ls-files"])
        .current_dir(root)
        .output()
        .map_err(|e| format!("git ls-files: {e}"))?;
    Ok(String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter(|f| {
            f.ends_with("Cargo.toml")
                || f.starts_with("nix/")
                || [
                    "Cargo.lock",
                    ".cargo/config.toml",
                    "rust-toolchain.toml",
                    "flake.nix",
                    "flake.lock",
                ]
                .contains(f)
        })
        .map(str::to_owned)
        .collect())
}

/// Every check on the workflow; `packages` and `apps` are the flake's x86_64-linux ones.
pub fn checks(
    r: &mut Checklist,
    root: &Path,
    packages: &[String],
    apps: &[String],
) -> Result<(), String> {
    let path = root.join(".github/workflows/ci.yml");
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let wf: Value = serde_yaml::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    let jobs: Vec<(String, &Value)> = wf["jobs"]
        .as_mapping()
        .into_iter()
        .flatten()
        .filter_map(|(k, v)| Some((k.as_str()?.to_owned(), v)))
        .collect();

    // 7. The cache: purging needs `actions: write`; the key covers what the builds read.
    let inputs = key_inputs(root)?;
    for (name, job) in &jobs {
        for cache in caches(job) {
            let action = cache["uses"].as_str().unwrap_or("");
            let with = &cache["with"];
            // The whole action saves in a post step that runs on success only: a job
            // with a failing check would never save, and every run would start cold.
            r.check(
                !action.starts_with("nix-community/cache-nix-action@"),
                &format!("workflow job {name}: the Nix store is restored and saved by separate steps ({action})"),
                || "cache-nix-action saves only when the job succeeds: use its restore and save actions".into(),
            );
            if action.contains("/save@") {
                r.check(
                    cache["if"]
                        .as_str()
                        .is_some_and(|c| c.contains("always()")),
                    &format!("workflow job {name}: the store is saved even when a step failed (if: always())"),
                    || format!("if: {:?}", cache["if"]),
                );
            }
            if with["purge"].as_bool() == Some(true) {
                let granted = |v: &Value| v["permissions"]["actions"].as_str() == Some("write");
                r.check(
                    granted(job) || granted(&wf),
                    &format!("workflow job {name}: cache purge has `permissions: actions: write`"),
                    || format!("permissions: {:?}", job["permissions"]),
                );
            }
            let key = with["primary-key"].as_str().unwrap_or("");
            let patterns = hash_patterns(key);
            let missed: Vec<&String> = inputs
                .iter()
                .filter(|f| !patterns.iter().any(|p| glob_matches(p, f)))
                .collect();
            r.check(
                missed.is_empty() && !inputs.is_empty(),
                &format!(
                    "workflow job {name}: the cache key hashes the {} files the Nix builds read (every Cargo.toml, .cargo/config.toml, the flake)",
                    inputs.len()
                ),
                || format!("not hashed: {missed:?} (patterns {patterns:?})"),
            );
            let prefix = with["restore-prefixes-first-match"].as_str().unwrap_or(
                if action.contains("/save@") {
                    "runner.arch"
                } else {
                    ""
                },
            );
            r.check(
                key.contains("runner.arch") && prefix.contains("runner.arch"),
                &format!("workflow job {name}: one cache per kind of machine (runner.os and runner.arch in the key)"),
                || format!("key {key:?}, restore prefix {prefix:?}"),
            );
        }
    }

    // 3. The machine matrix: flake check and the focused benchmark on each runner.
    let matrix = jobs.iter().find(|(_, j)| {
        let runners: Vec<&str> = j["strategy"]["matrix"]["include"]
            .as_sequence()
            .into_iter()
            .flatten()
            .filter_map(|e| e["runner"].as_str())
            .collect();
        RUNNERS.iter().all(|r| runners.contains(r))
            && j["runs-on"]
                .as_str()
                .is_some_and(|s| s.contains("matrix.runner"))
    });
    r.check(
        matrix.is_some(),
        &format!("workflow: a job runs on a matrix of {}", RUNNERS.join(", ")),
        || "no job whose matrix includes every one of these runners".into(),
    );
    let Some((matrix_name, matrix_job)) = matrix else {
        return Ok(());
    };
    let matrix_runs: Vec<&str> = runs(matrix_job).collect();
    let has = |needle: &str| matrix_runs.iter().any(|r| r.contains(needle));
    // (What the artifact holds, and that the merge job finds it, is replayed by
    // `cargo xtask nix-replay artifacts`.)
    let uploads_report = uses(matrix_job, "actions/upload-artifact").any(|s| {
        s["with"]["name"]
            .as_str()
            .is_some_and(|p| p.starts_with("report-"))
    });
    r.check(
        has("nix flake check")
            && has("nix run .#bench -- ")
            && has("Poseidon/permutation/")
            && has("nix run .#counts -- ")
            && uploads_report,
        &format!("workflow job {matrix_name}: the flake check, `nix run .#bench` on the permutation, the counts, report.json uploaded"),
        || format!("runs: {matrix_runs:?}"),
    );

    // 2. Every x86_64-linux package built, every app run.
    let built = outputs_given(&matrix_runs, "build");
    let ran = outputs_given(&matrix_runs, "run");
    let unbuilt: Vec<&String> = packages.iter().filter(|p| !built.contains(p)).collect();
    let unrun: Vec<&String> = apps.iter().filter(|a| !ran.contains(a)).collect();
    r.check(
        unbuilt.is_empty() && unrun.is_empty() && !packages.is_empty(),
        &format!(
            "workflow job {matrix_name}: builds every x86_64-linux package ({}) and runs every app ({})",
            packages.len(),
            apps.len()
        ),
        || format!("never built {unbuilt:?}, never run {unrun:?}"),
    );

    // 3. The merge: after the matrix, one table of every machine.
    let merge = jobs.iter().find(|(_, j)| {
        let needs: Vec<&str> = match &j["needs"] {
            Value::String(s) => vec![s.as_str()],
            Value::Sequence(l) => l.iter().filter_map(Value::as_str).collect(),
            _ => vec![],
        };
        needs.contains(&matrix_name.as_str())
    });
    let merged = merge.is_some_and(|(_, j)| {
        let rs: Vec<&str> = runs(j).collect();
        rs.iter().any(|r| r.contains("bench-report-tool -- merge"))
            && rs.iter().any(|r| r.contains("GITHUB_STEP_SUMMARY"))
            && uses(j, "actions/download-artifact").next().is_some()
            && uses(j, "actions/upload-artifact").next().is_some()
    });
    r.check(
        merged,
        &format!("workflow: a job after {matrix_name} merges every machine's report.json (bench-report merge) into the job summary and an artifact"),
        || format!("job {:?}", merge.map(|(n, _)| n)),
    );
    // The merge job runs one tool that the x86-64 Linux machine built: it restores
    // that machine's store (its own runner's kind, so the same key) instead of
    // building the toolchain again.
    let key_of = |j: &Value| -> Vec<String> {
        caches(j)
            .filter_map(|c| c["with"]["primary-key"].as_str().map(str::to_owned))
            .collect()
    };
    let machine_keys = key_of(matrix_job);
    let restores = merge.is_some_and(|(_, j)| {
        j["runs-on"] == "ubuntu-24.04"
            && caches(j).any(|c| {
                c["uses"].as_str().is_some_and(|u| u.contains("/restore@"))
                    && c["with"]["primary-key"]
                        .as_str()
                        .is_some_and(|k| machine_keys.iter().any(|m| m == k))
            })
            && !caches(j).any(|c| c["uses"].as_str().is_some_and(|u| !u.contains("/restore@")))
    });
    r.check(
        restores,
        "workflow: the merge job restores the x86-64 Linux machine's Nix store (same runner, same key) and saves none",
        || format!("machine keys {machine_keys:?}"),
    );

    // ab.yml: the caller's token never persists in a checkout, and the lab's
    // revision is an input the caller must give (a called workflow cannot see the
    // ref it was called at).
    let ab_path = root.join(".github/workflows/ab.yml");
    let ab_text =
        std::fs::read_to_string(&ab_path).map_err(|e| format!("{}: {e}", ab_path.display()))?;
    let ab: Value =
        serde_yaml::from_str(&ab_text).map_err(|e| format!("{}: {e}", ab_path.display()))?;
    for (file, wf) in [("ci.yml", &wf), ("ab.yml", &ab)] {
        let checkouts: Vec<&Value> = wf["jobs"]
            .as_mapping()
            .into_iter()
            .flatten()
            .flat_map(|(_, j)| uses(j, "actions/checkout").collect::<Vec<_>>())
            .collect();
        r.check(
            !checkouts.is_empty()
                && checkouts
                    .iter()
                    .all(|c| c["with"]["persist-credentials"].as_bool() == Some(false)),
            &format!("{file}: every checkout has persist-credentials: false (no token left in .git/config for the build scripts)"),
            || format!("{} checkouts", checkouts.len()),
        );
        if file == "ab.yml" {
            let lab = &wf["on"]["workflow_call"]["inputs"]["lab-ref"];
            r.check(
                lab["required"].as_bool() == Some(true) && lab["default"].is_null(),
                "ab.yml: lab-ref is required, with no default (main would not be the tag the caller pinned)",
                || format!("lab-ref: {lab:?}"),
            );
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn globs_match_as_hash_files_does() {
        assert!(glob_matches("**/Cargo.toml", "Cargo.toml"));
        assert!(glob_matches("**/Cargo.toml", "bench/Cargo.toml"));
        assert!(glob_matches("nix/**", "nix/offline/eval.nix"));
        assert!(glob_matches("nix", "nix/apps.nix"));
        assert!(glob_matches(".cargo/config.toml", ".cargo/config.toml"));
        assert!(glob_matches("*.lock", "flake.lock"));
        assert!(!glob_matches("*.lock", "nix/flake.lock"));
        assert!(!glob_matches("Cargo.toml", "bench/Cargo.toml"));
        assert!(!glob_matches("nix/*.nix", "nix/offline/eval.nix"));
    }

    #[test]
    fn hash_patterns_and_outputs_are_read() {
        let key = "nix-${{ runner.os }}-${{ hashFiles('flake.lock', '**/Cargo.toml') }}";
        assert_eq!(hash_patterns(key), ["flake.lock", "**/Cargo.toml"]);
        let runs = [
            "nix build -L --no-link .#poseidon .#bench-wasm\nnix run .#bench -- --quick 'x'",
            "nix run .#counts -- '.#not-an-app'",
        ];
        assert_eq!(outputs_given(&runs, "build"), ["poseidon", "bench-wasm"]);
        assert_eq!(outputs_given(&runs, "run"), ["bench", "counts"]);
    }
}
