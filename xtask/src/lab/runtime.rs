//! The runtimes the lab measures on, and how a program runs on each: natively,
//! as wasm32-wasip1 under wasmtime (with and without wide arithmetic), and under
//! each Node's node:wasi through the project's shim (`scripts/node-wasi.mjs`), and
//! in JavaScriptCore's `jsc` shell through the engine-neutral one
//! (`scripts/jsc-wasi.mjs`). Criterion's results directory is mapped into the
//! module, so every runtime saves its baselines in the same place.

use std::path::{Path, PathBuf};
use std::process::Command;

use super::tools::stdout_of;

/// One runtime.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Runtime {
    /// This machine.
    Native,
    /// wasmtime.
    Wasmtime,
    /// wasmtime with `-W wide-arithmetic=y` (the wide-arithmetic module).
    WasmtimeWide,
    /// Node's node:wasi: its name (`node24`) and binary.
    Node(String, PathBuf),
    /// JavaScriptCore's `jsc` shell (WebKit's engine), through
    /// `scripts/jsc-runner.sh` and `scripts/jsc-wasi.mjs`.
    Jsc(PathBuf),
}

impl Runtime {
    /// Its name: the baseline's and the table's column.
    pub fn name(&self) -> &str {
        match self {
            Runtime::Native => "native",
            Runtime::Wasmtime => "wasmtime",
            Runtime::WasmtimeWide => "wasmtime-wide",
            Runtime::Node(n, _) => n,
            Runtime::Jsc(_) => "jsc",
        }
    }

    /// Whether it runs Wasm modules.
    pub fn is_wasm(&self) -> bool {
        *self != Runtime::Native
    }

    /// Whether it runs the fma module (relaxed SIMD; `make bench`'s and `make ab`'s
    /// rows `fma`): wasmtime, Node and jsc, not the wide-arithmetic wasmtime. (jsc
    /// is tried, but JavaScriptCore 2.50 rejects the module's `f64x2.relaxed_min`,
    /// so its fma rows are left out with a warning.)
    pub fn runs_fma(&self) -> bool {
        matches!(
            self,
            Runtime::Wasmtime | Runtime::Node(..) | Runtime::Jsc(_)
        )
    }

    /// The command that runs `program` here, criterion's results in `results`;
    /// `shim` is `scripts/node-wasi.mjs` (jsc's runner is beside it).
    pub fn command(&self, program: &Path, results: &Path, shim: &Path) -> Command {
        // wasmtime refuses to map a folder that does not exist.
        let _ = std::fs::create_dir_all(results);
        match self {
            Runtime::Native => {
                let mut c = Command::new(program);
                c.env("CRITERION_HOME", results);
                c
            }
            Runtime::Wasmtime | Runtime::WasmtimeWide => {
                let mut c = Command::new("wasmtime");
                c.arg("run");
                if *self == Runtime::WasmtimeWide {
                    c.args(["-W", "wide-arithmetic=y"]);
                }
                // wasmtime 48: arguments after the module go to the program.
                c.arg("--dir=.")
                    .arg(format!("--dir={}::/criterion", results.display()))
                    .args(["--env", "CRITERION_HOME=/criterion"])
                    .arg(program);
                c
            }
            Runtime::Node(_, node) => {
                let mut c = Command::new(node);
                c.arg("--no-warnings")
                    .arg(shim)
                    .arg(program)
                    .env("CRITERION_HOME", results);
                c
            }
            Runtime::Jsc(jsc) => {
                let mut c = Command::new(shim.with_file_name("jsc-runner.sh"));
                // Relaxed SIMD is off by default in JavaScriptCore 2.50; on, the fma
                // module validates (the other modules use none of it). jsc reads
                // JSC_<option> from the environment.
                c.env("JSC", jsc)
                    .env(JSC_OPTION.0, JSC_OPTION.1)
                    .args(["--dir", "."])
                    .arg("--dir")
                    .arg(format!("{}::/criterion", results.display()))
                    .args(["--env", "CRITERION_HOME=/criterion"])
                    .arg(program);
                c
            }
        }
    }

    /// After a run: the files a program wrote under `results` in `jsc`, which
    /// cannot make folders, arrive as archives that this writes out.
    pub fn after_run(&self, results: &Path) -> Result<(), String> {
        if matches!(self, Runtime::Jsc(_)) {
            unpack_writes(results)?;
        }
        Ok(())
    }

    /// What it is, with its version, for the report.
    // The Node branch's argument is a JavaScript template literal.
    pub fn describe(&self) -> String {
        let wasmtime = || {
            stdout_of(Command::new("wasmtime").arg("--version"))
                .unwrap_or_else(|| "wasmtime unknown".into())
        };
        match self {
            Runtime::Native => "native".into(),
            Runtime::Wasmtime => wasmtime(),
            Runtime::WasmtimeWide => format!("{}, wide arithmetic", wasmtime()),
            Runtime::Node(n, bin) => stdout_of(Command::new(bin).args([
                "-p",
                "`node ${process.version} (V8 ${process.versions.v8}, node:wasi)`",
            ]))
            .unwrap_or_else(|| n.clone()),
            Runtime::Jsc(_) => jsc_version().map_or_else(
                || "jsc (JavaScriptCore, relaxed SIMD on, jsc-wasi.mjs)".into(),
                |v| format!("jsc (JavaScriptCore of WebKitGTK {v}, relaxed SIMD on, jsc-wasi.mjs)"),
            ),
        }
    }
}

/// The lab's option of `jsc`, as an environment variable: relaxed SIMD on, for
/// the fma rows.
pub const JSC_OPTION: (&str, &str) = ("JSC_useWasmRelaxedSIMD", "true");

/// `jsc` on PATH (Debian's libjavascriptcoregtk-4.0-bin).
pub fn jsc() -> Option<PathBuf> {
    super::tools::which("jsc")
}

/// The WebKitGTK version of Debian's `jsc` (the shell has no --version).
pub fn jsc_version() -> Option<String> {
    stdout_of(Command::new("dpkg-query").args([
        "-W",
        "-f",
        "${Version}",
        "libjavascriptcoregtk-4.0-bin",
    ]))
    .filter(|v| !v.is_empty())
}

/// Writes out the archives `scripts/jsc-wasi.mjs` left in `dir`
/// (`.wasi-writes-*.json`: `{ dirs: [...], files: [{ path, hex }] }`, paths
/// relative to `dir`), then removes them.
pub fn unpack_writes(dir: &Path) -> Result<(), String> {
    let err = |p: &Path, e: &dyn std::fmt::Display| format!("{}: {e}", p.display());
    let entries = std::fs::read_dir(dir).map_err(|e| err(dir, &e))?;
    for entry in entries {
        let path = entry.map_err(|e| err(dir, &e))?.path();
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if !(name.starts_with(".wasi-writes-") && name.ends_with(".json")) {
            continue;
        }
        let text = std::fs::read_to_string(&path).map_err(|e| err(&path, &e))?;
        let v: serde_json::Value = serde_json::from_str(&text).map_err(|e| err(&path, &e))?;
        let inside = |rel: &str| -> Result<PathBuf, String> {
            let rel = Path::new(rel);
            if rel.is_absolute()
                || rel
                    .components()
                    .any(|c| !matches!(c, std::path::Component::Normal(_)))
            {
                return Err(format!(
                    "{}: path {} leaves the folder",
                    path.display(),
                    rel.display()
                ));
            }
            Ok(dir.join(rel))
        };
        for d in v["dirs"].as_array().into_iter().flatten() {
            let d = inside(d.as_str().unwrap_or(""))?;
            std::fs::create_dir_all(&d).map_err(|e| err(&d, &e))?;
        }
        for f in v["files"].as_array().into_iter().flatten() {
            let to = inside(f["path"].as_str().unwrap_or(""))?;
            let bytes = from_hex(f["hex"].as_str().unwrap_or(""))
                .ok_or_else(|| format!("{}: bad hex for {}", path.display(), to.display()))?;
            if let Some(parent) = to.parent() {
                std::fs::create_dir_all(parent).map_err(|e| err(parent, &e))?;
            }
            std::fs::write(&to, bytes).map_err(|e| err(&to, &e))?;
        }
        std::fs::remove_file(&path).map_err(|e| err(&path, &e))?;
    }
    Ok(())
}

fn from_hex(s: &str) -> Option<Vec<u8>> {
    if !s.len().is_multiple_of(2) {
        return None;
    }
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(s.get(i..i + 2)?, 16).ok())
        .collect()
}

/// `runner…` for cargo-built test executables under Node (`cargo xtask
/// run-tests`): `node --no-warnings SHIM`.
pub fn node_runner(node: &str, shim: &Path) -> Vec<String> {
    vec![
        node.to_owned(),
        "--no-warnings".into(),
        shim.to_string_lossy().into_owned(),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("xtask-unpack-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn the_shims_archive_becomes_folders_and_files_and_is_removed() {
        let dir = scratch("ok");
        std::fs::write(
            dir.join(".wasi-writes-1-2.json"),
            r#"{"dirs":["a","a/jsc"],"files":[{"path":"a/jsc/estimates.json","hex":"7b7d0aff"},{"path":"b/c.txt","hex":""}]}"#,
        )
        .unwrap();
        std::fs::write(dir.join("other.json"), "kept").unwrap();
        unpack_writes(&dir).unwrap();
        assert_eq!(
            std::fs::read(dir.join("a/jsc/estimates.json")).unwrap(),
            b"{}\n\xff"
        );
        assert_eq!(std::fs::read(dir.join("b/c.txt")).unwrap(), b"");
        assert!(!dir.join(".wasi-writes-1-2.json").exists());
        assert_eq!(
            std::fs::read_to_string(dir.join("other.json")).unwrap(),
            "kept"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn an_archive_that_leaves_its_folder_or_has_bad_hex_is_refused() {
        for (name, archive) in [
            ("up", r#"{"dirs":[],"files":[{"path":"../x","hex":"00"}]}"#),
            ("abs", r#"{"dirs":["/tmp/x"],"files":[]}"#),
            ("hex", r#"{"dirs":[],"files":[{"path":"x","hex":"0g"}]}"#),
            ("odd", r#"{"dirs":[],"files":[{"path":"x","hex":"000"}]}"#),
        ] {
            let dir = scratch(name);
            std::fs::write(dir.join(".wasi-writes-1.json"), archive).unwrap();
            assert!(unpack_writes(&dir).is_err(), "{name}: {archive}");
            let _ = std::fs::remove_dir_all(&dir);
        }
    }
}
