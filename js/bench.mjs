// Our package against o1js 2.15.0 in one Node process: per permutation and per hash
// of 1 and 16 elements, timed as timing.mjs describes (warm-up, alternating rounds,
// median over rounds).
//   node js/bench.mjs [--out FILE] [--rounds N]
//   (defaults: ../target/bench-report/js-report.json, 9 rounds)
import { createRequire } from "node:module";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

import { Field, Poseidon } from "o1js";

import { wasmBytes } from "./dist/wasm.js";
import { P, hash, init, permute } from "./index.js";
import { measure } from "./timing.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const outArg = process.argv.indexOf("--out");
const out = resolve(outArg > 0 ? process.argv[outArg + 1] : resolve(here, "../target/bench-report/js-report.json"));

await init();
const require = createRequire(import.meta.url);
// Not in o1js's package exports: load the file by path.
const kimchi = require(resolve(here, "node_modules/o1js/dist/node/bindings/compiled/node_bindings/kimchi_wasm.cjs"));

const roundsArg = process.argv.indexOf("--rounds");
const rounds = roundsArg > 0 ? Number(process.argv[roundsArg + 1]) : 9;
if (!(rounds >= 1)) throw new Error("--rounds takes a positive number");


const xs = Array.from({ length: 16 }, (_, i) => (BigInt(i + 1) * 0x9e3779b97f4a7c15n) ** 3n % P);
const fields = xs.map((x) => Field(x));
const le = (x) => Uint8Array.from({ length: 32 }, (_, i) => Number((x >> BigInt(8 * i)) & 0xffn));
const fromLe = (b) => b.reduceRight((acc, byte) => (acc << 8n) | BigInt(byte), 0n);
const state = [xs[0], xs[1], xs[2]];
// o1js's block cipher takes and returns canonical elements, 32 bytes little-endian each.
const bytes = new Uint8Array(96);
state.forEach((x, i) => bytes.set(le(x), 32 * i));

// Same answers first: ours, o1js's hash, o1js's block cipher.
const want = permute(state);
const got = kimchi.caml_pasta_fp_poseidon_block_cipher(bytes);
const gotState = [0, 1, 2].map((i) => fromLe(got.subarray(32 * i, 32 * i + 32)));
if (gotState.some((x, i) => x !== want[i])) throw new Error("o1js block cipher disagrees with permute");
if (Poseidon.hash([fields[0]]).toBigInt() !== hash([xs[0]])) throw new Error("o1js hash disagrees with hash");

// The wasm exports without the JavaScript wrapper, the form o1js's block cipher is
// measured in: the input prepared once outside the loop, copied into the module's
// memory on every call, the result copied out into a new array (o1js's call copies
// its 96 bytes in and returns a new Uint8Array). What the wrapper adds on top is
// checking, limb splitting and building the result's BigInts.
const { instance: raw } = await WebAssembly.instantiate(wasmBytes(), {});
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

// [workload, implementation, function, calls per timed batch]
const cases = [
  ["permutation", "ours: permute", () => permute(state), 100],
  ["permutation", "ours: the wasm export (limbs in and out, no wrapper)", rawPermute, 100],
  ["permutation", "o1js: caml_pasta_fp_poseidon_block_cipher (Rust wasm)", () => kimchi.caml_pasta_fp_poseidon_block_cipher(bytes), 50],
  ["hash of 1", "ours: hash", () => hash([xs[0]]), 100],
  ["hash of 1", "ours: the wasm export (limbs in and out, no wrapper)", rawHash, 100],
  ["hash of 1", "o1js: Poseidon.hash (JS)", () => Poseidon.hash([fields[0]]), 10],
  ["hash of 16", "ours: hash", () => hash(xs), 10],
  ["hash of 16", "o1js: Poseidon.hash (JS)", () => Poseidon.hash(fields), 2],
];
process.stderr.write(`warming up ${cases.length} cases, then ${rounds} rounds `);
const medians = measure(
  cases.map(([, , f, reps]) => [f, reps]),
  { rounds, tick: () => process.stderr.write(".") },
);
process.stderr.write("\n");
const rows = cases.map(([workload, impl], i) => [workload, impl, medians[i]]);
const ratio = (a, b) => rows[b][2] / rows[a][2];
const summary = {
  "block cipher / ours (permutation, wasm export against wasm export)": ratio(1, 2),
  "block cipher / ours (permutation, through our JavaScript wrapper)": ratio(0, 2),
  "Poseidon.hash / ours (hash of 1)": ratio(3, 5),
  "Poseidon.hash / ours (hash of 16)": ratio(6, 7),
};
const overhead = rows[3][2] - rows[4][2];
console.log(`node ${process.version}, o1js 2.15.0; per call, median over ${rounds} rounds`);
console.log("| workload | implementation | median |\n| --- | --- | --- |");
for (const [w, impl, ns] of rows) console.log(`| ${w} | ${impl} | ${(ns / 1000).toFixed(2)} µs |`);
for (const [k, v] of Object.entries(summary)) console.log(`${k}: ${v.toFixed(2)}×`);
console.log(`wrapper overhead per hash call: ${(overhead / 1000).toFixed(2)} µs (hash minus the bare export)`);
mkdirSync(dirname(out), { recursive: true });
writeFileSync(
  out,
  JSON.stringify({ env: { node: process.version, o1js: "2.15.0", date: new Date().toISOString(), rounds }, results: rows.map(([workload, implementation, median_ns]) => ({ workload, implementation, median_ns })), ratios: summary, wrapper_overhead_ns: overhead }, null, 2) + "\n",
);
console.log(`wrote ${out}`);
