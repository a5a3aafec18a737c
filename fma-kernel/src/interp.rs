//! The interpreter that checks the generator natively: `v128` as two `u64` lanes,
//! the fused operations by `f64::mul_add`.

use crate::prelude::*;

/// Runs the generated statements natively: `v128` as two `u64` lanes, the fused
/// operations by `f64::mul_add` (correctly rounded, as a fused FMA is).
pub struct Interp<'m> {
    pub(crate) m: &'m Module,
    pub(crate) mem: Vec<u8>,
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

    pub(crate) fn load(&self, at: u32) -> [u64; 2] {
        let at = at as usize;
        let w = |i: usize| u64::from_le_bytes(self.mem[i..i + 8].try_into().expect("8 bytes"));
        [w(at), w(at + 8)]
    }

    pub(crate) fn store(&mut self, at: u32, v: [u64; 2]) {
        let at = at as usize;
        self.mem[at..at + 8].copy_from_slice(&v[0].to_le_bytes());
        self.mem[at + 8..at + 16].copy_from_slice(&v[1].to_le_bytes());
    }

    pub(crate) fn eval(
        &self,
        e: &E,
        env: &HashMap<&str, [u64; 2]>,
        args: &HashMap<&str, u32>,
    ) -> [u64; 2] {
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
    pub(crate) fn call(&mut self, name: &str, ptrs: &[u32]) {
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
    pub(crate) fn run(&mut self, p: usize) {
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
            Step::Lanes { from, lane, to } => {
                for l in 0..LIMBS as u32 {
                    let [a, bb] = from.map(|f| it.load(BASE + f + 16 * l));
                    it.store(
                        BASE + to + 16 * l,
                        [a[lane[0] as usize], bb[lane[1] as usize]],
                    );
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
pub(crate) fn limbs_in<F: PrimeField>(xs: &[F], slots: &[[usize; 2]]) -> Vec<[u64; 2]> {
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
pub(crate) fn limbs_out<F: PrimeField>(v: &[[u64; 2]], vec: usize, lane: usize) -> F {
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
