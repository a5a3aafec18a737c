//! One process per benchmark ID. A benchmark's time must not depend on which
//! benchmarks ran before it in the same process (the CPU's state, the engine's
//! tiering and code layout, the allocator's heap all carry over), so the lab's
//! runs (`cargo xtask bench`, `cargo xtask ab`) list the IDs a filter selects
//! (criterion's `--list`) and measure each in a process of its own
//! (`--exact ID`): an ID then measures the same alone and in the full set.

use std::process::Command;

/// Criterion 0.8's options that take a value: the next argument, unless written
/// `--option=value`.
const VALUED: [&str; 20] = [
    "-c",
    "--color",
    "--colour",
    "-s",
    "--save-baseline",
    "-b",
    "--baseline",
    "--baseline-lenient",
    "--format",
    "--profile-time",
    "--load-baseline",
    "--sample-size",
    "--warm-up-time",
    "--measurement-time",
    "--nresamples",
    "--noise-threshold",
    "--confidence-level",
    "--significance-level",
    "--plotting-backend",
    "--output-format",
];

/// Criterion's modes other than measuring, in which the arguments pass as typed
/// to one process.
const OTHER_MODES: [&str; 3] = ["--list", "--test", "--profile-time"];

/// Criterion's arguments as its options, its filter (the positional argument),
/// and whether `--exact` was given (taken out of the options).
#[derive(Debug, PartialEq, Eq)]
pub struct Split {
    /// Every option, with its value, `--exact` excepted.
    pub options: Vec<String>,
    /// The filter (a regex, or an ID with `--exact`); None selects every benchmark.
    pub filter: Option<String>,
    /// Whether the filter is an exact ID.
    pub exact: bool,
}

/// Splits criterion's arguments; `None` for a mode other than measuring
/// (`--list`, `--test`, `--profile-time`): those run as typed, in one process.
pub fn split(args: &[String]) -> Option<Split> {
    let mut s = Split {
        options: Vec::new(),
        filter: None,
        exact: false,
    };
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let name = a.split('=').next().unwrap_or(a);
        if OTHER_MODES.contains(&name) {
            return None;
        }
        if a == "--exact" {
            s.exact = true;
        } else if VALUED.contains(&a.as_str()) {
            s.options.push(a.clone());
            if let Some(v) = it.next() {
                s.options.push(v.clone());
            }
        } else if a.starts_with('-') {
            s.options.push(a.clone());
        } else {
            // Criterion takes one filter; a second is its error, kept for it to report.
            if s.filter.is_some() {
                s.options.push(a.clone());
            } else {
                s.filter = Some(a.clone());
            }
        }
    }
    Some(s)
}

/// The arguments of `--list` for the same selection: `--bench --list [--exact] [FILTER]`.
pub fn list_args(s: &Split) -> Vec<String> {
    let mut a = vec!["--bench".to_owned(), "--list".to_owned()];
    if s.exact {
        a.push("--exact".into());
    }
    a.extend(s.filter.iter().cloned());
    a
}

/// The IDs in criterion's `--list` output (`ID: benchmark` lines).
pub fn parse_list(stdout: &str) -> Vec<String> {
    stdout
        .lines()
        .filter_map(|l| l.strip_suffix(": benchmark"))
        .map(str::to_owned)
        .collect()
}

/// The IDs `cmd` (a benchmark program on its runtime) selects with `s`'s filter.
pub fn list(mut cmd: Command, s: &Split, what: &str) -> Result<Vec<String>, String> {
    let out = cmd
        .args(list_args(s))
        .output()
        .map_err(|e| format!("{what}: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "{what}: listing the benchmarks failed ({}): {}",
            out.status,
            String::from_utf8_lossy(&out.stderr).trim()
        ));
    }
    Ok(parse_list(&String::from_utf8_lossy(&out.stdout)))
}

/// The IDs of `ids` that measure backend `name`: one of the ID's parts after
/// the group (`Poseidon/permutation/fma`, `Poseidon/hash/fma/16`).
pub fn of_backend(ids: &[String], name: &str) -> Vec<String> {
    ids.iter()
        .filter(|id| id.split('/').skip(2).any(|part| part == name))
        .cloned()
        .collect()
}

/// The arguments that measure `id` alone: the options, `--exact ID`.
pub fn id_args(s: &Split, id: &str) -> Vec<String> {
    let mut a = s.options.clone();
    a.extend(["--exact".to_owned(), id.to_owned()]);
    a
}

#[cfg(test)]
mod tests {
    use super::*;

    fn a(s: &[&str]) -> Vec<String> {
        s.iter().map(|x| (*x).to_owned()).collect()
    }

    #[test]
    fn the_filter_is_the_argument_that_is_no_option_or_value() {
        // The options with their values, in order; the filter among them.
        let options = a(&[
            "--noplot",
            "--warm-up-time",
            "1",
            "--nresamples=5000",
            "-s",
            "x",
        ]);
        let mut args = options.clone();
        args.insert(3, "Poseidon/permutation/".into());
        let s = split(&args).unwrap();
        assert_eq!(s.options, options);
        assert_eq!(s.filter.as_deref(), Some("Poseidon/permutation/"));
        assert!(!s.exact);
        assert_eq!(
            list_args(&s),
            a(&["--bench", "--list", "Poseidon/permutation/"])
        );
        assert_eq!(
            id_args(&s, "Poseidon/permutation/u64"),
            [options, a(&["--exact", "Poseidon/permutation/u64"])].concat()
        );
    }

    #[test]
    fn exact_moves_to_the_list_and_other_modes_pass_as_typed() {
        let s = split(&a(&["--exact", "Poseidon/hash/u64/2"])).unwrap();
        assert!(s.exact && s.options.is_empty());
        assert_eq!(
            list_args(&s),
            a(&["--bench", "--list", "--exact", "Poseidon/hash/u64/2"])
        );
        assert_eq!(split(&a(&["--list"])), None);
        assert_eq!(split(&a(&["--profile-time=3", "x"])), None);
        assert_eq!(split(&a(&["--test"])), None);
        let none = split(&[]).unwrap();
        assert_eq!((none.filter, none.options.len()), (None, 0));
        assert_eq!(list_args(&split(&[]).unwrap()), a(&["--bench", "--list"]));
    }

    #[test]
    fn a_backends_ids_are_those_naming_it_after_the_group() {
        let ids = a(&[
            "Poseidon/permutation/fma",
            "Poseidon/hash/fma/16",
            "Poseidon/permutation/u29",
            "Poseidon/permute_many/u29/8",
            "Poseidon/fma/u29",
            "Field/mul/fmax",
        ]);
        assert_eq!(
            of_backend(&ids, "fma"),
            a(&["Poseidon/permutation/fma", "Poseidon/hash/fma/16"])
        );
        assert!(of_backend(&ids, "u64").is_empty());
    }

    #[test]
    fn the_list_gives_the_ids() {
        let out = "Gnuplot not found\nPoseidon/permutation/u29: benchmark\n\
                   Poseidon/hash/u64/2: benchmark\n\n";
        assert_eq!(
            parse_list(out),
            a(&["Poseidon/permutation/u29", "Poseidon/hash/u64/2"])
        );
    }
}
