pub struct Deep;
fn h() { twice!(crate::top()); }
