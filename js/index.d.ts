/** The Pallas base field modulus (kimchi's Fp, o1js's `Field`). */
export const P: bigint;
/** The Vesta base field modulus (Fq). */
export const Q: bigint;
/** The wasm modules, best first. */
export const MODULES: readonly ["wide", "simd", "scalar"];
export type Module = (typeof MODULES)[number];
/** The modules this engine can run, best first (`WebAssembly.validate` of small probes). */
export function supported(): Module[];
/**
 * Compiles and instantiates a wasm module; await it once before the other calls.
 * Without arguments the best supported module; `{ module }` one of them (rejects if
 * the engine cannot run it); a BufferSource: those bytes.
 */
export function init(source?: BufferSource | { module: Module }): Promise<void>;
/** The module `init` loaded ("custom" for given bytes), null before `init`. */
export function backend(): Module | "custom" | null;
/** The loaded module's bytes. */
export function moduleBytes(): BufferSource | null;
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
