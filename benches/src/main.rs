//! `bench-report`: the side-by-side table of criterion baselines, one per runtime.
//!
//! ```text
//! bench-report [--criterion DIR] [--out DIR] [--since UNIX_SECONDS]
//!              [--upstream-own DIR] [--env KEY=VALUE]... [RUNTIME...]
//! ```
//! The first runtime is the base of the ratios; without runtimes, every baseline
//! found (native, wasmtime, node<N>…). Prints the table, the parity lines
//! (reference / upstream, when backend `upstream` ran) and, with `--upstream-own`
//! (the criterion home of upstream's own `poseidon_bench`), how the lab's upstream
//! row compares with it; writes `report.json` and `report.md` to `--out` (default
//! `target/bench-report`).
//!
//! ```text
//! bench-report upstream-lab CHECKOUT ROOT OUT
//! ```
//! writes the crates that build upstream from a proof-systems CHECKOUT (only read)
//! beside this repository's ROOT, under OUT (see `poseidon_benches::upstream`).
//!
//! ```text
//! bench-report nix-sandbox --root ROOT --work DIR --poseidon BIN --poseidon-wasm WASM
//!              --bench BIN --bench-wasm WASM --cargo-log JSON --node22 NODE --node24 NODE
//!              [--bench-args ARGS]
//! ```
//! runs the flake's shell steps under the Nix sandbox's rules and the apps from a
//! caller with decoy tools, without nixpkgs (see `poseidon_benches::sandbox`).
//!
//! ```text
//! bench-report wasm-ops MODULE [--function SUBSTRING]... [--expect 'SUBSTRING: OP=N']...
//! ```
//! prints (or checks) the Wasm operators per function (see `poseidon_benches::wasm_ops`).

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, SystemTime};

use poseidon_benches::{
    collect, discover_runtimes, format_ns, parity, parity_text, report_json, upstream_own,
    wall_clock, Table,
};
use serde_json::{json, Value};

const USAGE: &str = "usage: bench-report [--criterion DIR] [--out DIR] [--since UNIX_SECONDS] [--upstream-own DIR] [--env KEY=VALUE]... [RUNTIME...]";

struct Args {
    criterion: PathBuf,
    out: PathBuf,
    since: Option<SystemTime>,
    upstream_own: Option<PathBuf>,
    env: Vec<(String, String)>,
    runtimes: Vec<String>,
}

fn parse(mut it: impl Iterator<Item = String>) -> Result<Args, String> {
    let mut a = Args {
        criterion: PathBuf::from("target/criterion"),
        out: PathBuf::from("target/bench-report"),
        since: None,
        upstream_own: None,
        env: Vec::new(),
        runtimes: Vec::new(),
    };
    while let Some(arg) = it.next() {
        let mut value = || it.next().ok_or(format!("{arg} needs a value"));
        match arg.as_str() {
            "--criterion" => a.criterion = value()?.into(),
            "--out" => a.out = value()?.into(),
            "--upstream-own" => a.upstream_own = Some(value()?.into()),
            "--since" => {
                let v = value()?;
                let secs: u64 = v
                    .parse()
                    .map_err(|_| format!("--since: not a number: {v}"))?;
                a.since = Some(SystemTime::UNIX_EPOCH + Duration::from_secs(secs));
            }
            "--env" => {
                let v = value()?;
                let (k, val) = v
                    .split_once('=')
                    .ok_or(format!("--env wants KEY=VALUE, got {v}"))?;
                a.env.push((k.to_owned(), val.to_owned()));
            }
            "-h" | "--help" => return Err(String::new()),
            s if s.starts_with('-') => return Err(format!("unknown option {s}")),
            _ => a.runtimes.push(arg),
        }
    }
    Ok(a)
}

fn run(mut a: Args) -> Result<(), String> {
    if a.runtimes.is_empty() {
        a.runtimes = discover_runtimes(&a.criterion)?;
        if a.runtimes.is_empty() {
            return Err(format!(
                "no saved baselines under {} (run make bench first)",
                a.criterion.display()
            ));
        }
    }
    let results = collect(&a.criterion, &a.runtimes, a.since)?;
    if results.is_empty() {
        return Err(format!(
            "no criterion baselines named {} under {} (run the benchmarks with --save-baseline first)",
            a.runtimes.join(" or "),
            a.criterion.display()
        ));
    }
    let table = Table::new(&results, &a.runtimes);
    print!("{}", table.to_text());
    let mut json = report_json(&a.env, &results, &table);
    let mut notes = String::new();
    let par = parity(&table, "reference", "upstream");
    if !par.is_empty() {
        notes += &parity_text(&par, "reference", "upstream");
        json["parity"] = par
            .iter()
            .map(|p| json!({"workload": p.workload, "runtime": p.runtime, "of": "reference", "to": "upstream", "ratio": p.ratio}))
            .collect::<Vec<Value>>()
            .into();
    }
    let clocks = wall_clock(&a.criterion, &table)?;
    for w in &clocks {
        notes += &format!(
            "wall clock, {}: {} {} by the binary's own clock, {} by criterion ({:.2}×){}\n",
            w.runtime,
            w.id,
            format_ns(w.wall_ns),
            format_ns(w.criterion_ns),
            w.ratio(),
            if w.agrees() {
                ""
            } else {
                ": DISAGREE, do not trust this runtime's numbers"
            }
        );
    }
    if !clocks.is_empty() {
        json["wall_clock"] = clocks
            .iter()
            .map(|w| json!({"runtime": w.runtime, "benchmark": w.id, "wall_ns": w.wall_ns, "criterion_ns": w.criterion_ns, "agrees": w.agrees()}))
            .collect::<Vec<Value>>()
            .into();
    }
    if let Some(dir) = &a.upstream_own {
        let own = collect(dir, &a.runtimes, a.since)?;
        let rows = upstream_own(&own, &table);
        if rows.is_empty() {
            notes += "upstream's own poseidon_bench: not measured in this run\n";
        }
        for (rt, own_ns, lab_ns) in &rows {
            notes += &format!(
                "upstream's own poseidon_bench, {rt}: {} against the lab's upstream row {} ({:.2}×)\n",
                format_ns(*own_ns),
                format_ns(*lab_ns),
                lab_ns / own_ns
            );
        }
        json["upstream_own"] = rows
            .iter()
            .map(|(rt, o, l)| json!({"runtime": rt, "own_median_ns": o, "lab_median_ns": l, "lab_over_own": l / o}))
            .collect::<Vec<Value>>()
            .into();
    }
    if !notes.is_empty() {
        print!("\n{notes}");
    }
    std::fs::create_dir_all(&a.out).map_err(|e| format!("{}: {e}", a.out.display()))?;
    let write = |name: &str, text: String| {
        let p = a.out.join(name);
        std::fs::write(&p, text).map_err(|e| format!("{}: {e}", p.display()))
    };
    write(
        "report.json",
        serde_json::to_string_pretty(&json).expect("JSON values serialise") + "\n",
    )?;
    let md = if notes.is_empty() {
        table.to_markdown()
    } else {
        format!("{}\n{}", table.to_markdown(), notes.replace('\n', "  \n"))
    };
    write("report.md", md)?;
    println!("\nwrote {}", a.out.join("report.json").display());
    Ok(())
}

fn upstream_lab(args: &[String]) -> Result<(), String> {
    let [ps, root, out] = args else {
        return Err("usage: bench-report upstream-lab CHECKOUT ROOT OUT".into());
    };
    poseidon_benches::upstream::write_lab(ps.as_ref(), root.as_ref(), out.as_ref())
}

const SANDBOX_USAGE: &str = "usage: bench-report nix-sandbox --root ROOT --work DIR --poseidon BIN --poseidon-wasm WASM --bench BIN --bench-wasm WASM --cargo-log JSON --node22 NODE --node24 NODE [--bench-args ARGS]";

#[cfg(unix)]
fn nix_sandbox(args: &[String]) -> Result<bool, String> {
    let mut opts = std::collections::BTreeMap::new();
    let mut it = args.iter();
    while let Some(k) = it.next() {
        let key = k
            .strip_prefix("--")
            .ok_or_else(|| format!("unexpected argument {k}"))?;
        let v = it.next().ok_or_else(|| format!("{k} needs a value"))?;
        opts.insert(key.to_owned(), v.clone());
    }
    let mut take = |k: &str| {
        opts.remove(k)
            .map(PathBuf::from)
            .ok_or_else(|| format!("--{k} is required"))
    };
    let inputs = poseidon_benches::sandbox::Inputs {
        root: take("root")?,
        work: take("work")?,
        poseidon: take("poseidon")?,
        poseidon_wasm: take("poseidon-wasm")?,
        bench: take("bench")?,
        bench_wasm: take("bench-wasm")?,
        cargo_log: take("cargo-log")?,
        node22: take("node22")?,
        node24: take("node24")?,
        bench_args: opts
            .remove("bench-args")
            .unwrap_or_else(|| "--quick --noplot Poseidon/permutation/u29$".into()),
    };
    if let Some(k) = opts.keys().next() {
        return Err(format!("unknown option --{k}"));
    }
    poseidon_benches::sandbox::run(inputs)
}

#[cfg(not(unix))]
fn nix_sandbox(_: &[String]) -> Result<bool, String> {
    Err("nix-sandbox runs the Nix sandbox's rules with Unix tools; it needs a Unix host".into())
}

const WASM_OPS_USAGE: &str = "usage: bench-report wasm-ops MODULE [--function SUBSTRING]... [--expect 'SUBSTRING: OP=N' | 'SUBSTRING: OP>N']...";

/// `wasm-ops`: the table, or the expectations' verdict (Ok(false): one failed).
fn wasm_ops(args: &[String]) -> Result<bool, String> {
    use poseidon_benches::wasm_ops::{function_ops, table, Expectation};
    let (mut module, mut functions, mut expect) = (None, Vec::new(), Vec::new());
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let mut value = || it.next().ok_or(format!("{arg} needs a value"));
        match arg.as_str() {
            "--function" => functions.push(value()?.clone()),
            "--expect" => expect.push(Expectation::parse(value()?)?),
            "-h" | "--help" => return Err(String::new()),
            s if s.starts_with('-') => return Err(format!("unknown option {s}")),
            _ if module.is_none() => module = Some(arg.clone()),
            _ => return Err(format!("one module only, got a second: {arg}")),
        }
    }
    let module = module.ok_or("no MODULE given")?;
    let bytes = std::fs::read(&module).map_err(|e| format!("{module}: {e}"))?;
    let all = function_ops(&bytes).map_err(|e| format!("{module}: {e}"))?;
    if expect.is_empty() {
        let shown: Vec<_> = all
            .iter()
            .filter(|f| functions.is_empty() || functions.iter().any(|s| f.name.contains(s)))
            .collect();
        print!("{}", table(&shown));
        return Ok(true);
    }
    let (mut passed, mut failed) = (0, 0);
    for e in &expect {
        let failures = e.check(&all);
        let n = all.iter().filter(|f| e.matches(f)).count();
        if failures.is_empty() {
            passed += 1;
            println!("ok: {} ({n} functions): {}", e.function, e.condition());
        } else {
            failed += 1;
        }
        for f in failures {
            println!("FAILED: {f}");
        }
    }
    println!("{module}:\n{passed} passed, {failed} failed");
    Ok(failed == 0)
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().is_some_and(|a| a == "wasm-ops") {
        return match wasm_ops(&args[1..]) {
            Ok(true) => ExitCode::SUCCESS,
            Ok(false) => ExitCode::FAILURE,
            Err(msg) if msg.is_empty() => {
                println!("{WASM_OPS_USAGE}");
                ExitCode::SUCCESS
            }
            Err(msg) => {
                eprintln!("bench-report: {msg}\n{WASM_OPS_USAGE}");
                ExitCode::from(2)
            }
        };
    }
    if args.first().is_some_and(|a| a == "nix-sandbox") {
        return match nix_sandbox(&args[1..]) {
            Ok(true) => ExitCode::SUCCESS,
            Ok(false) => ExitCode::FAILURE,
            Err(msg) => {
                eprintln!("bench-report: {msg}\n{SANDBOX_USAGE}");
                ExitCode::from(2)
            }
        };
    }
    if args.first().is_some_and(|a| a == "upstream-lab") {
        return match upstream_lab(&args[1..]) {
            Ok(()) => ExitCode::SUCCESS,
            Err(msg) => {
                eprintln!("bench-report: {msg}");
                ExitCode::from(2)
            }
        };
    }
    match parse(args.into_iter()).and_then(run) {
        Ok(()) => ExitCode::SUCCESS,
        Err(msg) if msg.is_empty() => {
            println!("{USAGE}");
            ExitCode::SUCCESS
        }
        Err(msg) => {
            eprintln!("bench-report: {msg}\n{USAGE}");
            ExitCode::from(2)
        }
    }
}
