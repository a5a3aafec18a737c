// What o1js users wait for: o1js 2.15.0's own Merkle structures and salted hashes
// against this package's, on the same seeded data, after checking that both give
// the same roots and hashes. o1js runs each case once (they take seconds to a
// minute); ours is the median of --rounds runs. Then the parallel Merkle build
// (parallel.mjs): a MerkleTree(17) of 65,536 leaves single-threaded and with pools
// of 1 and 2 workers, under this Node and in each browser installed (Chromium, and
// Firefox ESR and WebKit's MiniBrowser where present) without cross-origin
// isolation, beside o1js computing the same root, and the scaling model's estimate
// for 8 and 16 cores (docs/parallel.md).
//   node js/bench/bench-structures.mjs [--scale S] [--rounds N] [--module M] [--out FILE] [--no-browsers]
//   --scale 1 (default): the acceptance sizes (MerkleTree(17) with 4,096 leaves,
//   200 MerkleMap.set, IndexedMerkleMap(33) with 1,000 inserts, 1,000
//   hashWithPrefix and 1,000 of mina-signer's legacy hashWithPrefix and hash, 1,000 hashPacked of a struct and 1,000 MerkleList pushes of it,
//   200 TokenId.derive, a settlement of 100 actions into an IndexedMerkleMap(33) of
//   100 keys, 1,000 witness roots, 200 hashToGroup, the commitments of 20 zkApp
//   transactions of 3 account updates, 65,536 leaves for the parallel build); --scale 0.1
//   for a quick look (about 20 s instead of 3 min). CHROMIUM=path, FIREFOX=path and WEBKIT=path override the browsers.
import { mkdirSync, writeFileSync } from "node:fs";
import { cpus } from "node:os";
import { dirname } from "node:path";

import * as o1js from "o1js";

import { arg, helpOnRequest, reportOut } from "../dev/cli.mjs";
import { installed, runPage } from "../dev/browser-server.mjs";
import {
  IndexedMerkleMap, MerkleList, MerkleMap, MerkleTree, P, backend, calculateRoot, createPool, deriveTokenId, hashLegacy, hashPacked, hashToGroup,
  hashWithPrefix, hashWithPrefixLegacy, init, transactionCommitments,
} from "../index.js";
import { installFastPoseidon, zkappCommandInput } from "../o1js.js";
import { o1jsModule } from "../test/common.mjs";
import { HEIGHT, WORKERS as WORKER_COUNTS, measureParallel, parallelLeaves } from "./parallel.mjs";
import { median } from "./timing.mjs";

helpOnRequest(import.meta.url);
const scale = Number(arg("--scale", 1));
const rounds = Number(arg("--rounds", 5));
if (!(scale > 0 && scale <= 1)) throw new Error("--scale takes a number in (0, 1]");
if (!(rounds >= 1)) throw new Error("--rounds takes a positive number");
const out = reportOut(import.meta.url, "js-structures.json");
const module = arg("--module");
await init(module ? { module } : undefined);

const { Bool, Field, IndexedMerkleMap: O1Indexed, MerkleMap: O1Map, MerkleTree: O1Tree, Poseidon, Struct, UInt32, UInt64 } = o1js;
const n = (x) => Math.max(1, Math.round(x * scale));
let s = 0x2026n;
const next = () => ((s = (s * 6364136223846793005n + 1442695040888963407n) % (1n << 64n)), s);
const element = () => ((next() << 192n) | (next() << 128n) | (next() << 64n) | next()) % P;

const leaves = Array.from({ length: n(4096) }, element);
const mapEntries = Array.from({ length: n(200) }, () => [element() % (1n << 254n), element()]);
const inserts = Array.from({ length: n(1000) }, () => [1n + (element() % (P - 1n)), element()]);
const prefixed = Array.from({ length: n(1000) }, () => [element(), element()]);
const PREFIX = "MinaZkappEvent******";
// A struct with packed members, as OffchainState keys and values and list elements are.
class Entry extends Struct({ owner: Field, amount: UInt64, nonce: UInt32, flag: Bool }) {}
const entries = Array.from({ length: n(1000) }, () => new Entry({ owner: Field(element()), amount: UInt64.from(next()), nonce: UInt32.from(next() >> 32n), flag: Bool(next() % 2n === 0n) }));
const entryInputs = entries.map((e) => {
  const { fields, packed } = Entry.toInput(e);
  return { fields: fields.map((f) => f.toBigInt()), packed: packed.map(([v, bits]) => [v.toBigInt(), bits]) };
});
const EntryList = o1js.MerkleList.create(Entry);
const owners = Array.from({ length: n(200) }, () => o1js.PrivateKey.random().toPublicKey());
// Settlement: a map of 33 holding `base` keys takes a batch of 100 actions (OffchainState's
// pattern: clone, setIf each, overwrite), half of them on keys it holds.
const base = Array.from({ length: n(100) }, () => [1n + (element() % (P - 1n)), element()]);
const actions = Array.from({ length: 100 }, (_, i) => [i % 2 === 0 ? base[i % base.length][0] : 1n + (element() % (P - 1n)), element(), i % 10 !== 9]);
class Map33 extends O1Indexed(33) {}
const o1Base = new Map33();
for (const [k, v] of base) o1Base.insert(Field(k), Field(v));
const ourBase = IndexedMerkleMap.fromEntries(33, base);
// Witness checks: every witness of a tree of 20 against its leaf.
const witnessTree = MerkleTree.fromLeaves(20, leaves.slice(0, n(1000)));
const witnesses = leaves.slice(0, n(1000)).map((_, i) => witnessTree.getWitness(BigInt(i)));
class Witness20 extends o1js.MerkleWitness(20) {}

const groupInputs = Array.from({ length: n(200) }, () => [element(), element()]);
// zkApp transactions of three signed account updates (two senders, three payments),
// built by o1js; o1js's tx.sign() hashes them with mina-signer's transactionCommitments.
const { transactionCommitments: signerCommitments } = await o1jsModule("mina-signer/src/sign-zkapp-command.js");
const { HashLegacy } = await o1jsModule("mina-signer/src/poseidon-bigint.js");
const { PoseidonLegacy } = await o1jsModule("bindings/crypto/poseidon.js");
const { ZkappCommand: ZkappCommandBigint } = await o1jsModule("bindings/mina-transaction/gen/v1/transaction-bigint.js");
const local = await o1js.Mina.LocalBlockchain({ proofsEnabled: false });
o1js.Mina.setActiveInstance(local);
const [alice, bob, carol] = local.testAccounts;
const transactions = [];
for (let i = 0; i < n(20); i++) {
  const tx = await o1js.Mina.transaction({ sender: alice, fee: 1e8, memo: `payment ${i}` }, async () => {
    const a = o1js.AccountUpdate.createSigned(alice);
    a.send({ to: bob, amount: UInt64.from(1000 + i) });
    o1js.AccountUpdate.createSigned(bob).send({ to: carol, amount: UInt64.from(7 + i) });
  });
  transactions.push(tx);
}
const commitmentsText = ({ commitment, fullCommitment }) => `${commitment}/${fullCommitment}`;

const cases = [
  {
    name: `MerkleTree(17), ${leaves.length} leaves: root and all witnesses`,
    o1js: () => {
      const t = new O1Tree(17);
      leaves.forEach((x, i) => t.setLeaf(BigInt(i), Field(x)));
      return t.getRoot().toBigInt();
    },
    o1jsWhat: "setLeaf loop, getRoot",
    ours: () => {
      const t = MerkleTree.fromLeaves(17, leaves);
      for (let i = 0; i < leaves.length; i++) t.getWitness(BigInt(i));
      return t.getRoot();
    },
  },
  {
    name: `MerkleMap, ${mapEntries.length} set, root`,
    o1js: () => {
      const m = new O1Map();
      for (const [k, v] of mapEntries) m.set(Field(k), Field(v));
      return m.getRoot().toBigInt();
    },
    o1jsWhat: "new MerkleMap, set loop, getRoot",
    ours: () => {
      const m = new MerkleMap();
      for (const [k, v] of mapEntries) m.set(k, v);
      return m.getRoot();
    },
  },
  {
    name: `IndexedMerkleMap(33), ${inserts.length} inserts, root`,
    o1js: () => {
      class Map33 extends O1Indexed(33) {}
      const m = new Map33();
      for (const [k, v] of inserts) m.insert(k, v);
      return m.root.toBigInt();
    },
    o1jsWhat: "insert loop, root",
    ours: () => {
      const m = new IndexedMerkleMap(33);
      for (const [k, v] of inserts) m.insert(k, v);
      return m.getRoot();
    },
  },
  {
    name: `hashWithPrefix of two fields, ${prefixed.length} calls`,
    o1js: () => prefixed.map(([a, b]) => Poseidon.hashWithPrefix(PREFIX, [Field(a), Field(b)]).toBigInt()).join(),
    o1jsWhat: "Poseidon.hashWithPrefix loop",
    ours: () => prefixed.map((xs) => hashWithPrefix(PREFIX, xs)).join(),
  },
  {
    name: `mina-signer's legacy hashWithPrefix of two fields, ${prefixed.length} calls`,
    o1js: () => prefixed.map((xs) => HashLegacy.hashWithPrefix("CodaSignature*******", xs)).join(),
    o1jsWhat: "HashLegacy.hashWithPrefix loop",
    ours: () => prefixed.map((xs) => hashWithPrefixLegacy("CodaSignature*******", xs)).join(),
  },
  {
    name: `legacy Poseidon hash of two fields, ${prefixed.length} calls`,
    o1js: () => prefixed.map((xs) => PoseidonLegacy.hash(xs)).join(),
    o1jsWhat: "PoseidonLegacy.hash loop",
    ours: () => prefixed.map((xs) => hashLegacy(xs)).join(),
  },
  {
    name: `hashPacked of a struct (Field, UInt64, UInt32, Bool), ${entries.length} calls`,
    o1js: () => entries.map((e) => Poseidon.hashPacked(Entry, e).toBigInt()).join(),
    o1jsWhat: "Poseidon.hashPacked loop",
    ours: () => entryInputs.map((input) => hashPacked(input)).join(),
  },
  {
    name: `MerkleList of that struct, ${entries.length} push, hash`,
    o1js: () => {
      const list = EntryList.empty();
      for (const e of entries) list.push(e);
      return list.hash.toBigInt();
    },
    o1jsWhat: "MerkleList.create(Entry), push loop",
    ours: () => {
      const list = new MerkleList();
      for (const input of entryInputs) list.push(input);
      return list.hash;
    },
  },
  {
    name: `TokenId.derive, ${owners.length} keys`,
    o1js: () => owners.map((pk) => o1js.TokenId.derive(pk).toBigInt()).join(),
    o1jsWhat: "TokenId.derive loop",
    ours: () => owners.map((pk) => deriveTokenId({ x: pk.x.toBigInt(), isOdd: pk.isOdd.toBoolean() })).join(),
  },
  {
    name: `IndexedMerkleMap(33) of ${base.length} keys settles 100 actions: clone, setIf, overwrite`,
    o1js: () => {
      const m = o1Base.clone();
      const batch = m.clone();
      for (const [k, v, on] of actions) batch.setIf(Bool(on), Field(k), Field(v));
      m.overwrite(batch);
      return m.root.toBigInt();
    },
    o1jsWhat: "clone, setIf loop, overwrite",
    ours: () => {
      const m = ourBase.clone();
      const batch = m.clone();
      for (const [k, v, on] of actions) batch.setIf(on, k, v);
      m.overwrite(batch);
      return m.getRoot();
    },
  },
  {
    name: `MerkleWitness(20).calculateRoot, ${witnesses.length} witnesses`,
    o1js: () => witnesses.map((w, i) => new Witness20(w.map(({ isLeft, sibling }) => ({ isLeft, sibling: Field(sibling) }))).calculateRoot(Field(leaves[i])).toBigInt()).join(),
    o1jsWhat: "new MerkleWitness(20)(path).calculateRoot loop",
    ours: () => witnesses.map((w, i) => calculateRoot(w, leaves[i])).join(),
  },
  {
    name: `Poseidon.hashToGroup of 2 fields, ${groupInputs.length} calls`,
    o1js: () => groupInputs.map((xs) => Poseidon.hashToGroup(xs.map((x) => Field(x))).x.toBigInt()).join(),
    o1jsWhat: "Poseidon.hashToGroup loop",
    ours: () => groupInputs.map((xs) => hashToGroup(xs).x).join(),
  },
  {
    name: `transaction commitments, ${transactions.length} zkApp transactions of 3 account updates`,
    o1js: () => transactions.map((tx) => commitmentsText(signerCommitments(ZkappCommandBigint.fromJSON(JSON.parse(tx.toJSON())), "testnet"))).join(),
    o1jsWhat: "mina-signer's transactionCommitments (what tx.sign() hashes), from the JSON",
    ours: () => transactions.map((tx) => commitmentsText(transactionCommitments(zkappCommandInput(o1js, tx.transaction), "testnet"))).join(),
  },
];

const time = (f) => {
  const t0 = performance.now();
  const r = f();
  return [performance.now() - t0, r];
};
const env = { engine: `node ${process.version} (V8 ${process.versions.v8})`, module: backend(), cpu: cpus()[0]?.model, date: new Date().toISOString(), scale, rounds };
console.error(`${env.engine}, module ${env.module}, scale ${scale}: o1js runs each case once (the full scale takes about 2 minutes)`);
const rows = [];
for (const c of cases) {
  c.ours(); // warm-up, and the first use of the zero-hash table
  process.stderr.write(`  ${c.name}: o1js … `);
  const [o1ms, want] = time(c.o1js);
  process.stderr.write(`${(o1ms / 1000).toFixed(1)} s; ours `);
  const ours = [];
  for (let r = 0; r < rounds; r++) {
    const [ms, got] = time(c.ours);
    if (got !== want) throw new Error(`${c.name}: ours disagrees with o1js`);
    ours.push(ms);
    process.stderr.write(".");
  }
  process.stderr.write("\n");
  rows.push({ case: c.name, o1js: c.o1jsWhat, o1js_ms: o1ms, ours_ms: median(ours), ratio: o1ms / median(ours) });
}
// The adapter on o1js's own MerkleTree, the first case's workload.
{
  const c = cases[0];
  const uninstall = installFastPoseidon(o1js);
  try {
    const runs = [];
    for (let r = 0; r < rounds; r++) runs.push(time(c.o1js));
    const want = c.ours();
    if (runs.some(([, got]) => got !== want)) throw new Error("o1js's MerkleTree with the adapter disagrees");
    const ms = median(runs.map(([t]) => t));
    rows.push({ case: `o1js's own MerkleTree(17), ${leaves.length} setLeaf, with installFastPoseidon`, o1js: rows[0].o1js, o1js_ms: rows[0].o1js_ms, ours_ms: ms, ratio: rows[0].o1js_ms / ms });
  } finally {
    uninstall();
  }
}

// The parallel build. o1js's root of the same leaves, level by level with its
// Poseidon.hash (its MerkleTree class would rehash every leaf's path: 16 times the
// hashes), timed once.
const pleaves = parallelLeaves(n(65536), P);
process.stderr.write(`  MerkleTree(${HEIGHT}), ${pleaves.length} leaves, parallel: o1js level by level … `);
const [o1Parallel, o1Root] = time(() => {
  let level = pleaves.map((x) => Field(x));
  let zero = Field(0);
  for (let h = 1; h < HEIGHT; h++) {
    const up = [];
    for (let i = 0; i < level.length; i += 2) up.push(Poseidon.hash([level[i], level[i + 1] ?? zero]));
    level = up;
    zero = Poseidon.hash([zero, zero]);
  }
  return level[0].toBigInt();
});
process.stderr.write(`${(o1Parallel / 1000).toFixed(1)} s; node `);
const parallel = [{ runtime: env.engine, module: backend(), ...(await measureParallel({ MerkleTree, createPool }, pleaves, { rounds, tick: () => process.stderr.write(".") })) }];
process.stderr.write("\n");
// Each browser installed here (Chromium always; none with --no-browsers, or its
// old name --no-chromium): the same build on a page served without cross-origin
// isolation.
const noBrowsers = process.argv.includes("--no-browsers") || process.argv.includes("--no-chromium");
const browsers = noBrowsers ? [] : ["chromium", ...["firefox", "webkit"].filter(installed)];
for (const engine of browsers) {
  process.stderr.write(`  the same in ${engine}, not cross-origin isolated …\n`);
  const page = await runPage(`bench/parallel.html?leaves=${pleaves.length}&rounds=${rounds}`, { isolated: false, timeoutMs: 600_000, engine });
  if (page.error) throw new Error(`the ${engine} page failed: ${page.error}`);
  if (page.crossOriginIsolated !== false) throw new Error(`the ${engine} page was cross-origin isolated`);
  const version = page.userAgent.match(/(Chrome|Firefox)\/[\d.]+/)?.[0] ?? page.userAgent.match(/AppleWebKit\/[\d.]+/)?.[0] ?? page.userAgent;
  parallel.push({ runtime: `${engine} (${version}), not cross-origin isolated`, ...page });
}
for (const r of parallel) {
  if (r.roots.length !== 1 || r.roots[0] !== String(o1Root)) throw new Error(`${r.runtime}: parallel build roots ${r.roots.join(", ")}, o1js ${o1Root}`);
  r.model = model(r);
}

// The model (docs/parallel.md): a pool build with w workers, each on a core of its
// own, takes A + B/w. B is the hashing the workers share: (leaves − 1) permutations
// at the per-worker throughput. A is what does not shrink: the calling thread's
// packing, storing and top levels that no worker's work overlaps, and the fixed cost
// of each worker's tasks (about four each, whatever w). The builds with 1 and 2
// workers give A and B; a pool's start is a cost per pool, not per build.
function model(r) {
  const single = r.rows.find((x) => x.workers === 0).ms;
  const t1 = r.rows.find((x) => x.workers === 1).ms, t2 = r.rows.find((x) => x.workers === 2).ms;
  const B = 2 * (t1 - t2), A = t1 - B;
  const predict = (w) => ({ workers: w, ms: A + B / w, speedup: single / (A + B / w) });
  return {
    serial_ms: A,
    parallel_ms: B,
    worker_permutations_per_s: ((r.leaves - 1) / B) * 1000,
    task_us: r.taskMs * 1000,
    pool_start_ms: r.poolStartMs,
    predicted: [2, 4, 8, 16].map(predict),
  };
}

const pad = (x, w) => String(x).padEnd(w);
const lines = [
  `${env.engine}, module ${env.module}, ${env.cpu}, ${env.date}`,
  `${pad("case", 76)} ${pad("o1js", 10)} ${pad("ours", 10)} speedup`,
  ...rows.map((r) => `${pad(r.case, 76)} ${pad(r.o1js_ms.toFixed(0) + " ms", 10)} ${pad(r.ours_ms.toFixed(1) + " ms", 10)} ${r.ratio.toFixed(1)}×`),
  "",
  `MerkleTree(${HEIGHT}), ${pleaves.length} leaves, root (equal to o1js's); o1js level by level with Poseidon.hash: ${o1Parallel.toFixed(0)} ms`,
];
for (const r of parallel) {
  const single = r.rows[0].ms;
  lines.push(`  ${r.runtime}, module ${r.module}:`);
  for (const x of r.rows) lines.push(`    ${pad(x.build, 44)} ${pad(x.ms.toFixed(1) + " ms", 10)} ${pad((single / x.ms).toFixed(2) + "× single", 14)} ${(o1Parallel / x.ms).toFixed(1)}× o1js`);
  lines.push(`    pool start: ${WORKER_COUNTS.map((w) => `${w} worker${w > 1 ? "s" : ""} ${r.poolStartMs[w].toFixed(1)} ms`).join(", ")}; one task's round trip ${(r.taskMs * 1000).toFixed(0)} µs`);
  lines.push(`    model: ${r.model.serial_ms.toFixed(1)} ms + ${r.model.parallel_ms.toFixed(1)} ms / workers (${(r.model.worker_permutations_per_s / 1000).toFixed(1)} K permutations/s per worker) → ${r.model.predicted.filter((p) => p.workers >= 8).map((p) => `${p.workers} cores ${p.ms.toFixed(0)} ms (${p.speedup.toFixed(1)}× single)`).join(", ")}`);
}
console.log(lines.join("\n"));
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, JSON.stringify({ env, rows, parallel: { leaves: pleaves.length, height: HEIGHT, o1js: "Poseidon.hash level by level", o1js_ms: o1Parallel, runtimes: parallel } }, null, 2) + "\n");
console.log(`wrote ${out}`);
