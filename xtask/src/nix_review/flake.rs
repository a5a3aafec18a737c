//! Checks of flake.nix's outputs, evaluated for every system it declares with
//! stand-in inputs (`nix/offline/flake-eval.nix`).

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::process::Command;

use serde_json::Value;

use crate::checklist::Checklist;

/// What `import nixpkgs` of the pinned nixpkgs throws on a system it dropped.
const DROPPED: &str = "has dropped support for";

/// One evaluation: its JSON (`Null` when it failed) and what it printed on stderr.
pub struct Evaluation {
    /// The outputs, and `wheel` and `derivations` (see flake-eval.nix).
    pub json: Value,
    /// Nix's messages: the traces of nixpkgs' imports, an error.
    pub stderr: String,
}

/// `nix/offline/flake-eval.nix` with inputs that have a `rev` (`revs = true`) or not.
pub fn evaluate(root: &Path, revs: bool) -> Result<Evaluation, String> {
    let expr = format!(
        "import {}/nix/offline/flake-eval.nix {{ revs = {revs}; }}",
        root.display()
    );
    let out = Command::new("nix-instantiate")
        .args(["--eval", "--strict", "--json", "--expr", &expr])
        .output()
        .map_err(|e| format!("nix-instantiate: {e}"))?;
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    let json = if out.status.success() {
        serde_json::from_slice(&out.stdout).map_err(|e| format!("nix-instantiate's JSON: {e}"))?
    } else {
        Value::Null
    };
    Ok(Evaluation { json, stderr })
}

fn error_of(e: &Evaluation) -> String {
    e.stderr
        .lines()
        .filter(|l| !l.starts_with("trace:"))
        .take(6)
        .collect::<Vec<_>>()
        .join("\n")
}

/// The systems flake.nix declares, read from its `systems = [...]` line.
pub fn declared_systems(flake_nix: &str) -> Vec<String> {
    flake_nix
        .lines()
        .find_map(|l| l.trim().strip_prefix("systems = ["))
        .map(|rest| {
            rest.split('"')
                .skip(1)
                .step_by(2)
                .map(str::to_owned)
                .collect()
        })
        .unwrap_or_default()
}

/// The systems README's Nix section names on its `Supported systems:` line.
pub fn readme_systems(readme: &str) -> Vec<String> {
    readme
        .lines()
        .find(|l| l.contains("Supported systems:"))
        .map(|l| l.split('`').skip(1).step_by(2).map(str::to_owned).collect())
        .unwrap_or_default()
}

/// The stand-in store paths (`/nonexistent/NAME`) that a value mentions.
fn mentioned(v: &Value, out: &mut BTreeSet<String>) {
    match v {
        Value::String(s) => {
            for part in s.split("/nonexistent/").skip(1) {
                let name: String = part
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
                    .collect();
                out.insert(name);
            }
        }
        Value::Array(a) => a.iter().for_each(|x| mentioned(x, out)),
        Value::Object(m) => m.values().for_each(|x| mentioned(x, out)),
        _ => {}
    }
}

/// What each app may depend on, among the builds and runtimes an app can pull in.
const APP_NEEDS: &[(&str, &[&str])] = &[
    ("bench-native", &["poseidon-bench"]),
    (
        "bench-wasm",
        &[
            "poseidon-bench-wasm",
            "poseidon-bench-wide",
            "poseidon-bench-fma",
            "wasmtime",
        ],
    ),
    (
        "bench-node",
        &[
            "poseidon-bench-wasm",
            "poseidon-bench-fma",
            "nodejs_22",
            "nodejs_24",
        ],
    ),
    (
        "bench",
        &[
            "poseidon-bench",
            "poseidon-bench-wasm",
            "poseidon-bench-wide",
            "poseidon-bench-fma",
            "wasmtime",
            "nodejs_22",
            "nodejs_24",
        ],
    ),
    (
        "counts",
        &[
            "poseidon-count",
            "poseidon-count-wasm",
            "valgrind",
            "python-counts",
        ],
    ),
];

/// Every check on the two evaluations.
pub fn checks(r: &mut Checklist, root: &Path, with_revs: &Evaluation, without: &Evaluation) {
    let flake = std::fs::read_to_string(root.join("flake.nix")).unwrap_or_default();
    let systems = declared_systems(&flake);
    let ev = &with_revs.json;

    // 1. Every declared system evaluates: the pinned nixpkgs dropped x86_64-darwin.
    let evaluated: Vec<String> = ev["packages"]
        .as_object()
        .map(|m| m.keys().cloned().collect())
        .unwrap_or_default();
    r.check(
        !ev.is_null() && !systems.is_empty() && {
            let mut s = systems.clone();
            s.sort();
            s == evaluated
        },
        &format!(
            "flake: every system it declares evaluates ({}), none the pinned nixpkgs dropped",
            systems.join(", ")
        ),
        || {
            if with_revs.stderr.contains(DROPPED) {
                format!(
                    "a declared system is one nixpkgs 26.11 dropped:\n{}",
                    error_of(with_revs)
                )
            } else {
                format!("evaluated {evaluated:?}:\n{}", error_of(with_revs))
            }
        },
    );
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap_or_default();
    let stated = readme_systems(&readme);
    r.check(
        stated == systems,
        "README: its Supported systems line lists the flake's systems",
        || format!("README says {stated:?}, flake.nix declares {systems:?}"),
    );
    if ev.is_null() {
        return;
    }

    // 2. One list: each cargo check of `nix flake check` runs make test's cargo
    // arguments (xtask/src/tiers.rs; the host's tools from Cargo.toml's
    // [workspace.metadata.tests], which both read), on every system.
    match crate::cargo_args::host_only(root) {
        Ok(host_only) => {
            for (check, attr, want) in crate::cargo_args::flake_check_args(&host_only) {
                let got: Vec<String> = systems
                    .iter()
                    .map(|s| {
                        ev["checks"][s][check][attr]
                            .as_str()
                            .unwrap_or("(none)")
                            .to_owned()
                    })
                    .collect();
                r.check(
                    got.iter().all(|g| *g == want),
                    &format!("checks.{check}: {attr} are make test's ({want})"),
                    || format!("per system {got:?}"),
                );
            }
        }
        Err(e) => r.check(false, "Cargo.toml's host-only list", || e),
    }

    // 4. One import of nixpkgs per system, shared by every output.
    let mut imports: BTreeMap<String, usize> = BTreeMap::new();
    for l in with_revs.stderr.lines() {
        if let Some(s) = l.strip_prefix("trace: stand-in nixpkgs imported for ") {
            *imports.entry(s.trim().to_owned()).or_default() += 1;
        }
    }
    r.check(
        imports.len() == systems.len() && imports.values().all(|n| *n == 1),
        "flake: nixpkgs imported once per system, every output reading that one",
        || format!("imports per system: {imports:?}"),
    );

    // 5. Every derivation has a name of its own.
    for (system, list) in ev["derivations"].as_object().into_iter().flatten() {
        let mut by_name: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
        for d in list.as_array().into_iter().flatten() {
            if let (Some(n), Some(w)) = (d["name"].as_str(), d["what"].as_str()) {
                by_name.entry(n).or_default().insert(w);
            }
        }
        let shared: Vec<String> = by_name
            .iter()
            .filter(|(_, w)| w.len() > 1)
            .map(|(n, w)| format!("{n}: {w:?}"))
            .collect();
        r.check(
            shared.is_empty() && !by_name.is_empty(),
            &format!(
                "flake ({system}): each of the {} derivations has a name of its own",
                by_name.len()
            ),
            || shared.join("; "),
        );
    }

    // 6. Inputs without a rev (`--override-input nixpkgs path:…`).
    let env = &without.json["packages"]["x86_64-linux"]["bench-report"]["BENCH_ENV"];
    r.check(
        env.as_str().is_some_and(|e| {
            e.contains("nixpkgs=sha256-standin-nixpkgs") && e.contains("crane=sha256-standin-crane")
        }),
        "flake: evaluates with inputs that have no rev (path: overrides); the report records their NAR hash",
        || format!("BENCH_ENV = {env}\n{}", error_of(without)),
    );

    // 8. Clippy runs nothing; each app has what its runtimes run and no more.
    let clippy = &ev["checks"]["x86_64-linux"]["poseidon-clippy-wasm"];
    let mut clippy_deps = BTreeSet::new();
    mentioned(&clippy["nativeBuildInputs"], &mut clippy_deps);
    r.check(
        clippy.is_object()
            && clippy.get("CARGO_TARGET_WASM32_WASIP1_RUNNER").is_none()
            && !clippy_deps.contains("wasmtime"),
        "checks.poseidon-clippy-wasm: no wasmtime, no test runner (clippy runs nothing)",
        || {
            format!(
                "runner {}, inputs {clippy_deps:?}",
                clippy["CARGO_TARGET_WASM32_WASIP1_RUNNER"]
            )
        },
    );
    let watched: BTreeSet<&str> = APP_NEEDS
        .iter()
        .flat_map(|(_, n)| n.iter().copied())
        .collect();
    for (app, needs) in APP_NEEDS {
        let mut got = BTreeSet::new();
        mentioned(&ev["apps"]["x86_64-linux"][*app]["program"], &mut got);
        let got: BTreeSet<&str> = got
            .iter()
            .map(String::as_str)
            .filter(|n| watched.contains(n))
            .collect();
        let want: BTreeSet<&str> = needs.iter().copied().collect();
        r.check(
            got == want,
            &format!(
                "apps.{app}: depends on {} and no other build or runtime",
                needs.join(", ")
            ),
            || format!("depends on {got:?}"),
        );
    }

    // 2. The counts' path is built by `nix flake check` on x86_64-linux.
    let counts = &ev["checks"]["x86_64-linux"]["poseidon-counts"];
    let mut deps = BTreeSet::new();
    mentioned(counts, &mut deps);
    let needed = [
        "poseidon-count",
        "poseidon-count-wasm",
        "valgrind",
        "python-counts",
    ];
    r.check(
        counts["countFilter"] == "--check"
            && counts["text"]
                .as_str()
                .is_some_and(|t| t.contains("xtask counts --check"))
            && needed.iter().all(|n| deps.contains(*n)),
        "checks.poseidon-counts (x86_64-linux): xtask counts --check with both count programs, valgrind and the wasmtime wheel",
        || format!("countFilter {}, depends on {deps:?}", counts["countFilter"]),
    );
    let other: Vec<&String> = ev["checks"]
        .as_object()
        .into_iter()
        .flatten()
        .filter(|(s, c)| *s != "x86_64-linux" && c.get("poseidon-counts").is_some())
        .map(|(s, _)| s)
        .collect();
    r.check(
        other.is_empty(),
        "checks.poseidon-counts: only on x86_64-linux (the counts count x86 code)",
        || format!("also on {other:?}"),
    );
    let wheel = &ev["wheel"];
    let pinned = crate::lab::tools::WASMTIME_PY;
    let mut wheel_inputs = BTreeSet::new();
    mentioned(&wheel["nativeBuildInputs"], &mut wheel_inputs);
    r.check(
        wheel["pythonImportsCheck"]
            .as_array()
            .is_some_and(|a| a.iter().any(|m| m == "wasmtime"))
            && wheel_inputs.contains("autoPatchelfHook")
            && wheel["version"] == pinned,
        &format!("the wasmtime wheel {pinned}: autoPatchelf, and its build imports wasmtime (pythonImportsCheck)"),
        || {
            format!(
                "pythonImportsCheck {}, version {} (the counts pin {pinned}), inputs {wheel_inputs:?}",
                wheel["pythonImportsCheck"], wheel["version"]
            )
        },
    );
}

/// The x86_64-linux packages and apps (without `default`), for the workflow's checks.
pub fn outputs_of(ev: &Value, kind: &str) -> Vec<String> {
    ev[kind]["x86_64-linux"]
        .as_object()
        .map(|m| m.keys().filter(|k| *k != "default").cloned().collect())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn systems_are_read_from_flake_and_readme() {
        let flake = "  outputs = x: let\n    systems = [\"x86_64-linux\" \"aarch64-darwin\"];\n";
        assert_eq!(declared_systems(flake), ["x86_64-linux", "aarch64-darwin"]);
        let readme = "Supported systems: `x86_64-linux`, `aarch64-darwin`.\n";
        assert_eq!(readme_systems(readme), ["x86_64-linux", "aarch64-darwin"]);
    }

    #[test]
    fn store_paths_are_found_in_nested_values() {
        let v = serde_json::json!({"a": ["/nonexistent/wasmtime/bin"], "b": {"c": "x /nonexistent/nodejs_22/bin/node:/nonexistent/poseidon-bench-wasm/bin/p.wasm"}});
        let mut got = BTreeSet::new();
        mentioned(&v, &mut got);
        let want: BTreeSet<String> = ["wasmtime", "nodejs_22", "poseidon-bench-wasm"]
            .map(String::from)
            .into();
        assert_eq!(got, want);
    }
}
