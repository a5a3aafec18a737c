// The worker pool (pool.js, worker.js) under Node's worker_threads: its results
// equal the single-threaded functions' and o1js's, bad input is rejected before any
// work is sent, and a worker that fails, a worker that dies and close() during work
// each reject the call concerned and leave the pool as documented.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";

import * as o1js from "o1js";

import { MerkleTree, P, backend, createPool, hashMany } from "../index.js";
import { initModuleUnderTest, splitmix } from "./common.mjs";

await initModuleUnderTest();
const module = backend();
const { Field, Poseidon } = o1js;
const o1 = (xs) => Poseidon.hash(xs.map((x) => Field(x))).toBigInt();

// Every message the test process posts to a worker thread, and every worker posted to.
let sent = 0;
const workers = new Set();
const post = Worker.prototype.postMessage;
Worker.prototype.postMessage = function (...args) {
  sent++;
  workers.add(this);
  return post.apply(this, args);
};

const rand = splitmix(0x9001);
const element = () => ((rand() << 192n) | (rand() << 128n) | (rand() << 64n) | rand()) % P;
const edges = [0n, 1n, 2n, P - 1n, P - 2n, (1n << 64n) - 1n, (1n << 128n) - 1n, (1n << 192n) - 1n, 1n << 254n];
const pick = (k) => (k % 7 === 3 ? edges[k % edges.length] : element());
const flaky = new URL("./workers/flaky.js", import.meta.url);

let pool;
before(async () => (pool = await createPool({ workers: 2, module })));
after(() => pool.close());

test("createPool starts the workers asked for, on the module under test", () => {
  assert.equal(pool.size, 2);
  assert.equal(pool.module, module);
});

test("pool.hashMany equals hashMany and o1js on seeded inputs of 0 to 6 fields, edge values included", async () => {
  let k = 0;
  const inputs = Array.from({ length: 1500 }, (_, i) => Array.from({ length: i % 7 }, () => pick(k++)));
  const got = await pool.hashMany(inputs);
  assert.deepEqual(got, hashMany(inputs));
  for (let i = 0; i < inputs.length; i += 37) assert.equal(got[i], o1(inputs[i]), `input ${i}`);
  assert.deepEqual(await pool.hashMany([]), []);
  assert.deepEqual(await pool.hashMany([[1n, 2n]]), [o1([1n, 2n])]);
});

test("pools of 1, 2 and 3 workers give the same digests and trees", async () => {
  const inputs = Array.from({ length: 700 }, (_, i) => [element(), element(), ...(i % 3 ? [] : [element()])]);
  const leaves = Array.from({ length: 1000 }, element);
  const want = hashMany(inputs);
  const root = MerkleTree.fromLeaves(12, leaves).getRoot();
  for (const n of [1, 3]) {
    // Without `module`: the module this thread's init loaded.
    const p = await createPool(n === 1 ? { workers: 1 } : { workers: n, module });
    try {
      assert.equal(p.size, n);
      assert.equal(p.module, module);
      assert.deepEqual(await p.hashMany(inputs), want, `${n} workers`);
      assert.equal((await MerkleTree.fromLeavesParallel(12, leaves, { pool: p })).getRoot(), root, `${n} workers`);
    } finally {
      await p.close();
    }
  }
});

// The whole tree: every stored node (in the same order), and the root.
function sameTree(a, b, what) {
  const nodes = (t) => [...t.entries()].map(([l, i, x]) => `${l}:${i}:${x}`);
  assert.deepEqual(nodes(a), nodes(b), `${what}: stored nodes`);
  assert.equal(a.getRoot(), b.getRoot(), `${what}: root`);
}

test("fromLeavesParallel builds the tree fromLeaves builds, for every leaf count of heights 1 to 6 and odd counts up to height 14", async () => {
  const leaves = Array.from({ length: 5000 }, (_, k) => pick(k));
  const cases = [];
  for (let h = 1; h <= 6; h++) for (let n = 0; n <= 2 ** (h - 1); n++) cases.push([h, n]);
  for (const [h, n] of [[9, 255], [9, 256], [12, 1025], [14, 4999], [14, 4096], [40, 3333]]) cases.push([h, n]);
  for (const [h, n] of cases) {
    const want = MerkleTree.fromLeaves(h, leaves.slice(0, n));
    const got = await MerkleTree.fromLeavesParallel(h, leaves.slice(0, n), { pool });
    sameTree(got, want, `height ${h}, ${n} leaves`);
    for (const i of [0n, BigInt(n >> 1), BigInt(Math.max(0, n - 1))]) {
      if (i < got.leafCount) assert.deepEqual(got.getWitness(i), want.getWitness(i), `height ${h}, ${n} leaves, witness ${i}`);
    }
  }
});

test("a tree from fromLeavesParallel takes writes as any other: setLeaf, then root and witness", async () => {
  const leaves = Array.from({ length: 600 }, element);
  const a = await MerkleTree.fromLeavesParallel(11, leaves, { pool });
  const b = MerkleTree.fromLeaves(11, leaves);
  for (const t of [a, b]) {
    t.setLeaf(5n, 77n);
    t.setLeaf(1000n, 78n);
  }
  sameTree(a, b, "after setLeaf");
  assert.deepEqual(a.getWitness(1000n), b.getWitness(1000n));
});

test("fromLeavesParallel gives the shared vector file's roots and witnesses (heights 1 to 33)", async () => {
  const dir = process.env.POSEIDON_VECTORS ?? fileURLToPath(new URL("../../poseidon/tests/data", import.meta.url));
  const { trees } = JSON.parse(readFileSync(join(dir, "merkle-trees.json")));
  for (const t of trees) {
    const tree = await MerkleTree.fromLeavesParallel(t.height, t.leaves.map(BigInt), { pool });
    assert.equal(tree.getRoot(), BigInt(t.root), `height ${t.height}`);
    for (const w of t.witnesses) {
      const got = tree.getWitness(BigInt(w.index)).map((s) => ({ isLeft: s.isLeft, sibling: String(s.sibling) }));
      assert.deepEqual(got, w.path, `height ${t.height}, leaf ${w.index}`);
    }
  }
});

test("bad input is rejected, naming the argument, before any work is sent", async () => {
  const good = Array.from({ length: 3000 }, () => [element(), element()]);
  const bad = [
    [() => pool.hashMany("x"), TypeError, /^inputs must be an array/],
    [() => pool.hashMany([[1n], 5n]), TypeError, /^inputs\[1\] must be an array/],
    [() => pool.hashMany([...good, [1n, 2]]), TypeError, /^inputs\[3000\]\[1\] must be a bigint/],
    [() => pool.hashMany([...good, [1n, P]]), RangeError, /^inputs\[3000\]\[1\] = \d+ is not in \[0, p\)/],
    [() => pool.hashMany([[-1n]]), RangeError, /^inputs\[0\]\[0\] = -1 is not in/],
    [() => MerkleTree.fromLeavesParallel(17, [...good.flat(), P], { pool }), RangeError, /^leaves\[6000\] = \d+ is not in \[0, p\)/],
    [() => MerkleTree.fromLeavesParallel(3, [1n, 2n, 3n, 4n, 5n], { pool }), RangeError, /^leaves: 5 leaves do not fit in a tree of height 3/],
    [() => MerkleTree.fromLeavesParallel(0, [], { pool }), RangeError, /^height = 0 is not in \[1, 256\]/],
    [() => MerkleTree.fromLeavesParallel(5, [1n]), TypeError, /^options.pool must be a pool from createPool, got undefined/],
    [() => MerkleTree.fromLeavesParallel(5, [1n], { pool: {} }), TypeError, /^options.pool must be a pool from createPool/],
  ];
  const before = sent;
  for (const [call, type, message] of bad) await assert.rejects(call, (e) => e instanceof type && message.test(e.message));
  assert.equal(sent, before, "messages posted to workers");
  assert.deepEqual(await pool.hashMany(good.slice(0, 5)), hashMany(good.slice(0, 5)), "the pool still works");
});

test("createPool rejects bad options and a worker module that cannot load, leaving no worker running", async () => {
  for (const workers of [0, 1.5, "2", 5000]) {
    await assert.rejects(createPool({ workers }), (e) => e instanceof RangeError && /^workers must be an integer from 1 to 1024/.test(e.message));
  }
  await assert.rejects(createPool({ module: "nope" }), /no module "nope"/);
  await assert.rejects(createPool(7), TypeError);
  workers.clear();
  await assert.rejects(createPool({ workers: 2, workerUrl: new URL("./workers/broken.js", import.meta.url) }), /cannot load/);
  assert.equal(workers.size, 2);
  for (const w of workers) assert.equal(w.threadId, -1, "every started worker has exited");
});

test("a worker that throws rejects that call with the worker's error; the pool stays whole and usable", async () => {
  const p = await createPool({ workers: 2, module, workerUrl: flaky });
  try {
    const seven = Array.from({ length: 7 }, () => [element()]);
    await assert.rejects(p.hashMany(seven), /^Error: poseidon pool: a worker failed: Error: injected failure$/);
    assert.equal(p.size, 2);
    const next = Array.from({ length: 5 }, () => [element()]);
    assert.deepEqual(await p.hashMany(next), hashMany(next));
  } finally {
    await p.close();
  }
});

test("a worker that dies (an uncaught error, or exiting) rejects that call; a new worker takes its place", async () => {
  const p = await createPool({ workers: 2, module, workerUrl: flaky });
  try {
    for (const count of [11, 13]) {
      const inputs = Array.from({ length: count }, () => [element(), element()]);
      await assert.rejects(p.hashMany(inputs), /^Error: poseidon pool: a worker died: /);
      const next = Array.from({ length: 300 }, () => [element()]);
      assert.deepEqual(await p.hashMany(next), hashMany(next), `after the death at ${count}`);
      for (let i = 0; i < 500 && p.size < 2; i++) await new Promise((r) => setTimeout(r, 20));
      assert.equal(p.size, 2, "replaced");
    }
  } finally {
    await p.close();
  }
});

test("close() during work rejects the running call, ends every worker; later calls reject", async () => {
  workers.clear();
  const p = await createPool({ workers: 2, module });
  const inputs = Array.from({ length: 20000 }, () => [element(), element()]);
  const running = p.hashMany(inputs);
  const tree = MerkleTree.fromLeavesParallel(16, inputs.map((x) => x[0]), { pool: p });
  const rejected = [assert.rejects(running, /^Error: poseidon pool: closed$/), assert.rejects(tree, /^Error: poseidon pool: closed$/)];
  await new Promise((r) => setTimeout(r, 5));
  await p.close();
  await Promise.all(rejected);
  assert.equal(p.size, 0);
  assert.equal(workers.size, 2);
  for (const w of workers) assert.equal(w.threadId, -1, "every worker has exited");
  await assert.rejects(p.hashMany([[1n]]), /^Error: poseidon pool: closed$/);
  await assert.rejects(MerkleTree.fromLeavesParallel(5, [1n, 2n], { pool: p }), /^Error: poseidon pool: closed$/);
  await p.close(); // a second close is a no-op
});

test("an idle pool that is never closed does not keep Node running", () => {
  const index = new URL("../index.js", import.meta.url).href;
  const program = `import { init, createPool } from ${JSON.stringify(index)};
await init(${JSON.stringify({ module })});
const pool = await createPool({ workers: 2, module: ${JSON.stringify(module)} });
console.log(String((await pool.hashMany([[1n, 2n]]))[0]));`;
  const out = execFileSync(process.execPath, ["--input-type=module", "-e", program], { encoding: "utf8", timeout: 60_000 });
  assert.equal(out.trim(), String(o1([1n, 2n])));
});
