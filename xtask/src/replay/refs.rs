//! ab.yml's revisions, replayed: a repository standing in for the caller's (a
//! branch, an annotated tag, commits in its history, and a fork's head reachable
//! only from `refs/pull/1/head`, served as GitHub serves reachable commits), cloned
//! as actions/checkout clones with `fetch-depth: 0` (remote branches and tags,
//! the head detached, no local branch). In that clone ab.yml's step that resolves
//! the revisions runs with each kind of revision, then its `make ab` step with a
//! stand-in `nix` that records the arguments; each side it names must resolve, as
//! `make ab` resolves it (`git rev-parse --verify REV^{commit}`), to the commit
//! asked for.

use serde_yaml::Value;
use std::collections::BTreeMap;
use std::fs;
use std::path::Path;

use super::artifacts::{run_step, Context};
use crate::checklist::Checklist;
use crate::lab::tools::io;
use crate::nix_review::workflow;
use crate::sandbox::write_exe;

/// `git -C DIR ARGS` (the A/B's helper) with the settings a scratch repository
/// needs here: a default branch, an author, no signing, local clones allowed.
fn git(dir: &Path, args: &[&str]) -> Result<String, String> {
    let mut all = vec![
        "-c",
        "init.defaultBranch=main",
        "-c",
        "user.name=replay",
        "-c",
        "user.email=replay@example.invalid",
        "-c",
        "commit.gpgsign=false",
        "-c",
        "tag.gpgsign=false",
        "-c",
        "protocol.file.allow=always",
    ];
    all.extend_from_slice(args);
    crate::ab::sides::git(dir, &all)
}

/// A commit of one file on the current branch; returns its id.
fn commit(dir: &Path, text: &str) -> Result<String, String> {
    let f = dir.join("f");
    io(&f, fs::write(&f, text))?;
    git(dir, &["add", "f"])?;
    git(dir, &["commit", "-q", "-m", text])?;
    git(dir, &["rev-parse", "HEAD"])
}

/// The caller's repository (bare, as GitHub holds it) and its commits by name.
fn origin(work: &Path) -> Result<(std::path::PathBuf, BTreeMap<&'static str, String>), String> {
    let src = work.join("caller");
    io(&src, fs::create_dir_all(&src))?;
    git(&src, &["init", "-q"])?;
    let mut c = BTreeMap::new();
    c.insert("old", commit(&src, "old")?);
    c.insert("tagged", commit(&src, "tagged")?);
    git(&src, &["tag", "-a", "v1", "-m", "v1"])?;
    c.insert("main", commit(&src, "main")?);
    git(&src, &["checkout", "-q", "-b", "feature"])?;
    c.insert("feature", commit(&src, "feature")?);
    git(&src, &["checkout", "-q", "-b", "fork", &c["old"]])?;
    c.insert("fork", commit(&src, "fork")?);
    git(&src, &["checkout", "-q", "main"])?;
    let bare = work.join("caller.git");
    git(work, &["clone", "-q", "--bare", "caller", "caller.git"])?;
    // A fork's pull request: its head only under refs/pull/.
    git(&bare, &["update-ref", "refs/pull/1/head", &c["fork"]])?;
    git(&bare, &["branch", "-D", "fork"])?;
    // GitHub serves any commit reachable from its refs by id.
    git(
        &bare,
        &["config", "uploadpack.allowReachableSHA1InWant", "true"],
    )?;
    Ok((bare, c))
}

/// actions/checkout with `fetch-depth: 0`: remote branches and tags, detached at `at`.
fn checkout(work: &Path, bare: &Path, at: &str) -> Result<std::path::PathBuf, String> {
    let ps = work.join("ws/proof-systems");
    let _ = fs::remove_dir_all(work.join("ws"));
    io(&ps, fs::create_dir_all(&ps))?;
    git(&ps, &["init", "-q"])?;
    git(
        &ps,
        &["remote", "add", "origin", &bare.display().to_string()],
    )?;
    git(
        &ps,
        &[
            "fetch",
            "-q",
            "--prune",
            "--no-recurse-submodules",
            "origin",
            "+refs/heads/*:refs/remotes/origin/*",
            "+refs/tags/*:refs/tags/*",
        ],
    )?;
    git(&ps, &["checkout", "-q", "--force", "--detach", at])?;
    Ok(ps)
}

/// Every step of every job.
fn steps(wf: &Value) -> Vec<&Value> {
    wf["jobs"]
        .as_mapping()
        .into_iter()
        .flatten()
        .flat_map(|(_, j)| workflow::steps(j))
        .collect()
}

/// `cargo xtask nix-replay refs`.
pub fn task(root: &Path) -> Result<bool, String> {
    let text = fs::read_to_string(root.join(".github/workflows/ab.yml"))
        .map_err(|e| format!("ab.yml: {e}"))?;
    let wf: Value = serde_yaml::from_str(&text).map_err(|e| format!("ab.yml: {e}"))?;
    let all = steps(&wf);
    // The steps that take the caller's revisions (their env names BASE_REF) and the
    // one that runs make ab.
    let resolve: Vec<&Value> = all
        .iter()
        .copied()
        .filter(|s| s["env"]["BASE_REF"].is_string())
        .collect();
    let make_ab = all
        .iter()
        .copied()
        .find(|s| s["run"].as_str().is_some_and(|t| t.contains("make ab")))
        .ok_or("ab.yml: no step runs make ab")?;
    let work = super::view::work(root).join("refs");
    let _ = fs::remove_dir_all(&work);
    io(&work, fs::create_dir_all(&work))?;
    let (bare, c) = origin(&work)?;
    let short = c["old"][..10].to_owned();
    // (base as given, what it is, head as given, what it is)
    let cases: [(&str, &str, &str, &str); 4] = [
        ("main", "main", "feature", "feature"),
        ("v1", "tagged", &c["fork"], "fork"),
        (&c["old"], "old", "main", "main"),
        (&short, "old", &c["fork"], "fork"),
    ];
    // A stand-in nix: `nix develop -L --command make ab ARGS…` prints ARGS.
    let bin = work.join("bin");
    write_exe(
        &bin.join("nix"),
        "#!/bin/sh\nshift 3\n[ \"$1\" = make ] && [ \"$2\" = ab ] || exit 2\nshift 2\nfor a in \"$@\"; do echo \"$a\"; done\n",
    )?;
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut r = Checklist::default();
    for (base, base_is, head, head_is) in cases {
        let ps = checkout(&work, &bare, &c["main"])?;
        let ws = ps.parent().unwrap().to_owned();
        io(&ws.join("lab"), fs::create_dir_all(ws.join("lab")))?;
        let inputs: Context = [
            ("inputs.base-ref", base),
            ("inputs.head-ref", head),
            ("inputs.minutes", "12"),
        ]
        .map(|(k, v)| (k.to_owned(), v.to_owned()))
        .into();
        let extra = [
            ("PATH", path.clone()),
            (
                "GITHUB_STEP_SUMMARY",
                ws.join("summary.md").display().to_string(),
            ),
        ];
        let mut said = String::new();
        let mut ok = true;
        for s in resolve.iter().chain([&make_ab]) {
            let (fine, out) = run_step(s, &ws, &inputs, &extra)?;
            said += &out;
            ok &= fine;
            if !fine {
                break;
            }
        }
        // make ab's BASE=DIR@REV and HEAD=DIR@REV, as `make ab` resolves them.
        let sides: BTreeMap<String, String> = said
            .lines()
            .filter_map(|l| l.split_once('='))
            .filter(|(k, _)| *k == "BASE" || *k == "HEAD")
            .map(|(k, v)| (k.to_owned(), v.to_owned()))
            .collect();
        let resolves = |side: &str, want: &str| {
            sides
                .get(side)
                .and_then(|v| v.rsplit_once('@'))
                .is_some_and(|(dir, rev)| {
                    git(
                        Path::new(dir),
                        &["rev-parse", "--verify", &format!("{rev}^{{commit}}")],
                    )
                    .is_ok_and(|got| got == c[want])
                })
        };
        let label = |g: &str, is: &str| {
            if g == is {
                format!("branch {g}")
            } else if g == "v1" {
                "tag v1".into()
            } else {
                format!("commit {}", &g[..g.len().min(10)])
            }
        };
        r.check(
            ok && resolves("BASE", base_is) && resolves("HEAD", head_is),
            &format!(
                "ab.yml with base {} and head {} ({}): make ab gets both, each the commit asked for",
                label(base, base_is),
                label(head, head_is),
                if head_is == "fork" { "a fork's head" } else { "in a detached clone" }
            ),
            || format!("make ab got {sides:?}; the steps said:\n{said}"),
        );
    }
    Ok(r.finish())
}
