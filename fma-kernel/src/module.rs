//! The generated module: its layout in memory, its kernels and drivers, its text.

use crate::prelude::*;

/// Which field's kimchi permutation to generate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Which {
    /// Pallas' base field (o1js's `Field`).
    Fp,
    /// Vesta's base field.
    Fq,
}

/// The generated module: kernels, driver, tables, and what the interpreter needs.
pub struct Module {
    /// The module as Wasm text.
    pub wat: String,
    pub(crate) kernels: HashMap<String, Func>,
    pub(crate) pool: Vec<u64>,
    pub(crate) tables: Vec<u8>,
    pub(crate) rounds: usize,
    pub(crate) scratch: u32,
    pub(crate) plans: [Plan; 2],
}

/// Where the module's memory comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Memory {
    /// Its own, exported as `memory` (for `js/bench/fma-kernel.mjs`).
    Own,
    /// Imported as `env.memory`: to be merged into the package's module (binaryen's
    /// `wasm-merge`, the Rust module named `env`), which then allocates the region.
    Imported,
}

/// Generates the module for `which`'s kimchi permutation. Its exports:
/// `fma_bytes() -> i32` (the region's size), `fma_init(base)` (writes the
/// constants into the region at `base`, 16-byte aligned), `fma_permute(base, st)`
/// (the state's 160 bytes at `st`, see `state_in`), `fma_permute2(base, st)` (two
/// states, 240 bytes, see `pair_in`) and `fma_fused(2^52 − 1) ->
/// i32` (1 when this engine's `relaxed_madd` is fused; without it the results are
/// wrong).
pub fn generate(which: Which, memory: Memory) -> Module {
    let k = match which {
        Which::Fp => consts::<poseidon::Fp>(Some(FP_D0)),
        Which::Fq => consts::<poseidon::Fq>(None),
    };
    let rescaled = k.rescaled;
    let plain = |name, nin, streams, terms: &'static Terms| Spec {
        name,
        nin,
        shared: 0,
        streams,
        add_k: false,
        place: false,
        terms,
    };
    // The linear layer: the S-box outputs are the operands common to all streams
    // (broadcast elements in the single permutation, whole vectors in the pair's);
    // each stream has its own matrix entries and round constants.
    let mds = |name, streams| {
        if rescaled {
            Spec {
                name,
                nin: 4,
                shared: 2,
                streams,
                add_k: true,
                place: true,
                terms: &mds_terms::<2>,
            }
        } else {
            Spec {
                name,
                nin: 6,
                shared: 3,
                streams,
                add_k: true,
                place: false,
                terms: &mds_terms::<3>,
            }
        }
    };
    // Two streams for the single permutation's two vectors, three for the pair's.
    let specs = [
        plain("fma_sq", 1, 2, &sq_terms),
        plain("fma_mul", 2, 2, &mul_terms),
        mds("fma_mds", 2),
        plain("fma_sq3", 1, 3, &sq_terms),
        plain("fma_mul3", 2, 3, &mul_terms),
        mds("fma_mds3", 3),
    ];
    let funcs = specs.iter().map(|s| kernel(s, &k.p52, k.u));
    // Tables: the matrix columns as f64 pairs ([rows 0, 1] and [row 2, row 2];
    // rescaled, columns 1 and 2 only), D and D⁻¹ in the same layout if rescaled,
    // then per round the constants as integer pairs in that layout.
    let mut tables = Vec::new();
    let lanes = [[0usize, 1], [2, 2]];
    // One vector: limb l of element rows[lane] at 16·l + 8·lane, as f64 or integer.
    let push =
        |tables: &mut Vec<u8>, rows: [usize; 2], float: bool, x: &dyn Fn(usize, usize) -> u64| {
            for l in 0..LIMBS {
                for i in rows {
                    let bits = if float {
                        (x(i, l) as f64).to_bits()
                    } else {
                        x(i, l)
                    };
                    tables.extend_from_slice(&bits.to_le_bytes());
                }
            }
        };
    let first = usize::from(rescaled);
    for rows in lanes {
        for j in first..3 {
            push(&mut tables, rows, true, &|i, l| k.mds[i][j][l]);
        }
    }
    let scale = TABLES + tables.len() as u32;
    for x in k.scale {
        for rows in lanes {
            push(&mut tables, rows, true, &|i, l| x[i][l]);
        }
    }
    let rc_at = TABLES + tables.len() as u32;
    for row in &k.rc {
        for rows in lanes {
            push(&mut tables, rows, false, &|i, l| row[i][l]);
        }
    }
    // The pair's tables: every entry in both lanes (row i's entries, columns
    // `first..3`, one vector each), D and D⁻¹ the same way, then per round the
    // three constants.
    let cols3 = TABLES + tables.len() as u32;
    for i in 0..3 {
        for j in first..3 {
            push(&mut tables, [i, i], true, &|i, l| k.mds[i][j][l]);
        }
    }
    let scale3 = TABLES + tables.len() as u32;
    for x in k.scale {
        for i in 0..3 {
            push(&mut tables, [i, i], true, &|i, l| x[i][l]);
        }
    }
    let rc3 = TABLES + tables.len() as u32;
    for row in &k.rc {
        for i in 0..3 {
            push(&mut tables, [i, i], false, &|i, l| row[i][l]);
        }
    }
    assert!(tables.len() % 16 == 0);
    let layout = Layout {
        rescaled,
        rc: rc_at,
        scale,
        cols3,
        scale3,
        rc3,
        scratch: (TABLES + tables.len() as u32 + 255) & !15,
    };
    let scratch = layout.scratch;
    let mut pool = Pool::default();
    let mut wat = String::from("(module\n");
    wat.push_str(match memory {
        Memory::Own => "  (memory (export \"memory\") 4)\n",
        Memory::Imported => "  (import \"env\" \"memory\" (memory 1))\n",
    });
    let mut kernels = HashMap::new();
    let mut text = String::new();
    for f in funcs {
        text.push_str(&wat_func(&f, &mut pool));
        kernels.insert(f.name.clone(), f);
    }
    assert!(
        POOL + 16 * pool.0.len() as u32 <= TABLES,
        "constants pool too large"
    );
    wat.push_str(&text);
    let plans = [single_plan(&layout), pair_plan(&layout)];
    for p in &plans {
        wat.push_str(&driver_wat(p, scratch, k.rc.len()));
    }
    // fma_init copies one passive data segment: the pool (each constant in both
    // lanes), zeros up to TABLES, then the tables. 16 bytes per constant, where a
    // `v128.store` of a `v128.const` took about 25 bytes of code.
    let mut image = vec![0u8; TABLES as usize + tables.len()];
    for (i, x) in pool.0.iter().enumerate() {
        let at = (POOL + 16 * i as u32) as usize;
        image[at..at + 8].copy_from_slice(&x.to_le_bytes());
        image[at + 8..at + 16].copy_from_slice(&x.to_le_bytes());
    }
    image[TABLES as usize..].copy_from_slice(&tables);
    wat.push_str("  (data $consts \"");
    for b in &image {
        write!(wat, "\\{b:02x}").unwrap();
    }
    wat.push_str("\")\n");
    writeln!(
        wat,
        "  (func (export \"fma_init\") (param $base i32)\n    \
         (memory.init $consts (local.get $base) (i32.const 0) (i32.const {})))",
        image.len()
    )
    .unwrap();
    writeln!(
        wat,
        "  (func (export \"fma_bytes\") (result i32) (i32.const {}))",
        scratch + SCRATCH_VECTORS * V
    )
    .unwrap();
    wat.push_str(&fused_wat());
    wat.push_str(")\n");
    Module {
        wat,
        kernels,
        pool: pool.0,
        tables,
        rounds: k.rc.len(),
        scratch,
        plans,
    }
}
