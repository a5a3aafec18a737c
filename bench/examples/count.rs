//! `count ID K`: the body of benchmark ID (as in `bench/poseidon.rs`, on its
//! inputs) K times between two calls of `std::thread::yield_now()`, the markers,
//! then a digest of the result after them. Counted, not timed: `cargo xtask counts`
//! runs it under callgrind natively (the window is the dump between the markers:
//! libc `sched_yield`) and under wasmtime with fuel in Wasm (WASI `sched_yield`),
//! for two values of K; the difference over the difference of K is the exact count
//! per iteration, the same on every machine for the same binary.
//!
//! IDs: `Poseidon/permutation/B`, `Poseidon/poseidon_hash_kimchi/B`, `Field/mul/B`,
//! `Field/square/B` for B every backend of the library's list
//! (`poseidon::backend::NAMES`; u52 only where AVX-512 IFMA
//! runs: under valgrind it never does, and a count of its fallback would carry its
//! name); built in the upstream lab (feature "upstream"), also
//! `Poseidon/permutation/upstream` and `Poseidon/poseidon_hash_kimchi/upstream`.
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

const BODIES: [&str; 4] = [
    "Poseidon/permutation",
    "Poseidon/poseidon_hash_kimchi",
    "Field/mul",
    "Field/square",
];

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

fn run<B: Backend>(body: &str, k: u64) -> Fp {
    match body {
        "Poseidon/permutation" => permutation_k::<B>(k),
        "Poseidon/poseidon_hash_kimchi" => hash_chain_k::<B>(k),
        "Field/mul" => field_k::<B>(k, false),
        _ => field_k::<B>(k, true),
    }
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
            for backend in NAMES {
                println!("{b}/{backend}");
            }
            #[cfg(feature = "upstream")]
            if upstream::BODIES.contains(&b) {
                println!("{b}/upstream");
            }
        }
        return ExitCode::SUCCESS;
    }
    let usage = "usage: count ID K (count --list prints the IDs)";
    let (Some(id), Some(Ok(k))) = (args.first(), args.get(1).map(|k| k.parse::<u64>())) else {
        eprintln!("{usage}");
        return ExitCode::from(2);
    };
    let Some((body, backend)) = id.rsplit_once('/').filter(|(b, _)| BODIES.contains(b)) else {
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
            digest = Some(run::<B>(body, k));
        }
    });
    #[cfg(feature = "upstream")]
    if backend == "upstream" {
        digest = upstream::run(body, k, |f| window(f));
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
