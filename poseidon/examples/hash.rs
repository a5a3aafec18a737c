//! Hash field elements with kimchi Poseidon, as Mina does.
//!
//! ```text
//! cargo run -p kimchi-poseidon --example hash                 # hashes [1, 2]
//! cargo run -p kimchi-poseidon --example hash -- HEX [HEX…]   # elements of Fp, 64 hex digits each
//! ```
//! An element is written as Mina's vector files write it: its 32 bytes,
//! little-endian, in hex.

use poseidon::{encoding, Fp, ParamSet, Sponge};

fn main() -> Result<(), poseidon::Error> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let inputs: Vec<Fp> = if args.is_empty() {
        vec![Fp::from(1u64), Fp::from(2u64)]
    } else {
        args.iter()
            .map(|a| encoding::from_hex(a))
            .collect::<Result<_, _>>()?
    };

    // One call: a fresh sponge absorbs the inputs and squeezes one element.
    let digest = poseidon::hash(ParamSet::Kimchi, &inputs);

    // The same with the sponge itself, one element at a time.
    let mut sponge = Sponge::<Fp>::new(ParamSet::Kimchi);
    for x in &inputs {
        sponge.absorb(&[*x]);
    }
    assert_eq!(sponge.squeeze(), digest);

    println!("kimchi {}", encoding::to_hex(digest));
    // The parameter set of Mina before Berkeley (x^5, 63 rounds).
    let legacy = poseidon::hash(ParamSet::Legacy, &inputs);
    println!("legacy {}", encoding::to_hex(legacy));
    Ok(())
}
