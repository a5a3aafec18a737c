//! The workflow's reports, from each machine to the merged table, replayed:
//! `.github/workflows/ci.yml` is read, each machine's shell steps between its last
//! Nix command and its report upload run on a real report of this machine, the
//! upload and the merge job's download laid out by the actions' own rules, and the
//! merge job's `bench-report merge` step run on the result, with `bench-report`
//! standing in for `nix run .#bench-report-tool`. It must write the merged table
//! naming every machine that uploaded, for every number of them (one machine
//! alone is downloaded by other rules than several).
//!
//! The rules, from the actions' sources at the pinned major versions:
//! - actions/upload-artifact v7 (`src/shared/search.ts`): every `path:` line is a
//!   search path (globs are not replayed: the workflow uses none); a directory
//!   uploads every file under it. With several search paths the artifact's root is
//!   their least common ancestor, with one it is that path, or its parent when it
//!   is the one file found;
//! - actions/download-artifact v7 (`src/download-artifact.ts`): `name` picks one
//!   artifact, `pattern` those whose names match it, neither all; they are
//!   extracted into `path` itself when `name` is given, `merge-multiple` is true,
//!   or exactly one artifact was found, and else each into `path/NAME/`.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_yaml::Value;

use crate::checklist::Checklist;
use crate::lab::tools::io;
use crate::nix_review::workflow::{self, step_uses as uses};
use crate::sandbox::write_exe;

/// An uploaded artifact: its name and its files (path inside it → file here).
#[derive(Clone, Debug)]
pub struct Artifact {
    /// The artifact's name.
    pub name: String,
    /// Its files.
    pub files: BTreeMap<String, PathBuf>,
}

/// Every file under `p` (itself if a file), as paths relative to `base`.
fn files_under(base: &Path, p: &Path, out: &mut Vec<PathBuf>) {
    if p.is_file() {
        out.push(p.strip_prefix(base).unwrap_or(p).to_owned());
    } else if let Ok(entries) = fs::read_dir(p) {
        let mut list: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
        list.sort();
        for e in list {
            files_under(base, &e, out);
        }
    }
}

/// Normalized components of a relative path (`.` dropped, a trailing `/` too).
fn components(p: &str) -> Vec<String> {
    p.split('/')
        .filter(|c| !c.is_empty() && *c != ".")
        .map(str::to_owned)
        .collect()
}

/// upload-artifact's rule: the files of the search paths `paths` (relative to
/// `workspace`), keyed by their path inside the artifact.
pub fn upload(workspace: &Path, paths: &[String]) -> Result<BTreeMap<String, PathBuf>, String> {
    if let Some(g) = paths.iter().find(|p| p.contains(['*', '?', '['])) {
        return Err(format!("upload path {g}: globs are not replayed"));
    }
    // @actions/glob's search paths: each once, none under another.
    let mut search: Vec<Vec<String>> = paths.iter().map(|p| components(p)).collect();
    search.sort();
    search.dedup();
    let all = search.clone();
    search.retain(|s| !all.iter().any(|o| o != s && s.starts_with(o)));
    let mut found = Vec::new();
    for s in &search {
        files_under(workspace, &workspace.join(s.join("/")), &mut found);
    }
    let root: Vec<String> = match search.as_slice() {
        [] => return Err("no upload path".into()),
        [one] => {
            if found.len() == 1 && found[0] == Path::new(&one.join("/")) {
                one[..one.len() - 1].to_vec()
            } else {
                one.clone()
            }
        }
        many => {
            let mut lca = many[0].clone();
            for s in &many[1..] {
                let n = lca.iter().zip(s).take_while(|(a, b)| a == b).count();
                lca.truncate(n);
            }
            lca
        }
    };
    let root = PathBuf::from(root.join("/"));
    Ok(found
        .into_iter()
        .map(|f| {
            let inside = f.strip_prefix(&root).unwrap_or(&f).display().to_string();
            (inside, workspace.join(f))
        })
        .collect())
}

/// Whether `name` matches `pattern` (`*` any characters, `?` one).
fn wildcard(pattern: &[u8], name: &[u8]) -> bool {
    match (pattern.first(), name.first()) {
        (None, None) => true,
        (Some(b'*'), _) => {
            wildcard(&pattern[1..], name) || (!name.is_empty() && wildcard(pattern, &name[1..]))
        }
        (Some(b'?'), Some(_)) => wildcard(&pattern[1..], &name[1..]),
        (Some(a), Some(b)) if a == b => wildcard(&pattern[1..], &name[1..]),
        _ => false,
    }
}

/// download-artifact's rule, into `workspace`: returns the artifacts' names found.
pub fn download(
    artifacts: &[Artifact],
    with: &Value,
    workspace: &Path,
) -> Result<Vec<String>, String> {
    let name = with["name"].as_str();
    let pattern = with["pattern"].as_str();
    let merge = with["merge-multiple"]
        .as_bool()
        .or_else(|| with["merge-multiple"].as_str().map(|s| s == "true"))
        .unwrap_or(false);
    let picked: Vec<&Artifact> = artifacts
        .iter()
        .filter(|a| match (name, pattern) {
            (Some(n), _) => a.name == n,
            (None, Some(p)) => wildcard(p.as_bytes(), a.name.as_bytes()),
            (None, None) => true,
        })
        .collect();
    let path = workspace.join(with["path"].as_str().unwrap_or("."));
    let flat = name.is_some() || merge || picked.len() == 1;
    for a in &picked {
        let dir = if flat {
            path.clone()
        } else {
            path.join(&a.name)
        };
        for (inside, from) in &a.files {
            let to = dir.join(inside);
            io(&to, fs::create_dir_all(to.parent().unwrap_or(&dir)))?;
            io(from, fs::copy(from, &to))?;
        }
    }
    Ok(picked.iter().map(|a| a.name.clone()).collect())
}

/// The values of the workflow expressions a replay knows, by expression
/// (`matrix.system`, `inputs.base-ref` …).
pub type Context = BTreeMap<String, String>;

/// `text` with each `${{ EXPR }}` replaced from `ctx`; an expression it does not
/// hold is an error (the replay would not know its value).
pub fn substitute(text: &str, ctx: &Context) -> Result<String, String> {
    let mut out = String::new();
    let mut rest = text;
    while let Some(at) = rest.find("${{") {
        out.push_str(&rest[..at]);
        let end = rest[at..]
            .find("}}")
            .ok_or_else(|| format!("unclosed expression in {text:?}"))?;
        let expr = rest[at + 3..at + end].trim();
        let value = ctx
            .get(expr)
            .ok_or_else(|| format!("the replay does not know ${{{{ {expr} }}}} (in {text:?})"))?;
        out.push_str(value);
        rest = &rest[at + end + 2..];
    }
    out.push_str(rest);
    Ok(out)
}

fn steps(job: &Value) -> Vec<&Value> {
    workflow::steps(job).collect()
}

/// Runs a `run:` step as GitHub's runner does on Linux (`bash --noprofile --norc
/// -eo pipefail`), from `workspace` (or its `working-directory` there), with its
/// `env:` (substituted from `ctx`) and `extra`: whether it succeeded, and what it
/// printed.
pub fn run_step(
    step: &Value,
    workspace: &Path,
    ctx: &Context,
    extra: &[(&str, String)],
) -> Result<(bool, String), String> {
    let script = substitute(step["run"].as_str().unwrap_or(""), ctx)?;
    let dir = workspace.join(step["working-directory"].as_str().unwrap_or("."));
    let mut cmd = Command::new("bash");
    cmd.args(["--noprofile", "--norc", "-eo", "pipefail", "-c", &script])
        .current_dir(dir)
        .env("GITHUB_WORKSPACE", workspace);
    for (k, v) in step["env"].as_mapping().into_iter().flatten() {
        if let (Some(k), Some(v)) = (k.as_str(), v.as_str()) {
            cmd.env(k, substitute(v, ctx)?);
        }
    }
    for (k, v) in extra {
        cmd.env(k, v);
    }
    let o = cmd.output().map_err(|e| format!("bash: {e}"))?;
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    Ok((o.status.success(), text))
}

/// What the replay is given: real reports of this machine.
pub struct Inputs {
    /// A `bench-report` binary (standing in for `nix run .#bench-report-tool`).
    pub bench_report: PathBuf,
    /// A directory holding report.json (and report.md, report.svg) as the bench writes it.
    pub report_dir: PathBuf,
    /// counts.json, for the machine that counts (x86_64-linux).
    pub counts: Option<PathBuf>,
}

/// Each machine's upload, as the machine job leaves it.
fn machine_artifacts(
    wf: &Value,
    inp: &Inputs,
    work: &Path,
    r: &mut Checklist,
) -> Result<Vec<Artifact>, String> {
    let (job_name, job) = wf["jobs"]
        .as_mapping()
        .into_iter()
        .flatten()
        .find(|(_, j)| {
            steps(j).iter().any(|s| {
                uses(s, "actions/upload-artifact")
                    && s["with"]["name"]
                        .as_str()
                        .is_some_and(|n| n.starts_with("report-"))
            })
        })
        .ok_or("ci.yml: no job uploads an artifact named report-…")?;
    let job_name = job_name.as_str().unwrap_or("?").to_owned();
    let all = steps(job);
    let at = all
        .iter()
        .position(|s| {
            uses(s, "actions/upload-artifact")
                && s["with"]["name"]
                    .as_str()
                    .is_some_and(|n| n.starts_with("report-"))
        })
        .unwrap_or(0);
    // The shell steps between the last Nix command and the upload.
    let mut first = at;
    while first > 0
        && all[first - 1]["run"]
            .as_str()
            .is_some_and(|t| !t.contains("nix "))
    {
        first -= 1;
    }
    let include = job["strategy"]["matrix"]["include"]
        .as_sequence()
        .ok_or_else(|| format!("ci.yml: job {job_name} has no matrix include"))?;
    let mut out = Vec::new();
    for entry in include {
        let matrix: Context = entry
            .as_mapping()
            .into_iter()
            .flatten()
            .filter_map(|(k, v)| Some((format!("matrix.{}", k.as_str()?), v.as_str()?.to_owned())))
            .collect();
        let system = matrix.get("matrix.system").cloned().unwrap_or_default();
        let ws = work.join(format!("machine-{system}"));
        let _ = fs::remove_dir_all(&ws);
        // What the benchmark and the counts leave in target/.
        let bench = ws.join("target/bench-report");
        io(&bench, fs::create_dir_all(&bench))?;
        for f in ["report.json", "report.md", "report.svg"] {
            let from = inp.report_dir.join(f);
            if from.is_file() {
                io(&from, fs::copy(&from, bench.join(f)))?;
            }
        }
        if let (Some(c), "x86_64-linux") = (&inp.counts, system.as_str()) {
            let to = ws.join("target/counts/counts.json");
            io(&to, fs::create_dir_all(to.parent().unwrap()))?;
            io(c, fs::copy(c, &to))?;
        }
        for s in &all[first..at] {
            let (ok, text) = run_step(s, &ws, &matrix, &[])?;
            let name = s["name"].as_str().unwrap_or("a run step");
            r.check(
                ok,
                &format!("{job_name} ({system}): step '{name}' runs"),
                || text.clone(),
            );
        }
        let up = &all[at]["with"];
        let paths: Vec<String> = substitute(up["path"].as_str().unwrap_or(""), &matrix)?
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .map(str::to_owned)
            .collect();
        let name = substitute(up["name"].as_str().unwrap_or(""), &matrix)?;
        let files = upload(&ws, &paths)?;
        println!(
            "      artifact {name}: {}",
            files.keys().cloned().collect::<Vec<_>>().join(", ")
        );
        out.push(Artifact { name, files });
    }
    Ok(out)
}

/// The merge job's download and its `bench-report-tool` step, on `artifacts`.
fn merge_run(
    wf: &Value,
    artifacts: &[Artifact],
    inp: &Inputs,
    ws: &Path,
) -> Result<(bool, String, Vec<String>), String> {
    let (_, job) = wf["jobs"]
        .as_mapping()
        .into_iter()
        .flatten()
        .find(|(_, j)| {
            steps(j)
                .iter()
                .any(|s| uses(s, "actions/download-artifact"))
        })
        .ok_or("ci.yml: no job downloads the reports")?;
    let _ = fs::remove_dir_all(ws);
    io(ws, fs::create_dir_all(ws))?;
    let matrix = Context::new();
    let mut downloaded = Vec::new();
    let mut result = (false, "no step runs bench-report-tool".to_owned());
    for s in steps(job) {
        if uses(s, "actions/download-artifact") {
            downloaded = download(artifacts, &s["with"], ws)?;
        } else if s["run"]
            .as_str()
            .is_some_and(|t| t.contains("bench-report-tool"))
        {
            let shim = ws.join(".shim");
            write_exe(
                &shim.join("nix"),
                &format!(
                    "#!/bin/sh\n# nix run .#bench-report-tool -- ARGS... stands for bench-report ARGS...\n[ \"$1\" = run ] && [ \"$2\" = .#bench-report-tool ] && [ \"$3\" = -- ] || {{ echo \"nix (replay): not replayed: $*\" >&2; exit 2; }}\nshift 3\nexec {} \"$@\"\n",
                    inp.bench_report.display()
                ),
            )?;
            let path = format!(
                "{}:{}",
                shim.display(),
                std::env::var("PATH").unwrap_or_default()
            );
            let summary = ws.join(".summary.md");
            result = run_step(
                s,
                ws,
                &matrix,
                &[
                    ("PATH", path),
                    ("GITHUB_STEP_SUMMARY", summary.display().to_string()),
                ],
            )?;
        }
    }
    Ok((result.0, result.1, downloaded))
}

/// `cargo xtask nix-replay artifacts --bench-report BIN --report JSON [--counts JSON]`.
pub fn task(root: &Path, args: &[String]) -> Result<bool, String> {
    let mut opts = BTreeMap::new();
    let mut it = args.iter();
    while let Some(k) = it.next() {
        if k == "-h" || k == "--help" {
            return Err(String::new());
        }
        let key = k
            .strip_prefix("--")
            .ok_or_else(|| format!("unexpected argument {k}"))?;
        let v = it.next().ok_or_else(|| format!("{k} needs a value"))?;
        let path = std::path::absolute(v).map_err(|e| format!("{v}: {e}"))?;
        opts.insert(key.to_owned(), path);
    }
    let report = opts.remove("report").ok_or("--report is required")?;
    let inp = Inputs {
        bench_report: opts
            .remove("bench-report")
            .ok_or("--bench-report is required")?,
        report_dir: report.parent().unwrap_or(Path::new(".")).to_owned(),
        counts: opts.remove("counts"),
    };
    if let Some(k) = opts.keys().next() {
        return Err(format!("unexpected option --{k}"));
    }
    let text = io(
        &root.join(".github/workflows/ci.yml"),
        fs::read_to_string(root.join(".github/workflows/ci.yml")),
    )?;
    let wf: Value = serde_yaml::from_str(&text).map_err(|e| format!("ci.yml: {e}"))?;
    let work = super::view::work(root).join("artifacts");
    let mut r = Checklist::default();
    let artifacts = machine_artifacts(&wf, &inp, &work, &mut r)?;
    // Every machine, then each alone (the others failed: one artifact is
    // downloaded by other rules), then all but the first.
    let mut cases: Vec<Vec<Artifact>> = vec![artifacts.clone()];
    cases.extend(artifacts.iter().map(|a| vec![a.clone()]));
    cases.push(artifacts[1..].to_vec());
    for (k, case) in cases.iter().enumerate() {
        let names: Vec<String> = case.iter().map(|a| a.name.clone()).collect();
        let ws = work.join(format!("merge-{k}"));
        let (ok, out, downloaded) = merge_run(&wf, case, &inp, &ws)?;
        let md = fs::read_to_string(ws.join("merged/merged.md")).unwrap_or_default();
        let summary = fs::read_to_string(ws.join(".summary.md")).unwrap_or_default();
        let labels: Vec<String> = names
            .iter()
            .map(|n| n.trim_start_matches("report-").to_owned())
            .collect();
        r.check(
            ok && downloaded == names
                && !summary.is_empty()
                && labels.iter().all(|l| md.contains(l.as_str())),
            &format!(
                "merge job on {}: downloads them, merged.md names every machine, the job summary holds it",
                names.join(" + ")
            ),
            || format!("exit ok = {ok}, downloaded {downloaded:?}; the step said:\n{out}"),
        );
    }
    Ok(r.finish())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tree(files: &[&str]) -> PathBuf {
        let dir = std::env::temp_dir().join(format!(
            "replay-artifacts-{}-{}",
            std::process::id(),
            files.len()
        ));
        let _ = fs::remove_dir_all(&dir);
        for f in files {
            let p = dir.join(f);
            fs::create_dir_all(p.parent().unwrap()).unwrap();
            fs::write(p, f).unwrap();
        }
        dir
    }

    #[test]
    fn upload_roots_at_the_least_common_ancestor() {
        let ws = tree(&["t/a/r.json", "t/a/r.md", "t/c/c.json", "u/S/r.json"]);
        let got = upload(
            &ws,
            &["t/a/r.json".into(), "t/a/r.md".into(), "t/c/c.json".into()],
        )
        .unwrap();
        assert_eq!(
            got.keys().cloned().collect::<Vec<_>>(),
            ["a/r.json", "a/r.md", "c/c.json"]
        );
        // One file alone: its parent is the root. One directory: itself.
        let one = upload(&ws, &["t/a/r.json".into()]).unwrap();
        assert_eq!(one.keys().cloned().collect::<Vec<_>>(), ["r.json"]);
        let dir = upload(&ws, &["u/".into()]).unwrap();
        assert_eq!(dir.keys().cloned().collect::<Vec<_>>(), ["S/r.json"]);
        // A missing path still counts for the root (search paths, not files).
        let missing = upload(&ws, &["t/a/r.json".into(), "t/none/x".into()]).unwrap();
        assert_eq!(missing.keys().cloned().collect::<Vec<_>>(), ["a/r.json"]);
        assert!(upload(&ws, &["t/*".into()]).is_err());
        fs::remove_dir_all(ws).unwrap();
    }

    #[test]
    fn download_nests_several_and_flattens_one() {
        let ws = tree(&["f/r.json"]);
        let a = |n: &str| Artifact {
            name: n.into(),
            files: [("r.json".to_owned(), ws.join("f/r.json"))].into(),
        };
        let with: Value = serde_yaml::from_str("{pattern: 'report-*', path: out}").unwrap();
        let two = [a("report-x"), a("report-y"), a("other")];
        let got = download(&two, &with, &ws.join("1")).unwrap();
        assert_eq!(got, ["report-x", "report-y"]);
        assert!(ws.join("1/out/report-x/r.json").is_file());
        download(&two[..1], &with, &ws.join("2")).unwrap();
        assert!(ws.join("2/out/r.json").is_file(), "one artifact: flat");
        let merged: Value =
            serde_yaml::from_str("{pattern: 'report-*', path: out, merge-multiple: true}").unwrap();
        download(&two, &merged, &ws.join("3")).unwrap();
        assert!(ws.join("3/out/r.json").is_file());
        fs::remove_dir_all(ws).unwrap();
    }

    #[test]
    fn only_the_expressions_given_are_substituted() {
        let m: Context = [("matrix.system".to_owned(), "x".to_owned())].into();
        assert_eq!(substitute("r-${{ matrix.system }}/", &m).unwrap(), "r-x/");
        assert!(substitute("${{ github.sha }}", &m).is_err());
        assert!(substitute("${{ matrix.system", &m).is_err());
    }
}
