//! Stand-in upstream trees for the A/B's own tests (`cargo xtask ab-standin`):
//! the crates `mina-poseidon` and `mina-curves` with just the API the lab calls,
//! computed by this repository's library (its reference backend), so that the
//! whole A/B path (sides, builds for the host and wasm32-wasip1, interleaved
//! rounds, counts, the report) runs in `make test` without a proof-systems
//! checkout. Variant `slower` makes one known change: every permutation also
//! permutes a throw-away copy of the state, so it costs two and computes the same.

use std::path::Path;

/// `mina-curves`: its Pasta `Fp` is the library's (the same field, the same ark type).
const CURVES_LIB: &str = r#"//! Stand-in for mina-curves (written by `cargo xtask ab-standin`).
pub mod pasta {
    pub use poseidon::Fp;
}
"#;

/// `mina-poseidon`: the constants, parameters, permutation and sponge the lab uses.
/// The sponge follows mina's rules (rate 2: absorb adds into the next rate slot,
/// permuting first when both are full; squeeze permutes after absorbing, then reads
/// the rate slots in turn), over this crate's permutation.
const POSEIDON_LIB: &str = r#"//! Stand-in for mina-poseidon (written by `cargo xtask ab-standin`): the API the
//! lab calls, over the poseidon library's reference permutation.
use mina_curves::pasta::Fp;

pub mod constants {
    /// The kimchi sponge's marker type.
    pub struct PlonkSpongeConstantsKimchi;
}

pub mod pasta {
    pub const FULL_ROUNDS: usize = 55;
    pub mod fp_kimchi {
        /// The parameters (the library holds the real ones).
        pub struct Params;
        static PARAMS: Params = Params;
        pub fn static_params() -> &'static Params {
            &PARAMS
        }
    }
}

/// What the stand-in permutes: the Pasta Fp.
pub trait Element: Copy + core::ops::AddAssign {
    fn zero() -> Self;
    fn permute(state: &mut [Self]);
}

impl Element for Fp {
    fn zero() -> Self {
        Fp::from(0u64)
    }
    fn permute(state: &mut [Fp]) {
        let s: &mut [Fp; 3] = state.try_into().expect("a state of three");
        ::poseidon::permute_with::<Fp, ::poseidon::backend::Reference>(::poseidon::params::ParamSet::Kimchi, s);
        /*SLOWER*/
    }
}

pub mod permutation {
    pub fn poseidon_block_cipher<F: crate::Element, SC, const FULL_ROUNDS: usize>(
        _params: &crate::pasta::fp_kimchi::Params,
        state: &mut [F],
    ) {
        F::permute(state)
    }
}

pub mod poseidon {
    use crate::Element;
    use core::marker::PhantomData;

    pub trait Sponge<F> {
        fn new(params: &'static crate::pasta::fp_kimchi::Params) -> Self;
        fn absorb(&mut self, x: &[F]);
        fn squeeze(&mut self) -> F;
    }

    enum Mode {
        Absorbed(usize),
        Squeezed(usize),
    }

    pub struct ArithmeticSponge<F, SC, const FULL_ROUNDS: usize> {
        state: [F; 3],
        mode: Mode,
        marker: PhantomData<SC>,
    }

    impl<F: Element, SC, const FULL_ROUNDS: usize> Sponge<F> for ArithmeticSponge<F, SC, FULL_ROUNDS> {
        fn new(_params: &'static crate::pasta::fp_kimchi::Params) -> Self {
            ArithmeticSponge { state: [F::zero(); 3], mode: Mode::Absorbed(0), marker: PhantomData }
        }
        fn absorb(&mut self, xs: &[F]) {
            for x in xs {
                match self.mode {
                    Mode::Absorbed(2) => {
                        F::permute(&mut self.state);
                        self.state[0] += *x;
                        self.mode = Mode::Absorbed(1);
                    }
                    Mode::Absorbed(n) => {
                        self.state[n] += *x;
                        self.mode = Mode::Absorbed(n + 1);
                    }
                    Mode::Squeezed(_) => {
                        self.state[0] += *x;
                        self.mode = Mode::Absorbed(1);
                    }
                }
            }
        }
        fn squeeze(&mut self) -> F {
            match self.mode {
                Mode::Squeezed(n) if n < 2 => {
                    self.mode = Mode::Squeezed(n + 1);
                    self.state[n]
                }
                _ => {
                    F::permute(&mut self.state);
                    self.mode = Mode::Squeezed(1);
                    self.state[0]
                }
            }
        }
    }
}
"#;

/// The known change of variant `slower`: a second permutation of a copy.
const SLOWER: &str = "let mut waste = *s;\n        ::poseidon::permute_with::<Fp, ::poseidon::backend::Reference>(::poseidon::params::ParamSet::Kimchi, std::hint::black_box(&mut waste));";

/// Writes a stand-in proof-systems tree at `dir` (emptied first): `slower` adds the
/// known change. `root` is this repository (the library, its Cargo.lock).
pub fn write(dir: &Path, root: &Path, slower: bool) -> Result<(), String> {
    let err = |p: &Path, e: std::io::Error| format!("{}: {e}", p.display());
    if dir.exists() {
        std::fs::remove_dir_all(dir).map_err(|e| err(dir, e))?;
    }
    let lib = root.join("poseidon");
    let lib = lib.display().to_string().replace('\\', "/");
    let files: [(&str, String); 7] = [
        (
            "Cargo.toml",
            "[workspace]\nmembers = [\"poseidon\", \"curves\"]\nresolver = \"2\"\n\n[profile.release]\ncodegen-units = 1\n".into(),
        ),
        (
            "curves/Cargo.toml",
            format!("[package]\nname = \"mina-curves\"\nversion = \"0.1.0\"\nedition = \"2021\"\npublish = false\n\n[features]\ndefault = [\"parallel\"]\nparallel = []\n\n[dependencies]\nposeidon = {{ package = \"kimchi-poseidon\", path = \"{lib}\", default-features = false }}\n"),
        ),
        ("curves/src/lib.rs", CURVES_LIB.into()),
        (
            "poseidon/Cargo.toml",
            format!("[package]\nname = \"mina-poseidon\"\nversion = \"0.1.0\"\nedition = \"2021\"\npublish = false\n\n[features]\ndefault = [\"std\", \"parallel\"]\nstd = []\nparallel = [\"std\", \"mina-curves/parallel\"]\n\n[dependencies]\nmina-curves = {{ path = \"../curves\", default-features = false }}\nposeidon = {{ package = \"kimchi-poseidon\", path = \"{lib}\", default-features = false }}\n"),
        ),
        (
            "poseidon/src/lib.rs",
            POSEIDON_LIB.replace("/*SLOWER*/", if slower { SLOWER } else { "" }),
        ),
        ("poseidon/benches/poseidon_bench.rs", "fn main() {}\n".into()),
        (
            "Cargo.lock",
            std::fs::read_to_string(root.join("Cargo.lock")).map_err(|e| err(root, e))?,
        ),
    ];
    for (rel, text) in files {
        let p = dir.join(rel);
        std::fs::create_dir_all(p.parent().expect("a file in a folder")).map_err(|e| err(&p, e))?;
        std::fs::write(&p, text).map_err(|e| err(&p, e))?;
    }
    Ok(())
}

/// `cargo xtask ab-standin DIR [--slower]`.
pub fn task(root: &Path, args: &[String]) -> Result<bool, String> {
    let (mut dir, mut slower) = (None, false);
    for a in args {
        match a.as_str() {
            "-h" | "--help" => return Err(String::new()),
            "--slower" => slower = true,
            s if s.starts_with('-') => return Err(format!("unknown option {s}")),
            s => dir = Some(s.to_owned()),
        }
    }
    let dir = dir.ok_or("a directory to write is needed")?;
    write(Path::new(&dir), root, slower)?;
    println!(
        "wrote a stand-in proof-systems tree{} to {dir}",
        if slower {
            " (every permutation done twice)"
        } else {
            ""
        }
    );
    Ok(true)
}

/// `cargo xtask ab-standin --help`.
pub const USAGE: &str = "usage: cargo xtask ab-standin DIR [--slower]
Writes a stand-in proof-systems tree (crates mina-poseidon and mina-curves with the
API the lab calls, over this repository's library) for the A/B's tests; --slower
makes every permutation cost two.";
