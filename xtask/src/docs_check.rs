//! The documentation's checks (`cargo xtask docs`): every relative link of the
//! Markdown files resolves (the file, and the heading an anchor names), and no file
//! speaks of the project's development instead of the project: numbers of its
//! tracker, the developers' scratch folder, a machine that is not named.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// One problem, at a line of a file.
#[derive(Debug, PartialEq, Eq)]
pub struct Finding {
    /// The file, relative to the root.
    pub file: String,
    /// 1-based.
    pub line: usize,
    /// What is wrong.
    pub what: String,
}

/// The Markdown files a reader of the repository is given: the front page, the code
/// map, the guides, the package's README and everything under `docs/`.
pub fn files(root: &Path) -> Result<Vec<PathBuf>, String> {
    let mut out: Vec<PathBuf> = [
        "README.md",
        "ARCHITECTURE.md",
        "CONTRIBUTING.md",
        "CHANGELOG.md",
        "js/README.md",
    ]
    .iter()
    .map(|f| root.join(f))
    .collect();
    let mut dirs = vec![root.join("docs")];
    while let Some(dir) = dirs.pop() {
        let entries = std::fs::read_dir(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        for entry in entries {
            let path = entry.map_err(|e| e.to_string())?.path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|x| x == "md") {
                out.push(path);
            }
        }
    }
    out.sort();
    Ok(out)
}

/// The lines outside fenced code blocks, with their 1-based numbers.
fn prose(text: &str) -> Vec<(usize, &str)> {
    let mut fenced = false;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
        } else if !fenced {
            out.push((i + 1, line));
        }
    }
    out
}

/// A line without its inline code spans (`` `…` ``), which hold no links.
fn without_code(line: &str) -> String {
    let mut out = String::new();
    for (i, part) in line.split('`').enumerate() {
        if i % 2 == 0 {
            out.push_str(part);
        }
    }
    out
}

/// The targets of the inline links and images of a text: `(line, target)`.
pub fn links(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    for (n, line) in prose(text) {
        let line = without_code(line);
        let mut rest = line.as_str();
        while let Some(at) = rest.find("](") {
            let after = &rest[at + 2..];
            let end = after
                .find(|c: char| c == ')' || c.is_whitespace())
                .unwrap_or(after.len());
            out.push((n, after[..end].to_string()));
            rest = &after[end..];
        }
    }
    out
}

/// The anchor GitHub gives a heading: lower case, letters, digits, `-` and `_`
/// kept, spaces made `-`, everything else dropped.
pub fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

/// The anchors of a text's headings; a repeated heading gets `-1`, `-2`, ….
pub fn anchors(text: &str) -> Vec<String> {
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    let mut out = Vec::new();
    for (_, line) in prose(text) {
        let hashes = line.len() - line.trim_start_matches('#').len();
        if !(1..=6).contains(&hashes) || !line[hashes..].starts_with(' ') {
            continue;
        }
        let base = slug(&line[hashes..]);
        let n = seen.entry(base.clone()).or_insert(0);
        out.push(if *n == 0 {
            base.clone()
        } else {
            format!("{base}-{n}")
        });
        *n += 1;
    }
    out
}

/// Words about how the project was made rather than what it is: `(what, why)`.
const DEVELOPMENT_WORDS: &[(&str, &str)] = &[
    // Spelt in pieces, so that this file does not name the folder itself.
    (
        concat!("..", "/", "shared"),
        "a folder outside the repository",
    ),
    ("anchors.md", "a file outside the repository"),
    (
        "this machine",
        "a machine not named (say which: CPU, cores)",
    ),
    (
        "development machine",
        "a machine not named (say which: CPU, cores)",
    ),
    ("session", "the development's history"),
];

/// The words of `DEVELOPMENT_WORDS` and tracker numbers (`issue 12`, `issue #12`)
/// in a text: `(line, what)`. Another project's issues are cited as `owner/repo#N`
/// or `repo#N`, which this leaves alone.
pub fn development_words(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let lower = line.to_lowercase();
        for (word, why) in DEVELOPMENT_WORDS {
            if lower.contains(word) {
                out.push((n + 1, format!("\"{word}\": {why}")));
            }
        }
        for (at, _) in lower.match_indices("issue") {
            let word_start = !lower[..at]
                .chars()
                .next_back()
                .is_some_and(char::is_alphanumeric);
            let after = lower[at + "issue".len()..].trim_start_matches('s');
            let number = after.trim_start_matches(' ').trim_start_matches('#');
            if word_start
                && after.starts_with(' ')
                && number.starts_with(|c: char| c.is_ascii_digit())
            {
                out.push((n + 1, "a tracker number: say what, not which issue".into()));
            }
        }
    }
    out
}

/// Every finding of every file of [`files`].
pub fn check(root: &Path) -> Result<Vec<Finding>, String> {
    let mut texts = BTreeMap::new();
    for f in files(root)? {
        let text = std::fs::read_to_string(&f).map_err(|e| format!("{}: {e}", f.display()))?;
        texts.insert(f, text);
    }
    let mut out = Vec::new();
    for (file, text) in &texts {
        let name = file
            .strip_prefix(root)
            .unwrap_or(file)
            .display()
            .to_string();
        let mut add = |line, what| {
            out.push(Finding {
                file: name.clone(),
                line,
                what,
            })
        };
        for (line, what) in development_words(text) {
            add(line, what);
        }
        for (line, target) in links(text) {
            if target.contains("://") || target.starts_with("mailto:") {
                continue;
            }
            let (path, anchor) = match target.split_once('#') {
                Some((p, a)) => (p, Some(a)),
                None => (target.as_str(), None),
            };
            let dest = if path.is_empty() {
                file.clone()
            } else {
                file.parent().unwrap_or(root).join(path)
            };
            if !dest.exists() {
                add(line, format!("link to {target}: no such file"));
                continue;
            }
            let Some(anchor) = anchor else { continue };
            let dest_text = match texts.get(&dest) {
                Some(t) => t.clone(),
                None => std::fs::read_to_string(&dest).unwrap_or_default(),
            };
            if !anchors(&dest_text).iter().any(|a| a == anchor) {
                add(
                    line,
                    format!("link to {target}: no heading with that anchor"),
                );
            }
        }
    }
    Ok(out)
}

/// `cargo xtask docs --help`.
pub const USAGE: &str = "usage: cargo xtask docs   (README.md, ARCHITECTURE.md, CONTRIBUTING.md, CHANGELOG.md, js/README.md, docs/: relative links resolve, no tracker numbers or unnamed machines; ARCHITECTURE.md's entry-point table against make help, cargo xtask --help and nix/apps.nix)";

/// `docs`: prints each finding; Ok(false) when there is one.
pub fn task(root: &Path, args: &[String]) -> Result<bool, String> {
    if let Some(a) = args.first() {
        return Err(if a == "-h" || a == "--help" {
            String::new()
        } else {
            format!("unknown argument {a}")
        });
    }
    let found = check(root)?;
    for f in &found {
        println!("{}:{}: {}", f.file, f.line, f.what);
    }
    let entries = crate::entry_points::check(root)?;
    for e in &entries {
        println!("ARCHITECTURE.md: entry points: {e}");
    }
    let n = files(root)?.len();
    println!(
        "{n} files, {} findings; the entry-point table: {} findings",
        found.len(),
        entries.len()
    );
    Ok(found.is_empty() && entries.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn links_outside_code() {
        let text = "See [a](docs/a.md) and ![chart](r.svg \"title\").\n\
                    `[not](code.md)` [b](https://x.org/y) [c](#top)\n\
                    ```\n[fenced](f.md)\n```\n";
        let got: Vec<String> = links(text).into_iter().map(|(_, t)| t).collect();
        assert_eq!(got, ["docs/a.md", "r.svg", "https://x.org/y", "#top"]);
    }

    #[test]
    fn anchors_as_github_makes_them() {
        let text = "# The JavaScript package (`js/`)\n## Against o1js, per Node\n\
                    ## Notes\n## Notes\n```\n# not a heading\n```\n#hashtag\n";
        assert_eq!(
            anchors(text),
            [
                "the-javascript-package-js",
                "against-o1js-per-node",
                "notes",
                "notes-1"
            ]
        );
        assert_eq!(
            slug("2026-12-02: wide, three rounds"),
            "2026-12-02-wide-three-rounds"
        );
    }

    #[test]
    fn development_words_found() {
        let lines =
            |t: &str| -> Vec<usize> { development_words(t).into_iter().map(|(n, _)| n).collect() };
        assert_eq!(lines("Issue 15's criteria\nissues #3 and #4\n"), [1, 2]);
        assert_eq!(
            lines(&format!(
                "on this machine\nsee ../{}/x\nas o1js#1787 says\n",
                "shared"
            )),
            [1, 2]
        );
        assert!(
            lines("the tissue 3 cells; an issue with no number; proof-systems#1645").is_empty()
        );
    }

    #[test]
    fn broken_links_and_anchors_reported() {
        let root = std::env::temp_dir().join(format!("docs-check-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        std::fs::create_dir_all(root.join("docs/results")).unwrap();
        for f in ["ARCHITECTURE.md", "CONTRIBUTING.md", "CHANGELOG.md"] {
            std::fs::write(root.join(f), "# x\n").unwrap();
        }
        std::fs::create_dir_all(root.join("js")).unwrap();
        std::fs::write(root.join("js/README.md"), "# Use\n[up](../README.md#a-b)\n").unwrap();
        std::fs::write(
            root.join("README.md"),
            "# A b\n[r](docs/results/r.md#one) [gone](docs/gone.md) [bad](docs/results/r.md#two)\n",
        )
        .unwrap();
        std::fs::write(
            root.join("docs/results/r.md"),
            "# One\n[back](../../README.md)\n",
        )
        .unwrap();
        let found: Vec<(String, usize)> = check(&root)
            .unwrap()
            .into_iter()
            .map(|f| (f.file, f.line))
            .collect();
        std::fs::remove_dir_all(&root).unwrap();
        assert_eq!(
            found,
            [("README.md".to_string(), 2), ("README.md".to_string(), 2)]
        );
    }
}
