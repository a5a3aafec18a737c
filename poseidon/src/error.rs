//! The crate's one error type: every way an input can be rejected; and the
//! parsing of names (`fp`, `kimchi`), whose failures are among them.

use core::fmt;

use core::str::FromStr;

use crate::fields::FieldId;
use crate::params::ParamSet;

/// Why an input was rejected. Messages say what was wrong and what was expected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Error {
    /// An encoding of the wrong size.
    WrongLength {
        /// Bytes required.
        expected: usize,
        /// Bytes given.
        found: usize,
    },
    /// A hex string with an odd number of digits.
    OddHexLength(usize),
    /// A character that is not a hex digit.
    InvalidHexDigit {
        /// Character index in the string.
        position: usize,
        /// The offending character.
        found: char,
    },
    /// A value that is not below the modulus.
    NonCanonical(FieldId),
    /// An integer that is not below the modulus ([`crate::canonical`]): element
    /// `element` of input `input` (input 0 where a call takes one; `update` counts
    /// the state's three elements before its inputs).
    NonCanonicalAt {
        /// The field.
        field: FieldId,
        /// Which input (for `hash_many`), else 0.
        input: usize,
        /// Which element of that input.
        element: usize,
    },
    /// A parameter-set name other than `kimchi` or `legacy`.
    UnknownParamSet(String),
    /// A field name other than `fp` or `fq`.
    UnknownField(String),
    /// A Merkle tree height outside 1 to 256.
    MerkleHeight(usize),
    /// A leaf index at or past 2^(height − 1).
    MerkleIndex {
        /// The index given.
        index: u64,
        /// The tree's height.
        height: usize,
    },
    /// More leaves than a tree of this height has.
    MerkleTooManyLeaves {
        /// Leaves given.
        leaves: usize,
        /// The tree's height.
        height: usize,
    },
    /// A prefix of more than 31 characters (o1js's `prefixToField` rule).
    PrefixTooLong(usize),
    /// A prefix with a character that is not ASCII, at this character index.
    PrefixNotAscii {
        /// The character's index.
        position: usize,
    },
    /// A packed value that does not fit its bits, or bits outside 1 to 254.
    PackedValue {
        /// Which `(value, bits)` pair.
        index: usize,
        /// Its bits.
        bits: u32,
    },
    /// Account updates whose call depths do not form a forest: the first is not 0,
    /// or one is more than its predecessor's + 1 (mina-signer's `isCallDepthValid`).
    CallDepth {
        /// Which account update.
        index: usize,
        /// Its call depth.
        depth: usize,
    },
    /// A memo text of more than 32 bytes.
    MemoTooLong(usize),
    /// A leaf past the next one to set (the tree keeps its leaves contiguous from 0).
    MerkleGap {
        /// The index given.
        index: u64,
        /// Leaves set so far: the next index that can be set.
        set: usize,
    },
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::WrongLength { expected, found } => write!(
                f,
                "wrong length: a field element is {expected} bytes ({} hex digits), got {found} bytes",
                2 * expected
            ),
            Error::OddHexLength(n) => write!(f, "odd number of hex digits ({n})"),
            Error::InvalidHexDigit { position, found } => {
                write!(f, "invalid hex digit {found:?} at position {position}")
            }
            Error::NonCanonical(field) => write!(
                f,
                "not a canonical element of {field}: the value is not below the modulus"
            ),
            Error::NonCanonicalAt {
                field,
                input,
                element,
            } => write!(
                f,
                "input {input}, element {element}: not a canonical element of {field}: the value is not below the modulus"
            ),
            Error::UnknownParamSet(s) => {
                write!(f, "unknown parameter set {s:?} (expected kimchi or legacy)")
            }
            Error::UnknownField(s) => write!(f, "unknown field {s:?} (expected fp or fq)"),
            Error::MerkleHeight(h) => {
                write!(f, "Merkle tree height {h}: expected 1 to 256")
            }
            Error::MerkleIndex { index, height } => write!(
                f,
                "leaf index {index} is out of range for a tree of height {height} (2^{} leaves)",
                height - 1
            ),
            Error::MerkleTooManyLeaves { leaves, height } => write!(
                f,
                "{leaves} leaves do not fit a tree of height {height} (2^{} leaves)",
                height - 1
            ),
            Error::PrefixTooLong(n) => {
                write!(f, "prefix of {n} characters: at most 31 (o1js's rule)")
            }
            Error::PrefixNotAscii { position } => {
                write!(f, "prefix: character {position} is not ASCII")
            }
            Error::PackedValue { index, bits } => write!(
                f,
                "packed value {index}: it must fit its bits ({bits}), which must be 1 to 254"
            ),
            Error::CallDepth { index, depth } => write!(
                f,
                "account update {index}: call depth {depth} does not follow the one before (the first is 0, each at most one more than its predecessor)"
            ),
            Error::MemoTooLong(n) => write!(f, "memo of {n} bytes: at most 32"),
            Error::MerkleGap { index, set } => write!(
                f,
                "leaf {index}: leaves are set in order from 0; {set} are set, so the next is {set}"
            ),
        }
    }
}

impl std::error::Error for Error {}

impl FromStr for FieldId {
    type Err = Error;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "fp" | "Fp" => Ok(FieldId::Fp),
            "fq" | "Fq" => Ok(FieldId::Fq),
            _ => Err(Error::UnknownField(s.to_owned())),
        }
    }
}

impl FromStr for ParamSet {
    type Err = Error;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "kimchi" => Ok(ParamSet::Kimchi),
            "legacy" => Ok(ParamSet::Legacy),
            _ => Err(Error::UnknownParamSet(s.to_owned())),
        }
    }
}
