//! `cargo xtask bench`: the Criterion benchmark natively, as wasm32-wasip1 under
//! wasmtime, and under each Node's node:wasi (one runtime per Node: node20,
//! node24, …), one baseline per runtime; then bench-report's side-by-side table,
//! `report.json` and `report.md` (target/bench-report/), and the JavaScript
//! package against o1js under each Node and in Chromium.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{SystemTime, UNIX_EPOCH};

use super::build::{
    bench_binary, fma_bench, report_binary, upstream_binary, upstream_commit, upstream_lab, Flavor,
};
use super::per_id;
use super::runtime::Runtime;
use super::tools::{
    cargo_bin_on_path, cores, cpu_model, ensure_chromium, ensure_firefox, ensure_rust,
    ensure_wasmtime, ensure_webkit, git_commit, native_rustflags, run, say, stdout_of, utc_now,
    version_line,
};
use super::{criterion_args, nodes, scripts, var};

/// `cargo xtask bench --help`.
pub const USAGE: &str = "usage: cargo xtask bench [-- CRITERION ARGS...]
  cargo xtask bench -- --quick                        quick run of everything
  cargo xtask bench -- 'Poseidon/permutation/(u29|u64)$'   only IDs matching a regex
  cargo xtask bench -- --measurement-time 10          longer samples
Runs the benchmark natively, under wasmtime, under each Node and in JavaScriptCore's jsc
shell (when on PATH), each ID in a process of its own, saving one baseline per runtime; prints the side-by-side table and writes
report.json, report.md and report.svg (target/bench-report/). Arguments after -- reach
criterion as typed.

Environment:
  PROOF_SYSTEMS    a proof-systems checkout: adds backend `upstream` (mina-poseidon built
                   from it by path, only read) and upstream's own poseidon_bench beside it
  BENCH_RUNTIMES   default \"native wasmtime wasmtime-wide node jsc\"; \"node\" stands for every
                   Node runtime, node24 for one; wasmtime-wide is the module built with
                   +wide-arithmetic, run with -W wide-arithmetic=y; jsc is JavaScriptCore's
                   shell through scripts/jsc-wasi.mjs (skipped by default when not on PATH)
  BENCH_NODES      Nodes to run: major versions (\"22 24 26\", from cargo xtask nodes or PATH)
                   or paths to node binaries; default: the Node on PATH and every one
                   under target/nodes/
  BENCH_ROUNDS     run every runtime N times, in turn (default 1); the table gives the
                   median of the rounds' medians (baselines rt@1 ...)
  BENCH_PER_ID=0   one process per runtime for every ID the filter selects (default: one
                   process per ID, so that no benchmark runs after another)
  BENCH_JS=0       skip the JavaScript package against o1js (per Node, Chromium, Firefox, WebKit)
  CRITERION_HOME   results (default target/criterion); BENCH_REPORT_DIR the report
Rows fma (the JavaScript package's FMA kernels) come from a module of their own (relaxed
SIMD; binaryen merges the kernels in: WASM_OPT's, or npm's under target/js-package), run
on wasmtime and on each Node that validates it (22 and later), one process per ID.
Prebuilt (the flake's apps): BENCH_NATIVE_BIN, BENCH_WASM_BIN (BENCH_WIDE_BIN adds the
wide-arithmetic module, BENCH_FMA_BIN the fma one), BENCH_REPORT_BIN, BENCH_SCRIPTS
(the shims' directory), BENCH_ENV (KEY=VALUE lines for report.json), BENCH_COUNTS: nothing is built, results go
under the working directory.";

/// The programs a run measures.
#[derive(Default)]
struct Programs {
    native: Option<PathBuf>,
    wasm: Option<PathBuf>,
    wide: Option<PathBuf>,
    /// The fma build with the package's kernels merged in: its `fma` rows run on
    /// the Wasm runtimes that validate relaxed SIMD, beside the plain module's.
    fma: Option<PathBuf>,
    report: PathBuf,
    /// Upstream's own poseidon_bench (native, wasm), with PROOF_SYSTEMS.
    own: Option<(PathBuf, PathBuf)>,
    /// The checkout's commit, with PROOF_SYSTEMS.
    upstream: Option<(String, String)>,
    /// Upstream's wide operators in its +wide-arithmetic module (`wasm_ops::upstream_wide`).
    upstream_wide: Option<String>,
}

/// The runtimes asked for (`BENCH_RUNTIMES`), resolved.
fn runtimes(root: &Path, have_wide: bool) -> Result<Vec<Runtime>, String> {
    let default = if have_wide {
        "native wasmtime wasmtime-wide node jsc"
    } else {
        "native wasmtime node jsc"
    };
    let defaulted = var("BENCH_RUNTIMES").is_none();
    let asked = var("BENCH_RUNTIMES").unwrap_or_else(|| default.into());
    let asked: Vec<&str> = asked.split_whitespace().collect();
    // The Nodes, looked for only when a Node runtime is asked for (bench-native has none).
    let node_rts = if asked.iter().any(|r| r.starts_with("node")) {
        nodes::runtimes(root, var("BENCH_NODES").as_deref())?
    } else {
        Vec::new()
    };
    let mut out = Vec::new();
    for rt in asked {
        match rt {
            "native" => out.push(Runtime::Native),
            "wasmtime" => out.push(Runtime::Wasmtime),
            "wasmtime-wide" if have_wide => out.push(Runtime::WasmtimeWide),
            "wasmtime-wide" => return Err("runtime wasmtime-wide: no prebuilt wide-arithmetic module (BENCH_WIDE_BIN); build here with cargo xtask bench".into()),
            "node" => {
                if node_rts.is_empty() {
                    say("no Node >= 20 found: skipping the Node runtimes (cargo xtask nodes installs pinned ones)");
                }
                out.extend(node_rts.iter().cloned());
            }
            n if n.starts_with("node") => {
                let names: Vec<&str> = node_rts.iter().map(Runtime::name).collect();
                let r = node_rts.iter().find(|r| r.name() == n).ok_or(format!(
                    "runtime {n}: no such Node among: {} (BENCH_NODES, cargo xtask nodes)",
                    if names.is_empty() { "none".into() } else { names.join(" ") }
                ))?;
                out.push(r.clone());
            }
            "jsc" => match super::runtime::jsc() {
                Some(jsc) => out.push(Runtime::Jsc(jsc)),
                None if defaulted => say("jsc not found: skipping JavaScriptCore (Debian: apt-get install libjavascriptcoregtk-4.0-bin, or make setup)"),
                None => return Err("runtime jsc: jsc not found on PATH (Debian: apt-get install libjavascriptcoregtk-4.0-bin, or make setup)".into()),
            },
            _ => return Err(format!("unknown runtime '{rt}' in BENCH_RUNTIMES (native, wasmtime, wasmtime-wide, node, node<major>, jsc)")),
        }
    }
    if out.is_empty() {
        return Err("no runtime to run".into());
    }
    Ok(out)
}

/// Builds what the runtimes run, from the checkout (and PROOF_SYSTEMS).
fn build(root: &Path, rts: &[Runtime]) -> Result<Programs, String> {
    let mut p = Programs {
        report: report_binary(root)?,
        ..Programs::default()
    };
    let mut flavors = vec![Flavor::Host, Flavor::Wasm];
    if rts.contains(&Runtime::WasmtimeWide) {
        flavors.push(Flavor::Wide);
    }
    let lab = match var("PROOF_SYSTEMS") {
        Some(ps) => {
            let ps = PathBuf::from(ps);
            let lab = upstream_lab(root, &ps)?;
            let commit = upstream_commit(&ps);
            say(&format!(
                "upstream: mina-poseidon from {} ({commit}), built by path in {}",
                ps.display(),
                lab.display()
            ));
            p.upstream = Some((commit, ps.display().to_string()));
            Some((ps, lab))
        }
        None => {
            say("PROOF_SYSTEMS not set: skipping upstream (set it to a proof-systems checkout to add mina-poseidon as backend upstream)");
            None
        }
    };
    for f in flavors {
        let bin = Some(match &lab {
            Some((_, lab)) => {
                say(&format!(
                    "building the benchmark with backend upstream for {}",
                    f.describe()
                ));
                upstream_binary(root, lab, "lab", f)?
            }
            None => {
                say(&format!("building the benchmark for {}", f.describe()));
                bench_binary(root, f)?
            }
        });
        if let (Flavor::Wide, Some(_), Some(module)) = (f, &lab, &bin) {
            // The wide row of upstream must be upstream widened.
            let bytes = std::fs::read(module).map_err(|e| format!("{}: {e}", module.display()))?;
            let ops = crate::wasm_ops::upstream_wide(&bytes)?;
            say(&format!("upstream with +wide-arithmetic: {ops}"));
            p.upstream_wide = Some(ops);
        }
        match f {
            Flavor::Host => p.native = bin,
            Flavor::Wasm => p.wasm = bin,
            Flavor::Wide => p.wide = bin,
            Flavor::Fma => p.fma = bin,
        }
    }
    if rts.iter().any(Runtime::runs_fma) {
        // The workspace's build (upstream has no fma row); no binaryen: no fma rows.
        say("building the benchmark for wasm32-wasip1 with relaxed SIMD and the package's FMA kernels (rows fma)");
        match fma_bench(root) {
            Ok(m) => p.fma = Some(m),
            Err(e) => say(&format!("warning: no fma rows: {e}")),
        }
    }
    if let Some((ps, lab)) = &lab {
        if lab.join("own/Cargo.toml").is_file() {
            say("building upstream's own poseidon_bench for the host and for wasm32-wasip1");
            p.own = Some((
                upstream_binary(root, lab, "own", Flavor::Host)?,
                upstream_binary(root, lab, "own", Flavor::Wasm)?,
            ));
        } else {
            say(&format!(
                "no poseidon/benches/poseidon_bench.rs in {}: upstream's own benchmark skipped",
                ps.display()
            ));
        }
    }
    Ok(p)
}

/// The IDs of backend `fma` that the filter selects in the fma module (`cmd`,
/// on runtime `name`); none, said once, where the runtime cannot run the module
/// (no relaxed SIMD: Node 20) or its kernels do not run (the module says why).
fn fma_rows(cmd: Command, split: &per_id::Split, name: &str) -> Vec<String> {
    match per_id::list(cmd, split, &format!("the fma module on {name}")) {
        Ok(ids) => per_id::of_backend(&ids, "fma"),
        Err(e) => {
            // The engine's compile error, not its stack.
            let why = e.lines().find(|l| l.contains("Error")).unwrap_or(&e);
            say(&format!("{name}: no fma rows ({})", why.trim()));
            Vec::new()
        }
    }
}

/// Upstream's own poseidon_bench has one benchmark: it gets the run's timing
/// options only, whatever the filter, so the check beside the lab's upstream row
/// always runs.
fn own_options(args: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--quick" | "--noplot" => out.push(a.clone()),
            "--warm-up-time" | "--measurement-time" | "--sample-size" | "--nresamples" => {
                if let Some(v) = it.next() {
                    out.extend([a.clone(), v.clone()]);
                }
            }
            _ => {}
        }
    }
    out
}

/// `cargo xtask bench [-- CRITERION ARGS...]`.
pub fn task(root: &Path, args: &[String]) -> Result<bool, String> {
    let args = criterion_args(args)?;
    bench(root, &args).or_else(|e| {
        eprintln!("xtask bench: {e}");
        Ok(false)
    })
}

fn bench(root: &Path, args: &[String]) -> Result<bool, String> {
    let prebuilt = var("BENCH_NATIVE_BIN").is_some() || var("BENCH_WASM_BIN").is_some();
    let have_wide = !prebuilt || var("BENCH_WIDE_BIN").is_some();
    if !prebuilt {
        cargo_bin_on_path();
    }
    let rts = runtimes(root, have_wide)?;
    if prebuilt && var("PROOF_SYSTEMS").is_some() {
        return Err("PROOF_SYSTEMS needs a build from the checkout, which the prebuilt Nix apps do not do: run nix develop, then PROOF_SYSTEMS=… cargo xtask bench".into());
    }
    // Building: results under the checkout's target/; prebuilt: the working directory's.
    let base = if prebuilt {
        std::env::current_dir().map_err(|e| format!("the working directory: {e}"))?
    } else {
        ensure_rust(root)?;
        root.to_owned()
    };
    if rts
        .iter()
        .any(|r| matches!(r, Runtime::Wasmtime | Runtime::WasmtimeWide))
    {
        ensure_wasmtime()?;
    }
    let results =
        var("CRITERION_HOME").map_or_else(|| base.join("target/criterion"), PathBuf::from);
    std::fs::create_dir_all(&results).map_err(|e| format!("{}: {e}", results.display()))?;
    let results = results
        .canonicalize()
        .map_err(|e| format!("{}: {e}", results.display()))?;
    let report_dir = var("BENCH_REPORT_DIR").map_or_else(
        || results.parent().unwrap_or(&results).join("bench-report"),
        PathBuf::from,
    );
    let own_results = PathBuf::from(format!("{}-upstream-own", results.display()));

    let p = if prebuilt {
        Programs {
            native: var("BENCH_NATIVE_BIN").map(PathBuf::from),
            wasm: var("BENCH_WASM_BIN").map(PathBuf::from),
            wide: var("BENCH_WIDE_BIN").map(PathBuf::from),
            fma: var("BENCH_FMA_BIN").map(PathBuf::from),
            report: var("BENCH_REPORT_BIN")
                .map(PathBuf::from)
                .ok_or("BENCH_REPORT_BIN is needed with prebuilt binaries")?,
            ..Programs::default()
        }
    } else {
        let p = build(root, &rts)?;
        if p.own.is_some() {
            let _ = std::fs::remove_dir_all(&own_results);
        }
        p
    };
    let shim = scripts(root).join("node-wasi.mjs");
    let own_opts = own_options(args);
    let rounds: u32 = match var("BENCH_ROUNDS") {
        None => 1,
        Some(r) => r
            .parse()
            .ok()
            .filter(|&n| n > 0)
            .ok_or(format!("BENCH_ROUNDS must be a positive number, not '{r}'"))?,
    };
    let start = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    // Criterion's arguments split for one process per ID; None: another mode, or
    // BENCH_PER_ID=0, one process per runtime with the arguments as typed.
    let split = per_id::split(args).filter(|_| var("BENCH_PER_ID").as_deref() != Some("0"));
    let mut ids: BTreeMap<String, Vec<String>> = BTreeMap::new();
    // The fma module's `fma` IDs per runtime (none where it does not run), each in
    // a process of its own whatever BENCH_PER_ID says (they are another module's).
    let fma_split = per_id::split(args);
    let mut fma_ids: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for round in 1..=rounds {
        for rt in &rts {
            let (bin, own) = match rt {
                Runtime::Native => (&p.native, p.own.as_ref().map(|o| &o.0)),
                Runtime::WasmtimeWide => (&p.wide, None),
                _ => (&p.wasm, p.own.as_ref().map(|o| &o.1)),
            };
            let bin = bin
                .as_ref()
                .filter(|b| b.is_file())
                .ok_or(format!("no bench program for runtime {}", rt.name()))?;
            let baseline = if rounds == 1 {
                rt.name().to_owned()
            } else {
                say(&format!("round {round} of {rounds}"));
                format!("{}@{round}", rt.name())
            };
            let file = bin.file_name().unwrap_or_default().to_string_lossy();
            let what = format!("the benchmark on {}", rt.name());
            // One process per ID (per_id; the IDs listed once per runtime), or one
            // with the arguments as typed.
            let runs: Vec<(Vec<String>, String)> = match &split {
                Some(split) => {
                    if !ids.contains_key(rt.name()) {
                        let listed = per_id::list(rt.command(bin, &results, &shim), split, &what)?;
                        ids.insert(rt.name().to_owned(), listed);
                    }
                    say(&format!(
                        "{}: {file} --bench --save-baseline {baseline} {} --exact ID, one process for each of {} IDs",
                        rt.describe(),
                        split.options.join(" "),
                        ids[rt.name()].len()
                    ));
                    ids[rt.name()]
                        .iter()
                        .map(|id| (per_id::id_args(split, id), format!("{what}, {id}")))
                        .collect()
                }
                None => {
                    say(&format!(
                        "{}: {file} --bench --save-baseline {baseline} {}",
                        rt.describe(),
                        args.join(" ")
                    ));
                    vec![(args.to_vec(), what.clone())]
                }
            };
            for (run_args, what) in runs {
                let mut cmd = rt.command(bin, &results, &shim);
                cmd.args(["--bench", "--save-baseline", &baseline])
                    .args(run_args);
                run(&mut cmd, &what)?;
                rt.after_run(&results)?;
            }
            if let (Some(fma), Some(split), true) = (&p.fma, &fma_split, rt.runs_fma()) {
                let listed = fma_ids.entry(rt.name().to_owned()).or_insert_with(|| {
                    fma_rows(rt.command(fma, &results, &shim), split, rt.name())
                });
                if !listed.is_empty() {
                    say(&format!(
                        "{}: the fma module, one process for each of {} IDs",
                        rt.describe(),
                        listed.len()
                    ));
                }
                for id in listed.iter() {
                    let mut cmd = rt.command(fma, &results, &shim);
                    cmd.args(["--bench", "--save-baseline", &baseline])
                        .args(per_id::id_args(split, id));
                    run(&mut cmd, &format!("the fma module on {}, {id}", rt.name()))?;
                    rt.after_run(&results)?;
                }
            }
            if let Some(own) = own {
                say(&format!(
                    "{}: upstream's own poseidon_bench --bench --save-baseline {baseline} {}",
                    rt.describe(),
                    own_opts.join(" ")
                ));
                let mut cmd = rt.command(own, &own_results, &shim);
                cmd.args(["--bench", "--save-baseline", &baseline])
                    .args(&own_opts);
                run(
                    &mut cmd,
                    &format!("upstream's own benchmark on {}", rt.name()),
                )?;
                rt.after_run(&own_results)?;
            }
        }
    }

    // The environment: tool versions are read without the caller's rustc when prebuilt.
    let mut env = vec![
        format!("cpu={}", cpu_model()),
        format!("cores={}", cores()),
        format!(
            "os={}",
            stdout_of(Command::new("uname").arg("-srm"))
                .unwrap_or_else(|| std::env::consts::OS.into())
        ),
        format!("date={}", utc_now()),
        format!("criterion_args={}", args.join(" ")),
        format!("rounds={rounds}"),
    ];
    if !prebuilt {
        env.push(format!(
            "rustc={}",
            version_line("rustc", &["--version"], "unknown")
        ));
        env.push(format!(
            "git_commit={}",
            git_commit(root).unwrap_or_else(|| "unknown".into())
        ));
        env.push(format!("rustflags={}", native_rustflags()));
    }
    if rts
        .iter()
        .any(|r| matches!(r, Runtime::Wasmtime | Runtime::WasmtimeWide))
    {
        env.push(format!(
            "wasmtime={}",
            version_line("wasmtime", &["--version"], "unknown")
        ));
    }
    for rt in rts
        .iter()
        .filter(|r| matches!(r, Runtime::Node(..) | Runtime::Jsc(_)))
    {
        env.push(format!("{}={}", rt.name(), rt.describe()));
    }
    if let Some((commit, checkout)) = &p.upstream {
        env.push(format!("upstream={commit}"));
        env.push(format!("upstream_checkout={checkout}"));
    }
    if let Some(ops) = &p.upstream_wide {
        env.push(format!("upstream_wide_ops={ops}"));
    }
    if let Some(extra) = var("BENCH_ENV") {
        env.extend(extra.lines().filter(|l| !l.is_empty()).map(str::to_owned));
    }
    let mut report = Command::new(&p.report);
    report
        .arg("--criterion")
        .arg(&results)
        .arg("--out")
        .arg(&report_dir)
        .arg("--since")
        .arg(start.to_string());
    if p.upstream.is_some() && p.own.is_some() {
        report.arg("--upstream-own").arg(&own_results);
    }
    // The counts of cargo xtask counts beside the times (when they count these sources).
    let counts =
        var("BENCH_COUNTS").map_or_else(|| base.join("target/counts/counts.json"), PathBuf::from);
    if counts.is_file() {
        report.arg("--counts").arg(&counts);
        if !prebuilt {
            report.arg("--root").arg(root);
        }
    }
    for e in &env {
        report.arg("--env").arg(e);
    }
    report.args(rts.iter().map(Runtime::name));
    // report.svg draws js-report.json when there: not the last run's.
    let _ = std::fs::remove_file(report_dir.join("js-report.json"));
    say(&format!(
        "comparison (median per iteration; ratio = runtime / {})",
        rts[0].name()
    ));
    run(&mut report, "bench-report")?;

    let js_rts: Vec<&Runtime> = rts
        .iter()
        .filter(|r| matches!(r, Runtime::Node(..)))
        .collect();
    if !js_rts.is_empty() && !prebuilt && var("BENCH_JS").as_deref() != Some("0") {
        javascript(root, &js_rts, &report_dir, &p.report);
    }
    Ok(true)
}

/// The JavaScript package against o1js (js/bench/bench.mjs) under each Node
/// runtime, then in headless Chromium and Firefox, beside report.json; a failure
/// is a warning.
fn javascript(root: &Path, rts: &[&Runtime], report_dir: &Path, report_bin: &Path) {
    let dir = match super::js::package_copy(root) {
        Ok(d) => d,
        Err(e) => {
            say(&format!(
                "warning: could not prepare the JavaScript package: {e}"
            ));
            return;
        }
    };
    let mut parts = Vec::new();
    let mut part = |name: &str, cmd: &mut Command, what: &str| {
        let out = report_dir.join(format!("js-{name}.json"));
        match run(cmd.arg("--out").arg(&out), what) {
            Ok(()) => parts.push(out),
            Err(e) => say(&format!("warning: {e}")),
        }
    };
    for rt in rts {
        let Runtime::Node(name, node) = rt else {
            continue;
        };
        say(&format!(
            "the JavaScript package against o1js under node {}",
            version_line(&node.to_string_lossy(), &["--version"], "?")
        ));
        part(
            name,
            Command::new(node)
                .arg(dir.join("bench/bench.mjs"))
                .args(["--runtime", name]),
            &format!("the JavaScript benchmark under {name}"),
        );
    }
    // Each browser's columns: (runtime, bench-browser.mjs's arguments, what it is).
    type Columns = [(&'static str, &'static [&'static str], &'static str)];
    let browsers: [(&str, &str, bool, &Columns); 3] = [
        ("chromium", "chromium", ensure_chromium(), &[
            ("chromium", &[], "in Chromium"),
            ("chromium-wide", &["--wide"], "with --js-flags=--wasm-wide-arithmetic in Chromium (the package's wide module, where that Chromium runs it)"),
        ]),
        ("firefox-esr", "firefox", ensure_firefox(), &[("firefox", &["--engine", "firefox"], "in Firefox")]),
        ("MiniBrowser", "webkit", ensure_webkit(), &[("webkit", &["--engine", "webkit"], "in WebKit (MiniBrowser)")]),
    ];
    for (binary, name, present, columns) in browsers {
        if !present {
            say(&format!(
                "{binary} not found: skipping the {name} columns of the JavaScript comparison"
            ));
            continue;
        }
        let version = if name == "webkit" {
            "WebKitGTK's MiniBrowser under Xvfb".to_owned()
        } else {
            version_line(binary, &["--version"], binary)
        };
        say(&format!(
            "the JavaScript package against o1js in headless {version}"
        ));
        for (runtime, args, what) in columns {
            part(
                runtime,
                Command::new("node")
                    .arg(dir.join("bench/bench-browser.mjs"))
                    .args(*args),
                &format!("the JavaScript benchmark {what}"),
            );
        }
    }
    if parts.is_empty() {
        return;
    }
    let merged = run(
        Command::new("node")
            .arg(dir.join("bench/js-report.mjs"))
            .arg("--out")
            .arg(report_dir.join("js-report.json"))
            .args(&parts),
        "js-report.mjs",
    );
    if merged.is_ok() {
        if let Err(e) = run(
            Command::new(report_bin).arg("chart").arg(report_dir),
            "bench-report chart",
        ) {
            say(&format!(
                "warning: could not draw the JavaScript comparison into report.svg: {e}"
            ));
        }
    }
}
