pub struct A;
pub fn f() { crate::b::g() }
#[cfg(test)]
mod t { use crate::B; }
