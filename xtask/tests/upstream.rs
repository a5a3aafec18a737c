//! The generated crates that build upstream from a proof-systems checkout.

use std::path::Path;

use xtask::lab::upstream::{lab_manifest, own_manifest, workspace_profiles};

#[test]
fn the_lab_takes_upstream_by_path_and_stays_out_of_the_workspace() {
    let (ps, root) = (Path::new("/src/proof-systems"), Path::new("/src/lab"));
    let m = lab_manifest(ps, root);
    for want in [
        "\n[workspace]\n",
        "path = \"/src/lab/bench/benches/poseidon.rs\"",
        "default = [\"upstream\"]",
        "[[example]]\nname = \"count\"\npath = \"/src/lab/bench/examples/count.rs\"",
        "poseidon = { package = \"kimchi-poseidon\", path = \"/src/lab/poseidon\" }",
        "mina-poseidon = { path = \"/src/proof-systems/poseidon\" }",
        "mina-curves = { path = \"/src/proof-systems/curves\" }",
        // No checkout there: no feature `std` seen, none asked for.
        "mina-poseidon = { path = \"/src/proof-systems/poseidon\", default-features = false }",
        "criterion = { version = \"0.8\", default-features = false }",
    ] {
        assert!(m.contains(want), "lab manifest lacks {want}:\n{m}");
    }
    let o = own_manifest(ps, "");
    for want in [
        "path = \"/src/proof-systems/poseidon/benches/poseidon_bench.rs\"",
        "criterion = { version = \"0.5\", features = [\"cargo_bench_support\", \"html_reports\"] }",
        "rand = \"0.8\"",
    ] {
        assert!(o.contains(want), "own manifest lacks {want}:\n{o}");
    }
}

#[test]
fn paths_are_toml_strings() {
    let m = own_manifest(Path::new("/a \"b\"\\c"), "");
    assert!(
        m.contains(r#"path = "/a \"b\"\\c/poseidon/benches/poseidon_bench.rs""#),
        "{m}"
    );
}

#[test]
fn upstreams_own_bench_gets_the_workspaces_profiles() {
    let ws = "[workspace]\nmembers = [\"poseidon\"]\n\n[profile.release]\nlto = true\npanic = 'abort'\n# codegen-units = 1\n\n\
              [profile.release.package.kimchi_wasm]\ndebug = true\n\n[profile.bench.package.mina-poseidon]\nopt-level = 3\n\n\
              [workspace.dependencies]\nrand = \"0.8\"\n";
    assert_eq!(
        workspace_profiles(ws),
        "[profile.release]\nlto = true\npanic = 'abort'\n# codegen-units = 1\n\n[profile.bench.package.mina-poseidon]\nopt-level = 3\n"
    );
    let o = own_manifest(Path::new("/ps"), ws);
    assert!(o.contains("\n[profile.release]\nlto = true\n"), "{o}");
    assert!(
        !o.contains("kimchi_wasm") && !o.contains("workspace.dependencies"),
        "{o}"
    );
    assert_eq!(workspace_profiles("[package]\nname = \"x\"\n"), "");
}

/// Reads a real directory tree; skipped under WASI, whose sandbox has no temp dir.
#[cfg(not(target_os = "wasi"))]
#[test]
fn a_checkout_needs_both_crates_and_upstreams_own_bench_is_optional() {
    let root = Path::new(env!("CARGO_TARGET_TMPDIR")).join("fake-proof-systems");
    let _ = std::fs::remove_dir_all(&root);
    let write = |rel: &str, text: &str| {
        let p = root.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    };
    assert!(xtask::lab::upstream::check_checkout(&root)
        .unwrap_err()
        .contains("PROOF_SYSTEMS="));
    write(
        "poseidon/Cargo.toml",
        "[package]\nname = \"mina-poseidon\"\n",
    );
    let e = xtask::lab::upstream::check_checkout(&root).unwrap_err();
    assert!(e.contains("not a proof-systems checkout"), "{e}");
    write("curves/Cargo.toml", "[package]\nname = \"mina-curves\"\n");
    write("Cargo.lock", "# their lock\n");
    assert_eq!(
        xtask::lab::upstream::check_checkout(&root).unwrap(),
        root.canonicalize().unwrap()
    );
    // A revision without upstream's own benchmark: the lab's crate only.
    let out = root.join("out");
    xtask::lab::upstream::write_lab(&root, Path::new("/repo"), &out).unwrap();
    let lab = std::fs::read_to_string(out.join("lab/Cargo.toml")).unwrap();
    assert!(!out.join("own").exists());
    // Before upstream's no-std change there is no feature `std` to ask for.
    assert!(lab.contains("default-features = false }"), "{lab}");
    write(
        "poseidon/Cargo.toml",
        "[package]\nname = \"mina-poseidon\"\n\n[features]\ndefault = [\"std\"]\nstd = []\n",
    );
    xtask::lab::upstream::write_lab(&root, Path::new("/repo"), &out).unwrap();
    let lab = std::fs::read_to_string(out.join("lab/Cargo.toml")).unwrap();
    assert!(
        lab.contains("default-features = false, features = [\"std\"] }"),
        "{lab}"
    );

    write("poseidon/benches/poseidon_bench.rs", "fn main() {}\n");
    xtask::lab::upstream::write_lab(&root, Path::new("/repo"), &out).unwrap();
    for crate_dir in ["lab", "own"] {
        let m = std::fs::read_to_string(out.join(crate_dir).join("Cargo.toml")).unwrap();
        assert!(m.contains("mina-poseidon"), "{m}");
        let lock = std::fs::read_to_string(out.join(crate_dir).join("Cargo.lock")).unwrap();
        assert_eq!(lock, "# their lock\n");
    }
}
