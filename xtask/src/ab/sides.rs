//! The two sides of an A/B: a proof-systems checkout as it is on disk (`DIR`) or
//! one of its revisions (`DIR@REV`, extracted with `git archive`). Either way the
//! checkout is only read: its files are copied (or extracted) into the A/B's build
//! tree, one side after the other, at the same path, so that two identical trees
//! build to identical binaries.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// What a side names.
#[derive(Clone, Debug, PartialEq)]
pub enum Spec {
    /// The checkout's files as they are.
    Dir(PathBuf),
    /// A revision of the checkout.
    Rev(PathBuf, String),
    /// This repository: at a revision (`@REV`), or its working tree (`@`).
    Ours(Option<String>),
}

impl Spec {
    /// Whether the side is this repository (its backends are compared, not upstream).
    pub fn is_ours(&self) -> bool {
        matches!(self, Spec::Ours(_))
    }
}

/// Parses `DIR`, `DIR@REV` (DIR must exist; an `@` inside an existing directory's
/// name stays part of it), `@REV` (this repository at REV) or `@` (its working tree).
pub fn parse(spec: &str) -> Result<Spec, String> {
    if spec.is_empty() {
        return Err(
            "an empty side: give a proof-systems checkout, DIR@REV, or @REV for this repository"
                .into(),
        );
    }
    if let Some(rev) = spec.strip_prefix('@') {
        return Ok(Spec::Ours((!rev.is_empty()).then(|| rev.to_owned())));
    }
    if Path::new(spec).is_dir() {
        return Ok(Spec::Dir(PathBuf::from(spec)));
    }
    if let Some((dir, rev)) = spec.rsplit_once('@') {
        if Path::new(dir).is_dir() && !rev.is_empty() {
            return Ok(Spec::Rev(PathBuf::from(dir), rev.to_owned()));
        }
    }
    Err(format!(
        "{spec}: neither a directory nor DIR@REV with an existing DIR"
    ))
}

/// `git -C dir ARGS`, its trimmed stdout; an error names the command and git's message.
pub(crate) fn git(dir: &Path, args: &[&str]) -> Result<String, String> {
    let o = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(args)
        .output()
        .map_err(|e| format!("git: {e}"))?;
    if !o.status.success() {
        return Err(format!(
            "git -C {} {}: {}",
            dir.display(),
            args.join(" "),
            String::from_utf8_lossy(&o.stderr).trim()
        ));
    }
    Ok(String::from_utf8_lossy(&o.stdout).trim().to_owned())
}

/// Names skipped when a checkout is copied: its git data, build output, the SRS
/// files (large, unused by Poseidon) and JavaScript dependencies.
const SKIP: [&str; 4] = [".git", "target", "srs", "node_modules"];

fn copy_tree(from: &Path, to: &Path) -> Result<(), String> {
    std::fs::create_dir_all(to).map_err(|e| format!("{}: {e}", to.display()))?;
    for entry in std::fs::read_dir(from).map_err(|e| format!("{}: {e}", from.display()))? {
        let entry = entry.map_err(|e| format!("{}: {e}", from.display()))?;
        let name = entry.file_name();
        if SKIP.iter().any(|s| name == *s) {
            continue;
        }
        let (src, dst) = (entry.path(), to.join(&name));
        let kind = entry
            .file_type()
            .map_err(|e| format!("{}: {e}", src.display()))?;
        if kind.is_dir() {
            copy_tree(&src, &dst)?;
        } else if kind.is_file() {
            std::fs::copy(&src, &dst).map_err(|e| format!("{}: {e}", src.display()))?;
        } else if kind.is_symlink() {
            let target = std::fs::read_link(&src).map_err(|e| format!("{}: {e}", src.display()))?;
            #[cfg(unix)]
            std::os::unix::fs::symlink(&target, &dst)
                .map_err(|e| format!("{}: {e}", dst.display()))?;
            #[cfg(not(unix))]
            let _ = target;
        }
    }
    Ok(())
}

/// Puts the side's files at `tree` (emptied first); returns its description: the
/// commit (with `-dirty` for a checkout with uncommitted changes) and where from.
/// `root` is this repository (for `@REV` and `@`).
pub fn materialize(spec: &Spec, tree: &Path, root: &Path) -> Result<String, String> {
    let spec = match spec {
        Spec::Ours(None) => &Spec::Dir(root.to_owned()),
        Spec::Ours(Some(rev)) => &Spec::Rev(root.to_owned(), rev.clone()),
        other => other,
    };
    if tree.exists() {
        std::fs::remove_dir_all(tree).map_err(|e| format!("{}: {e}", tree.display()))?;
    }
    std::fs::create_dir_all(tree).map_err(|e| format!("{}: {e}", tree.display()))?;
    match spec {
        Spec::Dir(dir) => {
            copy_tree(dir, tree)?;
            // Its own repository's commit, not that of a repository around it.
            let top = git(dir, &["rev-parse", "--show-toplevel"])
                .ok()
                .and_then(|t| Path::new(&t).canonicalize().ok());
            let own = top.is_some() && top == dir.canonicalize().ok();
            let commit = own
                .then(|| git(dir, &["rev-parse", "HEAD"]).ok())
                .flatten()
                .map(|c| {
                    let dirty = git(dir, &["status", "--porcelain", "--untracked-files=no"])
                        .is_ok_and(|s| !s.is_empty());
                    if dirty {
                        format!("{c}-dirty")
                    } else {
                        c
                    }
                });
            Ok(format!(
                "{} ({})",
                commit.unwrap_or_else(|| "not a git checkout".into()),
                dir.display()
            ))
        }
        Spec::Rev(dir, rev) => {
            let commit = git(
                dir,
                &["rev-parse", "--verify", &format!("{rev}^{{commit}}")],
            )?;
            let mut archive = Command::new("git")
                .arg("-C")
                .arg(dir)
                .args([
                    "archive",
                    "--format=tar",
                    &commit,
                    "--",
                    ".",
                    ":(exclude)srs",
                ])
                .stdout(Stdio::piped())
                .spawn()
                .map_err(|e| format!("git archive: {e}"))?;
            // -m: the files get the time of extraction, not the commit's. Cargo
            // rebuilds a path crate when a source file is newer than its last build:
            // with the commit's (older) times, the other side's build in the same tree
            // would count as fresh and be reused. (fs::copy of a DIR side sets the
            // time of the copy too.)
            let tar = Command::new("tar")
                .arg("-x")
                .arg("-m")
                .arg("-C")
                .arg(tree)
                .stdin(archive.stdout.take().expect("piped"))
                .status()
                .map_err(|e| format!("tar: {e}"))?;
            let git_ok = archive.wait().is_ok_and(|s| s.success());
            if !tar.success() || !git_ok {
                return Err(format!(
                    "extracting {rev} of {} failed (git archive | tar -x)",
                    dir.display()
                ));
            }
            Ok(format!("{commit} ({}@{rev})", dir.display()))
        }
        Spec::Ours(_) => unreachable!("mapped to Dir or Rev above"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_are_parsed() {
        let d = std::env::temp_dir();
        let s = d.display().to_string();
        assert_eq!(parse(&s).unwrap(), Spec::Dir(d.clone()));
        assert_eq!(
            parse(&format!("{s}@HEAD~2")).unwrap(),
            Spec::Rev(d.clone(), "HEAD~2".into())
        );
        assert!(parse("/no/such/dir@HEAD").is_err());
        assert!(parse(&format!("{s}@")).is_err());
        assert!(parse("").is_err());
        assert_eq!(parse("@main").unwrap(), Spec::Ours(Some("main".into())));
        assert_eq!(parse("@").unwrap(), Spec::Ours(None));
    }
}
