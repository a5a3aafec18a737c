// Writes poseidon/tests/data/merkle-trees.json: o1js-rule Merkle trees of heights
// 1 to 33 with seeded random leaves, their roots and witnesses, computed by this
// package's MerkleTree. The Rust library's tests (poseidon/tests/merkle.rs) check
// its MerkleTree against the file; the package's tests (test/merkle-vectors.test.mjs)
// check the file against o1js itself and against the package.
//   node dev/merkle-vectors.mjs [--out FILE]   (after node build.mjs)
// Elements are decimal strings; indices are numbers (below 2^32).
import { writeFileSync } from "node:fs";
import { resolve } from "node:path";

import { MerkleTree, P, init } from "../index.js";
import { splitmix } from "../test/common.mjs";
import { arg, helpOnRequest, projectRoot } from "./cli.mjs";

helpOnRequest(import.meta.url);
await init();

const next = splitmix(0x6d65726b6c65);
const below = (n) => ((next() << 192n) | (next() << 128n) | (next() << 64n) | next()) % BigInt(n);
const edges = [0n, 1n, P - 1n];
const element = () => (next() % 8n === 0n ? edges[Number(next() % 3n)] : below(P));

const trees = [];
for (let height = 1; height <= 33; height++) {
  const capacity = 1n << BigInt(height - 1);
  // Up to 16 leaves (o1js checks the file with bigint hashing: a write rehashes a
  // whole path); every leaf of the small trees, from none to full.
  const most = capacity < 16n ? capacity : 16n;
  const n = Number(below(most + 1n));
  const leaves = Array.from({ length: n }, element);
  const tree = MerkleTree.fromLeaves(height, leaves);
  // The last leaf set and a random one (often past the leaves: empty subtrees);
  // the first and last of the small trees too.
  const ends = height <= 8 ? [0n, capacity - 1n] : [];
  const indices = [...new Set([BigInt(Math.max(n - 1, 0)), below(capacity), ...ends])];
  trees.push({
    height,
    leaves: leaves.map(String),
    root: String(tree.getRoot()),
    witnesses: indices.map((i) => ({
      index: Number(i),
      path: tree.getWitness(i).map((s) => ({ isLeft: s.isLeft, sibling: String(s.sibling) })),
    })),
  });
}

const out = arg("--out") ?? resolve(projectRoot(import.meta.dirname), "poseidon/tests/data/merkle-trees.json");
const doc = {
  about: "o1js MerkleTree (kimchi Poseidon over Pasta Fp): heights 1-33, seeded leaves set from index 0, roots and witnesses (isLeft, sibling from the leaf up). Written by js/dev/merkle-vectors.mjs; checked against o1js by js/test/merkle-vectors.test.mjs and against the Rust library by poseidon/tests/merkle.rs.",
  trees,
};
// One tree per line.
const lines = doc.trees.map((t) => JSON.stringify(t));
writeFileSync(out, `{"about": ${JSON.stringify(doc.about)},\n"trees": [\n${lines.join(",\n")}\n]}\n`);
console.log(`wrote ${trees.length} trees to ${out}`);
