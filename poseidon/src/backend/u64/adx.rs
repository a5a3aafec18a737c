//! The S-box's Montgomery product in x86-64 assembly with BMI2's `mulx` and ADX's
//! `adcx`/`adox`, for CPUs that have both (Intel from Broadwell, AMD from Zen):
//! chosen at run time ([`Adx::detect`]), else `arith::mont_mul_lazy`.
//!
//! The algorithm is `arith::mont_mul_lazy`'s, CIOS on the Pasta shape, and gives
//! the same bits: four rows, each adding a·b_i and then taking one reduction step.
//! What the assembly adds is two carry chains at once: in a row, each limb
//! product's low word goes into the chain of OF (`adox`) and its high word into
//! the chain of CF (`adcx`), so neither waits on the other, and `mulx` leaves the
//! flags alone. LLVM's code for the `u128` form uses one chain and moves every
//! product through `rax`/`rdx`. On an Intel Xeon (Sapphire Rapids class) the
//! permutation takes 0.92× the time with the S-box's products and squares here
//! (`make ab`); the linear-layer rows in the same form, and a square with each
//! cross product once, gained nothing (docs/experiments/native.md).
//!
//! Bounds are `mont_mul_lazy`'s: a < 2^256 − p, any b; the value stays below 2^320
//! within a step and below a + p < 2^256 after it, so the top word never carries
//! out and the last `adcx`/`adox` of each chain adds a carry that fits.
#![allow(unsafe_code)]

use std::sync::OnceLock;

/// Proof that this CPU has BMI2 and ADX: only [`Adx::detect`] makes one.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Adx(());

impl Adx {
    /// `Some` when the CPU has BMI2 and ADX (checked once).
    pub(crate) fn detect() -> Option<Adx> {
        static HAS: OnceLock<bool> = OnceLock::new();
        let has = *HAS.get_or_init(|| {
            std::arch::is_x86_feature_detected!("bmi2")
                && std::arch::is_x86_feature_detected!("adx")
        });
        has.then_some(Adx(()))
    }

    /// (a·b + Q·p)/2^256 for the Q that clears the low 256 bits (the value of
    /// `arith::mont_mul_lazy`); `m` = [p_0, p_1, −p⁻¹ mod 2^64] of a Pasta-shaped p
    /// (limb 2 zero, limb 3 2^62). Needs a < 2^256 − p.
    #[inline(always)]
    pub(crate) fn mul(self, a: &[u64; 4], b: &[u64; 4], m: &[u64; 3]) -> [u64; 4] {
        let (r0, r1, r2, r4): (u64, u64, u64, u64);
        // SAFETY: `self` exists only where the CPU has BMI2 (`mulx`) and ADX
        // (`adcx`, `adox`); the block reads 4 words at `a` and at `b` and 3 at `m`
        // (all in bounds), writes only its declared registers, and does not touch
        // the stack.
        unsafe {
            core::arch::asm!(
                // Row 0: t = a·b_0 in t0..t4 (one chain: nothing to add yet).
                "mov rdx, qword ptr [{b}]",
                "mulx {t1}, {t0}, qword ptr [{a}]",
                "mulx {t2}, {lo}, qword ptr [{a} + 8]",
                "add {t1}, {lo}",
                "mulx {t3}, {lo}, qword ptr [{a} + 16]",
                "adc {t2}, {lo}",
                "mulx {t4}, {lo}, qword ptr [{a} + 24]",
                "adc {t3}, {lo}",
                "adc {t4}, 0",
                // Then the registers rotate: after each step the value is in the
                // four after the one the step cleared, which takes the next top.
                reduce_step!("t0", "t1", "t2", "t3", "t4"),
                row!("8", "t1", "t2", "t3", "t4", "t0"),
                reduce_step!("t1", "t2", "t3", "t4", "t0"),
                row!("16", "t2", "t3", "t4", "t0", "t1"),
                reduce_step!("t2", "t3", "t4", "t0", "t1"),
                row!("24", "t3", "t4", "t0", "t1", "t2"),
                reduce_step!("t3", "t4", "t0", "t1", "t2"),
                a = in(reg) a.as_ptr(),
                b = in(reg) b.as_ptr(),
                m = in(reg) m.as_ptr(),
                t0 = out(reg) r0,
                t1 = out(reg) r1,
                t2 = out(reg) r2,
                // Cleared by the last step.
                t3 = out(reg) _,
                t4 = out(reg) r4,
                lo = out(reg) _,
                hi = out(reg) _,
                z = out(reg) _,
                out("rdx") _,
                options(pure, readonly, nostack),
            );
        }
        [r4, r0, r1, r2]
    }
}

/// One instruction on two named operands: `op {d}, {s}`.
macro_rules! op2 {
    ($op:literal, $d:literal, $s:literal) => {
        concat!($op, " {", $d, "}, {", $s, "}\n")
    };
}

/// rdx·[src]: its low word into `lo_dst` on the OF chain, its high word into
/// `hi_dst` on the CF chain.
macro_rules! mac2 {
    ($src:literal, $lo_dst:literal, $hi_dst:literal) => {
        concat!(
            "mulx {hi}, {lo}, qword ptr ",
            $src,
            "\n",
            op2!("adox", $lo_dst, "lo"),
            op2!("adcx", $hi_dst, "hi"),
        )
    };
}

/// Row i ≥ 1 (b_i at byte offset `off`): T0..T3 += a·b_i, the top in T4. Low words
/// on the OF chain, high words on the CF chain; both end in T4.
macro_rules! row {
    ($off:literal, $t0:literal, $t1:literal, $t2:literal, $t3:literal, $t4:literal) => {
        concat!(
            "mov rdx, qword ptr [{b} + ",
            $off,
            "]\n",
            "xor {z:e}, {z:e}\n", // z = 0, CF = OF = 0
            mac2!("[{a}]", $t0, $t1),
            mac2!("[{a} + 8]", $t1, $t2),
            mac2!("[{a} + 16]", $t2, $t3),
            "mulx {",
            $t4,
            "}, {lo}, qword ptr [{a} + 24]\n",
            op2!("adox", $t3, "lo"),
            op2!("adcx", $t4, "z"),
            op2!("adox", $t4, "z"),
        )
    };
}

/// One reduction step on T0..T4: q = T0·(−p⁻¹), then T + q·p, whose word T0 is
/// zero, leaving (T + q·p)/2^64 in T1..T4. q·p = q·p_0 + q·p_1·2^64 + q·2^254; the
/// last term's words (q << 62, q >> 2) are added once both chains have ended,
/// since shifts write the flags.
macro_rules! reduce_step {
    ($t0:literal, $t1:literal, $t2:literal, $t3:literal, $t4:literal) => {
        concat!(
            "mov rdx, {",
            $t0,
            "}\n",
            "imul rdx, qword ptr [{m} + 16]\n",
            "xor {z:e}, {z:e}\n",
            mac2!("[{m}]", $t0, $t1),
            mac2!("[{m} + 8]", $t1, $t2),
            op2!("adox", $t2, "z"),
            op2!("adcx", $t3, "z"),
            op2!("adox", $t3, "z"),
            op2!("adcx", $t4, "z"),
            op2!("adox", $t4, "z"),
            "mov {lo}, rdx\n",
            "shl {lo}, 62\n",
            "shr rdx, 2\n",
            op2!("add", $t3, "lo"),
            "adc {",
            $t4,
            "}, rdx\n",
        )
    };
}

use {mac2, op2, reduce_step, row};
