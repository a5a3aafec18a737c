// The hash core of the package (re-exported by index.js): the `poseidon` Rust
// library compiled to WebAssembly, with this file as the only glue. Works in Node
// and in browsers without a bundler plugin: the modules' bytes are embedded
// (dist/wasm-*.js, loaded on demand) or passed to `init`.
//
// Four modules (js/build.mjs); `init()` takes the best this engine validates:
//   "wide"   64-bit limbs, i64.mul_wide_u (wide arithmetic: Firefox 155+, Chrome
//            behind a flag, wasmtime)
//   "fma"    "simd", with the kimchi permutations (Fp, Fq) on 52-bit limbs in f64x2 lanes,
//            products split by relaxed SIMD's fused multiply-add (Chrome 114+,
//            Node 22+; where the engine's multiply-add is not fused, the module
//            finds out and runs "simd"'s arithmetic)
//   "simd"   9×29-bit limbs, batches four at a time in SIMD lanes (every current
//            engine, Node 20 included)
//   "scalar" 9×29-bit limbs, plain Wasm
// All four compute the same results (the tests check each against o1js).

/** The Pallas base field modulus (kimchi's Fp, o1js's `Field`). */
export const P = 0x40000000000000000000000000000000224698fc094cf91b992d30ed00000001n;
/** The Vesta base field modulus (Fq). */
export const Q = 0x40000000000000000000000000000000224698fc0994a8dd8c46eb2100000001n;

const KIMCHI_FP = 0, KIMCHI_FQ = 1, LEGACY_FP = 2, LEGACY_FQ = 3;

/** The modules, best first. */
export const MODULES = ["wide", "fma", "simd", "scalar"];

const loaders = {
  wide: () => import("./dist/wasm-wide.js"),
  fma: () => import("./dist/wasm-fma.js"),
  simd: () => import("./dist/wasm-simd.js"),
  scalar: () => import("./dist/wasm-scalar.js"),
};

// The smallest modules that use each feature: one function of one instruction,
// i64.mul_wide_u (0xfc 22), f64x2.relaxed_madd (0xfd 263) and
// i64x2.extmul_low_i32x4_u (0xfd 222).
const probes = {
  wide: [0, 97, 115, 109, 1, 0, 0, 0, 1, 8, 1, 96, 2, 126, 126, 2, 126, 126, 3, 2, 1, 0, 10, 10, 1, 8, 0, 32, 0, 32, 1, 252, 22, 11],
  fma: [0, 97, 115, 109, 1, 0, 0, 0, 1, 8, 1, 96, 3, 123, 123, 123, 1, 123, 3, 2, 1, 0, 10, 13, 1, 11, 0, 32, 0, 32, 1, 32, 2, 253, 135, 2, 11],
  simd: [0, 97, 115, 109, 1, 0, 0, 0, 1, 7, 1, 96, 2, 123, 123, 1, 123, 3, 2, 1, 0, 10, 11, 1, 9, 0, 32, 0, 32, 1, 253, 222, 1, 11],
};

/** The modules this engine can run, best first (by `WebAssembly.validate` of the probes). */
export function supported() {
  return MODULES.filter((m) => !probes[m] || WebAssembly.validate(Uint8Array.from(probes[m])));
}

// What init() loads by default: the best module this engine runs, except that V8
// before 13 (Node 22 and older) compiles Wasm with TurboFan, which reorders code
// itself: there the fma module's batches (hashMany) measured 15–25% slower than
// simd's four i32x4 lanes, for a single permutation about 7% faster (README, "The
// FMA pair"). Browsers (no process.versions) keep fma.
function preferred(runs) {
  const v8 = Number(globalThis.process?.versions?.v8?.split(".")[0]);
  return runs[0] === "fma" && v8 < 13 && runs.includes("simd") ? "simd" : runs[0];
}

let exports = null;
let loaded = null;
let loadedBytes = null;

/**
 * Compiles and instantiates a wasm module. Call once (and await it) before the other
 * functions. Without arguments: the best module this engine supports (`supported()[0]`,
 * but `simd` rather than `fma` under Node 22 and older, where its batches are faster).
 * `{ module: "simd" }` asks for one module (an error if the engine cannot run it);
 * a `BufferSource` is used as the module's bytes (`backend()` is then "custom").
 * Once a module is loaded, `init()` keeps it; asking for another module, or giving
 * bytes, replaces it (every module computes the same results).
 */
export async function init(source) {
  if (exports && source === undefined) return;
  const name = moduleName(source);
  if (name !== "custom" && name === loaded) return;
  const bytes = await moduleBytesOf(name, source);
  const { instance } = await WebAssembly.instantiate(bytes, {});
  exports = instance.exports;
  loaded = name;
  loadedBytes = bytes;
}

/**
 * The module `init(source)` would load, as { name, bytes }, without loading it
 * (the worker pool compiles it for its workers). Throws as `init` does.
 */
export async function moduleSource(source) {
  const name = moduleName(source);
  return { name, bytes: await moduleBytesOf(name, source) };
}

// The name of the module `source` asks for ("custom" for bytes), checked.
function moduleName(source) {
  if (source !== undefined && !(source && typeof source === "object" && "module" in source)) return "custom";
  const runs = supported();
  const name = source?.module ?? preferred(runs);
  if (!loaders[name]) throw new RangeError(`poseidon: no module "${name}" (${MODULES.join(", ")})`);
  if (!runs.includes(name)) {
    throw new Error(`poseidon: this engine cannot run the "${name}" module (it runs: ${runs.join(", ")})`);
  }
  return name;
}

async function moduleBytesOf(name, source) {
  return name === "custom" ? source : (await loaders[name]()).wasmBytes();
}

/** The module `init` loaded: "wide", "fma", "simd", "scalar" or "custom"; null before `init`. */
export function backend() {
  return loaded;
}

/** The loaded module's bytes (for benchmarks that call its exports directly). */
export function moduleBytes() {
  return loadedBytes;
}

function api() {
  if (!exports) throw new Error("poseidon: call `await init()` first");
  return exports;
}

// The first n words of the scratch buffer (grown to n if shorter). A fresh view on
// every use: a call may grow memory or move the buffer.
function words(n) {
  const e = api();
  const ptr = e.buffer(n);
  return new BigUint64Array(e.memory.buffer, ptr, n);
}

/** A short description of a value for error messages. */
export function describe(x) {
  if (Array.isArray(x)) return `an array of ${x.length}`;
  if (x === null) return "null";
  return typeof x === "bigint" ? `${x}n` : typeof x;
}

// The element checks of every export; the name is built only for the error.
function check(x, i, modulus, what) {
  if (typeof x !== "bigint" || x < 0n || x >= modulus) reject(x, `${what}[${i}]`, modulus);
}

function reject(x, name, modulus) {
  if (typeof x !== "bigint") throw new TypeError(`${name} must be a bigint, got ${describe(x)}`);
  throw new RangeError(`${name} = ${x} is not in [0, p) for p = ${modulus}`);
}

/** Checks an array of elements below `modulus`; errors name `fields[i]`. */
export function checkFields(fields, modulus) {
  if (!Array.isArray(fields)) throw new TypeError(`fields must be an array of bigints, got ${describe(fields)}`);
  for (let i = 0; i < fields.length; i++) check(fields[i], i, modulus, "fields");
}

function checkState(state) {
  if (!Array.isArray(state) || state.length !== 3) throw new RangeError(`state must be an array of 3 elements, got ${describe(state)}`);
  for (let i = 0; i < 3; i++) check(state[i], i, P, "state");
}

// The three state elements at the start of the buffer, after an operation.
function stateResult() {
  const r = words(12);
  return [get(r, 0), get(r, 4), get(r, 8)];
}

// A BigUint64Array element keeps its value mod 2^64 (ToBigUint64), so no masks.
function put(w, at, x) {
  w[at] = x;
  w[at + 1] = x >> 64n;
  w[at + 2] = x >> 128n;
  w[at + 3] = x >> 192n;
}

/** The element at words w[at..at+4) (little-endian). */
export function get(w, at) {
  return w[at] | (w[at + 1] << 64n) | (w[at + 2] << 128n) | (w[at + 3] << 192n);
}

function status(code, what) {
  if (code !== 0) throw new RangeError(`${what}: element ${code - 1} is not below the modulus`);
}

// The fields (checked) at the start of the scratch buffer, which holds at least
// `results` elements for the answer; returns how many fields were written.
function putFields(fields, modulus, results) {
  checkFields(fields, modulus);
  const n = fields.length;
  const w = words(4 * Math.max(n, results));
  for (let i = 0; i < n; i++) put(w, 4 * i, fields[i]);
  return n;
}

function hashWith(kind, modulus, fields) {
  const n = putFields(fields, modulus, 1);
  status(api().hash(kind, n), "fields");
  return get(words(4), 0);
}

/** Kimchi Poseidon over Fp (o1js's `Poseidon.hash`): absorb all, squeeze one. */
export function hash(fields) {
  return hashWith(KIMCHI_FP, P, fields);
}

/** Kimchi Poseidon over Fq. */
export function hashFq(fields) {
  return hashWith(KIMCHI_FQ, Q, fields);
}

/** Legacy Poseidon (x^5, 63 rounds) over Fp. */
export function hashLegacy(fields) {
  return hashWith(LEGACY_FP, P, fields);
}

/**
 * o1js's `Poseidon.update(state, fields)` over Fp: from `state`, absorb the fields
 * two at a time (zero-padded to an even length), permuting after each pair; no
 * fields permute once. Returns the new state.
 */
export function update(state, fields) {
  return updateWith(KIMCHI_FP, state, fields);
}

/**
 * `update` with the legacy Poseidon (mina-signer's `PoseidonLegacy.update`): the
 * same absorption, the legacy permutation.
 */
export function updateLegacy(state, fields) {
  return updateWith(LEGACY_FP, state, fields);
}

function updateWith(kind, state, fields) {
  checkState(state);
  checkFields(fields, P);
  const n = fields.length;
  const w = words(4 * (3 + n));
  for (let i = 0; i < 3; i++) put(w, 4 * i, state[i]);
  for (let i = 0; i < n; i++) put(w, 4 * (3 + i), fields[i]);
  status(api().update(kind, n), "state and fields");
  return stateResult();
}

/** The kimchi permutation over Fp of a three-element state; returns the new state. */
export function permute(state) {
  checkState(state);
  const w = words(12);
  for (let i = 0; i < 3; i++) put(w, 4 * i, state[i]);
  status(api().permute(KIMCHI_FP), "state");
  return stateResult();
}

/** Kimchi Poseidon over Fp of many inputs in one call (e.g. a Merkle tree level). */
export function hashMany(inputs) {
  checkInputs(inputs);
  const count = inputs.length;
  packInputs(inputs, 0, count, words);
  status(api().hash_many(KIMCHI_FP, count), "inputs");
  return unpack(words(4 * count), count);
}

/**
 * o1js's `Poseidon.hashToGroup(fields)` out of circuit: the kimchi hash of the
 * fields mapped onto Pallas by Mina's group map, y the even one of its two roots.
 * Returns the point as `{ x, y }` (bigints).
 */
export function hashToGroup(fields) {
  const code = api().hash_to_group(putFields(fields, P, 2));
  // The map divides by zero for no known input; o1js throws there too.
  if (code === 0xfffffffe) throw new Error("hashToGroup: the hash is a pole of the group map");
  status(code, "fields");
  const r = words(8);
  return { x: get(r, 0), y: get(r, 4) };
}

// For the package's other files (not re-exported by index.js).

/** Checks hashMany's argument: an array of arrays of elements of [0, p). */
export function checkInputs(inputs) {
  if (!Array.isArray(inputs)) throw new TypeError(`inputs must be an array of arrays of bigints, got ${describe(inputs)}`);
  inputs.forEach((fields, k) => {
    if (!Array.isArray(fields)) throw new TypeError(`inputs[${k}] must be an array of bigints, got ${describe(fields)}`);
    fields.forEach((x, i) => check(x, i, P, `inputs[${k}]`));
  });
}

/**
 * inputs[from..to) (checked) in the wasm exports' hash_many layout: one word per
 * input (its length), then four little-endian words per element. `alloc(n)` gives
 * the n-word array to write (the module's scratch buffer, or a transferable copy).
 */
export function packInputs(inputs, from, to, alloc = (n) => new BigUint64Array(n)) {
  const count = to - from;
  let total = 0;
  for (let k = from; k < to; k++) total += inputs[k].length;
  const w = alloc(Math.max(count + 4 * total, 4 * count));
  let at = count;
  for (let k = from; k < to; k++) {
    const fields = inputs[k];
    w[k - from] = BigInt(fields.length);
    for (const x of fields) {
      put(w, at, x);
      at += 4;
    }
  }
  return w;
}

/** Elements (checked to be below p) as four words each. */
export function packElements(xs, from = 0, to = xs.length) {
  const w = new BigUint64Array(4 * (to - from));
  for (let i = from; i < to; i++) put(w, 4 * (i - from), xs[i]);
  return w;
}

// The first `count` elements of four words each.
function unpack(w, count) {
  const out = new Array(count);
  for (let k = 0; k < count; k++) out[k] = get(w, 4 * k);
  return out;
}

/** An argument check that names the argument, as the public functions' errors do. */
export function checkField(x, name) {
  if (typeof x !== "bigint" || x < 0n || x >= P) reject(x, name, P);
  return x;
}

/** The same for a boolean argument. */
export function checkBoolean(x, name) {
  if (typeof x !== "boolean") throw new TypeError(`${name} must be a boolean, got ${describe(x)}`);
  return x;
}

/** The loaded module's memory size in bytes (for the tests' leak check). */
export function memoryBytes() {
  return api().memory.buffer.byteLength;
}
