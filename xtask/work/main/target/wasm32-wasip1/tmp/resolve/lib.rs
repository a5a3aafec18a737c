#[macro_use]
mod m;
mod outer;
pub use outer::Deep;
pub fn top() {}
