// The cases of the JavaScript comparison with o1js, shared by the Node benchmark
// (bench.mjs) and the browser one (bench.html): our permutation and hashes
// beside o1js's Rust-wasm block cipher and its JS Poseidon.hash, after checking that
// all of them agree on the inputs used.
import { P, hash, hashMany, init, moduleBytes, permute } from "../index.js";

export const O1JS_VERSION = "2.15.0";

// o1js: the module (Field, Poseidon); blockCipher: its wasm-bindgen function
// caml_pasta_fp_poseidon_block_cipher (96 bytes in, 96 out). Returns the cases as
// [workload, implementation, function, calls per timed batch].
// module: which of the package's modules runs "ours" (default: the best supported).
export async function makeCases({ Field, Poseidon }, blockCipher, module) {
  await init(module ? { module } : undefined);
  const xs = Array.from({ length: 16 }, (_, i) => (BigInt(i + 1) * 0x9e3779b97f4a7c15n) ** 3n % P);
  const fields = xs.map((x) => Field(x));
  const le = (x) => Uint8Array.from({ length: 32 }, (_, i) => Number((x >> BigInt(8 * i)) & 0xffn));
  const fromLe = (b) => b.reduceRight((acc, byte) => (acc << 8n) | BigInt(byte), 0n);
  const state = [xs[0], xs[1], xs[2]];
  // o1js's block cipher takes and returns canonical elements, 32 bytes little-endian each.
  const bytes = new Uint8Array(96);
  state.forEach((x, i) => bytes.set(le(x), 32 * i));

  const want = permute(state);
  const got = blockCipher(bytes);
  const gotState = [0, 1, 2].map((i) => fromLe(got.subarray(32 * i, 32 * i + 32)));
  if (gotState.some((x, i) => x !== want[i])) throw new Error("o1js block cipher disagrees with permute");
  if (Poseidon.hash([fields[0]]).toBigInt() !== hash([xs[0]])) throw new Error("o1js hash disagrees with hash");
  if (Poseidon.hash(fields).toBigInt() !== hash(xs)) throw new Error("o1js hash of 16 disagrees with hash");

  // The wasm exports without the JavaScript wrapper, the form o1js's block cipher is
  // measured in: input prepared once, copied into the module's memory on every call,
  // the result copied out into a new array (as o1js's call does with its 96 bytes).
  const { instance: raw } = await WebAssembly.instantiate(moduleBytes(), {});
  const words64 = (x) => [0n, 64n, 128n, 192n].map((k) => (x >> k) & ((1n << 64n) - 1n));
  const limbs = BigUint64Array.from(words64(xs[0]));
  const stateLimbs = BigUint64Array.from(state.flatMap(words64));
  const rawHash = () => {
    const ptr = raw.exports.buffer(4);
    new BigUint64Array(raw.exports.memory.buffer, ptr, 4).set(limbs);
    raw.exports.hash(0, 1);
    return new BigUint64Array(raw.exports.memory.buffer, ptr, 4).slice();
  };
  const rawPermute = () => {
    const ptr = raw.exports.buffer(12);
    new BigUint64Array(raw.exports.memory.buffer, ptr, 12).set(stateLimbs);
    raw.exports.permute(0);
    return new BigUint64Array(raw.exports.memory.buffer, ptr, 12).slice();
  };
  if (rawPermute().some((w, i) => w !== words64(want[Math.floor(i / 4)])[i % 4])) throw new Error("raw permute disagrees");
  // A Merkle tree level: 64 hashes of two children, one call (the simd module runs
  // them four at a time in lanes) against 64 calls.
  const pairs = Array.from({ length: 64 }, (_, i) => [xs[i % 16], xs[(i * 7 + 3) % 16]]);
  const level = hashMany(pairs);
  for (const i of [0, 1, 2, 3, 4, 63]) {
    if (level[i] !== Poseidon.hash(pairs[i].map((x) => Field(x))).toBigInt()) throw new Error("o1js hash disagrees with hashMany");
  }

  return [
    ["permutation", "ours: permute", () => permute(state), 100],
    ["permutation", "ours: the wasm export (limbs in and out, no wrapper)", rawPermute, 100],
    ["permutation", "o1js: caml_pasta_fp_poseidon_block_cipher (Rust wasm)", () => blockCipher(bytes), 50],
    ["hash of 1", "ours: hash", () => hash([xs[0]]), 100],
    ["hash of 1", "ours: the wasm export (limbs in and out, no wrapper)", rawHash, 100],
    ["hash of 1", "o1js: Poseidon.hash (JS)", () => Poseidon.hash([fields[0]]), 10],
    ["hash of 16", "ours: hash", () => hash(xs), 10],
    ["hash of 16", "o1js: Poseidon.hash (JS)", () => Poseidon.hash(fields), 2],
    ["64 hashes of 2 (a Merkle level)", "ours: hashMany", () => hashMany(pairs), 2],
    ["64 hashes of 2 (a Merkle level)", "ours: hash, 64 calls", () => pairs.map(hash), 2],
  ];
}

// The ratio of 64 single hash calls to one hashMany of the same 64 pairs.
const BATCH = "64 hash calls / one hashMany (the batch path)";

// rows: [workload, implementation, median ns] in the order of makeCases.
export function summarize(rows) {
  const ratio = (a, b) => rows[b][2] / rows[a][2];
  return {
    ratios: {
      "block cipher / ours (permutation, wasm export against wasm export)": ratio(1, 2),
      "block cipher / ours (permutation, through our JavaScript wrapper)": ratio(0, 2),
      "Poseidon.hash / ours (hash of 1)": ratio(3, 5),
      "Poseidon.hash / ours (hash of 16)": ratio(6, 7),
      [BATCH]: ratio(8, 9),
    },
    wrapper_overhead_ns: rows[3][2] - rows[4][2],
  };
}

// The report of one runtime: env, rows, ratios; and its text.
export function report(env, rows) {
  const { ratios, wrapper_overhead_ns } = summarize(rows);
  // A batch far slower than as many single calls is not the engine's normal speed:
  // seen in Firefox on an Intel VM, where SpiderMonkey's mix of SSE and AVX
  // encodings meets a dirty upper register state (docs/experiments/wasm.md).
  const batch = ratios[BATCH];
  const warnings =
    batch < 0.5
      ? [`the batch path took ${(1 / batch).toFixed(1)}× as long as 64 single calls: not this engine's normal speed (see "Firefox's four-lane batches" in docs/experiments/wasm.md)`]
      : [];
  const results = rows.map(([workload, implementation, median_ns]) => ({ workload, implementation, median_ns }));
  const lines = [`${env.runtime}: ${env.engine}, module ${env.module}, o1js ${O1JS_VERSION}; per call, median over ${env.rounds} rounds`];
  lines.push("| workload | implementation | median |", "| --- | --- | --- |");
  for (const [w, impl, ns] of rows) lines.push(`| ${w} | ${impl} | ${(ns / 1000).toFixed(2)} µs |`);
  for (const [k, v] of Object.entries(ratios)) lines.push(`${k}: ${v.toFixed(2)}×`);
  lines.push(`wrapper overhead per hash call: ${(wrapper_overhead_ns / 1000).toFixed(2)} µs (hash minus the bare export)`);
  for (const w of warnings) lines.push(`warning: ${w}`);
  return { json: { env: { ...env, o1js: O1JS_VERSION }, results, ratios, wrapper_overhead_ns, warnings }, text: lines.join("\n") };
}
