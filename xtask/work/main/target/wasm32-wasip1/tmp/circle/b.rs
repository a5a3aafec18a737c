use super::a::A;
pub struct B(A);
pub fn g() {}
