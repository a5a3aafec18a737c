// Cross-check against the real peer: o1js 2.15.0's `Poseidon.hash` (a dev dependency).
import assert from "node:assert/strict";
import { test } from "node:test";

import { P, Q, hash, hashFq, hashLegacy, hashMany, moduleBytes, permute } from "../index.js";
import { PoseidonLegacy, blockFp, blockFq, hashFp as o1, sponge } from "./o1js-ref.mjs";
import { initModuleUnderTest, join, splitmix, words } from "./common.mjs";

await initModuleUnderTest();

// The module's exports over Fq (kind 1), which the package's API does not offer: a
// second instance of the module under test, its buffer written and read as core.js
// does (asking for the buffer may grow the memory: take e.memory.buffer after it).
const rawFq = await (async () => {
  const { instance } = await WebAssembly.instantiate(moduleBytes(), {});
  const e = instance.exports;
  const read = (n) => {
    const out = new BigUint64Array(e.memory.buffer, e.buffer(0), 4 * n);
    return Array.from({ length: n }, (_, i) => join(out.slice(4 * i, 4 * i + 4)));
  };
  return {
    permute(s) {
      const at = e.buffer(12);
      new BigUint64Array(e.memory.buffer, at, 12).set(s.flatMap(words));
      assert.equal(e.permute(1), 0);
      return read(3);
    },
    hashMany(pairs) {
      const n = pairs.length;
      const at = e.buffer(9 * n);
      const w = new BigUint64Array(e.memory.buffer, at, 9 * n);
      w.fill(2n, 0, n);
      pairs.flat().forEach((x, i) => w.set(words(x), n + 4 * i));
      assert.equal(e.hash_many(1, n), 0);
      return read(n);
    },
  };
})();

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

test("hashLegacy equals o1js's PoseidonLegacy.hash on 300 seeded random inputs of lengths 0 to 20 and on edge values", () => {
  for (const xs of randomInputs(300, 63)) assert.equal(hashLegacy(xs), PoseidonLegacy.hash(xs), `length ${xs.length}`);
  const edges = [0n, 1n, P - 1n, P - 2n, (1n << 254n) - 1n];
  for (const a of edges) for (const b of edges) assert.equal(hashLegacy([a, b]), PoseidonLegacy.hash([a, b]));
  assert.equal(hashLegacy([]), PoseidonLegacy.hash([]));
});

test("permute equals o1js's Rust wasm block cipher on 200 seeded random states", () => {
  const states = randomInputs(400, 99).filter((x) => x.length >= 3).slice(0, 200).map((x) => x.slice(0, 3));
  states.push([0n, 0n, 0n], [P - 1n, P - 1n, P - 1n]);
  for (const s of states) assert.deepEqual(permute(s), blockFp(s));
});

test("Fq: hashFq, the raw permute and hash_many (batches of 1 to 9 and 64) equal o1js's Fq block cipher", () => {
  const block = { fp: sponge(P, blockFp), fq: sponge(Q, blockFq) };
  const next = splitmix(41);
  const edges = [0n, 1n, 2n, Q - 1n, Q - 2n, P - 1n, (1n << 254n) - 1n].map((x) => x % Q);
  const element = (i) => (i % 3 === 2 ? edges[i % edges.length] : ((next() << 192n) | (next() << 128n) | (next() << 64n) | next()) % Q);
  // The sponge itself, on Fp against Poseidon.hash.
  for (let n = 0; n <= 7; n++) {
    const xs = Array.from({ length: n }, (_, i) => element(i) % P);
    assert.equal(block.fp(xs), o1(xs), `Fp sponge, length ${n}`);
  }
  for (let k = 0; k < 60; k++) {
    const xs = Array.from({ length: k % 8 }, (_, i) => element(k + i));
    assert.equal(hashFq(xs), block.fq(xs), `hashFq, length ${xs.length}`);
  }
  for (const a of edges) for (const b of edges) assert.equal(hashFq([a, b]), block.fq([a, b]));
  // The raw permute over Fq on full states, edges included.
  for (const s of [[Q - 1n, Q - 1n, Q - 1n], [0n, 1n, Q - 2n], ...Array.from({ length: 20 }, (_, i) => [0, 1, 2].map((j) => element(3 * i + j)))]) {
    assert.deepEqual(rawFq.permute(s), blockFq(s));
  }
  for (const n of [1, 2, 3, 4, 5, 6, 7, 8, 9, 64]) {
    const pairs = Array.from({ length: n }, (_, i) => [element(2 * i), element(2 * i + 1)]);
    assert.deepEqual(rawFq.hashMany(pairs), pairs.map(block.fq), `batch of ${n}`);
  }
});

// Chains: each output is the next input, so 10,000 steps are 10,000 unrelated
// states for the arithmetic (carries, reductions) and one wrong bit anywhere stays.
test("chains of 10,000 permutations equal o1js's block ciphers step by step: permute (Fp), the raw permute (Fq), hashMany and hash_many of pairs", () => {
  const STEPS = 10000;
  let ours = [P - 1n, P - 2n, 0n];
  let theirs = ours;
  for (let i = 0; i < STEPS; i++) {
    ours = permute(ours);
    theirs = blockFp(theirs);
    if (ours.some((x, j) => x !== theirs[j])) assert.deepEqual(ours, theirs, `Fp permute, step ${i + 1}`);
  }
  ours = [Q - 1n, Q - 2n, 0n];
  theirs = ours;
  for (let i = 0; i < STEPS; i++) {
    ours = rawFq.permute(ours);
    theirs = blockFq(theirs);
    if (ours.some((x, j) => x !== theirs[j])) assert.deepEqual(ours, theirs, `Fq permute, step ${i + 1}`);
  }
  // Batches of five pairs (two lane pairs or a four-lane group, and a last odd one),
  // each level's five digests and their sum making the next level's ten inputs.
  const level = (digests, modulus) => {
    const sum = digests.reduce((a, b) => a + b, 0n) % modulus;
    return digests.map((d, i) => [d, (sum + BigInt(i)) % modulus]);
  };
  for (const [name, modulus, many, block] of [
    ["Fp hashMany", P, hashMany, sponge(P, blockFp)],
    ["Fq hash_many", Q, rawFq.hashMany, sponge(Q, blockFq)],
  ]) {
    let pairs = level([0n, 1n, modulus - 1n, modulus - 2n, 2n], modulus);
    for (let i = 0; i < STEPS / 5; i++) {
      const got = many(pairs);
      const want = pairs.map(block);
      if (got.some((x, j) => x !== want[j])) assert.deepEqual(got, want, `${name}, level ${i + 1}`);
      pairs = level(got, modulus);
    }
  }
});
