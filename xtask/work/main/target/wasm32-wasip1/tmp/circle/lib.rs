mod a;
mod b;
pub use a::A;
pub use b::B;
