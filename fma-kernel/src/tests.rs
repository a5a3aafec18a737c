//! The generator against the reference permutation, through the interpreter.

use poseidon::backend::Reference;
use poseidon::{Fp, Fq};

use crate::prelude::*;

/// The seeded xorshift64 generator of the tests' random inputs.
fn xorshift(mut seed: u64) -> impl FnMut() -> u64 {
    move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    }
}

/// The generated statements, interpreted, against the reference permutation:
/// edge values (0, 1, p − 1, p − 2) and seeded random states, both fields.
fn against_reference<F: PastaField>(which: Which) {
    let m = generate(which, Memory::Own);
    let mut it = Interp::new(&m);
    let mut next = xorshift(0x9e37_79b9_7f4a_7c15);
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

/// The split of a limb product the generator writes ([`Stream::mac`]), on limbs
/// at their edges and seeded random ones: the high half's bits minus 2^104's are
/// k, the low half's bits give the remainder δ, and k·2^52 + δ = a·b exactly.
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
    let mut next = xorshift(0x2545_f491_4f6c_dd1d);
    let mut limbs: Vec<u64> = edge.to_vec();
    limbs.extend((0..200).map(|_| next() & MASK));
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
            assert!(delta.abs() <= 1 << 51);
        }
    }
}

/// A Montgomery column's carry as the generator forms it (`quotient_high`'s
/// bits, `HI` − 1 taken away, plus ⌊t/2^52⌋ and 1) against (t + q·p_0)/2^52 in
/// integers, for both primes' p_0: columns t with low bits at their edges (0, 1,
/// 2^51, 2^52 − 1, …) and seeded random ones, negative and positive high parts,
/// each with its own quotient q = −t·p⁻¹ mod 2^52 (0 exactly where t's low bits
/// are 0).
#[test]
fn quotient_carry() {
    let mut next = xorshift(0x9e37_79b9_7f4a_7c15);
    let lows: Vec<u64> = [
        0,
        1,
        2,
        (1 << 51) - 1,
        1 << 51,
        (1 << 51) + 1,
        MASK - 1,
        MASK,
    ]
    .into_iter()
    .chain((0..300).map(|_| next() & MASK))
    .collect();
    let highs: [i64; 5] = [-(1 << 8), -1, 0, 1, 1 << 8];
    // The interpreter the permutation tests run (`f64::mul_add`, one rounding).
    let m = generate(Which::Fp, Memory::Own);
    let it = Interp::new(&m);
    for p in [Fp::MODULUS, Fq::MODULUS] {
        let p52 = limbs52(p.as_ref());
        // −p⁻¹ mod 2^52 by Newton's iteration (p odd).
        let mut inv = 1u64;
        for _ in 0..6 {
            inv = inv.wrapping_mul(2u64.wrapping_sub(p52[0].wrapping_mul(inv)));
        }
        let neg_inv = inv.wrapping_neg() & MASK;
        for &low in &lows {
            for &high in &highs {
                let t = (i128::from(high) << 52) + i128::from(low);
                let q = low.wrapping_mul(neg_inv) & MASK;
                assert_eq!((q == 0), (low == 0));
                let sum = t + i128::from(q) * i128::from(p52[0]);
                assert_eq!(sum % (1 << 52), 0, "the choice of q");
                let e = quotient_high(E::Const((q as f64).to_bits()), p52[0]);
                let hi = it.eval(&e, &HashMap::new(), &HashMap::new())[0];
                let carry = i128::from(hi) - i128::from(HI - 1) + (t >> 52);
                assert_eq!(carry, sum >> 52, "p_0 {:#x}, t {t:#x}, q {q:#x}", p52[0]);
            }
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
/// nothing multiplies 64-bit lanes (counted in the text: one operator a token).
#[test]
fn assembles() {
    for w in [Which::Fp, Which::Fq] {
        let text = generate(w, Memory::Imported).wat;
        wat::parse_str(&text).expect("valid text");
        // Per stream: two a limb product, two for each quotient times p_1 and p_2,
        // one for each quotient times p_0 (its carry only, `quotient_high`).
        let reduction = 2 * 10 + 5;
        let mds = if w == Which::Fp { 50 } else { 75 };
        for (name, madds) in [
            ("fma_sq", 2 * (2 * 15 + reduction)),
            ("fma_mul", 2 * (2 * 25 + reduction)),
            ("fma_mds", 2 * (2 * mds + reduction)),
            ("fma_sq3", 3 * (2 * 15 + reduction)),
            ("fma_mul3", 3 * (2 * 25 + reduction)),
            ("fma_mds3", 3 * (2 * mds + reduction)),
        ] {
            let start = text
                .find(&format!("(func ${name} "))
                .expect("kernel present");
            let body = &text[start..];
            let body = &body[..body[1..].find("(func ").map_or(body.len(), |e| e + 1)];
            let fused = body.matches("(f64x2.relaxed_madd ").count()
                + body.matches("(f64x2.relaxed_nmadd ").count();
            assert_eq!(fused, madds, "{name}");
            assert_eq!(body.matches("i64x2.mul").count(), 0, "{name}");
        }
    }
}
