//! `cargo xtask nix-replay`: what Nix and GitHub will do, done here with this
//! machine's tools, instead of read from the files that say it.
//!
//! - `view`: a command (make test's host tests, the wasm tests' build and run) in
//!   the source tree that a derivation sees ([`view`]), with its check's runner
//!   and inputs;
//! - `artifacts`: the workflow's report uploads and the merge job's download,
//!   laid out by actions/upload-artifact's and download-artifact's rules, with real
//!   reports, and the merge job's own shell step run on them ([`artifacts`]);
//! - `refs`: ab.yml's step that resolves the caller's revisions, run in a detached
//!   clone as actions/checkout leaves it, for a branch, a tag and a commit
//!   ([`refs`]).

pub mod artifacts;
pub mod refs;
pub mod view;

use std::path::{Path, PathBuf};

use serde_json::Value;

/// `cargo xtask nix-replay …`.
pub fn task(root: &Path, args: &[String]) -> Result<bool, String> {
    match args.split_first() {
        Some((v, rest)) if v == "view" => view_task(root, rest),
        Some((a, rest)) if a == "artifacts" => artifacts::task(root, rest),
        Some((r, rest)) if r == "refs" && rest.is_empty() => refs::task(root),
        Some((h, _)) if h == "-h" || h == "--help" => Err(String::new()),
        None => Err(String::new()),
        _ => Err(format!("unexpected arguments {args:?}")),
    }
}

/// The string attributes of a check that are cargo's runner variables.
fn runner_env(check: &Value) -> Vec<(String, String)> {
    check
        .as_object()
        .into_iter()
        .flatten()
        .filter(|(k, _)| k.starts_with("CARGO_TARGET_") && k.ends_with("_RUNNER"))
        .filter_map(|(k, v)| Some((k.clone(), v.as_str()?.to_owned())))
        .collect()
}

/// The names of a check's nativeBuildInputs: the stand-ins' packages, which JSON
/// gives as their paths, `/nonexistent/NAME`.
fn input_names(check: &Value) -> Vec<String> {
    check["nativeBuildInputs"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|p| p.as_str()?.strip_prefix("/nonexistent/").map(str::to_owned))
        .collect()
}

fn view_task(root: &Path, args: &[String]) -> Result<bool, String> {
    let (mut check, mut stdout) = (None, None);
    let mut it = args.iter();
    let command: Vec<String> = loop {
        match it.next().map(String::as_str) {
            Some("--check") => check = Some(it.next().ok_or("--check needs a NAME")?.clone()),
            Some("--stdout") => {
                stdout = Some(PathBuf::from(it.next().ok_or("--stdout needs a FILE")?))
            }
            Some("--") => break it.cloned().collect(),
            Some(a) => return Err(format!("unexpected argument {a}")),
            None => break Vec::new(),
        }
    };
    if command.is_empty() {
        return Err("no COMMAND after --".into());
    }
    let files = view::tracked(root)?;
    let ev = view::evaluate(root, &files)?;
    let src = view::files_of(&ev, "src")?;
    let tree = view::work(root).join("src");
    view::lay_out(root, &src, &tree)?;
    let (env, inputs) = match &check {
        Some(name) => {
            let c = &ev["checks"][name.as_str()];
            if c.is_null() {
                return Err(format!("nix/checks.nix has no check {name}"));
            }
            (runner_env(c), input_names(c))
        }
        None => (Vec::new(), Vec::new()),
    };
    eprintln!(
        "==> in the flake's source (nix/packages.nix's src: {} of the {} files git holds){}{}",
        src.len(),
        files.len(),
        check
            .as_ref()
            .map(|c| format!(", as checks.{c}"))
            .unwrap_or_default(),
        env.iter()
            .map(|(k, v)| format!(", {k}='{v}'"))
            .collect::<String>()
    );
    view::run_in_view(&view::Run {
        root,
        tree: &tree,
        env,
        inputs,
        command: &command,
        stdout,
    })
}
