// Compares builds of the package's wasm module with each other and with o1js's
// Rust wasm block cipher, in one Node process: the raw `permute` export of each
// module (input already in its buffer) against `caml_pasta_fp_poseidon_block_cipher`.
// Timed as timing.mjs describes (warm-up, alternating rounds, median over rounds).
// Each module's result is checked against o1js first. For trying a change to the
// arithmetic: build, copy the module aside, change, build again, compare.
//   node js/compare.mjs A.wasm [B.wasm ...] [--rounds N]      (default 15 rounds)
//   (modules: target/wasm32-unknown-unknown/release/poseidon_js.wasm after
//    `cargo build --release -p poseidon-js --target wasm32-unknown-unknown`)
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { basename, dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

import { measure } from "./timing.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const at = args.indexOf("--rounds");
const rounds = at >= 0 ? Number(args.splice(at, 2)[1]) : 15;
if (args.length === 0 || !(rounds >= 1)) {
  console.error("usage: node js/compare.mjs A.wasm [B.wasm ...] [--rounds N]");
  process.exit(2);
}
const require = createRequire(import.meta.url);
const kimchi = require(resolve(here, "node_modules/o1js/dist/node/bindings/compiled/node_bindings/kimchi_wasm.cjs"));

const P = 2n ** 254n + 45560315531419706090280762371685220353n;
const xs = [1n, 2n, 3n].map((i) => (i * 0x9e3779b97f4a7c15n) ** 3n % P);
const bytes = new Uint8Array(96);
xs.forEach((x, i) => bytes.set(Uint8Array.from({ length: 32 }, (_, b) => Number((x >> BigInt(8 * b)) & 0xffn)), 32 * i));
const want = kimchi.caml_pasta_fp_poseidon_block_cipher(bytes);

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
}
cases.push(["o1js block cipher", () => kimchi.caml_pasta_fp_poseidon_block_cipher(bytes)]);

const medians = measure(cases.map(([, f]) => [f, 100]), { rounds });
const o1js = medians.at(-1);
console.log(`node ${process.version}; permutation, median over ${rounds} rounds`);
cases.forEach(([name], i) => {
  const m = medians[i];
  console.log(`${name.padEnd(24)} ${(m / 1000).toFixed(2).padStart(8)} µs   o1js / this: ${(o1js / m).toFixed(3)}×`);
});
