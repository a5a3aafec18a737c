pub struct A;
pub fn f() {}
#[cfg(test)]
mod t { use crate::B; }
