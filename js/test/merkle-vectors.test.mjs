// The shared Merkle vectors (poseidon/tests/data/merkle-trees.json, which the Rust
// library's tests also check): o1js's MerkleTree and this package's give the file's
// roots and witnesses.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

import * as o1js from "o1js";

import { MerkleTree } from "../index.js";
import { initModuleUnderTest } from "./common.mjs";

const { Field, MerkleTree: O1Tree } = o1js;
await initModuleUnderTest();

const dataDir = process.env.POSEIDON_VECTORS ?? fileURLToPath(new URL("../../poseidon/tests/data", import.meta.url));
const { trees } = JSON.parse(readFileSync(join(dataDir, "merkle-trees.json")));

test("the file has trees of heights 1 to 33", () => {
  assert.deepEqual(trees.map((t) => t.height), Array.from({ length: 33 }, (_, i) => i + 1));
});

test("o1js's MerkleTree gives the file's roots and witnesses", () => {
  for (const t of trees) {
    const tree = new O1Tree(t.height);
    tree.fill(t.leaves.map((x) => Field(BigInt(x))));
    assert.equal(tree.getRoot().toBigInt(), BigInt(t.root), `height ${t.height}`);
    for (const w of t.witnesses) {
      const got = tree.getWitness(BigInt(w.index)).map((s) => ({ isLeft: s.isLeft, sibling: String(s.sibling.toBigInt()) }));
      assert.deepEqual(got, w.path, `height ${t.height}, leaf ${w.index}`);
    }
  }
});

test("this package's MerkleTree gives the file's roots and witnesses", () => {
  for (const t of trees) {
    const tree = MerkleTree.fromLeaves(t.height, t.leaves.map(BigInt));
    assert.equal(tree.getRoot(), BigInt(t.root), `height ${t.height}`);
    for (const w of t.witnesses) {
      const got = tree.getWitness(BigInt(w.index)).map((s) => ({ isLeft: s.isLeft, sibling: String(s.sibling) }));
      assert.deepEqual(got, w.path, `height ${t.height}, leaf ${w.index}`);
    }
  }
});
