//! Cost per field multiplication. A kimchi permutation does
//! [`MULS_PER_PERMUTATION`] field multiplications, and other implementations
//! publish their cost per multiplication (docs/methodology.md lists them), so the
//! report gives, per backend and runtime, the permutation's time over that number
//! beside `Field/mul/<backend>` (one multiplication in a dependent chain: its
//! latency), and the exact counts per multiplication beside those of one
//! `Field/mul`.

use serde_json::{json, Value};

use crate::counts::{kinds_asked, Kind, Row};
use crate::Table;

/// Field multiplications in one kimchi permutation: 55 full rounds, each with
/// three S-boxes x⁷ (two squarings and two multiplications each) and the 3×3 MDS
/// product (nine). The round constants' additions are not counted.
pub const MULS_PER_PERMUTATION: u32 = 55 * (3 * 4 + 9);

const PERMUTATION: &str = "Poseidon/permutation/";
const FIELD_MUL: &str = "Field/mul/";

/// One backend on one runtime.
#[derive(Clone, Debug, PartialEq)]
pub struct PerMul {
    /// The backend, e.g. `u29`, `upstream`.
    pub backend: String,
    /// The runtime.
    pub runtime: String,
    /// The permutation's median over [`MULS_PER_PERMUTATION`], ns.
    pub permutation_ns: Option<f64>,
    /// `Field/mul/<backend>`'s median, ns.
    pub field_mul_ns: Option<f64>,
}

/// The backends of the permutation and `Field/mul` IDs among `ids`, in their order.
fn backends<'a>(ids: impl Iterator<Item = &'a str>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for id in ids {
        let b = id
            .strip_prefix(PERMUTATION)
            .or_else(|| id.strip_prefix(FIELD_MUL));
        if let Some(b) = b.filter(|b| !b.contains('/') && !out.iter().any(|o| o == b)) {
            out.push(b.to_owned());
        }
    }
    out
}

/// Every backend with a permutation or a `Field/mul` row, on every runtime that
/// measured one of them.
pub fn per_multiplication(table: &Table) -> Vec<PerMul> {
    let n = f64::from(MULS_PER_PERMUTATION);
    backends(table.rows.iter().map(|(id, _)| id.as_str()))
        .into_iter()
        .flat_map(|b| {
            table
                .runtimes
                .iter()
                .enumerate()
                .filter_map(|(k, rt)| {
                    let permutation_ns =
                        table.cell(&format!("{PERMUTATION}{b}"), k).map(|ns| ns / n);
                    let field_mul_ns = table.cell(&format!("{FIELD_MUL}{b}"), k);
                    (permutation_ns.is_some() || field_mul_ns.is_some()).then(|| PerMul {
                        backend: b.clone(),
                        runtime: rt.clone(),
                        permutation_ns,
                        field_mul_ns,
                    })
                })
                .collect::<Vec<_>>()
        })
        .collect()
}

/// One decimal, or a dash.
fn dec1(v: Option<f64>) -> String {
    v.map_or_else(|| "—".into(), |x| format!("{x:.1}"))
}

/// One row per backend, one column per runtime: `P (F)`, ns, where P is the
/// permutation over [`MULS_PER_PERMUTATION`] and F one `Field/mul`.
fn cells(rows: &[PerMul], runtimes: &[String]) -> (Vec<String>, Vec<Vec<String>>) {
    let mut header = vec!["ns per multiplication: permutation ÷ 1,155 (Field/mul)".to_owned()];
    header.extend(runtimes.iter().cloned());
    // `per_multiplication` gives each backend's rows together.
    let body = rows
        .chunk_by(|a, b| a.backend == b.backend)
        .map(|of_backend| {
            let mut row = vec![of_backend[0].backend.clone()];
            row.extend(runtimes.iter().map(|rt| {
                of_backend.iter().find(|r| &r.runtime == rt).map_or_else(
                    || "—".into(),
                    |r| format!("{} ({})", dec1(r.permutation_ns), dec1(r.field_mul_ns)),
                )
            }));
            row
        })
        .collect();
    (header, body)
}

/// The table as aligned text.
pub fn text(rows: &[PerMul], runtimes: &[String]) -> String {
    let (h, b) = cells(rows, runtimes);
    crate::align(&h, &b)
}

/// The table in Markdown.
pub fn markdown(rows: &[PerMul], runtimes: &[String]) -> String {
    let (h, b) = cells(rows, runtimes);
    crate::markdown(&h, &b)
}

/// `report.json`'s `per_multiplication`.
pub fn to_json(rows: &[PerMul]) -> Value {
    rows.iter()
        .map(|r| {
            json!({"backend": r.backend, "runtime": r.runtime,
                   "permutation_ns_per_multiplication": r.permutation_ns,
                   "field_mul_ns": r.field_mul_ns,
                   "multiplications_per_permutation": MULS_PER_PERMUTATION})
        })
        .collect::<Vec<Value>>()
        .into()
}

/// The counts per multiplication: for each backend counted, a permutation's
/// counts over [`MULS_PER_PERMUTATION`] beside one `Field/mul`'s.
pub fn counts_text(rows: &[Row]) -> String {
    let kinds = kinds_asked(rows);
    let mut header = vec!["per multiplication: permutation ÷ 1,155 (Field/mul)".to_owned()];
    header.extend(kinds.iter().map(|k| k.title().to_owned()));
    let get = |id: String, k: Kind| rows.iter().find(|r| r.id == id).and_then(|r| r.get(k));
    let n = f64::from(MULS_PER_PERMUTATION);
    let body: Vec<Vec<String>> = backends(rows.iter().map(|r| r.id.as_str()))
        .into_iter()
        .map(|b| {
            let mut row = vec![b.clone()];
            row.extend(kinds.iter().map(|&k| {
                let p = get(format!("{PERMUTATION}{b}"), k).map(|c| c / n);
                let f = get(format!("{FIELD_MUL}{b}"), k);
                format!("{} ({})", dec1(p), dec1(f))
            }));
            row
        })
        .collect();
    if body.is_empty() {
        return String::new();
    }
    crate::align(&header, &body)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::counts::Count;

    fn table() -> Table {
        let rt = |v: &[&str]| v.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
        Table {
            runtimes: rt(&["native", "wasmtime"]),
            rows: vec![
                ("Field/mul/u29".into(), vec![Some(9.0), Some(14.0)]),
                ("Field/mul_x2/u29x2".into(), vec![Some(1.0), Some(1.0)]),
                ("Field/square/u29".into(), vec![Some(7.0), Some(11.0)]),
                ("Poseidon/hash/u29/2".into(), vec![Some(1.0), Some(1.0)]),
                (
                    "Poseidon/permutation/u29".into(),
                    vec![Some(11_550.0), Some(23_100.0)],
                ),
                (
                    "Poseidon/permutation/upstream".into(),
                    vec![Some(25_410.0), None],
                ),
                (
                    "Poseidon/permutation_x2/u29x2".into(),
                    vec![Some(1.0), Some(1.0)],
                ),
            ],
        }
    }

    #[test]
    fn a_permutation_is_1155_multiplications() {
        assert_eq!(MULS_PER_PERMUTATION, 1155);
    }

    #[test]
    fn each_backend_and_runtime_gets_its_permutation_over_1155_and_its_mul() {
        let p = per_multiplication(&table());
        let got: Vec<(&str, &str, Option<f64>, Option<f64>)> = p
            .iter()
            .map(|r| {
                (
                    r.backend.as_str(),
                    r.runtime.as_str(),
                    r.permutation_ns,
                    r.field_mul_ns,
                )
            })
            .collect();
        assert_eq!(
            got,
            vec![
                ("u29", "native", Some(10.0), Some(9.0)),
                ("u29", "wasmtime", Some(20.0), Some(14.0)),
                ("upstream", "native", Some(22.0), None),
            ]
        );
        let t = text(&p, &table().runtimes);
        assert!(t.contains("10.0 (9.0)") && t.contains("20.0 (14.0)"), "{t}");
        assert!(t.contains("22.0 (—)") && t.contains('—'), "{t}");
        let j = to_json(&p);
        assert_eq!(j[2]["permutation_ns_per_multiplication"], 22.0);
        assert_eq!(j[2]["field_mul_ns"], Value::Null);
    }

    #[test]
    fn counts_per_multiplication() {
        let row = |id: &str, n: u64| Row {
            id: id.into(),
            counts: [(Kind::Native, Count::Exact(n))].into(),
        };
        let t = counts_text(&[
            row("Field/mul/u64", 265),
            row("Poseidon/permutation/u64", 231_000),
            row("Poseidon/hash/u64/2", 231_500),
        ]);
        assert!(t.contains("u64") && t.contains("200.0 (265.0)"), "{t}");
        assert_eq!(counts_text(&[row("Poseidon/hash/u64/2", 1)]), "");
    }
}
