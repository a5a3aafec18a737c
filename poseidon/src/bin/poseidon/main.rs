//! `poseidon`: hash, permute and check test vectors from the command line,
//! natively or as a wasm32-wasip1 module (`wasmtime run --dir=. poseidon.wasm …`).

use std::io::Write;
use std::process::ExitCode;

use ark_ff::BigInt;
use poseidon::backend::NAMES;
use poseidon::vectors::{self, VectorError};
use poseidon::{encoding, Backend, Error, FieldId, Fp, Fq, ParamSet, PastaField, WIDTH};

const USAGE: &str = "\
poseidon: kimchi and legacy Poseidon over the Pasta fields (Mina)

USAGE:
    poseidon hash    [--params kimchi|legacy] [--field fp|fq] [--backend NAME] [HEX...]
    poseidon permute [--params kimchi|legacy] [--field fp|fq] [--backend NAME] HEX HEX HEX
    poseidon check   [--backend NAME] FILE...
    poseidon backends
    poseidon --help | --version

Elements are 32 bytes of little-endian hex (64 digits), as in Mina's test vectors.
Defaults: --params kimchi --field fp, and the build's default backend.
Backends: `poseidon backends` lists them (the crate's docs, module `backend`,
say what each is); every one computes the same results.

hash     absorbs the elements into a fresh sponge and prints one squeezed element.
permute  prints the permutation of a three-element state, one element per line.
backends prints the backends' names, one per line, the default first.
check    verifies vector files (Mina's format; `name` selects kimchi, legacy,
         kimchi-fq, legacy-fq, kimchi-permutation or kimchi-fq-permutation),
         prints a line per file and a final `N passed, M failed` over vectors.

Exit status: 0 on success, 1 if a vector failed or a file was unusable, 2 on bad usage or input.";

/// Exit status for bad usage or bad input.
const USAGE_ERROR: u8 = 2;

/// A failure that ends the command with a message.
struct Failure(u8, String);

fn usage_error(msg: impl Into<String>) -> Failure {
    Failure(
        USAGE_ERROR,
        format!("{}\nRun `poseidon --help` for usage.", msg.into()),
    )
}

/// An arithmetic backend chosen on the command line: a name of the library's
/// list (`poseidon::backend::NAMES`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct BackendName(&'static str);

impl BackendName {
    fn parse(s: &str) -> Result<Self, Failure> {
        NAMES
            .iter()
            .find(|n| **n == s)
            .map(|n| BackendName(n))
            .ok_or_else(|| {
                let (last, rest) = NAMES.split_last().expect("the list has backends");
                usage_error(format!(
                    "unknown backend {s:?} (expected {} or {last})",
                    rest.join(", ")
                ))
            })
    }

    fn default() -> Self {
        Self::parse(poseidon::DEFAULT_BACKEND.0).unwrap_or(BackendName("reference"))
    }
}

/// Runs `$body` with `$b` bound to the chosen backend type (through the library's
/// list, `poseidon::for_each_backend!`).
macro_rules! with_backend {
    ($name:expr, $b:ident => $body:expr) => {{
        let wanted: BackendName = $name;
        let mut out = None;
        poseidon::for_each_backend!(|name, $b| {
            if out.is_none() && name == wanted.0 {
                out = Some($body);
            }
        });
        out.expect("a BackendName is a name of the list")
    }};
}

/// `--params` / `--field` / `--backend` options and the positional arguments.
struct ElementArgs {
    set: ParamSet,
    field: FieldId,
    backend: BackendName,
    elements: Vec<String>,
}

fn parse_element_args(args: &[String]) -> Result<ElementArgs, Failure> {
    let mut parsed = ElementArgs {
        set: ParamSet::Kimchi,
        field: FieldId::Fp,
        backend: BackendName::default(),
        elements: Vec::new(),
    };
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let (key, inline) = match arg.split_once('=') {
            Some((k, v)) if k.starts_with("--") => (k, Some(v.to_owned())),
            _ => (arg.as_str(), None),
        };
        let mut value = || {
            inline
                .clone()
                .or_else(|| it.next().cloned())
                .ok_or_else(|| usage_error(format!("{key} needs a value")))
        };
        match key {
            "--params" => {
                parsed.set = value()?
                    .parse()
                    .map_err(|e: Error| usage_error(e.to_string()))?
            }
            "--field" => {
                parsed.field = value()?
                    .parse()
                    .map_err(|e: Error| usage_error(e.to_string()))?
            }
            "--backend" => parsed.backend = BackendName::parse(&value()?)?,
            "--" => parsed.elements.extend(it.by_ref().cloned()),
            k if k.starts_with("--") => return Err(usage_error(format!("unknown option {k}"))),
            _ => parsed.elements.push(arg.clone()),
        }
    }
    Ok(parsed)
}

fn decode<F: PastaField<BigInt = BigInt<4>>>(hex: &[String]) -> Result<Vec<F>, Failure> {
    hex.iter()
        .enumerate()
        .map(|(i, h)| {
            encoding::from_hex(h)
                .map_err(|e| Failure(USAGE_ERROR, format!("element {} ({h:?}): {e}", i + 1)))
        })
        .collect()
}

fn hash_in<F: PastaField<BigInt = BigInt<4>>, B: Backend>(
    a: &ElementArgs,
) -> Result<Vec<String>, Failure> {
    let inputs = decode::<F>(&a.elements)?;
    Ok(vec![encoding::to_hex(poseidon::hash_with::<F, B>(
        a.set, &inputs,
    ))])
}

fn permute_in<F: PastaField<BigInt = BigInt<4>>, B: Backend>(
    a: &ElementArgs,
) -> Result<Vec<String>, Failure> {
    let mut state: [F; WIDTH] = decode::<F>(&a.elements)?.try_into().map_err(|v: Vec<F>| {
        usage_error(format!(
            "permute takes exactly {WIDTH} elements, got {}",
            v.len()
        ))
    })?;
    poseidon::permute_with::<F, B>(a.set, &mut state);
    Ok(state.iter().copied().map(encoding::to_hex).collect())
}

fn cmd_elements(args: &[String], permute: bool, out: &mut dyn Write) -> Result<(), Failure> {
    let a = parse_element_args(args)?;
    if permute && a.elements.len() != WIDTH {
        return Err(usage_error(format!(
            "permute takes exactly {WIDTH} elements, got {}",
            a.elements.len()
        )));
    }
    let lines = with_backend!(a.backend, B => match (a.field, permute) {
        (FieldId::Fp, false) => hash_in::<Fp, B>(&a)?,
        (FieldId::Fq, false) => hash_in::<Fq, B>(&a)?,
        (FieldId::Fp, true) => permute_in::<Fp, B>(&a)?,
        (FieldId::Fq, true) => permute_in::<Fq, B>(&a)?,
    });
    for line in lines {
        writeln!(out, "{line}").map_err(|e| Failure(1, format!("cannot write output: {e}")))?;
    }
    Ok(())
}

/// Checks one file; returns (vectors passed, vectors failed), a malformed or
/// unreadable file counting as one failure.
fn check_file(
    path: &str,
    backend: BackendName,
    out: &mut dyn Write,
) -> std::io::Result<(usize, usize)> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) => {
            writeln!(out, "ERROR {path}: cannot read: {e}")?;
            return Ok((0, 1));
        }
    };
    let result = vectors::parse(&text)
        .and_then(|f| Ok((f.kind, with_backend!(backend, B => f.check::<B>())?)));
    match result {
        Ok((kind, report)) if report.failed.is_empty() => {
            writeln!(
                out,
                "ok    {path}: {} ({} vectors)",
                kind.name(),
                report.passed
            )?;
            Ok((report.passed, 0))
        }
        Ok((kind, report)) => {
            let total = report.passed + report.failed.len();
            writeln!(
                out,
                "FAIL  {path}: {} ({} of {total} vectors failed)",
                kind.name(),
                report.failed.len()
            )?;
            for m in &report.failed {
                writeln!(
                    out,
                    "      vector {}: expected {}, got {}",
                    m.index,
                    m.expected.join(" "),
                    m.actual.join(" ")
                )?;
            }
            Ok((report.passed, report.failed.len()))
        }
        Err(e @ VectorError::Malformed { .. }) => {
            writeln!(out, "ERROR {path}: malformed {e}")?;
            Ok((0, 1))
        }
        Err(e) => {
            writeln!(out, "ERROR {path}: {e}")?;
            Ok((0, 1))
        }
    }
}

fn cmd_check(args: &[String], out: &mut dyn Write) -> Result<(), Failure> {
    if let Some(opt) = args
        .iter()
        .find(|a| a.starts_with("--params") || a.starts_with("--field"))
    {
        return Err(usage_error(format!(
            "check takes no {opt}: each file's name says its parameter set and field"
        )));
    }
    let a = parse_element_args(args)?;
    let files = a.elements;
    if files.is_empty() {
        return Err(usage_error("check needs at least one FILE"));
    }
    let io = |e: std::io::Error| Failure(1, format!("cannot write output: {e}"));
    let (mut passed, mut failed) = (0, 0);
    for f in &files {
        let (p, q) = check_file(f, a.backend, out).map_err(io)?;
        passed += p;
        failed += q;
    }
    writeln!(out, "{passed} passed, {failed} failed").map_err(io)?;
    if failed > 0 {
        return Err(Failure(1, String::new()));
    }
    Ok(())
}

/// `backends`: the names, the build's default first.
fn cmd_backends(args: &[String], out: &mut dyn Write) -> Result<(), Failure> {
    if let Some(a) = args.first() {
        return Err(usage_error(format!(
            "backends takes no arguments, got {a:?}"
        )));
    }
    let default = BackendName::default().0;
    let names = std::iter::once(default).chain(NAMES.iter().copied().filter(|n| *n != default));
    for n in names {
        writeln!(out, "{n}").map_err(|e| Failure(1, format!("cannot write output: {e}")))?;
    }
    Ok(())
}

/// Runs the tool on `args` (without the program name); returns the exit status.
fn run(args: &[String], out: &mut dyn Write, err: &mut dyn Write) -> u8 {
    let result = match args.first().map(String::as_str) {
        Some("hash") => cmd_elements(&args[1..], false, out),
        Some("permute") => cmd_elements(&args[1..], true, out),
        Some("check") => cmd_check(&args[1..], out),
        Some("backends") => cmd_backends(&args[1..], out),
        Some("help" | "--help" | "-h") => {
            writeln!(out, "{USAGE}").map_err(|e| Failure(1, format!("cannot write output: {e}")))
        }
        Some("--version" | "-V") => writeln!(out, "poseidon {}", env!("CARGO_PKG_VERSION"))
            .map_err(|e| Failure(1, format!("cannot write output: {e}"))),
        Some(other) => Err(usage_error(format!("unknown command {other:?}"))),
        None => Err(usage_error("missing command")),
    };
    match result {
        Ok(()) => 0,
        Err(Failure(code, msg)) => {
            if !msg.is_empty() {
                // Nothing sensible is left to do if stderr itself fails.
                let _ = writeln!(err, "poseidon: {msg}");
            }
            code
        }
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let code = run(
        &args,
        &mut std::io::stdout().lock(),
        &mut std::io::stderr().lock(),
    );
    ExitCode::from(code)
}

#[cfg(test)]
mod tests;
