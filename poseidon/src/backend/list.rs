//! The one list of the crate's backends (`for_each_backend!`, exported at the
//! crate's root) and their names. It sits apart from the `Backend` trait: the
//! backends depend on the trait, the list on the backends.

use super::Backend;

/// Every backend of the crate, the one list that the tests, the benchmark, the
/// count program and the `poseidon` tool go through. Two forms:
///
/// - `for_each_backend!(callback)` invokes the macro `callback! { name => Type, … }`
///   with every backend, its name (an identifier equal to [`Backend::NAME`]) and its
///   type: for items, e.g. a test module per backend;
/// - `for_each_backend!(|name, B| { … })` runs the block once per backend, with the
///   type alias `B` and `name: &str` bound: for statements.
///
/// ```
/// use poseidon::{Backend, Fp, ParamSet};
///
/// let want = poseidon::hash(ParamSet::Kimchi, &[Fp::from(1u64)]);
/// let mut names = Vec::new();
/// poseidon::for_each_backend!(|name, B| {
///     assert_eq!(name, B::NAME);
///     assert_eq!(poseidon::hash_with::<Fp, B>(ParamSet::Kimchi, &[Fp::from(1u64)]), want);
///     names.push(name);
/// });
/// assert_eq!(names, poseidon::backend::NAMES);
/// ```
#[macro_export]
macro_rules! for_each_backend {
    ($callback:ident) => {
        $crate::for_each_backend! { @list [items $callback] }
    };
    (|$name:ident, $b:ident| $body:block) => {
        $crate::for_each_backend! { @list [block $name $b $body] }
    };
    (@list $how:tt) => {
        $crate::for_each_backend! { @apply $how
            reference => $crate::backend::Reference,
            u29 => $crate::backend::U29,
            u29x2 => $crate::backend::U29x2,
            u64 => $crate::backend::U64,
            u52 => $crate::backend::U52,
        }
    };
    (@apply [items $callback:ident] $($n:ident => $t:ty,)*) => {
        $callback! { $($n => $t,)* }
    };
    (@apply [block $name:ident $b:ident $body:block] $($n:ident => $t:ty,)*) => {{
        $({
            #[allow(dead_code)]
            type $b = $t;
            #[allow(unused_variables)]
            let $name: &'static str = stringify!($n);
            $body
        })*
    }};
}

macro_rules! backend_names {
    ($($n:ident => $t:ty,)*) => {
        /// Every backend's name ([`Backend::NAME`]), in the order of
        /// [`for_each_backend!`](crate::for_each_backend).
        pub const NAMES: &[&str] = &[$(<$t as Backend>::NAME),*];
    };
}
crate::for_each_backend!(backend_names);
