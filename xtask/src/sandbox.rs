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
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use serde_json::Value;

/// Where the built artifacts and tools come from.
pub struct Inputs {
    /// This repository (its nix/ and scripts/ are evaluated and run).
    pub root: PathBuf,
    /// Scratch directory: the stand-in store, the builds, the apps' runs.
    pub work: PathBuf,
    /// The `poseidon` tool, native.
    pub poseidon: PathBuf,
    /// The `poseidon` tool, wasm32-wasip1.
    pub poseidon_wasm: PathBuf,
    /// The bench binary, native.
    pub bench: PathBuf,
    /// The bench module, wasm32-wasip1.
    pub bench_wasm: PathBuf,
    /// cargo's `--message-format=json` output of the native bench build.
    pub cargo_log: PathBuf,
    /// The report tool, native (`bench-report`).
    pub bench_report: PathBuf,
    /// Stand-in for nixpkgs' nodejs_22.
    pub node22: PathBuf,
    /// Stand-in for nixpkgs' nodejs_24.
    pub node24: PathBuf,
    /// Criterion arguments that keep the benchmark steps short.
    pub bench_args: String,
    /// The counts' steps, when valgrind and the wasmtime package are here.
    pub counts: Option<CountInputs>,
}

/// What the counts' steps (packages.counts, apps.counts) run on.
pub struct CountInputs {
    /// The count program, native.
    pub native: PathBuf,
    /// The count program, wasm32-wasip1.
    pub wasm: PathBuf,
    /// A site-packages directory holding the PyPI package wasmtime: with
    /// /usr/bin/python3, the stand-in for the flake's Python with it.
    pub site_packages: PathBuf,
}

/// The stand-in toolchain's `rustc --version`, expected in the counts' key.
const STANDIN_RUSTC: &str = "rustc 1.95.0 (stand-in)";
/// The benchmark the counts' steps count (the shortest).
const COUNT_ID: &str = "Field/mul/u64";

/// The user a build runs as (nixbld's stand-in) when this runs as root.
const NOBODY: u32 = 65534;
const HOMELESS: &str = "/homeless-shelter";
/// Tools every stdenv build has on PATH (its initial path), as far as a step needs them.
const COREUTILS: &[&str] = &[
    "basename",
    "cat",
    "chmod",
    "cp",
    "cut",
    "date",
    "dirname",
    "echo",
    "env",
    "expr",
    "head",
    "id",
    "install",
    "ln",
    "ls",
    "mkdir",
    "mktemp",
    "mv",
    "nproc",
    "printf",
    "pwd",
    "readlink",
    "realpath",
    "rm",
    "rmdir",
    "sleep",
    "sort",
    "stat",
    "tail",
    "tee",
    "touch",
    "tr",
    "true",
    "false",
    "uname",
    "uniq",
    "wc",
    "test",
    "seq",
    "od",
    "sha256sum",
    "timeout",
];

fn which(tool: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|d| d.join(tool))
        .find(|p| p.is_file())
}

fn io<T>(what: &Path, r: std::io::Result<T>) -> Result<T, String> {
    r.map_err(|e| format!("{}: {e}", what.display()))
}

/// Puts `src` at `dst`: a hard link where possible (no copy of a 100 MB Node), else a copy.
fn place(src: &Path, dst: &Path) -> Result<(), String> {
    io(dst, fs::create_dir_all(dst.parent().unwrap()))?;
    let _ = fs::remove_file(dst);
    if fs::hard_link(src, dst).is_err() {
        io(src, fs::copy(src, dst))?;
    }
    Ok(())
}

fn copy_dir(src: &Path, dst: &Path) -> Result<(), String> {
    io(dst, fs::create_dir_all(dst))?;
    for e in io(src, fs::read_dir(src))? {
        let p = io(src, e)?.path();
        let to = dst.join(p.file_name().unwrap());
        if p.is_dir() {
            copy_dir(&p, &to)?;
        } else {
            io(&p, fs::copy(&p, &to))?;
        }
    }
    Ok(())
}

fn write_exe(path: &Path, text: &str) -> Result<(), String> {
    io(path, fs::create_dir_all(path.parent().unwrap()))?;
    io(path, fs::write(path, text))?;
    io(
        path,
        fs::set_permissions(path, fs::Permissions::from_mode(0o755)),
    )
}

/// A shell word for `text`, single-quoted (what lib.toShellVar produces for a string).
fn quote(text: &str) -> String {
    format!("'{}'", text.replace('\'', r"'\''"))
}

/// A derivation attribute as the builder's environment sees it (Nix's rules: lists
/// space-separated, true is "1", false and null are empty).
fn env_value(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Bool(b) => Some(if *b { "1".into() } else { String::new() }),
        Value::Number(n) => Some(n.to_string()),
        Value::Null => Some(String::new()),
        Value::Array(a) => Some(a.iter().filter_map(env_value).collect::<Vec<_>>().join(" ")),
        Value::Object(_) => None,
    }
}

struct Report {
    ok: usize,
    bad: usize,
}

impl Report {
    fn check(&mut self, cond: bool, what: &str, detail: impl FnOnce() -> String) {
        if cond {
            self.ok += 1;
            println!("ok    {what}");
        } else {
            self.bad += 1;
            println!("FAIL  {what}: {}", detail());
        }
    }
}

struct Lab {
    inp: Inputs,
    store: PathBuf,
    root_user: bool,
    /// How to cut a build off the network: `unshare -n` (root) or `unshare -rn`
    /// (absolute paths: the build's PATH has only its inputs).
    unshare: Option<Vec<String>>,
    setpriv: Option<PathBuf>,
}

impl Lab {
    fn pkg(&self, name: &str) -> PathBuf {
        self.store.join(name)
    }

    /// The stand-in store: one directory per package the flake names.
    fn populate(&self) -> Result<(), String> {
        let _ = fs::remove_dir_all(&self.store);
        let tool = |t: &str| which(t).ok_or_else(|| format!("{t} not found on PATH"));
        place(&tool("bash")?, &self.pkg("bash/bin/bash"))?;
        place(&tool("wasmtime")?, &self.pkg("wasmtime/bin/wasmtime"))?;
        place(&tool("jq")?, &self.pkg("jq/bin/jq"))?;
        place(&self.inp.node22, &self.pkg("nodejs_22/bin/node"))?;
        place(&self.inp.node24, &self.pkg("nodejs_24/bin/node"))?;
        for (pkg, tools) in [
            ("gnugrep", &["grep"][..]),
            ("gnused", &["sed"]),
            ("gawk", &["awk"]),
            ("coreutils", COREUTILS),
        ] {
            for t in tools {
                if let Some(p) = which(t) {
                    let dst = self.pkg(pkg).join("bin").join(t);
                    io(&dst, fs::create_dir_all(dst.parent().unwrap()))?;
                    let _ = fs::remove_file(&dst);
                    io(&dst, std::os::unix::fs::symlink(&p, &dst))?;
                }
            }
        }
        let _ = std::os::unix::fs::symlink("awk", self.pkg("gawk/bin/gawk"));
        // alejandra: records how it was called (the formatter check).
        write_exe(
            &self.pkg("alejandra/bin/alejandra"),
            &format!(
                "#!/bin/sh\nprintf '%s\\n' \"$PWD\" \"$@\" > {}\n",
                quote(&self.inp.work.join("fmt-called").display().to_string())
            ),
        )?;
        place(&self.inp.poseidon, &self.pkg("poseidon/bin/poseidon"))?;
        place(
            &self.inp.poseidon_wasm,
            &self.pkg("poseidon-wasm/bin/poseidon.wasm"),
        )?;
        place(
            &self.inp.bench,
            &self.pkg("poseidon-bench/bin/poseidon-bench"),
        )?;
        place(
            &self.inp.bench_wasm,
            &self.pkg("poseidon-bench-wasm/bin/poseidon-bench.wasm"),
        )?;
        write_exe(
            &self.pkg("rust-toolchain/bin/rustc"),
            &format!("#!/bin/sh\necho {}\n", quote(STANDIN_RUSTC)),
        )?;
        if let Some(c) = &self.inp.counts {
            let valgrind = which("valgrind").ok_or("valgrind not found on PATH")?;
            // Debian's valgrind is a script that runs "$0.bin": call it by its path.
            write_exe(
                &self.pkg("valgrind/bin/valgrind"),
                &format!(
                    "#!/bin/sh\nexec {} \"$@\"\n",
                    quote(&valgrind.display().to_string())
                ),
            )?;
            // python3.withPackages' stand-in: the system Python (readable by the
            // build user, unlike a Python under /root) with the package's directory.
            write_exe(
                &self.pkg("python-counts/bin/python3"),
                &format!(
                    "#!/bin/sh\nPYTHONPATH={} exec /usr/bin/python3 \"$@\"\n",
                    quote(&c.site_packages.display().to_string())
                ),
            )?;
            place(&c.native, &self.pkg("poseidon-count/bin/count"))?;
            place(&c.wasm, &self.pkg("poseidon-count-wasm/bin/count.wasm"))?;
        }
        place(
            &self.inp.bench_report,
            &self.pkg("bench-report/bin/bench-report"),
        )?;
        copy_dir(&self.inp.root.join("scripts"), &self.pkg("scripts"))?;
        copy_dir(
            &self.inp.root.join("poseidon/tests/data"),
            &self.pkg("vectors"),
        )?;
        Ok(())
    }

    /// The flake's files evaluated with the stand-ins (nix/offline/eval.nix).
    fn evaluate(&self, nonce: &str) -> Result<Value, String> {
        let names = [
            "bash",
            "coreutils",
            "gnugrep",
            "gnused",
            "gawk",
            "jq",
            "wasmtime",
            "nodejs_22",
            "nodejs_24",
            "alejandra",
            "valgrind",
            "python-counts",
            "rust-toolchain",
            "poseidon-count",
            "poseidon-count-wasm",
            "poseidon",
            "poseidon-wasm",
            "poseidon-bench",
            "poseidon-bench-wasm",
            "bench-report",
            "scripts",
            "vectors",
        ];
        let standins: serde_json::Map<String, Value> = names
            .iter()
            .map(|n| {
                (
                    n.to_string(),
                    Value::String(self.pkg(n).display().to_string()),
                )
            })
            .chain([(
                "src".to_owned(),
                Value::String(self.inp.root.display().to_string()),
            )])
            .collect();
        let expr = format!(
            "import {}/nix/offline/eval.nix {{ standins = builtins.fromJSON {}; }}",
            self.inp.root.display(),
            serde_json::to_string(&Value::Object(standins).to_string()).unwrap()
        );
        let out = Command::new("nix-instantiate")
            .args(["--eval", "--strict", "--json", "--expr", &expr])
            .env("BENCH_NONCE", nonce)
            .output()
            .map_err(|e| format!("nix-instantiate: {e}"))?;
        if !out.status.success() {
            return Err(format!(
                "evaluating nix/offline/eval.nix failed:\n{}",
                String::from_utf8_lossy(&out.stderr)
            ));
        }
        serde_json::from_slice(&out.stdout).map_err(|e| format!("nix-instantiate's JSON: {e}"))
    }

    /// Runs `script` as a derivation's builder runs it: `set -eu -o pipefail`, then
    /// the build command; `attrs` are the derivation's attributes (its environment),
    /// `inputs` its nativeBuildInputs. Returns (success, output, $out).
    fn build(
        &self,
        name: &str,
        script: &str,
        attrs: &Value,
        inputs: &[String],
    ) -> Result<Build, String> {
        let dir = self.inp.work.join("builds").join(name);
        let _ = fs::remove_dir_all(&dir);
        let (tmp, outs) = (dir.join("build"), dir.join("outs"));
        for d in [&tmp, &outs] {
            io(d, fs::create_dir_all(d))?;
            if self.root_user {
                io(d, std::os::unix::fs::chown(d, Some(NOBODY), Some(NOBODY)))?;
            }
        }
        let out = outs.join("out");
        let mut path: Vec<String> = inputs.iter().map(|i| format!("{i}/bin")).collect();
        for basic in ["coreutils", "gnugrep", "gnused", "gawk", "bash"] {
            path.push(self.pkg(basic).join("bin").display().to_string());
        }
        let bash = self.pkg("bash/bin/bash");
        let mut argv: Vec<String> = self.unshare.clone().unwrap_or_default();
        if self.root_user {
            let setpriv = self
                .setpriv
                .as_ref()
                .ok_or("setpriv not found (util-linux): cannot build as nobody")?;
            argv.push(setpriv.display().to_string());
            argv.extend(["--reuid=65534", "--regid=65534", "--clear-groups"].map(String::from));
        }
        argv.push(bash.display().to_string());
        let mut cmd = Command::new(&argv[0]);
        cmd.args(&argv[1..])
            .args(["-c", "set -eu -o pipefail; eval \"$buildCommand\""])
            .current_dir(&tmp)
            .env_clear();
        if let Value::Object(m) = attrs {
            for (k, v) in m {
                if let Some(s) = env_value(v) {
                    cmd.env(k, s);
                }
            }
        }
        let tmps = tmp.display().to_string();
        cmd.env("buildCommand", script)
            .env("PATH", path.join(":"))
            .env("HOME", HOMELESS)
            .env("out", &out)
            .env("NIX_BUILD_TOP", &tmps)
            .env("NIX_BUILD_CORES", "2")
            .env("TMPDIR", &tmps)
            .env("TMP", &tmps)
            .env("TEMP", &tmps)
            .env("TEMPDIR", &tmps)
            .stdin(Stdio::null());
        let before = if self.root_user {
            self.owned()?
        } else {
            Default::default()
        };
        let o = cmd.output().map_err(|e| format!("running {name}: {e}"))?;
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        );
        // Files the build user made outside its build directory and $out (root only).
        let strays = if self.root_user {
            self.owned()?
                .difference(&before)
                .filter(|p| !Path::new(p).starts_with(&dir))
                .cloned()
                .collect()
        } else {
            Vec::new()
        };
        Ok(Build {
            ok: o.status.success(),
            text,
            out,
            strays,
        })
    }

    /// Builds derivation `drv` (its evaluated attributes) plus the `extra` ones, with
    /// attribute `script` as the build command.
    fn build_drv(
        &self,
        name: &str,
        drv: &Value,
        script: &str,
        extra: &[(&str, String)],
    ) -> Result<Build, String> {
        let mut attrs = drv.clone();
        for (k, v) in extra {
            attrs[*k] = Value::String(v.clone());
        }
        let text = attrs[script].as_str().unwrap_or("").to_owned();
        self.build(name, &text, &attrs, &strings(&drv["nativeBuildInputs"]))
    }

    /// What the build user owns in the world-writable places (and the sandbox's HOME).
    fn owned(&self) -> Result<std::collections::BTreeSet<String>, String> {
        let mut found = std::collections::BTreeSet::new();
        for top in ["/tmp", "/var/tmp", "/dev/shm", HOMELESS] {
            let o = Command::new("find")
                .args([top, "-xdev", "-user", &NOBODY.to_string()])
                .output()
                .map_err(|e| format!("find: {e}"))?;
            found.extend(
                String::from_utf8_lossy(&o.stdout)
                    .lines()
                    .map(str::to_owned),
            );
        }
        if Path::new(HOMELESS).exists() {
            found.insert(format!("{HOMELESS} (created)"));
        }
        Ok(found)
    }

    /// writeShellApplication's wrapper: the pinned bash, errexit/nounset/pipefail,
    /// runtimeEnv exported, the inputs first on PATH, then the text.
    fn wrapper(&self, name: &str, app: &Value, text: &str) -> Result<PathBuf, String> {
        let mut s = format!(
            "#!{}\nset -o errexit\nset -o nounset\nset -o pipefail\n\n",
            self.pkg("bash/bin/bash").display()
        );
        if let Some(Value::Object(env)) = app.get("runtimeEnv") {
            for (k, v) in env {
                s += &format!("export {k}={}\n", quote(&env_value(v).unwrap_or_default()));
            }
        }
        let inputs = strings(&app["runtimeInputs"]);
        let bins: Vec<String> = inputs.iter().map(|i| format!("{i}/bin")).collect();
        s += &format!("export PATH={}:\"$PATH\"\n\n{text}", quote(&bins.join(":")));
        let path = self.inp.work.join("apps").join(name).join("bin").join(name);
        write_exe(&path, &s)?;
        Ok(path)
    }

    /// A caller's environment with decoys: PATH and ~/.cargo/bin hold a wasmtime,
    /// node, bash, rustc, cargo, python3 and valgrind that leave a mark and fail.
    fn caller(&self, cmd: &mut Command) -> Result<PathBuf, String> {
        let home = self.inp.work.join("home");
        let decoys = self.inp.work.join("decoys");
        let mark = self.inp.work.join("decoy-called");
        let _ = fs::remove_file(&mark);
        for dir in [decoys.clone(), home.join(".cargo/bin")] {
            for t in [
                "wasmtime", "node", "bash", "rustc", "cargo", "python3", "valgrind",
            ] {
                write_exe(
                    &dir.join(t),
                    &format!(
                        "#!/bin/sh\necho \"$0 $*\" >> {}\necho \"decoy $0 called\" >&2\nexit 97\n",
                        quote(&mark.display().to_string())
                    ),
                )?;
            }
        }
        cmd.env_clear()
            .env(
                "PATH",
                format!("{}:/usr/local/bin:/usr/bin:/bin", decoys.display()),
            )
            .env("HOME", &home)
            .stdin(Stdio::null());
        Ok(mark)
    }
}

struct Build {
    ok: bool,
    text: String,
    out: PathBuf,
    strays: Vec<String>,
}

fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .map(|a| {
            a.iter()
                .filter_map(|x| x.as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default()
}

fn tail(text: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    lines[lines.len().saturating_sub(15)..].join("\n")
}

fn version(bin: &Path) -> String {
    Command::new(bin)
        .arg("--version")
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned())
        .unwrap_or_default()
}

/// report.json's env says the pinned wasmtime and both pinned Nodes measured, and
/// report.svg is beside it.
fn report_env_checks(r: &mut Report, lab: &Lab, report: &Path, what: &str) {
    let json: Value = fs::read_to_string(report)
        .ok()
        .and_then(|s| serde_json::from_str(&s).ok())
        .unwrap_or(Value::Null);
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
    let mut r = Report { ok: 0, bad: 0 };

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
                    .is_some_and(|p| p.ends_with("/dev")),
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

    // The apps' PATH: what lib.sh (sourced by bench.sh) leaves first (defects 4, 9).
    let app = &ev["apps"]["bench"];
    let probe = "source \"$BENCH_SCRIPTS/lib.sh\"\necho \"$BASH\"\nfor t in wasmtime node bash; do command -v \"$t\" || echo \"$t: none\"; done\n";
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
        "wasmtime/bin/wasmtime",
        "nodejs_24/bin/node",
        "bash/bin/bash",
    ]
    .iter()
    .map(|p| lab.pkg(p).display().to_string())
    .collect();
    r.check(
        found == want,
        "apps: the shell, and wasmtime, node and bash on PATH after lib.sh, are the pinned inputs",
        || {
            format!(
                "got {found:?}, want {want:?}; {}",
                String::from_utf8_lossy(&o.stderr)
            )
        },
    );

    // The bench app itself, from that caller (defects 4, 6, 9).
    let w = lab.wrapper("bench", app, app["text"].as_str().unwrap_or(""))?;
    let dir = lab.inp.work.join("app-run");
    let _ = fs::remove_dir_all(&dir);
    io(&dir, fs::create_dir_all(&dir))?;
    let mut cmd = Command::new(&w);
    let mark = lab.caller(&mut cmd)?;
    let o = cmd
        .args(lab.inp.bench_args.split_whitespace())
        .current_dir(&dir)
        .output()
        .map_err(|e| format!("{}: {e}", w.display()))?;
    let called = fs::read_to_string(&mark).unwrap_or_default();
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
    report_env_checks(
        &mut r,
        &lab,
        &dir.join("target/bench-report/report.json"),
        "apps.bench",
    );

    if lab.inp.counts.is_some() {
        count_checks(&mut r, &lab, &ev)?;
    } else {
        println!("skipped: the counts' steps (valgrind or the wasmtime package not here)");
    }

    // The formatter with no arguments (defect 3).
    let f = &ev["formatter"];
    let w = lab.wrapper("nix-fmt", f, f["text"].as_str().unwrap_or(""))?;
    let prj = lab.inp.work.join("fmt-root");
    io(&prj, fs::create_dir_all(prj.join("sub")))?;
    let called = lab.inp.work.join("fmt-called");
    let _ = fs::remove_file(&called);
    let mut cmd = Command::new(&w);
    lab.caller(&mut cmd)?;
    let o = cmd
        .env("PRJ_ROOT", &prj)
        .current_dir(prj.join("sub"))
        .output()
        .map_err(|e| format!("{}: {e}", w.display()))?;
    let got = fs::read_to_string(&called).unwrap_or_default();
    let want = format!("{}\nflake.nix\nnix\n", prj.display());
    r.check(
        o.status.success() && got == want,
        "formatter (nix fmt) with no arguments: alejandra on flake.nix and nix/ at the flake's root, not stdin",
        || format!("alejandra was called as {got:?}, want {want:?}"),
    );

    println!("{} passed, {} failed", r.ok, r.bad);
    Ok(r.bad == 0)
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
    let w = lab.wrapper("counts", app, app["text"].as_str().unwrap_or(""))?;
    let dir = lab.inp.work.join("counts-run");
    let _ = fs::remove_dir_all(&dir);
    io(&dir, fs::create_dir_all(&dir))?;
    let mut cmd = Command::new(&w);
    let mark = lab.caller(&mut cmd)?;
    let o = cmd
        .arg(&filter)
        .current_dir(&dir)
        .output()
        .map_err(|e| format!("{}: {e}", w.display()))?;
    let called = fs::read_to_string(&mark).unwrap_or_default();
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    #[test]
    fn quote_survives_the_shell() {
        for s in ["plain", "it's", "a b\nc", "$(x) `y` \\ \"z\"", ""] {
            let out = Command::new("sh")
                .args(["-c", &format!("printf %s {}", quote(s))])
                .output()
                .unwrap();
            assert_eq!(String::from_utf8_lossy(&out.stdout), s);
        }
    }

    #[test]
    fn attributes_become_the_builders_environment() {
        let v: Value = serde_json::json!({"s": "x", "t": true, "f": false, "l": ["/a", "/b"], "n": 3, "o": {}});
        let env: BTreeMap<&str, Option<String>> = v
            .as_object()
            .unwrap()
            .iter()
            .map(|(k, v)| (k.as_str(), env_value(v)))
            .collect();
        assert_eq!(env["s"].as_deref(), Some("x"));
        assert_eq!(env["t"].as_deref(), Some("1"));
        assert_eq!(env["f"].as_deref(), Some(""));
        assert_eq!(env["l"].as_deref(), Some("/a /b"));
        assert_eq!(env["n"].as_deref(), Some("3"));
        assert_eq!(env["o"], None);
    }
}
