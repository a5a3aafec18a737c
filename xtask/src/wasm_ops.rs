//! Wasm operators per function of a built module, read with `wasmparser`: which
//! instructions the compiler chose for the hot code (`i64x2.extmul_*` or the
//! expensive `i64x2.mul`, `i64.mul_wide_u` or calls to `__multi3`).
//!
//! ```text
//! cargo xtask wasm-ops MODULE [--function SUBSTRING]...
//!                       [--expect 'SUBSTRING: OP=N' | 'SUBSTRING: OP>N']...
//! cargo xtask hot-ops KIND=MODULE...
//! ```
//! Without `--expect` it prints, for the functions whose (mangled) name contains a
//! SUBSTRING (every function without `--function`), the operator counts; with
//! `--expect`, every function matching SUBSTRING must satisfy the condition (and at
//! least one must match), else the exit status is 1; SUBSTRING `*` stands for the
//! whole module (the sum over its functions). Calls are counted as
//! `call:NAME`, so `call:__multi3=0` checks that no 128-bit multiply is a libcall.
//! `hot-ops` checks each module against the expectations of its kind ([`hot_expectations`]:
//! what `make test` asserts of the built modules).

use std::collections::BTreeMap;

use wasmparser::{KnownCustom, Name, Operator, Parser, Payload, TypeRef};

/// Operator counts of one defined function.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FunctionOps {
    /// The name from the module's name section (mangled), or `func[INDEX]`.
    pub name: String,
    /// Operator name (wasmparser's `Operator` variant, e.g. `I64x2Mul`; calls as `call:NAME`) → count.
    pub ops: BTreeMap<String, u64>,
}

impl FunctionOps {
    /// How often `op` occurs (0 when it does not).
    pub fn count(&self, op: &str) -> u64 {
        self.ops.get(op).copied().unwrap_or(0)
    }
    /// Every operator counted (calls included).
    pub fn total(&self) -> u64 {
        self.ops.values().sum()
    }
}

/// The operator counts of every function defined in `module`.
pub fn function_ops(module: &[u8]) -> Result<Vec<FunctionOps>, String> {
    let err = |e: wasmparser::BinaryReaderError| format!("not a readable Wasm module: {e}");
    let mut imported = 0u32;
    let mut names: BTreeMap<u32, String> = BTreeMap::new();
    let mut bodies: Vec<Vec<(String, Option<u32>)>> = Vec::new();
    for payload in Parser::new(0).parse_all(module) {
        match payload.map_err(err)? {
            Payload::ImportSection(section) => {
                for import in section.into_imports() {
                    let import = import.map_err(err)?;
                    if let TypeRef::Func(_) = import.ty {
                        names.insert(imported, import.name.to_owned());
                        imported += 1;
                    }
                }
            }
            Payload::CodeSectionEntry(body) => {
                let mut ops = Vec::new();
                let mut reader = body.get_operators_reader().map_err(err)?;
                while !reader.eof() {
                    let op = reader.read().map_err(err)?;
                    ops.push(match op {
                        Operator::Call { function_index } => (String::new(), Some(function_index)),
                        other => (op_name(&other), None),
                    });
                }
                bodies.push(ops);
            }
            Payload::CustomSection(section) => {
                if let KnownCustom::Name(reader) = section.as_known() {
                    for name in reader {
                        if let Name::Function(map) = name.map_err(err)? {
                            for naming in map {
                                let naming = naming.map_err(err)?;
                                names.insert(naming.index, naming.name.to_owned());
                            }
                        }
                    }
                }
            }
            _ => {}
        }
    }
    let name_of = |i: u32| names.get(&i).cloned().unwrap_or(format!("func[{i}]"));
    Ok(bodies
        .into_iter()
        .enumerate()
        .map(|(k, ops)| {
            let mut counts = BTreeMap::new();
            for (op, callee) in ops {
                let key = match callee {
                    Some(i) => format!("call:{}", name_of(i)),
                    None => op,
                };
                *counts.entry(key).or_insert(0) += 1;
            }
            FunctionOps {
                name: name_of(imported + k as u32),
                ops: counts,
            }
        })
        .collect())
}

/// `I64x2Mul`, `I64x2ExtMulLowI32x4U`, … (the variant's name, without its fields).
fn op_name(op: &Operator<'_>) -> String {
    let debug = format!("{op:?}");
    debug
        .split([' ', '{', '('])
        .next()
        .unwrap_or_default()
        .to_owned()
}

/// One `--expect`: functions whose name contains `function` have `op` `cmp` `n`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Expectation {
    /// Substring of the function names it applies to.
    pub function: String,
    /// Operator name as in [`FunctionOps::ops`].
    pub op: String,
    /// `true`: count > n; `false`: count == n.
    pub more_than: bool,
    /// The bound.
    pub n: u64,
}

impl Expectation {
    /// Parses `SUBSTRING: OP=N` or `SUBSTRING: OP>N`.
    pub fn parse(s: &str) -> Result<Self, String> {
        let bad = || format!("--expect wants 'FUNCTION: OP=N' or 'FUNCTION: OP>N', got '{s}'");
        // ": " (with the blank) separates, since `call:NAME` has a colon of its own.
        let (function, cond) = s.split_once(": ").ok_or_else(bad)?;
        let (op, more_than, n) = if let Some((op, n)) = cond.split_once('>') {
            (op, true, n)
        } else if let Some((op, n)) = cond.split_once('=') {
            (op, false, n)
        } else {
            return Err(bad());
        };
        Ok(Expectation {
            function: function.trim().to_owned(),
            op: op.trim().to_owned(),
            more_than,
            n: n.trim().parse().map_err(|_| bad())?,
        })
    }

    /// Whether it applies to `f` (`*`: to every function).
    pub fn matches(&self, f: &FunctionOps) -> bool {
        self.function == "*" || f.name.contains(&self.function)
    }

    /// `OP = N` or `OP > N`.
    pub fn condition(&self) -> String {
        let cmp = if self.more_than { '>' } else { '=' };
        format!("{} {cmp} {}", self.op, self.n)
    }

    /// The violations in `functions` (one line each); a pattern matching no function
    /// is a violation too (the hot code was renamed or inlined away).
    pub fn check(&self, functions: &[FunctionOps]) -> Vec<String> {
        if self.function == "*" {
            let total = FunctionOps {
                name: "the module".into(),
                ops: functions.iter().fold(BTreeMap::new(), |mut acc, f| {
                    for (op, n) in &f.ops {
                        *acc.entry(op.clone()).or_insert(0) += n;
                    }
                    acc
                }),
            };
            return Expectation {
                function: String::new(),
                ..self.clone()
            }
            .check(&[total]);
        }
        let matching: Vec<_> = functions.iter().filter(|f| self.matches(f)).collect();
        if matching.is_empty() {
            return vec![format!("no function's name contains '{}'", self.function)];
        }
        matching
            .into_iter()
            .filter_map(|f| {
                let c = f.count(&self.op);
                let ok = if self.more_than {
                    c > self.n
                } else {
                    c == self.n
                };
                (!ok).then(|| format!("{}: {c}, expected {}", f.name, self.condition()))
            })
            .collect()
    }
}

/// The kinds of module `hot-ops` knows, with what their hot functions must hold:
/// - `probe`: the `u29_probe` example, the `u29` permutation alone: no `__multi3`
///   (the 128-bit multiply's libcall) anywhere, while its ark-ff conversion multiplies;
/// - `simd`: a module with the four-lane `u29` kernels (`u29::x4`): `extmul` in each,
///   never the three-multiply `i64x2.mul`, no `__multi3`;
/// - `bench`: the wasip1 bench module: `simd`, and `__multi3` somewhere (the
///   reference backend, the control);
/// - `fma`: the package's `fma` module: `simd`, and its generated kernels (`fma_*`)
///   multiply by `f64x2.relaxed_madd` only;
/// - `wide`: a `+wide-arithmetic` build: the `u64` kimchi permutation uses
///   `i64.mul_wide_u`, calls no `__multi3`, and branches only to repeat its
///   rounds (one `br_if`, no `if`: no branch on a value);
/// - `upstream-wide`: the lab's benchmark with backend `upstream` built with
///   `+wide-arithmetic`: mina-poseidon's permutation and ark-ff's field multiply
///   and square (instantiated in the benchmark's crate, which the wrapper widens)
///   use `i64.add128`, and no `__multi3`. They need not use `i64.mul_wide_u`:
///   ark-ff's `widening_mul` multiplies 32-bit halves on Wasm, by its own choice.
pub fn hot_expectations(kind: &str) -> Option<Vec<&'static str>> {
    let simd = vec![
        "3u292x4: I64x2Mul=0",
        "3u292x4: call:__multi3=0",
        "3u292x43mul: I64x2ExtMulLowI32x4U>0",
        "3u292x46square: I64x2ExtMulLowI32x4U>0",
        "3u292x48dot3_add: I64x2ExtMulLowI32x4U>0",
        "3u292x48dot2_add: I64x2ExtMulLowI32x4U>0",
    ];
    let wide = [
        "3u646rounds9kimchi_fp7permute: I64MulWideU>0",
        "3u646rounds9kimchi_fp7permute: call:__multi3=0",
        // The rounds' loop is its only branch: nothing branches on a value.
        "3u646rounds9kimchi_fp7permute: BrIf=1",
        "3u646rounds9kimchi_fp7permute: If=0",
    ];
    Some(match kind {
        "probe" => vec!["*: call:__multi3=0", "to_ark_limbs: I64Mul>0"],
        "simd" => simd,
        "bench" => [vec!["*: call:__multi3>0"], simd].concat(),
        "fma" => [
            simd,
            vec![
                "fma_: F64x2RelaxedMadd>0",
                "fma_: I64x2Mul=0",
                "fma_: I64Mul=0",
            ],
        ]
        .concat(),
        "wide" => wide.to_vec(),
        // The functions of UPSTREAM_HOT.
        "upstream-wide" => vec![
            "mina_poseidon11permutation21poseidon_block_cipher: I64Add128>0",
            "mina_poseidon11permutation21poseidon_block_cipher: call:__multi3=0",
            "FpConfig$LT$_$GT$$GT$10mul_assign: I64Add128>0",
            "FpConfig$LT$_$GT$$GT$10mul_assign: call:__multi3=0",
            "Field$GT$15square_in_place: I64Add128>0",
            "Field$GT$15square_in_place: call:__multi3=0",
        ],
        _ => return None,
    })
}

/// Upstream's hot functions in the lab's benchmark (mangled-name substrings):
/// mina-poseidon's permutation, ark-ff's Montgomery multiply and square.
pub const UPSTREAM_HOT: [&str; 3] = [
    "mina_poseidon11permutation21poseidon_block_cipher",
    "FpConfig$LT$_$GT$$GT$10mul_assign",
    "Field$GT$15square_in_place",
];

/// What upstream's +wide-arithmetic module is: its hot functions checked
/// (`upstream-wide`), then their multiplying and wide operators, summed.
pub fn upstream_wide(module: &[u8]) -> Result<String, String> {
    let all = function_ops(module)?;
    let mut failures = Vec::new();
    for e in hot_expectations("upstream-wide").unwrap_or_default() {
        failures.extend(Expectation::parse(e)?.check(&all));
    }
    if !failures.is_empty() {
        return Err(format!(
            "upstream's module built with +wide-arithmetic is not widened: {}",
            failures.join("; ")
        ));
    }
    let hot: Vec<&FunctionOps> = all
        .iter()
        .filter(|f| UPSTREAM_HOT.iter().any(|h| f.name.contains(h)))
        .collect();
    let sum = |op: &str| hot.iter().map(|f| f.count(op)).sum::<u64>();
    Ok(format!(
        "i64.add128 {}, i64.mul_wide_u {}, i64.mul {} in {} functions (the permutation, ark-ff's multiply and square)",
        sum("I64Add128"),
        sum("I64MulWideU"),
        sum("I64Mul"),
        hot.len()
    ))
}

/// The interesting columns of the printed table: operator and heading.
pub const COLUMNS: [(&str, &str); 7] = [
    ("I64Mul", "i64.mul"),
    ("I64x2Mul", "i64x2.mul"),
    ("I64x2ExtMulLowI32x4U", "extmul_low"),
    ("I64x2ExtMulHighI32x4U", "extmul_high"),
    ("I64MulWideU", "mul_wide_u"),
    ("I64Add128", "add128"),
    ("call:__multi3", "__multi3"),
];

/// One line per function: its name, operator total and the [`COLUMNS`].
pub fn table(functions: &[&FunctionOps]) -> String {
    let mut out = format!("{:>8}", "ops");
    for (_, heading) in COLUMNS {
        out += &format!(" {heading:>11}");
    }
    out += "  function\n";
    for f in functions {
        out += &format!("{:>8}", f.total());
        for (op, _) in COLUMNS {
            out += &format!(" {:>11}", f.count(op));
        }
        out += &format!("  {}\n", f.name);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(name: &str, ops: &[(&str, u64)]) -> FunctionOps {
        FunctionOps {
            name: name.into(),
            ops: ops.iter().map(|(o, n)| (o.to_string(), *n)).collect(),
        }
    }

    #[test]
    fn expectations() {
        let fs = [
            f("_ZN3x43mul", &[("I64x2ExtMulLowI32x4U", 90)]),
            f(
                "_ZN3x46square",
                &[("I64x2ExtMulLowI32x4U", 81), ("I64x2Mul", 1)],
            ),
            f("other", &[("call:__multi3", 2)]),
        ];
        let check = |s: &str| Expectation::parse(s).unwrap().check(&fs);
        assert!(check("3x43mul: I64x2Mul=0").is_empty());
        assert_eq!(check("x4: I64x2Mul=0").len(), 1, "square has one");
        assert!(check("x4: I64x2ExtMulLowI32x4U>80").is_empty());
        assert_eq!(check("nothing: I64x2Mul=0").len(), 1, "no function matched");
        assert!(check("*: call:__multi3>1").is_empty());
        assert_eq!(check("*: call:__multi3=0").len(), 1);
        assert!(Expectation::parse("x4 I64x2Mul=0").is_err());
        assert!(Expectation::parse("x4: I64x2Mul<0").is_err());
    }

    #[test]
    fn reads_a_module() {
        // (func (param v128 v128) (result v128) local.get 0 local.get 1 i64x2.extmul_low_i32x4_u)
        let m = [
            0, 97, 115, 109, 1, 0, 0, 0, 1, 7, 1, 96, 2, 123, 123, 1, 123, 3, 2, 1, 0, 10, 11, 1,
            9, 0, 32, 0, 32, 1, 253, 222, 1, 11,
        ];
        let fs = function_ops(&m).unwrap();
        assert_eq!(fs.len(), 1);
        assert_eq!(fs[0].name, "func[0]");
        assert_eq!(fs[0].count("I64x2ExtMulLowI32x4U"), 1);
        assert_eq!(fs[0].count("LocalGet"), 2);
        assert!(function_ops(b"not wasm").is_err());
    }

    #[test]
    fn hot_expectations_parse_and_tell_kinds_apart() {
        for kind in ["probe", "bench", "simd", "fma", "wide", "upstream-wide"] {
            let e = hot_expectations(kind).unwrap();
            assert!(!e.is_empty(), "{kind}");
            for s in e {
                Expectation::parse(s).unwrap();
            }
        }
        assert!(hot_expectations("u29").is_none());
        // Upstream's widened module: add128 in every hot function, no __multi3.
        let up = |add128| {
            UPSTREAM_HOT.map(|h| {
                f(
                    &format!("_ZN{h}17habc"),
                    &[("I64Add128", add128), ("I64Mul", 92)],
                )
            })
        };
        let check = |fs: &[FunctionOps]| {
            hot_expectations("upstream-wide")
                .unwrap()
                .into_iter()
                .flat_map(|e| Expectation::parse(e).unwrap().check(fs))
                .count()
        };
        let listed = hot_expectations("upstream-wide").unwrap();
        assert!(UPSTREAM_HOT
            .iter()
            .all(|h| listed.iter().any(|e| e.starts_with(h))));
        assert_eq!(check(&up(97)), 0);
        assert_eq!(check(&up(0)), 3, "the plain build: no add128 anywhere");
        assert_eq!(
            check(&up(97)[..2]),
            2,
            "a hot function missing (inlined, renamed)"
        );
        // A four-lane kernel with an i64x2.mul fails the simd kind; without, it passes.
        let kernel = |mul| {
            ["mul", "square", "dot3_add", "dot2_add"].map(|k| {
                let name = format!("_ZN8poseidon7backend3u292x4{}{k}17h0E", k.len());
                f(&name, &[("I64x2ExtMulLowI32x4U", 9), ("I64x2Mul", mul)])
            })
        };
        let fails = |fs: &[FunctionOps]| -> usize {
            let e = hot_expectations("simd").unwrap();
            e.iter()
                .map(|s| Expectation::parse(s).unwrap().check(fs).len())
                .sum()
        };
        assert_eq!(fails(&kernel(0)), 0);
        assert_eq!(fails(&kernel(1)), 4);
    }
}
