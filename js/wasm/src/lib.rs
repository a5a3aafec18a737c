//! The exports of the JavaScript package (`js/index.js`): a small C-like ABI over
//! one scratch buffer of `u64` words in the module's memory, so the glue needs
//! no generator.
//!
//! JavaScript asks for a buffer of n words ([`buffer`]), writes field elements as
//! four little-endian 64-bit limbs (canonical integers, not Montgomery form),
//! calls an operation, and reads the result from the start of the same buffer.
//! Operations return 0, or 1 + the index of the first element that is not below
//! the modulus (the wrapper checks first and throws a `RangeError`; this is the
//! second line of defence). `kind`: 0 kimchi over Fp, 1 kimchi over Fq, 2 legacy
//! over Fp, 3 legacy over Fq.
//!
//! The arithmetic is the library's default backend for the module's target
//! (`u29` on wasm32), except in the `fma` module (`--cfg poseidon_fma`), which
//! computes with this crate's backend [`fma::Fma`]: `u29` with the generated FMA
//! kernels.
// `#[no_mangle]` counts as unsafe code for the lint; the only `unsafe` blocks are
// the calls into the FMA kernels (`fma/kernel.rs`).
#![allow(unsafe_code)]

use std::cell::RefCell;

use poseidon::canonical::{self, Limbs};
use poseidon::{Error, Fp, Fq, ParamSet, PastaField, WIDTH};

pub mod fma;

/// The backend the exports compute with.
#[cfg(all(target_arch = "wasm32", poseidon_fma))]
type B = fma::Fma;
/// The backend the exports compute with.
#[cfg(not(all(target_arch = "wasm32", poseidon_fma)))]
type B = poseidon::DefaultBackend;

/// Words per element.
const LIMBS: usize = 4;

thread_local! {
    static BUF: RefCell<Vec<u64>> = const { RefCell::new(Vec::new()) };
}

/// Makes the scratch buffer at least `words` long and returns its address in memory.
/// The address stays valid until the next call to `buffer` (which may move it).
#[no_mangle]
pub extern "C" fn buffer(words: usize) -> usize {
    BUF.with_borrow_mut(|b| {
        if b.len() < words {
            b.resize(words, 0);
        }
        b.as_mut_ptr() as usize
    })
}

fn set_and_field(kind: u32) -> Option<(ParamSet, bool)> {
    match kind {
        0 => Some((ParamSet::Kimchi, false)),
        1 => Some((ParamSet::Kimchi, true)),
        2 => Some((ParamSet::Legacy, false)),
        3 => Some((ParamSet::Legacy, true)),
        _ => None,
    }
}

/// `$op::<Fp>(set, args…)` or `$op::<Fq>(…)` for the set and field `kind` names;
/// [`BAD_KIND`] for an unknown `kind`.
macro_rules! for_kind {
    ($kind:expr, $op:ident $(, $arg:expr)*) => {
        match set_and_field($kind) {
            Some((set, false)) => $op::<Fp>(set $(, $arg)*),
            Some((set, true)) => $op::<Fq>(set $(, $arg)*),
            None => BAD_KIND,
        }
    };
}

/// `n` elements (four words each) from the start of `words`.
fn elements(words: &[u64], n: usize) -> Vec<Limbs> {
    words[..n * LIMBS]
        .chunks_exact(LIMBS)
        .map(|c| c.try_into().expect("4 words"))
        .collect()
}

/// Status code for a bad element or a bad request.
const BAD_KIND: u32 = u32::MAX;

/// The status code of a rejected element: 1 + its position among all the call's
/// elements, inputs one after the other (`lengths`: the inputs' lengths).
fn rejected(e: &Error, lengths: &[usize]) -> u32 {
    match *e {
        Error::NonCanonicalAt { input, element, .. } => {
            (lengths[..input].iter().sum::<usize>() + element) as u32 + 1
        }
        _ => BAD_KIND,
    }
}

fn hash_in<F: PastaField>(set: ParamSet, n: usize) -> u32 {
    BUF.with_borrow_mut(
        |b| match canonical::hash_with::<F, B>(set, &elements(b, n)) {
            Ok(digest) => {
                b[..LIMBS].copy_from_slice(&digest);
                0
            }
            Err(e) => rejected(&e, &[]),
        },
    )
}

/// Hashes the `n` elements at the start of the buffer; the digest replaces element 0.
#[no_mangle]
pub extern "C" fn hash(kind: u32, n: usize) -> u32 {
    for_kind!(kind, hash_in, n)
}

fn permute_in<F: PastaField>(set: ParamSet) -> u32 {
    BUF.with_borrow_mut(|b| {
        let mut state: [Limbs; WIDTH] =
            core::array::from_fn(|i| b[i * LIMBS..(i + 1) * LIMBS].try_into().expect("4 words"));
        match canonical::permute_with::<F, B>(set, &mut state) {
            Ok(()) => {
                b[..WIDTH * LIMBS].copy_from_slice(state.as_flattened());
                0
            }
            Err(e) => rejected(&e, &[]),
        }
    })
}

/// Permutes the three elements at the start of the buffer in place.
#[no_mangle]
pub extern "C" fn permute(kind: u32) -> u32 {
    for_kind!(kind, permute_in)
}

fn hash_many_in<F: PastaField>(set: ParamSet, count: usize) -> u32 {
    BUF.with_borrow_mut(|b| {
        let lengths: Vec<usize> = b[..count].iter().map(|&l| l as usize).collect();
        let total: usize = lengths.iter().sum();
        let xs = elements(&b[count..], total);
        let mut inputs = Vec::with_capacity(count);
        let mut at = 0;
        for &len in &lengths {
            inputs.push(&xs[at..at + len]);
            at += len;
        }
        let digests = match canonical::hash_many_with::<F, B, _>(set, &inputs) {
            Ok(d) => d,
            // The position among all elements, as the status code counts them.
            Err(e) => return rejected(&e, &lengths),
        };
        if b.len() < count * LIMBS {
            b.resize(count * LIMBS, 0); // may move the buffer: the caller asks `buffer(0)` again
        }
        b[..count * LIMBS].copy_from_slice(digests.as_flattened());
        0
    })
}

/// Hashes `count` inputs: the buffer holds their lengths (one word each), then all
/// their elements in order; the digests replace the start of the buffer.
#[no_mangle]
pub extern "C" fn hash_many(kind: u32, count: usize) -> u32 {
    for_kind!(kind, hash_many_in, count)
}

fn update_in<F: PastaField>(set: ParamSet, n: usize) -> u32 {
    BUF.with_borrow_mut(|b| {
        let mut state: [Limbs; WIDTH] =
            core::array::from_fn(|i| b[i * LIMBS..(i + 1) * LIMBS].try_into().expect("4 words"));
        let xs = elements(&b[WIDTH * LIMBS..], n);
        match canonical::update_with::<F, B>(set, &mut state, &xs) {
            Ok(()) => {
                b[..WIDTH * LIMBS].copy_from_slice(state.as_flattened());
                0
            }
            Err(e) => rejected(&e, &[]),
        }
    })
}

/// o1js's `Poseidon.update`: the buffer holds a state (three elements), then `n`
/// elements to absorb; the new state replaces the first three.
#[no_mangle]
pub extern "C" fn update(kind: u32, n: usize) -> u32 {
    for_kind!(kind, update_in, n)
}

/// Status code of [`hash_to_group`] where the group map divides by zero (no known
/// input reaches it; o1js throws there).
const POLE: u32 = u32::MAX - 1;

/// o1js's `Poseidon.hashToGroup`: the kimchi hash over Fp of the `n` elements at
/// the start of the buffer, mapped onto Pallas (`poseidon::group_map`); the point's
/// x and y replace elements 0 and 1.
#[no_mangle]
pub extern "C" fn hash_to_group(n: usize) -> u32 {
    use ark_ff::PrimeField;
    BUF.with_borrow_mut(|b| {
        let digest = match canonical::hash_with::<Fp, B>(ParamSet::Kimchi, &elements(b, n)) {
            Ok(d) => d,
            Err(e) => return rejected(&e, &[]),
        };
        let t = Fp::from_bigint(ark_ff::BigInt(digest)).expect("a digest is canonical");
        let Some((x, y)) = poseidon::group_map::map_to_group(t) else {
            return POLE;
        };
        if b.len() < 2 * LIMBS {
            b.resize(2 * LIMBS, 0);
        }
        b[..LIMBS].copy_from_slice(&x.into_bigint().0);
        b[LIMBS..2 * LIMBS].copy_from_slice(&y.into_bigint().0);
        0
    })
}
