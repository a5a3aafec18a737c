// Cross-check against the real peer: o1js 2.15.0's `Poseidon.hash` (a dev dependency).
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { test } from "node:test";

import { Field, Poseidon } from "o1js";

import { P, hash, hashMany, permute } from "../index.js";
import { initModuleUnderTest, splitmix } from "./common.mjs";

await initModuleUnderTest();

const o1 = (xs) => Poseidon.hash(xs.map((x) => Field(x))).toBigInt();


function randomInputs(count, seed) {
  const next = splitmix(seed);
  const element = () => ((next() << 192n) | (next() << 128n) | (next() << 64n) | next()) % P;
  return Array.from({ length: count }, () => Array.from({ length: Number(next() % 21n) }, element));
}

test("equals o1js Poseidon.hash on 1,000 seeded random inputs of lengths 0 to 20", () => {
  const inputs = randomInputs(1000, 2026);
  const lengths = new Set(inputs.map((x) => x.length));
  assert.equal(lengths.size, 21, "every length 0..20 occurs");
  for (const xs of inputs) assert.equal(hash(xs), o1(xs), `length ${xs.length}`);
});

test("equals o1js on edge values", () => {
  const edges = [0n, 1n, 2n, P - 1n, P - 2n, (P - 1n) / 2n, 1n << 64n, (1n << 128n) - 1n, 1n << 253n, (1n << 254n) - 1n];
  for (const a of edges) {
    assert.equal(hash([a]), o1([a]));
    for (const b of edges) assert.equal(hash([a, b]), o1([a, b]));
  }
  assert.equal(hash(edges), o1(edges));
  assert.equal(hash([]), o1([]));
});

test("hashMany equals o1js input by input", () => {
  const inputs = randomInputs(100, 7);
  assert.deepEqual(hashMany(inputs), inputs.map(o1));
});

test("hashMany of Merkle levels (pairs) equals o1js at every batch size 1 to 17 and 64", () => {
  // The simd module hashes four at a time in lanes: every lane and every remainder.
  const next = splitmix(5);
  const edges = [0n, 1n, P - 1n, P - 2n, (1n << 254n) - 1n];
  const element = (i) => (i % 5 === 4 ? edges[i % edges.length] : ((next() << 192n) | (next() << 128n) | next()) % P);
  for (const n of [...Array.from({ length: 17 }, (_, i) => i + 1), 64]) {
    const pairs = Array.from({ length: n }, (_, i) => [element(2 * i), element(2 * i + 1)]);
    assert.deepEqual(hashMany(pairs), pairs.map(o1), `batch of ${n}`);
  }
});

test("permute equals o1js's Rust wasm block cipher on 200 seeded random states", () => {
  // Not in o1js's package exports: load the file by path.
  const require = createRequire(import.meta.url);
  const kimchi = require(new URL("../node_modules/o1js/dist/node/bindings/compiled/node_bindings/kimchi_wasm.cjs", import.meta.url).pathname);
  const le = (x) => Uint8Array.from({ length: 32 }, (_, i) => Number((x >> BigInt(8 * i)) & 0xffn));
  const fromLe = (b) => b.reduceRight((acc, byte) => (acc << 8n) | BigInt(byte), 0n);
  const states = randomInputs(400, 99).filter((x) => x.length >= 3).slice(0, 200).map((x) => x.slice(0, 3));
  states.push([0n, 0n, 0n], [P - 1n, P - 1n, P - 1n]);
  for (const s of states) {
    const bytes = new Uint8Array(96);
    s.forEach((x, i) => bytes.set(le(x), 32 * i));
    const got = kimchi.caml_pasta_fp_poseidon_block_cipher(bytes);
    assert.deepEqual(permute(s), [0, 1, 2].map((i) => fromLe(got.subarray(32 * i, 32 * i + 32))));
  }
});
