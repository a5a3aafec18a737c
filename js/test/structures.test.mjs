// Salted hashes, MerkleTree, MerkleMap and IndexedMerkleMap against o1js 2.15.0 on
// seeded random data. o1js hashes with JS bigints (about 0.3 ms per permutation),
// so it computes the small cases; large cases compare our batched build with our
// own one-hash-at-a-time paths.
import assert from "node:assert/strict";
import { test } from "node:test";

import fc from "fast-check";
import * as o1js from "o1js";

import {
  IndexedMerkleMap, MerkleMap, MerkleTree, P, emptyHashWithPrefix, hash, hashWithPrefix, prefixToField, salt,
} from "../index.js";
import { initModuleUnderTest, splitmix } from "./common.mjs";
import { toO1jsIndexedMerkleMap, toO1jsMerkleMap, toO1jsMerkleTree } from "../o1js.js";

const { Core, Field, IndexedMerkleMap: O1Indexed, MerkleMap: O1Map, MerkleTree: O1Tree, Poseidon } = o1js;

await initModuleUnderTest();

const rng = (seed) => {
  const next = splitmix(seed);
  const edges = [0n, 1n, P - 1n, P - 2n, (1n << 254n) - 1n];
  return {
    element: () => (next() % 8n === 0n ? edges[Number(next() % 5n)] : ((next() << 192n) | (next() << 128n) | (next() << 64n) | next()) % P),
    below: (n) => ((next() << 192n) | (next() << 128n) | (next() << 64n) | next()) % BigInt(n),
  };
};
const F = (x) => Field(x);
const big = (f) => f.toBigInt();

// --- salted hashes ---------------------------------------------------------

test("salt equals each of o1js's 81 precomputed salt states (Core.Constants.prefixHashes)", () => {
  const table = Object.entries(Core.Constants.prefixHashes);
  assert.equal(table.length, 81);
  for (const [prefix, state] of table) assert.deepEqual(salt(prefix), state.map(BigInt), prefix);
});

test("hashWithPrefix and emptyHashWithPrefix equal o1js for each built-in prefix and 0 to 5 fields", () => {
  const r = rng(31);
  for (const prefix of Object.keys(Core.Constants.prefixHashes)) {
    const xs = Array.from({ length: prefix.length % 6 }, r.element);
    assert.equal(hashWithPrefix(prefix, xs), big(Poseidon.hashWithPrefix(prefix, xs.map(F))), prefix);
    assert.equal(emptyHashWithPrefix(prefix), BigInt(Core.Constants.prefixHashes[prefix][0]), prefix);
  }
  // o1js's trap: no fields still permutes once more.
  const p = "MinaZkappEventsEmpty";
  assert.notEqual(hashWithPrefix(p, []), emptyHashWithPrefix(p));
  assert.equal(hashWithPrefix(p, []), big(Poseidon.hashWithPrefix(p, [])));
});

test("prefixes of every length 0 to 31 equal o1js (property: random ASCII prefixes and fields)", () => {
  const r = rng(32);
  for (let len = 0; len <= 31; len++) {
    const prefix = Array.from({ length: len }, (_, i) => String.fromCharCode(Number(r.below(128)) || 65 + (i % 26))).join("");
    const xs = [r.element(), r.element()];
    assert.equal(hashWithPrefix(prefix, xs), big(Poseidon.hashWithPrefix(prefix, xs.map(F))), `length ${len}`);
  }
  fc.assert(
    fc.property(
      fc.string({ unit: fc.integer({ min: 0, max: 127 }).map((c) => String.fromCharCode(c)), maxLength: 31 }),
      fc.array(fc.bigInt({ min: 0n, max: P - 1n }), { maxLength: 5 }),
      (prefix, xs) => hashWithPrefix(prefix, xs) === big(Poseidon.hashWithPrefix(prefix, xs.map(F))),
    ),
    { numRuns: 60, seed: 2026 },
  );
  assert.equal(prefixToField("ab"), 0x6261n);
});

test("prefixes o1js rejects are rejected: 32 characters, non-ASCII, not a string", () => {
  for (const bad of ["x".repeat(32), "é", "a\u{1F600}"]) {
    assert.throws(() => Poseidon.hashWithPrefix(bad, [F(1)]));
    assert.throws(() => hashWithPrefix(bad, [1n]), RangeError);
  }
  assert.throws(() => prefixToField(5), { name: "TypeError", message: /prefix/ });
  assert.throws(() => hashWithPrefix("a", [P]), { name: "RangeError", message: /fields\[0\]/ });
  assert.throws(() => hashWithPrefix("a", [1]), { name: "TypeError", message: /fields\[0\]/ });
  assert.throws(() => hashWithPrefix("a", 1n), { name: "TypeError", message: /fields/ });
});

// --- MerkleTree ------------------------------------------------------------

// Our tree against an o1js tree: root, every stored node, witnesses of `indices`.
function sameTree(ours, theirs, indices, what) {
  assert.equal(ours.getRoot(), big(theirs.getRoot()), `${what}: root`);
  const stored = new Map();
  for (const [level, i, x] of ours.entries()) stored.set(`${level}/${i}`, x);
  let count = 0;
  for (const [level, row] of Object.entries(theirs.nodes)) {
    for (const [i, x] of Object.entries(row)) {
      count++;
      assert.equal(stored.get(`${level}/${i}`), big(x), `${what}: node ${level}/${i}`);
    }
  }
  assert.equal(stored.size, count, `${what}: the same nodes are stored`);
  for (const i of indices) {
    const want = theirs.getWitness(i).map((w) => ({ isLeft: w.isLeft, sibling: big(w.sibling) }));
    assert.deepEqual(ours.getWitness(i), want, `${what}: witness ${i}`);
  }
}

test("MerkleTree of heights 1 to 33 with random and sparse leaves equals o1js (root, nodes, witnesses)", () => {
  const r = rng(33);
  for (let h = 1; h <= 33; h++) {
    const count = 1n << BigInt(h - 1);
    const ours = new MerkleTree(h);
    const theirs = new O1Tree(h);
    const indices = [];
    for (let k = 0; k < Math.min(5, Number(count)); k++) {
      const i = k === 0 ? count - 1n : r.below(count);
      const x = r.element();
      ours.setLeaf(i, x);
      theirs.setLeaf(i, F(x));
      indices.push(i);
    }
    sameTree(ours, theirs, [...indices, 0n], `height ${h}`);
    assert.equal(ours.getNode(h - 1, 0n), ours.getRoot());
  }
});

test("MerkleTree: random setLeaf sequences with overwrites and reads in between equal o1js", () => {
  const r = rng(34);
  const ours = new MerkleTree(10);
  const theirs = new O1Tree(10);
  for (let step = 0; step < 60; step++) {
    const i = r.below(step < 30 ? 16n : 512n);
    const x = step % 7 === 0 ? 0n : r.element();
    ours.setLeaf(i, x);
    theirs.setLeaf(i, F(x));
    if (step % 9 === 0) assert.equal(ours.getRoot(), big(theirs.getRoot()), `step ${step}`);
    if (step % 13 === 0) assert.equal(ours.getNode(3, i >> 3n), big(theirs.getNode(3, i >> 3n)));
  }
  sameTree(ours, theirs, [0n, 1n, 15n, 511n], "after 60 writes");
  const copy = ours.clone();
  ours.setLeaf(3n, 5n);
  assert.equal(copy.getRoot(), big(theirs.getRoot()), "a clone does not see later writes");
});

// The root level by level with one hash call per node: no batching, no laziness.
function rootByHash(height, leaves) {
  let level = leaves;
  let zero = 0n;
  for (let h = 1; h < height; h++) {
    const up = [];
    for (let i = 0; i < Math.max(level.length, 1); i += 2) up.push(hash([level[i] ?? zero, level[i + 1] ?? zero]));
    level = up;
    zero = hash([zero, zero]);
  }
  return level[0] ?? zero;
}

test("MerkleTree.fromLeaves of 2,049 leaves (height 13) equals the root hashed one node at a time, and its witnesses recompute it", () => {
  const r = rng(35);
  const leaves = Array.from({ length: 2049 }, r.element);
  const tree = MerkleTree.fromLeaves(13, leaves);
  const root = tree.getRoot();
  assert.equal(root, rootByHash(13, leaves));
  for (const i of [0n, 1n, 1024n, 2047n, 2048n, 2049n, 4095n]) {
    let x = tree.getLeaf(i);
    for (const { isLeft, sibling } of tree.getWitness(i)) x = hash(isLeft ? [x, sibling] : [sibling, x]);
    assert.equal(x, root, `witness ${i}`);
  }
  const single = new MerkleTree(13);
  leaves.forEach((x, i) => {
    single.setLeaf(BigInt(i), x);
    if (i % 512 === 0) single.getRoot();
  });
  assert.equal(single.getRoot(), root, "setLeaf one by one, with reads in between");
});

test("MerkleTree handed to o1js (toO1jsMerkleTree) gives o1js's root and witnesses, and o1js can go on writing to it", () => {
  const r = rng(36);
  const leaves = Array.from({ length: 20 }, r.element);
  const theirs = new O1Tree(8);
  leaves.forEach((x, i) => theirs.setLeaf(BigInt(i), F(x)));
  const handed = toO1jsMerkleTree(o1js, MerkleTree.fromLeaves(8, leaves));
  assert.ok(handed instanceof O1Tree);
  sameTree(MerkleTree.fromLeaves(8, leaves), handed, [3n, 19n, 127n], "handed");
  handed.setLeaf(100n, F(7n));
  theirs.setLeaf(100n, F(7n));
  assert.equal(big(handed.getRoot()), big(theirs.getRoot()));
  class Witness extends o1js.MerkleWitness(8) {}
  assert.equal(big(new Witness(handed.getWitness(5n)).calculateRoot(F(leaves[5]))), big(theirs.getRoot()));
});

test("MerkleTree rejects bad arguments with errors that name them", () => {
  for (const h of [0, 257, -1]) assert.throws(() => new MerkleTree(h), { name: "RangeError", message: /height/ });
  for (const h of [1.5, "3", 3n, undefined]) assert.throws(() => new MerkleTree(h), { name: "TypeError", message: /height/ });
  const t = new MerkleTree(4);
  assert.throws(() => t.setLeaf(8n, 1n), { name: "RangeError", message: /index = 8/ });
  assert.throws(() => t.setLeaf(-1n, 1n), { name: "RangeError", message: /index/ });
  assert.throws(() => t.setLeaf(1, 1n), { name: "TypeError", message: /index/ });
  assert.throws(() => t.setLeaf(1n, P), { name: "RangeError", message: /leaf/ });
  assert.throws(() => t.setLeaf(1n, 1), { name: "TypeError", message: /leaf/ });
  assert.throws(() => t.getNode(4, 0n), { name: "RangeError", message: /level/ });
  assert.throws(() => t.getNode(3, 1n), { name: "RangeError", message: /index/ });
  assert.throws(() => t.getWitness(8n), { name: "RangeError", message: /index/ });
  assert.throws(() => t.fill(Array(9).fill(0n)), { name: "RangeError", message: /leaves/ });
  assert.throws(() => t.fill([1n, -1n]), { name: "RangeError", message: /leaves\[1\]/ });
  assert.throws(() => t.fill("abc"), { name: "TypeError", message: /leaves/ });
  assert.equal(t.getRoot(), rootByHash(4, []), "a rejected call changes nothing");
});

// --- MerkleMap -------------------------------------------------------------

test("MerkleMap equals o1js on random keys with updates: roots, values, witnesses", () => {
  const r = rng(37);
  const ours = new MerkleMap();
  const theirs = new O1Map();
  const keys = [0n, 1n, (1n << 254n) - 1n, ...Array.from({ length: 8 }, () => r.below(1n << 254n))];
  for (const [k, key] of [...keys, keys[3], keys[0]].entries()) {
    const value = r.element();
    ours.set(key, value);
    theirs.set(F(key), F(value));
    if (k % 4 === 0) assert.equal(ours.getRoot(), big(theirs.getRoot()), `after ${k + 1} sets`);
  }
  assert.equal(ours.getRoot(), big(theirs.getRoot()));
  for (const key of [...keys, 12345n]) {
    assert.equal(ours.get(key), big(theirs.get(F(key))));
    const w = theirs.getWitness(F(key));
    assert.deepEqual(ours.getWitness(key), { isLefts: w.isLefts.map((b) => b.toBoolean()), siblings: w.siblings.map(big) });
  }
  const entries = keys.map((k) => [k, ours.get(k)]);
  assert.equal(MerkleMap.fromEntries(entries).getRoot(), ours.getRoot(), "fromEntries");
  const handed = toO1jsMerkleMap(o1js, ours);
  assert.equal(big(handed.getRoot()), ours.getRoot());
  const [root, key] = handed.getWitness(F(keys[4])).computeRootAndKey(F(ours.get(keys[4])));
  assert.deepEqual([big(root), big(key)], [ours.getRoot(), keys[4]], "o1js's witness of the handed map");
});

test("MerkleMap rejects keys of 2^254 and above, values outside [0, p), non-bigints", () => {
  const m = new MerkleMap();
  assert.throws(() => new O1Map().set(F(1n << 254n), F(1n)));
  assert.throws(() => m.set(1n << 254n, 1n), { name: "RangeError", message: /key = .* 2\^254/ });
  assert.throws(() => m.get(P - 1n), { name: "RangeError", message: /key/ });
  assert.throws(() => m.set(P, 1n), { name: "RangeError", message: /key/ });
  assert.throws(() => m.set(1n, P), { name: "RangeError", message: /value/ });
  assert.throws(() => m.set(1, 1n), { name: "TypeError", message: /key/ });
  assert.throws(() => m.getWitness("1"), { name: "TypeError", message: /key/ });
  assert.throws(() => MerkleMap.fromEntries([[1n]]), { name: "TypeError", message: /entries/ });
  assert.equal(m.getRoot(), new MerkleMap().getRoot());
});

// --- IndexedMerkleMap ------------------------------------------------------

function sameIndexed(ours, theirs, what) {
  assert.equal(ours.getRoot(), big(theirs.root), `${what}: root`);
  assert.equal(ours.internalRoot, big(theirs._internalRoot), `${what}: internal root`);
  assert.equal(ours.length, big(theirs.length), `${what}: length`);
  const { nodes, sortedLeaves } = theirs.data.get();
  const mine = ours.data();
  assert.deepEqual(mine.sortedLeaves, sortedLeaves, `${what}: sorted leaves`);
  assert.equal(mine.nodes.length, nodes.length);
  nodes.forEach((row, level) => assert.deepEqual(Object.entries(mine.nodes[level]), Object.entries(row), `${what}: nodes at level ${level}`));
}

// The same operation on both maps: equal results, or errors on both.
function both(ours, theirs, op, key, value) {
  let want, got;
  try {
    want = theirs[op](F(key), F(value));
  } catch (e) {
    want = { error: true };
  }
  try {
    got = ours[op](key, value);
  } catch (e) {
    got = { error: true };
  }
  if (want?.error) return assert.deepEqual(got, want, `${op}(${key}): o1js throws`);
  if (op === "set" || op === "getOption") want = { isSome: want.isSome.toBoolean(), value: big(want.value) };
  else if (want !== undefined) want = big(want);
  assert.deepEqual(got, want, `${op}(${key})`);
}

test("IndexedMerkleMap of heights 2, 5 and 33 equals o1js over random insert/update/set/get sequences (roots, nodes, sorted leaves)", () => {
  const r = rng(38);
  for (const [h, steps] of [[2, 6], [5, 30], [33, 24]]) {
    class Theirs extends O1Indexed(h) {}
    const theirs = new Theirs();
    const ours = new IndexedMerkleMap(h);
    sameIndexed(ours, theirs, `height ${h}, empty`);
    const keys = [0n];
    for (let s = 0; s < steps; s++) {
      const fresh = s % 5 !== 4;
      const key = fresh ? 1n + r.below(s % 3 === 0 ? 50n : P - 1n) : keys[Number(r.below(BigInt(keys.length)))];
      const op = ["insert", "set", "insert", "update", "set", "getOption", "get"][s % 7];
      both(ours, theirs, op, key, r.element());
      if (fresh) keys.push(key);
      if (s % 6 === 5) sameIndexed(ours, theirs, `height ${h}, step ${s}`);
    }
    both(ours, theirs, "insert", keys[1], 1n); // exists
    both(ours, theirs, "insert", 0n, 1n); // key 0 always exists
    both(ours, theirs, "update", P - 1n, 1n); // absent (the key was never drawn: P−1 > 1+below(P−1))
    both(ours, theirs, "get", 424242n, 0n);
    sameIndexed(ours, theirs, `height ${h}, end`);
  }
});

test("IndexedMerkleMap handed to o1js (toO1jsIndexedMerkleMap): o1js goes on inserting and gets our roots", () => {
  class Theirs extends O1Indexed(6) {}
  const ours = new IndexedMerkleMap(6);
  for (const k of [5n, 3n, 9n]) ours.insert(k, k * 10n);
  const handed = toO1jsIndexedMerkleMap(o1js, Theirs, ours);
  sameIndexed(ours, handed, "handed");
  handed.insert(F(7n), F(70n));
  ours.insert(7n, 70n);
  handed.update(F(3n), F(31n));
  ours.update(3n, 31n);
  sameIndexed(ours, handed, "after o1js's insert and update");
  assert.throws(() => toO1jsIndexedMerkleMap(o1js, Theirs, new IndexedMerkleMap(7)), RangeError);
});

test("IndexedMerkleMap rejects bad heights and arguments; a full map rejects inserts", () => {
  for (const h of [0, 53]) assert.throws(() => new IndexedMerkleMap(h), { name: "RangeError", message: /height/ });
  assert.throws(() => new IndexedMerkleMap(2.5), { name: "TypeError", message: /height/ });
  const m = new IndexedMerkleMap(2);
  m.insert(4n, 1n);
  assert.throws(() => m.insert(5n, 1n), { name: "RangeError", message: /full/ });
  assert.throws(() => m.insert(P, 1n), { name: "RangeError", message: /key/ });
  assert.throws(() => m.insert(6n, -1n), { name: "RangeError", message: /value/ });
  assert.throws(() => m.set(6, 1n), { name: "TypeError", message: /key/ });
  assert.throws(() => m.get(3n), { message: /does not exist/ });
  assert.equal(m.length, 2n);
});

test("IndexedMerkleMap with 300 inserts equals the same map rebuilt with a root read after every insert", () => {
  const r = rng(39);
  const bulk = new IndexedMerkleMap(12);
  const stepwise = new IndexedMerkleMap(12);
  for (let i = 0; i < 300; i++) {
    const key = 1n + r.below(P - 1n);
    bulk.insert(key, BigInt(i));
    stepwise.insert(key, BigInt(i));
    stepwise.getRoot();
  }
  assert.equal(bulk.getRoot(), stepwise.getRoot());
  assert.deepEqual(bulk.data(), stepwise.data());
});

test("IndexedMerkleMap.fromEntries equals inserting the entries one by one; it rejects duplicates, key 0 and overflow", () => {
  const r = rng(40);
  const entries = Array.from({ length: 500 }, () => [1n + r.below(P - 1n), r.element()]);
  const loop = new IndexedMerkleMap(20);
  for (const [k, v] of entries) loop.insert(k, v);
  const bulk = IndexedMerkleMap.fromEntries(20, entries);
  assert.equal(bulk.getRoot(), loop.getRoot());
  assert.deepEqual(bulk.data(), loop.data());
  bulk.insert(5n, 6n);
  loop.insert(5n, 6n);
  assert.equal(bulk.getRoot(), loop.getRoot(), "and inserting goes on alike");
  class Theirs extends O1Indexed(6) {}
  const theirs = new Theirs();
  const few = entries.slice(0, 5);
  for (const [k, v] of few) theirs.insert(F(k), F(v));
  sameIndexed(IndexedMerkleMap.fromEntries(6, few), theirs, "fromEntries against o1js");
  assert.equal(IndexedMerkleMap.fromEntries(3, []).getRoot(), new IndexedMerkleMap(3).getRoot());
  assert.throws(() => IndexedMerkleMap.fromEntries(8, [[3n, 1n], [4n, 1n], [3n, 2n]]), /already exists/);
  assert.throws(() => IndexedMerkleMap.fromEntries(8, [[0n, 1n]]), /already exists/);
  assert.throws(() => IndexedMerkleMap.fromEntries(2, [[1n, 1n], [2n, 1n]]), { name: "RangeError", message: /entries/ });
  assert.throws(() => IndexedMerkleMap.fromEntries(8, [[1n, P]]), { name: "RangeError", message: /entries\[0\]\[1\]/ });
  assert.throws(() => IndexedMerkleMap.fromEntries(8, [[1n]]), { name: "TypeError", message: /entries/ });
});
