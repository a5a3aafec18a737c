// The package against Mina's published vectors (the files `poseidon check` reads),
// input checking, and the batch form.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

import { MODULES, P, Q, backend, hash, hashFq, hashLegacy, hashMany, permute, supported } from "../index.js";
import { initModuleUnderTest } from "./common.mjs";

const module = process.env.POSEIDON_MODULE;
await initModuleUnderTest();

// Mina's vectors: 32-byte little-endian hex.
const fromHex = (h) => BigInt("0x0" + (h.match(/../g) ?? []).reverse().join(""));
// The vector files: $POSEIDON_VECTORS (the scripts test a copy of the package under
// target/), else the repository's poseidon/tests/data.
const dataDir = process.env.POSEIDON_VECTORS ?? fileURLToPath(new URL("../../poseidon/tests/data", import.meta.url));
const vectors = (name) => JSON.parse(readFileSync(join(dataDir, `${name}.json`))).test_vectors;

test("init loads the module asked for, or the best supported one", () => {
  const runs = supported();
  assert.ok(runs.includes("scalar") && runs.includes("simd"), `every engine we test has SIMD: ${runs}`);
  assert.deepEqual(runs, MODULES.filter((m) => runs.includes(m)), "best first");
  // Node 22 and older (V8 12, TurboFan) get simd rather than fma.
  const turbofan = Number(process.versions.v8.split(".")[0]) < 13;
  assert.equal(backend(), module ?? (runs[0] === "fma" && turbofan ? "simd" : runs[0]));
});

test("init rejects a module the engine cannot run, or that does not exist", async () => {
  // A fresh instance of the module state (core.js holds it).
  const { init: fresh } = await import(`../core.js?fresh=${Date.now()}`);
  await assert.rejects(fresh({ module: "fast" }), /no module "fast"/);
  if (!supported().includes("wide")) {
    await assert.rejects(fresh({ module: "wide" }), /cannot run the "wide" module/);
  }
});

test("a second init keeps the loaded module; one asking for another module replaces it", async () => {
  const core = await import(`../core.js?again=${Date.now()}`);
  const runs = core.supported();
  await core.init({ module: "scalar" });
  const want = core.hash([1n, 2n]);
  await core.init();
  assert.equal(core.backend(), "scalar", "init() without arguments keeps the module");
  const other = runs.find((m) => m !== "scalar");
  await core.init({ module: other });
  assert.equal(core.backend(), other);
  assert.equal(core.hash([1n, 2n]), want);
  await core.init({ module: other });
  assert.equal(core.backend(), other);
  const bytes = core.moduleBytes();
  await core.init(bytes);
  assert.equal(core.backend(), "custom");
  assert.equal(core.hash([1n, 2n]), want);
});

test("every module this engine runs exports the same names: the package's, no kernel's", async () => {
  const exports = [];
  for (const m of supported()) {
    const { wasmBytes } = await import(`../dist/wasm-${m}.js`);
    const names = WebAssembly.Module.exports(new WebAssembly.Module(wasmBytes())).map((e) => e.name);
    exports.push([m, names.sort().join(" ")]);
  }
  assert.ok(exports[0][1].split(" ").includes("hash_many"), exports[0][1]);
  for (const [m, names] of exports) assert.equal(names, exports[0][1], `${m} against ${exports[0][0]}`);
});

test("kimchi vectors", () => {
  for (const v of vectors("kimchi")) {
    assert.equal(hash(v.input.map(fromHex)), fromHex(v.output));
  }
});

test("legacy vectors", () => {
  for (const v of vectors("legacy")) {
    assert.equal(hashLegacy(v.input.map(fromHex)), fromHex(v.output));
  }
});

test("hashMany equals hash, on inputs of lengths 0 to 20", () => {
  const inputs = vectors("kimchi").map((v) => v.input.map(fromHex));
  for (let n = 0; n <= 20; n++) inputs.push(Array.from({ length: n }, (_, i) => (BigInt(i) * 0x9e3779b97f4a7c15n) % P));
  assert.deepEqual(hashMany(inputs), inputs.map(hash));
  assert.deepEqual(hashMany([]), []);
});

test("permute is the permutation behind hash", () => {
  // hash([]) is the first element of the permutation of the zero state.
  assert.equal(permute([0n, 0n, 0n])[0], hash([]));
  // hash([a, b]) permutes [a, b, 0].
  const [a, b] = [123n, P - 1n];
  assert.equal(permute([a, b, 0n])[0], hash([a, b]));
});

test("Fq differs from Fp and accepts values up to q − 1", () => {
  assert.notEqual(hashFq([1n]), hash([1n]));
  assert.equal(typeof hashFq([Q - 1n]), "bigint");
});

test("values outside [0, p) throw a RangeError naming them", () => {
  assert.throws(() => hash([1n, P]), (e) => e instanceof RangeError && e.message.includes("fields[1]") && e.message.includes(String(P)));
  assert.throws(() => hash([-1n]), RangeError);
  assert.throws(() => hashFq([Q]), RangeError);
  assert.throws(() => permute([0n, 0n, P + 5n]), (e) => e instanceof RangeError && e.message.includes("state[2]"));
  assert.throws(() => hashMany([[1n], [2n, P]]), (e) => e instanceof RangeError && e.message.includes("inputs[1][1]"));
  assert.throws(() => hash([1]), TypeError);
  assert.throws(() => permute([1n, 2n]), RangeError);
});
