//! `bench-report ab`: the A/B's report from its criterion directory and counts
//! files: `ab.md`, `ab.json` and `ab.bmf.json`.

use serde_json::Value;

use super::{json_report, markdown_report, pair_counts, read_rounds, table, Counts, Settings};

/// `bench-report ab --help`.
pub const USAGE: &str =
    "usage: bench-report ab --criterion DIR [--out DIR] [--counts-base FILE --counts-head FILE]
                       [--fdr Q] [--margin PCT] [--trim PCT] [--env KEY=VALUE]...
HEAD against BASE from DIR/RUNTIME/ (criterion baselines base@R and head@R, written
by cargo xtask ab): ab.md (also printed), ab.json and ab.bmf.json (HEAD in the
Bencher Metric Format) in --out (default target/ab). Q: the false-discovery rate of
the calls faster/slower (Benjamini-Hochberg; default 0.05: with no true change, at
most 1 table in 20 shows one). --margin: the equivalence margin of `same`, % (default
3). --trim: the rounds set aside at each end of a row's log ratios, % (default 10; 0:
the plain mean).";

/// `bench-report ab`.
pub fn cli(args: &[String]) -> Result<bool, String> {
    let (mut criterion, mut out) = (None, std::path::PathBuf::from("target/ab"));
    let (mut cb, mut ch, mut env) = (None, None, Vec::new());
    let mut settings = Settings::default();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = || it.next().cloned().ok_or(format!("{a} needs a value"));
        match a.as_str() {
            "-h" | "--help" => return Err(String::new()),
            "--criterion" => criterion = Some(std::path::PathBuf::from(value()?)),
            "--out" => out = value()?.into(),
            "--counts-base" => cb = Some(value()?),
            "--counts-head" => ch = Some(value()?),
            "--fdr" => {
                let v = value()?;
                settings.fdr = v
                    .parse()
                    .ok()
                    .filter(|a: &f64| *a > 0.0 && *a < 1.0)
                    .ok_or(format!("--fdr: {v} is not between 0 and 1"))?;
            }
            "--margin" => {
                let v = value()?;
                settings.margin = v
                    .parse::<f64>()
                    .ok()
                    .filter(|m| *m > 0.0 && *m < 100.0)
                    .ok_or(format!(
                        "--margin: {v} is not a percentage between 0 and 100"
                    ))?
                    / 100.0;
            }
            "--trim" => {
                let v = value()?;
                settings.trim = v
                    .parse::<f64>()
                    .ok()
                    .filter(|m| (0.0..50.0).contains(m))
                    .ok_or(format!(
                        "--trim: {v} is not a percentage from 0 to below 50"
                    ))?
                    / 100.0;
            }
            "--env" => {
                let v = value()?;
                let (k, val) = v
                    .split_once('=')
                    .ok_or(format!("--env wants KEY=VALUE, got {v}"))?;
                env.push((k.to_owned(), val.to_owned()));
            }
            s => return Err(format!("unknown argument {s}")),
        }
    }
    let criterion = criterion.ok_or("--criterion DIR is needed")?;
    let mut runtimes = Vec::new();
    for e in std::fs::read_dir(&criterion).map_err(|e| format!("{}: {e}", criterion.display()))? {
        let p = e.map_err(|e| e.to_string())?.path();
        if p.is_dir() {
            let rt = p
                .file_name()
                .unwrap_or_default()
                .to_string_lossy()
                .into_owned();
            runtimes.push((rt, read_rounds(&p)?));
        }
    }
    let t = table(&runtimes, settings)?;
    let counts = match (cb, ch) {
        (Some(b), Some(h)) => {
            let read = |f: &str| -> Result<Value, String> {
                let t = std::fs::read_to_string(f).map_err(|e| format!("{f}: {e}"))?;
                serde_json::from_str(&t).map_err(|e| format!("{f}: {e}"))
            };
            pair_counts(&read(&b)?, &read(&h)?)?
        }
        (None, None) => Counts::new(),
        _ => return Err("--counts-base and --counts-head go together".into()),
    };
    let md = markdown_report(&t, &counts, &env);
    std::fs::create_dir_all(&out).map_err(|e| format!("{}: {e}", out.display()))?;
    let write = |name: &str, text: String| {
        let p = out.join(name);
        std::fs::write(&p, text).map_err(|e| format!("{}: {e}", p.display()))
    };
    write("ab.md", md.clone())?;
    let pretty = |v: &Value| serde_json::to_string_pretty(v).expect("JSON values serialise") + "\n";
    write("ab.json", pretty(&json_report(&t, &counts, &env)))?;
    write(
        "ab.bmf.json",
        pretty(&crate::bmf::of_ab(&t.rows, &counts, "head")),
    )?;
    print!("{md}");
    println!("\nwrote {}/ab.md, ab.json and ab.bmf.json", out.display());
    Ok(true)
}
