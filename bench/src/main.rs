//! `bench-report`: the side-by-side table of criterion baselines, one per runtime.
//!
//! ```text
//! bench-report [--criterion DIR] [--out DIR] [--since UNIX_SECONDS]
//!              [--upstream-own DIR] [--counts FILE [--root DIR]] [--env KEY=VALUE]... [RUNTIME...]
//! ```
//! The first runtime is the base of the ratios; without runtimes, every baseline
//! found (native, wasmtime, `node<N>`…). Prints the table, the parity lines
//! (reference / upstream, when backend `upstream` ran) and, with `--upstream-own`
//! (the criterion home of upstream's own `poseidon_bench`), how the lab's upstream
//! row compares with it; writes `report.json` and `report.md` to `--out` (default
//! `target/bench-report`), and `report.svg`, the chart of the permutation's rows
//! (and of `js-report.json` when the directory has one). With `--counts` (`cargo xtask counts`' `counts.json`), the counts
//! beside the times and their `counts` section in `report.json`; with `--root`,
//! only when they count this checkout's sources.
//!
//! ```text
//! bench-report chart [DIR]
//! ```
//! draws `DIR/report.svg` (default `target/bench-report`) again from `report.json`
//! and, when there, `js-report.json` (`make bench` does, after the JavaScript runs).
//!
//! ```text
//! bench-report merge [--out DIR] [LABEL=]REPORT.json...
//! ```
//! the reports of several machines in one comparison (see
//! `poseidon_benches::merge`): `merged.md` and `merged.json` in `--out` (default
//! `target/bench-report/merged`), the Markdown also printed; a label names each
//! machine (default: the report's directory). Exit 1 when two machines count
//! differently under the same key.
//!
//! ```text
//! bench-report ab --criterion DIR [--out DIR] [--counts-base F --counts-head F] [--fdr Q] [--margin PCT] [--trim PCT] [--env K=V]...
//! bench-report bmf REPORT.json [--out FILE]
//! ```
//! HEAD against BASE from the interleaved rounds of `cargo xtask ab` (see
//! `poseidon_benches::ab`), and a report in the Bencher Metric Format
//! (`poseidon_benches::bmf`).
//!
//! ```text
//! bench-report compare A.json B.json
//! ```
//! compares two reports (or counts files): times as ratios; counts under the same
//! key must be equal (a difference is an error, exit 1).

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, SystemTime};

use poseidon_benches::per_mul::per_multiplication;
use poseidon_benches::{
    collect, discover_runtimes, format_ns, parity, parity_text, report_json, upstream_own,
    wall_clock, Table,
};
use serde_json::{json, Value};

const USAGE: &str = "usage: bench-report [--criterion DIR] [--out DIR] [--since UNIX_SECONDS] [--upstream-own DIR] [--counts FILE [--root DIR]] [--env KEY=VALUE]... [RUNTIME...]
       bench-report chart [DIR]
       bench-report compare A.json B.json
       bench-report merge [--out DIR] [LABEL=]REPORT.json...
       bench-report ab --criterion DIR [--out DIR] [--counts-base F --counts-head F]
       bench-report bmf REPORT.json [--out FILE]
The side-by-side table of the saved criterion baselines (the first form; it writes
report.json, report.md and report.svg), the chart drawn again, two reports compared,
several machines' reports merged, the report of an A/B of two builds (cargo xtask ab),
or a report in the Bencher Metric Format (`bench-report SUBCOMMAND --help` for each).
It only reads results and writes reports: cargo xtask runs the benchmarks and counts.";

struct Args {
    criterion: PathBuf,
    out: PathBuf,
    since: Option<SystemTime>,
    upstream_own: Option<PathBuf>,
    counts: Option<PathBuf>,
    root: Option<PathBuf>,
    env: Vec<(String, String)>,
    runtimes: Vec<String>,
}

fn parse(mut it: impl Iterator<Item = String>) -> Result<Args, String> {
    let mut a = Args {
        criterion: PathBuf::from("target/criterion"),
        out: PathBuf::from("target/bench-report"),
        since: None,
        upstream_own: None,
        counts: None,
        root: None,
        env: Vec::new(),
        runtimes: Vec::new(),
    };
    while let Some(arg) = it.next() {
        let mut value = || it.next().ok_or(format!("{arg} needs a value"));
        match arg.as_str() {
            "--criterion" => a.criterion = value()?.into(),
            "--out" => a.out = value()?.into(),
            "--upstream-own" => a.upstream_own = Some(value()?.into()),
            "--counts" => a.counts = Some(value()?.into()),
            "--root" => a.root = Some(value()?.into()),
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
    let per_mul = per_multiplication(&table);
    if !per_mul.is_empty() {
        print!(
            "\n{}",
            poseidon_benches::per_mul::text(&per_mul, &table.runtimes)
        );
        json["per_multiplication"] = poseidon_benches::per_mul::to_json(&per_mul);
    }
    if let Some(path) = &a.counts {
        match counts_beside(path, a.root.as_deref(), &table)? {
            Ok((text, section)) => {
                if !text.is_empty() {
                    print!("\ncounts beside the times ({}; ps = median time / count; counts are exact, times are not)\n{text}", path.display());
                }
                json["counts"] = section;
            }
            Err(why) => notes += &format!("counts: {why}\n"),
        }
    }
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
        if rows.is_empty() && own.is_empty() {
            notes += "upstream's own poseidon_bench: not measured in this run\n";
        } else if rows.is_empty() {
            notes += "upstream's own poseidon_bench: measured, but not compared: this run has no Poseidon/poseidon_hash_kimchi/upstream row\n";
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
    let mut md = table.to_markdown();
    if !per_mul.is_empty() {
        md += &format!(
            "\n{}",
            poseidon_benches::per_mul::markdown(&per_mul, &table.runtimes)
        );
    }
    if !notes.is_empty() {
        md += &format!("\n{}", notes.replace('\n', "  \n"));
    }
    write("report.md", md)?;
    println!("\nwrote {}", a.out.join("report.json").display());
    match write_chart(&a.out) {
        Ok(p) => println!("wrote {}", p.display()),
        Err(why) => println!("no chart: {why}"),
    }
    Ok(())
}

/// Draws `DIR/report.svg` from `DIR/report.json` and, when there, `DIR/js-report.json`.
#[cfg(all(feature = "chart", not(target_arch = "wasm32")))]
fn write_chart(dir: &Path) -> Result<PathBuf, String> {
    use poseidon_benches::chart;
    let report = dir.join("report.json");
    if !report.is_file() {
        return Err(format!(
            "no report.json in {} (run make bench first)",
            dir.display()
        ));
    }
    let report = read_json(&report)?;
    let js = dir.join("js-report.json");
    let js = if js.is_file() {
        Some(read_json(&js)?)
    } else {
        None
    };
    let svg = chart::svg(&chart::panels(&report, js.as_ref()))?;
    let out = dir.join("report.svg");
    std::fs::write(&out, svg).map_err(|e| format!("{}: {e}", out.display()))?;
    Ok(out)
}

#[cfg(not(all(feature = "chart", not(target_arch = "wasm32"))))]
fn write_chart(_: &Path) -> Result<PathBuf, String> {
    Err("bench-report draws charts natively, with its feature chart (on by default)".into())
}

const CHART_USAGE: &str = "usage: bench-report chart [DIR]   (DIR/report.svg from DIR/report.json and, when there, DIR/js-report.json; DIR defaults to target/bench-report)";

fn chart(args: &[String]) -> Result<bool, String> {
    let dir = match args {
        [] => PathBuf::from("target/bench-report"),
        [a] if a == "-h" || a == "--help" => return Err(String::new()),
        [a] if !a.starts_with('-') => PathBuf::from(a),
        _ => return Err(format!("unexpected arguments: {}", args.join(" "))),
    };
    let out = write_chart(&dir)?;
    println!("wrote {}", out.display());
    Ok(true)
}

/// A JSON file, its path in the error.
fn read_json(path: &Path) -> Result<Value, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))
}

/// The counts file beside the table: Ok(Err(why)) when it is not shown.
fn counts_beside(
    path: &std::path::Path,
    root: Option<&std::path::Path>,
    table: &Table,
) -> Result<Result<(String, Value), String>, String> {
    use poseidon_benches::counts::{
        beside_times, file_sha256, report_section, rows_of, source_sha256,
    };
    let counts = read_json(path)?;
    if let Some(root) = root {
        let now = [
            ("source_sha256", source_sha256(root)?),
            ("cargo_lock_sha256", file_sha256(&root.join("Cargo.lock"))?),
        ];
        for (k, v) in now {
            if counts["key"][k].as_str() != Some(v.as_str()) {
                return Ok(Err(format!(
                    "{} counts other sources ({k} differs from this checkout): not shown; make counts counts these",
                    path.display()
                )));
            }
        }
    }
    let rows = rows_of(&counts).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(Ok((
        beside_times(&rows, table),
        report_section(&counts, &rows, table),
    )))
}

const COMPARE_USAGE: &str =
    "usage: bench-report compare A.json B.json (two report.json or counts.json files)";

/// `compare`: times as ratios, counts as equal or not (Ok(false): counts differ
/// under the same key).
fn compare(args: &[String]) -> Result<bool, String> {
    use poseidon_benches::counts::compare_counts;
    let [a, b] = args else {
        return Err(if args.iter().any(|a| a == "-h" || a == "--help") {
            String::new()
        } else {
            "two files wanted".into()
        });
    };
    let (ja, jb) = (read_json(Path::new(a))?, read_json(Path::new(b))?);
    println!("A = {a}\nB = {b}");
    // Times: each (benchmark, runtime) in both, and the in-run ratios to the base.
    let medians = poseidon_benches::report_medians;

    let ratios = |j: &Value| -> std::collections::BTreeMap<(String, String), (String, f64)> {
        j["ratios"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|r| {
                Some((
                    (
                        r["id"].as_str()?.to_owned(),
                        r["runtime"].as_str()?.to_owned(),
                    ),
                    (r["relative_to"].as_str()?.to_owned(), r["ratio"].as_f64()?),
                ))
            })
            .collect()
    };
    let (ma, mb, ra, rb) = (medians(&ja), medians(&jb), ratios(&ja), ratios(&jb));
    let mut rows = Vec::new();
    for ((id, rt), ta) in &ma {
        let Some(tb) = mb.get(&(id.clone(), rt.clone())) else {
            continue;
        };
        let key = (id.clone(), rt.clone());
        let in_run = match (ra.get(&key), rb.get(&key)) {
            (Some((ba, x)), Some((bb, y))) if ba == bb => format!("{x:.2}× / {y:.2}× of {ba}"),
            _ => "—".into(),
        };
        rows.push(vec![
            id.clone(),
            rt.clone(),
            format_ns(*ta),
            format_ns(*tb),
            format!("{:.2}×", tb / ta),
            in_run,
        ]);
    }
    if rows.is_empty() {
        println!("times: no benchmark measured on the same runtime in both");
    } else {
        let header: Vec<String> = [
            "benchmark",
            "runtime",
            "A (median)",
            "B (median)",
            "B/A",
            "in-run ratio A / B",
        ]
        .map(String::from)
        .to_vec();
        print!("\ntimes (ratios only: times of two runs or machines are not comparable one by one)\n{}", poseidon_benches::align(&header, &rows));
    }
    let counts_of = |j: &Value| -> Option<Value> {
        match &j["counts"] {
            Value::Object(_) => Some(j["counts"].clone()),
            Value::Array(_) if j.get("key").is_some() => Some(j.clone()),
            _ => None,
        }
    };
    let (Some(ca), Some(cb)) = (counts_of(&ja), counts_of(&jb)) else {
        println!("\ncounts: not in both (make counts, then make bench, puts them in report.json)");
        return Ok(true);
    };
    let c = compare_counts(&ca, &cb)?;
    println!();
    if c.key_differences.is_empty() {
        println!("counts: the same key, so every count must be equal");
    } else {
        println!("counts: the keys differ, so the counts may too:");
        for d in &c.key_differences {
            println!("  key {d}");
        }
    }
    for d in &c.differences {
        println!("{} {d}", if c.is_error() { "ERROR:" } else { "  differs:" });
    }
    println!(
        "counts: {} equal, {} differ{}",
        c.equal,
        c.differences.len(),
        if c.is_error() {
            " under the same key (not reproducible: an error)"
        } else {
            ""
        }
    );
    Ok(!c.is_error())
}

const MERGE_USAGE: &str = "usage: bench-report merge [--out DIR] [LABEL=]REPORT.json...
Several machines' report.json in one comparison: merged.md (also printed) and
merged.json in DIR (default target/bench-report/merged). LABEL names the machine
(default: the report's directory). Exit 1 when two machines' counts differ under
the same key.";

/// `merge`: Ok(false) when counts disagree under the same key.
fn merge(args: &[String]) -> Result<bool, String> {
    let mut out = PathBuf::from("target/bench-report/merged");
    let mut reports = Vec::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "-h" | "--help" => return Err(String::new()),
            "--out" => out = it.next().ok_or("--out needs a directory")?.into(),
            s if s.starts_with('-') => return Err(format!("unknown option {s}")),
            s => {
                let (label, file) = match s.split_once('=') {
                    Some((l, f)) if !l.is_empty() && !l.contains('/') => (l.to_owned(), f),
                    _ => {
                        let p = Path::new(s);
                        let dir = p.parent().and_then(Path::file_name);
                        let label =
                            dir.map_or_else(|| s.to_owned(), |d| d.to_string_lossy().into_owned());
                        (label, s)
                    }
                };
                reports.push((label, read_json(Path::new(file))?));
            }
        }
    }
    if reports.is_empty() {
        return Err("no report given".into());
    }
    let merged = poseidon_benches::merge::merge(&reports)?;
    std::fs::create_dir_all(&out).map_err(|e| format!("{}: {e}", out.display()))?;
    let md = out.join("merged.md");
    std::fs::write(&md, &merged.markdown).map_err(|e| format!("{}: {e}", md.display()))?;
    let js = out.join("merged.json");
    let text = serde_json::to_string_pretty(&merged.json).expect("JSON values serialise");
    std::fs::write(&js, text + "\n").map_err(|e| format!("{}: {e}", js.display()))?;
    print!("{}", merged.markdown);
    println!("\nwrote {} and {}", md.display(), js.display());
    Ok(merged.disagreements.is_empty())
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    // Subcommands: Ok(false) is a failed check (exit 1), an empty error asks for the usage.
    type Command = fn(&[String]) -> Result<bool, String>;
    let commands: [(&str, Command, &str); 5] = [
        (
            "ab",
            poseidon_benches::ab::cli::cli,
            poseidon_benches::ab::cli::USAGE,
        ),
        (
            "bmf",
            poseidon_benches::bmf::cli,
            poseidon_benches::bmf::USAGE,
        ),
        ("chart", chart, CHART_USAGE),
        ("compare", compare, COMPARE_USAGE),
        ("merge", merge, MERGE_USAGE),
    ];
    for (name, command, usage) in commands {
        if args.first().is_some_and(|a| a == name) {
            return match command(&args[1..]) {
                Ok(true) => ExitCode::SUCCESS,
                Ok(false) => ExitCode::FAILURE,
                Err(msg) if msg.is_empty() => {
                    println!("{usage}");
                    ExitCode::SUCCESS
                }
                Err(msg) => {
                    eprintln!("bench-report: {msg}\n{usage}");
                    ExitCode::from(2)
                }
            };
        }
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
