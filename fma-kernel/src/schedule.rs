//! Scheduling: a kernel's streams interleaved statement by statement, its column
//! terms (squares, products, the linear layer), and the drivers' plans of the two
//! exports (which kernel runs on which scratch vectors, round by round).

use crate::prelude::*;

/// A kernel's shape: `nin` pointer operands per stream (the first `shared` common
/// to all streams), `streams` interleaved streams, `add_k` for the linear layer's
/// round constants, and its column terms.
pub(crate) struct Spec<'a> {
    pub(crate) name: &'a str,
    pub(crate) nin: usize,
    pub(crate) shared: usize,
    pub(crate) streams: usize,
    pub(crate) add_k: bool,
    /// A shared operand (`pl`, `f64` limbs) added to the output columns as is: a
    /// matrix entry 1 of the rescaled linear layer.
    pub(crate) place: bool,
    pub(crate) terms: &'a Terms,
}

/// A kernel of `streams` interleaved streams: operands `nin` pointers each (the
/// first `shared` common to all streams), column terms from `terms`, the
/// reduction, and the output limbs stored as `f64` at `o` (plus `k`'s integer
/// limbs when `add_k`).
pub(crate) fn kernel(spec: &Spec, p52: &[u64; LIMBS], u: u64) -> Func {
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
                let (x, full) = st.ex["cur"];
                assert!(full, "column {c} has products");
                st.offset(st.get("cur"), x);
                // (t·u mod 2^32)·2^32, of which the mask keeps (t·u mod 2^20)·2^32:
                // one shift, the other 32-bit lane's product shifted out.
                let q = E::And(
                    b(E::ISub(
                        b(E::Shl(b(E::Mul32(b(st.get("t")), b(E::Const(u)))), 32)),
                        b(st.get("t")),
                    )),
                    b(E::Const(MASK)),
                );
                st.set(&format!("qi{c}"), q);
                st.set(&format!("q{c}"), to_float(st.get(&format!("qi{c}"))));
                // t + q·p_0 is a multiple of 2^52 (the choice of q), so its carry is
                // ⌊t/2^52⌋ + ⌊q·p_0/2^52⌋ + [q ≠ 0]; one multiply-add gives the
                // middle term (`quotient_high`), no low half needed.
                let q = st.get(&format!("q{c}"));
                st.set("hi", quotient_high(q, p52[0]));
                st.acc("nxt", st.get("hi"), HI - 1);
                st.carry_offset();
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
                    st.offset(v, x);
                    let limb = to_float(E::And(b(st.get("t")), b(E::Const(MASK))));
                    st.body.push(S::Store(format!("o{sfx}"), 16 * j, limb));
                    st.carry_offset();
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
        HALF_BELOW_HI,
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
pub(crate) fn hoist(e: &mut E, hot: &[u64]) {
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

/// One vector's bytes: five limbs, two `f64` lanes each.
pub(crate) const V: u32 = 80;

pub(crate) fn sq_terms(c: usize, x: Operand) -> (Pairs, Pairs) {
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

pub(crate) fn mul_terms(c: usize, x: Operand) -> (Pairs, Pairs) {
    let plain = (0..LIMBS)
        .filter(|&i| c >= i && c - i < LIMBS)
        .map(|i| (x(0, i), x(1, c - i)))
        .collect();
    (vec![], plain)
}

/// The linear layer: operands 0..N are the S-box outputs broadcast (shared),
/// N..2N the matrix columns; N = 3, or 2 when rescaled (x_0 is then placed,
/// `Spec::place`, and the operands are x_1, x_2 and columns 1, 2).
pub(crate) fn mds_terms<const N: usize>(c: usize, x: Operand) -> (Pairs, Pairs) {
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

/// Where the tables and the scratch lie in the region: the single permutation's
/// round constants and (rescaled) D, D⁻¹ in its layout, and the pair's matrix
/// entries, D, D⁻¹ and round constants in its own.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Layout {
    pub(crate) rescaled: bool,
    pub(crate) rc: u32,
    pub(crate) scale: u32,
    pub(crate) cols3: u32,
    pub(crate) scale3: u32,
    pub(crate) rc3: u32,
    pub(crate) scratch: u32,
}

/// A kernel argument: a region offset, or the round's constants `off` bytes past
/// the start of round r's (`rc + stride·r + off`).
#[derive(Clone, Copy, Debug)]
pub(crate) enum Arg {
    At(u32),
    Rc(u32),
}

/// A step of an export's driver.
#[derive(Clone, Debug)]
pub(crate) enum Step {
    Call(&'static str, Vec<Arg>),
    /// Lane i of each limb at `to` from lane `lane[i]` of the vector at `from[i]`
    /// (a broadcast, a swap of lanes, or a blend of two vectors).
    Lanes {
        from: [u32; 2],
        lane: [u32; 2],
        to: u32,
    },
}

/// An export `name(base, st)`: the state's `vectors` vectors copied from `st`
/// into scratch, `pre`, the rounds, `post`, and copied back.
#[derive(Clone, Debug)]
pub(crate) struct Plan {
    pub(crate) name: &'static str,
    pub(crate) vectors: u32,
    pub(crate) rc: u32,
    pub(crate) stride: u32,
    pub(crate) pre: Vec<Step>,
    pub(crate) round: Vec<Step>,
    pub(crate) post: Vec<Step>,
}

/// Scratch vectors: the pair's state, x², x⁴, x⁶, x⁷ (three each); the single
/// permutation uses the first twelve (`single_plan`).
pub(crate) const SCRATCH_VECTORS: u32 = 15;

/// `fma_permute`: one permutation, elements 0 and 1 in the first vector's lanes,
/// element 2 in both lanes of the second. The S-box is x², then x³ and x⁴, then
/// x⁷ = x³·x⁴: element 2's x³ and x⁴ are one product of [x₂² | x₂²] and
/// [x₂ | x₂²], so the middle kernel runs three streams and a round takes seven
/// vector products, where x⁴ then x⁶·x took eight in four kernels of two streams
/// (0.89× the time under Node 24, docs/experiments/wasm-fma.md). Scratch: the
/// state (0, 1), x² (2, 3), x³ and x⁴ (4, 5, 6), the lane-blended operand (7), x⁷
/// (8, 9), and x⁷'s elements 0 and 1 broadcast for the linear layer (10, 11).
pub(crate) fn single_plan(l: &Layout) -> Plan {
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
            // [x₀² | x₁²] and [x₂² | x₂²].
            Step::Call("fma_sq", vec![s(0), s(1), s(2), s(3)]),
            // [x₂ | x₂²]: element 2's x³ and x⁴ share one vector's two lanes.
            Step::Lanes {
                from: [at(1), at(3)],
                lane: [0, 1],
                to: at(7),
            },
            // Three streams: [x₀³ | x₁³], [x₀⁴ | x₁⁴], [x₂³ | x₂⁴].
            Step::Call(
                "fma_mul3",
                vec![s(2), s(0), s(2), s(2), s(3), s(7), s(4), s(5), s(6)],
            ),
            // [x₂⁴ | x₂³].
            Step::Lanes {
                from: [at(6), at(6)],
                lane: [1, 0],
                to: at(7),
            },
            // x⁷ = x³·x⁴: [x₀⁷ | x₁⁷] and [x₂⁷ | x₂⁷].
            Step::Call("fma_mul", vec![s(4), s(5), s(6), s(7), s(8), s(9)]),
            // Lanes 0 and 1 of x⁷'s first vector, each into both lanes.
            Step::Lanes {
                from: [at(8), at(8)],
                lane: [0, 0],
                to: at(10),
            },
            Step::Lanes {
                from: [at(8), at(8)],
                lane: [1, 1],
                to: at(11),
            },
            Step::Call("fma_mds", mds),
        ],
        post: vec![scale(true)],
    }
}

/// `fma_permute2`: two permutations, one per lane; vector e holds element e of
/// both. Every kernel runs the three vectors as its three streams.
pub(crate) fn pair_plan(l: &Layout) -> Plan {
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
