//! WAT emission: the constants pool, kernels and drivers as Wasm text.

use crate::prelude::*;

/// The constants pool: each distinct constant once.
#[derive(Default)]
pub(crate) struct Pool(pub(crate) Vec<u64>);

impl Pool {
    pub(crate) fn addr(&mut self, bits: u64) -> u32 {
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

pub(crate) fn wat_expr(e: &E, pool: &mut Pool, out: &mut String) {
    pub(crate) fn two(op: &str, x: &E, y: &E, pool: &mut Pool, out: &mut String) {
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

pub(crate) fn wat_func(f: &Func, pool: &mut Pool) -> String {
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

pub(crate) fn driver_wat(p: &Plan, scratch: u32, rounds: usize) -> String {
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
        Step::Lanes { from, lane, to } => {
            // Bytes 0–15 of the shuffle's input are from[0]'s, 16–31 from[1]'s.
            let idx: Vec<String> = (0..16)
                .map(|i: u32| (16 * (i / 8) + 8 * lane[(i / 8) as usize] + i % 8).to_string())
                .collect();
            for limb in 0..LIMBS as u32 {
                let [a, bb] = from.map(|f| at(f + 16 * limb));
                writeln!(
                    w,
                    "    (v128.store {} (i8x16.shuffle {} (v128.load {a}) (v128.load {bb})))",
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
pub(crate) fn fused_wat() -> String {
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
