//! The kernels' intermediate form: `v128` expressions and statements, and the
//! streams that build them with each column's known excess.

use crate::prelude::*;

pub(crate) const LIMBS: usize = 5;
pub(crate) const MASK: u64 = (1 << 52) - 1;
/// Bits of 2^104, 1.5·2^52 and 2^52.
pub(crate) const HI: u64 = 0x4670_0000_0000_0000;
pub(crate) const LO: u64 = 0x4338_0000_0000_0000;
/// Bits of 2^104 − 1.5·2^52 = (2^53 − 3)·2^51.
pub(crate) const HI_LO: u64 = 0x466f_ffff_ffff_fffd;
/// Bits of 2^104 − 2^51: `HI` less one (the double below 2^104).
pub(crate) const HALF_BELOW_HI: u64 = HI - 1;
pub(crate) const TWO52: u64 = 0x4330_0000_0000_0000;
/// Bits of −2^52.
pub(crate) const NEG_TWO52: u64 = 0xc330_0000_0000_0000;
/// Keeps an output column positive while it is carried (a multiple of 2^52).
pub(crate) const OFF: u64 = 1 << 61;
/// The kernel's region, from the `base` its functions take: constants pool,
/// tables, scratch (`fma_bytes()` in all).
pub(crate) const POOL: u32 = 0;
pub(crate) const TABLES: u32 = 2048;
/// Where the interpreter puts the state (2 vectors × 5 limbs × 2 lanes of `f64`)
/// and the region, as `js/bench/fma-lib.mjs` does.
pub(crate) const STATE: u32 = 1024;
pub(crate) const BASE: u32 = 4096;

/// A `v128` expression.
#[derive(Clone, Debug)]
pub(crate) enum E {
    Local(String),
    /// `v128.load offset=off (local.get $ptr)`.
    Load(String, u32),
    /// A constant in both lanes (its bits), read from the pool.
    Const(u64),
    Madd(Box<E>, Box<E>, Box<E>),
    Nmadd(Box<E>, Box<E>, Box<E>),
    FSub(Box<E>, Box<E>),
    IAdd(Box<E>, Box<E>),
    ISub(Box<E>, Box<E>),
    And(Box<E>, Box<E>),
    Or(Box<E>, Box<E>),
    Shl(Box<E>, u32),
    ShrU(Box<E>, u32),
    Mul32(Box<E>, Box<E>),
}

pub(crate) fn b(e: E) -> Box<E> {
    Box::new(e)
}
pub(crate) fn local(n: &str) -> E {
    E::Local(n.to_string())
}

#[derive(Clone, Debug)]
pub(crate) enum S {
    Set(String, E),
    Store(String, u32, E),
}

/// One kernel: pointer parameters, v128 locals, statements.
pub(crate) struct Func {
    pub(crate) name: String,
    pub(crate) params: Vec<String>,
    pub(crate) locals: Vec<String>,
    pub(crate) body: Vec<S>,
}

/// The statements of one stream of a kernel, with the excess of each column.
pub(crate) struct Stream {
    pub(crate) sfx: String,
    pub(crate) body: Vec<S>,
    pub(crate) locals: Vec<String>,
    /// Excess and whether the accumulator holds anything: cur, nxt, ccur, cnxt.
    pub(crate) ex: HashMap<&'static str, (u64, bool)>,
}

impl Stream {
    pub(crate) fn new(sfx: &str) -> Self {
        let ex = ["cur", "nxt", "ccur", "cnxt"]
            .into_iter()
            .map(|k| (k, (0, false)))
            .collect();
        Stream {
            sfx: sfx.to_string(),
            body: Vec::new(),
            locals: Vec::new(),
            ex,
        }
    }
    pub(crate) fn name(&self, n: &str) -> String {
        format!("{n}{}", self.sfx)
    }
    pub(crate) fn set(&mut self, n: &str, e: E) {
        let name = self.name(n);
        if !self.locals.contains(&name) {
            self.locals.push(name.clone());
        }
        self.body.push(S::Set(name, e));
    }
    pub(crate) fn get(&self, n: &str) -> E {
        E::Local(self.name(n))
    }
    /// acc += e (or acc = e when empty); `excess` is e's.
    pub(crate) fn acc(&mut self, acc: &'static str, e: E, excess: u64) {
        let (x, full) = self.ex[acc];
        let v = if full {
            E::IAdd(b(self.get(acc)), b(e))
        } else {
            e
        };
        self.set(acc, v);
        self.ex.insert(acc, (x.wrapping_add(excess), true));
    }
    /// The exact value of an accumulator (excess subtracted), or zero.
    pub(crate) fn exact(&self, acc: &'static str) -> E {
        let (x, full) = self.ex[acc];
        if full {
            E::ISub(b(self.get(acc)), b(E::Const(x)))
        } else {
            E::Const(0)
        }
    }
    /// Local `t` = the column `v` (of excess `excess`) plus 2^61: positive for
    /// |column| < 2^61, with the column's own low 52 bits.
    pub(crate) fn offset(&mut self, v: E, excess: u64) {
        self.set("t", E::ISub(b(v), b(E::Const(excess.wrapping_sub(OFF)))));
    }
    /// `t`'s carry, ⌊t/2^52⌋ (the column's plus 2^9), added to `nxt`.
    pub(crate) fn carry_offset(&mut self) {
        self.acc("nxt", E::ShrU(b(self.get("t")), 52), OFF >> 52);
    }
    /// hi = fma(a, b, 2^104) = 2^104 + k·2^52 into local `hi`, its bits added to `nx`.
    pub(crate) fn high(&mut self, a: &E, bb: &E, nx: &'static str) {
        let hi = E::Madd(b(a.clone()), b(bb.clone()), b(E::Const(HI)));
        self.set("hi", hi);
        self.acc(nx, self.get("hi"), HI);
    }
    /// a·b into (lo → `cu`, hi → `nx`): hi = fma(a, b, 2^104) = 2^104 + k·2^52,
    /// then fnma(a, b, hi − (2^104 − 1.5·2^52)) = 1.5·2^52 − (a·b − k·2^52), exact
    /// and in [2^52, 2^53], whose bits are subtracted from `cu`.
    pub(crate) fn mac(&mut self, a: &E, bb: &E, cu: &'static str, nx: &'static str) {
        self.high(a, bb, nx);
        let h = E::FSub(b(self.get("hi")), b(E::Const(HI_LO)));
        let lo = E::Nmadd(b(a.clone()), b(bb.clone()), b(h));
        let (x, full) = self.ex[cu];
        let v = if full {
            E::ISub(b(self.get(cu)), b(lo))
        } else {
            E::ISub(b(E::Const(0)), b(lo))
        };
        self.set(cu, v);
        self.ex.insert(cu, (x.wrapping_sub(LO), true));
    }
    /// `from` → `to` (empty `from` empties `to`).
    pub(crate) fn shift(&mut self, to: &'static str, from: &'static str) {
        let (x, full) = self.ex[from];
        if full {
            self.set(to, self.get(from));
        }
        self.ex.insert(to, (x, full));
        self.ex.insert(from, (0, false));
    }
}

/// The bits of fma(q, p_0, 2^104 − 2^51) for a quotient digit q (an integer below
/// 2^52, as `f64`) and p's limb 0 (2^50 < p_0 < 2^52, odd): `HI` − 1 + [q ≠ 0] +
/// ⌊q·p_0/2^52⌋. Where q ≠ 0, q·p_0/2^52 is not an integer, so rounding
/// q·p_0/2^52 − 1/2 to the nearest gives its floor: exactly where the sum lies
/// in [2^104, 2^105) (step 2^52); where q·p_0 < 2^51 the sum lies within 2^51 below
/// 2^104 (step 2^51) and rounds up to 2^104, as q·p_0 ≥ p_0 > 2^50 (the floor is
/// 0). q = 0 leaves 2^104 − 2^51 as it is.
pub(crate) fn quotient_high(q: E, p0: u64) -> E {
    assert!(
        p0 > 1 << 50 && p0 < 1 << 52 && p0 & 1 == 1,
        "p's limb 0: {p0:#x}"
    );
    E::Madd(
        b(q),
        b(E::Const(f64::to_bits(p0 as f64))),
        b(E::Const(HALF_BELOW_HI)),
    )
}

/// An integer below 2^52 (lanes) as `f64`.
pub(crate) fn to_float(e: E) -> E {
    E::FSub(
        b(E::Or(b(e), b(E::Const(TWO52)))),
        b(E::Const(f64::to_bits(4503599627370496.0))),
    )
}

/// Operand pairs of products.
pub(crate) type Pairs = Vec<(E, E)>;
/// Limb l of operand n.
pub(crate) type Operand<'a> = &'a dyn Fn(usize, usize) -> E;
/// Column c's terms: cross products (doubled) and plain products.
pub(crate) type Terms = dyn Fn(usize, Operand) -> (Pairs, Pairs);
