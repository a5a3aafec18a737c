//! The stand-in store, the evaluation of nix/offline/eval.nix, and running a step
//! as a derivation builds or as an app runs (see the parent module).

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use serde_json::Value;

use crate::lab::tools::{io, which};

/// The stand-in toolchain's `rustc --version`, expected in the counts' key.
pub(super) const STANDIN_RUSTC: &str = "rustc 1.95.0 (stand-in)";
/// The name of the wide build's compiler wrapper (nix/packages.nix's
/// `writeShellScript "rustc-wide"`), its stand-in a file of the store.
pub(super) const WIDE_WRAPPER: &str = "rustc-wide";

/// The benchmark the counts' steps count (the shortest).
pub(super) const COUNT_ID: &str = "Field/mul/u64";

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
    /// The bench module with wide arithmetic (runtime wasmtime-wide).
    pub bench_wide: PathBuf,
    /// The bench module's fma build, before the kernels are merged in.
    pub fma_unmerged: PathBuf,
    /// The kernels' generator (`fma-kernel`), native.
    pub fma_kernel: PathBuf,
    /// binaryen's bin directory (`wasm-merge`, `wasm-opt`): a native binaryen's,
    /// or npm's `node_modules/.bin` (scripts for Node).
    pub binaryen: PathBuf,
    /// cargo's `--message-format=json` output of the native bench build.
    pub cargo_log: PathBuf,
    /// The report tool, native (`bench-report`).
    pub bench_report: PathBuf,
    /// The orchestrator (`xtask`), native: the apps run its tasks.
    pub xtask: PathBuf,
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

/// The user a build runs as (nixbld's stand-in) when this runs as root.
pub(super) const NOBODY: u32 = 65534;
pub(super) const HOMELESS: &str = "/homeless-shelter";
/// Tools every stdenv build has on PATH (its initial path), as far as a step needs them.
pub(crate) const COREUTILS: &[&str] = &[
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

/// Puts `src` at `dst`: a hard link where possible (no copy of a 100 MB Node), else a copy.
pub(super) fn place(src: &Path, dst: &Path) -> Result<(), String> {
    io(dst, fs::create_dir_all(dst.parent().unwrap()))?;
    let _ = fs::remove_file(dst);
    if fs::hard_link(src, dst).is_err() {
        io(src, fs::copy(src, dst))?;
    }
    Ok(())
}

pub(super) fn copy_dir(src: &Path, dst: &Path) -> Result<(), String> {
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

pub(crate) fn write_exe(path: &Path, text: &str) -> Result<(), String> {
    io(path, fs::create_dir_all(path.parent().unwrap()))?;
    io(path, fs::write(path, text))?;
    io(
        path,
        fs::set_permissions(path, fs::Permissions::from_mode(0o755)),
    )
}

/// A shell word for `text`, single-quoted (what lib.toShellVar produces for a string).
pub(super) fn quote(text: &str) -> String {
    format!("'{}'", text.replace('\'', r"'\''"))
}

/// A derivation attribute as the builder's environment sees it (Nix's rules: lists
/// space-separated, true is "1", false and null are empty).
pub(super) fn env_value(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Bool(b) => Some(if *b { "1".into() } else { String::new() }),
        Value::Number(n) => Some(n.to_string()),
        Value::Null => Some(String::new()),
        Value::Array(a) => Some(a.iter().filter_map(env_value).collect::<Vec<_>>().join(" ")),
        Value::Object(_) => None,
    }
}

pub(super) struct Lab {
    pub(super) inp: Inputs,
    pub(super) store: PathBuf,
    pub(super) root_user: bool,
    /// How to cut a build off the network: `unshare -n` (root) or `unshare -rn`
    /// (absolute paths: the build's PATH has only its inputs).
    pub(super) unshare: Option<Vec<String>>,
    pub(super) setpriv: Option<PathBuf>,
}

impl Lab {
    pub(super) fn pkg(&self, name: &str) -> PathBuf {
        self.store.join(name)
    }

    /// The stand-in store: one directory per package the flake names.
    pub(super) fn populate(&self) -> Result<(), String> {
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
        // The builds of the workspace, each at its package's path.
        for (src, pkg) in [
            (&self.inp.poseidon, "poseidon/bin/poseidon"),
            (&self.inp.poseidon_wasm, "poseidon-wasm/bin/poseidon.wasm"),
            (&self.inp.bench, "poseidon-bench/bin/poseidon-bench"),
            (
                &self.inp.bench_wasm,
                "poseidon-bench-wasm/bin/poseidon-bench.wasm",
            ),
            (
                &self.inp.bench_wide,
                "poseidon-bench-wide/bin/poseidon-bench.wasm",
            ),
            (
                &self.inp.fma_unmerged,
                "poseidon-bench-fma-unmerged/bin/poseidon-bench.wasm",
            ),
            (&self.inp.fma_kernel, "poseidon-fma-kernel/bin/fma-kernel"),
        ] {
            place(src, &self.pkg(pkg))?;
        }
        // binaryen's tools as programs of their own (npm's are scripts that
        // `/usr/bin/env node` would start: the pinned Node runs them here).
        for t in ["wasm-merge", "wasm-opt"] {
            let src = self.inp.binaryen.join(t);
            let real = io(&src, fs::canonicalize(&src))?;
            // Its first line only (npm's scripts are megabytes of JavaScript).
            let mut head = [0u8; 19];
            let read = fs::File::open(&real).and_then(|mut f| {
                use std::io::Read;
                f.read_exact(&mut head)
            });
            let run = if read.is_ok() && head == *b"#!/usr/bin/env node" {
                format!(
                    "{} {}",
                    quote(&self.inp.node24.display().to_string()),
                    quote(&real.display().to_string())
                )
            } else {
                quote(&real.display().to_string())
            };
            write_exe(
                &self.pkg("binaryen/bin").join(t),
                &format!("#!/bin/sh\nexec {run} \"$@\"\n"),
            )?;
        }
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
        place(&self.inp.xtask, &self.pkg("xtask/bin/xtask"))?;
        copy_dir(&self.inp.root.join("scripts"), &self.pkg("scripts"))?;
        copy_dir(
            &self.inp.root.join("poseidon/tests/data"),
            &self.pkg("vectors"),
        )?;
        Ok(())
    }

    /// The flake's files evaluated with the stand-ins (nix/offline/eval.nix).
    pub(super) fn evaluate(&self, nonce: &str) -> Result<Value, String> {
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
            "poseidon-bench-wide",
            "poseidon-bench-fma-unmerged",
            "poseidon-bench-fma",
            "poseidon-fma-kernel",
            "binaryen",
            WIDE_WRAPPER,
            "bench-report",
            "xtask",
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
        crate::nix_eval::eval_json(&expr, &[("BENCH_NONCE", nonce)])
            .map_err(|e| format!("evaluating nix/offline/eval.nix failed:\n{e}"))
    }

    /// Runs `script` as a derivation's builder runs it: `set -eu -o pipefail`, then
    /// the build command; `attrs` are the derivation's attributes (its environment),
    /// `inputs` its nativeBuildInputs. Returns (success, output, $out).
    pub(super) fn build(
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
    pub(super) fn build_drv(
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
    pub(super) fn owned(&self) -> Result<std::collections::BTreeSet<String>, String> {
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

    /// writeShellScript's file at its stand-in path: the pinned bash on its first
    /// line, then the text.
    pub(super) fn shell_script(&self, name: &str, text: &str) -> Result<PathBuf, String> {
        let path = self.pkg(name);
        write_exe(
            &path,
            &format!("#!{}\n{text}", self.pkg("bash/bin/bash").display()),
        )?;
        Ok(path)
    }

    /// writeShellApplication's wrapper: the pinned bash, errexit/nounset/pipefail,
    /// runtimeEnv exported, the inputs first on PATH, then the text.
    pub(super) fn wrapper(&self, name: &str, app: &Value, text: &str) -> Result<PathBuf, String> {
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
    /// node, bash, rustc, cargo, python3, valgrind and getconf (not a runtime input
    /// of the apps: coreutils' nproc counts the cores) that leave a mark and fail.
    pub(super) fn caller(&self, cmd: &mut Command) -> Result<PathBuf, String> {
        let home = self.inp.work.join("home");
        let decoys = self.inp.work.join("decoys");
        let mark = self.inp.work.join("decoy-called");
        let _ = fs::remove_file(&mark);
        for dir in [decoys.clone(), home.join(".cargo/bin")] {
            for t in [
                "wasmtime", "node", "bash", "rustc", "cargo", "python3", "valgrind", "getconf",
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

    /// Runs the flake app `name` (its wrapper) with `args` from a caller with decoys
    /// ([`Lab::caller`]), in a fresh `work/RUN_DIR`.
    pub(super) fn run_app(
        &self,
        name: &str,
        app: &Value,
        run_dir: &str,
        args: &[&str],
    ) -> Result<AppRun, String> {
        let w = self.wrapper(name, app, app["text"].as_str().unwrap_or(""))?;
        let dir = self.inp.work.join(run_dir);
        let _ = fs::remove_dir_all(&dir);
        io(&dir, fs::create_dir_all(&dir))?;
        let mut cmd = Command::new(&w);
        let mark = self.caller(&mut cmd)?;
        let out = cmd
            .args(args)
            .current_dir(&dir)
            .output()
            .map_err(|e| format!("{}: {e}", w.display()))?;
        let called = fs::read_to_string(&mark).unwrap_or_default();
        Ok(AppRun { out, called, dir })
    }
}

/// An app's run from a caller with decoys: its output, the decoys it called, and
/// the directory it ran in.
pub(super) struct AppRun {
    pub(super) out: std::process::Output,
    pub(super) called: String,
    pub(super) dir: PathBuf,
}

pub(super) struct Build {
    pub(super) ok: bool,
    pub(super) text: String,
    pub(super) out: PathBuf,
    pub(super) strays: Vec<String>,
}

pub(super) fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .map(|a| {
            a.iter()
                .filter_map(|x| x.as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default()
}

pub(super) fn tail(text: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    lines[lines.len().saturating_sub(15)..].join("\n")
}

pub(super) fn version(bin: &Path) -> String {
    Command::new(bin)
        .arg("--version")
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned())
        .unwrap_or_default()
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
