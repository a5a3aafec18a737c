//! `cargo xtask counts`: counted work per benchmark iteration, exact and the same
//! on every machine for the same binaries and key, for the IDs of the count
//! program (`bench/examples/count.rs`): x86 instructions natively (valgrind's
//! callgrind), Wasm operators executed (wasmtime fuel) and x86 instructions of
//! wasmtime's compiled code (a module precompiled for pinned Cranelift flags, under
//! callgrind), both through the PyPI package wasmtime (`scripts/wasm-count.py`).
//! Writes `target/counts/counts.json` (its format: `poseidon_benches::counts`),
//! which `cargo xtask bench` shows beside the times.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use poseidon_benches::counts::{
    counts_json, counts_text, file_sha256, source_sha256, Count, Kind, Row,
};

use super::build::{count_binary, upstream_binary, upstream_commit, upstream_lab, Flavor};
use super::tools::{
    cargo_bin_on_path, ensure_apt, ensure_wasmtime_py, native_rustflags, say, stdout_of,
    version_line,
};
use super::{criterion_args, scripts, var};

/// Iterations K for an ID (the second run has 2K): field operations are short.
fn iterations(id: &str) -> u64 {
    if id.starts_with("Field/") {
        2000
    } else {
        20
    }
}

/// Self cost per object (`ob=`) of a callgrind output, and its `totals:`; the sum
/// of the self costs must equal the totals (the parse is checked by it).
fn object_costs(text: &str) -> Result<(BTreeMap<String, u64>, u64), String> {
    let mut names: BTreeMap<String, String> = BTreeMap::new();
    let mut costs: BTreeMap<String, u64> = BTreeMap::new();
    let (mut current, mut after_calls, mut totals) = (String::new(), false, None);
    // `ob=(N) name` names N once; later `ob=(N)` refers to it.
    let mut name_of = |spec: &str| -> String {
        match spec.strip_prefix('(').and_then(|s| s.split_once(')')) {
            Some((n, rest)) => {
                let rest = rest.trim();
                if !rest.is_empty() {
                    names.insert(n.to_owned(), rest.to_owned());
                }
                names.get(n).cloned().unwrap_or_else(|| format!("({n})"))
            }
            None => spec.trim().to_owned(),
        }
    };
    for line in text.lines() {
        if let Some(spec) = line.strip_prefix("ob=") {
            current = name_of(spec);
        } else if let Some(spec) = line.strip_prefix("cob=") {
            name_of(spec);
        } else if let Some(t) = line
            .strip_prefix("totals:")
            .or_else(|| line.strip_prefix("summary:"))
        {
            totals = Some(
                t.split_whitespace()
                    .next()
                    .and_then(|n| n.parse::<u64>().ok())
                    .ok_or(format!("callgrind: bad totals line: {line}"))?,
            );
        } else if line.starts_with("calls=") {
            after_calls = true;
        } else if line
            .bytes()
            .next()
            .is_some_and(|b| b.is_ascii_digit() || b"+-*".contains(&b))
        {
            // The line after calls= is the call's inclusive cost, not self cost.
            if std::mem::take(&mut after_calls) {
                continue;
            }
            let ir = line
                .split_whitespace()
                .nth(1)
                .map_or(Ok(0), str::parse::<u64>)
                .map_err(|_| format!("callgrind: bad cost line: {line}"))?;
            *costs.entry(current.clone()).or_default() += ir;
        }
    }
    let totals = totals.ok_or("callgrind: no totals line")?;
    let sum: u64 = costs.values().sum();
    if sum != totals {
        return Err(format!(
            "callgrind: self costs sum to {sum}, totals say {totals} (output not understood)"
        ));
    }
    Ok((costs, totals))
}

/// The object name callgrind gives code without a file: wasmtime's compiled code.
const ANONYMOUS: &str = "???";

/// The programs and tools the counts run.
struct Tools {
    /// The count program, native.
    pub native: PathBuf,
    /// The count program, wasm32-wasip1.
    pub wasm: PathBuf,
    /// A Python with the pinned `wasmtime` package.
    pub python: PathBuf,
    /// `scripts/wasm-count.py`.
    pub script: PathBuf,
    /// valgrind.
    pub valgrind: PathBuf,
    /// Scratch directory.
    pub work: PathBuf,
    /// The kinds to count.
    pub kinds: Vec<Kind>,
}

/// One run's outcome: the count in the window and the digest, or why none.
enum Run {
    Counted { count: u64, digest: String },
    Missing(String),
}

fn output(cmd: &mut Command, what: &str) -> Result<std::process::Output, String> {
    cmd.output().map_err(|e| format!("{what}: {e}"))
}

fn last_lines(s: &[u8]) -> String {
    let s = String::from_utf8_lossy(s);
    let lines: Vec<&str> = s.lines().filter(|l| !l.starts_with("==")).collect();
    lines[lines.len().saturating_sub(6)..].join("\n")
}

impl Tools {
    fn cwasm(&self) -> PathBuf {
        self.work.join("count.cwasm")
    }

    /// Precompiles the module for the pinned target (once per invocation).
    fn precompile(&self) -> Result<(), String> {
        std::fs::create_dir_all(&self.work).map_err(|e| format!("{}: {e}", self.work.display()))?;
        let out = output(
            Command::new(&self.python)
                .arg(&self.script)
                .arg("compile")
                .arg(&self.wasm)
                .arg(self.cwasm()),
            "python",
        )?;
        if !out.status.success() {
            return Err(format!(
                "precompiling {} failed: {}",
                self.wasm.display(),
                last_lines(&out.stderr)
            ));
        }
        Ok(())
    }

    fn callgrind(&self, dir: &Path, program: &[&std::ffi::OsStr]) -> Command {
        let mut c = Command::new(&self.valgrind);
        c.arg("--tool=callgrind")
            .arg("--dump-before=sched_yield")
            .arg(format!("--callgrind-out-file={}/cg.%p", dir.display()))
            .args(program)
            .env("PYTHONHASHSEED", "0");
        c
    }

    fn once(&self, kind: Kind, id: &str, k: u64, n: usize) -> Result<Run, String> {
        let dir = self.work.join(format!("run-{n}"));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        let k_arg = k.to_string();
        let (id_os, k_os) = (std::ffi::OsStr::new(id), std::ffi::OsStr::new(&k_arg));
        let (script, cwasm) = (self.script.as_os_str(), self.cwasm());
        let mut cmd = match kind {
            Kind::Native => self.callgrind(&dir, &[self.native.as_os_str(), id_os, k_os]),
            // A Python may be a wrapper that execs the interpreter (Nix's withPackages).
            Kind::Wasmtime => self.callgrind(
                &dir,
                &[
                    "--trace-children=yes".as_ref(),
                    self.python.as_os_str(),
                    script,
                    "run".as_ref(),
                    cwasm.as_os_str(),
                    id_os,
                    k_os,
                ],
            ),
            Kind::WasmOperators => {
                let mut c = Command::new(&self.python);
                c.arg(script)
                    .arg("fuel")
                    .arg(&self.wasm)
                    .arg(id)
                    .arg(&k_arg);
                c
            }
        };
        let out = output(&mut cmd, kind.field())?;
        if out.status.code() == Some(3) {
            return Ok(Run::Missing(last_lines(&out.stderr)));
        }
        if !out.status.success() {
            return Err(format!(
                "{id} ({}): {} failed: {}",
                kind.field(),
                cmd.get_program().to_string_lossy(),
                last_lines(&out.stderr)
            ));
        }
        let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
        let digest = stdout
            .lines()
            .next()
            .and_then(|l| l.strip_prefix(&format!("{id} {k} ")))
            .ok_or(format!(
                "{id}: the program printed no digest line '{id} {k} HEX': {stdout}"
            ))?
            .to_owned();
        let count = match kind {
            Kind::WasmOperators => stdout
                .lines()
                .find_map(|l| l.strip_prefix("fuel "))
                .and_then(|n| n.trim().parse().ok())
                .ok_or(format!("{id}: no 'fuel N' line: {stdout}"))?,
            _ => {
                let window = window_dump(&dir)?;
                let (objects, totals) = object_costs(&window).map_err(|e| format!("{id}: {e}"))?;
                if kind == Kind::Native {
                    totals
                } else {
                    objects
                        .get(ANONYMOUS)
                        .copied()
                        .ok_or(format!("{id}: no compiled code ran between the markers"))?
                }
            }
        };
        let _ = std::fs::remove_dir_all(&dir);
        Ok(Run::Counted { count, digest })
    }

    /// One ID's counts, and the digest every kind agreed on (None: none ran).
    fn measure(&self, id: &str) -> Result<(Row, Option<String>), String> {
        let k = iterations(id);
        let mut counts = BTreeMap::new();
        let mut digest: Option<(Kind, String)> = None;
        for (n, &kind) in self.kinds.iter().enumerate() {
            let count = match (
                self.once(kind, id, k, 2 * n)?,
                self.once(kind, id, 2 * k, 2 * n + 1)?,
            ) {
                (
                    Run::Counted {
                        count: a,
                        digest: d,
                    },
                    Run::Counted { count: b, .. },
                ) => {
                    if let Some((first, seen)) = &digest {
                        if *seen != d {
                            return Err(format!(
                                "{id}: digests differ: {} {seen}, {} {d}",
                                first.field(),
                                kind.field()
                            ));
                        }
                    } else {
                        digest = Some((kind, d));
                    }
                    Count::per_iteration(a, b, k).map_err(|e| format!("{id}: {e}"))?
                }
                (Run::Missing(why), _) | (_, Run::Missing(why)) => Count::Missing(why),
            };
            counts.insert(kind, count);
        }
        Ok((
            Row {
                id: id.to_owned(),
                counts,
            },
            digest.map(|(_, d)| d),
        ))
    }
}

/// The callgrind file of the window (dump part 2).
fn window_dump(dir: &Path) -> Result<String, String> {
    let entries = std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    for e in entries {
        let p = e.map_err(|e| format!("{}: {e}", dir.display()))?.path();
        let text = std::fs::read_to_string(&p).map_err(|e| format!("{}: {e}", p.display()))?;
        if text.lines().any(|l| l == "part: 2") {
            return Ok(text);
        }
    }
    Err(format!(
        "no callgrind dump between the markers in {} (the program called sched_yield fewer than twice)",
        dir.display()
    ))
}

/// The IDs `--check` counts: a small subset, twice.
const CHECK_IDS: &str = "^(Poseidon/permutation/u29|Field/mul/u64|Field/square/reference)$";

/// `cargo xtask counts --help`.
pub const USAGE: &str = "usage: cargo xtask counts [--check] [-- ID_REGEX]
Counts the work per iteration of the count program's IDs matching ID_REGEX (default: all;
about 25 s per ID: callgrind runs wasmtime), natively and for wasm32-wasip1, and writes
target/counts/counts.json. --check: a small subset, twice: the counts must be equal, and
the native and Wasm digests must agree (make test runs this). With PROOF_SYSTEMS (a
proof-systems checkout), the lab's count program, which also counts backend upstream.
Prebuilt (the flake's app and checks): COUNT_NATIVE_BIN, COUNT_WASM_BIN, COUNT_PYTHON (with
wasmtime installed), BENCH_SCRIPTS; COUNTS_OUT (default ./target/counts/counts.json),
COUNTS_WORK; the key from COUNT_ROOT (the sources), COUNT_RUSTC (its --version) and
COUNT_KEY (KEY=VALUE lines).";

/// `cargo xtask counts [--check] [-- ID_REGEX]`.
pub fn task(root: &Path, args: &[String]) -> Result<bool, String> {
    let check = args.first().is_some_and(|a| a == "--check");
    let rest = criterion_args(&args[usize::from(check)..])?;
    let filter = match (check, rest.as_slice()) {
        (true, []) => CHECK_IDS.to_owned(),
        (true, _) => return Err("--check takes no ID_REGEX".into()),
        (false, []) => ".".to_owned(),
        (false, [f]) => f.clone(),
        (false, _) => return Err("one ID_REGEX at most".into()),
    };
    counts(root, &filter, if check { 2 } else { 1 }).or_else(|e| {
        eprintln!("xtask counts: {e}");
        Ok(false)
    })
}

fn counts(root: &Path, filter: &str, rounds: usize) -> Result<bool, String> {
    let mut key = BTreeMap::new();
    let prebuilt = var("COUNT_NATIVE_BIN");
    let (native, wasm, python, out, work) = if let Some(native) = prebuilt {
        let wasm = var("COUNT_WASM_BIN").ok_or("COUNT_WASM_BIN is needed with COUNT_NATIVE_BIN")?;
        let python = var("COUNT_PYTHON").ok_or("COUNT_PYTHON is needed with COUNT_NATIVE_BIN")?;
        let out = var("COUNTS_OUT")
            .map_or_else(|| PathBuf::from("target/counts/counts.json"), PathBuf::from);
        let work = var("COUNTS_WORK").map_or_else(
            || out.parent().unwrap_or(Path::new(".")).join("work"),
            PathBuf::from,
        );
        if let Some(src) = var("COUNT_ROOT") {
            source_key(&mut key, Path::new(&src))?;
        }
        if let Some(rustc) = var("COUNT_RUSTC") {
            key.insert(
                "rustc".into(),
                version_line(&rustc, &["--version"], "unknown"),
            );
        }
        (
            PathBuf::from(native),
            PathBuf::from(wasm),
            PathBuf::from(python),
            out,
            work,
        )
    } else {
        cargo_bin_on_path();
        if !ensure_apt("valgrind", "valgrind") {
            return Err("valgrind not found: install it (Debian: apt-get install valgrind; make setup does)".into());
        }
        let python = ensure_wasmtime_py(root)?;
        let (native, wasm) = if let Some(ps) = var("PROOF_SYSTEMS") {
            // The lab's count program: ours and backend upstream, from the checkout.
            let ps = PathBuf::from(ps);
            let lab = upstream_lab(root, &ps)?;
            say(&format!("building the count program with backend upstream ({}) natively and for wasm32-wasip1", ps.display()));
            key.insert("upstream".into(), upstream_commit(&ps));
            (
                upstream_binary(root, &lab, "count", Flavor::Host)?,
                upstream_binary(root, &lab, "count", Flavor::Wasm)?,
            )
        } else {
            say("building the count program natively and for wasm32-wasip1");
            (
                count_binary(root, Flavor::Host)?,
                count_binary(root, Flavor::Wasm)?,
            )
        };
        source_key(&mut key, root)?;
        key.insert(
            "rustc".into(),
            version_line("rustc", &["--version"], "unknown"),
        );
        key.insert("profile".into(), super::build::PROFILE[1].into());
        key.insert("rustflags".into(), native_rustflags());
        key.insert(
            "wasm_rustflags".into(),
            var("RUSTFLAGS")
                .or_else(|| var("CARGO_TARGET_WASM32_WASIP1_RUSTFLAGS"))
                .unwrap_or_else(|| ".cargo/config.toml".into()),
        );
        let out =
            var("COUNTS_OUT").map_or_else(|| root.join("target/counts/counts.json"), PathBuf::from);
        (native, wasm, python, out, root.join("target/counts/work"))
    };
    for line in var("COUNT_KEY").unwrap_or_default().lines() {
        if let Some((k, v)) = line.split_once('=') {
            key.insert(k.to_owned(), v.to_owned());
        }
    }
    let listed = stdout_of(Command::new(&native).arg("--list"))
        .ok_or(format!("{} --list failed", native.display()))?;
    let ids = matching(&listed, filter)?;
    let tools = Tools {
        native,
        wasm,
        python,
        script: scripts(root).join("wasm-count.py"),
        valgrind: "valgrind".into(),
        work,
        kinds: Kind::ALL.to_vec(),
    };
    say(&format!(
        "counting {} IDs, K and 2K iterations each (about 25 s per ID: callgrind runs wasmtime)",
        ids.len()
    ));
    measure_all(&tools, &ids, rounds, &mut key, &out)
}

/// The key's hashes of the sources the count program is built from.
fn source_key(key: &mut BTreeMap<String, String>, src: &Path) -> Result<(), String> {
    key.insert("source_sha256".into(), source_sha256(src)?);
    key.insert(
        "cargo_lock_sha256".into(),
        file_sha256(&src.join("Cargo.lock"))?,
    );
    Ok(())
}

/// The listed IDs that match `filter` (an extended regular expression, as grep -E
/// reads it: `grep` does the matching, so the filter means what it meant in the
/// shell).
fn matching(listed: &str, filter: &str) -> Result<Vec<String>, String> {
    let mut child = Command::new("grep")
        .args(["-E", "--", filter])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .map_err(|e| format!("grep: {e}"))?;
    {
        use std::io::Write as _;
        let mut stdin = child.stdin.take().expect("piped");
        stdin
            .write_all(listed.as_bytes())
            .map_err(|e| format!("grep: {e}"))?;
    }
    let out = child.wait_with_output().map_err(|e| format!("grep: {e}"))?;
    let ids: Vec<String> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(str::to_owned)
        .collect();
    if ids.is_empty() {
        return Err(format!(
            "no benchmark ID matches {filter} ({})",
            listed.lines().collect::<Vec<_>>().join(" ")
        ));
    }
    Ok(ids)
}

/// Measures every ID (`rounds` times: the rounds must agree), prints the table
/// and writes counts.json.
fn measure_all(
    tools: &Tools,
    ids: &[String],
    rounds: usize,
    key: &mut BTreeMap<String, String>,
    out: &Path,
) -> Result<bool, String> {
    if tools.kinds.iter().any(|k| *k != Kind::WasmOperators) {
        let v = stdout_of(Command::new(&tools.valgrind).arg("--version"))
            .ok_or("valgrind --version failed")?;
        key.insert("valgrind".into(), v);
    }
    if tools.kinds.iter().any(|k| *k != Kind::Native) {
        let text = stdout_of(Command::new(&tools.python).arg(&tools.script).arg("key"))
            .ok_or("wasm-count.py key failed")?;
        for line in text.lines() {
            if let Some((k, v)) = line.split_once(' ') {
                if k == "cranelift" && !tools.kinds.contains(&Kind::Wasmtime) {
                    continue;
                }
                key.insert(k.to_owned(), v.to_owned());
            }
        }
    }
    if tools.kinds.contains(&Kind::Wasmtime) {
        eprintln!(
            "precompiling {} for the pinned target",
            tools.wasm.display()
        );
        tools.precompile()?;
    }
    let (mut passed, mut failed) = (0usize, 0usize);
    let mut first: Vec<Option<Row>> = Vec::new();
    for round in 1..=rounds {
        for (i, id) in ids.iter().enumerate() {
            let of = if rounds > 1 {
                format!(" (round {round} of {rounds})")
            } else {
                String::new()
            };
            eprintln!("counting {id}{of}");
            let row = match tools.measure(id) {
                Ok((row, _)) => Some(row),
                Err(e) => {
                    println!("FAIL  {e}");
                    failed += 1;
                    None
                }
            };
            if round == 1 {
                first.push(row);
            } else if let (Some(a), Some(b)) = (&first[i], &row) {
                if a == b {
                    passed += 1;
                    println!("ok    {id}: the same counts in round {round}, digests agree");
                } else {
                    failed += 1;
                    println!(
                        "FAIL  {id}: round 1 {:?}, round {round} {:?}",
                        a.counts, b.counts
                    );
                }
            }
        }
    }
    let rows: Vec<Row> = first.into_iter().flatten().collect();
    print!("{}", counts_text(&rows));
    let per_mul = poseidon_benches::per_mul::counts_text(&rows);
    if !per_mul.is_empty() {
        print!("\n{per_mul}");
    }
    // One line per ID and reason: which kinds are missing, and why.
    for r in &rows {
        let mut why: Vec<(&str, Vec<&str>)> = Vec::new();
        for (k, c) in &r.counts {
            if let Count::Missing(w) = c {
                let w = w.lines().last().unwrap_or("");
                match why.iter_mut().find(|(x, _)| *x == w) {
                    Some((_, kinds)) => kinds.push(k.field()),
                    None => why.push((w, vec![k.field()])),
                }
            }
        }
        for (w, kinds) in why {
            println!("missing: {} ({}): {w}", r.id, kinds.join(", "));
        }
    }
    if let Some(dir) = out.parent() {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    let text =
        serde_json::to_string_pretty(&counts_json(key, &rows)).expect("JSON values serialise");
    std::fs::write(out, text + "\n").map_err(|e| format!("{}: {e}", out.display()))?;
    println!("wrote {}", out.display());
    if rounds > 1 {
        println!("{passed} passed, {failed} failed");
    }
    Ok(failed == 0)
}

/// The A/B's counts of one side: its programs, the IDs, a key entry.
pub(crate) fn count_side(
    root: &Path,
    native: PathBuf,
    wasm: PathBuf,
    work: PathBuf,
    ids: &[String],
    upstream: &str,
    out: &Path,
) -> Result<bool, String> {
    let tools = Tools {
        native,
        wasm,
        python: ensure_wasmtime_py(root)?,
        script: scripts(root).join("wasm-count.py"),
        valgrind: "valgrind".into(),
        work,
        kinds: Kind::ALL.to_vec(),
    };
    let mut key = BTreeMap::from([("upstream".to_owned(), upstream.to_owned())]);
    measure_all(&tools, ids, 1, &mut key, out)
}

#[cfg(test)]
mod tests {
    use super::*;

    const CALLGRIND: &str = "# callgrind format
version: 1
part: 2
positions: line
events: Ir
summary: 1111

ob=(2) ???
fl=(5) ???
fn=(7) 0x1
0 1000
cob=(3) /lib/libc.so.6
cfn=(9) sched_yield
calls=1 0
0 60
ob=(3)
fl=(6) sched.c
fn=(9)
+2 40
* 10
ob=(2)
fn=(8) 0x2
-1 50
ob=(4) /usr/lib/libpython.so
fn=(10) f
3 11

totals: 1111
";

    #[test]
    fn callgrind_self_costs_per_object_sum_to_the_totals() {
        let (costs, totals) = object_costs(CALLGRIND).unwrap();
        assert_eq!(totals, 1111);
        // The inclusive cost after calls= (60) is not self cost of ???; names given once
        // as `ob=(N) name` are reused by `ob=(N)`.
        assert_eq!(costs["???"], 1050);
        assert_eq!(costs["/lib/libc.so.6"], 50);
        assert_eq!(costs["/usr/lib/libpython.so"], 11);
        // A file whose self costs do not add up is refused, not half-read.
        let broken = CALLGRIND.replace("totals: 1111", "totals: 1112");
        assert!(object_costs(&broken).unwrap_err().contains("1111"));
        assert!(object_costs("ob=(1) x\n0 5\n")
            .unwrap_err()
            .contains("totals"));
        assert!(object_costs("0 x5\ntotals: 5\n").is_err());
    }
}
