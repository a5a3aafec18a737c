//! `fma-kernel`: writes the generated FMA kernel module (see the library's docs),
//! or merges both kernels into a Rust module that imports them.
//!
//! ```text
//! fma-kernel [--field fp|fq] [--linked] --out MODULE.wasm [--wat FILE.wat]
//! fma-kernel --merge RUST.wasm --binaryen DIR --out MERGED.wasm
//! ```

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

use poseidon_fma_kernel::{generate, Memory, Which};

const USAGE: &str =
    "usage: fma-kernel [--field fp|fq] [--linked] --out MODULE.wasm [--wat FILE.wat]
       fma-kernel --merge RUST.wasm --binaryen DIR --out MERGED.wasm
  Writes the kimchi permutation's FMA kernel module (Fp by default).
  --linked    import env.memory, for merging into a Rust module
  --wat       also write the module's text
  --merge     generate the Fp and Fq kernels (--linked) and merge them into RUST.wasm,
              which imports them from modules poseidon_fma and poseidon_fma_fq (the
              package's fma module, js/build.mjs; the lab's fma benchmark, cargo
              xtask bench): binaryen's wasm-merge, then wasm-opt removes the kernels'
              exports; DIR holds both (binaryen's bin/, or node_modules/.bin)";

/// binaryen's features for `tool` in `dir`: all, but the compact import section
/// where that binaryen knows it (version 132, the package's, would otherwise write
/// it for a module with imports left, a WASI program's, and wasmtime 48 and Node
/// reject it; a binaryen without the flag does not write it).
fn features(dir: &Path, tool: &str) -> Vec<OsString> {
    let help = Command::new(dir.join(tool)).arg("--help").output();
    let knows = help
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).contains("--disable-compact-imports"));
    let mut f = vec![OsString::from("-all")];
    if knows {
        f.push("--disable-compact-imports".into());
    }
    f
}

/// Writes `data` to `path`, creating its directory.
fn write(path: &Path, data: &[u8]) -> Result<(), String> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    std::fs::write(path, data).map_err(|e| format!("{}: {e}", path.display()))
}

/// The kernel of `which` with `memory`, assembled.
fn kernel(which: Which, memory: Memory) -> Result<(Vec<u8>, String), String> {
    let m = generate(which, memory);
    let bytes =
        wat::parse_str(&m.wat).map_err(|e| format!("the generated text does not assemble: {e}"))?;
    Ok((bytes, m.wat))
}

/// Runs binaryen's `tool` from `dir` with `args`; its messages are shown only
/// when it fails (wasm-merge warns of name subsections it does not know).
fn binaryen(dir: &Path, tool: &str, args: &[OsString]) -> Result<(), String> {
    let bin = dir.join(tool);
    let o = Command::new(&bin).args(args).output().map_err(|e| {
        format!(
            "{}: {e} (--binaryen names binaryen's bin directory)",
            bin.display()
        )
    })?;
    if o.status.success() {
        Ok(())
    } else {
        Err(format!(
            "{} failed ({}):\n{}{}",
            bin.display(),
            o.status,
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        ))
    }
}

/// The kernels merged into `rust` (a module named env, whose memory they import):
/// it takes its `poseidon_fma` and `poseidon_fma_fq` imports from their exports
/// (the same names in both: the Fq kernel's get a suffix in the merged module; the
/// imports still resolve), and the kernels' exports are removed afterwards (a
/// caller of `fma_init` with a wrong base would write anywhere). The steps'
/// files go beside `rust`.
fn merge(rust: &Path, dir: &Path, out: &Path) -> Result<(), String> {
    // The kernels and the merged module beside the Rust module (a build directory).
    let stem = rust.with_extension("").into_os_string();
    let beside = |suffix: &str| {
        let mut p = stem.clone();
        p.push(suffix);
        PathBuf::from(p)
    };
    let mut args = features(dir, "wasm-merge");
    args.extend(["-g", "--rename-export-conflicts"].map(Into::into));
    args.extend([rust.as_os_str().into(), "env".into()]);
    for (which, name, imports) in [
        (Which::Fp, "fp", "poseidon_fma"),
        (Which::Fq, "fq", "poseidon_fma_fq"),
    ] {
        let path = beside(&format!("-kernel-{name}.wasm"));
        write(&path, &kernel(which, Memory::Imported)?.0)?;
        args.extend([path.into(), imports.into()]);
    }
    let merged = beside("-merged.wasm");
    args.extend(["-o".into(), merged.clone().into()]);
    binaryen(dir, "wasm-merge", &args)?;
    let mut args = features(dir, "wasm-opt");
    args.extend(["-g".into(), merged.into()]);
    args.extend(["--remove-exports", "--pass-arg=remove-exports@fma_*", "-o"].map(Into::into));
    args.push(out.into());
    binaryen(dir, "wasm-opt", &args)?;
    println!(
        "wrote {} ({} merged with the Fp and Fq kernels)",
        out.display(),
        rust.display()
    );
    Ok(())
}

fn run(args: &[String]) -> Result<(), String> {
    let (mut which, mut out, mut wat_out, mut memory) = (Which::Fp, None, None, Memory::Own);
    let (mut rust, mut dir) = (None, None);
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = || it.next().cloned().ok_or(format!("{a} needs a value"));
        match a.as_str() {
            "--field" => {
                which = match value()?.as_str() {
                    "fp" => Which::Fp,
                    "fq" => Which::Fq,
                    other => return Err(format!("--field: fp or fq, not {other}")),
                }
            }
            "--out" => out = Some(PathBuf::from(value()?)),
            "--linked" => memory = Memory::Imported,
            "--wat" => wat_out = Some(PathBuf::from(value()?)),
            "--merge" => rust = Some(PathBuf::from(value()?)),
            "--binaryen" => dir = Some(PathBuf::from(value()?)),
            "-h" | "--help" => return Err(String::new()),
            other => return Err(format!("unknown argument {other}")),
        }
    }
    let out = out.ok_or("--out is required")?;
    if let Some(rust) = rust {
        let dir = dir.ok_or("--merge needs --binaryen DIR")?;
        return merge(&rust, &dir, &out);
    }
    let (bytes, text) = kernel(which, memory)?;
    write(&out, &bytes)?;
    if let Some(w) = &wat_out {
        write(w, text.as_bytes())?;
    }
    println!(
        "wrote {} ({} bytes, {which:?} kimchi)",
        out.display(),
        bytes.len()
    );
    Ok(())
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(msg) if msg.is_empty() => {
            println!("{USAGE}");
            ExitCode::SUCCESS
        }
        Err(msg) => {
            eprintln!("fma-kernel: {msg}\n{USAGE}");
            ExitCode::from(2)
        }
    }
}
