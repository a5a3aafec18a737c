//! `cargo xtask nix-sandbox`: the flake's shell steps run the way Nix would run
//! them, without nixpkgs (which cannot be fetched here).
//!
//! `nix/offline/eval.nix` calls the flake's `nix/*.nix` files with stand-ins for
//! nixpkgs and crane; each stand-in package is a directory under `WORK/store/`
//! holding this machine's binary for it (this machine's wasmtime for `wasmtime`, …).
//! The evaluated steps then run:
//! - as a derivation builds (`runCommand`, crane's install phase): a cleared
//!   environment, `HOME=/homeless-shelter` (which cannot be created), no network
//!   (`unshare -n`), as an unprivileged user (`nobody`, when run as root), `PATH`
//!   only the derivation's inputs plus stdenv's basic tools; it must succeed and
//!   write only to `$out` and its build directory;
//! - as an app runs (writeShellApplication's wrapper): from a caller whose `PATH` and
//!   `~/.cargo/bin` hold decoy `wasmtime`, `node`, `bash`, `rustc` and `cargo` that
//!   fail when called; the pinned tools must be the ones used.
//!
//! Prints `ok`/`FAIL` lines and `N passed, M failed`.

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::Command;

use serde_json::Value;

use crate::checklist::Checklist as Report;

mod lab;
use crate::lab::tools::{io, which};
use lab::{tail, version, AppRun, Lab, COUNT_ID, STANDIN_RUSTC, WIDE_WRAPPER};
pub(crate) use lab::{write_exe, COREUTILS};
pub use lab::{CountInputs, Inputs};

/// report.json's env says the pinned wasmtime and both pinned Nodes measured, and
/// report.svg is beside it.
fn report_env_checks(r: &mut Report, lab: &Lab, report: &Path, what: &str) {
    let json = report_json(report);
    let env = &json["env"];
    let wasmtime = version(&lab.pkg("wasmtime/bin/wasmtime"));
    r.check(
        !wasmtime.is_empty() && env["wasmtime"] == Value::String(wasmtime.clone()),
        &format!("{what}: report.json records the pinned {wasmtime}"),
        || format!("{} says wasmtime = {}", report.display(), env["wasmtime"]),
    );
    for (rt, bin) in [("node22", "nodejs_22"), ("node24", "nodejs_24")] {
        let v = version(&lab.pkg(bin).join("bin/node"));
        r.check(
            !v.is_empty() && env[rt].as_str().is_some_and(|s| s.contains(&v)),
            &format!("{what}: report.json records {rt} = the pinned Node {v}"),
            || format!("{} says {rt} = {}", report.display(), env[rt]),
        );
    }
    r.check(
        env["cores"]
            .as_str()
            .is_some_and(|c| c.parse::<u32>().is_ok()),
        &format!("{what}: report.json records the core count"),
        || format!("cores = {}", env["cores"]),
    );
    let svg = report.with_file_name("report.svg");
    r.check(
        fs::read_to_string(&svg).is_ok_and(|s| s.starts_with("<svg") && s.contains("<rect")),
        &format!("{what}: report.svg drawn beside report.json"),
        || format!("{} missing or not a chart", svg.display()),
    );
}

/// A report.json (null when it is missing or not JSON).
fn report_json(report: &Path) -> Value {
    fs::read_to_string(report)
        .ok()
        .and_then(|s| serde_json::from_str(&s).ok())
        .unwrap_or(Value::Null)
}

/// The runtimes that measured ID `id` (any, with `None`) in `report`.
fn measured_on(report: &Path, id: Option<&str>) -> std::collections::BTreeSet<String> {
    report_json(report)["results"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|r| id.is_none_or(|id| r["id"] == id))
        .filter_map(|r| r["runtime"].as_str().map(str::to_owned))
        .collect()
}

/// The variables of `env` that the evaluated derivation `drv` sets otherwise.
fn env_differences(drv: &Value, env: &[(&str, &str)]) -> Vec<String> {
    env.iter()
        .filter(|(k, v)| drv[*k] != *v)
        .map(|(k, v)| format!("{k} = {} (xtask: {v:?})", drv[*k]))
        .collect()
}

/// `report` holds results of ID `id` (of any, with `None`) from each runtime of
/// `want`: every runtime the flake pins, or those that run the fma module.
fn measured_check(r: &mut Report, report: &Path, id: Option<&str>, want: &[&str], claim: &str) {
    let got = measured_on(report, id);
    r.check(
        want.iter().all(|rt| got.contains(*rt)),
        &format!("{claim} ({})", want.join(", ")),
        || format!("report.json has results of {id:?} from {got:?}"),
    );
}

/// Every runtime the flake pins (nix/packages.nix's everyRuntime, each Node by name).
const EVERY_RUNTIME: [&str; 5] = ["native", "wasmtime", "wasmtime-wide", "node22", "node24"];
/// The pinned runtimes that run the fma module's rows (those of [`EVERY_RUNTIME`]
/// that xtask's `Runtime::runs_fma` accepts).
const FMA_RUNTIMES: [&str; 3] = ["wasmtime", "node22", "node24"];
/// The fma module's row (its permutation).
const FMA_ROW: &str = "Poseidon/permutation/fma";

/// `report`'s results: from every pinned runtime, and the fma rows from each
/// runtime that runs them.
fn runtime_checks(r: &mut Report, report: &Path, what: &str) {
    let every = format!("{what}: measured on every pinned runtime");
    measured_check(r, report, None, &EVERY_RUNTIME, &every);
    let fma = format!("{what}: the fma rows (the merged module) measured");
    measured_check(r, report, Some(FMA_ROW), &FMA_RUNTIMES, &fma);
}

/// packages.bench-wide: the settings of `xtask bench`'s wide build, and its
/// compiler wrapper (the script nix/packages.nix makes of scripts/rustc-wide.sh)
/// run in the sandbox as cargo runs it.
fn wide_build_checks(r: &mut Report, lab: &Lab, ev: &Value) -> Result<(), String> {
    use crate::lab::build::{RUSTC_WIDE, WIDE_ENV};
    let w = &ev["packages"]["bench-wide"];
    let wrapper = lab.pkg(WIDE_WRAPPER);
    let script = fs::read_to_string(lab.inp.root.join(RUSTC_WIDE)).unwrap_or_default();
    let text = ev["rustcWide"]["text"].as_str().unwrap_or("");
    let differ = env_differences(w, &WIDE_ENV);
    r.check(
        differ.is_empty()
            && w["CARGO_BUILD_TARGET"] == "wasm32-wasip1"
            && w["RUSTC_WRAPPER"] == Value::String(wrapper.display().to_string())
            && !script.is_empty()
            && text == script,
        &format!("packages.bench-wide: xtask's wide build (wasm32-wasip1, WIDE_ENV), its RUSTC_WRAPPER {RUSTC_WIDE} made a script of the store (writeShellScript)"),
        || format!("{differ:?}; target {}, RUSTC_WRAPPER {}, wrapper text the script's: {}", w["CARGO_BUILD_TARGET"], w["RUSTC_WRAPPER"], text == script),
    );
    // As writeShellScript writes it: the pinned bash first, then the text.
    lab.shell_script(WIDE_WRAPPER, text)?;
    let fake = lab.inp.work.join("fake-rustc");
    lab::write_exe(&fake, "#!/bin/sh\necho \"$*\"\n")?;
    let probe = r#"for c in poseidon ark_ff; do for t in wasm32-wasip1 x86_64-unknown-linux-gnu; do
  echo "$c $t: $("$RUSTC_WRAPPER" "$FAKE_RUSTC" --crate-name "$c" --target "$t")"
done; done > "$out"
"#;
    let extra = [
        ("probeScript", probe.to_owned()),
        ("FAKE_RUSTC", fake.display().to_string()),
    ];
    let b = lab.build_drv("rustc-wide", w, "probeScript", &extra)?;
    let got = fs::read_to_string(&b.out).unwrap_or_default();
    let flag = "-C target-feature=+wide-arithmetic";
    let want = [
        ("poseidon wasm32-wasip1", true),
        ("poseidon x86_64-unknown-linux-gnu", false),
        ("ark_ff wasm32-wasip1", false),
        ("ark_ff x86_64-unknown-linux-gnu", false),
    ];
    let right = want.iter().all(|(what, wide)| {
        got.lines()
            .find_map(|l| l.strip_prefix(&format!("{what}: ")))
            .is_some_and(|args| args.starts_with("--crate-name") && args.ends_with(flag) == *wide)
    });
    r.check(
        b.ok && b.strays.is_empty() && right,
        &format!("packages.bench-wide's RUSTC_WRAPPER in the sandbox: {flag} for crate poseidon on wasm32 only"),
        || format!("exit ok = {}, strays {:?}, got:\n{got}\n{}", b.ok, b.strays, tail(&b.text)),
    );
    Ok(())
}

/// packages.bench-fma: the fma build's settings are `xtask bench`'s, and the
/// kernels merged into its module as a derivation builds (as nobody, the store
/// read-only); the result stands in for the package the apps run.
fn fma_build_checks(r: &mut Report, lab: &Lab, ev: &Value) -> Result<(), String> {
    use crate::lab::build::FMA_ENV;
    let a = &ev["fmaArgs"];
    let differ = env_differences(a, &FMA_ENV);
    r.check(
        differ.is_empty() && a["CARGO_BUILD_TARGET"] == "wasm32-wasip1",
        "packages.bench-fma: xtask's fma build (wasm32-wasip1, FMA_ENV)",
        || format!("{differ:?}; target {}", a["CARGO_BUILD_TARGET"]),
    );
    let d = &ev["packages"]["bench-fma"];
    let b = lab.build_drv("bench-fma", d, "text", &[])?;
    let module = b.out.join("bin/poseidon-bench.wasm");
    let bytes = fs::read(&module).unwrap_or_default();
    r.check(
        b.ok && b.strays.is_empty() && bytes.starts_with(b"\0asm"),
        "packages.bench-fma in the sandbox: the kernels merged in (fma-kernel --merge, binaryen), a module in $out, nothing outside it",
        || format!("exit ok = {}, strays {:?}, {} bytes:\n{}", b.ok, b.strays, bytes.len(), tail(&b.text)),
    );
    // The apps' checks below then find no fma rows when this failed.
    if module.is_file() {
        lab::place(
            &module,
            &lab.pkg("poseidon-bench-fma/bin/poseidon-bench.wasm"),
        )?;
    }
    Ok(())
}

/// All checks; Ok(true) when every one passed.
pub fn run(inp: Inputs) -> Result<bool, String> {
    let root_user = Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "0");
    let unshare = which("unshare").and_then(|u| {
        let u = u.display().to_string();
        [vec![u.clone(), "-n".into()], vec![u, "-rn".into()]]
            .into_iter()
            .find(|a| {
                Command::new(&a[0])
                    .args(&a[1..])
                    .arg("true")
                    .status()
                    .is_ok_and(|s| s.success())
            })
    });
    let work = inp.work.clone();
    io(&work, fs::create_dir_all(&work))?;
    let setpriv = which("setpriv");
    let lab = Lab {
        store: work.join("store"),
        inp,
        root_user,
        unshare,
        setpriv,
    };
    println!(
        "sandbox: {}, {}",
        if root_user {
            "builds as nobody (uid 65534)"
        } else {
            "builds as this (unprivileged) user"
        },
        match &lab.unshare {
            Some(u) => format!("no network ({})", u.join(" ")),
            None => "network NOT cut off (unshare unavailable here)".into(),
        }
    );
    lab.populate()?;
    // Nobody must read the store; the work directory is not world-readable by default.
    for d in [&work, &lab.store] {
        io(d, fs::set_permissions(d, fs::Permissions::from_mode(0o755)))?;
    }
    let nonce = format!("nonce-{}", std::process::id());
    let ev = lab.evaluate(&nonce)?;
    let mut r = Report::default();

    // The crane arguments (defects 5, 8, 2).
    for c in [
        "poseidon-test",
        "poseidon-test-wasm",
        "poseidon-doctest",
        "poseidon-doctest-wasm",
    ] {
        let a = &ev["checks"][c];
        r.check(
            a["CARGO_PROFILE"] == "dev"
                && a["cargoArtifacts"]
                    .as_str()
                    .is_some_and(|p| p.ends_with("-dev-deps")),
            &format!(
                "checks.{c}: dev profile (debug assertions on), dev-profile dependency artifacts"
            ),
            || {
                format!(
                    "CARGO_PROFILE = {}, cargoArtifacts = {}",
                    a["CARGO_PROFILE"], a["cargoArtifacts"]
                )
            },
        );
    }
    let fmt = &ev["checks"]["poseidon-fmt"];
    r.check(
        fmt["pname"].is_string() && fmt["version"].is_string(),
        "checks.poseidon-fmt: has a pname and version (no crane placeholder warning)",
        || format!("attributes {fmt}"),
    );
    let report_drv = &ev["packages"]["bench-report"];
    r.check(
        report_drv["nonce"] == Value::String(nonce.clone()),
        "packages.bench-report: BENCH_NONCE (nix build --impure) makes a new derivation, so a new measurement",
        || format!("nonce attribute = {}", report_drv["nonce"]),
    );

    wide_build_checks(&mut r, &lab, &ev)?;
    fma_build_checks(&mut r, &lab, &ev)?;

    // The vector check, as a sandboxed build (defect 1).
    let v = &ev["checks"]["poseidon-vectors"];
    let b = lab.build_drv("poseidon-vectors", v, "text", &[])?;
    r.check(
        b.ok && b.out.exists() && b.strays.is_empty(),
        "checks.poseidon-vectors in the sandbox: passes, writes only $out",
        || {
            format!(
                "exit ok = {}, strays {:?}:\n{}",
                b.ok,
                b.strays,
                tail(&b.text)
            )
        },
    );

    // cargo's wasm runner of the test checks, on a wasm program (defect 1).
    let t = &ev["checks"]["poseidon-test-wasm"];
    let runner = t["CARGO_TARGET_WASM32_WASIP1_RUNNER"]
        .as_str()
        .unwrap_or("")
        .to_owned();
    let script = "cp \"$VECTORS\"/kimchi.json .\n$CARGO_TARGET_WASM32_WASIP1_RUNNER \"$POSEIDON_WASM\" check kimchi.json\ntouch \"$out\"\n";
    let path = |p: &str| lab.pkg(p).display().to_string();
    let extra = [
        ("probeScript", script.to_owned()),
        ("POSEIDON_WASM", path("poseidon-wasm/bin/poseidon.wasm")),
        ("VECTORS", path("vectors")),
    ];
    let b = lab.build_drv("wasm-runner", t, "probeScript", &extra)?;
    r.check(
        b.ok && b.strays.is_empty(),
        &format!("checks.poseidon-test-wasm's runner ({runner}) in the sandbox"),
        || format!("strays {:?}:\n{}", b.strays, tail(&b.text)),
    );

    // The bench binary's install phase, on cargo's real log with non-JSON lines.
    let n = &ev["packages"]["bench-native"];
    let log = lab.inp.work.join("cargo-build-log.json");
    let real = io(&lab.inp.cargo_log, fs::read_to_string(&lab.inp.cargo_log))?;
    io(
        &log,
        fs::write(&log, format!("a build script's line\n{real}not json {{\n")),
    )?;
    if lab.root_user {
        io(
            &log,
            fs::set_permissions(&log, fs::Permissions::from_mode(0o644)),
        )?;
    }
    let extra = [("cargoBuildLog", log.display().to_string())];
    let b = lab.build_drv("install-bench", n, "installPhaseCommand", &extra)?;
    let installed = b.out.join("bin/poseidon-bench");
    r.check(
        b.ok && installed.is_file() && b.strays.is_empty(),
        "packages.bench-native's install phase: finds the bench executable in a build log with non-JSON lines",
        || format!("exit ok = {}, {} missing or strays {:?}:\n{}", b.ok, installed.display(), b.strays, tail(&b.text)),
    );

    // The hermetic report, as a sandboxed build (defects 1, 6, 7).
    let extra = [("BENCH_ARGS", lab.inp.bench_args.clone())];
    let b = lab.build_drv("bench-report", report_drv, "text", &extra)?;
    let report = b.out.join("report.json");
    r.check(
        b.ok && report.is_file() && b.strays.is_empty(),
        &format!("packages.bench-report in the sandbox (criterion {}): report.json, nothing outside $out", lab.inp.bench_args),
        || format!("exit ok = {}, strays {:?}:\n{}", b.ok, b.strays, tail(&b.text)),
    );
    report_env_checks(&mut r, &lab, &report, "packages.bench-report");
    runtime_checks(&mut r, &report, "packages.bench-report");

    // The apps' PATH: the pinned tools first (defects 4, 9).
    let app = &ev["apps"]["bench"];
    let probe = "echo \"$BASH\"\nfor t in xtask wasmtime node bash; do command -v \"$t\" || echo \"$t: none\"; done\n";
    let w = lab.wrapper("probe", app, probe)?;
    let mut cmd = Command::new(&w);
    lab.caller(&mut cmd)?;
    let o = cmd.output().map_err(|e| format!("{}: {e}", w.display()))?;
    let found: Vec<String> = String::from_utf8_lossy(&o.stdout)
        .lines()
        .map(str::to_owned)
        .collect();
    let want: Vec<String> = [
        "bash/bin/bash",
        "xtask/bin/xtask",
        "wasmtime/bin/wasmtime",
        "nodejs_24/bin/node",
        "bash/bin/bash",
    ]
    .iter()
    .map(|p| lab.pkg(p).display().to_string())
    .collect();
    r.check(
        found == want,
        "apps: the shell, and xtask, wasmtime, node and bash on the wrapper's PATH, are the pinned inputs",
        || {
            format!(
                "got {found:?}, want {want:?}; {}",
                String::from_utf8_lossy(&o.stderr)
            )
        },
    );

    // The bench app itself, from that caller (defects 4, 6, 9).
    let bench_args: Vec<&str> = lab.inp.bench_args.split_whitespace().collect();
    let AppRun {
        out: o,
        called,
        dir,
    } = lab.run_app("bench", app, "app-run", &bench_args)?;
    r.check(
        o.status.success() && called.is_empty(),
        "apps.bench from a caller with decoy tools: runs, calls none of them",
        || {
            format!(
                "exit {:?}, decoys called: {called:?}\n{}",
                o.status.code(),
                tail(&String::from_utf8_lossy(&o.stderr))
            )
        },
    );
    let report = dir.join("target/bench-report/report.json");
    report_env_checks(&mut r, &lab, &report, "apps.bench");
    runtime_checks(&mut r, &report, "apps.bench");

    // bench-wasm: the pinned wasmtime, plain and with wide arithmetic; bench-native
    // has no wasm module and no Node: it must not look for one.
    for (name, run, want, claim) in [
        (
            "bench-wasm",
            "app-run-wasm",
            &["wasmtime", "wasmtime-wide"][..],
            "measures under wasmtime and wasmtime-wide (the wide module)",
        ),
        (
            "bench-native",
            "app-run-native",
            &["native"],
            "measures natively only, looks for no Node",
        ),
    ] {
        let AppRun {
            out: o,
            called,
            dir,
        } = lab.run_app(name, &ev["apps"][name], run, &bench_args)?;
        let got = measured_on(&dir.join("target/bench-report/report.json"), None);
        r.check(
            o.status.success() && called.is_empty() && got.iter().eq(want.iter()),
            &format!("apps.{name} from a caller with decoy tools: {claim}, calls no decoy"),
            || {
                format!(
                    "exit {:?}, decoys called: {called:?}, results from {got:?}\n{}",
                    o.status.code(),
                    tail(&String::from_utf8_lossy(&o.stderr))
                )
            },
        );
    }

    if lab.inp.counts.is_some() {
        count_checks(&mut r, &lab, &ev)?;
    } else {
        println!("skipped: the counts' steps (valgrind or the wasmtime package not here)");
    }

    // The formatter with no arguments (defect 3), from a directory below the
    // flake's root: with PRJ_ROOT (Nix 2.25 and later) and without (older Nix).
    let f = &ev["formatter"];
    let w = lab.wrapper("nix-fmt", f, f["text"].as_str().unwrap_or(""))?;
    let prj = lab.inp.work.join("fmt-root");
    io(&prj, fs::create_dir_all(prj.join("sub/deeper")))?;
    io(&prj, fs::write(prj.join("flake.nix"), "{}\n"))?;
    let called = lab.inp.work.join("fmt-called");
    for prj_root in [true, false] {
        let _ = fs::remove_file(&called);
        let mut cmd = Command::new(&w);
        lab.caller(&mut cmd)?;
        if prj_root {
            cmd.env("PRJ_ROOT", &prj);
        }
        let o = cmd
            .current_dir(prj.join("sub/deeper"))
            .output()
            .map_err(|e| format!("{}: {e}", w.display()))?;
        let got = fs::read_to_string(&called).unwrap_or_default();
        let want = format!("{}\nflake.nix\nnix\n", prj.display());
        r.check(
            o.status.success() && got == want,
            &format!(
                "formatter (nix fmt) with no arguments, {}: alejandra on flake.nix and nix/ at the flake's root, not stdin",
                if prj_root { "PRJ_ROOT set" } else { "no PRJ_ROOT (Nix before 2.25), two directories down" }
            ),
            || format!("alejandra was called as {got:?}, want {want:?}"),
        );
    }

    Ok(r.finish())
}

/// counts.json of a counts step: COUNT_ID counted in every kind, with the key of
/// the pinned tools (the stand-in rustc's --version, a source hash).
fn counts_file_checks(r: &mut Report, path: &Path, what: &str) {
    let j: Value = fs::read_to_string(path)
        .ok()
        .and_then(|t| serde_json::from_str(&t).ok())
        .unwrap_or(Value::Null);
    let row = j["counts"]
        .as_array()
        .and_then(|l| l.iter().find(|e| e["id"] == COUNT_ID));
    let counted = row.is_some_and(|e| {
        [
            "native_instructions",
            "wasm_operators",
            "wasmtime_instructions",
        ]
        .iter()
        .all(|k| e[*k].as_u64().is_some_and(|n| n > 0))
    });
    r.check(
        counted
            && j["key"]["rustc"] == STANDIN_RUSTC
            && j["key"]["source_sha256"].as_str().is_some_and(|h| h.len() == 64),
        &format!("{what}: counts.json counts {COUNT_ID} natively, in Wasm operators and in wasmtime's code, keyed by the pinned tools"),
        || format!("{}: {}", path.display(), serde_json::to_string(&j).unwrap_or_default()),
    );
}

/// packages.counts in the sandbox and apps.counts among decoys, on one ID.
fn count_checks(r: &mut Report, lab: &Lab, ev: &Value) -> Result<(), String> {
    let filter = format!("^{COUNT_ID}$");
    let drv = &ev["packages"]["counts"];
    let b = lab.build_drv("counts", drv, "text", &[("countFilter", filter.clone())])?;
    r.check(
        b.ok && b.out.join("counts.json").is_file() && b.strays.is_empty(),
        &format!("packages.counts in the sandbox ({filter}): counts.json, nothing outside $out"),
        || {
            format!(
                "exit ok = {}, strays {:?}:\n{}",
                b.ok,
                b.strays,
                tail(&b.text)
            )
        },
    );
    counts_file_checks(r, &b.out.join("counts.json"), "packages.counts");

    let app = &ev["apps"]["counts"];
    let AppRun {
        out: o,
        called,
        dir,
    } = lab.run_app("counts", app, "counts-run", &[filter.as_str()])?;
    r.check(
        o.status.success() && called.is_empty(),
        "apps.counts from a caller with decoy tools: runs, calls none of them",
        || {
            format!(
                "exit {:?}, decoys called: {called:?}\n{}",
                o.status.code(),
                tail(&String::from_utf8_lossy(&o.stderr))
            )
        },
    );
    counts_file_checks(r, &dir.join("target/counts/counts.json"), "apps.counts");
    Ok(())
}
