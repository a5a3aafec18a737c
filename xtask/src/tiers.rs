//! The check tiers. `check` is what a contributor runs before every commit:
//! formatting, clippy on both targets, the tests natively and under wasmtime.
//! `test` is every check there is (what CI runs): `check`'s steps and then the
//! rest, tools that are missing skipped with a note (outside CI, where a missing
//! tool is a failure).

use std::path::Path;
use std::process::Command;

use crate::runner::{say, Runner, Step};

const WASM: &str = "wasm32-wasip1";

/// Whether `scripts/lib.sh`'s `FUNCTION` succeeds (the `ensure_*` helpers install
/// a missing tool as root where apt-get exists; `have_node` asks for Node >= 20).
fn lib_ok(root: &Path, function: &str) -> bool {
    Command::new("bash")
        .arg("-c")
        .arg(format!("source scripts/lib.sh && {function}"))
        .current_dir(root)
        .status()
        .is_ok_and(|s| s.success())
}

/// Whether `tool` is on PATH.
pub(crate) fn on_path(tool: &str) -> bool {
    Command::new("bash")
        .args(["-c", &format!("command -v {tool} >/dev/null")])
        .status()
        .is_ok_and(|s| s.success())
}

fn in_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| v == "true")
}

/// A step that needs a tool: run when `available`, else a failure in CI and a
/// note elsewhere.
fn needing(r: &mut Runner, available: bool, step: Step, missing: &str) {
    if let Some(step) = needed(available, step, missing) {
        r.run(step);
    }
}

/// What runs of a step that needs a tool: the step, a failing stand-in (in CI),
/// or nothing, with a note.
fn needed(available: bool, step: Step, missing: &str) -> Option<Step> {
    if available {
        Some(step)
    } else if in_ci() {
        Some(Step::new(format!("{}: {missing}", step.name), "false", &[]))
    } else {
        say(&format!("skipping {}: {missing}", step.name));
        None
    }
}

/// The toolchain's targets and wasmtime, installed where missing (as make setup does).
fn prepare(root: &Path) -> Result<(), String> {
    if lib_ok(root, "ensure_rust && ensure_wasmtime") {
        Ok(())
    } else {
        Err("the Rust targets or wasmtime are missing (make setup installs them)".into())
    }
}

fn fmt() -> Step {
    Step::new("fmt", "cargo", &["fmt", "--all", "--", "--check"])
}

fn docs() -> Step {
    Step::new(
        "docs: relative links and anchors resolve, no tracker numbers or unnamed machines",
        "cargo",
        &["xtask", "docs"],
    )
}

fn clippy_host() -> Step {
    Step::new(
        "clippy host",
        "cargo",
        &[
            "clippy",
            "--workspace",
            "--all-targets",
            "--",
            "-D",
            "warnings",
        ],
    )
}

fn clippy_wasm() -> Step {
    Step::new(
        format!("clippy {WASM}"),
        "cargo",
        &[
            "clippy",
            "--workspace",
            "--all-targets",
            "--target",
            WASM,
            "--",
            "-D",
            "warnings",
        ],
    )
}

/// The npm package's `fma` module's build (wasm32-unknown-unknown, relaxed SIMD,
/// `--cfg poseidon_fma`), in its own build directory as js/build.mjs builds it.
fn clippy_fma() -> Step {
    Step::new(
        "clippy wasm32-unknown-unknown, the package's fma module (relaxed-simd, cfg poseidon_fma)",
        "cargo",
        &[
            "clippy",
            "-p",
            "poseidon",
            "-p",
            "poseidon-js",
            "--target",
            "wasm32-unknown-unknown",
            "--target-dir",
            "target/js-fma",
            "--",
            "-D",
            "warnings",
        ],
    )
    .env(
        "CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS",
        "-C target-feature=+simd128,+relaxed-simd --cfg poseidon_fma",
    )
}

fn tests_host() -> Step {
    Step::new(
        "tests host",
        "cargo",
        &["test", "--workspace", "--all-targets"],
    )
}

/// fmt, the docs' links, clippy on both targets, the tests natively and under wasmtime.
fn check_steps(r: &mut Runner) {
    r.run(fmt());
    r.run(docs());
    r.run(clippy_host());
    r.run(clippy_wasm());
    r.run(tests_host());
    r.run(wasm_workspace_tests(
        format!("tests {WASM} (wasmtime)"),
        "--all-targets",
    ));
}

/// `cargo test` of the workspace for wasm32-wasip1 under wasmtime (cargo's runner),
/// `--all-targets` or `--doc`. The host's tools (xtask, the FMA kernel's generator)
/// run on the host only and are left out, as scripts/test-steps.sh's
/// build_wasm_tests leaves them out.
fn wasm_workspace_tests(name: String, which: &str) -> Step {
    Step::new(
        name,
        "cargo",
        &[
            "test",
            "--workspace",
            "--exclude",
            "xtask",
            "--exclude",
            "poseidon-fma-kernel",
            which,
            "--target",
            WASM,
        ],
    )
}

/// `cargo xtask check`.
pub fn check(root: &Path) -> Result<bool, String> {
    prepare(root)?;
    let mut r = Runner::new(root).map_err(|e| format!("target/test-logs: {e}"))?;
    check_steps(&mut r);
    Ok(r.finish())
}

/// `cargo xtask test`: every check. The wasm tests are built once per build and
/// then run side by side on their runtimes (wasmtime, Node, the no-SIMD and
/// wide-arithmetic builds), two at a time: a test run under a runtime uses one core.
pub fn test(root: &Path) -> Result<bool, String> {
    prepare(root)?;
    let mut r = Runner::new(root).map_err(|e| format!("target/test-logs: {e}"))?;
    r.run(fmt());
    r.run(docs());
    needing(
        &mut r,
        on_path("shellcheck"),
        Step::new(
            "shellcheck",
            "bash",
            &["-c", "shellcheck -x scripts/*.sh nix/*.sh .ci/run"],
        ),
        "shellcheck not on PATH (make setup installs it)",
    );
    needing(
        &mut r,
        on_path("python3"),
        Step::script("actionlint: the GitHub workflows", "actionlint_check", &[]),
        "python3 not on PATH (actionlint installs from PyPI)",
    );
    // Two build directories (target/, target/js-fma): side by side.
    r.run_parallel(vec![clippy_host(), clippy_fma()], 2);
    r.run(clippy_wasm());
    r.run(tests_host());
    r.run(Step::new(
        "doctests host",
        "cargo",
        &["test", "--workspace", "--doc"],
    ));
    r.run(Step::script(
        "the library's examples, natively",
        "examples",
        &[],
    ));
    // The three wasm32-wasip1 builds one after the other: side by side, on two
    // cores, they took longer (348 s against 305 s).
    // .cargo/config.toml builds wasm with +simd128; engines without SIMD get the
    // plain-lane fallback of the two-lane code: that build is tested too.
    r.run(Step::script(
        format!("build the tests for {WASM}"),
        "build_wasm_tests",
        &[],
    ));
    r.run(Step::script(
        format!("build the backend tests for {WASM} without simd128"),
        "build_no_simd_tests",
        &[],
    ));
    r.run(Step::script(
        format!("build the library's tests for {WASM} with +wide-arithmetic"),
        "build_wide_tests",
        &[],
    ));
    r.run(wasm_workspace_tests(
        format!("doctests {WASM} (wasmtime)"),
        "--doc",
    ));
    r.run(Step::script(
        format!(
            "the library's doctests {WASM} with +wide-arithmetic (wasmtime -W wide-arithmetic=y)"
        ),
        "wide_doctests",
        &[],
    ));
    r.run(Step::script(
        format!("the library's examples, {WASM} (wasmtime)"),
        "examples",
        &["--target", WASM],
    ));
    let node = lib_ok(root, "have_node node");
    let mut runs = vec![
        Step::script(
            format!("tests {WASM} (wasmtime)"),
            "run_tests",
            &["wasm-tests", "wasmtime"],
        ),
        Step::script(
            format!("backend tests {WASM} without simd128 (wasmtime)"),
            "run_tests",
            &["no-simd-tests", "wasmtime"],
        ),
        Step::script(
            format!("tests {WASM} with +wide-arithmetic (wasmtime -W wide-arithmetic=y)"),
            "run_tests",
            &["wide-tests", "wasmtime-wide"],
        ),
    ];
    if node {
        runs.insert(
            1,
            Step::script(
                format!("tests {WASM} (node)"),
                "run_tests",
                &["wasm-tests", "node"],
            ),
        );
    } else {
        say("no Node >= 20 on PATH: skipping the tests under node:wasi and the JavaScript package");
    }
    r.run_parallel(runs, 2);
    rest_steps(root, &mut r, node);
    Ok(r.finish())
}

fn rest_steps(root: &Path, r: &mut Runner, node: bool) {
    r.run(Step::script(
        "make bench ARGS reach criterion as typed",
        "make_args_check",
        &[],
    ));
    // The tool's checks run the dev builds that the tests made (target/debug,
    // target/wasm32-wasip1/debug): debug assertions on, and no release build of the
    // library with the tool's features (74 s). Release builds of the library are
    // run by the package, bench and counts steps.
    r.run(Step::new(
        "permutation files (native tool)",
        "cargo",
        &[
            "xtask",
            "permutation-files",
            "target/test-logs",
            "--",
            "target/debug/poseidon",
        ],
    ));
    r.run(Step::script(
        "poseidon check host",
        "tool_checks",
        &["native"],
    ));
    r.run(Step::script(
        format!("poseidon check {WASM} (wasmtime)"),
        "tool_checks",
        &["wasm"],
    ));
    if node {
        node_steps(root, r);
    }
    // Builds, then runs on one core (callgrind, wasmtime): two at a time, so that
    // one's run overlaps another's build (cargo's lock orders the builds).
    // The counts first: its callgrind runs are the longest.
    let mut last: Vec<Step> = needed(
        lib_ok(root, "ensure_apt valgrind valgrind"),
        Step::script(
            "counts: the same exact counts twice, native and Wasm digests agree (callgrind natively and of wasmtime's code, wasmtime fuel)",
            "counts_check",
            &[],
        ),
        "valgrind not found and not installable here (apt-get install valgrind)",
    )
    .into_iter()
    .collect();
    last.extend([
        Step::script(
            "wasm instructions of the hot functions (bench modules, package modules)",
            "wasm_instructions",
            &[],
        ),
        Step::script(
            "lane probes (f64x2; i32x4.dot_i16x8_s) against ark-ff and the permutation (wasmtime)",
            "lane_probes",
            &[],
        ),
        Step::script(
            format!("bench smoke run {WASM} with +wide-arithmetic (wasmtime -W wide-arithmetic=y)"),
            "wide_bench_smoke",
            &[],
        ),
    ]);
    r.run_parallel(last, 2);
    // Alone: it measures (a 2x slowdown, which load beside it could not hide, but
    // its rounds are cleaner without).
    r.run(Step::script(
        "A/B on stand-in upstream trees: built for both targets, interleaved rounds, a 2x slowdown found on every row with its counts; DIR@REV against the same files: identical binaries, the checkout clean",
        "ab_selftest",
        &[],
    ));
    upstream_steps(root, r);
    nix_steps(root, r);
}

/// The same wasm tests and tool under V8 (Node's node:wasi), and the JavaScript
/// package on each of its modules, in Chromium and as users install it.
fn node_steps(root: &Path, r: &mut Runner) {
    r.run(Step::script(
        format!("poseidon check {WASM} (node)"),
        "tool_checks",
        &["nodewasi"],
    ));
    r.run(Step::new(
        "js package: copy under target, npm install, build its four modules; the pinned Nodes 22 and 24",
        "bash",
        &[
            "-c",
            "source scripts/lib.sh && js_package_copy && bash scripts/nodes.sh 22 24",
        ],
    ));
    // Node runs each on one core: two at a time.
    let mut js: Vec<Step> = ["scalar", "simd", "fma"]
        .iter()
        .map(|m| {
            Step::script(
                format!(
                    "js package, module {m}: vectors, input checks, o1js cross-check, the worker pool (node --test)"
                ),
                "js_package",
                &[m],
            )
        })
        .collect();
    js.push(Step::script(
        "js package, module fma on an unfused multiply-add (node 24 --no-enable-fma3): its fallback",
        "js_package",
        &["fma", "--no-enable-fma3"],
    ));
    js.push(Step::new(
        "js package, every module under wasmtime against o1js (wide: no Node runs it)",
        "node",
        &["target/js-package/check/wasmtime-check.mjs"],
    ));
    r.run_parallel(js, 2);
    let chromium = lib_ok(root, "ensure_chromium");
    let vectors = root.join("poseidon/tests/data");
    needing(
        r,
        chromium,
        Step::new(
            "js package: browser check (headless chromium)",
            "node",
            &["target/js-package/check/browser-check.mjs"],
        )
        .env("POSEIDON_VECTORS", &vectors.to_string_lossy()),
        "chromium not found and not installable here",
    );
    needing(
        r,
        chromium,
        Step::new(
            "js package as users get it: npm pack, offline install, ESM import, tsc --strict, esbuild bundle with the pool's worker in chromium, not cross-origin isolated",
            "node",
            &["target/js-package/check/pack-check.mjs"],
        ),
        "chromium not found and not installable here",
    );
    needing(
        r,
        chromium,
        Step::script(
            "FMA kernel: the generated module against o1js (node 24, chromium)",
            "fma_kernel",
            &["chromium"],
        ),
        "chromium not found and not installable here",
    );
}

/// Backend upstream (mina-poseidon from PROOF_SYSTEMS, built by path) once through
/// every benchmark on each runtime; the bench checks first that upstream and our
/// reference agree on hashes and the permutation.
fn upstream_steps(root: &Path, r: &mut Runner) {
    if std::env::var_os("PROOF_SYSTEMS").is_none_or(|v| v.is_empty()) {
        say("PROOF_SYSTEMS not set: skipping upstream (the bench smoke run with mina-poseidon as backend upstream)");
        return;
    }
    r.run(Step::script(
        "upstream: build the lab from PROOF_SYSTEMS",
        "upstream_build",
        &[],
    ));
    r.run(Step::script(
        "upstream: bench smoke run native",
        "upstream_smoke",
        &["native"],
    ));
    r.run(Step::script(
        format!("upstream: bench smoke run {WASM} (wasmtime)"),
        "upstream_smoke",
        &["wasmtime"],
    ));
    if lib_ok(root, "have_node node") {
        r.run(Step::script(
            format!("upstream: bench smoke run {WASM} (node)"),
            "upstream_smoke",
            &["node"],
        ));
    }
}

/// The flake, offline: every .nix file parses, flake.lock matches flake.nix, no
/// dead code, and the flake's shell steps under the sandbox's rules.
fn nix_steps(root: &Path, r: &mut Runner) {
    let nix = lib_ok(root, "ensure_nix");
    let missing = "nix not found and not installable here (install nix-bin or Nix)";
    needing(
        r,
        nix,
        Step::script("nix: parse every .nix file", "nix_parse", &[]),
        missing,
    );
    needing(
        r,
        nix,
        Step::script("nix: flake.lock matches flake.nix", "nix_lock", &[]),
        missing,
    );
    needing(
        r,
        nix && on_path("deadnix"),
        Step::new("nix: deadnix", "deadnix", &["--fail", "flake.nix", "nix"]),
        "deadnix not on PATH (make setup installs it)",
    );
    needing(
        r,
        nix,
        Step::new(
            "nix: what the reviews found (every system evaluated with stand-ins, lint, the workflow)",
            "cargo",
            &["xtask", "nix-review"],
        ),
        missing,
    );
    needing(
        r,
        nix,
        Step::script(
            "nix: the flake's shell steps in a sandbox, the apps among decoy tools",
            "nix_sandbox",
            &[],
        ),
        missing,
    );
}
