//! flake.lock pins exactly the agreed revisions (the table below), and agrees with
//! the inputs flake.nix declares. Nix 2.8 checks the lock's completeness offline;
//! this checks its content, including what that Nix does not (the `follows`).

use serde_json::{json, Value};

const LOCK: &str = include_str!("../../flake.lock");
const FLAKE: &str = include_str!("../../flake.nix");

/// One flake input as pinned: its revision, and the NAR hash of the tree that
/// GitHub's tarball of that commit unpacks to (what `nix flake lock` would write).
struct Pin {
    name: &'static str,
    owner: &'static str,
    repo: &'static str,
    reference: Option<&'static str>,
    rev: &'static str,
    last_modified: u64,
    nar_hash: &'static str,
}

const PINS: [Pin; 3] = [
    Pin {
        name: "nixpkgs",
        owner: "NixOS",
        repo: "nixpkgs",
        reference: Some("nixpkgs-unstable"),
        rev: "104240a772428cc2e20d8fd86c9ddbb886bbaff2",
        last_modified: 1785747939,
        nar_hash: "sha256-D740uKsMbgsfK2oaDenJLLPIZfq7W0/g4KN/Fls8eKs=",
    },
    Pin {
        name: "crane",
        owner: "ipetkov",
        repo: "crane",
        reference: None,
        rev: "2c71e194474d13de031d729b729c968ddbe3507f",
        last_modified: 1785782307,
        nar_hash: "sha256-MPaRdVkf6zZP5fCPxYCi8Dr4pZzgmXzg8T9nVEbp3Mw=",
    },
    Pin {
        name: "rust-overlay",
        owner: "oxalica",
        repo: "rust-overlay",
        reference: None,
        rev: "fd2ebb9cc4323d0c5a1336138dab5c3c5a5d8bd9",
        last_modified: 1787367552,
        nar_hash: "sha256-YT4Fs2k7bi+7YzuLt93EtIRgjpwHK5ZfsQEIh5dEQSk=",
    },
];

fn lock() -> Value {
    serde_json::from_str(LOCK).expect("flake.lock is JSON")
}

#[test]
fn lock_pins_the_agreed_revisions() {
    let lock = lock();
    assert_eq!(lock["version"], 7);
    assert_eq!(lock["root"], "root");
    let nodes = lock["nodes"].as_object().unwrap();
    assert_eq!(nodes.len(), 4, "root and three inputs, nothing else");
    assert_eq!(
        lock["nodes"]["root"]["inputs"],
        json!({"crane": "crane", "nixpkgs": "nixpkgs", "rust-overlay": "rust-overlay"})
    );
    for Pin {
        name,
        owner,
        repo,
        reference,
        rev,
        last_modified,
        nar_hash,
    } in PINS
    {
        let node = &lock["nodes"][name];
        assert_eq!(
            node["locked"],
            json!({"type": "github", "owner": owner, "repo": repo, "rev": rev,
                   "lastModified": last_modified, "narHash": nar_hash}),
            "{name}"
        );
        let mut original = json!({"type": "github", "owner": owner, "repo": repo});
        if let Some(r) = reference {
            original["ref"] = json!(r);
        }
        assert_eq!(
            node["original"], original,
            "{name}: original keeps the url without rev"
        );
        let url = match reference {
            Some(r) => format!("github:{owner}/{repo}/{r}"),
            None => format!("github:{owner}/{repo}"),
        };
        assert!(
            FLAKE.contains(&format!("url = \"{url}\"")),
            "flake.nix declares {url}"
        );
    }
    // rust-overlay follows our nixpkgs; crane and nixpkgs have no inputs.
    assert_eq!(
        lock["nodes"]["rust-overlay"]["inputs"],
        json!({"nixpkgs": ["nixpkgs"]})
    );
    assert!(FLAKE.contains("inputs.nixpkgs.follows = \"nixpkgs\""));
    assert!(lock["nodes"]["crane"].get("inputs").is_none());
    assert!(lock["nodes"]["nixpkgs"].get("inputs").is_none());
}
