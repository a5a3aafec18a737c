// The generated FMA kernel module (the fma module's kimchi Fp permutation; `cargo run -p
// poseidon-fma-kernel`) checked against o1js's block cipher, then its single
// and pair exports timed beside the package's own `permute` export and o1js in one
// process (timing.mjs).
//   node js/bench/fma-kernel.mjs KERNEL.wasm [--package MODULE.wasm] [--against OTHER-KERNEL.wasm] [--rounds N] [--check] [--chromium]
// --against: a second kernel build (e.g. from an earlier commit) checked, then timed
// in the same process.
// The kernel permutes a state already in its Montgomery form (x·2^261 mod p in
// 52-bit limbs, as f64); the package's export also converts from and to canonical
// integers, so the kernel's figure leaves that conversion out. --check: the
// agreement only (make test). --chromium: the same inside headless Chromium
// (fma.html; KERNEL must lie inside the package directory). Needs relaxed
// SIMD with a fused multiply-add (Node 22+; Node 20 with --experimental-wasm-relaxed-simd).
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { basename, dirname, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

import { check, time } from "./fma-lib.mjs";
import { helpOnRequest } from "../dev/cli.mjs";

helpOnRequest(import.meta.url);

// The package directory (this script is one folder below it).
const pkgDir = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const args = process.argv.slice(2);
const take = (name, dflt) => {
  const i = args.indexOf(name);
  return i >= 0 ? args.splice(i, 2)[1] : dflt;
};
const rounds = Number(take("--rounds", 15));
const pkgModule = take("--package", resolve(pkgDir, "dist/poseidon-simd.wasm"));
const against = take("--against", null);
const flag = (name) => {
  const i = args.indexOf(name);
  return i >= 0 && args.splice(i, 1).length > 0;
};
const checkOnly = flag("--check");
const chromium = flag("--chromium");
const [kernelFile] = args;
if (!kernelFile || !(rounds >= 1) || args.length > 1 || (against && chromium)) {
  console.error("usage: node js/bench/fma-kernel.mjs KERNEL.wasm [--package MODULE.wasm] [--against OTHER-KERNEL.wasm] [--rounds N] [--check] [--chromium]\n  (--against: another build's two exports timed in the same process, Node only)");
  process.exit(2);
}
const kernelNames = (f) => [`${basename(f)} fma_permute`, `${basename(f)} fma_permute2 (per state)`];
const names = [...kernelNames(kernelFile), ...(against ? kernelNames(against) : []), `${basename(pkgModule)} permute`, "o1js block cipher"];
const print = (engine, med) => {
  console.log(`${engine}; µs per permutation, median over ${rounds} rounds`);
  const o1js = med[names.length - 1];
  names.forEach((name, i) => console.log(`${name.padEnd(44)} ${(med[i] / 1000).toFixed(2).padStart(8)} µs   o1js / this: ${(o1js / med[i]).toFixed(3)}×   single / this: ${(med[0] / med[i]).toFixed(3)}×`));
};

if (chromium) {
  const { runPage } = await import("../dev/browser-server.mjs");
  const rel = (f) => relative(pkgDir, resolve(f));
  if ([kernelFile, pkgModule].some((f) => rel(f).startsWith(".."))) {
    console.error("--chromium: KERNEL and --package must lie inside the package directory (the page server's root)");
    process.exit(2);
  }
  const page = `bench/fma.html?kernel=${encodeURIComponent(rel(kernelFile))}&package=${encodeURIComponent(rel(pkgModule))}&rounds=${rounds}&check=${checkOnly ? 1 : 0}`;
  const got = await runPage(page, { timeoutMs: 600_000 });
  if (got.error) {
    console.error(`the page failed: ${got.error}`);
    process.exit(1);
  }
  console.log(`${basename(kernelFile)}: ${got.tried - got.failed} of ${got.tried} checks agree with o1js's block cipher (${got.userAgent})`);
  console.log(`${got.tried - got.failed} passed, ${got.failed} failed`);
  if (got.failed) process.exit(1);
  if (!checkOnly) print(got.userAgent, got.medians);
  process.exit(0);
}

const require = createRequire(import.meta.url);
const kimchi = require(resolve(pkgDir, "node_modules/o1js/dist/node/bindings/compiled/node_bindings/kimchi_wasm.cjs"));
const blockCipher = (bytes) => kimchi.caml_pasta_fp_poseidon_block_cipher(bytes);
const { instance } = await WebAssembly.instantiate(readFileSync(kernelFile), {});
const { failures, tried } = check(instance.exports, blockCipher);
for (const f of failures) console.log(`FAIL  ${f.export}, state ${f.state.map((x) => x.toString(16)).join(", ")}: kernel ${f.got}, o1js ${f.want}`);
console.log(`${basename(kernelFile)}: ${tried - failures.length} of ${tried} checks agree with o1js's block cipher (node ${process.version})`);
console.log(`${tried - failures.length} passed, ${failures.length} failed`);
if (failures.length) process.exit(1);
if (checkOnly) process.exit(0);

const kernels = [instance.exports];
if (against) {
  const { instance: other } = await WebAssembly.instantiate(readFileSync(against), {});
  const { failures } = check(other.exports, blockCipher);
  if (failures.length) {
    console.log(`${basename(against)}: ${failures.length} checks disagree with o1js's block cipher`);
    process.exit(1);
  }
  kernels.push(other.exports);
}
const { instance: pkg } = await WebAssembly.instantiate(readFileSync(pkgModule), {});
process.stderr.write(`timing: ${rounds} rounds\n`);
print(`node ${process.version}`, time(kernels, pkg.exports, blockCipher, rounds));
