//! `lanes52.rs`'s algorithm on AVX-512 IFMA (`vpmadd52luq`/`vpmadd52huq`): the
//! batch path, 8 permutations at once, one per 64-bit lane of a 512-bit register;
//! and `u52`'s single permutation, the state's three elements in lanes of a
//! 256-bit register or twice in a 512-bit one, whichever this CPU runs faster
//! (`single_form`). Chosen at run time ([`available`]); elsewhere both run the
//! scalar `u64` permutation.
//!
//! The crate's one `unsafe` module: intrinsics need the CPU feature, which
//! [`available`] establishes before `permute_many` or `permute` enters the
//! `#[target_feature]` code, and unaligned loads/stores of 4 or 8 `u64`s from
//! arrays of exactly that length.
#![allow(unsafe_code)]

use core::arch::x86_64::{
    __cpuid, __m256i, __m512i, _mm256_add_epi64, _mm256_and_si256, _mm256_loadu_si256,
    _mm256_madd52hi_epu64, _mm256_madd52lo_epu64, _mm256_permute4x64_epi64, _mm256_set1_epi64x,
    _mm256_setzero_si256, _mm256_srli_epi64, _mm256_storeu_si256, _mm512_add_epi64,
    _mm512_and_si512, _mm512_loadu_si512, _mm512_madd52hi_epu64, _mm512_madd52lo_epu64,
    _mm512_mask_blend_epi64, _mm512_permutexvar_epi64, _mm512_set1_epi64, _mm512_set_epi64,
    _mm512_setzero_si512, _mm512_shuffle_i64x2, _mm512_srli_epi64, _mm512_storeu_si512,
};
use std::sync::OnceLock;

use super::element::{Fe64, Modulus64};
use super::lanes52::{self, Halves, Lanes, Modulus, Rotate, LIMBS, MASK};
use super::rounds::Tables64;
use crate::params::{Sbox, WIDTH};

/// Lanes of this width run per call.
pub const LANES: usize = 8;

/// Whether this CPU runs the IFMA paths (AVX-512F, AVX-512VL and AVX-512 IFMA).
pub fn available() -> bool {
    std::is_x86_feature_detected!("avx512f")
        && std::is_x86_feature_detected!("avx512vl")
        && std::is_x86_feature_detected!("avx512ifma")
}

/// `Lanes` on one register width, each method that width's intrinsic.
///
/// SAFETY (every `unsafe` block the macro writes): the methods are inlined into
/// this module's `#[target_feature]` functions (`permute_one4`, `permute_one8`,
/// `permute_chunks`), entered only after `available()` returned true; `load` and
/// `store` read and write exactly the `$n` words of an array of that length, and
/// the unaligned forms have no alignment need.
macro_rules! ifma_lanes {
    ($t:ident, $n:literal, $set1:ident, $loadu:ident, $storeu:ident, $add:ident,
     $madd52lo:ident, $madd52hi:ident, $setzero:ident, $srli:ident, $and:ident) => {
        impl Lanes for $t {
            #[inline(always)]
            fn splat(x: u64) -> Self {
                $t(unsafe { $set1(x as i64) })
            }
            #[inline(always)]
            fn load(x: &[u64]) -> Self {
                let x: &[u64; $n] = x.try_into().expect("a full register of lanes");
                $t(unsafe { $loadu(x.as_ptr().cast()) })
            }
            #[inline(always)]
            fn store(self, out: &mut [u64]) {
                let out: &mut [u64; $n] = out.try_into().expect("a full register of lanes");
                unsafe { $storeu(out.as_mut_ptr().cast(), self.0) }
            }
            #[inline(always)]
            fn add(self, b: Self) -> Self {
                $t(unsafe { $add(self.0, b.0) })
            }
            #[inline(always)]
            fn madd_lo(self, a: Self, b: Self) -> Self {
                $t(unsafe { $madd52lo(self.0, a.0, b.0) })
            }
            #[inline(always)]
            fn madd_hi(self, a: Self, b: Self) -> Self {
                $t(unsafe { $madd52hi(self.0, a.0, b.0) })
            }
            #[inline(always)]
            fn quotient(t: Self, c: Self) -> Self {
                // madd52lo reads only the low 52 bits of its operands: exactly t mod 2^52.
                $t(unsafe { $madd52lo($setzero(), t.0, c.0) })
            }
            #[inline(always)]
            fn shr52(self) -> Self {
                $t(unsafe { $srli::<52>(self.0) })
            }
            #[inline(always)]
            fn low52(self) -> Self {
                $t(unsafe { $and(self.0, $set1(MASK as i64)) })
            }
            #[inline(always)]
            fn double(self) -> Self {
                $t(unsafe { $add(self.0, self.0) })
            }
        }
    };
}

/// A 512-bit register of 8 lanes, for the batch (one permutation per lane) and
/// the eight-lane single permutation. Only created inside [`permute_chunks`] and
/// [`permute_one8`], which run only when [`available`] holds.
#[derive(Clone, Copy)]
struct Ifma(__m512i);

ifma_lanes!(
    Ifma,
    8,
    _mm512_set1_epi64,
    _mm512_loadu_si512,
    _mm512_storeu_si512,
    _mm512_add_epi64,
    _mm512_madd52lo_epu64,
    _mm512_madd52hi_epu64,
    _mm512_setzero_si512,
    _mm512_srli_epi64,
    _mm512_and_si512
);

// SAFETY (every block below): inlined into `permute_one8`, a `#[target_feature]`
// function entered only after `available()` returned true.
impl Halves for Ifma {
    #[inline(always)]
    fn blend_hi(self, hi: Self) -> Self {
        Ifma(unsafe { _mm512_mask_blend_epi64(0xF0, self.0, hi.0) })
    }
    #[inline(always)]
    fn swap_halves(self) -> Self {
        // 128-bit blocks 2, 3, 0, 1.
        Ifma(unsafe { _mm512_shuffle_i64x2::<0x4E>(self.0, self.0) })
    }
    #[inline(always)]
    fn broadcast2(self, j0: usize, j1: usize) -> Self {
        let (j0, j1) = (j0 as i64, j1 as i64);
        Ifma(unsafe {
            _mm512_permutexvar_epi64(_mm512_set_epi64(j1, j1, j1, j1, j0, j0, j0, j0), self.0)
        })
    }
}

/// A 256-bit register of 4 lanes (AVX-512VL forms of the IFMA instructions), for
/// one permutation with the state's three elements in lanes 0–2. Only created
/// inside [`permute_one4`].
#[derive(Clone, Copy)]
struct Ifma4(__m256i);

ifma_lanes!(
    Ifma4,
    4,
    _mm256_set1_epi64x,
    _mm256_loadu_si256,
    _mm256_storeu_si256,
    _mm256_add_epi64,
    _mm256_madd52lo_epu64,
    _mm256_madd52hi_epu64,
    _mm256_setzero_si256,
    _mm256_srli_epi64,
    _mm256_and_si256
);

// SAFETY (the block below): inlined into `permute_one4`, a `#[target_feature]`
// function entered only after `available()` returned true.
impl Rotate for Ifma4 {
    #[inline(always)]
    fn rotate3(self, k: usize) -> Self {
        Ifma4(unsafe {
            match k {
                // Lanes (1, 2, 0, 3) and (2, 0, 1, 3).
                1 => _mm256_permute4x64_epi64::<0xC9>(self.0),
                _ => _mm256_permute4x64_epi64::<0xD2>(self.0),
            }
        })
    }
}

/// Which form of the single permutation this CPU runs faster: the state twice
/// in a 512-bit register ([`lanes52::permute_single8`]) on AMD's cores from Zen 5
/// (CPU family 0x1A) on, whose 512-bit datapaths make a 512-bit instruction cost
/// a 256-bit one; elsewhere once in a 256-bit register
/// ([`lanes52::permute_single4`]). Measured: on Zen 5 (an EPYC, family 0x1A
/// model 2) the eight-lane form took 0.93× the four-lane one's time, on an Intel
/// Xeon (Sapphire Rapids class) 1.14×. Unmeasured: Zen 4 (four-lane here), and
/// Zen 5's mobile parts, said to run 512-bit instructions on 256-bit datapaths
/// (eight-lane here). The environment variable `POSEIDON_U52_SINGLE` (`4` or `8`)
/// overrides the choice, so that both can be measured on any CPU (`make bench`
/// twice). Read once (CPUID traps in a virtual machine).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Single {
    /// [`lanes52::permute_single4`].
    Four,
    /// [`lanes52::permute_single8`].
    Eight,
}

/// The form this CPU runs ([`Single`]).
pub(crate) fn single_form() -> Single {
    static FORM: OnceLock<Single> = OnceLock::new();
    *FORM.get_or_init(|| {
        let (vendor, signature) = (__cpuid(0), __cpuid(1).eax);
        // "AuthenticAMD" in EBX, EDX, ECX.
        let amd = (vendor.ebx, vendor.edx, vendor.ecx) == (0x6874_7541, 0x6974_6E65, 0x444D_4163);
        let base = (signature >> 8) & 0xF;
        let family = if base == 0xF {
            base + ((signature >> 20) & 0xFF)
        } else {
            base
        };
        choose_form(
            std::env::var("POSEIDON_U52_SINGLE").ok().as_deref(),
            amd,
            family,
        )
    })
}

/// [`single_form`]'s rule: the override `4` or `8` when given (anything else is
/// ignored), else eight lanes on AMD from family 0x1A.
pub(crate) fn choose_form(over: Option<&str>, amd: bool, family: u32) -> Single {
    match over.map(str::trim) {
        Some("4") => Single::Four,
        Some("8") => Single::Eight,
        _ if amd && family >= 0x1A => Single::Eight,
        _ => Single::Four,
    }
}

/// One permutation with the three state elements in IFMA lanes, in the form
/// this CPU runs faster ([`single_form`]). Panics if the CPU lacks IFMA; check
/// [`available`] first.
pub(crate) fn permute<M: Modulus64, const ROWS: usize>(
    tables: &Tables64<M, ROWS>,
    state: &mut [Fe64<M>; WIDTH],
) {
    permute_in(single_form(), tables, state)
}

/// [`permute`] in the given form.
pub(crate) fn permute_in<M: Modulus64, const ROWS: usize>(
    form: Single,
    tables: &Tables64<M, ROWS>,
    state: &mut [Fe64<M>; WIDTH],
) {
    assert!(available(), "this CPU has no AVX-512 IFMA");
    // SAFETY: the CPU has AVX-512F/VL and AVX-512 IFMA (checked just above); AVX2
    // is implied by AVX-512F.
    unsafe {
        match form {
            Single::Four => permute_one4(tables, state),
            Single::Eight => permute_one8(tables, state),
        }
    }
}

#[target_feature(enable = "avx2,avx512f,avx512vl,avx512ifma")]
fn permute_one4<M: Modulus64, const ROWS: usize>(
    tables: &Tables64<M, ROWS>,
    state: &mut [Fe64<M>; WIDTH],
) {
    let modulus = Modulus::<Ifma4>::new(&M::P52, M::INV);
    let set = tables.params.set;
    let mut s = load_state::<Ifma4, M, 4>(state);
    lanes52::permute_single4::<Ifma4, ROWS>(
        &tables.lanes,
        set.initial_ark(),
        set.sbox() == Sbox::Pow7,
        &modulus,
        &mut s,
    );
    store_state::<Ifma4, M, 4>(&s, state);
}

#[target_feature(enable = "avx512f,avx512ifma")]
fn permute_one8<M: Modulus64, const ROWS: usize>(
    tables: &Tables64<M, ROWS>,
    state: &mut [Fe64<M>; WIDTH],
) {
    let modulus = Modulus::<Ifma>::new(&M::P52, M::INV);
    let set = tables.params.set;
    let mut s = load_state::<Ifma, M, LANES>(state);
    lanes52::permute_single8::<Ifma, ROWS>(
        &tables.lanes,
        set.initial_ark(),
        set.sbox() == Sbox::Pow7,
        &modulus,
        &mut s,
    );
    store_state::<Ifma, M, LANES>(&s, state);
}

/// The state's elements in 52-bit limbs (R = 2^260), element e in lane e of every
/// group of four lanes (the fourth lane of each zero): one vector per limb.
#[inline(always)]
fn load_state<V: Lanes, M: Modulus64, const N: usize>(state: &[Fe64<M>; WIDTH]) -> [V; LIMBS] {
    let mut rows = [[0u64; N]; LIMBS];
    for (e, x) in state.iter().enumerate() {
        for (j, limb) in lanes52::to_lanes(&x.0, &M::TO52, &M::P, M::INV)
            .iter()
            .enumerate()
        {
            for group in 0..N / 4 {
                rows[j][4 * group + e] = *limb;
            }
        }
    }
    let mut s = [V::splat(0); LIMBS];
    for (v, l) in s.iter_mut().zip(&rows) {
        *v = V::load(l);
    }
    s
}

/// Lanes 0–2 back into the state, fully reduced (R = 2^256).
#[inline(always)]
fn store_state<V: Lanes, M: Modulus64, const N: usize>(
    s: &[V; LIMBS],
    state: &mut [Fe64<M>; WIDTH],
) {
    let mut rows = [[0u64; N]; LIMBS];
    for (j, v) in s.iter().enumerate() {
        v.store(&mut rows[j]);
    }
    for (e, x) in state.iter_mut().enumerate() {
        let l: [u64; LIMBS] = core::array::from_fn(|j| rows[j][e]);
        *x = Fe64::new(lanes52::from_lanes(&l, &M::P, M::INV));
    }
}

/// Permutes `states` 8 at a time (the last group padded with zero states).
/// Panics if the CPU lacks IFMA; check [`available`] first.
pub(crate) fn permute_many<M: Modulus64, const ROWS: usize>(
    tables: &Tables64<M, ROWS>,
    states: &mut [[Fe64<M>; WIDTH]],
) {
    assert!(available(), "this CPU has no AVX-512 IFMA");
    // SAFETY: the CPU has AVX-512F and AVX-512 IFMA (checked just above).
    unsafe { permute_chunks(tables, states) }
}

#[target_feature(enable = "avx512f,avx512ifma")]
fn permute_chunks<M: Modulus64, const ROWS: usize>(
    tables: &Tables64<M, ROWS>,
    states: &mut [[Fe64<M>; WIDTH]],
) {
    let (p, inv) = (&M::P, M::INV);
    let modulus = Modulus::<Ifma>::new(&M::P52, M::INV);
    let set = tables.params.set;
    for chunk in states.chunks_mut(LANES) {
        // Transpose: limb j of element e of every lane in one row.
        let mut rows = [[[0u64; LANES]; LIMBS]; WIDTH];
        for (lane, st) in chunk.iter().enumerate() {
            for (e, x) in st.iter().enumerate() {
                let l = lanes52::to_lanes(&x.0, &M::TO52, p, inv);
                for (j, limb) in l.iter().enumerate() {
                    rows[e][j][lane] = *limb;
                }
            }
        }
        let mut s = rows.map(|e| e.map(|l| Ifma::load(&l)));
        lanes52::permute::<Ifma, ROWS>(
            &tables.lanes,
            set.initial_ark(),
            set.sbox() == Sbox::Pow7,
            &modulus,
            &mut s,
        );
        for (e, x) in s.iter().enumerate() {
            for (j, v) in x.iter().enumerate() {
                v.store(&mut rows[e][j]);
            }
        }
        for (lane, st) in chunk.iter_mut().enumerate() {
            for (e, x) in st.iter_mut().enumerate() {
                let l: [u64; LIMBS] = core::array::from_fn(|j| rows[e][j][lane]);
                *x = Fe64::new(lanes52::from_lanes(&l, p, inv));
            }
        }
    }
}
