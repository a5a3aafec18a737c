//! `fma-kernel`: writes the generated FMA kernel module (see the library's docs).
//!
//! ```text
//! fma-kernel [--field fp|fq] [--linked] --out MODULE.wasm [--wat FILE.wat]
//! ```

use std::path::PathBuf;
use std::process::ExitCode;

use poseidon_fma_kernel::{generate, Memory, Which};

const USAGE: &str =
    "usage: fma-kernel [--field fp|fq] [--linked] --out MODULE.wasm [--wat FILE.wat]
  Writes the kimchi permutation's FMA kernel module (Fp by default).
  --linked   import env.memory, for merging into the package's module (js/build.mjs)
  --wat      also write the module's text";

fn run(args: &[String]) -> Result<(), String> {
    let (mut which, mut out, mut wat_out, mut memory) = (Which::Fp, None, None, Memory::Own);
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
            "-h" | "--help" => return Err(String::new()),
            other => return Err(format!("unknown argument {other}")),
        }
    }
    let out = out.ok_or("--out is required")?;
    let m = generate(which, memory);
    let bytes =
        wat::parse_str(&m.wat).map_err(|e| format!("the generated text does not assemble: {e}"))?;
    let write = |path: &PathBuf, data: &[u8]| -> Result<(), String> {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        }
        std::fs::write(path, data).map_err(|e| format!("{}: {e}", path.display()))
    };
    write(&out, &bytes)?;
    if let Some(w) = &wat_out {
        write(w, m.wat.as_bytes())?;
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
