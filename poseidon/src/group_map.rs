//! Mina's group map onto Pallas: a field element to a point of `y² = x³ + 5` over
//! [`Fp`], as o1js's `Poseidon.hashToGroup` computes it. It is the construction of
//! Shallue and van de Woestijne (ANTS 2006) in the form Mina's `group_map` gives it,
//! with Mina's parameters (`crypto_params`: u = 2, conic c = 3, projection point
//! (z₀, 1)).
//!
//! For t, the map projects t onto the conic `z² + c·y² = …` from the point (z₀, 1),
//! turns the conic point (z, y) into three candidate x coordinates
//!
//! ```text
//! v = z / y − u/2,   x₁ = v,   x₂ = −(u + v),   x₃ = u + y²
//! ```
//!
//! of which at least one has x³ + 5 a square, and takes the first that does, with
//! the even square root as y (o1js negates an odd root; so does its circuit).
//!
//! ```
//! use poseidon::{group_map, Fp, ParamSet};
//! // o1js: Poseidon.hashToGroup([Field(1), Field(2)])
//! let (x, y) = group_map::hash_to_group(&[Fp::from(1u64), Fp::from(2u64)]).expect("not a pole");
//! assert!(group_map::on_curve(x, y));
//! ```

use ark_ff::{AdditiveGroup, BigInteger, Field, MontFp, PrimeField};

use crate::fields::Fp;
use crate::params::ParamSet;

/// The curve's b: Pallas is y² = x³ + 5.
const B: Fp = MontFp!("5");
/// Mina's u (`crypto_params`); u/2 = 1.
const U: Fp = MontFp!("2");
/// The conic's c.
const CONIC_C: Fp = MontFp!("3");
/// The projection point's z (its y is 1).
const PROJECTION_Z: Fp =
    MontFp!("12196889842669319921865617096620076994180062626450149327690483414064673774441");

/// Whether (x, y) is on Pallas: y² = x³ + 5.
pub fn on_curve(x: Fp, y: Fp) -> bool {
    y.square() == x.square() * x + B
}

/// The three candidate x coordinates for `t`, in o1js's order (`potentialXs`), or
/// `None` where the map divides by zero (3t² + 1 = 0, or the conic point's y is 0;
/// o1js throws "Division undefined" there; no known input reaches it).
pub fn potential_xs(t: Fp) -> Option<[Fp; 3]> {
    // Onto the conic, from the projection point (z₀, 1).
    let ct = CONIC_C * t;
    let d = (ct + PROJECTION_Z) * (ct * t + Fp::ONE).inverse()?;
    let s = d.double();
    let (z, y) = (PROJECTION_Z - s, Fp::ONE - s * t);
    // From the conic to the three candidates (u/2 = 1).
    let v = z * y.inverse()? - Fp::ONE;
    Some([v, -(U + v), U + y.square()])
}

/// The point for `t`: the first candidate x whose x³ + 5 is a square, with y the
/// even one of its two roots. `None` only where [`potential_xs`] is.
pub fn map_to_group(t: Fp) -> Option<(Fp, Fp)> {
    potential_xs(t)?.into_iter().find_map(|x| {
        let y = (x.square() * x + B).sqrt()?;
        let odd = y.into_bigint().is_odd();
        Some((x, if odd { -y } else { y }))
    })
}

/// o1js's `Poseidon.hashToGroup(inputs)`: the kimchi hash of `inputs`, mapped
/// onto Pallas ([`map_to_group`]).
pub fn hash_to_group(inputs: &[Fp]) -> Option<(Fp, Fp)> {
    map_to_group(crate::hash(ParamSet::Kimchi, inputs))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn points_are_on_the_curve_with_even_y() {
        for t in (0..200u64).map(Fp::from).chain([-Fp::ONE, -Fp::from(2u64)]) {
            let (x, y) = map_to_group(t).expect("no pole among these");
            assert!(on_curve(x, y), "t = {t}");
            assert!(y.into_bigint().is_even(), "t = {t}");
        }
    }

    #[test]
    fn each_candidate_position_is_taken_by_some_input() {
        // The map's three branches: for some t the first candidate fails and a later one is taken.
        let mut taken = [false; 3];
        for t in (0..200u64).map(Fp::from) {
            let xs = potential_xs(t).expect("no pole");
            let (x, _) = map_to_group(t).expect("no pole");
            taken[xs
                .iter()
                .position(|&c| c == x)
                .expect("one of the candidates")] = true;
        }
        assert_eq!(taken, [true; 3]);
    }
}
