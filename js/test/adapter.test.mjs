// The o1js adapter (kimchi-poseidon/o1js): o1js's own classes give the same results
// with and without it, provable code is left to o1js, and uninstall restores o1js.
import assert from "node:assert/strict";
import { test } from "node:test";

import * as o1js from "o1js";

import { P } from "../index.js";
import { initModuleUnderTest } from "./common.mjs";
import { installFastPoseidon } from "../o1js.js";

const { Field, IndexedMerkleMap, MerkleList, MerkleMap, MerkleTree, Poseidon, Provable, TokenId, PublicKey } = o1js;

await initModuleUnderTest();

const elements = (n, seed) => Array.from({ length: n }, (_, i) => (BigInt(i + seed) * 0x9e3779b97f4a7c15n) ** 5n % P);
const F = (x) => Field(x);
const big = (f) => f.toBigInt();

// Everything below computed with o1js's hashing, then again with the adapter.
function workload() {
  const xs = elements(40, 1);
  const out = {};
  out.hash = [0, 1, 2, 3, 7].map((n) => big(Poseidon.hash(xs.slice(0, n).map(F))));
  out.update = Poseidon.update([F(1n), F(2n), F(3n)], xs.slice(0, 3).map(F)).map(big);
  out.prefixed = ["", "MinaZkappEvent******", "my prefix"].map((p) => big(Poseidon.hashWithPrefix(p, xs.slice(0, 2).map(F))));
  const tree = new MerkleTree(9);
  xs.forEach((x, i) => tree.setLeaf(BigInt(3 * i), F(x)));
  out.treeRoot = big(tree.getRoot());
  out.treeNodes = JSON.stringify(Object.entries(tree.nodes).map(([l, row]) => [l, Object.entries(row).map(([i, x]) => [i, x.toString()])]));
  out.witness = tree.getWitness(6n).map((w) => [w.isLeft, big(w.sibling)]);
  tree.fill(xs.slice(0, 4).map(F));
  out.filled = big(tree.getRoot());
  out.clone = big(tree.clone().getRoot());
  const map = new MerkleMap();
  xs.slice(0, 3).forEach((x, i) => map.set(F(x % (1n << 250n)), F(BigInt(i))));
  out.mapRoot = big(map.getRoot());
  class List extends MerkleList.create(Field) {}
  out.list = big(List.from(xs.slice(0, 5).map(F)).hash);
  class Indexed extends IndexedMerkleMap(10) {}
  const imm = new Indexed();
  imm.insert(5n, 50n);
  imm.insert(2n, 20n);
  out.imm = big(imm.root);
  out.token = big(TokenId.derive(PublicKey.fromBase58("B62qmnY6m4c6bdgSPnQGZriSaj9vuSjsfh6qkveGTsFX3yGA5ywRaja")));
  return out;
}

test("o1js's Poseidon, MerkleTree, MerkleMap, MerkleList, IndexedMerkleMap and TokenId give the same results with the adapter", () => {
  const want = workload();
  const uninstall = installFastPoseidon(o1js);
  try {
    assert.deepEqual(workload(), want);
  } finally {
    uninstall();
  }
  assert.deepEqual(workload(), want, "and after uninstalling");
});

test("the adapter leaves provable code to o1js: the same constraint system with and without it", async () => {
  const circuit = () => {
    const x = Provable.witness(Field, () => F(5n));
    Poseidon.hash([x, F(2n)]).assertEquals(Poseidon.hash([x, F(2n)]));
    Poseidon.hashWithPrefix("abc", [x]);
  };
  const without = await Provable.constraintSystem(circuit);
  const uninstall = installFastPoseidon(o1js);
  try {
    const withIt = await Provable.constraintSystem(circuit);
    assert.equal(withIt.rows, without.rows);
    assert.equal(withIt.digest, without.digest);
  } finally {
    uninstall();
  }
});

test("a tree written with the adapter reads complete through `nodes`, also after uninstalling", () => {
  const xs = elements(10, 50);
  const plain = new MerkleTree(6);
  xs.forEach((x, i) => plain.setLeaf(BigInt(i), F(x)));
  const uninstall = installFastPoseidon(o1js);
  const fast = new MerkleTree(6);
  xs.forEach((x, i) => fast.setLeaf(BigInt(i), F(x)));
  uninstall();
  const dump = (t) => JSON.stringify(t.nodes);
  assert.equal(dump(fast), dump(plain));
  fast.setLeaf(20n, F(1n)); // o1js's own setLeaf again, on the lazily built tree
  plain.setLeaf(20n, F(1n));
  assert.equal(dump(fast), dump(plain));
  assert.throws(() => {
    const u = installFastPoseidon(o1js);
    try {
      fast.setLeaf(32n, F(1n));
    } finally {
      u();
    }
  }, /out of range/);
});

test("install twice is an error, uninstall restores o1js's functions, a non-o1js argument is a TypeError", () => {
  const before = { hash: Poseidon.hash, update: Poseidon.update, hashWithPrefix: Poseidon.hashWithPrefix, hashToGroup: Poseidon.hashToGroup, setLeaf: MerkleTree.prototype.setLeaf };
  const uninstall = installFastPoseidon(o1js);
  assert.notEqual(Poseidon.hash, before.hash);
  assert.throws(() => installFastPoseidon(o1js), /already installed/);
  uninstall();
  uninstall(); // a second call does nothing
  assert.deepEqual(
    { hash: Poseidon.hash, update: Poseidon.update, hashWithPrefix: Poseidon.hashWithPrefix, hashToGroup: Poseidon.hashToGroup, setLeaf: MerkleTree.prototype.setLeaf },
    before,
  );
  assert.throws(() => installFastPoseidon({}), { name: "TypeError", message: /o1js/ });
  assert.throws(() => installFastPoseidon(undefined), TypeError);
});
