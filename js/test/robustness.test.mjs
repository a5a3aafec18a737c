// A million calls, most of them rejected: every rejection is a TypeError or
// RangeError, nothing reaches the module in a bad state, and its memory does not
// grow once the scratch buffer has reached the largest size used.
import assert from "node:assert/strict";
import { test } from "node:test";

import { IndexedMerkleMap, MerkleMap, MerkleTree, P, hash, hashMany, hashWithPrefix, permute, update } from "../index.js";
import { memoryBytes } from "../core.js";
import { initModuleUnderTest } from "./common.mjs";

await initModuleUnderTest();

test("a million calls (rejected and valid) keep the module's memory and results", () => {
  const pairs = Array.from({ length: 512 }, (_, i) => [BigInt(i), P - 1n - BigInt(i)]);
  const long = Array.from({ length: 64 }, (_, i) => BigInt(i) * 0x1234567n);
  const want = { pair: hash([1n, 2n]), many: hashMany(pairs), long: hash(long) };
  const before = memoryBytes();
  const tree = new MerkleTree(8);
  const map = new MerkleMap();
  const indexed = new IndexedMerkleMap(8);
  const bad = [
    () => hash([P]), () => hash([1]), () => hash("x"), () => hash([-1n]), () => permute([1n, 2n]),
    () => permute([0n, 0n, 1n << 256n]), () => update([0n, 0n, 0n], [P + 1n]), () => update([0n, 0n], []),
    () => hashMany([[1n], [2n, null]]), () => hashMany([5n]), () => hashWithPrefix("é", [1n]),
    () => hashWithPrefix("a", [P]), () => tree.setLeaf(256n, 1n), () => tree.setLeaf(1n, 2n ** 300n),
    () => map.set(1n << 254n, 0n), () => map.set(3n, 1.5), () => indexed.insert(0n - 1n, 0n), () => new MerkleTree(300),
  ];
  let rejected = 0, valid = 0;
  for (let i = 0; i < 1_000_000; i++) {
    if (i % 50 === 0) {
      assert.equal(hash([1n, 2n]), want.pair);
      valid++;
      continue;
    }
    const f = bad[i % bad.length];
    try {
      f();
      assert.fail(`call ${i % bad.length} was not rejected`);
    } catch (e) {
      assert.ok(e instanceof TypeError || e instanceof RangeError, `call ${i % bad.length}: ${e}`);
      rejected++;
    }
    if (i % 100_000 === 1) {
      assert.deepEqual(hashMany(pairs), want.many);
      assert.equal(hash(long), want.long);
    }
  }
  assert.equal(rejected + valid, 1_000_000);
  assert.equal(memoryBytes(), before, "module memory after a million calls");
  assert.equal(tree.getRoot(), new MerkleTree(8).getRoot(), "rejected writes changed nothing");
  assert.equal(indexed.length, 1n);
});
