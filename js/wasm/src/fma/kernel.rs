//! The generated FMA kernels (`fma-kernel --linked [--field fq]`, crate
//! `poseidon-fma-kernel`), imported from modules `poseidon_fma` and
//! `poseidon_fma_fq`, which `js/build.mjs` merges into the package's `fma` module
//! with binaryen's `wasm-merge`. Each kernel takes and gives `u29`'s own form,
//! x·2^261 mod p below 2^256, in five 52-bit limbs held as `f64` (see the
//! `fma-kernel/` crate), so the state enters and leaves it by regrouping bits,
//! 64 to 52 and back (`Fe29::to_words`, `from_words`).
//!
//! One state goes through `fma_permute`, two at once through `fma_permute2` (one
//! per lane, the batch path).
//!
//! The only `unsafe` of the package's crate beside its exports: calls into the
//! kernels, which read and write nothing but their own region (allocated here,
//! `fma_bytes()` long, 16-byte aligned) and the state buffer of the call (160 or
//! 240 bytes).
#![allow(unsafe_code)]

use std::sync::OnceLock;

use poseidon::backend::u29::{Fe29, Modulus29};
use poseidon::backend::{Pallas, Vesta};
use poseidon::WIDTH;

use super::limbs::{join52, split52};

/// The Fp kernel (Pallas).
mod fp {
    #[link(wasm_import_module = "poseidon_fma")]
    extern "C" {
        pub fn fma_bytes() -> u32;
        pub fn fma_init(base: u32);
        pub fn fma_permute(base: u32, state: u32);
        pub fn fma_permute2(base: u32, state: u32);
        pub fn fma_fused(a: f64) -> u32;
    }
}

/// The Fq kernel (Vesta): the same exports from its own import module.
mod fq {
    #[link(wasm_import_module = "poseidon_fma_fq")]
    extern "C" {
        #[link_name = "fma_bytes"]
        pub fn fma_bytes() -> u32;
        #[link_name = "fma_init"]
        pub fn fma_init(base: u32);
        #[link_name = "fma_permute"]
        pub fn fma_permute(base: u32, state: u32);
        #[link_name = "fma_permute2"]
        pub fn fma_permute2(base: u32, state: u32);
    }
}

/// Which kernel serves modulus `M`: 0 for Pallas, 1 for Vesta.
fn field<M: Modulus29>() -> Option<usize> {
    if M::P == Pallas::P {
        Some(0)
    } else if M::P == Vesta::P {
        Some(1)
    } else {
        None
    }
}

/// Whether this engine's `relaxed_madd` is fused (checked once; both kernels
/// compute wrong results without it, so then the `u29` rounds run).
fn fused() -> bool {
    static FUSED: OnceLock<bool> = OnceLock::new();
    // SAFETY: `fma_fused` reads and writes no memory.
    *FUSED.get_or_init(|| unsafe { fp::fma_fused(((1u64 << 52) - 1) as f64) } == 1)
}

/// Kernel `f`'s region, set up once; `None` where `relaxed_madd` is not fused.
fn base(f: usize) -> Option<u32> {
    static BASES: [OnceLock<Option<u32>>; 2] = [OnceLock::new(), OnceLock::new()];
    *BASES[f].get_or_init(|| {
        if !fused() {
            return None;
        }
        // SAFETY: `fma_bytes` reads and writes no memory.
        let bytes = unsafe { [fp::fma_bytes, fq::fma_bytes][f]() } as usize;
        let region: &'static mut [u128] = vec![0u128; bytes.div_ceil(16)].leak();
        let base = region.as_mut_ptr() as usize as u32;
        // SAFETY: `fma_init` writes its constants into [base, base + bytes), which
        // this leaked allocation owns for the rest of the program.
        unsafe { [fp::fma_init, fq::fma_init][f](base) };
        Some(base)
    })
}

/// Whether both kernels run here (`relaxed_madd` fused; their regions set up).
pub(super) fn runs() -> bool {
    base(0).is_some() && base(1).is_some()
}

/// Kernel `f`'s `fma_permute` (`pair` false) or `fma_permute2` on the buffer at
/// `state`.
///
/// # Safety
/// `state` is 160 (single) or 240 (pair) bytes that nothing else uses during the
/// call, and `base` is `base(f)`.
unsafe fn run(f: usize, pair: bool, base: u32, state: u32) {
    match (f, pair) {
        (0, false) => fp::fma_permute(base, state),
        (0, true) => fp::fma_permute2(base, state),
        (_, false) => fq::fma_permute(base, state),
        (_, true) => fq::fma_permute2(base, state),
    }
}

/// Writes `x` (a `u29` element: x·2^261 mod p, below 2^256) as the kernel's five
/// 52-bit limbs into `buf` at `slots`: limb l of vector v, lane j at
/// 2·(5v + l) + j.
fn put<M: Modulus29>(x: &Fe29<M>, buf: &mut [f64], slots: &[(usize, usize)]) {
    let limbs = split52(&x.to_words());
    for (l, limb) in limbs.iter().enumerate() {
        for &(v, lane) in slots {
            buf[2 * (5 * v + l) + lane] = *limb as f64;
        }
    }
}

/// The element at `(v, lane)` of `buf`, back as a `u29` element.
fn get<M: Modulus29>(buf: &[f64], (v, lane): (usize, usize)) -> Fe29<M> {
    // Normalized limbs below 2^52, the value below 2^256 (the kernel's bound, and
    // `u29`'s).
    let limbs: [u64; 5] = core::array::from_fn(|l| {
        let f = buf[2 * (5 * v + l) + lane];
        debug_assert!((0.0..4503599627370496.0).contains(&f) && f.fract() == 0.0);
        f as u64
    });
    debug_assert!(limbs[4] < 1 << 48, "below 2^256");
    Fe29::from_words(&join52(&limbs))
}

/// Where element e goes in `fma_permute`'s state, (vector, lane) pairs: elements
/// 0 and 1 in the lanes of the first vector, element 2 in both lanes of the
/// second. It comes back from the first pair.
const SLOTS: [&[(usize, usize)]; WIDTH] = [&[(0, 0)], &[(0, 1)], &[(1, 0), (1, 1)]];

/// The kimchi permutation of `state` by its field's kernel; false (state
/// untouched) when the kernel cannot run here or `M` is neither Pasta modulus.
pub(super) fn permute_kimchi<M: Modulus29>(state: &mut [Fe29<M>; WIDTH]) -> bool {
    let Some((f, base)) = field::<M>().and_then(|f| Some((f, base(f)?))) else {
        return false;
    };
    let mut buf = [0f64; 20];
    for (x, slots) in state.iter().zip(SLOTS) {
        put(x, &mut buf, slots);
    }
    // SAFETY: the kernel reads and writes the 160 bytes of `buf` and its own region.
    unsafe { run(f, false, base, buf.as_mut_ptr() as usize as u32) };
    for (x, slots) in state.iter_mut().zip(SLOTS) {
        *x = get(&buf, slots[0]);
    }
    true
}

/// The kimchi permutation of each of `states`, two at a time by `fma_permute2`
/// (element e of the pair's state j in lane j of vector e), an odd last one by
/// `fma_permute`; false (states untouched) as [`permute_kimchi`].
pub(super) fn permute_many_kimchi<M: Modulus29>(states: &mut [[Fe29<M>; WIDTH]]) -> bool {
    let Some((f, base)) = field::<M>().and_then(|f| Some((f, base(f)?))) else {
        return false;
    };
    let mut pairs = states.chunks_exact_mut(2);
    for pair in &mut pairs {
        let mut buf = [0f64; 30];
        for (j, state) in pair.iter().enumerate() {
            for (e, x) in state.iter().enumerate() {
                put(x, &mut buf, &[(e, j)]);
            }
        }
        // SAFETY: the kernel reads and writes the 240 bytes of `buf` and its own region.
        unsafe { run(f, true, base, buf.as_mut_ptr() as usize as u32) };
        for (j, state) in pair.iter_mut().enumerate() {
            for (e, x) in state.iter_mut().enumerate() {
                *x = get(&buf, (e, j));
            }
        }
    }
    for state in pairs.into_remainder() {
        permute_kimchi(state);
    }
    true
}
