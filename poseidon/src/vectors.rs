//! Test-vector files in the format Mina publishes.
//!
//! ```json
//! { "name": "kimchi", "test_vectors": [ { "input": ["<hex>", …], "output": "<hex>" } ] }
//! ```
//!
//! The `name` says what to check: `kimchi`, `legacy`, `kimchi-fq`, `legacy-fq`
//! (each vector hashes `input` to one `output`) or `kimchi-permutation`,
//! `kimchi-fq-permutation` (`input` and `output` are three elements: one
//! permutation). Elements are 32-byte little-endian hex. Extra keys are ignored.

use core::fmt;

use ark_ff::BigInt;
use serde_json::Value;

use crate::backend::{Backend, PastaField};
use crate::fields::FieldId;
use crate::params::{ParamSet, WIDTH};
use crate::{encoding, Error, Fp, Fq, Sponge};

/// What a vector file checks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VectorKind {
    /// `hash(input) == output`.
    Hash(ParamSet, FieldId),
    /// `permute(input) == output`, three elements each.
    Permutation(ParamSet, FieldId),
}

impl VectorKind {
    /// Every kind, in the order of [`VectorKind::name`]s listed in the module docs.
    pub const ALL: [VectorKind; 6] = [
        VectorKind::Hash(ParamSet::Kimchi, FieldId::Fp),
        VectorKind::Hash(ParamSet::Legacy, FieldId::Fp),
        VectorKind::Hash(ParamSet::Kimchi, FieldId::Fq),
        VectorKind::Hash(ParamSet::Legacy, FieldId::Fq),
        VectorKind::Permutation(ParamSet::Kimchi, FieldId::Fp),
        VectorKind::Permutation(ParamSet::Kimchi, FieldId::Fq),
    ];

    /// The file `name` of this kind, e.g. `kimchi-fq`.
    pub fn name(self) -> String {
        let (set, field, perm) = match self {
            VectorKind::Hash(s, f) => (s, f, ""),
            VectorKind::Permutation(s, f) => (s, f, "-permutation"),
        };
        let field = match field {
            FieldId::Fp => "",
            FieldId::Fq => "-fq",
        };
        format!("{set}{field}{perm}")
    }

    /// The kind named `name`, if any.
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|k| k.name() == name)
    }
}

/// One vector: inputs and expected outputs, as hex strings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TestVector {
    /// Input elements.
    pub input: Vec<String>,
    /// Expected output: one element for a hash, three for a permutation.
    pub output: Vec<String>,
}

/// A parsed vector file.
#[derive(Clone, Debug)]
pub struct VectorFile {
    /// What it checks.
    pub kind: VectorKind,
    /// Its vectors, in file order.
    pub vectors: Vec<TestVector>,
}

/// Why a vector file could not be checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum VectorError {
    /// Not JSON, or not an object with `name` and `test_vectors`.
    Format(String),
    /// A `name` that is not one of the known kinds.
    UnknownName(String),
    /// Vector `index` is malformed.
    Malformed {
        /// Index in `test_vectors`.
        index: usize,
        /// What is wrong with it.
        reason: String,
    },
}

impl fmt::Display for VectorError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            VectorError::Format(why) => write!(f, "not a vector file: {why}"),
            VectorError::UnknownName(name) => {
                let known: Vec<String> = VectorKind::ALL.iter().map(|k| k.name()).collect();
                write!(
                    f,
                    "unknown vector set name {name:?} (expected one of: {})",
                    known.join(", ")
                )
            }
            VectorError::Malformed { index, reason } => write!(f, "vector {index}: {reason}"),
        }
    }
}

impl std::error::Error for VectorError {}

fn hex_list(v: &Value, what: &str) -> Result<Vec<String>, String> {
    match v {
        Value::String(s) => Ok(vec![s.clone()]),
        Value::Array(items) => items
            .iter()
            .map(|x| {
                x.as_str()
                    .map(str::to_owned)
                    .ok_or_else(|| format!("`{what}` must hold hex strings, found {x}"))
            })
            .collect(),
        other => Err(format!(
            "`{what}` must be a hex string or a list of them, found {other}"
        )),
    }
}

/// Parses a vector file. The element encodings are checked by [`VectorFile::check`].
pub fn parse(text: &str) -> Result<VectorFile, VectorError> {
    let root: Value = serde_json::from_str(text).map_err(|e| VectorError::Format(e.to_string()))?;
    let name = root
        .get("name")
        .and_then(Value::as_str)
        .ok_or_else(|| VectorError::Format("missing string field `name`".into()))?;
    let kind =
        VectorKind::from_name(name).ok_or_else(|| VectorError::UnknownName(name.to_owned()))?;
    let list = root
        .get("test_vectors")
        .and_then(Value::as_array)
        .ok_or_else(|| VectorError::Format("missing list field `test_vectors`".into()))?;
    let vectors = list
        .iter()
        .enumerate()
        .map(|(index, v)| {
            let malformed = |reason: String| VectorError::Malformed { index, reason };
            let field = |key: &str| {
                v.get(key)
                    .ok_or_else(|| malformed(format!("missing `{key}`")))
                    .and_then(|x| hex_list(x, key).map_err(malformed))
            };
            let (input, output) = (field("input")?, field("output")?);
            let (want_in, want_out) = match kind {
                VectorKind::Hash(..) => (None, 1),
                VectorKind::Permutation(..) => (Some(WIDTH), WIDTH),
            };
            if want_in.is_some_and(|n| n != input.len()) || output.len() != want_out {
                return Err(malformed(format!(
                    "a {} vector has {} input and {want_out} output element(s), found {} and {}",
                    kind.name(),
                    want_in.map_or("any number of".to_owned(), |n| n.to_string()),
                    input.len(),
                    output.len()
                )));
            }
            Ok(TestVector { input, output })
        })
        .collect::<Result<_, _>>()?;
    Ok(VectorFile { kind, vectors })
}

/// The outcome of one vector.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mismatch {
    /// Index in `test_vectors`.
    pub index: usize,
    /// What the file expects, hex.
    pub expected: Vec<String>,
    /// What was computed, hex.
    pub actual: Vec<String>,
}

/// The result of checking a file: how many vectors passed, and which failed.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CheckReport {
    /// Vectors whose computed output matched.
    pub passed: usize,
    /// Vectors whose computed output differed.
    pub failed: Vec<Mismatch>,
}

fn decode_all<F: PastaField<BigInt = BigInt<4>>>(
    index: usize,
    what: &str,
    hex: &[String],
) -> Result<Vec<F>, VectorError> {
    hex.iter()
        .enumerate()
        .map(|(k, h)| {
            encoding::from_hex::<F>(h).map_err(|e: Error| VectorError::Malformed {
                index,
                reason: format!("{what}[{k}]: {e}"),
            })
        })
        .collect()
}

/// Each vector is computed twice, alone and in one batch with the whole file
/// ([`hash_many_with`](crate::hash_many_with) / [`permute_many_with`](crate::permute_many_with)),
/// and passes only if both equal the expected output.
fn check_in<F: PastaField<BigInt = BigInt<4>>, B: Backend>(
    file: &VectorFile,
) -> Result<CheckReport, VectorError> {
    let mut inputs = Vec::with_capacity(file.vectors.len());
    let mut expected = Vec::with_capacity(file.vectors.len());
    for (index, v) in file.vectors.iter().enumerate() {
        inputs.push(decode_all::<F>(index, "input", &v.input)?);
        expected.push(decode_all::<F>(index, "output", &v.output)?);
    }
    let (single, batch): (Vec<Vec<F>>, Vec<Vec<F>>) = match file.kind {
        VectorKind::Hash(set, _) => (
            inputs
                .iter()
                .map(|input| {
                    let mut sponge = Sponge::<F, B>::new(set);
                    sponge.absorb(input);
                    vec![sponge.squeeze()]
                })
                .collect(),
            crate::hash_many_with::<F, B, _>(set, &inputs)
                .into_iter()
                .map(|x| vec![x])
                .collect(),
        ),
        VectorKind::Permutation(set, _) => {
            let states: Vec<[F; WIDTH]> = inputs
                .iter()
                .map(|x| x.as_slice().try_into().expect("length checked by parse"))
                .collect();
            let mut batch = states.clone();
            crate::permute_many_with::<F, B>(set, &mut batch);
            let single = states.into_iter().map(|mut state| {
                crate::permute_with::<F, B>(set, &mut state);
                state.to_vec()
            });
            (single.collect(), batch.iter().map(|s| s.to_vec()).collect())
        }
    };
    let mut report = CheckReport::default();
    for (index, v) in file.vectors.iter().enumerate() {
        let wrong = [&single[index], &batch[index]]
            .into_iter()
            .find(|actual| **actual != expected[index]);
        match wrong {
            None => report.passed += 1,
            Some(actual) => report.failed.push(Mismatch {
                index,
                expected: v.output.clone(),
                actual: actual.iter().copied().map(encoding::to_hex).collect(),
            }),
        }
    }
    Ok(report)
}

impl VectorFile {
    /// Checks every vector with backend `B`. A vector whose elements do not
    /// decode makes the whole file malformed.
    pub fn check<B: Backend>(&self) -> Result<CheckReport, VectorError> {
        let field = match self.kind {
            VectorKind::Hash(_, f) | VectorKind::Permutation(_, f) => f,
        };
        match field {
            FieldId::Fp => check_in::<Fp, B>(self),
            FieldId::Fq => check_in::<Fq, B>(self),
        }
    }
}
