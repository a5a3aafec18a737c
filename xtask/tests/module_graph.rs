//! The library's files (and every crate root's) use one another without a circle,
//! and the graph reader sees a circle when there is one. Host only: it reads the source tree, which a
//! Wasm test does not see.
#![cfg(not(target_os = "wasi"))]

use std::path::{Path, PathBuf};

use xtask::module_graph::Graph;

fn library() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../poseidon/src")
}

/// A throwaway crate under the target folder: `(path, text)` per file.
fn scratch(name: &str, files: &[(&str, &str)]) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    for (path, text) in files {
        let p = dir.join(path);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
    dir
}

fn edges(g: &Graph) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for (a, to) in g.edges.iter().enumerate() {
        for &b in to {
            out.push((g.files[a].clone(), g.files[b].clone()));
        }
    }
    out
}

fn has(g: &Graph, a: &str, b: &str) -> bool {
    edges(g).iter().any(|(x, y)| x == a && y == b)
}

#[test]
fn the_library_has_no_circle() {
    let g = Graph::read(&library(), "lib.rs").unwrap();
    let circles: Vec<Vec<&str>> = g
        .circles()
        .iter()
        .map(|c| c.iter().map(|&f| g.files[f].as_str()).collect())
        .collect();
    assert!(circles.is_empty(), "circles: {circles:?}\n{}", g.text());
    // The seam's layers, as the architecture describes them.
    assert!(has(&g, "permutation.rs", "field.rs"));
    assert!(has(&g, "backend/mod.rs", "permutation.rs"));
    assert!(!has(&g, "field.rs", "permutation.rs"));
    assert!(g.files.len() > 30, "{:?}", g.files);
}

#[test]
fn a_circle_through_a_call_is_found_and_re_exports_are_not_uses() {
    let dir = scratch(
        "circle",
        &[
            ("lib.rs", "mod a;\nmod b;\npub use a::A;\npub use b::B;\n"),
            (
                "a.rs",
                "pub struct A;\npub fn f() { crate::b::g() }\n#[cfg(test)]\nmod t { use crate::B; }\n",
            ),
            ("b.rs", "use super::a::A;\npub struct B(A);\npub fn g() {}\n"),
        ],
    );
    let g = Graph::read(&dir, "lib.rs").unwrap();
    assert!(
        has(&g, "a.rs", "b.rs") && has(&g, "b.rs", "a.rs"),
        "{}",
        g.text()
    );
    assert!(
        !has(&g, "lib.rs", "a.rs"),
        "a re-export counted:\n{}",
        g.text()
    );
    assert_eq!(g.circles().len(), 1);

    // The same crate with the call gone: no circle (the test module's use of B is
    // left out).
    let dir = scratch(
        "no-circle",
        &[
            ("lib.rs", "mod a;\nmod b;\npub use a::A;\npub use b::B;\n"),
            (
                "a.rs",
                "pub struct A;\npub fn f() {}\n#[cfg(test)]\nmod t { use crate::B; }\n",
            ),
            ("b.rs", "use super::a::A;\npub struct B(A);\n"),
        ],
    );
    let g = Graph::read(&dir, "lib.rs").unwrap();
    assert!(g.circles().is_empty(), "{}", g.text());
}

#[test]
fn paths_through_re_exports_macros_and_folders_reach_the_defining_file() {
    let dir = scratch(
        "resolve",
        &[
            (
                "lib.rs",
                "#[macro_use]\nmod m;\nmod outer;\npub use outer::Deep;\npub fn top() {}\n",
            ),
            ("m.rs", "macro_rules! twice { ($e:expr) => { $e; $e } }\n"),
            ("outer/mod.rs", "mod inner;\npub use inner::Deep;\n"),
            (
                "outer/inner.rs",
                "pub struct Deep;\nfn h() { twice!(crate::top()); }\n",
            ),
        ],
    );
    let g = Graph::read(&dir, "lib.rs").unwrap();
    assert!(has(&g, "outer/inner.rs", "m.rs"), "{}", g.text());
    assert!(has(&g, "outer/inner.rs", "lib.rs"), "{}", g.text());
    assert!(!has(&g, "outer/mod.rs", "outer/inner.rs"), "{}", g.text());
    assert!(g.circles().is_empty());
}

fn repository() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

#[test]
fn no_crate_root_and_not_the_javascript_package_has_a_circle() {
    use xtask::module_graph::{crate_roots, js_graph};
    let roots = crate_roots(&repository()).unwrap();
    let names: Vec<String> = roots
        .iter()
        .map(|(d, f)| d.join(f).display().to_string())
        .collect();
    // Every kind of crate root is read: libraries, binaries, benches, examples, tests.
    for want in [
        "poseidon/src/lib.rs",
        "bench/src/main.rs",
        "bench/benches/poseidon.rs",
        "bench/examples/count.rs",
        "xtask/tests/module_graph.rs",
        "js/wasm/src/lib.rs",
    ] {
        assert!(
            names.iter().any(|n| n.ends_with(want)),
            "{want} not among {names:?}"
        );
    }
    for (dir, file) in &roots {
        let g = Graph::read(dir, file).unwrap();
        assert!(
            g.circles().is_empty(),
            "{}/{file}:\n{}",
            dir.display(),
            g.text()
        );
    }
    // The flake's source (where make test runs the host tests, as nix flake check
    // does) holds no JavaScript: there `cargo xtask module-graph --all`, a step of
    // its own, checks the package.
    if repository().join("js/package.json").is_file() {
        let js = js_graph(&repository().join("js")).unwrap();
        assert!(js.circles().is_empty(), "js:\n{}", js.text());
        assert!(
            js.edges.iter().map(|e| e.len()).sum::<usize>() > 10,
            "the package's imports were not read:\n{}",
            js.text()
        );
    }
}

#[test]
fn a_javascript_circle_is_found() {
    use xtask::module_graph::{js_graph, js_imports};
    assert_eq!(
        js_imports("import { a } from \"./a.js\";\nexport * from '../b.mjs';\nconst m = await import(\"./c.js\");\nimport \"./d.js\";\nimport x from \"o1js\";\nconst fromage = 1;"),
        ["./a.js", "../b.mjs", "./d.js", "./c.js"]
    );
    let dir = scratch(
        "js-circle",
        &[
            (
                "a.js",
                "import { b } from \"./sub/b.js\";\nexport const a = 1;\n",
            ),
            (
                "sub/b.js",
                "import { a } from \"../a.js\";\nexport const b = a;\n",
            ),
            ("c.js", "import { a } from \"./a.js\";\n"),
        ],
    );
    let g = js_graph(&dir).unwrap();
    let circles: Vec<Vec<&str>> = g
        .circles()
        .iter()
        .map(|c| {
            let mut c: Vec<&str> = c.iter().map(|&f| g.files[f].as_str()).collect();
            c.sort_unstable();
            c
        })
        .collect();
    assert_eq!(circles, vec![vec!["a.js", "sub/b.js"]]);
}
