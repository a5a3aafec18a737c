// Compares builds of the package's wasm module with each other and with o1js's
// Rust wasm block cipher, in one Node process: the raw `permute` export of each
// module (input already in its buffer) against `caml_pasta_fp_poseidon_block_cipher`.
// Timed as timing.mjs describes (warm-up, alternating rounds, median over rounds).
// Each module's result is checked against o1js first. For trying a change to the
// arithmetic: build, copy the module aside, change, build again, compare.
//   node js/bench/compare.mjs A.wasm [B.wasm ...] [--rounds N] [--batch]   (default 15 rounds)
//   --batch: also each module's raw hash_many export on 64 pairs, per hash, beside
//   its permute export (first checked against permute)
//   (modules: target/wasm32-unknown-unknown/release/poseidon_js.wasm after
//    `cargo build --release -p poseidon-js --target wasm32-unknown-unknown`)
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { basename, dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

import { measure } from "./timing.mjs";
import { helpOnRequest } from "../dev/cli.mjs";

helpOnRequest(import.meta.url);

// The package directory (this script is one folder below it).
const pkg = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const args = process.argv.slice(2);
const at = args.indexOf("--rounds");
const rounds = at >= 0 ? Number(args.splice(at, 2)[1]) : 15;
const batchAt = args.indexOf("--batch");
const batch = batchAt >= 0 && args.splice(batchAt, 1).length > 0;
if (args.length === 0 || !(rounds >= 1)) {
  console.error("usage: node js/bench/compare.mjs A.wasm [B.wasm ...] [--rounds N] [--batch]");
  process.exit(2);
}
const require = createRequire(import.meta.url);
const kimchi = require(resolve(pkg, "node_modules/o1js/dist/node/bindings/compiled/node_bindings/kimchi_wasm.cjs"));

const P = 2n ** 254n + 45560315531419706090280762371685220353n;
const xs = [1n, 2n, 3n].map((i) => (i * 0x9e3779b97f4a7c15n) ** 3n % P);
const bytes = new Uint8Array(96);
xs.forEach((x, i) => bytes.set(Uint8Array.from({ length: 32 }, (_, b) => Number((x >> BigInt(8 * b)) & 0xffn)), 32 * i));
const want = kimchi.caml_pasta_fp_poseidon_block_cipher(bytes);

// --batch: 64 pairs of elements, as 64-bit words (4 per element).
const PAIRS = 64;
const pairWords = Array.from({ length: 2 * PAIRS }, (_, i) => ((BigInt(i) + 7n) * 0x9e3779b97f4a7c15n) ** 3n % P).flatMap((x) =>
  [0n, 64n, 128n, 192n].map((s) => (x >> s) & ((1n << 64n) - 1n)),
);
const batches = [];
const cases = [];
for (const file of args) {
  const { instance } = await WebAssembly.instantiate(readFileSync(file), {});
  const e = instance.exports;
  const ptr = e.buffer(12);
  new Uint8Array(e.memory.buffer, ptr, 96).set(bytes);
  if (e.permute(0) !== 0) throw new Error(`${file}: permute failed`);
  const got = new Uint8Array(e.memory.buffer, ptr, 96);
  if (got.some((b, i) => b !== want[i])) throw new Error(`${file}: disagrees with o1js's block cipher`);
  cases.push([basename(file), () => e.permute(0)]); // permutes its own output from here on
  if (batch) {
    // The raw hash_many export on a Merkle level of 64 pairs, refilled before each
    // call (the refill timed alone too and subtracted). Its first digest must be
    // element 0 of the permuted state [a, b, 0] (kimchi's sponge).
    const fill = () => {
      const w = new BigUint64Array(e.memory.buffer, e.buffer(PAIRS * 9), PAIRS * 9);
      w.fill(2n, 0, PAIRS);
      pairWords.forEach((x, i) => (w[PAIRS + i] = x));
    };
    const state = new BigUint64Array(e.memory.buffer, e.buffer(12), 12);
    state.set([...pairWords.slice(0, 8), 0n, 0n, 0n, 0n]);
    if (e.permute(0) !== 0) throw new Error(`${file}: permute failed`);
    const digest = new BigUint64Array(e.memory.buffer, e.buffer(12), 4).slice();
    fill();
    if (e.hash_many(0, PAIRS) !== 0) throw new Error(`${file}: hash_many failed`);
    const first = new BigUint64Array(e.memory.buffer, e.buffer(4 * PAIRS), 4);
    if (first.some((w, i) => w !== digest[i])) throw new Error(`${file}: hash_many disagrees with permute`);
    batches.push(cases.length);
    cases.push([`${basename(file)} refill`, fill], [`${basename(file)} hash_many`, () => (fill(), e.hash_many(0, PAIRS))]);
  }
}
cases.push(["o1js block cipher", () => kimchi.caml_pasta_fp_poseidon_block_cipher(bytes)]);

const medians = measure(cases.map(([, f]) => [f, 100]), { rounds });
const o1js = medians.at(-1);
console.log(`node ${process.version}; permutation, median over ${rounds} rounds`);
cases.forEach(([name], i) => {
  if (batches.some((b) => i === b || i === b + 1)) return;
  const m = medians[i];
  console.log(`${name.padEnd(24)} ${(m / 1000).toFixed(2).padStart(8)} µs   o1js / this: ${(o1js / m).toFixed(3)}×`);
});
for (const b of batches) {
  const perHash = (medians[b + 1] - medians[b]) / PAIRS;
  const name = cases[b + 1][0];
  console.log(`${name.padEnd(24)} ${(perHash / 1000).toFixed(2).padStart(8)} µs per hash of ${PAIRS}   permute / this: ${(medians[b - 1] / perHash).toFixed(3)}×`);
}
