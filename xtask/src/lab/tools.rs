//! The tools the lab runs, found on PATH or installed where missing (as root,
//! where apt-get exists, as in CI), and the facts about the machine its reports
//! record.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

pub use crate::runner::say;

use super::WASM;

/// The wasmtime the project is tested with (`cargo install --locked wasmtime-cli@…`).
pub const WASMTIME_VERSION: &str = "48.0.8";
/// The PyPI package wasmtime the Wasm counts pin (its fuel and Cranelift).
pub const WASMTIME_PY: &str = "48.0.0";

/// The executable `tool` on PATH.
pub fn which(tool: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|d| d.join(tool))
        .find(|p| p.is_file())
}

/// Whether `tool` is on PATH.
pub fn on_path(tool: &str) -> bool {
    which(tool).is_some()
}

/// An error naming what failed, from an I/O result.
pub fn io<T>(what: &Path, r: std::io::Result<T>) -> Result<T, String> {
    r.map_err(|e| format!("{}: {e}", what.display()))
}

/// `cmd`'s standard output, trimmed, when it ran and succeeded.
pub fn stdout_of(cmd: &mut Command) -> Option<String> {
    let o = cmd.stderr(Stdio::null()).output().ok()?;
    o.status
        .success()
        .then(|| String::from_utf8_lossy(&o.stdout).trim().to_owned())
}

/// `program args…`'s first line, or `fallback`.
pub fn version_line(program: &str, args: &[&str], fallback: &str) -> String {
    stdout_of(Command::new(program).args(args))
        .and_then(|s| s.lines().next().map(str::to_owned))
        .unwrap_or_else(|| fallback.to_owned())
}

/// Runs `cmd` (its output to the terminal); an error names `what`.
pub fn run(cmd: &mut Command, what: &str) -> Result<(), String> {
    let status = cmd.status().map_err(|e| format!("{what}: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("{what} failed ({status})"))
    }
}

/// cargo's bin directory (rustup, `cargo install wasmtime-cli`) after PATH, for the
/// tasks that build here. The prebuilt runs (the Nix apps) leave PATH as their
/// wrapper set it: exactly the tools the flake pins.
pub fn cargo_bin_on_path() {
    let home = std::env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| Path::new(&h).join(".cargo")));
    let (Some(home), Some(path)) = (home, std::env::var_os("PATH")) else {
        return;
    };
    let mut dirs: Vec<PathBuf> = std::env::split_paths(&path).collect();
    let bin = home.join("bin");
    if !dirs.contains(&bin) {
        dirs.push(bin);
        if let Ok(p) = std::env::join_paths(dirs) {
            std::env::set_var("PATH", p);
        }
    }
}

fn is_root() -> bool {
    stdout_of(Command::new("id").arg("-u")).is_some_and(|u| u == "0")
}

/// `tool` on PATH, else Debian's `package` installed (as root where apt-get
/// exists); false when `tool` is still missing.
pub fn ensure_apt(tool: &str, package: &str) -> bool {
    if on_path(tool) {
        return true;
    }
    if is_root() && on_path("apt-get") {
        say(&format!(
            "{tool} not found: installing Debian's {package} (apt-get install -y {package})"
        ));
        let install = || {
            Command::new("apt-get")
                .args(["install", "-y", "-q", package])
                .env("DEBIAN_FRONTEND", "noninteractive")
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .status()
                .is_ok_and(|s| s.success())
        };
        if !install() {
            let _ = Command::new("apt-get")
                .args(["update", "-q"])
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .status();
            install();
        }
    }
    on_path(tool)
}

/// The toolchain of rust-toolchain.toml with its wasm targets.
pub fn ensure_rust(root: &Path) -> Result<(), String> {
    if !on_path("cargo") {
        return Err("cargo not found on PATH. Install Rust with rustup (https://rustup.rs); rust-toolchain.toml selects the version.".into());
    }
    if on_path("rustup") {
        let installed = stdout_of(
            Command::new("rustup")
                .args(["target", "list", "--installed"])
                .current_dir(root),
        )
        .unwrap_or_default();
        for t in [WASM, "wasm32-unknown-unknown"] {
            if !installed.lines().any(|l| l.trim() == t) {
                say(&format!("adding the {t} target (rustup target add)"));
                run(
                    Command::new("rustup")
                        .args(["target", "add", t])
                        .current_dir(root),
                    &format!("rustup target add {t}"),
                )?;
            }
        }
        Ok(())
    } else if stdout_of(Command::new("rustc").args(["--print", "target-libdir", "--target", WASM]))
        .is_some()
    {
        Ok(())
    } else {
        Err(format!(
            "the {WASM} standard library is missing and rustup is not available to add it"
        ))
    }
}

/// wasmtime on PATH; installed from crates.io only when missing (20+ minutes on 2
/// cores), unless `POSEIDON_NO_INSTALL=1`.
pub fn ensure_wasmtime() -> Result<(), String> {
    let how = format!("cargo install --locked wasmtime-cli@{WASMTIME_VERSION}");
    if !on_path("wasmtime") {
        if std::env::var("POSEIDON_NO_INSTALL").is_ok_and(|v| v == "1") || !on_path("cargo") {
            return Err(format!("wasmtime not found on PATH. Install it: {how}"));
        }
        say(&format!("wasmtime not found: installing wasmtime-cli {WASMTIME_VERSION} from crates.io (20+ minutes on 2 cores)"));
        run(
            Command::new("cargo").args([
                "install",
                "--locked",
                &format!("wasmtime-cli@{WASMTIME_VERSION}"),
            ]),
            "installing wasmtime",
        )
        .map_err(|e| format!("{e}. Install it yourself: {how}"))?;
        cargo_bin_on_path();
    }
    let v = version_line("wasmtime", &["--version"], "wasmtime unknown");
    let major: u32 = v
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.split('.').next())
        .and_then(|m| m.parse().ok())
        .unwrap_or(0);
    if major < 46 {
        say(&format!("warning: {v}; the project is tested with wasmtime {WASMTIME_VERSION} (46+ takes arguments after the module)"));
    }
    Ok(())
}

/// A Python with the PyPI package wasmtime (the release the counts pin):
/// `COUNT_PYTHON` when set (nix develop sets it), else `target/counts/venv`,
/// installed when missing.
pub fn ensure_wasmtime_py(root: &Path) -> Result<PathBuf, String> {
    if let Some(p) = std::env::var_os("COUNT_PYTHON").filter(|p| !p.is_empty()) {
        let ok = Command::new(&p)
            .args(["-c", "import wasmtime"])
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        return if ok {
            Ok(p.into())
        } else {
            Err(format!(
                "COUNT_PYTHON={} cannot import wasmtime",
                p.to_string_lossy()
            ))
        };
    }
    if !ensure_apt("python3", "python3") {
        return Err(
            "python3 not found: install it (Debian: apt-get install python3 python3-venv)".into(),
        );
    }
    let venv = root.join("target/counts/venv");
    let python = venv.join("bin/python");
    let check = format!(
        "import wasmtime, importlib.metadata as m; assert m.version('wasmtime') == '{WASMTIME_PY}'"
    );
    let have = Command::new(&python)
        .args(["-c", &check])
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !have {
        say(&format!(
            "installing the PyPI package wasmtime=={WASMTIME_PY} into {} (for the Wasm counts)",
            venv.display()
        ));
        run(
            Command::new("python3")
                .args(["-m", "venv"])
                .arg(&venv)
                .stdout(Stdio::null()),
            "python3 -m venv (Debian: apt-get install python3-venv)",
        )?;
        run(
            Command::new(venv.join("bin/pip"))
                .args(["install", "-q", &format!("wasmtime=={WASMTIME_PY}")])
                .stdout(Stdio::null()),
            &format!("pip install wasmtime=={WASMTIME_PY} (needs PyPI)"),
        )?;
    }
    Ok(python)
}

/// Chromium, for the JavaScript package's browser check and benchmark.
pub fn ensure_chromium() -> bool {
    ensure_apt("chromium", "chromium")
}

/// Firefox ESR (SpiderMonkey), for the JavaScript package's browser check.
pub fn ensure_firefox() -> bool {
    ensure_apt("firefox-esr", "firefox-esr")
}

/// WebKitGTK's MiniBrowser (with its driver, Debian's webkit2gtk-driver, which
/// brings libwebkit2gtk-4.1-0 and so MiniBrowser) and xvfb-run, its display.
pub fn ensure_webkit() -> bool {
    ensure_apt("WebKitWebDriver", "webkit2gtk-driver") && ensure_apt("xvfb-run", "xvfb")
}

/// JavaScriptCore's `jsc` shell: Debian's libjavascriptcoregtk-4.0-bin (WebKitGTK).
pub fn ensure_jsc() -> bool {
    ensure_apt("jsc", "libjavascriptcoregtk-4.0-bin")
}

/// Nix for the offline flake checks: Debian's nix-bin (Nix 2.8).
pub fn ensure_nix() -> bool {
    ensure_apt("nix", "nix-bin")
}

/// The settings that let Nix 2.8 check a flake offline (no substituters, no registry).
pub const OFFLINE_NIX_CONFIG: &str =
    "experimental-features = nix-command flakes\nsubstituters =\nflake-registry = /dev/null";

/// The flags cargo gives rustc for the host (RUSTFLAGS, else
/// CARGO_TARGET_<HOST>_RUSTFLAGS), which the counts' key and the report record.
pub fn native_rustflags() -> String {
    if let Ok(f) = std::env::var("RUSTFLAGS") {
        if !f.is_empty() {
            return f;
        }
    }
    let host = stdout_of(Command::new("rustc").arg("-vV"))
        .and_then(|o| {
            o.lines()
                .find_map(|l| l.strip_prefix("host: ").map(str::to_owned))
        })
        .unwrap_or_default();
    let var = format!(
        "CARGO_TARGET_{}_RUSTFLAGS",
        host.to_uppercase().replace(['.', '-'], "_")
    );
    std::env::var(var).unwrap_or_default()
}

/// The CPU's name (/proc/cpuinfo, sysctl on macOS), else the architecture.
pub fn cpu_model() -> String {
    if let Ok(info) = std::fs::read_to_string("/proc/cpuinfo") {
        if let Some(m) = cpu_model_of(&info) {
            return m;
        }
    } else if let Some(m) =
        stdout_of(Command::new("sysctl").args(["-n", "machdep.cpu.brand_string"]))
    {
        return m;
    }
    std::env::consts::ARCH.to_owned()
}

/// The model name in a `/proc/cpuinfo`, with the family and model numbers where
/// x86 gives them: a VM may name only the vendor's line ("AMD EPYC"), and two
/// generations behind one name measure differently.
pub fn cpu_model_of(info: &str) -> Option<String> {
    let field = |names: &[&str]| {
        info.lines().find_map(|l| {
            let (k, v) = l.split_once(':')?;
            names.contains(&k.trim()).then(|| v.trim().to_owned())
        })
    };
    let name = field(&["model name", "Model", "Hardware"]).filter(|m| !m.is_empty())?;
    Some(match (field(&["cpu family"]), field(&["model"])) {
        (Some(f), Some(m)) => format!("{name} (family {f}, model {m})"),
        _ => name,
    })
}

/// The cores this process may run on (what coreutils' nproc prints).
pub fn cores() -> String {
    std::thread::available_parallelism().map_or_else(|_| "unknown".into(), |n| n.to_string())
}

/// `dir`'s commit, "-dirty" with uncommitted changes; None outside git.
pub fn git_commit(dir: &Path) -> Option<String> {
    let c = stdout_of(
        Command::new("git")
            .arg("-C")
            .arg(dir)
            .args(["rev-parse", "HEAD"]),
    )?;
    let clean = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(["diff", "--quiet", "HEAD"])
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    Some(if clean { c } else { format!("{c}-dirty") })
}

/// Now, as `date -u +%Y-%m-%dT%H:%M:%SZ` prints it.
pub fn utc_now() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    utc(secs)
}

/// A Unix time as `YYYY-MM-DDTHH:MM:SSZ` (the civil calendar from days, after
/// Howard Hinnant's algorithm).
pub fn utc(secs: u64) -> String {
    let (days, rest) = ((secs / 86_400) as i64, secs % 86_400);
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z",
        rest / 3600,
        rest / 60 % 60,
        rest % 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cpu_is_named_with_its_family_and_model() {
        let x86 = "processor\t: 0\nvendor_id\t: AuthenticAMD\ncpu family\t: 26\nmodel\t\t: 2\nmodel name\t: AMD EPYC\n";
        assert_eq!(
            cpu_model_of(x86).as_deref(),
            Some("AMD EPYC (family 26, model 2)")
        );
        let arm = "processor\t: 0\nBogoMIPS\t: 50.00\nModel\t\t: Raspberry Pi 4\n";
        assert_eq!(cpu_model_of(arm).as_deref(), Some("Raspberry Pi 4"));
        assert_eq!(cpu_model_of("processor\t: 0\n"), None);
    }

    #[test]
    fn utc_matches_known_dates() {
        assert_eq!(utc(0), "1970-01-01T00:00:00Z");
        assert_eq!(utc(951_782_400), "2000-02-29T00:00:00Z");
        // 2026-12-06T01:09:23Z, as `date -u +%s` gave it.
        assert_eq!(utc(1_796_519_363), "2026-12-06T01:09:23Z");
    }
}
