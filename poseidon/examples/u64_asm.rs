#![allow(missing_docs)]
use poseidon::backend::u64x4::Fp64;
use poseidon::params::ParamSet;
use poseidon::{FieldArith, Fp, WIDTH};
#[inline(never)]
pub fn probe_mul(a: Fp64, b: Fp64) -> Fp64 {
    a.mul(b)
}
#[inline(never)]
pub fn probe_square(a: Fp64) -> Fp64 {
    a.square()
}
#[inline(never)]
pub fn probe_permute(s: &mut [Fp64; WIDTH]) {
    Fp64::permute(Fp64::params(ParamSet::Kimchi), s)
}
fn main() {
    let a = Fp64::from_field(Fp::from(std::env::args().count() as u64 + 5));
    let mut s = [a, a, a];
    probe_permute(&mut s);
    println!("{:?}", probe_square(probe_mul(s[0], a)).to_field());
}
