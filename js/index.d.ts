/** The Pallas base field modulus (kimchi's Fp, o1js's `Field`). */
export const P: bigint;
/** The Vesta base field modulus (Fq). */
export const Q: bigint;
/** Compiles and instantiates the wasm module; await it once before the other calls. */
export function init(source?: BufferSource): Promise<void>;
/** Kimchi Poseidon over Fp (o1js's `Poseidon.hash`). Throws RangeError for an element outside [0, p). */
export function hash(fields: bigint[]): bigint;
/** Kimchi Poseidon over Fq. */
export function hashFq(fields: bigint[]): bigint;
/** Legacy Poseidon over Fp. */
export function hashLegacy(fields: bigint[]): bigint;
/** The kimchi permutation over Fp. */
export function permute(state: [bigint, bigint, bigint]): [bigint, bigint, bigint];
/** Kimchi Poseidon over Fp of many inputs in one call. */
export function hashMany(inputs: bigint[][]): bigint[];
