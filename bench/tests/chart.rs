//! `report.svg`: one bar per result, each with its label, upstream's (and o1js's)
//! bars set apart; `bench-report chart DIR` writes it. Natively only: the chart is
//! drawn by the host's `bench-report`.
#![cfg(not(target_arch = "wasm32"))]

use poseidon_benches::chart::{js_panel, panels, permutation_panel, svg};
use serde_json::{json, Value};

fn report() -> Value {
    let mut results = Vec::new();
    for (rt, scale) in [("native", 1.0), ("wasmtime", 3.0), ("node24", 3.3)] {
        for (backend, ns) in [
            ("upstream", 20_000.0),
            ("reference", 19_000.0),
            ("u29", 9_000.0),
            ("u52", 7_000.0),
        ] {
            results.push(json!({"id": format!("Poseidon/permutation/{backend}"), "runtime": rt, "median_ns": ns * scale}));
        }
        // Other benchmarks are not drawn.
        results.push(json!({"id": "Poseidon/hash/u29/2", "runtime": rt, "median_ns": 1.0}));
    }
    json!({ "results": results })
}

fn js_report() -> Value {
    let rt = |scale: f64| {
        json!({"results": [
            {"workload": "permutation", "implementation": "ours: permute", "median_ns": 30_000.0 * scale},
            {"workload": "permutation", "implementation": "ours: the wasm export (limbs in and out, no wrapper)", "median_ns": 28_000.0 * scale},
            {"workload": "permutation", "implementation": "o1js: caml_pasta_fp_poseidon_block_cipher (Rust wasm)", "median_ns": 90_000.0 * scale},
            {"workload": "hash of 1", "implementation": "ours: hash", "median_ns": 31_000.0 * scale},
            {"workload": "hash of 1", "implementation": "o1js: Poseidon.hash (JS)", "median_ns": 350_000.0 * scale},
            {"workload": "hash of 16", "implementation": "ours: hash", "median_ns": 1.0}
        ]})
    };
    json!({"runtimes": {"node24": rt(1.0), "chromium": rt(1.1)}})
}

/// The filled rectangles of an SVG other than the white background: the bars.
fn bars(svg: &str) -> Vec<&str> {
    svg.split("<rect")
        .skip(1)
        .filter(|r| !r.contains("fill=\"#FFFFFF\""))
        .collect()
}

#[test]
fn one_bar_per_permutation_result() {
    let panel = permutation_panel(&report()).unwrap();
    assert_eq!(panel.bars.len(), 12);
    // Upstream first in every runtime, labelled with its time over upstream native.
    let labels: Vec<(&str, &str, &str)> = panel
        .bars
        .iter()
        .map(|b| {
            (
                b.runtime.as_str(),
                b.implementation.as_str(),
                b.label.as_str(),
            )
        })
        .collect();
    assert_eq!(labels[0], ("native", "upstream", "1.00×"));
    assert_eq!(labels[3], ("native", "u52", "0.35×"));
    assert_eq!(labels[4], ("wasmtime", "upstream", "3.00×"));
    assert!(panel
        .bars
        .iter()
        .all(|b| b.apart == (b.implementation == "upstream")));
    let text = svg(&[panel]).unwrap();
    assert_eq!(bars(&text).len(), 12, "{text}");
    for label in ["1.00×", "0.35×", "3.00×", "native", "wasmtime", "node24"] {
        assert!(text.contains(label), "{label} missing");
    }
    // The right axis: the same heights per multiplication, 1,155 to a permutation.
    assert!(text.contains("ns per field multiplication (÷ 1,155)"));
}

/// The tick labels of an SVG: (x, y, number) of each text that is a number.
fn ticks(svg: &str) -> Vec<(f64, f64, f64)> {
    svg.split("<text")
        .skip(1)
        .filter_map(|t| {
            let attr = |name: &str| -> Option<f64> {
                let rest = t.split_once(&format!(" {name}=\""))?.1;
                rest.split_once('"')?.0.parse().ok()
            };
            let body = t.split_once('>')?.1.split_once('<')?.0.trim();
            Some((attr("x")?, attr("y")?, body.parse().ok()?))
        })
        .collect()
}

#[test]
fn the_right_axis_is_the_left_over_1155() {
    let panel = permutation_panel(&report()).unwrap();
    assert_eq!(panel.per_unit.as_ref().map(|(n, _)| *n), Some(1155.0));
    let text = svg(&[panel]).unwrap();
    let all = ticks(&text);
    let (left, right): (Vec<&(f64, f64, f64)>, Vec<_>) = all.iter().partition(|t| t.0 < 550.0);
    assert!(left.len() >= 3 && right.len() >= 3, "{all:?}");
    // The left axis is µs on a log scale: y = a + b·ln(µs), from its first and last tick.
    let (l0, l1) = (left[0], left[left.len() - 1]);
    let b = (l1.1 - l0.1) / (l1.2.ln() - l0.2.ln());
    let a = l0.1 - b * l0.2.ln();
    // A right tick of v ns per multiplication stands where v × 1155 / 1000 µs does.
    for &&(_, y, v) in &right {
        let want = a + b * (v * 1155.0 / 1000.0).ln();
        assert!(
            (y - want).abs() < 1.5,
            "right tick {v} at y {y}, want {want}"
        );
    }
    let js = js_panel(&js_report()).unwrap();
    assert!(js.per_unit.is_none());
    assert!(!svg(&[js]).unwrap().contains("per field multiplication"));
}

#[test]
fn without_upstream_the_reference_is_the_base() {
    let mut r = report();
    let kept: Vec<Value> = r["results"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|x| !x["id"].as_str().unwrap().ends_with("upstream"))
        .cloned()
        .collect();
    r["results"] = kept.into();
    let panel = permutation_panel(&r).unwrap();
    assert_eq!(panel.bars.len(), 9);
    assert_eq!(panel.bars[0].label, "1.00×");
    assert!(panel.note.contains("reference"));
    assert!(panel.bars.iter().all(|b| !b.apart));
}

#[test]
fn js_bars_with_their_speedup_over_o1js() {
    let panel = js_panel(&js_report()).unwrap();
    assert_eq!(panel.bars.len(), 10);
    // Runtimes in the report's order (Nodes, then the rest); o1js first, set apart.
    assert_eq!(panel.bars[0].runtime, "node24");
    assert!(panel.bars[0].apart && panel.bars[1].apart && !panel.bars[2].apart);
    let ours_permute = &panel.bars[2];
    assert_eq!(ours_permute.label, "3.0×");
    let ours_hash = &panel.bars[4];
    assert_eq!(ours_hash.label, "11.3×");
    let both = svg(&panels(&report(), Some(&js_report()))).unwrap();
    assert_eq!(bars(&both).len(), 22);
}

#[test]
fn nothing_to_draw_is_an_error() {
    assert!(panels(&json!({"results": []}), None).is_empty());
    assert!(svg(&[]).is_err());
}

#[test]
fn the_cli_writes_report_svg() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("chart-cli");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("report.json"), report().to_string()).unwrap();
    std::fs::write(dir.join("js-report.json"), js_report().to_string()).unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_bench-report"))
        .arg("chart")
        .arg(&dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(dir.join("report.svg")).unwrap();
    assert!(text.starts_with("<svg"));
    assert_eq!(bars(&text).len(), 22);
    let missing = std::process::Command::new(env!("CARGO_BIN_EXE_bench-report"))
        .args(["chart", dir.join("nowhere").to_str().unwrap()])
        .output()
        .unwrap();
    assert!(!missing.status.success());
    assert!(String::from_utf8_lossy(&missing.stderr).contains("no report.json"));
}
