// Checking witnesses and what OffchainState's settlement calls, against o1js 2.15.0:
// MerkleWitness.calculateRoot / calculateIndex, MerkleMapWitness.computeRootAndKey,
// MerkleTree.validate, and IndexedMerkleMap's clone, overwrite(If), setIf,
// isIncluded and assert(Not)Included.
import assert from "node:assert/strict";
import { test } from "node:test";

import * as o1js from "o1js";

import { IndexedMerkleMap, MerkleMap, MerkleTree, P, calculateIndex, calculateRoot, computeRootAndKey } from "../index.js";
import { initModuleUnderTest, splitmix } from "./common.mjs";

const { Bool, Field, MerkleWitness } = o1js;

await initModuleUnderTest();

const next = splitmix(0x77);
const element = () => ((next() << 192n) | (next() << 128n) | (next() << 64n) | next()) % P;
const below = (n) => ((next() << 192n) | (next() << 128n) | (next() << 64n) | next()) % n;
const F = (x) => Field(x);
const big = (f) => f.toBigInt();

test("calculateRoot and calculateIndex of a tree's witnesses equal o1js's MerkleWitness; validate holds; a wrong leaf or sibling gives another root", () => {
  for (const height of [1, 2, 3, 9, 33]) {
    const ours = new MerkleTree(height);
    const theirs = new o1js.MerkleTree(height);
    const leaves = ours.leafCount;
    const indices = [0n, leaves - 1n, ...Array.from({ length: 6 }, () => below(leaves))];
    for (const i of indices) {
      const x = element();
      ours.setLeaf(i, x);
      theirs.setLeaf(i, F(x));
    }
    class Witness extends MerkleWitness(height) {}
    for (const i of indices) {
      const w = ours.getWitness(i);
      const theirW = new Witness(theirs.getWitness(i));
      const leaf = ours.getLeaf(i);
      assert.equal(calculateRoot(w, leaf), big(theirW.calculateRoot(F(leaf))), `height ${height}, leaf ${i}`);
      assert.equal(calculateRoot(w, leaf), ours.getRoot());
      assert.equal(calculateIndex(w), big(theirW.calculateIndex()), `height ${height}, index ${i}`);
      assert.equal(calculateIndex(w), i);
      assert.equal(ours.validate(i), theirs.validate(i));
      assert.ok(ours.validate(i));
      const other = element();
      assert.equal(calculateRoot(w, other), big(theirW.calculateRoot(F(other))), "another leaf");
      if (w.length > 0 && other !== leaf) assert.notEqual(calculateRoot(w, other), ours.getRoot());
      if (w.length > 0) {
        const bent = w.map((s, k) => (k === w.length - 1 ? { ...s, sibling: (s.sibling + 1n) % P } : s));
        assert.notEqual(calculateRoot(bent, leaf), ours.getRoot(), "a wrong sibling");
      }
    }
  }
  assert.throws(() => calculateRoot([{ isLeft: 1, sibling: 0n }], 0n), /witness\[0\].isLeft must be a boolean/);
  assert.throws(() => calculateRoot([{ isLeft: true, sibling: P }], 0n), /witness\[0\].sibling/);
  assert.throws(() => calculateRoot([], P), /leaf/);
  assert.throws(() => calculateIndex(null), /witness must be an array/);
});

test("computeRootAndKey of a map's witnesses equals o1js's MerkleMapWitness; isLefts[0] false is refused as o1js asserts", () => {
  const ours = new MerkleMap();
  const theirs = new o1js.MerkleMap();
  const keys = [0n, 1n, (1n << 254n) - 1n, ...Array.from({ length: 6 }, () => below(1n << 254n))];
  for (const k of keys) {
    const v = element();
    ours.set(k, v);
    theirs.set(F(k), F(v));
  }
  for (const k of [...keys, 777n]) {
    const value = ours.get(k);
    const [root, key] = computeRootAndKey(ours.getWitness(k), value);
    const [theirRoot, theirKey] = theirs.getWitness(F(k)).computeRootAndKey(F(value));
    assert.deepEqual([root, key], [big(theirRoot), big(theirKey)], `key ${k}`);
    assert.deepEqual([root, key], [ours.getRoot(), k]);
  }
  const w = ours.getWitness(5n);
  assert.throws(() => computeRootAndKey({ isLefts: [false, ...w.isLefts.slice(1)], siblings: w.siblings }, 0n), /isLefts\[0\] must be true/);
  assert.throws(() => computeRootAndKey({ isLefts: w.isLefts.slice(1), siblings: w.siblings }, 0n), /255/);
  assert.throws(() => computeRootAndKey(w.isLefts, 0n), /witness must be \{ isLefts, siblings \}/);
});

// Both maps' roots and stored leaves agree.
function same(ours, theirs, what) {
  assert.equal(ours.getRoot(), big(theirs.root), `${what}: root`);
  assert.equal(ours.length, big(theirs.length), `${what}: length`);
  assert.deepEqual(ours.data().sortedLeaves, theirs.data.get().sortedLeaves, `${what}: leaves`);
}

test("IndexedMerkleMap: clone, overwrite, overwriteIf, setIf and isIncluded over a settlement-like run equal o1js", () => {
  class Map12 extends o1js.IndexedMerkleMap(12) {}
  let ours = new IndexedMerkleMap(12);
  let theirs = new Map12();
  const keys = Array.from({ length: 30 }, () => 1n + below(P - 1n));
  // Batches as OffchainState settles them: a clone takes the batch, overwriteIf
  // keeps it or not; setIf with mixed conditions; inclusion before and after.
  for (let batch = 0; batch < 6; batch++) {
    const rootBefore = ours.getRoot();
    const oursNext = ours.clone();
    const theirsNext = theirs.clone();
    for (let j = 0; j < 8; j++) {
      const key = keys[Number(below(30n))];
      const value = element();
      const condition = below(4n) !== 0n;
      const got = oursNext.setIf(condition, key, value);
      const want = theirsNext.setIf(Bool(condition), F(key), F(value));
      assert.deepEqual(got, { isSome: want.isSome.toBoolean(), value: big(want.value) }, `batch ${batch}, setIf ${j}`);
    }
    same(oursNext, theirsNext, `batch ${batch}, the clone`);
    assert.equal(ours.getRoot(), rootBefore, "the batch went to the clone only");
    const keep = batch % 3 !== 2;
    ours.overwriteIf(keep, oursNext);
    theirs.overwriteIf(Bool(keep), theirsNext);
    same(ours, theirs, `batch ${batch}, after overwriteIf(${keep})`);
    for (const key of [0n, ...keys.slice(0, 10), 12345n]) {
      assert.equal(ours.isIncluded(key), theirs.isIncluded(F(key)).toBoolean(), `batch ${batch}, isIncluded(${key})`);
    }
  }
  // A clone is independent both ways; overwrite copies everything.
  const c = ours.clone();
  c.insert(5n, 6n);
  assert.ok(c.isIncluded(5n) && !ours.isIncluded(5n));
  const before = ours.getRoot();
  ours.set(keys[0], 1n);
  assert.notEqual(ours.getRoot(), before);
  ours.overwrite(c);
  assert.equal(ours.getRoot(), c.getRoot());
  assert.deepEqual(ours.data(), c.data());
  c.set(5n, 9n);
  assert.equal(ours.get(5n), 6n, "overwrite copied, not shared");
  ours.assertIncluded(5n);
  ours.assertNotIncluded(4n);
  assert.throws(() => ours.assertIncluded(4n), /Key does not exist/);
  assert.throws(() => ours.assertNotIncluded(5n, "taken"), /taken/);
  assert.throws(() => ours.overwrite(new IndexedMerkleMap(11)), /IndexedMerkleMap\(12\)/);
  assert.throws(() => ours.setIf(1, 5n, 1n), /condition must be a boolean/);
});
