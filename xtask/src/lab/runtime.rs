//! The runtimes the lab measures on, and how a program runs on each: natively,
//! as wasm32-wasip1 under wasmtime (with and without wide arithmetic), and under
//! each Node's node:wasi through the project's shim (`scripts/node-wasi.mjs`).
//! Criterion's results directory is mapped into the module, so every runtime
//! saves its baselines in the same place.

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
}

impl Runtime {
    /// Its name: the baseline's and the table's column.
    pub fn name(&self) -> &str {
        match self {
            Runtime::Native => "native",
            Runtime::Wasmtime => "wasmtime",
            Runtime::WasmtimeWide => "wasmtime-wide",
            Runtime::Node(n, _) => n,
        }
    }

    /// Whether it runs Wasm modules.
    pub fn is_wasm(&self) -> bool {
        *self != Runtime::Native
    }

    /// The command that runs `program` here, criterion's results in `results`;
    /// `shim` is `scripts/node-wasi.mjs`.
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
        }
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
        }
    }
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
