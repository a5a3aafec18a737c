//! The permutation's Montgomery products in x86-64 assembly with BMI2's `mulx`
//! and ADX's `adcx`/`adox`, for CPUs that have both (Intel from Broadwell, AMD
//! from Zen): chosen at run time ([`Adx::detect`]), else `arith`'s portable code.
//! Two forms: the S-box's product ([`Adx::mul`], as `arith::mont_mul_lazy`) and the
//! rescaled linear layer's row ([`Adx::row`], as `arith::dot2_shift_add`).
//!
//! The algorithms are `arith`'s, CIOS on the Pasta shape, and give the same bits:
//! four steps, each adding the operands' rows (a·b_i, or the row's two products'
//! limb i) and then taking one reduction step. What the assembly adds is two carry
//! chains at once: in a row, each limb product's low word goes into the chain of
//! OF (`adox`) and its high word into the chain of CF (`adcx`), so neither waits
//! on the other, and `mulx` leaves the flags alone. LLVM's code for the `u128` form
//! uses one chain and moves every product through `rax`/`rdx`. The reduction step
//! is one chain: q·p's words are summed first (p has two low limbs and a top power
//! of two), and T0's carry is T0 ≠ 0 (`neg`), so no chain is left to flush through
//! the upper words. `make ab` of the permutation: the S-box's products and squares
//! here, 0.92× the time on an Intel Xeon (Sapphire Rapids class); the rows too,
//! 0.95× on an AMD EPYC of family 25 (Zen 4), where on the Xeon they had gained
//! nothing; the one-chain reduction step, 0.91× on that EPYC
//! (docs/experiments/native.md).
//!
//! Bounds are `arith`'s: for the product a < 2^256 − p and any b, the value stays
//! below 2^320 within a step and below a + p < 2^256 after it; for the row, below
//! 2^320 within a step and 3.3p after the last. So the top word never carries out
//! and the last `adcx`/`adox` of each chain adds a carry that fits.
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
                row!("[{b} + 8]", "{a}", "t1", "t2", "t3", "t4", "t0"),
                reduce_step!("t1", "t2", "t3", "t4", "t0"),
                row!("[{b} + 16]", "{a}", "t2", "t3", "t4", "t0", "t1"),
                reduce_step!("t2", "t3", "t4", "t0", "t1"),
                row!("[{b} + 24]", "{a}", "t3", "t4", "t0", "t1", "t2"),
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

impl Adx {
    /// [`arith::dot2_shift_add`](super::arith::dot2_shift_add) before its
    /// `fold_top`: for the power-of-two entry in column `J`, the value
    /// (T + Q·p)/2^256 < 3.3p of T = m_a·x_a + m_b·x_b + y·2^192 + k_r, limb by limb
    /// (CIOS) with the same Q, so the same bits. `y` is the power-of-two term
    /// ([`shifted_term`](super::arith::shifted_term)); needs the x below 1.53125p and
    /// m, k_r below p (the bounds of `dot2_shift_add`: below 2^320 within a step).
    #[inline(always)]
    pub(crate) fn row<const J: usize>(
        self,
        mrow: &[[u64; 4]; 3],
        x: &[[u64; 4]; 3],
        y: &[u64; 5],
        k_r: &[u64; 4],
        m: &[u64; 3],
    ) -> [u64; 4] {
        const { assert!(J < 3, "a column of the 3×3 layer") };
        let [mut r0, mut r1, mut r2, r3] = *k_r;
        let r4: u64;
        // SAFETY: as `mul`: the CPU has BMI2 and ADX; the block reads 12 words at
        // `x` and at `mrow`, 5 at `y` and 3 at `m` (all in bounds), writes only its
        // declared registers, and does not touch the stack.
        macro_rules! body {
            ($a:literal, $b:literal) => {
                unsafe {
                    core::arch::asm!(
                        row_at!($a, "0", "t0", "t1", "t2", "t3", "t4"),
                        row_at!(@acc $b, "0", "t0", "t1", "t2", "t3", "t4"),
                        reduce_step!("t0", "t1", "t2", "t3", "t4"),
                        row_at!($a, "8", "t1", "t2", "t3", "t4", "t0"),
                        row_at!(@acc $b, "8", "t1", "t2", "t3", "t4", "t0"),
                        reduce_step!("t1", "t2", "t3", "t4", "t0"),
                        row_at!($a, "16", "t2", "t3", "t4", "t0", "t1"),
                        row_at!(@acc $b, "16", "t2", "t3", "t4", "t0", "t1"),
                        reduce_step!("t2", "t3", "t4", "t0", "t1"),
                        row_at!($a, "24", "t3", "t4", "t0", "t1", "t2"),
                        row_at!(@acc $b, "24", "t3", "t4", "t0", "t1", "t2"),
                        // y·2^192: its five words onto the step's five.
                        "add {t3}, qword ptr [{y}]",
                        "adc {t4}, qword ptr [{y} + 8]",
                        "adc {t0}, qword ptr [{y} + 16]",
                        "adc {t1}, qword ptr [{y} + 24]",
                        "adc {t2}, qword ptr [{y} + 32]",
                        reduce_step!("t3", "t4", "t0", "t1", "t2"),
                        x = in(reg) x.as_ptr(),
                        mr = in(reg) mrow.as_ptr(),
                        y = in(reg) y.as_ptr(),
                        m = in(reg) m.as_ptr(),
                        t0 = inout(reg) r0,
                        t1 = inout(reg) r1,
                        t2 = inout(reg) r2,
                        // Cleared by the last step.
                        t3 = inout(reg) r3 => _,
                        t4 = out(reg) r4,
                        lo = out(reg) _,
                        hi = out(reg) _,
                        z = out(reg) _,
                        out("rdx") _,
                        options(pure, readonly, nostack),
                    );
                }
            };
        }
        // The two other columns' byte offsets: (J + 1) mod 3 and (J + 2) mod 3.
        match J {
            0 => body!("32", "64"),
            1 => body!("64", "0"),
            _ => body!("0", "32"),
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
    ($src:expr, $lo_dst:literal, $hi_dst:literal) => {
        concat!(
            "mulx {hi}, {lo}, qword ptr ",
            $src,
            "\n",
            op2!("adox", $lo_dst, "lo"),
            op2!("adcx", $hi_dst, "hi"),
        )
    };
}

/// One reduction step on T0..T4: q = T0·(−p⁻¹), then T + q·p, whose word T0 is
/// zero, leaving (T + q·p)/2^64 in T1..T4, on one carry chain. q·p = q·p_0 +
/// q·p_1·2^64 + q·2^254: the first two summed into three words (hi(q·p_0) +
/// lo(q·p_1) in `hi`, hi(q·p_1) plus that carry in `z`; below 2^62 + 1, so no
/// carry out), the last as q << 62 and q >> 2 (shifted before the chain, since
/// shifts write the flags). T0 + lo(q·p_0) is 0 mod 2^64 by the choice of q, so
/// its carry is 1 exactly when T0 ≠ 0, which `neg` puts in CF without the word.
macro_rules! reduce_step {
    ($t0:literal, $t1:literal, $t2:literal, $t3:literal, $t4:literal) => {
        concat!(
            "mov rdx, {",
            $t0,
            "}\n",
            "imul rdx, qword ptr [{m} + 16]\n",
            "mulx {hi}, {lo}, qword ptr [{m}]\n",
            "mulx {z}, {lo}, qword ptr [{m} + 8]\n",
            op2!("add", "hi", "lo"),
            "adc {z}, 0\n",
            "mov {lo}, rdx\n",
            "shl {lo}, 62\n",
            "shr rdx, 2\n",
            "neg {",
            $t0,
            "}\n",
            op2!("adc", $t1, "hi"),
            op2!("adc", $t2, "z"),
            op2!("adc", $t3, "lo"),
            "adc {",
            $t4,
            "}, rdx\n",
        )
    };
}

/// One row: T0..T3 += rdx·E with rdx = the word at `$mult` and E the four words
/// at `$e` (both addresses as the assembler writes them), low words on the OF
/// chain and high words on the CF chain. Its top goes into T4, a fresh register
/// (`@acc`: T4 already holds the step's top, and the product's top and both
/// chains' carries are added to it; the value stays below 2^320).
macro_rules! row {
    (@head $mult:expr, $e:expr, $t0:literal, $t1:literal, $t2:literal, $t3:literal) => {
        concat!(
            "mov rdx, qword ptr ",
            $mult,
            "\n",
            "xor {z:e}, {z:e}\n", // z = 0, CF = OF = 0
            mac2!(concat!("[", $e, "]"), $t0, $t1),
            mac2!(concat!("[", $e, " + 8]"), $t1, $t2),
            mac2!(concat!("[", $e, " + 16]"), $t2, $t3),
        )
    };
    (@acc $mult:expr, $e:expr, $t0:literal, $t1:literal, $t2:literal, $t3:literal, $t4:literal) => {
        concat!(
            row!(@head $mult, $e, $t0, $t1, $t2, $t3),
            "mulx {hi}, {lo}, qword ptr [",
            $e,
            " + 24]\n",
            op2!("adox", $t3, "lo"),
            op2!("adcx", $t4, "hi"),
            op2!("adox", $t4, "z"),
        )
    };
    ($mult:expr, $e:expr, $t0:literal, $t1:literal, $t2:literal, $t3:literal, $t4:literal) => {
        concat!(
            row!(@head $mult, $e, $t0, $t1, $t2, $t3),
            "mulx {",
            $t4,
            "}, {lo}, qword ptr [",
            $e,
            " + 24]\n",
            op2!("adox", $t3, "lo"),
            op2!("adcx", $t4, "z"),
            op2!("adox", $t4, "z"),
        )
    };
}

/// The linear-layer row's limb products (`Adx::row`): x[k][i]·m[k] for the
/// operand at byte `$at` of `{x}` and `{mr}` (k = `$at`/32) and limb `$i` (bytes),
/// a fresh top, or (`@acc`) onto the step's top.
macro_rules! row_at {
    (@acc $at:literal, $i:literal, $t0:literal, $t1:literal, $t2:literal, $t3:literal, $t4:literal) => {
        row!(@acc concat!("[{x} + ", $at, " + ", $i, "]"), concat!("{mr} + ", $at), $t0, $t1, $t2, $t3, $t4)
    };
    ($at:literal, $i:literal, $t0:literal, $t1:literal, $t2:literal, $t3:literal, $t4:literal) => {
        row!(concat!("[{x} + ", $at, " + ", $i, "]"), concat!("{mr} + ", $at), $t0, $t1, $t2, $t3, $t4)
    };
}

use {mac2, op2, reduce_step, row, row_at};
