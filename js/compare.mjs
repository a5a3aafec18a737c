// Compares builds of the package's wasm module with each other and with o1js's
// Rust wasm block cipher, in one Node process: the raw `permute` export of each
// module (input already in its buffer) against `caml_pasta_fp_poseidon_block_cipher`.
// Everything is warmed up first, then measured in rounds that take each in turn;
// per round the median of timed batches, reported the median over rounds. Each
// module's result is checked against o1js first. For trying a change to the
// arithmetic: build, copy the module aside, change, build again, compare.
//   node js/compare.mjs A.wasm [B.wasm ...] [--rounds N]      (default 15 rounds)
//   (modules: target/wasm32-unknown-unknown/release/poseidon_js.wasm after
//    `cargo build --release -p poseidon-js --target wasm32-unknown-unknown`)
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { basename, dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

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

const mid = (t) => [...t].sort((a, b) => a - b)[t.length >> 1];
function batchMedian(f, reps = 100, batches = 15) {
  const t = [];
  for (let b = 0; b < batches; b++) {
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < reps; i++) f();
    t.push(Number(process.hrtime.bigint() - t0) / reps);
  }
  return mid(t);
}
for (const [, f] of cases) {
  const until = performance.now() + 500;
  while (performance.now() < until) f();
}
const samples = cases.map(() => []);
for (let r = 0; r < rounds; r++) cases.forEach(([, f], i) => samples[i].push(batchMedian(f)));
const o1js = mid(samples.at(-1));
console.log(`node ${process.version}; permutation, median over ${rounds} rounds`);
cases.forEach(([name], i) => {
  const m = mid(samples[i]);
  console.log(`${name.padEnd(24)} ${(m / 1000).toFixed(2).padStart(8)} µs   o1js / this: ${(o1js / m).toFixed(3)}×`);
});
