//! `bench-report`: the side-by-side table of criterion baselines, one per runtime.
//!
//! ```text
//! bench-report [--criterion DIR] [--out DIR] [--since UNIX_SECONDS]
//!              [--env KEY=VALUE]... RUNTIME [RUNTIME...]
//! ```
//! The first runtime is the base of the ratios. Prints the table and writes
//! `report.json` and `report.md` to `--out` (default `target/bench-report`).

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, SystemTime};

use poseidon_benches::{collect, report_json, Table};

const USAGE: &str = "usage: bench-report [--criterion DIR] [--out DIR] [--since UNIX_SECONDS] [--env KEY=VALUE]... RUNTIME [RUNTIME...]";

struct Args {
    criterion: PathBuf,
    out: PathBuf,
    since: Option<SystemTime>,
    env: Vec<(String, String)>,
    runtimes: Vec<String>,
}

fn parse(mut it: impl Iterator<Item = String>) -> Result<Args, String> {
    let mut a = Args {
        criterion: PathBuf::from("target/criterion"),
        out: PathBuf::from("target/bench-report"),
        since: None,
        env: Vec::new(),
        runtimes: Vec::new(),
    };
    while let Some(arg) = it.next() {
        let mut value = || it.next().ok_or(format!("{arg} needs a value"));
        match arg.as_str() {
            "--criterion" => a.criterion = value()?.into(),
            "--out" => a.out = value()?.into(),
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
    if a.runtimes.is_empty() {
        return Err("name at least one runtime (baseline), e.g. native wasmtime".into());
    }
    Ok(a)
}

fn run(a: Args) -> Result<(), String> {
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
    std::fs::create_dir_all(&a.out).map_err(|e| format!("{}: {e}", a.out.display()))?;
    let json = report_json(&a.env, &results, &table);
    let write = |name: &str, text: String| {
        let p = a.out.join(name);
        std::fs::write(&p, text).map_err(|e| format!("{}: {e}", p.display()))
    };
    write(
        "report.json",
        serde_json::to_string_pretty(&json).expect("JSON values serialise") + "\n",
    )?;
    write("report.md", table.to_markdown())?;
    println!("\nwrote {}", a.out.join("report.json").display());
    Ok(())
}

fn main() -> ExitCode {
    match parse(std::env::args().skip(1)).and_then(run) {
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
