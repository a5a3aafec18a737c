//! The check tiers. `check` is what a contributor runs before every commit:
//! formatting, clippy on both targets, the tests natively and under wasmtime.
//! `test` is every check there is (what CI runs): `check`'s steps and then the
//! rest, tools that are missing skipped with a note (outside CI, where a missing
//! tool is a failure).

use std::path::Path;

use crate::cargo_args::{clippy_args, doctest_args, excludes, host_only, test_args, Target};
use crate::lab::nodes;
use crate::lab::tools::{
    cargo_bin_on_path, ensure_apt, ensure_chromium, ensure_firefox, ensure_jsc, ensure_nix,
    ensure_rust, ensure_wasmtime, ensure_webkit, on_path,
};
use crate::runner::{say, Runner, Step};

use crate::lab::WASM;

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

/// Whether a command can run in the flake's source view (a mount namespace).
fn view_possible() -> bool {
    #[cfg(unix)]
    return crate::replay::view::unshare().is_some();
    #[cfg(not(unix))]
    false
}

/// The toolchain's targets and wasmtime, installed where missing (as make setup does).
fn prepare(root: &Path) -> Result<(), String> {
    cargo_bin_on_path();
    ensure_rust(root)
        .and_then(|()| ensure_wasmtime())
        .map_err(|e| format!("{e} (make setup installs what is missing)"))
}

/// `cargo SUBCOMMAND ARGS… [--target wasm32-wasip1] [TAIL…]` as a step.
fn cargo_step(
    name: String,
    sub: &[&str],
    args: Vec<String>,
    target: Target,
    tail: &[&str],
) -> Step {
    let mut all: Vec<String> = sub.iter().map(|s| (*s).to_owned()).collect();
    // clippy's `-- -D warnings` stays last.
    let split = args.iter().position(|a| a == "--").unwrap_or(args.len());
    all.extend_from_slice(&args[..split]);
    all.extend(tail.iter().map(|s| (*s).to_owned()));
    if target == Target::Wasm {
        all.extend(["--target".to_owned(), WASM.to_owned()]);
    }
    all.extend_from_slice(&args[split..]);
    let refs: Vec<&str> = all.iter().map(String::as_str).collect();
    Step::new(name, "cargo", &refs)
}

/// `step`'s command run in the flake's source view, as `nix flake check`'s
/// `check` (cargo xtask nix-replay view): the host tests, the wasm tests' build
/// and run. `stdout` keeps the command's standard output in a file.
fn in_view(step: Step, check: &str, stdout: Option<&str>) -> Step {
    let mut args: Vec<String> = ["xtask", "nix-replay", "view", "--check", check]
        .map(str::to_owned)
        .to_vec();
    if let Some(f) = stdout {
        args.extend(["--stdout".to_owned(), f.to_owned()]);
    }
    args.push("--".into());
    args.push(step.program);
    args.extend(step.args);
    let refs: Vec<&str> = args.iter().map(String::as_str).collect();
    Step::new(
        format!("{}, in the flake's source (as checks.{check})", step.name),
        "cargo",
        &refs,
    )
}

fn fmt() -> Step {
    Step::new("fmt", "cargo", &["fmt", "--all", "--", "--check"])
}

/// Every crate root and the JavaScript package: no circle between files.
fn module_graph() -> Step {
    Step::new(
        "module graph: every crate root of the workspace and the JavaScript package, no circle",
        "cargo",
        &["xtask", "module-graph", "--all"],
    )
}

fn docs() -> Step {
    Step::new(
        "docs: relative links and anchors resolve, no tracker numbers or unnamed machines",
        "cargo",
        &["xtask", "docs"],
    )
}

fn clippy_host() -> Step {
    cargo_step(
        "clippy host".into(),
        &["clippy"],
        clippy_args(),
        Target::Host,
        &[],
    )
}

fn clippy_wasm() -> Step {
    cargo_step(
        format!("clippy {WASM}"),
        &["clippy"],
        clippy_args(),
        Target::Wasm,
        &[],
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
            "kimchi-poseidon",
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

/// `cargo test` of the workspace (`--locked`, as crane runs it): its tests, or
/// with `doc` its doctests.
fn tests(target: Target, host_only: &[String], doc: bool) -> Step {
    let what = if doc { "doctests" } else { "tests" };
    let name = match target {
        Target::Host => format!("{what} host"),
        Target::Wasm => format!("{what} {WASM} (wasmtime)"),
    };
    let (args, tail): (_, &[&str]) = if doc {
        (doctest_args(target, host_only), &["--doc"])
    } else {
        (test_args(target, host_only), &[])
    };
    cargo_step(name, &["test", "--locked"], args, target, tail)
}

/// fmt, the docs' links, clippy on both targets, the tests natively and under wasmtime.
fn check_steps(r: &mut Runner, host_only: &[String]) {
    r.run(fmt());
    r.run(docs());
    r.run(clippy_host());
    r.run(clippy_wasm());
    r.run(tests(Target::Host, host_only, false));
    r.run(tests(Target::Wasm, host_only, false));
}

/// `cargo xtask check`.
pub fn check(root: &Path) -> Result<bool, String> {
    prepare(root)?;
    let host_only = host_only(root)?;
    let mut r = Runner::new(root).map_err(|e| format!("target/test-logs: {e}"))?;
    check_steps(&mut r, &host_only);
    Ok(r.finish())
}

/// `cargo xtask test`: every check. The wasm tests are built once per build and
/// then run side by side on their runtimes (wasmtime, Node, the no-SIMD and
/// wide-arithmetic builds), two at a time: a test run under a runtime uses one core.
pub fn test(root: &Path) -> Result<bool, String> {
    prepare(root)?;
    let host_only = host_only(root)?;
    let mut r = Runner::new(root).map_err(|e| format!("target/test-logs: {e}"))?;
    r.run(fmt());
    r.run(docs());
    r.run(module_graph());
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
        Step::xtask("actionlint: the GitHub workflows", "actionlint", &[]),
        "python3 not on PATH (actionlint installs from PyPI)",
    );
    // Two build directories (target/, target/js-fma): side by side.
    r.run_parallel(vec![clippy_host(), clippy_fma()], 2);
    r.run(clippy_wasm());
    // The tests and doctests run in the flake's source tree (nix-replay view), as
    // nix flake check's test checks see it: a file the flake leaves out fails here.
    // It needs nix-instantiate (the file sets) and a mount namespace. One view at a
    // time: each lays the tree out anew under target/nix-replay/.
    let view = ensure_nix() && view_possible();
    let missing =
        "no nix-instantiate or no mount namespace here (the tests run in the checkout instead)";
    let viewed = |step: Step, check: &str, stdout: Option<&str>| -> Option<Step> {
        if view {
            Some(in_view(step, check, stdout))
        } else if in_ci() {
            needed(false, in_view(step, check, stdout), missing)
        } else {
            say(&format!("{}: {missing}", step.name));
            Some(step)
        }
    };
    let wasm_log = "target/test-logs/wasm-tests.json";
    for step in [
        viewed(
            tests(Target::Host, &host_only, false),
            "poseidon-test",
            None,
        ),
        viewed(
            tests(Target::Host, &host_only, true),
            "poseidon-doctest",
            None,
        ),
    ]
    .into_iter()
    .flatten()
    {
        r.run(step);
    }
    r.run(Step::xtask(
        "the library's examples, natively",
        "examples",
        &[],
    ));
    // The three wasm32-wasip1 builds one after the other: side by side, on two
    // cores, they took longer (348 s against 305 s).
    // .cargo/config.toml builds wasm with +simd128; engines without SIMD get the
    // plain-lane fallback of the two-lane code: that build is tested too.
    let mut build = cargo_step(
        format!("build the tests for {WASM}"),
        &[
            "test",
            "--locked",
            "--no-run",
            "--message-format=json-render-diagnostics",
        ],
        test_args(Target::Wasm, &host_only),
        Target::Wasm,
        &[],
    );
    if !view {
        // Outside the view, the shell keeps cargo's messages.
        let cmd = std::iter::once(build.program.clone())
            .chain(build.args.iter().cloned())
            .collect::<Vec<_>>()
            .join(" ");
        build = Step::new(build.name, "bash", &["-c", &format!("{cmd} >{wasm_log}")]);
    }
    if let Some(step) = viewed(build, "poseidon-test-wasm", Some(wasm_log)) {
        r.run(step);
    }
    r.run(Step::xtask(
        format!("build the backend tests for {WASM} without simd128"),
        "build_no_simd_tests",
        &[],
    ));
    r.run(Step::xtask(
        format!("build the library's tests for {WASM} with +wide-arithmetic"),
        "build_wide_tests",
        &[],
    ));
    if let Some(step) = viewed(
        tests(Target::Wasm, &host_only, true),
        "poseidon-doctest-wasm",
        None,
    ) {
        r.run(step);
    }
    r.run(Step::xtask(
        format!(
            "the library's doctests {WASM} with +wide-arithmetic (wasmtime -W wide-arithmetic=y)"
        ),
        "wide_doctests",
        &[],
    ));
    let mut examples_wasm = vec!["--target", WASM];
    let ex = excludes(Target::Wasm, &host_only);
    examples_wasm.extend(ex.iter().map(String::as_str));
    r.run(Step::xtask(
        format!("the library's examples, {WASM} (wasmtime)"),
        "examples",
        &examples_wasm,
    ));
    // The wasm tests under the flake's own runner (checks.poseidon-test-wasm's
    // CARGO_TARGET_WASM32_WASIP1_RUNNER, word-split as cargo splits it), from each
    // package's directory as cargo runs them.
    let wasmtime_run = Step::new(
        format!("tests {WASM} (wasmtime)"),
        "cargo",
        &[
            "xtask",
            "run-tests",
            wasm_log,
            "--",
            "sh",
            "-c",
            "exec ${CARGO_TARGET_WASM32_WASIP1_RUNNER:-wasmtime run --dir=.} \"$0\"",
        ],
    );
    let node = nodes::on_path_usable().is_some();
    let mut runs: Vec<Step> = viewed(wasmtime_run, "poseidon-test-wasm", None)
        .into_iter()
        .collect();
    runs.extend([
        Step::xtask(
            format!("backend tests {WASM} without simd128 (wasmtime)"),
            "run_tests",
            &["no-simd-tests", "wasmtime"],
        ),
        Step::xtask(
            format!("tests {WASM} with +wide-arithmetic (wasmtime -W wide-arithmetic=y)"),
            "run_tests",
            &["wide-tests", "wasmtime-wide"],
        ),
    ]);
    let jsc = ensure_jsc();
    runs.extend(needed(
        jsc,
        Step::xtask(
            format!("tests {WASM} (jsc: JavaScriptCore, scripts/jsc-wasi.mjs)"),
            "run_tests",
            &["wasm-tests", "jsc"],
        ),
        "jsc not found and not installable here (libjavascriptcoregtk-4.0-bin)",
    ));
    if node {
        runs.insert(
            1,
            Step::xtask(
                format!("tests {WASM} (node)"),
                "run_tests",
                &["wasm-tests", "node"],
            ),
        );
    } else {
        say("no Node >= 20 on PATH: skipping the tests under node:wasi and the JavaScript package");
    }
    r.run_parallel(runs, 2);
    rest_steps(root, &mut r, node, jsc);
    Ok(r.finish())
}

fn rest_steps(root: &Path, r: &mut Runner, node: bool, jsc: bool) {
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
    r.run(Step::xtask(
        "poseidon check host",
        "tool_checks",
        &["native"],
    ));
    r.run(Step::xtask(
        format!("poseidon check {WASM} (wasmtime)"),
        "tool_checks",
        &["wasm"],
    ));
    if jsc {
        r.run(Step::xtask(
            format!("poseidon check {WASM} (jsc)"),
            "tool_checks",
            &["jsc"],
        ));
    }
    if node {
        node_steps(root, r);
    }
    // Builds, then runs on one core (callgrind, wasmtime): two at a time, so that
    // one's run overlaps another's build (cargo's lock orders the builds).
    // The counts first: its callgrind runs are the longest.
    let mut last: Vec<Step> = needed(
        ensure_apt("valgrind", "valgrind"),
        Step::xtask(
            "counts: the same exact counts twice, native and Wasm digests agree (callgrind natively and of wasmtime's code, wasmtime fuel)",
            "counts_check",
            &[],
        ),
        "valgrind not found and not installable here (apt-get install valgrind)",
    )
    .into_iter()
    .collect();
    if cfg!(target_arch = "x86_64") {
        last.extend(needed(
            ensure_apt("objdump", "binutils"),
            Step::xtask(
                "native code: no conditional jump on a carry in the backends (objdump of the count program)",
                "native_branches",
                &[],
            ),
            "objdump not found and not installable here (apt-get install binutils)",
        ));
    }
    last.extend([
        Step::xtask(
            "wasm instructions of the hot functions (bench modules, package modules)",
            "wasm_instructions",
            &[],
        ),
        Step::xtask(
            "lane probes (f64x2; i32x4.dot_i16x8_s) against ark-ff and the permutation (wasmtime)",
            "lane_probes",
            &[],
        ),
        Step::xtask(
            format!("bench smoke run {WASM} with +wide-arithmetic (wasmtime -W wide-arithmetic=y)"),
            "wide_bench_smoke",
            &[],
        ),
    ]);
    if jsc {
        last.push(Step::xtask(
            format!("bench smoke run {WASM} in jsc (every row once, one row measured, its baseline out of the shim's archive)"),
            "jsc_bench_smoke",
            &[],
        ));
    }
    if node {
        last.push(Step::xtask(
            format!("bench smoke run of the fma rows {WASM} with the package's FMA kernels merged in (wasmtime, Node 24)"),
            "fma_bench_smoke",
            &[],
        ));
    }
    r.run_parallel(last, 2);
    // Alone: it builds four trees (two targets each) and measures; it asserts no
    // time (a measured verdict fails by chance on a loaded machine), only what is
    // exact.
    r.run(Step::xtask(
        "A/B on stand-in upstream trees: built for both targets, rounds interleaved, every row whole, a doubled permutation's counts doubled; DIR@REV against the same files: identical binaries, the checkout clean",
        "ab_selftest",
        &[],
    ));
    upstream_steps(r);
    if node {
        r.run(Step::xtask(
            "release check: cargo publish --dry-run (the library, kimchi-poseidon), npm publish --dry-run (the package)",
            "release_check",
            &[],
        ));
    }
    nix_steps(root, r);
}

/// The same wasm tests and tool under V8 (Node's node:wasi), and the JavaScript
/// package on each of its modules, in Chromium and as users install it.
fn node_steps(root: &Path, r: &mut Runner) {
    r.run(Step::xtask(
        format!("poseidon check {WASM} (node)"),
        "tool_checks",
        &["node"],
    ));
    r.run(Step::xtask(
        "js package: copy under target, npm install, build its four modules; the pinned Nodes 22 and 24",
        "js_prepare",
        &[],
    ));
    // Node runs each on one core: two at a time.
    let mut js: Vec<Step> = ["scalar", "simd", "fma"]
        .iter()
        .map(|m| {
            Step::xtask(
                format!(
                    "js package, module {m}: vectors, input checks, o1js cross-check, the worker pool (node --test)"
                ),
                "js_package",
                &[m],
            )
        })
        .collect();
    js.push(Step::xtask(
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
    let chromium = ensure_chromium();
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
        ensure_firefox(),
        Step::new(
            "js package: browser check (headless firefox-esr, SpiderMonkey)",
            "node",
            &[
                "target/js-package/check/browser-check.mjs",
                "--engine",
                "firefox",
            ],
        )
        .env("POSEIDON_VECTORS", &vectors.to_string_lossy()),
        "firefox-esr not found and not installable here",
    );
    needing(
        r,
        ensure_webkit(),
        Step::new(
            "js package: browser check (WebKitGTK's MiniBrowser under Xvfb, JavaScriptCore)",
            "node",
            &[
                "target/js-package/check/browser-check.mjs",
                "--engine",
                "webkit",
            ],
        )
        .env("POSEIDON_VECTORS", &vectors.to_string_lossy()),
        "webkit2gtk-driver or xvfb not found and not installable here",
    );
    needing(
        r,
        ensure_jsc(),
        Step::new(
            "js package in JavaScriptCore (jsc, no browser): each module jsc runs and init()'s pick against o1js's results and Mina's vectors",
            "node",
            &["target/js-package/check/jsc-check.mjs"],
        )
        .env("POSEIDON_VECTORS", &vectors.to_string_lossy()),
        "jsc not found and not installable here (libjavascriptcoregtk-4.0-bin)",
    );
    needing(
        r,
        chromium,
        Step::new(
            "js package as users get it: npm pack, offline install, ESM import, tsc --strict, esbuild bundle with the pool's worker in chromium, firefox and webkit, not cross-origin isolated",
            "node",
            &["target/js-package/check/pack-check.mjs"],
        ),
        "chromium not found and not installable here",
    );
    needing(
        r,
        chromium,
        Step::xtask(
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
fn upstream_steps(r: &mut Runner) {
    if std::env::var_os("PROOF_SYSTEMS").is_none_or(|v| v.is_empty()) {
        say("PROOF_SYSTEMS not set: skipping upstream (the bench smoke run with mina-poseidon as backend upstream)");
        return;
    }
    r.run(Step::xtask(
        "upstream: build the lab from PROOF_SYSTEMS",
        "upstream_build",
        &[],
    ));
    r.run(Step::xtask(
        "upstream: bench smoke run native",
        "upstream_smoke",
        &["native"],
    ));
    r.run(Step::xtask(
        format!("upstream: bench smoke run {WASM} (wasmtime)"),
        "upstream_smoke",
        &["wasmtime"],
    ));
    if nodes::on_path_usable().is_some() {
        r.run(Step::xtask(
            format!("upstream: bench smoke run {WASM} (node)"),
            "upstream_smoke",
            &["node"],
        ));
    }
}

/// The flake, offline: every .nix file parses, flake.lock matches flake.nix, no
/// dead code, and the flake's shell steps under the sandbox's rules.
fn nix_steps(root: &Path, r: &mut Runner) {
    let nix = ensure_nix();
    let missing = "nix not found and not installable here (install nix-bin or Nix)";
    needing(
        r,
        nix,
        Step::xtask("nix: parse every .nix file", "nix_parse", &[]),
        missing,
    );
    needing(
        r,
        nix,
        Step::xtask("nix: flake.lock matches flake.nix", "nix_lock", &[]),
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
        Step::xtask(
            "nix: the flake's shell steps in a sandbox, the apps among decoy tools",
            "nix_sandbox",
            &[],
        ),
        missing,
    );
    // The workflow's reports, from each machine's upload to the merged table, on
    // the report (and counts) that apps.bench (apps.counts) just wrote.
    let sandbox = "target/nix-sandbox";
    let report = format!("{sandbox}/app-run/target/bench-report/report.json");
    let counts = format!("{sandbox}/counts-run/target/counts/counts.json");
    let mut args = vec![
        "xtask",
        "nix-replay",
        "artifacts",
        "--bench-report",
        "target/debug/bench-report",
        "--report",
        &report,
    ];
    if root.join(&counts).is_file() {
        args.extend(["--counts", &counts]);
    }
    needing(
        r,
        nix && root.join(&report).is_file(),
        Step::new(
            "workflow: each machine's report upload and the merge job's download replayed (the actions' rules), its bench-report merge step run on them",
            "cargo",
            &args,
        ),
        "no report from apps.bench (the sandbox step above writes it)",
    );
    r.run(Step::new(
        "workflow: ab.yml's revision steps in a detached clone, for a branch, a tag, a commit and a fork's head",
        "cargo",
        &["xtask", "nix-replay", "refs"],
    ));
}
