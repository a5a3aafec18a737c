//! The kimchi permutation of the JavaScript package's `fma` module (issue 15): on
//! 52-bit limbs held as `f64`, two per `v128`, every limb product split exactly by
//! two fused multiply-adds (relaxed SIMD's `f64x2.relaxed_madd`), and the Wasm
//! *generated here* in the order we choose. V8's Turboshaft keeps the order a
//! module gives it; LLVM, compiling the same algorithm from Rust, sums each column
//! as one reassociated tree and keeps every high half live (spills).
//!
//! Each kernel runs independent streams interleaved statement by statement (two
//! for the single permutation's two vectors, three for the pair's), and scans
//! products column by column with the Montgomery reduction (R = 2^260) in the
//! same columns, so only two columns are live.
//!
//! Arithmetic (the same as `lanes52`'s, R = 2^260, values below 2^256):
//! - a·b < 2^104: hi = fma(a, b, 2^104) = 2^104 + k·2^52, and
//!   fnma(a, b, hi − (2^104 − 1.5·2^52)) = 1.5·2^52 − (a·b − k·2^52), exact and in
//!   [2^52, 2^53] (|a·b − k·2^52| ≤ 2^51). The first's bits added and the second's
//!   subtracted as integers put k in column c + 1 and the remainder in column c,
//!   each with a known excess (the anchors' bits) that the generator tracks and
//!   subtracts where a column is read. Where a column must stay positive (after the
//!   quotient's product) the remainder is added instead, anchored at 1.5·2^52.
//! - The Montgomery quotient of column c: p ≡ 1 mod 2^32 for both Pasta primes,
//!   so q = 2^32·(t·u mod 2^20) − t mod 2^52 with u = (p − 1)/2^32 (one
//!   `i32x4.mul`, two shifts, a subtraction and a mask). p's 52-bit limbs 0–2 are
//!   products; limb 3 is zero and limb 4 is 2^46, so q·2^46 is two shifts and a
//!   mask (15 products per reduction instead of 20).
//! - A column is carried by a logical shift while a known positive excess keeps it
//!   positive (the quotient's remainder anchor, or 2^61 on the output columns).
//!
//! Two exports: `fma_permute` (one state; elements 0 and 1 in the lanes of one
//! vector, element 2 in both lanes of another) and `fma_permute2` (two states, one
//! per lane: no lane is duplicated, and the rescaling below fits whole vectors).
//! Elements enter and leave as x·2^261 mod p, any value below 2^256 (the `u29`
//! backend's form, so the package converts by regrouping bits): the products by
//! d/2 on entry and 2/d on exit turn it into the kernel's d·x·2^260 and back.
//!
//! The generated statements are also interpreted here ([`Interp`], with
//! `f64::mul_add`), which is how the tests check the generator against the
//! reference permutation natively; `js/fma-kernel.mjs` checks the module itself
//! against o1js and times it. Kimchi sets only (no initial round constants).

use std::collections::HashMap;
use std::fmt::Write as _;

use ark_ff::PrimeField;
use poseidon::{FieldArith, ParamSet, PastaField};

const LIMBS: usize = 5;
const MASK: u64 = (1 << 52) - 1;
/// Bits of 2^104, 1.5·2^52 and 2^52.
const HI: u64 = 0x4670_0000_0000_0000;
const LO: u64 = 0x4338_0000_0000_0000;
/// Bits of 2^104 − 1.5·2^52 = (2^53 − 3)·2^51.
const HI_LO: u64 = 0x466f_ffff_ffff_fffd;
const TWO52: u64 = 0x4330_0000_0000_0000;
/// Bits of −2^52.
const NEG_TWO52: u64 = 0xc330_0000_0000_0000;
/// Keeps an output column positive while it is carried (a multiple of 2^52).
const OFF: u64 = 1 << 61;
/// The kernel's region, from the `base` its functions take: constants pool,
/// tables, scratch (`fma_bytes()` in all).
const POOL: u32 = 0;
const TABLES: u32 = 2048;
/// Where the interpreter puts the state (2 vectors × 5 limbs × 2 lanes of `f64`)
/// and the region, as `js/fma-lib.mjs` does.
const STATE: u32 = 1024;
const BASE: u32 = 4096;

/// A `v128` expression.
#[derive(Clone, Debug)]
enum E {
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

fn b(e: E) -> Box<E> {
    Box::new(e)
}
fn local(n: &str) -> E {
    E::Local(n.to_string())
}

#[derive(Clone, Debug)]
enum S {
    Set(String, E),
    Store(String, u32, E),
}

/// One kernel: pointer parameters, v128 locals, statements.
struct Func {
    name: String,
    params: Vec<String>,
    locals: Vec<String>,
    body: Vec<S>,
}

/// The statements of one stream of a kernel, with the excess of each column.
struct Stream {
    sfx: String,
    body: Vec<S>,
    locals: Vec<String>,
    /// Excess and whether the accumulator holds anything: cur, nxt, ccur, cnxt.
    ex: HashMap<&'static str, (u64, bool)>,
}

impl Stream {
    fn new(sfx: &str) -> Self {
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
    fn name(&self, n: &str) -> String {
        format!("{n}{}", self.sfx)
    }
    fn set(&mut self, n: &str, e: E) {
        let name = self.name(n);
        if !self.locals.contains(&name) {
            self.locals.push(name.clone());
        }
        self.body.push(S::Set(name, e));
    }
    fn get(&self, n: &str) -> E {
        E::Local(self.name(n))
    }
    /// acc += e (or acc = e when empty); `excess` is e's.
    fn acc(&mut self, acc: &'static str, e: E, excess: u64) {
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
    fn exact(&self, acc: &'static str) -> E {
        let (x, full) = self.ex[acc];
        if full {
            E::ISub(b(self.get(acc)), b(E::Const(x)))
        } else {
            E::Const(0)
        }
    }
    /// hi = fma(a, b, 2^104) = 2^104 + k·2^52 into local `hi`, its bits added to `nx`.
    fn high(&mut self, a: &E, bb: &E, nx: &'static str) {
        let hi = E::Madd(b(a.clone()), b(bb.clone()), b(E::Const(HI)));
        self.set("hi", hi);
        self.acc(nx, self.get("hi"), HI);
    }
    /// a·b into (lo → `cu`, hi → `nx`): hi = fma(a, b, 2^104) = 2^104 + k·2^52,
    /// then fnma(a, b, hi − (2^104 − 1.5·2^52)) = 1.5·2^52 − (a·b − k·2^52), exact
    /// and in [2^52, 2^53], whose bits are subtracted from `cu` (one subtraction
    /// fewer than [`Stream::mac_anchored`]).
    fn mac(&mut self, a: &E, bb: &E, cu: &'static str, nx: &'static str) {
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
    /// a·b as [`Stream::mac`], but the low half's bits added with the excess 1.5·2^52
    /// (`lo` = 1.5·2^52 + (a·b − k·2^52)): where the column must stay positive for
    /// its carry (a shift), as after the Montgomery quotient's product.
    fn mac_anchored(&mut self, a: &E, bb: &E, cu: &'static str, nx: &'static str) {
        self.high(a, bb, nx);
        let h = E::FSub(b(self.get("hi")), b(E::Const(HI)));
        let nlo = E::Nmadd(b(a.clone()), b(bb.clone()), b(h));
        self.acc(cu, E::FSub(b(E::Const(LO)), b(nlo)), LO);
    }
    /// `from` → `to` (empty `from` empties `to`).
    fn shift(&mut self, to: &'static str, from: &'static str) {
        let (x, full) = self.ex[from];
        if full {
            self.set(to, self.get(from));
        }
        self.ex.insert(to, (x, full));
        self.ex.insert(from, (0, false));
    }
}

/// An integer below 2^52 (lanes) as `f64`.
fn to_float(e: E) -> E {
    E::FSub(
        b(E::Or(b(e), b(E::Const(TWO52)))),
        b(E::Const(f64::to_bits(4503599627370496.0))),
    )
}

/// Operand pairs of products.
type Pairs = Vec<(E, E)>;
/// Limb l of operand n.
type Operand<'a> = &'a dyn Fn(usize, usize) -> E;
/// Column c's terms: cross products (doubled) and plain products.
type Terms = dyn Fn(usize, Operand) -> (Pairs, Pairs);

/// A kernel's shape: `nin` pointer operands per stream (the first `shared` common
/// to all streams), `streams` interleaved streams, `add_k` for the linear layer's
/// round constants, and its column terms.
struct Spec<'a> {
    name: &'a str,
    nin: usize,
    shared: usize,
    streams: usize,
    add_k: bool,
    /// A shared operand (`pl`, `f64` limbs) added to the output columns as is: a
    /// matrix entry 1 of the rescaled linear layer.
    place: bool,
    terms: &'a Terms,
}

/// A kernel of `streams` interleaved streams: operands `nin` pointers each (the
/// first `shared` common to all streams), column terms from `terms`, the
/// reduction, and the output limbs stored as `f64` at `o` (plus `k`'s integer
/// limbs when `add_k`).
fn kernel(spec: &Spec, p52: &[u64; LIMBS], u: u64) -> Func {
    let Spec {
        name,
        nin,
        shared,
        streams,
        add_k,
        place,
        terms,
    } = *spec;
    let mut params = vec!["base".to_string()];
    params.extend((0..shared).map(|n| format!("p{n}")));
    if place {
        params.push("pl".to_string());
    }
    for s in 0..streams {
        params.extend((shared..nin).map(|n| format!("p{n}_{s}")));
    }
    for s in 0..streams {
        if add_k {
            params.push(format!("k_{s}"));
        }
    }
    params.extend((0..streams).map(|s| format!("o_{s}")));
    let mut head = Stream::new("");
    for n in 0..shared {
        for l in 0..LIMBS {
            head.set(
                &format!("x{n}_{l}"),
                E::Load(format!("p{n}"), 16 * l as u32),
            );
        }
    }
    let mut bodies = Vec::new();
    let mut locals = head.locals.clone();
    for s in 0..streams {
        let mut st = Stream::new(&format!("_{s}"));
        for n in shared..nin {
            for l in 0..LIMBS {
                st.set(
                    &format!("x{n}_{l}"),
                    E::Load(format!("p{n}_{s}"), 16 * l as u32),
                );
            }
        }
        let sfx = st.sfx.clone();
        let x = |n: usize, l: usize| -> E {
            if n < shared {
                local(&format!("x{n}_{l}"))
            } else {
                local(&format!("x{n}_{l}{sfx}"))
            }
        };
        for c in 0..2 * LIMBS {
            let (cross, plain) = terms(c, &x);
            for (a, bb) in &cross {
                st.mac(a, bb, "ccur", "cnxt");
            }
            if st.ex["ccur"].1 {
                let doubled = E::Shl(b(st.exact("ccur")), 1);
                st.acc("cur", doubled, 0);
            }
            st.shift("ccur", "cnxt");
            for (a, bb) in &plain {
                st.mac(a, bb, "cur", "nxt");
            }
            // Earlier quotients times p's limbs 1 and 2 (limb 3 is zero).
            for j in [1, 2] {
                if j <= c && c - j < LIMBS {
                    let q = st.get(&format!("q{}", c - j));
                    st.mac(&q, &E::Const(f64::to_bits(p52[j] as f64)), "cur", "nxt");
                }
            }
            if (4..LIMBS + 4).contains(&c) {
                // p's top limb is 2^s: q·2^s is (q mod 2^(52−s))·2^s here and
                // q >> (52 − s) in the next column, two shifts and a mask instead
                // of a product's six operations.
                let s = p52[4].trailing_zeros();
                let qi = st.get(&format!("qi{}", c - 4));
                let low = E::And(b(E::Shl(b(qi.clone()), s)), b(E::Const(MASK)));
                st.acc("cur", low, 0);
                st.acc("nxt", E::ShrU(b(qi), 52 - s), 0);
            }
            if c < LIMBS {
                let t = st.exact("cur");
                st.set("t", t);
                let q = E::And(
                    b(E::ISub(
                        b(E::ShrU(
                            b(E::Shl(b(E::Mul32(b(st.get("t")), b(E::Const(u)))), 44)),
                            12,
                        )),
                        b(st.get("t")),
                    )),
                    b(E::Const(MASK)),
                );
                st.set(&format!("qi{c}"), q);
                st.set(&format!("q{c}"), to_float(st.get(&format!("qi{c}"))));
                st.set("cur", st.get("t"));
                st.ex.insert("cur", (0, true));
                let q = st.get(&format!("q{c}"));
                st.mac_anchored(&q, &E::Const(f64::to_bits(p52[0] as f64)), "cur", "nxt");
                // A multiple of 2^52 plus LO, positive: the shift carries its
                // value / 2^52 plus LO >> 52.
                st.acc("nxt", E::ShrU(b(st.get("cur")), 52), LO >> 52);
            } else {
                let j = (c - LIMBS) as u32;
                let (x, _) = st.ex["cur"];
                let mut v = if st.ex["cur"].1 {
                    st.get("cur")
                } else {
                    E::Const(0)
                };
                if add_k {
                    v = E::IAdd(b(v), b(E::Load(format!("k{sfx}"), 16 * j)));
                }
                let mut x = x;
                if place {
                    // The limb's bits once 2^52 is added: TWO52 plus the limb.
                    let limb = E::FSub(b(E::Load("pl".into(), 16 * j)), b(E::Const(NEG_TWO52)));
                    v = E::IAdd(b(v), b(limb));
                    x = x.wrapping_add(TWO52);
                }
                if c < 2 * LIMBS - 1 {
                    st.set("t", E::ISub(b(v), b(E::Const(x.wrapping_sub(OFF)))));
                    let limb = to_float(E::And(b(st.get("t")), b(E::Const(MASK))));
                    st.body.push(S::Store(format!("o{sfx}"), 16 * j, limb));
                    st.acc("nxt", E::ShrU(b(st.get("t")), 52), OFF >> 52);
                } else {
                    st.set("t", E::ISub(b(v), b(E::Const(x))));
                    st.body
                        .push(S::Store(format!("o{sfx}"), 16 * j, to_float(st.get("t"))));
                }
            }
            st.shift("cur", "nxt");
        }
        locals.extend(st.locals.iter().cloned());
        bodies.push(st.body);
    }
    // The constants every column uses live in locals, read once: V8 keeps them in
    // registers or spills them, where a pooled constant is a load at every use
    // (and an inline `v128.const` is rebuilt through a general register each time).
    let mut hot: Vec<u64> = vec![
        HI,
        HI_LO,
        LO,
        MASK,
        TWO52,
        f64::to_bits(4503599627370496.0),
        u,
    ];
    hot.extend([0, 1, 2].map(|j| f64::to_bits(p52[j] as f64)));
    for (i, x) in hot.iter().enumerate() {
        head.set(&format!("c{i}"), E::Const(*x));
    }
    locals = [head.locals.clone(), locals].concat();
    for s in bodies.iter_mut() {
        for st in s.iter_mut() {
            match st {
                S::Set(_, e) | S::Store(_, _, e) => hoist(e, &hot),
            }
        }
    }
    let mut body = head.body;
    let longest = bodies.iter().map(Vec::len).max().unwrap_or(0);
    // One statement of each stream in turn (chunks of 2, 4 or 8 statements
    // measured the same under Node 24).
    for i in 0..longest {
        for s in &bodies {
            if let Some(x) = s.get(i) {
                body.push(x.clone());
            }
        }
    }
    Func {
        name: name.to_string(),
        params,
        locals,
        body,
    }
}

/// Replaces the constants of `hot` by their locals (`c{index}`).
fn hoist(e: &mut E, hot: &[u64]) {
    match e {
        E::Const(x) => {
            if let Some(i) = hot.iter().position(|h| h == x) {
                *e = local(&format!("c{i}"));
            }
        }
        E::Local(_) | E::Load(..) => {}
        E::Madd(x, y, z) | E::Nmadd(x, y, z) => {
            for v in [x, y, z] {
                hoist(v, hot);
            }
        }
        E::FSub(x, y)
        | E::IAdd(x, y)
        | E::ISub(x, y)
        | E::And(x, y)
        | E::Or(x, y)
        | E::Mul32(x, y) => {
            hoist(x, hot);
            hoist(y, hot);
        }
        E::Shl(x, _) | E::ShrU(x, _) => hoist(x, hot),
    }
}

/// The constants pool: each distinct constant once.
#[derive(Default)]
struct Pool(Vec<u64>);

impl Pool {
    fn addr(&mut self, bits: u64) -> u32 {
        let i = match self.0.iter().position(|&x| x == bits) {
            Some(i) => i,
            None => {
                self.0.push(bits);
                self.0.len() - 1
            }
        };
        POOL + 16 * i as u32
    }
}

fn wat_expr(e: &E, pool: &mut Pool, out: &mut String) {
    fn two(op: &str, x: &E, y: &E, pool: &mut Pool, out: &mut String) {
        write!(out, "({op} ").unwrap();
        wat_expr(x, pool, out);
        out.push(' ');
        wat_expr(y, pool, out);
        out.push(')');
    }
    match e {
        E::Local(n) => write!(out, "(local.get ${n})").unwrap(),
        E::Load(p, off) => write!(out, "(v128.load offset={off} (local.get ${p}))").unwrap(),
        E::Const(x) => write!(
            out,
            "(v128.load offset={} (local.get $base))",
            pool.addr(*x)
        )
        .unwrap(),
        E::FSub(x, y) => two("f64x2.sub", x, y, pool, out),
        E::IAdd(x, y) => two("i64x2.add", x, y, pool, out),
        E::ISub(x, y) => two("i64x2.sub", x, y, pool, out),
        E::And(x, y) => two("v128.and", x, y, pool, out),
        E::Or(x, y) => two("v128.or", x, y, pool, out),
        E::Mul32(x, y) => two("i32x4.mul", x, y, pool, out),
        E::Madd(x, y, z) | E::Nmadd(x, y, z) => {
            let op = if matches!(e, E::Madd(..)) {
                "f64x2.relaxed_madd"
            } else {
                "f64x2.relaxed_nmadd"
            };
            write!(out, "({op} ").unwrap();
            for (i, v) in [x, y, z].into_iter().enumerate() {
                if i > 0 {
                    out.push(' ');
                }
                wat_expr(v, pool, out);
            }
            out.push(')');
        }
        E::Shl(x, n) | E::ShrU(x, n) => {
            let op = if matches!(e, E::Shl(..)) {
                "i64x2.shl"
            } else {
                "i64x2.shr_u"
            };
            write!(out, "({op} ").unwrap();
            wat_expr(x, pool, out);
            write!(out, " (i32.const {n}))").unwrap();
        }
    }
}

fn wat_func(f: &Func, pool: &mut Pool) -> String {
    let mut s = format!("  (func ${}", f.name);
    for p in &f.params {
        write!(s, " (param ${p} i32)").unwrap();
    }
    s.push('\n');
    let mut seen = Vec::new();
    for l in &f.locals {
        if !seen.contains(l) {
            writeln!(s, "    (local ${l} v128)").unwrap();
            seen.push(l.clone());
        }
    }
    for st in &f.body {
        s.push_str("    ");
        match st {
            S::Set(n, e) => {
                write!(s, "(local.set ${n} ").unwrap();
                wat_expr(e, pool, &mut s);
            }
            S::Store(p, off, e) => {
                write!(s, "(v128.store offset={off} (local.get ${p}) ").unwrap();
                wat_expr(e, pool, &mut s);
            }
        }
        s.push_str(")\n");
    }
    s.push_str("  )\n");
    s
}

/// What the generator needs of a field: p, and the kimchi constants in Montgomery
/// form (R = 2^260) as 52-bit limbs.
struct Consts {
    p52: [u64; LIMBS],
    u: u64,
    /// mds[i][j] (rescaled where `d` is set: column 0 is then all 1).
    mds: [[[u64; LIMBS]; 3]; 3],
    /// rc[r][i] (rescaled: d_i·k_i).
    rc: Vec<[[u64; LIMBS]; 3]>,
    /// Whether the linear layer is rescaled (column 0 all ones).
    rescaled: bool,
    /// The factors the state is multiplied by on entry and exit: d/2 and 2/d (d = 1
    /// where there is no rescaling). A Montgomery product by them turns x·2^261 (the
    /// `u29` form the kernel takes and gives) into d·x·2^260 and back.
    scale: [[[u64; LIMBS]; 3]; 2],
}

/// Kimchi Fp's rescaling: a sixth root d_0 of M_00, with d_i = d_0^7/M_i0, makes
/// column 0 of M'_ij = d_i·M_ij·d_j^−7 all ones, in both lanes of both output
/// vectors; so that column is an addition, not a product. (Found by
/// `nthroot_mod(M_00, 6, p)` in sympy; the tests check the property. For kimchi Fq
/// no entry 2^(−52m) with m = 0..5 in one column has the root.)
const FP_D0: &str = "2793491442372001099662827327758548691091044710343976342610009297827824094720";

fn limbs52(x: &[u64]) -> [u64; LIMBS] {
    core::array::from_fn(|l| {
        let bit = 52 * l;
        let (w, s) = (bit / 64, bit % 64);
        let lo = x.get(w).copied().unwrap_or(0) >> s;
        let hi = if s > 12 {
            x.get(w + 1).copied().unwrap_or(0) << (64 - s)
        } else {
            0
        };
        (lo | hi) & MASK
    })
}

/// The rescaling from d_0 (see [`FP_D0`]) and the rescaled matrix.
fn rescaling<F: PrimeField>(mds: &[[F; 3]; 3], d0: F) -> ([F; 3], [[F; 3]; 3]) {
    let d: [F; 3] =
        core::array::from_fn(|i| d0.pow([7u64]) * mds[i][0].inverse().expect("nonzero"));
    let m = core::array::from_fn(|i| {
        core::array::from_fn(|j| d[i] * mds[i][j] * d[j].pow([7u64]).inverse().expect("nonzero"))
    });
    (d, m)
}

fn consts<F: PastaField + FieldArith>(d0: Option<&str>) -> Consts {
    let params = <F as FieldArith>::params(ParamSet::Kimchi);
    assert!(!ParamSet::Kimchi.initial_ark());
    let r = F::from(2u64).pow([260u64]);
    let m = |x: &F| limbs52((*x * r).into_bigint().as_ref());
    let (d, mds) = match d0 {
        Some(s) => {
            let d0: F = s.parse().ok().expect("a decimal element");
            let (d, mds) = rescaling(&params.mds, d0);
            assert!(mds.iter().all(|row| row[0] == F::ONE), "column 0 all ones");
            (Some(d), mds)
        }
        None => (None, params.mds),
    };
    let scale = |k: &[F; 3]| -> [F; 3] {
        match d {
            Some(d) => core::array::from_fn(|i| d[i] * k[i]),
            None => *k,
        }
    };
    let p52 = limbs52(F::MODULUS.as_ref());
    assert!(
        p52[0] & 0xffff_ffff == 1 && p52[3] == 0 && p52[4].is_power_of_two(),
        "a Pasta-shaped prime"
    );
    Consts {
        p52,
        u: (p52[0] >> 32) & ((1 << 20) - 1),
        mds: mds.map(|row| row.map(|x| m(&x))),
        rc: params
            .round_constants
            .iter()
            .map(|row| scale(row).map(|x| m(&x)))
            .collect(),
        rescaled: d.is_some(),
        scale: {
            let d = d.unwrap_or([F::ONE; 3]);
            let two = F::from(2u64);
            let half = two.inverse().expect("p is odd");
            [
                d.map(|x| m(&(x * half))),
                d.map(|x| m(&(x.inverse().expect("nonzero") * two))),
            ]
        },
    }
}

/// Which field's kimchi permutation to generate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Which {
    /// Pallas' base field (o1js's `Field`).
    Fp,
    /// Vesta's base field.
    Fq,
}

/// The generated module: kernels, driver, tables, and what the interpreter needs.
pub struct Module {
    /// The module as Wasm text.
    pub wat: String,
    kernels: HashMap<String, Func>,
    pool: Vec<u64>,
    tables: Vec<u8>,
    rounds: usize,
    scratch: u32,
    plans: [Plan; 2],
}

/// One vector's bytes: five limbs, two `f64` lanes each.
const V: u32 = 80;

fn sq_terms(c: usize, x: Operand) -> (Pairs, Pairs) {
    let cross = (0..LIMBS)
        .filter(|&i| c >= i && i < c - i && c - i < LIMBS)
        .map(|i| (x(0, i), x(0, c - i)))
        .collect();
    let plain = if c.is_multiple_of(2) && c / 2 < LIMBS {
        vec![(x(0, c / 2), x(0, c / 2))]
    } else {
        vec![]
    };
    (cross, plain)
}

fn mul_terms(c: usize, x: Operand) -> (Pairs, Pairs) {
    let plain = (0..LIMBS)
        .filter(|&i| c >= i && c - i < LIMBS)
        .map(|i| (x(0, i), x(1, c - i)))
        .collect();
    (vec![], plain)
}

/// The linear layer: operands 0..N are the S-box outputs broadcast (shared),
/// N..2N the matrix columns; N = 3, or 2 when rescaled (x_0 is then placed,
/// `Spec::place`, and the operands are x_1, x_2 and columns 1, 2).
fn mds_terms<const N: usize>(c: usize, x: Operand) -> (Pairs, Pairs) {
    let mut plain = Vec::new();
    for j in 0..N {
        for i in 0..LIMBS {
            if c >= i && c - i < LIMBS {
                plain.push((x(N + j, i), x(j, c - i)));
            }
        }
    }
    (vec![], plain)
}

/// Where the module's memory comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Memory {
    /// Its own, exported as `memory` (for `js/fma-kernel.mjs`).
    Own,
    /// Imported as `env.memory`: to be merged into the package's module (binaryen's
    /// `wasm-merge`, the Rust module named `env`), which then allocates the region.
    Imported,
}

/// Generates the module for `which`'s kimchi permutation. Its exports:
/// `fma_bytes() -> i32` (the region's size), `fma_init(base)` (writes the
/// constants into the region at `base`, 16-byte aligned), `fma_permute(base, st)`
/// (the state's 160 bytes at `st`, see [`state_in`]), `fma_permute2(base, st)` (two
/// states, 240 bytes, see [`pair_in`]) and `fma_fused(2^52 − 1) ->
/// i32` (1 when this engine's `relaxed_madd` is fused; without it the results are
/// wrong).
pub fn generate(which: Which, memory: Memory) -> Module {
    let k = match which {
        Which::Fp => consts::<poseidon::Fp>(Some(FP_D0)),
        Which::Fq => consts::<poseidon::Fq>(None),
    };
    let rescaled = k.rescaled;
    let plain = |name, nin, streams, terms: &'static Terms| Spec {
        name,
        nin,
        shared: 0,
        streams,
        add_k: false,
        place: false,
        terms,
    };
    // The linear layer: the S-box outputs are the operands common to all streams
    // (broadcast elements in the single permutation, whole vectors in the pair's);
    // each stream has its own matrix entries and round constants.
    let mds = |name, streams| {
        if rescaled {
            Spec {
                name,
                nin: 4,
                shared: 2,
                streams,
                add_k: true,
                place: true,
                terms: &mds_terms::<2>,
            }
        } else {
            Spec {
                name,
                nin: 6,
                shared: 3,
                streams,
                add_k: true,
                place: false,
                terms: &mds_terms::<3>,
            }
        }
    };
    // Two streams for the single permutation's two vectors, three for the pair's.
    let specs = [
        plain("fma_sq", 1, 2, &sq_terms),
        plain("fma_mul", 2, 2, &mul_terms),
        mds("fma_mds", 2),
        plain("fma_sq3", 1, 3, &sq_terms),
        plain("fma_mul3", 2, 3, &mul_terms),
        mds("fma_mds3", 3),
    ];
    let funcs = specs.iter().map(|s| kernel(s, &k.p52, k.u));
    // Tables: the matrix columns as f64 pairs ([rows 0, 1] and [row 2, row 2];
    // rescaled, columns 1 and 2 only), D and D⁻¹ in the same layout if rescaled,
    // then per round the constants as integer pairs in that layout.
    let mut tables = Vec::new();
    let lanes = [[0usize, 1], [2, 2]];
    // One vector: limb l of element rows[lane] at 16·l + 8·lane, as f64 or integer.
    let push =
        |tables: &mut Vec<u8>, rows: [usize; 2], float: bool, x: &dyn Fn(usize, usize) -> u64| {
            for l in 0..LIMBS {
                for i in rows {
                    let bits = if float {
                        (x(i, l) as f64).to_bits()
                    } else {
                        x(i, l)
                    };
                    tables.extend_from_slice(&bits.to_le_bytes());
                }
            }
        };
    let first = usize::from(rescaled);
    for rows in lanes {
        for j in first..3 {
            push(&mut tables, rows, true, &|i, l| k.mds[i][j][l]);
        }
    }
    let scale = TABLES + tables.len() as u32;
    for x in k.scale {
        for rows in lanes {
            push(&mut tables, rows, true, &|i, l| x[i][l]);
        }
    }
    let rc_at = TABLES + tables.len() as u32;
    for row in &k.rc {
        for rows in lanes {
            push(&mut tables, rows, false, &|i, l| row[i][l]);
        }
    }
    // The pair's tables: every entry in both lanes (row i's entries, columns
    // `first..3`, one vector each), D and D⁻¹ the same way, then per round the
    // three constants.
    let cols3 = TABLES + tables.len() as u32;
    for i in 0..3 {
        for j in first..3 {
            push(&mut tables, [i, i], true, &|i, l| k.mds[i][j][l]);
        }
    }
    let scale3 = TABLES + tables.len() as u32;
    for x in k.scale {
        for i in 0..3 {
            push(&mut tables, [i, i], true, &|i, l| x[i][l]);
        }
    }
    let rc3 = TABLES + tables.len() as u32;
    for row in &k.rc {
        for i in 0..3 {
            push(&mut tables, [i, i], false, &|i, l| row[i][l]);
        }
    }
    assert!(tables.len() % 16 == 0);
    let layout = Layout {
        rescaled,
        rc: rc_at,
        scale,
        cols3,
        scale3,
        rc3,
        scratch: (TABLES + tables.len() as u32 + 255) & !15,
    };
    let scratch = layout.scratch;
    let mut pool = Pool::default();
    let mut wat = String::from("(module\n");
    wat.push_str(match memory {
        Memory::Own => "  (memory (export \"memory\") 4)\n",
        Memory::Imported => "  (import \"env\" \"memory\" (memory 1))\n",
    });
    let mut kernels = HashMap::new();
    let mut text = String::new();
    for f in funcs {
        text.push_str(&wat_func(&f, &mut pool));
        kernels.insert(f.name.clone(), f);
    }
    assert!(
        POOL + 16 * pool.0.len() as u32 <= TABLES,
        "constants pool too large"
    );
    wat.push_str(&text);
    let plans = [single_plan(&layout), pair_plan(&layout)];
    for p in &plans {
        wat.push_str(&driver_wat(p, scratch, k.rc.len()));
    }
    // fma_init copies one passive data segment: the pool (each constant in both
    // lanes), zeros up to TABLES, then the tables. 16 bytes per constant, where a
    // `v128.store` of a `v128.const` took about 25 bytes of code.
    let mut image = vec![0u8; TABLES as usize + tables.len()];
    for (i, x) in pool.0.iter().enumerate() {
        let at = (POOL + 16 * i as u32) as usize;
        image[at..at + 8].copy_from_slice(&x.to_le_bytes());
        image[at + 8..at + 16].copy_from_slice(&x.to_le_bytes());
    }
    image[TABLES as usize..].copy_from_slice(&tables);
    wat.push_str("  (data $consts \"");
    for b in &image {
        write!(wat, "\\{b:02x}").unwrap();
    }
    wat.push_str("\")\n");
    writeln!(
        wat,
        "  (func (export \"fma_init\") (param $base i32)\n    \
         (memory.init $consts (local.get $base) (i32.const 0) (i32.const {})))",
        image.len()
    )
    .unwrap();
    writeln!(
        wat,
        "  (func (export \"fma_bytes\") (result i32) (i32.const {}))",
        scratch + SCRATCH_VECTORS * V
    )
    .unwrap();
    wat.push_str(&fused_wat());
    wat.push_str(")\n");
    Module {
        wat,
        kernels,
        pool: pool.0,
        tables,
        rounds: k.rc.len(),
        scratch,
        plans,
    }
}

/// Where the tables and the scratch lie in the region: the single permutation's
/// round constants and (rescaled) D, D⁻¹ in its layout, and the pair's matrix
/// entries, D, D⁻¹ and round constants in its own.
#[derive(Clone, Copy, Debug)]
struct Layout {
    rescaled: bool,
    rc: u32,
    scale: u32,
    cols3: u32,
    scale3: u32,
    rc3: u32,
    scratch: u32,
}

/// A kernel argument: a region offset, or the round's constants `off` bytes past
/// the start of round r's (`rc + stride·r + off`).
#[derive(Clone, Copy, Debug)]
enum Arg {
    At(u32),
    Rc(u32),
}

/// A step of an export's driver.
#[derive(Clone, Debug)]
enum Step {
    Call(&'static str, Vec<Arg>),
    /// Lane `lane` of each limb of the vector at `from` into both lanes at `to`.
    Broadcast {
        from: u32,
        lane: u32,
        to: u32,
    },
}

/// An export `name(base, st)`: the state's `vectors` vectors copied from `st`
/// into scratch, `pre`, the rounds, `post`, and copied back.
#[derive(Clone, Debug)]
struct Plan {
    name: &'static str,
    vectors: u32,
    rc: u32,
    stride: u32,
    pre: Vec<Step>,
    round: Vec<Step>,
    post: Vec<Step>,
}

/// Scratch vectors: the pair's state, x², x⁴, x⁶, x⁷ (three each); the single
/// permutation uses the first twelve (two each, then the broadcast operands).
const SCRATCH_VECTORS: u32 = 15;

/// `fma_permute`: one permutation, elements 0 and 1 in the first vector's lanes,
/// element 2 in both lanes of the second.
fn single_plan(l: &Layout) -> Plan {
    let s = |i: u32| Arg::At(l.scratch + V * i);
    let cols = |i: u32| Arg::At(TABLES + V * i);
    // The linear layer's operands: the S-box outputs broadcast (rescaled: x_1, x_2,
    // and x_0 placed, its column being all ones; else x_0, x_1, x_2), each output
    // vector's matrix columns, the round constants, the outputs.
    let (mut mds, columns) = if l.rescaled {
        (vec![s(11), s(9), s(10)], 4)
    } else {
        (vec![s(10), s(11), s(9)], 6)
    };
    mds.extend((0..columns).map(cols));
    mds.extend([Arg::Rc(0), Arg::Rc(V), s(0), s(1)]);
    let at = |i: u32| l.scratch + V * i;
    let scale = |inverse: bool| {
        let d = l.scale + if inverse { 2 * V } else { 0 };
        Step::Call(
            "fma_mul",
            vec![s(0), Arg::At(d), s(1), Arg::At(d + V), s(0), s(1)],
        )
    };
    Plan {
        name: "fma_permute",
        vectors: 2,
        rc: l.rc,
        stride: 2 * V,
        pre: vec![scale(false)],
        round: vec![
            Step::Call("fma_sq", vec![s(0), s(1), s(2), s(3)]),
            Step::Call("fma_sq", vec![s(2), s(3), s(4), s(5)]),
            Step::Call("fma_mul", vec![s(4), s(2), s(5), s(3), s(6), s(7)]),
            Step::Call("fma_mul", vec![s(6), s(0), s(7), s(1), s(8), s(9)]),
            // Lanes 0 and 1 of x⁷'s first vector, each into both lanes.
            Step::Broadcast {
                from: at(8),
                lane: 0,
                to: at(10),
            },
            Step::Broadcast {
                from: at(8),
                lane: 1,
                to: at(11),
            },
            Step::Call("fma_mds", mds),
        ],
        post: vec![scale(true)],
    }
}

/// `fma_permute2`: two permutations, one per lane; vector e holds element e of
/// both. Every kernel runs the three vectors as its three streams.
fn pair_plan(l: &Layout) -> Plan {
    let s = |i: u32| Arg::At(l.scratch + V * i);
    let width = 3 - u32::from(l.rescaled);
    let entry = |i: u32, j: u32| Arg::At(l.cols3 + V * (width * i + j));
    let each = |name, f: &dyn Fn(u32) -> Vec<Arg>, out: u32| {
        let mut args: Vec<Arg> = (0..3).flat_map(f).collect();
        args.extend((0..3).map(|i| s(out + i)));
        Step::Call(name, args)
    };
    let mut mds = match l.rescaled {
        // x_0 placed, x_1 and x_2 times row i's entries.
        true => vec![s(13), s(14), s(12)],
        false => vec![s(12), s(13), s(14)],
    };
    for i in 0..3 {
        mds.extend((0..width).map(|j| entry(i, j)));
    }
    mds.extend((0..3).map(|i| Arg::Rc(V * i)));
    mds.extend((0..3).map(s));
    let scale = |inverse: bool| {
        let d = l.scale3 + if inverse { 3 * V } else { 0 };
        each("fma_mul3", &|i| vec![s(i), Arg::At(d + V * i)], 0)
    };
    Plan {
        name: "fma_permute2",
        vectors: 3,
        rc: l.rc3,
        stride: 3 * V,
        pre: vec![scale(false)],
        round: vec![
            each("fma_sq3", &|i| vec![s(i)], 3),
            each("fma_sq3", &|i| vec![s(3 + i)], 6),
            each("fma_mul3", &|i| vec![s(6 + i), s(3 + i)], 9),
            each("fma_mul3", &|i| vec![s(9 + i), s(i)], 12),
            Step::Call("fma_mds3", mds),
        ],
        post: vec![scale(true)],
    }
}

fn driver_wat(p: &Plan, scratch: u32, rounds: usize) -> String {
    let at = |off: u32| format!("(i32.add (local.get $base) (i32.const {off}))");
    let step = |w: &mut String, st: &Step| match st {
        Step::Call(name, args) => {
            write!(w, "    (call ${name} (local.get $base)").unwrap();
            for a in args {
                match a {
                    Arg::At(x) => write!(w, " {}", at(*x)).unwrap(),
                    Arg::Rc(off) => write!(
                        w,
                        " (i32.add {} (i32.mul (local.get $r) (i32.const {})))",
                        at(p.rc + off),
                        p.stride
                    )
                    .unwrap(),
                }
            }
            w.push_str(")\n");
        }
        Step::Broadcast { from, lane, to } => {
            let idx: Vec<String> = (0..16).map(|i| (8 * lane + i % 8).to_string()).collect();
            for limb in 0..LIMBS as u32 {
                let from = at(from + 16 * limb);
                writeln!(
                    w,
                    "    (v128.store {} (i8x16.shuffle {} (v128.load {from}) (v128.load {from})))",
                    at(to + 16 * limb),
                    idx.join(" ")
                )
                .unwrap();
            }
        }
    };
    let bytes = p.vectors * V;
    let mut w = format!(
        "  (func (export \"{}\") (param $base i32) (param $st i32) (local $r i32)\n",
        p.name
    );
    writeln!(
        w,
        "    (memory.copy {} (local.get $st) (i32.const {bytes}))",
        at(scratch)
    )
    .unwrap();
    for st in &p.pre {
        step(&mut w, st);
    }
    w.push_str("    (loop $round\n");
    for st in &p.round {
        step(&mut w, st);
    }
    writeln!(
        w,
        "    (local.set $r (i32.add (local.get $r) (i32.const 1)))"
    )
    .unwrap();
    writeln!(
        w,
        "    (br_if $round (i32.lt_u (local.get $r) (i32.const {rounds}))))"
    )
    .unwrap();
    for st in &p.post {
        step(&mut w, st);
    }
    writeln!(
        w,
        "    (memory.copy (local.get $st) {} (i32.const {bytes})))",
        at(scratch)
    )
    .unwrap();
    w
}

/// `fma_fused(a)`: 1 when the split of a² for a = 2^52 − 1 keeps its remainder
/// (−1), which an unfused multiply-add loses (it rounds a² first, to 2^104 − 2^53).
/// The operand is a parameter, so no compiler can fold the operations.
fn fused_wat() -> String {
    let (a, two104) = (MASK as f64, f64::from_bits(HI));
    let hi = a.mul_add(a, two104);
    let nlo = (-a).mul_add(a, hi - two104);
    assert_eq!(nlo, -1.0, "the host's mul_add is fused");
    let c = |x: f64| format!("(v128.const f64x2 {x:?} {x:?})");
    format!(
        "  (func (export \"fma_fused\") (param $a f64) (result i32) (local $v v128)\n    (local.set $v (f64x2.splat (local.get $a)))\n    (f64.eq (f64x2.extract_lane 0 (f64x2.relaxed_nmadd (local.get $v) (local.get $v) (f64x2.sub (f64x2.relaxed_madd (local.get $v) (local.get $v) {h}) {h}))) (f64.const -1)))\n",
        h = c(two104)
    )
}

/// Runs the generated statements natively: `v128` as two `u64` lanes, the fused
/// operations by `f64::mul_add` (correctly rounded, as a fused FMA is).
pub struct Interp<'m> {
    m: &'m Module,
    mem: Vec<u8>,
}

impl<'m> Interp<'m> {
    /// A fresh memory with `m`'s constants and tables, as the module starts.
    pub fn new(m: &'m Module) -> Self {
        let mut mem = vec![0u8; 4 * 65536];
        for (i, x) in m.pool.iter().enumerate() {
            let at = (BASE + POOL + 16 * i as u32) as usize;
            mem[at..at + 8].copy_from_slice(&x.to_le_bytes());
            mem[at + 8..at + 16].copy_from_slice(&x.to_le_bytes());
        }
        let at = (BASE + TABLES) as usize;
        mem[at..at + m.tables.len()].copy_from_slice(&m.tables);
        Interp { m, mem }
    }

    fn load(&self, at: u32) -> [u64; 2] {
        let at = at as usize;
        let w = |i: usize| u64::from_le_bytes(self.mem[i..i + 8].try_into().expect("8 bytes"));
        [w(at), w(at + 8)]
    }

    fn store(&mut self, at: u32, v: [u64; 2]) {
        let at = at as usize;
        self.mem[at..at + 8].copy_from_slice(&v[0].to_le_bytes());
        self.mem[at + 8..at + 16].copy_from_slice(&v[1].to_le_bytes());
    }

    fn eval(&self, e: &E, env: &HashMap<&str, [u64; 2]>, args: &HashMap<&str, u32>) -> [u64; 2] {
        let ev = |x: &E| self.eval(x, env, args);
        let lanes2 = |x: &E, y: &E, f: &dyn Fn(u64, u64) -> u64| {
            let (a, c) = (ev(x), ev(y));
            [f(a[0], c[0]), f(a[1], c[1])]
        };
        let fl = f64::from_bits;
        match e {
            E::Local(n) => env[n.as_str()],
            E::Load(p, off) => self.load(args[p.as_str()] + off),
            E::Const(x) => [*x; 2],
            E::Madd(x, y, z) | E::Nmadd(x, y, z) => {
                let (a, c, d) = (ev(x), ev(y), ev(z));
                let neg = matches!(e, E::Nmadd(..));
                core::array::from_fn(|i| {
                    let a = if neg { -fl(a[i]) } else { fl(a[i]) };
                    a.mul_add(fl(c[i]), fl(d[i])).to_bits()
                })
            }
            E::FSub(x, y) => lanes2(x, y, &|a, c| (fl(a) - fl(c)).to_bits()),
            E::IAdd(x, y) => lanes2(x, y, &u64::wrapping_add),
            E::ISub(x, y) => lanes2(x, y, &u64::wrapping_sub),
            E::And(x, y) => lanes2(x, y, &|a, c| a & c),
            E::Or(x, y) => lanes2(x, y, &|a, c| a | c),
            E::Mul32(x, y) => lanes2(x, y, &|a, c| {
                let lo = (a as u32).wrapping_mul(c as u32) as u64;
                let hi = ((a >> 32) as u32).wrapping_mul((c >> 32) as u32) as u64;
                lo | hi << 32
            }),
            E::Shl(x, n) => ev(x).map(|a| a << n),
            E::ShrU(x, n) => ev(x).map(|a| a >> n),
        }
    }

    /// Kernel `name` with the region at [`BASE`] and pointer arguments `ptrs`.
    fn call(&mut self, name: &str, ptrs: &[u32]) {
        let f = &self.m.kernels[name];
        let args: HashMap<&str, u32> = f
            .params
            .iter()
            .map(String::as_str)
            .zip(std::iter::once(BASE).chain(ptrs.iter().copied()))
            .collect();
        let mut env: HashMap<&str, [u64; 2]> = HashMap::new();
        for st in &f.body {
            match st {
                S::Set(n, e) => {
                    let v = self.eval(e, &env, &args);
                    env.insert(n.as_str(), v);
                }
                S::Store(p, off, e) => {
                    let v = self.eval(e, &env, &args);
                    self.store(args[p.as_str()] + off, v);
                }
            }
        }
    }

    /// Plan `p` as its export runs it, on the state at [`STATE`] and the region
    /// at [`BASE`].
    fn run(&mut self, p: usize) {
        let plan = self.m.plans[p].clone();
        let scratch = BASE + self.m.scratch;
        let bytes = (plan.vectors * V) as usize;
        let copy = |mem: &mut Vec<u8>, to: u32, from: u32| {
            let chunk = mem[from as usize..from as usize + bytes].to_vec();
            mem[to as usize..to as usize + bytes].copy_from_slice(&chunk);
        };
        copy(&mut self.mem, scratch, STATE);
        let step = |it: &mut Self, st: &Step, r: u32| match st {
            Step::Call(name, args) => {
                let ptrs: Vec<u32> = args
                    .iter()
                    .map(|a| match a {
                        Arg::At(x) => BASE + x,
                        Arg::Rc(off) => BASE + plan.rc + plan.stride * r + off,
                    })
                    .collect();
                it.call(name, &ptrs);
            }
            Step::Broadcast { from, lane, to } => {
                for l in 0..LIMBS as u32 {
                    let x = it.load(BASE + from + 16 * l);
                    it.store(BASE + to + 16 * l, [x[*lane as usize]; 2]);
                }
            }
        };
        for st in &plan.pre {
            step(self, st, 0);
        }
        for r in 0..self.m.rounds as u32 {
            for st in &plan.round {
                step(self, st, r);
            }
        }
        for st in &plan.post {
            step(self, st, 0);
        }
        copy(&mut self.mem, STATE, scratch);
    }

    /// The module's `fma_permute` export (one state, see [`state_in`]).
    pub fn permute(&mut self) {
        self.run(0);
    }

    /// The module's `fma_permute2` export (two states, see [`pair_in`]).
    pub fn permute2(&mut self) {
        self.run(1);
    }
}

/// Vectors of limbs from elements: vector v's lanes hold `slots[v]`, indices
/// into `xs` (limb l of vector v at index 5·v + l), as x·2^261 mod p in 52-bit
/// limbs held as `f64`.
fn limbs_in<F: PrimeField>(xs: &[F], slots: &[[usize; 2]]) -> Vec<[u64; 2]> {
    let r = F::from(2u64).pow([261u64]);
    let l: Vec<[u64; LIMBS]> = xs
        .iter()
        .map(|x| limbs52((*x * r).into_bigint().as_ref()))
        .collect();
    slots
        .iter()
        .flat_map(|&[a, c]| {
            let l = &l;
            (0..LIMBS).map(move |i| [(l[a][i] as f64).to_bits(), (l[c][i] as f64).to_bits()])
        })
        .collect()
}

/// The element in lane `lane` of vector `vec` (x·2^261 with normalized limbs,
/// not necessarily below p).
fn limbs_out<F: PrimeField>(v: &[[u64; 2]], vec: usize, lane: usize) -> F {
    let r_inv = F::from(2u64)
        .pow([261u64])
        .inverse()
        .expect("2 is invertible");
    let base = F::from(2u64).pow([52u64]);
    (0..LIMBS).rev().fold(F::ZERO, |acc, l| {
        let x = f64::from_bits(v[vec * LIMBS + l][lane]);
        assert!(
            (0.0..4503599627370496.0).contains(&x) && x.fract() == 0.0,
            "limb {x}"
        );
        acc * base + F::from(x as u64)
    }) * r_inv
}

/// `fma_permute`'s state of `state`: elements 0 and 1 in the lanes of the first
/// vector, element 2 in both lanes of the second.
pub fn state_in<F: PrimeField>(state: &[F; 3]) -> Vec<[u64; 2]> {
    limbs_in(state, &[[0, 1], [2, 2]])
}

/// The state back from `fma_permute`'s limbs.
pub fn state_out<F: PrimeField>(v: &[[u64; 2]]) -> [F; 3] {
    [limbs_out(v, 0, 0), limbs_out(v, 0, 1), limbs_out(v, 1, 0)]
}

/// `fma_permute2`'s state of two states: element e of state k in lane k of
/// vector e.
pub fn pair_in<F: PrimeField>(states: &[[F; 3]; 2]) -> Vec<[u64; 2]> {
    limbs_in(states.as_flattened(), &[[0, 3], [1, 4], [2, 5]])
}

/// The two states back from `fma_permute2`'s limbs.
pub fn pair_out<F: PrimeField>(v: &[[u64; 2]]) -> [[F; 3]; 2] {
    core::array::from_fn(|k| core::array::from_fn(|e| limbs_out(v, e, k)))
}

impl Interp<'_> {
    /// Writes state limbs (see [`state_in`], [`pair_in`]) where the exports read them.
    pub fn set_state(&mut self, s: &[[u64; 2]]) {
        for (i, v) in s.iter().enumerate() {
            self.store(STATE + 16 * i as u32, *v);
        }
    }
    /// The first `vectors` vectors of state limbs (2 after [`Interp::permute`],
    /// 3 after [`Interp::permute2`]).
    pub fn state(&self, vectors: usize) -> Vec<[u64; 2]> {
        (0..vectors * LIMBS)
            .map(|i| self.load(STATE + 16 * i as u32))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use poseidon::backend::Reference;
    use poseidon::{Fp, Fq};

    use super::*;

    /// The generated statements, interpreted, against the reference permutation:
    /// edge values (0, 1, p − 1, p − 2) and seeded random states, both fields.
    fn against_reference<F: PastaField>(which: Which) {
        let m = generate(which, Memory::Own);
        let mut it = Interp::new(&m);
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let edge = [F::ZERO, F::ONE, -F::ONE, -F::from(2u64)];
        let mut previous = [-F::ONE; 3];
        for round in 0..10 {
            let state: [F; 3] = core::array::from_fn(|i| match round {
                0..=3 => edge[(round + i) % 4],
                _ => F::from(next()) * F::from(next()).square().square() + F::from(next()),
            });
            let mut limbs = state_in(&state);
            if round % 2 == 1 {
                // A non-canonical encoding: element 0 as x·2^261 mod p plus p.
                plus_p::<F>(&mut limbs, 0, 0);
            }
            it.set_state(&limbs);
            it.permute();
            let got: [F; 3] = state_out(&it.state(2));
            let mut want = state;
            poseidon::permute_with::<F, Reference>(ParamSet::Kimchi, &mut want);
            assert_eq!(got, want, "state {round}");
            // The second vector's lanes carry the same element.
            let s = it.state(2);
            assert!((LIMBS..2 * LIMBS).all(|i| s[i][0] == s[i][1]));
            // The pair: this state beside the previous one, in either lane.
            let pair = [state, previous];
            it.set_state(&pair_in(&pair));
            it.permute2();
            let got: [[F; 3]; 2] = pair_out(&it.state(3));
            let mut other = previous;
            poseidon::permute_with::<F, Reference>(ParamSet::Kimchi, &mut other);
            assert_eq!(got, [want, other], "pair {round}");
            previous = state;
        }
    }

    /// The two splits of a limb product the generator writes ([`Stream::mac`] and
    /// [`Stream::mac_anchored`]), on limbs at their edges and seeded random ones: the
    /// high half's bits minus 2^104's are k, the low half's bits give the remainder
    /// δ, and k·2^52 + δ = a·b exactly.
    #[test]
    fn limb_product_splits() {
        let edge = [
            0,
            1,
            2,
            3,
            1 << 26,
            (1 << 51) - 1,
            1 << 51,
            (1 << 51) + 1,
            MASK - 1,
            MASK,
        ];
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut limbs: Vec<u64> = edge.to_vec();
        limbs.extend((0..200).map(|_| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed & MASK
        }));
        let f = f64::from_bits;
        for &x in &limbs {
            for &y in &limbs {
                let (a, c) = (x as f64, y as f64);
                let want = i128::from(x) * i128::from(y);
                let hi = a.mul_add(c, f(HI));
                let k = i128::from(hi.to_bits() - HI);
                // mac: 1.5·2^52 − δ in [2^52, 2^53], its bits LO − δ.
                let lo = (-a).mul_add(c, hi - f(HI_LO));
                assert!((4503599627370496.0..=9007199254740992.0).contains(&lo));
                let delta = i128::from(LO) - i128::from(lo.to_bits());
                assert_eq!(k * (1 << 52) + delta, want, "mac {x} {y}");
                // mac_anchored: 1.5·2^52 + δ, its bits LO + δ.
                let lo = f(LO) - (-a).mul_add(c, hi - f(HI));
                let delta = i128::from(lo.to_bits()) - i128::from(LO);
                assert_eq!(k * (1 << 52) + delta, want, "anchored {x} {y}");
                assert!(delta.abs() <= 1 << 51);
            }
        }
    }

    /// Adds p to the element in lane `lane` of vector `vec` (its value stays
    /// below 2^256 for any element below p, p < 2^255).
    fn plus_p<F: PrimeField>(v: &mut [[u64; 2]], vec: usize, lane: usize) {
        let p = limbs52(F::MODULUS.as_ref());
        let mut carry = 0;
        for (l, pl) in p.iter().enumerate() {
            let x = &mut v[vec * LIMBS + l][lane];
            let sum = f64::from_bits(*x) as u64 + pl + carry;
            *x = ((sum & MASK) as f64).to_bits();
            carry = sum >> 52;
        }
        assert_eq!(carry, 0);
    }

    #[test]
    fn fp_against_reference() {
        against_reference::<Fp>(Which::Fp);
    }

    #[test]
    fn fq_against_reference() {
        against_reference::<Fq>(Which::Fq);
    }

    /// The text assembles; each kernel's products are fused multiply-adds and
    /// nothing multiplies 64-bit lanes.
    #[test]
    fn assembles() {
        for w in [Which::Fp, Which::Fq] {
            let bytes = wat::parse_str(generate(w, Memory::Imported).wat).expect("valid text");
            let funcs = crate::wasm_ops::function_ops(&bytes).expect("parses");
            for (name, madds) in [
                ("fma_sq", 2 * 2 * (15 + 15)),
                ("fma_mul", 2 * 2 * (25 + 15)),
                (
                    "fma_mds",
                    2 * 2 * (if w == Which::Fp { 50 } else { 75 } + 15),
                ),
                ("fma_sq3", 3 * 2 * (15 + 15)),
                ("fma_mul3", 3 * 2 * (25 + 15)),
                (
                    "fma_mds3",
                    3 * 2 * (if w == Which::Fp { 50 } else { 75 } + 15),
                ),
            ] {
                let f = funcs
                    .iter()
                    .find(|f| f.name == name)
                    .expect("kernel present");
                let fused = f.count("F64x2RelaxedMadd") + f.count("F64x2RelaxedNmadd");
                assert_eq!(fused, madds, "{name}");
                assert_eq!(f.count("I64x2Mul"), 0, "{name}");
            }
        }
    }
}
