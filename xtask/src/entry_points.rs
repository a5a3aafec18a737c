//! The entry-point table of ARCHITECTURE.md against what the entry points are:
//! every make target (`make help`), every task (`cargo xtask --help`) and every
//! app (`nix/apps.nix`) has a row, no row names one that is gone, and a make
//! target or an app runs what its row says (the row's first code span starts its
//! recipe, or names the app's task).

use std::collections::BTreeSet;
use std::path::Path;
use std::process::Command;

/// The heading the table sits under.
const HEADING: &str = "## Entry points";

/// The table's rows: (entry point, the first code span of what it runs).
fn rows(architecture: &str) -> Vec<(String, String)> {
    let Some(at) = architecture.find(HEADING) else {
        return Vec::new();
    };
    let section = &architecture[at + HEADING.len()..];
    let section = &section[..section.find("\n## ").unwrap_or(section.len())];
    let code = |cell: &str| cell.split('`').nth(1).unwrap_or("").to_owned();
    section
        .lines()
        .filter(|l| l.starts_with("| `"))
        .filter_map(|l| {
            let cells: Vec<&str> = l.split(" | ").collect();
            Some((code(cells.first()?), code(cells.get(1)?)))
        })
        .collect()
}

/// The first recipe line of each target of the Makefile (`@` dropped).
fn recipes(makefile: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut lines = makefile.lines().peekable();
    while let Some(l) = lines.next() {
        let Some((target, _)) = l.split_once(':') else {
            continue;
        };
        if target.is_empty() || !target.bytes().all(|b| b.is_ascii_lowercase() || b == b'-') {
            continue;
        }
        if let Some(r) = lines.peek().and_then(|r| r.strip_prefix('\t')) {
            out.push((target.to_owned(), r.trim_start_matches('@').to_owned()));
        }
    }
    out
}

/// The apps of nix/apps.nix and the xtask task each runs.
fn apps(apps_nix: &str) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = apps_nix
        .lines()
        .filter_map(|l| l.trim().split_once(" = app \""))
        .map(|(name, _)| (name.to_owned(), "bench".to_owned()))
        .collect();
    if apps_nix.contains("inherit counts;") {
        let task = apps_nix
            .split("APP_TASK = \"")
            .nth(1)
            .and_then(|r| r.split('"').next())
            .unwrap_or("bench");
        out.push(("counts".into(), task.to_owned()));
    }
    out
}

/// What differs between the table and the entry points (empty: none).
pub fn findings(
    architecture: &str,
    make_help: &str,
    makefile: &str,
    xtask_help: &str,
    apps_nix: &str,
) -> Vec<String> {
    let rows = rows(architecture);
    let mut out = Vec::new();
    if rows.is_empty() {
        return vec![format!("no table under {HEADING:?}")];
    }
    let listed = |prefix: &str| -> BTreeSet<String> {
        rows.iter()
            .filter_map(|(e, _)| e.strip_prefix(prefix).map(str::to_owned))
            .collect()
    };
    let mut compare = |what: &str, table: BTreeSet<String>, real: BTreeSet<String>| {
        for m in real.difference(&table) {
            out.push(format!("{what} {m} has no row"));
        }
        for m in table.difference(&real) {
            out.push(format!("the row of {what} {m} names none that exists"));
        }
    };
    let targets: BTreeSet<String> = make_help
        .lines()
        .filter_map(|l| l.split_whitespace().next().map(str::to_owned))
        .collect();
    compare("make target", listed("make "), targets);
    let tasks: BTreeSet<String> = xtask_help
        .lines()
        .skip_while(|l| !l.starts_with("tasks:"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next().map(str::to_owned))
        .collect();
    compare("cargo xtask task", listed("cargo xtask "), tasks);
    let apps = apps(apps_nix);
    compare(
        "app",
        listed("nix run .#"),
        apps.iter().map(|(a, _)| a.clone()).collect(),
    );
    for (target, recipe) in recipes(makefile) {
        if let Some((_, runs)) = rows.iter().find(|(e, _)| *e == format!("make {target}")) {
            if runs.is_empty() || !recipe.starts_with(runs.as_str()) {
                out.push(format!(
                    "make {target} runs `{recipe}`; its row says `{runs}`"
                ));
            }
        }
    }
    for (app, task) in apps {
        if let Some((_, runs)) = rows.iter().find(|(e, _)| *e == format!("nix run .#{app}")) {
            if runs.split_whitespace().take(2).collect::<Vec<_>>() != ["xtask", task.as_str()] {
                out.push(format!(
                    "app {app} runs xtask {task}; its row says `{runs}`"
                ));
            }
        }
    }
    out
}

/// The table of `root`'s ARCHITECTURE.md against `make help`, this program's
/// `--help` and nix/apps.nix.
pub fn check(root: &Path) -> Result<Vec<String>, String> {
    let read = |f: &str| std::fs::read_to_string(root.join(f)).map_err(|e| format!("{f}: {e}"));
    let output = |cmd: &mut Command, what: &str| -> Result<String, String> {
        let o = cmd.output().map_err(|e| format!("{what}: {e}"))?;
        if !o.status.success() {
            return Err(format!("{what} failed"));
        }
        Ok(String::from_utf8_lossy(&o.stdout).into_owned())
    };
    let exe = std::env::current_exe().map_err(|e| format!("this program's path: {e}"))?;
    let xtask_help = output(Command::new(exe).arg("--help"), "xtask --help")?;
    let make_help = output(
        Command::new("make").args(["-s", "help"]).current_dir(root),
        "make help",
    )?;
    Ok(findings(
        &read("ARCHITECTURE.md")?,
        &make_help,
        &read("Makefile")?,
        &xtask_help,
        &read("nix/apps.nix")?,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    const ARCH: &str = "# A\n\n## Entry points\n\n| entry point | what it runs |\n| --- | --- |\n| `make help` | `grep -E 'x'` over it |\n| `make bench` | `cargo xtask bench --` with ARGS |\n| `cargo xtask bench` | builds, runs |\n| `nix run .#bench` | `xtask bench` on prebuilt binaries |\n| `nix run .#counts` | `xtask counts` |\n\n## Next\n| `make gone` | `x` |\n";
    const MAKEFILE: &str = "ARGS ?=\n\nhelp: ## List\n\t@grep -E 'x' $(MAKEFILE_LIST)\n\nbench: ## Bench\n\tcargo xtask bench -- $(value ARGS)\n";
    const HELP: &str =
        "usage: cargo xtask TASK\n\ntasks:\n  bench             the benchmark\n\nEach tier ...\n";
    const APPS: &str = "  rec {\n    bench = app \"bench\" [\"native\"] \"Run\";\n  }\n  // lib.optionalAttrs packages.withCounts {inherit counts;}\n  runtimeEnv = packages.countEnv // {APP_TASK = \"counts\";};\n";

    #[test]
    fn a_table_that_matches_has_no_finding() {
        let make_help = "help   List\nbench  Bench\n";
        assert_eq!(
            findings(ARCH, make_help, MAKEFILE, HELP, APPS),
            Vec::<String>::new()
        );
    }

    #[test]
    fn a_missing_row_a_stale_row_and_a_wrong_recipe_are_found() {
        let make_help = "help   List\nbench  Bench\nnodes  Nodes\n";
        let help = HELP.replace("  bench ", "  nodes ");
        let makefile = MAKEFILE.replace("cargo xtask bench --", "bash scripts/bench.sh");
        let apps = APPS.replace("APP_TASK = \"counts\"", "APP_TASK = \"bench\"");
        let f = findings(ARCH, make_help, &makefile, &help, &apps);
        for want in [
            "make target nodes has no row",
            "cargo xtask task nodes has no row",
            "the row of cargo xtask task bench names none that exists",
            "make bench runs `bash scripts/bench.sh $(value ARGS)`; its row says `cargo xtask bench --`",
            "app counts runs xtask bench; its row says `xtask counts`",
        ] {
            assert!(f.iter().any(|x| x == want), "{want:?} not in {f:?}");
        }
        assert_eq!(f.len(), 5, "{f:?}");
    }
}
