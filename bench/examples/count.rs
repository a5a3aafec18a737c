//! `count ID K`: the body of benchmark ID (as in `bench/poseidon.rs`, on its
//! inputs) K times between two calls of `std::thread::yield_now()`, the markers,
//! then a digest of the result after them. Counted, not timed: `cargo xtask counts`
//! runs it under callgrind natively (the window is the dump between the markers:
//! libc `sched_yield`) and under wasmtime with fuel in Wasm (WASI `sched_yield`),
//! for two values of K; the difference over the difference of K is the exact count
//! per iteration, the same on every machine for the same binary.
//!
//! IDs: `Poseidon/permutation/B`, `Poseidon/poseidon_hash_kimchi/B`,
//! `Poseidon/hash/B/N` (a fresh sponge absorbs N elements and squeezes; `--list`
//! names N = 2, any N counts), `Field/mul/B`, `Field/square/B` for B every
//! backend of the library's list
//! (`poseidon::backend::NAMES`; u52 only where AVX-512 IFMA
//! runs: under valgrind it never does, and a count of its fallback would carry its
//! name); built in the upstream lab (feature "upstream"), also
//! `Poseidon/permutation/upstream`, `Poseidon/poseidon_hash_kimchi/upstream` and
//! `Poseidon/hash/upstream/N`.
//! `count --list` prints them.

use std::hint::black_box;
use std::process::ExitCode;

use ark_ff::{BigInteger, PrimeField};
use poseidon::backend::NAMES;
use poseidon::params::ParamSet;
use poseidon::{permutation, Backend, FieldArith, Fp, Sponge};

#[path = "../benches/fixed/mod.rs"]
mod fixed;

#[cfg(feature = "upstream")]
#[path = "../benches/upstream/count.rs"]
mod upstream;

const BODIES: [&str; 5] = [
    "Poseidon/permutation",
    "Poseidon/poseidon_hash_kimchi",
    "Poseidon/hash",
    "Field/mul",
    "Field/square",
];

/// The hash length `--list` names (the benchmark's `Poseidon/hash/B/2`: what a
/// Merkle tree's node costs).
const LISTED_HASH: usize = 2;

fn window<R>(f: impl FnOnce() -> R) -> R {
    std::thread::yield_now();
    let r = f();
    std::thread::yield_now();
    r
}

fn permutation_k<B: Backend>(k: u64) -> Fp {
    let params = <B::Fp as FieldArith>::params(ParamSet::Kimchi);
    let x = fixed::inputs(3);
    let mut state = [x[0], x[1], x[2]].map(B::Fp::from_field);
    window(|| {
        for _ in 0..k {
            permutation::permute(params, black_box(&mut state));
        }
    });
    state[0].to_field()
}

fn hash_chain_k<B: Backend>(k: u64) -> Fp {
    let mut sponge = Sponge::<Fp, B>::new(ParamSet::Kimchi);
    let mut digest = Fp::from(0u64);
    window(|| {
        for _ in 0..k {
            sponge.absorb(&[digest]);
            digest = sponge.squeeze();
        }
    });
    digest
}

/// `hash/B/n` K times: a fresh sponge per hash, as `poseidon::hash` (the
/// benchmark's inputs); the digests chained through the first input, so that no
/// hash can be skipped.
fn hash_k<B: Backend>(k: u64, n: usize) -> Fp {
    let mut xs = fixed::inputs(n);
    window(|| {
        for _ in 0..k {
            let d = poseidon::hash_with::<Fp, B>(ParamSet::Kimchi, black_box(&xs));
            if let Some(x) = xs.first_mut() {
                *x = d;
            }
        }
    });
    poseidon::hash_with::<Fp, B>(ParamSet::Kimchi, &xs)
}

fn field_k<B: Backend>(k: u64, square: bool) -> Fp {
    let x = fixed::inputs(2);
    let (mut acc, y) = (B::Fp::from_field(x[0]), B::Fp::from_field(x[1]));
    window(|| {
        for _ in 0..k {
            acc = if square {
                black_box(acc).square()
            } else {
                acc.mul(black_box(y))
            };
        }
    });
    acc.to_field()
}

fn run<B: Backend>(body: &str, n: usize, k: u64) -> Fp {
    match body {
        "Poseidon/permutation" => permutation_k::<B>(k),
        "Poseidon/poseidon_hash_kimchi" => hash_chain_k::<B>(k),
        "Poseidon/hash" => hash_k::<B>(k, n),
        "Field/mul" => field_k::<B>(k, false),
        _ => field_k::<B>(k, true),
    }
}

/// `(body, backend, n)` of an ID: `BODY/B`, or `Poseidon/hash/B/N` (n = N; 0
/// for the other bodies).
fn parse_id(id: &str) -> Option<(&str, &str, usize)> {
    if let Some(rest) = id.strip_prefix("Poseidon/hash/") {
        let (backend, n) = rest.split_once('/')?;
        return Some(("Poseidon/hash", backend, n.parse().ok()?));
    }
    let (body, backend) = id.rsplit_once('/')?;
    (BODIES.contains(&body) && body != "Poseidon/hash").then_some((body, backend, 0))
}

/// Whether the `u52` backend runs its own (IFMA) path here.
fn ifma() -> bool {
    #[cfg(target_arch = "x86_64")]
    return poseidon::backend::u64::ifma::available();
    #[cfg(not(target_arch = "x86_64"))]
    false
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("--list") {
        for b in BODIES {
            let suffix = if b == "Poseidon/hash" {
                format!("/{LISTED_HASH}")
            } else {
                String::new()
            };
            for backend in NAMES {
                println!("{b}/{backend}{suffix}");
            }
            #[cfg(feature = "upstream")]
            if upstream::BODIES.contains(&b) {
                println!("{b}/upstream{suffix}");
            }
        }
        return ExitCode::SUCCESS;
    }
    let usage = "usage: count ID K (count --list prints the IDs)";
    let (Some(id), Some(Ok(k))) = (args.first(), args.get(1).map(|k| k.parse::<u64>())) else {
        eprintln!("{usage}");
        return ExitCode::from(2);
    };
    let Some((body, backend, n)) = parse_id(id) else {
        eprintln!("count: unknown benchmark {id}; {usage}");
        return ExitCode::from(2);
    };
    if backend == "u52" && !ifma() {
        eprintln!("count: {id}: AVX-512 IFMA does not run here (valgrind hides it; wasm has none), so its own path cannot be counted");
        return ExitCode::from(3);
    }
    let mut digest = None;
    poseidon::for_each_backend!(|name, B| {
        if name == backend {
            digest = Some(run::<B>(body, n, k));
        }
    });
    #[cfg(feature = "upstream")]
    if backend == "upstream" {
        digest = upstream::run(body, n, k, |f| window(f));
        if digest.is_none() {
            eprintln!("count: {id}: upstream has no such body");
            return ExitCode::from(2);
        }
    }
    let Some(digest) = digest else {
        eprintln!("count: unknown backend {backend} ({})", NAMES.join(", "));
        return ExitCode::from(2);
    };
    let bytes = digest.into_bigint().to_bytes_le();
    let hex: String = bytes.iter().rev().map(|b| format!("{b:02x}")).collect();
    println!("{id} {k} {hex}");
    ExitCode::SUCCESS
}
