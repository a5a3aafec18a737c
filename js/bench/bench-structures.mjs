// What o1js users wait for, in one Node process: o1js 2.15.0's own Merkle
// structures and salted hashes against this package's, on the same seeded data,
// after checking that both give the same roots and hashes. o1js runs each case
// once (they take seconds to a minute); ours is the median of --rounds runs.
//   node js/bench/bench-structures.mjs [--scale S] [--rounds N] [--module M] [--out FILE]
//   --scale 1 (default): the acceptance sizes (MerkleTree(17) with 4,096 leaves,
//   200 MerkleMap.set, IndexedMerkleMap(33) with 1,000 inserts, 1,000
//   hashWithPrefix); --scale 0.1 for a quick look (about 10 s instead of 2 min).
import { mkdirSync, writeFileSync } from "node:fs";
import { cpus } from "node:os";
import { dirname } from "node:path";

import * as o1js from "o1js";

import { arg, helpOnRequest, reportOut } from "../dev/cli.mjs";
import { IndexedMerkleMap, MerkleMap, MerkleTree, P, backend, hashWithPrefix, init } from "../index.js";
import { installFastPoseidon } from "../o1js.js";
import { median } from "./timing.mjs";

helpOnRequest(import.meta.url);
const scale = Number(arg("--scale", 1));
const rounds = Number(arg("--rounds", 5));
if (!(scale > 0 && scale <= 1)) throw new Error("--scale takes a number in (0, 1]");
if (!(rounds >= 1)) throw new Error("--rounds takes a positive number");
const out = reportOut(import.meta.url, "js-structures.json");
const module = arg("--module");
await init(module ? { module } : undefined);

const { Field, IndexedMerkleMap: O1Indexed, MerkleMap: O1Map, MerkleTree: O1Tree, Poseidon } = o1js;
const n = (x) => Math.max(1, Math.round(x * scale));
let s = 0x2026n;
const next = () => ((s = (s * 6364136223846793005n + 1442695040888963407n) % (1n << 64n)), s);
const element = () => ((next() << 192n) | (next() << 128n) | (next() << 64n) | next()) % P;

const leaves = Array.from({ length: n(4096) }, element);
const mapEntries = Array.from({ length: n(200) }, () => [element() % (1n << 254n), element()]);
const inserts = Array.from({ length: n(1000) }, () => [1n + (element() % (P - 1n)), element()]);
const prefixed = Array.from({ length: n(1000) }, () => [element(), element()]);
const PREFIX = "MinaZkappEvent******";

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
const pad = (x, w) => String(x).padEnd(w);
const lines = [
  `${env.engine}, module ${env.module}, ${env.cpu}, ${env.date}`,
  `${pad("case", 76)} ${pad("o1js", 10)} ${pad("ours", 10)} speedup`,
  ...rows.map((r) => `${pad(r.case, 76)} ${pad(r.o1js_ms.toFixed(0) + " ms", 10)} ${pad(r.ours_ms.toFixed(1) + " ms", 10)} ${r.ratio.toFixed(1)}×`),
];
console.log(lines.join("\n"));
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, JSON.stringify({ env, rows }, null, 2) + "\n");
console.log(`wrote ${out}`);
