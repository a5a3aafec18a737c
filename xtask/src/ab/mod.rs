//! `cargo xtask ab` (`make ab BASE=… HEAD=…`): did a change to upstream's
//! Poseidon make it faster, natively and in Wasm, and by how much?
//!
//! 1. Each side (a proof-systems checkout `DIR`, or `DIR@REV`) is put in one build
//!    tree under `target/ab/`, one after the other ([`sides`]), and built as the
//!    lab builds `PROOF_SYSTEMS` ([`crate::lab::upstream`]): the benchmark with backend
//!    `upstream` for the host and wasm32-wasip1, and the count program.
//! 2. Both sides run on every runtime (native, wasmtime, each Node found) in
//!    rounds, alternating which goes first (BASE HEAD, HEAD BASE, …), on
//!    upstream's workloads; criterion saves `base@R` and `head@R`.
//! 3. Where valgrind and the wasmtime package are, both sides' upstream workloads
//!    are counted (native instructions, Wasm operators, wasmtime's instructions).
//! 4. `bench-report ab` writes `ab.md`, `ab.json` and `ab.bmf.json`
//!    (`poseidon_benches::ab`: the statistics and the verdicts).

pub mod selftest;
pub mod sides;
pub mod standin;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use crate::lab::build::{bench_binary_at, build, Flavor};
use crate::lab::per_id;
use crate::lab::runtime::Runtime;
use crate::lab::tools::{on_path, say};

/// `cargo xtask ab --help`.
pub const USAGE: &str = "usage: cargo xtask ab --base SIDE --head SIDE [--minutes M | --rounds N]
                     [--runtimes LIST] [--workloads REGEX] [--criterion ARGS]
                     [--fdr Q] [--margin PCT] [--trim PCT] [--no-counts] [--out DIR]
SIDE: a proof-systems checkout (DIR, its files as they are) or DIR@REV (a revision,
extracted with git archive); the checkout is only read. (make ab BASE=… HEAD=…)
Or both sides this repository: @REV, and @ for the working tree (the default HEAD
when BASE is @REV): our backends' permutation and hash of 2, counted too, and on
wasmtime, Node and jsc the package's FMA kernels (rows fma, each side's own module,
where both sides build one), and under wasmtime with wide arithmetic
(wasmtime-wide) each side's wide-arithmetic module (as make bench builds it).
  --minutes M       the rounds' time budget (default 12): after two rounds, as many
                    more as fit, an even number from 4 to 60
  --rounds N        paired rounds per runtime instead (even, at least 4)
  --runtimes LIST   e.g. \"native wasmtime node24\" (default: native, wasmtime if on
                    PATH, and with our sides wasmtime-wide too; every Node of
                    BENCH_NODES or found as make bench finds them; jsc,
                    JavaScriptCore's shell, only when named)
  --workloads REGEX criterion's filter (default: upstream's permutation and its
                    hash of 2 elements; the hash chain and the longer hashes are
                    the permutation again)
  --criterion ARGS  criterion's options per run (default: --warm-up-time 0.5
                    --measurement-time 1 --sample-size 10 --nresamples 1000)
  --fdr Q           false-discovery rate of the calls faster/slower (default 0.05)
  --margin PCT      equivalence margin of `same` (default 3)
  --trim PCT        rounds set aside at each end of a row's ratios (default 10)
  --no-counts       skip the counts (they need valgrind; x86-64 Linux)
  --count-ids IDS   the count program's IDs (default: the default workloads)
  --out DIR         where ab.md, ab.json, ab.bmf.json go (default target/ab)
Prints progress, then the table; writes OUT/ab.md, OUT/ab.json, OUT/ab.bmf.json.";

/// Upstream's workloads in the lab's benchmark.
pub const WORKLOADS: &str = "^Poseidon/(permutation/upstream|hash/upstream/2)$";
const CRITERION: &str =
    "--warm-up-time 0.5 --measurement-time 1 --sample-size 10 --nresamples 1000 --noplot";
/// Our backends' workloads, when both sides are this repository.
const OUR_WORKLOADS: &str = "^Poseidon/(permutation/(u29|u64|u52|fma)|hash/(u29|u64|fma)/2)$";
/// Ours in the count program (u52's own path does not run under valgrind).
const OUR_COUNT_IDS: [&str; 4] = [
    "Poseidon/permutation/u29",
    "Poseidon/permutation/u64",
    "Poseidon/hash/u29/2",
    "Poseidon/hash/u64/2",
];
/// The upstream IDs of the count program: the default workloads.
pub(crate) const COUNT_IDS: [&str; 2] =
    ["Poseidon/permutation/upstream", "Poseidon/hash/upstream/2"];
/// The rounds' default time budget, minutes: with the counts (about 25 s per ID
/// and side) the A/B ends within 15 minutes of the builds.
const MINUTES: f64 = 12.0;
/// The fewest and most rounds a budget gives.
const ROUNDS: (u32, u32) = (4, 60);
const WASM: &str = "wasm32-wasip1";
/// The sides' names, BASE first (criterion's baselines `base@R`, `head@R`).
const SIDES: [&str; 2] = ["base", "head"];

#[derive(Debug)]
struct Options {
    base: String,
    head: String,
    /// Explicit rounds, or None: as many as fit `minutes`.
    rounds: Option<u32>,
    minutes: f64,
    fdr: Option<String>,
    margin: Option<String>,
    trim: Option<String>,
    runtimes: Option<Vec<String>>,
    workloads: String,
    criterion: Vec<String>,
    counts: bool,
    count_ids: Vec<String>,
    out: Option<PathBuf>,
}

fn parse(args: &[String]) -> Result<Options, String> {
    let mut o = Options {
        base: String::new(),
        head: String::new(),
        rounds: None,
        minutes: MINUTES,
        fdr: None,
        margin: None,
        trim: None,
        runtimes: None,
        workloads: WORKLOADS.into(),
        criterion: CRITERION.split(' ').map(String::from).collect(),
        counts: true,
        count_ids: COUNT_IDS.map(String::from).to_vec(),
        out: None,
    };
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = || it.next().cloned().ok_or(format!("{a} needs a value"));
        match a.as_str() {
            "-h" | "--help" => return Err(String::new()),
            "--base" => o.base = value()?,
            "--head" => o.head = value()?,
            "--rounds" => {
                let v = value()?;
                o.rounds = Some(
                    v.parse()
                        .ok()
                        .filter(|n| *n >= ROUNDS.0 && n % 2 == 0)
                        .ok_or(format!(
                            "--rounds: {v} is not an even number of at least {} (each side goes first equally often)",
                            ROUNDS.0
                        ))?,
                );
            }
            "--minutes" => {
                let v = value()?;
                o.minutes = v
                    .parse()
                    .ok()
                    .filter(|m: &f64| *m > 0.0)
                    .ok_or(format!("--minutes: {v} is not a positive number"))?;
            }
            "--fdr" => o.fdr = Some(value()?),
            "--margin" => o.margin = Some(value()?),
            "--trim" => o.trim = Some(value()?),
            "--runtimes" => {
                o.runtimes = Some(value()?.split_whitespace().map(String::from).collect())
            }
            "--workloads" => o.workloads = value()?,
            "--criterion" => o.criterion = value()?.split_whitespace().map(String::from).collect(),
            "--no-counts" => o.counts = false,
            "--count-ids" => o.count_ids = value()?.split_whitespace().map(String::from).collect(),
            "--out" => o.out = Some(value()?.into()),
            s => return Err(format!("unknown argument {s}")),
        }
    }
    if o.base.starts_with('@') && o.head.is_empty() {
        o.head = "@".into(); // this repository's working tree
    }
    if o.base.is_empty() || o.head.is_empty() {
        return Err("both --base and --head are needed (make ab BASE=… HEAD=…)".into());
    }
    Ok(o)
}

/// What a side builds besides the native benchmark.
#[derive(Clone, Copy)]
struct Builds {
    /// The benchmark for wasm32-wasip1.
    wasm: bool,
    /// Ours: the fma module (for the runtimes that run it).
    fma: bool,
    /// Ours: the wide-arithmetic module (runtime wasmtime-wide).
    wide: bool,
    /// The count program, native and Wasm.
    counts: bool,
}

/// Builds one side's programs in `work` and copies them to `work/bin/SIDE/`:
/// `bench`, `bench.wasm`, (with counts) `count`, `count.wasm`, and (ours) the fma
/// module `bench-fma.wasm`, whose failure is a warning and no fma rows, and the
/// wide-arithmetic module `bench-wide.wasm`, whose failure is an error (the
/// runtime was asked for).
fn build_side(
    root: &Path,
    work: &Path,
    side: &str,
    ours: bool,
    b: Builds,
) -> Result<PathBuf, String> {
    let Builds {
        wasm,
        fma,
        wide,
        counts,
    } = b;
    let (tree, lab) = (work.join("tree"), work.join("lab"));
    // Upstream: the lab's crate over the tree (its own lock from the tree's), built
    // from here (this repository's cargo configuration: the wasm flags). Ours: the
    // tree's own bench crate, with the tree's configuration.
    let (manifest, cwd) = if ours {
        (tree.join("Cargo.toml"), tree.clone())
    } else {
        let _ = std::fs::remove_file(lab.join("lab/Cargo.lock"));
        crate::lab::upstream::write_lab(&tree, root, &lab)?;
        (lab.join("lab/Cargo.toml"), root.to_owned())
    };
    let bin = work.join("bin").join(side);
    std::fs::create_dir_all(&bin).map_err(|e| format!("{}: {e}", bin.display()))?;
    let mut builds = vec![("bench", "bench", None, "bench")];
    if wasm {
        builds.push(("bench", "bench", Some(WASM), "bench.wasm"));
    }
    if counts {
        builds.push(("example", "example", None, "count"));
        builds.push(("example", "example", Some(WASM), "count.wasm"));
    }
    for (what, kind, target, name) in builds {
        say(&format!(
            "{side}: building the {} for {}",
            if what == "bench" {
                "benchmark"
            } else {
                "count program"
            },
            target.unwrap_or("the host")
        ));
        let mut cmd = Command::new("cargo");
        if what == "bench" {
            cmd.args(["bench", "--no-run", "--bench", "poseidon"]);
        } else {
            cmd.args(["build", "--example", "count"])
                .args(crate::lab::build::PROFILE);
        }
        if ours {
            cmd.args(["-p", "poseidon-benches"]);
        }
        cmd.arg("--manifest-path")
            .arg(&manifest)
            .arg("--target-dir")
            .arg(work.join("target"))
            .current_dir(&cwd);
        if let Some(t) = target {
            cmd.args(["--target", t]);
        }
        let exe = build(
            cmd,
            kind,
            &format!("{side}'s {what} for {}", target.unwrap_or("the host")),
        )?;
        std::fs::copy(&exe, bin.join(name)).map_err(|e| format!("{}: {e}", exe.display()))?;
    }
    if ours && fma {
        say(&format!(
            "{side}: building the fma module (relaxed SIMD, the package's FMA kernels)"
        ));
        if let Err(e) = build_fma(root, work, &tree, &bin.join(FMA_MODULE)) {
            say(&format!(
                "warning: {side}: no fma module, so no fma rows: {e}"
            ));
        }
    }
    if ours && wide {
        say(&format!(
            "{side}: building the wide-arithmetic module (wasm32-wasip1, +wide-arithmetic in crate poseidon)"
        ));
        build_wide(work, &tree, &bin.join(WIDE_MODULE))?;
    }
    Ok(bin)
}

/// The wide-arithmetic module of ours at `tree`, built as `make bench` builds it
/// ([`crate::lab::build::Flavor::Wide`]) with the tree's own compiler wrapper.
fn build_wide(work: &Path, tree: &Path, out: &Path) -> Result<(), String> {
    if !tree.join(crate::lab::build::RUSTC_WIDE).is_file() {
        return Err(format!(
            "{}: no {}, so no wide-arithmetic build (runtime wasmtime-wide)",
            tree.display(),
            crate::lab::build::RUSTC_WIDE
        ));
    }
    let module = bench_binary_at(tree, Flavor::Wide, Some(&work.join("target-wide")))?;
    std::fs::copy(&module, out)
        .map(drop)
        .map_err(|e| format!("{}: {e}", module.display()))
}

/// The fma module of ours at `tree`: the benchmark built as the lab builds it
/// ([`crate::lab::build::Flavor::Fma`]), the tree's own kernels merged in by the
/// tree's own generator (a change to the kernels is what an A/B may measure).
fn build_fma(root: &Path, work: &Path, tree: &Path, out: &Path) -> Result<(), String> {
    let module = bench_binary_at(tree, Flavor::Fma, Some(&work.join("target-fma")))?;
    let binaryen = crate::lab::js::binaryen(root)?;
    crate::lab::build::merge_fma(
        Command::new("cargo")
            .env("CARGO_TARGET_DIR", work.join("target"))
            .current_dir(tree),
        &module,
        &binaryen,
        out,
    )
}

fn sha256_file(p: &Path) -> String {
    Command::new("sha256sum")
        .arg(p)
        .output()
        .ok()
        .map(|o| {
            String::from_utf8_lossy(&o.stdout)
                .split(' ')
                .next()
                .unwrap_or("")
                .to_owned()
        })
        .unwrap_or_default()
}

/// The runtimes to measure: those asked for, else native, wasmtime (when on
/// PATH; with our sides, `ours`, also wasmtime with wide arithmetic) and every
/// Node runtime (`BENCH_NODES`, or those found).
fn runtimes(root: &Path, asked: &Option<Vec<String>>, ours: bool) -> Result<Vec<Runtime>, String> {
    let nodes = crate::lab::nodes::runtimes(root, crate::lab::var("BENCH_NODES").as_deref())?;
    let mut default = vec![Runtime::Native];
    if on_path("wasmtime") {
        default.push(Runtime::Wasmtime);
        if ours {
            default.push(Runtime::WasmtimeWide);
        }
    }
    default.extend(nodes.iter().cloned());
    let Some(asked) = asked else {
        return Ok(default);
    };
    let mut out = Vec::new();
    for rt in asked {
        match rt.as_str() {
            "native" => out.push(Runtime::Native),
            "wasmtime" => out.push(Runtime::Wasmtime),
            "wasmtime-wide" => out.push(Runtime::WasmtimeWide),
            "node" => out.extend(nodes.iter().cloned()),
            "jsc" => out.push(Runtime::Jsc(crate::lab::runtime::jsc().ok_or(
                "runtime jsc: jsc not found on PATH (Debian: apt-get install libjavascriptcoregtk-4.0-bin)",
            )?)),
            n => {
                let names: Vec<&str> = nodes.iter().map(Runtime::name).collect();
                let r = nodes.iter().find(|r| r.name() == n).ok_or(format!(
                    "runtime {n}: not among {names:?} (BENCH_NODES, cargo xtask nodes)"
                ))?;
                out.push(r.clone());
            }
        }
    }
    Ok(out)
}

/// The fma module's name in a side's programs.
const FMA_MODULE: &str = "bench-fma.wasm";
/// The wide-arithmetic module's name in a side's programs.
const WIDE_MODULE: &str = "bench-wide.wasm";

/// The benchmark program of a side on a runtime.
fn program(rt: &Runtime, bin: &Path) -> PathBuf {
    bin.join(match rt {
        Runtime::Native => "bench",
        Runtime::WasmtimeWide => WIDE_MODULE,
        _ => "bench.wasm",
    })
}

/// A workload: the program that runs it and its ID.
type Workload = (PathBuf, String);

/// The workloads of `side` on a runtime: the IDs its program lists for the filter,
/// and with `fma` the fma module's rows of backend `fma`.
fn list_ids(
    root: &Path,
    rt: &Runtime,
    bin: &Path,
    fma: bool,
    home: &Path,
    split: &per_id::Split,
) -> Result<Vec<Workload>, String> {
    let shim = root.join("scripts/node-wasi.mjs");
    let main = program(rt, bin);
    let listed = per_id::list(
        rt.command(&main, home, &shim),
        split,
        &format!("{} {}", rt.name(), bin.display()),
    )?;
    let mut ids: Vec<Workload> = listed.into_iter().map(|id| (main.clone(), id)).collect();
    if fma {
        let module = bin.join(FMA_MODULE);
        let what = format!("{} {}", rt.name(), module.display());
        let listed = per_id::list(rt.command(&module, home, &shim), split, &what)?;
        ids.extend(
            per_id::of_backend(&listed, "fma")
                .into_iter()
                .map(|id| (module.clone(), id)),
        );
    }
    if ids.is_empty() {
        return Err(format!(
            "{}: no benchmark of {} matches --workloads {}",
            rt.name(),
            bin.display(),
            split.filter.as_deref().unwrap_or_default()
        ));
    }
    Ok(ids)
}

/// The criterion runs of `side` on a runtime, saved as baseline `side@round`:
/// one process per workload ID (`per_id`), so no workload runs after another.
fn measure(
    root: &Path,
    rt: &Runtime,
    home: &Path,
    baseline: &str,
    split: &per_id::Split,
    ids: &[Workload],
) -> Result<(), String> {
    for (program, id) in ids {
        let mut cmd = rt.command(program, home, &root.join("scripts/node-wasi.mjs"));
        cmd.args(["--bench", "--save-baseline", baseline])
            .args(per_id::id_args(split, id))
            .current_dir(root);
        // Criterion's progress only when the run fails.
        let out = cmd
            .output()
            .map_err(|e| format!("{} {baseline} {id}: {e}", rt.name()))?;
        if !out.status.success() {
            let text = String::from_utf8_lossy(&out.stderr);
            let lines: Vec<&str> = text.lines().collect();
            return Err(format!(
                "{} {baseline} {id} failed ({}):\n{}",
                rt.name(),
                out.status,
                lines[lines.len().saturating_sub(20)..].join("\n")
            ));
        }
        rt.after_run(home)?;
    }
    Ok(())
}

/// The rounds that fit `budget` seconds at `per_round` seconds each: an even
/// number within [`ROUNDS`].
fn rounds_in_budget(budget: f64, per_round: f64) -> u32 {
    let fit = (budget / per_round.max(1e-3))
        .floor()
        .min(f64::from(ROUNDS.1)) as u32;
    (fit - fit % 2).clamp(ROUNDS.0, ROUNDS.1)
}

/// `cargo xtask ab`: a wrong argument is an error (with the usage); a failure
/// later (a build, a run) is reported alone.
pub fn task(root: &Path, args: &[String]) -> Result<bool, String> {
    let o = parse(args)?;
    ab(root, o).or_else(|e| {
        eprintln!("xtask ab: {e}");
        Ok(false)
    })
}

fn ab(root: &Path, mut o: Options) -> Result<bool, String> {
    let specs = [sides::parse(&o.base)?, sides::parse(&o.head)?];
    let ours = specs[0].is_ours();
    if ours != specs[1].is_ours() {
        return Err("both sides are proof-systems trees, or both this repository (@REV, @)".into());
    }
    if ours {
        if o.workloads == WORKLOADS {
            o.workloads = OUR_WORKLOADS.into();
        }
        if o.count_ids == COUNT_IDS {
            o.count_ids = OUR_COUNT_IDS.map(String::from).to_vec();
        }
    }
    let work = root.join("target/ab");
    let out = o.out.clone().unwrap_or_else(|| work.clone());
    let rts = runtimes(root, &o.runtimes, ours)?;
    let counts = o.counts && on_path("valgrind");
    if o.counts && !counts {
        say("valgrind not found: no counts (they need valgrind; x86-64 Linux)");
    }

    let wide = rts.contains(&Runtime::WasmtimeWide);
    if wide && !ours {
        return Err(
            "runtime wasmtime-wide: only with our sides (@REV, @); upstream's \
                    arithmetic is compiled into the benchmark's crate, which the \
                    wide-arithmetic build leaves without the feature"
                .into(),
        );
    }
    let wasm = rts
        .iter()
        .any(|r| r.is_wasm() && *r != Runtime::WasmtimeWide);
    let fma = ours && rts.iter().any(Runtime::runs_fma);
    // Stale programs of an earlier run must not pass for this one's.
    let _ = std::fs::remove_dir_all(work.join("bin"));
    // 1. Builds, one side after the other in the same tree.
    let mut described = Vec::new();
    let mut bins = Vec::new();
    for (spec, side) in specs.iter().zip(SIDES) {
        say(&format!("{side}: preparing the tree"));
        described.push(sides::materialize(spec, &work.join("tree"), root)?);
        let builds = Builds {
            wasm,
            fma,
            wide,
            counts,
        };
        bins.push(build_side(root, &work, side, ours, builds)?);
    }
    // fma rows only where both sides have the module.
    let fma = fma && bins.iter().all(|b| b.join(FMA_MODULE).is_file());
    let same = |f: &str| {
        let (a, b) = (bins[0].join(f), bins[1].join(f));
        !a.exists() || sha256_file(&a) == sha256_file(&b)
    };
    let identical = [
        "bench",
        "bench.wasm",
        "count",
        "count.wasm",
        FMA_MODULE,
        WIDE_MODULE,
    ]
    .iter()
    .all(|f| same(f));
    if identical {
        say("BASE and HEAD built to identical binaries");
    }

    // 2. Interleaved rounds.
    let criterion = work.join("criterion");
    let _ = std::fs::remove_dir_all(&criterion);
    // The workloads each side's program has on each runtime, listed once.
    let split = per_id::Split {
        options: o.criterion.clone(),
        filter: Some(o.workloads.clone()),
        exact: false,
    };
    let mut ids = Vec::new();
    for rt in &rts {
        let mut per_side = Vec::new();
        for bin in &bins {
            let home = criterion.join(rt.name());
            per_side.push(list_ids(
                root,
                rt,
                bin,
                fma && rt.runs_fma(),
                &home,
                &split,
            )?);
        }
        ids.push(per_side);
    }
    let started = Instant::now();
    // Two rounds (each side first once) time a round; the budget then fixes the
    // number of rounds, before any result is read, so the count cannot favour a
    // verdict.
    let mut planned = o.rounds.unwrap_or(2);
    let mut round = 0;
    while round < planned {
        round += 1;
        // The timing rounds: their total is not known yet.
        let timing = o.rounds.is_none() && round <= 2;
        let order: [usize; 2] = if round % 2 == 1 { [0, 1] } else { [1, 0] };
        for (r, rt) in rts.iter().enumerate() {
            for k in order {
                let side = SIDES[k];
                let total = planned as usize * rts.len() * 2;
                let done = (round as usize - 1) * rts.len() * 2;
                let eta = if done == 0 || timing {
                    String::new()
                } else {
                    let left =
                        started.elapsed().as_secs_f64() / done as f64 * (total - done) as f64;
                    if left < 90.0 {
                        format!(", about {left:.0} s left")
                    } else {
                        format!(", about {:.0} min left", left / 60.0)
                    }
                };
                let of = if timing {
                    String::new()
                } else {
                    format!("/{planned}")
                };
                say(&format!("round {round}{of}: {} {side}{eta}", rt.name()));
                measure(
                    root,
                    rt,
                    &criterion.join(rt.name()),
                    &format!("{side}@{round}"),
                    &split,
                    &ids[r][k],
                )?;
            }
        }
        if o.rounds.is_none() && round == 2 {
            let per_round = started.elapsed().as_secs_f64() / 2.0;
            planned = rounds_in_budget(o.minutes * 60.0, per_round);
            say(&format!(
                "{planned} rounds: {:.0} s a round, {} min budgeted (--minutes)",
                per_round, o.minutes
            ));
        }
    }

    say(&format!(
        "{} runs ({planned} rounds on {} runtimes, both sides; {} processes, one per workload) in {:.1} min",
        planned as usize * rts.len() * 2,
        rts.len(),
        planned as usize * ids.iter().flatten().map(Vec::len).sum::<usize>(),
        started.elapsed().as_secs_f64() / 60.0
    ));

    // 3. Counts.
    let report_bin = crate::lab::build::report_binary(root)?;
    let mut count_files = Vec::new();
    if counts {
        for (k, side) in SIDES.iter().enumerate() {
            say(&format!("{side}: counting {}", o.count_ids.join(", ")));
            let file = work.join(format!("counts-{side}.json"));
            let ok = crate::lab::counts::count_side(
                root,
                bins[k].join("count"),
                bins[k].join("count.wasm"),
                work.join("counts-work"),
                &o.count_ids,
                &described[k],
                &file,
            )?;
            if !ok {
                return Err(format!("counting {side} failed"));
            }
            count_files.push(file);
        }
    }

    // 4. The report.
    let mut cmd = Command::new(&report_bin);
    cmd.arg("ab")
        .arg("--criterion")
        .arg(&criterion)
        .arg("--out")
        .arg(&out);
    if let [b, h] = &count_files[..] {
        cmd.arg("--counts-base").arg(b).arg("--counts-head").arg(h);
    }
    if let Some(q) = &o.fdr {
        cmd.args(["--fdr", q]);
    }
    if let Some(m) = &o.margin {
        cmd.args(["--margin", m]);
    }
    if let Some(t) = &o.trim {
        cmd.args(["--trim", t]);
    }
    let env = [
        ("BASE", described[0].clone()),
        ("HEAD", described[1].clone()),
        (
            "binaries",
            if identical {
                "identical (the same tree on both sides)".into()
            } else {
                "differ".into()
            },
        ),
        ("machine", crate::lab::tools::cpu_model()),
        ("rustc", command_line("rustc", &["--version"])),
        ("wasmtime", command_line("wasmtime", &["--version"])),
        (
            "runtimes",
            rts.iter().map(Runtime::name).collect::<Vec<_>>().join(" "),
        ),
        ("criterion", o.criterion.join(" ")),
    ];
    for (k, v) in env {
        cmd.arg("--env").arg(format!("{k}={v}"));
    }
    let status = cmd.status().map_err(|e| format!("bench-report ab: {e}"))?;
    say(&format!(
        "the A/B took {:.1} min after the builds",
        started.elapsed().as_secs_f64() / 60.0
    ));
    Ok(status.success())
}

fn command_line(tool: &str, args: &[&str]) -> String {
    Command::new(tool)
        .args(args)
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned())
        .unwrap_or_else(|_| "not found".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_are_parsed_and_checked() {
        let a = |s: &str| s.split(' ').map(String::from).collect::<Vec<_>>();
        let o = parse(&a("--base x --head y@HEAD~1 --rounds 4 --no-counts")).unwrap();
        assert_eq!(
            (o.base.as_str(), o.head.as_str(), o.rounds, o.counts),
            ("x", "y@HEAD~1", Some(4), false)
        );
        assert!(parse(&a("--base x")).unwrap_err().contains("both"));
        for odd in ["2", "5", "x"] {
            assert!(parse(&a(&format!("--base x --head y --rounds {odd}")))
                .unwrap_err()
                .contains("even number of at least 4"));
        }
        assert_eq!(parse(&a("--base x --head y")).unwrap().minutes, MINUTES);
        assert!(parse(&a("--base x --head y --minutes 0")).is_err());
        assert_eq!(parse(&a("--help")).err(), Some(String::new()));
    }

    #[test]
    fn each_runtime_runs_its_own_build() {
        let bin = Path::new("bin/base");
        let node = Runtime::Node("node24".into(), "node".into());
        for (rt, name) in [
            (Runtime::Native, "bench"),
            (Runtime::Wasmtime, "bench.wasm"),
            (node, "bench.wasm"),
            (Runtime::WasmtimeWide, WIDE_MODULE),
        ] {
            assert_eq!(program(&rt, bin), bin.join(name), "{}", rt.name());
        }
    }

    #[test]
    fn a_budget_gives_an_even_number_of_rounds_within_bounds() {
        assert_eq!(rounds_in_budget(720.0, 35.0), 20);
        assert_eq!(rounds_in_budget(720.0, 37.0), 18, "19 fit: one less");
        assert_eq!(rounds_in_budget(720.0, 400.0), 4);
        assert_eq!(rounds_in_budget(720.0, 1.0), 60);
    }
}
