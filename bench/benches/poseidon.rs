//! The benchmark: same IDs on every target and runtime.
//!
//! - `Poseidon/poseidon_hash_kimchi/<backend>`: upstream's workload, a chain that
//!   absorbs the previous digest and squeezes (one permutation per iteration);
//! - `Poseidon/permutation/<backend>`: one bare kimchi permutation over Fp;
//! - `Poseidon/hash/<backend>/<n>`: hashing n = 2, 16, 128 elements;
//! - `Poseidon/permute_many/<backend>/<n>`: n = 8, 64 independent permutations in one
//!   call (throughput in permutations; `u64` uses AVX-512 IFMA when the CPU has it,
//!   `u64-portable` is its fallback, a loop of single permutations); natively also
//!   n = 4096 through the library's API (`permute_many_with`: conversions in and
//!   out included), beside
//! - `Poseidon/permute_many_par/<backend>/4096`: the same states and backend on every
//!   core (`permute_many_par_with`, rayon);
//! - `Field/mul/<backend>`, `Field/square/<backend>`: one Fp operation, as a
//!   dependent chain (latency, as inside the permutation).
//!
//! In the fma build (`--cfg poseidon_fma`, see `fma/mod.rs`) the first four also
//! run the JavaScript package's backend `fma`, its generated FMA kernels.
//!
//! Without `--bench` every benchmark runs once, as a smoke test.
//!
//! Built by the lab's generated crate with a proof-systems checkout (feature
//! `upstream`, see `upstream/mod.rs`), the first three also run mina-poseidon
//! itself as backend `upstream`.

#![allow(missing_docs)]

use std::hint::black_box;

use criterion::measurement::WallTime;
use criterion::{criterion_group, BenchmarkGroup, BenchmarkId, Criterion, Throughput};
use poseidon::backend::u29;
use poseidon::params::ParamSet;
use poseidon::{permutation, Backend, FieldArith, Fp, Permutation, Sponge};

#[cfg(feature = "upstream")]
mod upstream;

#[cfg(poseidon_fma)]
mod fma;

/// Calls `$f::<B>` for every backend of the library's list
/// (`poseidon::for_each_backend!`).
macro_rules! for_each_backend {
    ($f:ident($($arg:expr),*)) => {
        poseidon::for_each_backend!(|_name, B| {
            $f::<B>($($arg),*);
        })
    };
}

/// Calls `$f::<Fma>` in the fma build (`fma/mod.rs`) where its kernels run.
macro_rules! fma_row {
    ($f:ident($($arg:expr),*)) => {
        #[cfg(poseidon_fma)]
        if fma::ready(&inputs(9)) {
            $f::<poseidon_js::fma::Fma>($($arg),*);
        }
    };
}

mod fixed;
use fixed::inputs;

fn hash_kimchi_chain<B: Backend>(g: &mut BenchmarkGroup<'_, WallTime>) {
    let mut sponge = Sponge::<Fp, B>::new(ParamSet::Kimchi);
    let mut digest = Fp::from(0u64);
    g.bench_function(BenchmarkId::new("poseidon_hash_kimchi", B::NAME), |b| {
        b.iter(|| {
            sponge.absorb(&[digest]);
            digest = sponge.squeeze();
        })
    });
    black_box(digest);
}

fn permutation<B: Backend>(g: &mut BenchmarkGroup<'_, WallTime>) {
    let params = B::Fp::params(ParamSet::Kimchi);
    let mut state = [0, 1, 2].map(|i| B::Fp::from_field(inputs(3)[i]));
    g.bench_function(BenchmarkId::new("permutation", B::NAME), |b| {
        b.iter(|| permutation::permute(params, black_box(&mut state)))
    });
}

/// Two independent permutations per iteration, one per lane (batch hashing).
fn permutation_x2(g: &mut BenchmarkGroup<'_, WallTime>) {
    let params = u29::Fp29::params(ParamSet::Kimchi);
    let mut states = [inputs(3), inputs(6)[3..].to_vec()]
        .map(|v| [0, 1, 2].map(|i| u29::Fp29::from_field(v[i])));
    g.bench_function(BenchmarkId::new("permutation_x2", "u29x2"), |b| {
        b.iter(|| u29::permute_x2(params, black_box(&mut states)))
    });
}

/// n independent kimchi permutations in one call (the shape of a Merkle tree level).
fn permute_many<B: Backend>(g: &mut BenchmarkGroup<'_, WallTime>, n: usize) {
    let v = inputs(3 * n);
    let mut states: Vec<[B::Fp; 3]> = v
        .chunks(3)
        .map(|c| [0, 1, 2].map(|i| B::Fp::from_field(c[i])))
        .collect();
    let params = B::Fp::params(ParamSet::Kimchi);
    g.bench_function(
        BenchmarkId::new(format!("permute_many/{}", B::NAME), n),
        |b| b.iter(|| B::Fp::permute_many(params, black_box(&mut states))),
    );
}

/// The `u64` batch without SIMD lanes (what runs where the CPU lacks IFMA).
fn permute_many_portable(g: &mut BenchmarkGroup<'_, WallTime>, n: usize) {
    use poseidon::backend::u64::{permute_many_portable, Fp64};
    let v = inputs(3 * n);
    let mut states: Vec<[Fp64; 3]> = v
        .chunks(3)
        .map(|c| [0, 1, 2].map(|i| Fp64::from_field(c[i])))
        .collect();
    let params = Fp64::params(ParamSet::Kimchi);
    g.bench_function(BenchmarkId::new("permute_many/u64-portable", n), |b| {
        b.iter(|| permute_many_portable(params, black_box(&mut states)))
    });
}

/// 4096 states through the library's API: on one thread, and on every core, the
/// same states and backend. Natively only: wasm32 has no threads here, and the
/// Wasm runs of `make bench` (each Node, wasmtime) would pay for a large batch
/// that `permute_many/<backend>/64` already measures in lanes.
#[cfg(not(target_arch = "wasm32"))]
fn permute_many_api<B: Backend>(g: &mut BenchmarkGroup<'_, WallTime>) {
    const N: usize = 4096;
    let v = inputs(3 * N);
    let mut states: Vec<[Fp; 3]> = v.chunks(3).map(|c| [c[0], c[1], c[2]]).collect();
    g.bench_function(
        BenchmarkId::new(format!("permute_many/{}", B::NAME), N),
        |b| {
            b.iter(|| {
                poseidon::permute_many_with::<Fp, B>(ParamSet::Kimchi, black_box(&mut states))
            })
        },
    );
    g.bench_function(
        BenchmarkId::new(format!("permute_many_par/{}", B::NAME), N),
        |b| {
            b.iter(|| {
                poseidon::permute_many_par_with::<Fp, B>(ParamSet::Kimchi, black_box(&mut states))
            })
        },
    );
}

fn hash_n<B: Backend>(g: &mut BenchmarkGroup<'_, WallTime>, n: usize) {
    let xs = inputs(n);
    g.bench_with_input(
        BenchmarkId::new(format!("hash/{}", B::NAME), n),
        &xs,
        |b, xs| b.iter(|| poseidon::hash_with::<Fp, B>(ParamSet::Kimchi, black_box(xs))),
    );
}

fn bench_poseidon(c: &mut Criterion) {
    #[cfg(feature = "upstream")]
    upstream::check(&inputs(5));
    let mut g = c.benchmark_group("Poseidon");
    #[cfg(feature = "upstream")]
    upstream::hash_kimchi_chain(&mut g);
    for_each_backend!(hash_kimchi_chain(&mut g));
    fma_row!(hash_kimchi_chain(&mut g));
    #[cfg(feature = "upstream")]
    upstream::permutation(&mut g, &inputs(3));
    for_each_backend!(permutation(&mut g));
    fma_row!(permutation(&mut g));
    permutation_x2(&mut g);
    for n in [2, 16, 128] {
        g.throughput(Throughput::Elements(n as u64));
        #[cfg(feature = "upstream")]
        upstream::hash_n(&mut g, &inputs(n));
        for_each_backend!(hash_n(&mut g, n));
        fma_row!(hash_n(&mut g, n));
    }
    for n in [8, 64] {
        g.throughput(Throughput::Elements(n as u64));
        for_each_backend!(permute_many(&mut g, n));
        fma_row!(permute_many(&mut g, n));
        permute_many_portable(&mut g, n);
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        g.throughput(Throughput::Elements(4096));
        for_each_backend!(permute_many_api(&mut g));
    }
    g.finish();
}

fn field_ops<B: Backend>(g: &mut BenchmarkGroup<'_, WallTime>) {
    let [x, y] = [inputs(2)[0], inputs(2)[1]].map(B::Fp::from_field);
    let mut acc = x;
    g.bench_function(BenchmarkId::new("mul", B::NAME), |b| {
        b.iter(|| acc = acc.mul(black_box(y)))
    });
    g.bench_function(BenchmarkId::new("square", B::NAME), |b| {
        b.iter(|| acc = black_box(acc).square())
    });
    black_box(acc);
}

/// Two operations per iteration, one per lane (the SIMD variant's arithmetic).
fn field_ops_x2(g: &mut BenchmarkGroup<'_, WallTime>) {
    let v = inputs(4);
    let xs: [u29::Fp29; 4] = core::array::from_fn(|i| u29::Fp29::from_field(v[i]));
    let y = [xs[2], xs[3]];
    let mut acc = [xs[0], xs[1]];
    g.bench_function(BenchmarkId::new("mul_x2", "u29x2"), |b| {
        b.iter(|| acc = u29::mul_x2(&acc, black_box(&y)))
    });
    g.bench_function(BenchmarkId::new("square_x2", "u29x2"), |b| {
        b.iter(|| acc = u29::square_x2(black_box(&acc)))
    });
    black_box(acc);
}

fn bench_field(c: &mut Criterion) {
    let mut g = c.benchmark_group("Field");
    for_each_backend!(field_ops(&mut g));
    field_ops_x2(&mut g);
    g.finish();
}

/// The wide-arithmetic build (`--cfg poseidon_wide`, `+wide-arithmetic`): LLVM 22
/// miscompiles some 128-bit operations into the multi-result wide instructions
/// (llvm-project#199910), which first showed as garbage in float formatting.
/// Only crate poseidon gets the feature (scripts/rustc-wide.sh), without LTO; with
/// LTO this check failed (std's float parsing). Before measuring, check that float
/// formatting and parsing work, and time the
/// `u64` permutation by the wall clock for `bench-report` to compare with
/// criterion's median (`<CRITERION_HOME>/wall-clock/<baseline>`).
#[cfg(poseidon_wide)]
fn wide_build_checks() {
    use poseidon::backend::u64::Fp64;
    for i in 1..4000u64 {
        let x = (i * 2_654_435_761 % 1_000_003) as f64 / 977.0;
        let text = format!("{x}");
        let sci = format!("{x:e}");
        // std's parser is exact: both texts must give x back.
        let back: [Result<f64, _>; 2] = [text.parse(), sci.parse()];
        assert!(
            back.iter().all(|b| b.as_ref() == Ok(&x)),
            "wide-arithmetic build: f64 formatting broken ({x:?} -> {text} / {sci} -> \
             {back:?}): a miscompiled build, its times would be wrong"
        );
    }
    assert_eq!(format!("{:.3}", 1.184f64), "1.184", "f64 formatting broken");
    let params = Fp64::params(ParamSet::Kimchi);
    let mut state = [0, 1, 2].map(|i| Fp64::from_field(inputs(3)[i]));
    let n = 2000u64;
    let start = std::time::Instant::now();
    for _ in 0..n {
        permutation::permute(params, black_box(&mut state));
    }
    let t = start.elapsed();
    // Integer arithmetic only: no f64 and no u128 (Duration::as_nanos) on this path.
    let ns = (t.as_secs() * 1_000_000_000 + u64::from(t.subsec_nanos())) / n;
    println!(
        "wide-arithmetic build: float formatting ok; u64 permutation by the wall clock: {ns} ns"
    );
    let args: Vec<String> = std::env::args().collect();
    let baseline = args
        .iter()
        .position(|a| a == "--save-baseline")
        .and_then(|i| args.get(i + 1));
    if let (Some(baseline), Ok(home)) = (baseline, std::env::var("CRITERION_HOME")) {
        let dir = std::path::Path::new(&home).join("wall-clock");
        std::fs::create_dir_all(&dir).expect("create the wall-clock directory");
        std::fs::write(
            dir.join(baseline),
            format!("Poseidon/permutation/u64 {ns}\n"),
        )
        .expect("write the wall-clock time");
    }
}

criterion_group!(benches, bench_poseidon, bench_field);

fn main() {
    #[cfg(poseidon_wide)]
    wide_build_checks();
    benches();
    Criterion::default().configure_from_args().final_summary();
}
