//! `report.svg`: a run as a picture, drawn with plotters' SVG backend (no system
//! fonts or libraries: the viewer sets the text).
//!
//! Two panels. **The permutation**: per runtime, one bar per implementation of
//! `Poseidon/permutation/<backend>` (time per permutation, log scale), upstream's
//! bar first and set apart in grey, each bar labelled with its time over upstream's
//! native time (over our reference's when upstream did not run), and a right axis
//! of the same heights per field multiplication (÷ 1,155). **The JavaScript
//! package against o1js** (when `js-report.json` is there): per runtime, o1js's
//! block cipher and `Poseidon.hash` set apart, then ours, each of ours labelled with
//! how many times faster it is than o1js on the same workload and runtime.

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use serde_json::Value;

use crate::runtime_order;

/// One bar.
#[derive(Clone, Debug, PartialEq)]
pub struct Bar {
    /// The runtime (the group the bar stands in).
    pub runtime: String,
    /// The implementation (the bar's colour, in the legend).
    pub implementation: String,
    /// Median time, nanoseconds.
    pub ns: f64,
    /// The text above the bar.
    pub label: String,
    /// Upstream's (or o1js's) bar: grey, first in its group, a gap after it.
    pub apart: bool,
}

/// One panel: a title, the bars in drawing order, what the labels mean.
#[derive(Clone, Debug)]
pub struct Panel {
    /// The panel's title.
    pub title: String,
    /// The bars, grouped by runtime.
    pub bars: Vec<Bar>,
    /// A line under the legend saying what the labels are.
    pub note: String,
    /// A right axis of the same times per unit of work: (units per bar's
    /// iteration, the axis' title); the permutation's is per multiplication.
    pub per_unit: Option<(f64, String)>,
}

const PERMUTATION: &str = "Poseidon/permutation/";

/// Upstream first, then the reference, then our backends by name.
fn implementation_order(name: &str) -> (u8, &str) {
    match name {
        "upstream" => (0, name),
        "reference" => (1, name),
        _ => (2, name),
    }
}

/// The distinct items, in the order they first appear.
fn first_seen<T: PartialEq>(items: impl Iterator<Item = T>) -> Vec<T> {
    let mut out = Vec::new();
    for item in items {
        if !out.contains(&item) {
            out.push(item);
        }
    }
    out
}

/// The permutation panel of a `report.json`: `None` when the run has no
/// `Poseidon/permutation/…` result.
pub fn permutation_panel(report: &Value) -> Option<Panel> {
    let mut rows: Vec<(String, String, f64)> = Vec::new();
    for r in report["results"].as_array()? {
        let Some((id, rt, ns)) = crate::result_fields(r) else {
            continue;
        };
        if let Some(backend) = id.strip_prefix(PERMUTATION) {
            rows.push((rt.to_string(), backend.to_string(), ns));
        }
    }
    if rows.is_empty() {
        return None;
    }
    let native = |backend: &str| {
        rows.iter()
            .find(|(rt, b, _)| rt == "native" && b == backend)
            .map(|r| r.2)
    };
    let (base_name, base) = match (native("upstream"), native("reference")) {
        (Some(ns), _) => ("upstream's native time", Some(ns)),
        (None, Some(ns)) => ("our reference's native time", Some(ns)),
        _ => ("", None),
    };
    rows.sort_by(|a, b| {
        runtime_order(&a.0)
            .cmp(&runtime_order(&b.0))
            .then(implementation_order(&a.1).cmp(&implementation_order(&b.1)))
    });
    let bars = rows
        .into_iter()
        .map(|(runtime, implementation, ns)| Bar {
            label: base.map_or(String::new(), |b| format!("{:.2}×", ns / b)),
            apart: implementation == "upstream",
            runtime,
            implementation,
            ns,
        })
        .collect();
    let note = if base.is_some() {
        format!("on each bar: its time over {base_name} (below 1: faster than that)")
    } else {
        String::new()
    };
    Some(Panel {
        title: "Poseidon/permutation (kimchi, Fp): time per permutation, log scale".into(),
        bars,
        note,
        per_unit: Some((
            f64::from(crate::per_mul::MULS_PER_PERMUTATION),
            "ns per field multiplication (÷ 1,155)".into(),
        )),
    })
}

/// The JavaScript cases drawn: (workload, implementation's prefix in js-report.json,
/// name in the chart, o1js's).
const JS_CASES: [(&str, &str, &str, bool); 5] = [
    (
        "permutation",
        "o1js: caml_pasta_fp",
        "o1js block cipher (Rust wasm)",
        true,
    ),
    (
        "hash of 1",
        "o1js: Poseidon.hash",
        "o1js Poseidon.hash (JS)",
        true,
    ),
    ("permutation", "ours: permute", "ours: permute", false),
    (
        "permutation",
        "ours: the wasm export",
        "ours: permute, the bare export",
        false,
    ),
    ("hash of 1", "ours: hash", "ours: hash", false),
];

/// The JavaScript panel of a `js-report.json`: `None` when it has no runtime.
pub fn js_panel(js: &Value) -> Option<Panel> {
    let runtimes = js["runtimes"].as_object()?;
    let mut names: Vec<&String> = runtimes.keys().collect();
    names.sort_by_key(|r| runtime_order(r));
    let mut bars = Vec::new();
    for rt in names {
        let results = runtimes[rt.as_str()]["results"].as_array()?;
        let find = |workload: &str, prefix: &str| {
            results.iter().find_map(|r| {
                (r["workload"].as_str() == Some(workload)
                    && r["implementation"]
                        .as_str()
                        .is_some_and(|i| i.starts_with(prefix)))
                .then(|| r["median_ns"].as_f64())
                .flatten()
            })
        };
        for (workload, prefix, name, o1js) in JS_CASES {
            let Some(ns) = find(workload, prefix) else {
                continue;
            };
            let theirs = JS_CASES
                .iter()
                .find(|c| c.0 == workload && c.3)
                .and_then(|c| find(c.0, c.1));
            let label = match (o1js, theirs) {
                (true, _) => "o1js".to_string(),
                (false, Some(t)) => format!("{:.1}×", t / ns),
                (false, None) => String::new(),
            };
            bars.push(Bar {
                runtime: rt.clone(),
                implementation: name.to_string(),
                ns,
                label,
                apart: o1js,
            });
        }
    }
    if bars.is_empty() {
        return None;
    }
    Some(Panel {
        title: "The JavaScript package against o1js 2.15: time per call, log scale".into(),
        bars,
        note:
            "on each of our bars: how many times faster than o1js on the same workload and runtime"
                .into(),
        per_unit: None,
    })
}

/// Colours: upstream (or o1js) in greys, ours from plotters' palette.
fn colour(implementation: &str, apart: bool, ours: &[String]) -> RGBColor {
    if apart {
        return if implementation.contains("hash") {
            RGBColor(170, 170, 170)
        } else {
            RGBColor(110, 110, 110)
        };
    }
    let i = ours.iter().position(|o| o == implementation).unwrap_or(0);
    let (r, g, b) = OURS[i % OURS.len()];
    RGBColor(r, g, b)
}

/// Our implementations' colours: dark enough for their names in the legend and
/// the labels on white (no yellow), apart from the greys.
const OURS: [(u8, u8, u8); 8] = [
    (214, 39, 40),
    (44, 160, 44),
    (255, 127, 14),
    (31, 119, 180),
    (148, 103, 189),
    (140, 86, 75),
    (227, 119, 194),
    (23, 190, 207),
];

const WIDTH: u32 = 1100;
const PANEL_HEIGHT: u32 = 420;

fn draw_panel(area: &DrawingArea<SVGBackend, Shift>, panel: &Panel) -> Result<(), String> {
    let err = |e: DrawingAreaErrorKind<_>| format!("drawing the chart: {e:?}");
    let (plot, legend) = area.split_vertically(PANEL_HEIGHT - 70);
    let runtimes = first_seen(panel.bars.iter().map(|b| b.runtime.clone()));
    let ours = first_seen(
        panel
            .bars
            .iter()
            .filter(|b| !b.apart)
            .map(|b| b.implementation.clone()),
    );
    // x positions: bars of width 0.8 at steps of 1, half a step after the grey
    // bars, one and a half between runtimes.
    let mut xs = Vec::new();
    let mut groups = Vec::new();
    let mut x = 0.5;
    for rt in &runtimes {
        let start = x;
        let mut seen_ours = false;
        for b in panel.bars.iter().filter(|b| &b.runtime == rt) {
            if !b.apart && !seen_ours {
                seen_ours = true;
                if x > start {
                    x += 0.5;
                }
            }
            xs.push(x);
            x += 1.0;
        }
        groups.push((rt.clone(), (start + x - 1.0 + 0.8) / 2.0));
        x += 1.5;
    }
    let lo_ns = panel
        .bars
        .iter()
        .map(|b| b.ns)
        .fold(f64::INFINITY, f64::min);
    let hi_ns = panel.bars.iter().map(|b| b.ns).fold(0.0, f64::max);
    let (lo, hi) = (lo_ns / 1e3 / 2.0, hi_ns / 1e3 * 4.0);
    // The right axis: the same heights in ns per unit (µs × 1000 / units).
    let units = panel.per_unit.as_ref().map_or(1e3, |(n, _)| *n);
    let mut chart = ChartBuilder::on(&plot)
        .caption(&panel.title, ("sans-serif", 18))
        .margin(12)
        .y_label_area_size(70)
        .right_y_label_area_size(if panel.per_unit.is_some() { 70 } else { 0 })
        .x_label_area_size(8)
        .build_cartesian_2d(0.0..x - 1.0, (lo..hi).log_scale())
        .map_err(err)?
        .set_secondary_coord(
            0.0..x - 1.0,
            (lo * 1e3 / units..hi * 1e3 / units).log_scale(),
        );
    let short = |v: &f64| {
        if *v >= 10.0 {
            format!("{v:.0}")
        } else {
            format!("{v:.1}")
        }
    };
    chart
        .configure_mesh()
        .disable_x_mesh()
        .disable_x_axis()
        .y_desc("µs")
        .y_label_formatter(&short)
        .draw()
        .map_err(err)?;
    if let Some((_, title)) = &panel.per_unit {
        chart
            .configure_secondary_axes()
            .y_desc(title.as_str())
            .y_label_formatter(&short)
            .draw()
            .map_err(err)?;
    }
    let label_style = TextStyle::from(("sans-serif", 11).into_font())
        .color(&BLACK)
        .pos(Pos::new(HPos::Center, VPos::Bottom));
    for (b, &x0) in panel.bars.iter().zip(&xs) {
        let us = b.ns / 1e3;
        let fill = colour(&b.implementation, b.apart, &ours);
        chart
            .draw_series(std::iter::once(Rectangle::new(
                [(x0, lo), (x0 + 0.8, us)],
                fill.filled(),
            )))
            .map_err(err)?;
        chart
            .draw_series(std::iter::once(Text::new(
                b.label.clone(),
                (x0 + 0.4, us * 1.08),
                label_style.clone(),
            )))
            .map_err(err)?;
    }
    let group_style = TextStyle::from(("sans-serif", 14).into_font())
        .color(&BLACK)
        .pos(Pos::new(HPos::Center, VPos::Top));
    for (rt, centre) in &groups {
        chart
            .draw_series(std::iter::once(Text::new(
                rt.clone(),
                (*centre, hi / 1.15),
                group_style.clone(),
            )))
            .map_err(err)?;
    }
    // The legend: one coloured square and name per implementation (text only).
    let mut names = first_seen(
        panel
            .bars
            .iter()
            .map(|b| (b.implementation.clone(), b.apart)),
    );
    names.sort_by_key(|(_, apart)| !apart);
    let (mut px, mut py) = (80, 6);
    for (name, apart) in &names {
        let c = colour(name, *apart, &ours);
        let text = format!("■ {name}");
        let w = 9 * text.chars().count() as i32 + 18;
        if px + w > WIDTH as i32 - 20 {
            px = 80;
            py += 18;
        }
        legend
            .draw_text(
                &text,
                &TextStyle::from(("sans-serif", 13).into_font()).color(&c),
                (px, py),
            )
            .map_err(err)?;
        px += w;
    }
    legend
        .draw_text(
            &panel.note,
            &TextStyle::from(("sans-serif", 12).into_font()).color(&BLACK),
            (80, py + 22),
        )
        .map_err(err)?;
    Ok(())
}

/// The SVG of the panels, one under the other.
pub fn svg(panels: &[Panel]) -> Result<String, String> {
    if panels.is_empty() {
        return Err(
            "nothing to draw: no Poseidon/permutation result and no JavaScript report".into(),
        );
    }
    let mut out = String::new();
    {
        let height = PANEL_HEIGHT * panels.len() as u32;
        let root = SVGBackend::with_string(&mut out, (WIDTH, height)).into_drawing_area();
        root.fill(&WHITE)
            .map_err(|e| format!("drawing the chart: {e:?}"))?;
        let areas = root.split_evenly((panels.len(), 1));
        for (area, panel) in areas.iter().zip(panels) {
            draw_panel(area, panel)?;
        }
        root.present()
            .map_err(|e| format!("drawing the chart: {e:?}"))?;
    }
    Ok(out)
}

/// The panels of a report directory's `report.json` and, when there, its
/// `js-report.json`.
pub fn panels(report: &Value, js: Option<&Value>) -> Vec<Panel> {
    permutation_panel(report)
        .into_iter()
        .chain(js.and_then(js_panel))
        .collect()
}
