// The package in JavaScriptCore's `jsc` shell (WebKit's engine, without a browser):
// this process computes what o1js 2.15.0 returns for a seeded set of calls (hashes
// of every length 0 to 20 with edge values, batches of 1 to 17, permutations,
// update, the Fq and legacy hashes, every salt and prefixed hash, MerkleTree roots
// and witnesses, MerkleMap and IndexedMerkleMap roots, hashAnyLength, the sponge,
// hashPacked of structs, TokenId.derive, a MerkleList, a witness's root) and takes Mina's vector
// files as they are; jsc-run.mjs replays the calls in jsc on each module, and on
// the module init() picks there. A module jsc refuses is a skip with the reason,
// never a pass: fma is tried with --useWasmRelaxedSIMD=true (off by default), wide
// has no switch in jsc.
//   node check/jsc-check.mjs   (from the package copy, dev dependencies installed;
//   JSC=path overrides the jsc on PATH; POSEIDON_VECTORS the vector files' folder)
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

import * as o1js from "o1js";

import { P, Q } from "../index.js";
import { PoseidonLegacy, blockFp, blockFq, hashFp, sponge, updateFp } from "../test/o1js-ref.mjs";
import { splitmix } from "../test/common.mjs";
import { helpOnRequest } from "../dev/cli.mjs";

helpOnRequest(import.meta.url);
await o1js.initializeBindings(); // for Poseidon.Sponge

const here = dirname(fileURLToPath(import.meta.url));
const jsc = process.env.JSC ?? "jsc";
const dataDir = process.env.POSEIDON_VECTORS ?? resolve(here, "../../poseidon/tests/data");

// Seeded elements: one in four an edge value, the rest random below the modulus.
const next = splitmix(0x15c);
const element = (m = P) => {
  const edges = [0n, 1n, 2n, m - 1n, m - 2n, (m - 1n) / 2n];
  return next() % 4n === 0n ? edges[Number(next() % 6n)] : ((next() << 192n) | (next() << 128n) | (next() << 64n) | next()) % m;
};
const elements = (n, m = P) => Array.from({ length: n }, () => element(m));

const cases = [];
const add = (op, what, args, want) => cases.push({ op, what, args, want });

// Mina's vectors: what Mina's own code computes, as stored.
const fromHex = (h) => BigInt("0x0" + (h.match(/../g) ?? []).reverse().join(""));
const vectors = (name) => JSON.parse(readFileSync(join(dataDir, `${name}.json`))).test_vectors;
const kimchi = vectors("kimchi");
kimchi.forEach((v, i) => add("hash", `kimchi vector ${i}`, [v.input.map(fromHex)], fromHex(v.output)));
add("hashMany", "the kimchi vectors in one hashMany", [kimchi.map((v) => v.input.map(fromHex))], kimchi.map((v) => fromHex(v.output)));
vectors("legacy").forEach((v, i) => add("hashLegacy", `legacy vector ${i}`, [v.input.map(fromHex)], fromHex(v.output)));

// o1js's answers.
for (let n = 0; n <= 20; n++) {
  const xs = elements(n);
  add("hash", `hash of ${n}`, [xs], hashFp(xs));
}
for (let n = 1; n <= 17; n++) {
  const inputs = Array.from({ length: n }, (_, i) => elements(i % 3 === 2 ? i % 6 : 2));
  add("hashMany", `hashMany of ${n}`, [inputs], inputs.map(hashFp));
}
for (let k = 0; k < 20; k++) {
  const s = k === 0 ? [P - 1n, P - 1n, P - 1n] : elements(3);
  add("permute", `permute ${k}`, [s], blockFp(s));
}
for (let n = 0; n <= 5; n++) {
  const [s, xs] = [elements(3), elements(n)];
  add("update", `update of ${n}`, [s, xs], updateFp(s, xs));
}
for (let n = 0; n <= 6; n++) {
  const ys = elements(n, Q);
  add("hashFq", `hashFq of ${n}`, [ys], sponge(Q, blockFq)(ys));
  const xs = elements(n);
  add("hashLegacy", `hashLegacy of ${n}`, [xs], PoseidonLegacy.hash(xs));
}
const { Core, Field, Poseidon } = o1js;
const F = (x) => Field(x);
const big = (f) => f.toBigInt();
for (const [prefix, state] of Object.entries(Core.Constants.prefixHashes)) {
  add("salt", `salt ${prefix}`, [prefix], state.map(BigInt));
  add("emptyHashWithPrefix", `emptyHashWithPrefix ${prefix}`, [prefix], BigInt(state[0]));
  const xs = elements(prefix.length % 4);
  add("hashWithPrefix", `hashWithPrefix ${prefix} of ${xs.length}`, [prefix, xs], big(Poseidon.hashWithPrefix(prefix, xs.map(F))));
}
for (const height of [1, 2, 6, 12]) {
  const tree = new o1js.MerkleTree(height);
  const leaves = 1n << BigInt(height - 1);
  const sets = Array.from({ length: Math.min(9, Number(leaves)) }, (_, i) => [(BigInt(i) * 5n) % leaves, element()]);
  sets.forEach(([i, x]) => tree.setLeaf(i, F(x)));
  const at = sets[sets.length - 1][0];
  const witness = tree.getWitness(at).map((w) => [w.isLeft, big(w.sibling)]);
  add("merkleTree", `MerkleTree(${height}) of ${sets.length} leaves`, [height, sets, at], { root: big(tree.getRoot()), witness });
}
{
  const map = new o1js.MerkleMap();
  const sets = Array.from({ length: 4 }, () => [element() % (1n << 254n), element()]);
  sets.forEach(([k, v]) => map.set(F(k), F(v)));
  add("merkleMap", "MerkleMap of 4 keys", [sets], big(map.getRoot()));
}
{
  class Map8 extends o1js.IndexedMerkleMap(8) {}
  const map = new Map8();
  const inserts = Array.from({ length: 5 }, (_, i) => [element() % (P - 1n) + 1n, BigInt(i)]);
  inserts.forEach(([k, v]) => map.insert(F(k), F(v)));
  add("indexedMerkleMap", "IndexedMerkleMap(8) of 5 keys", [8, inserts], big(map.root));
}

// The hashing beyond Poseidon.hash: length-tagged, the sponge, packed structs, token
// ids, list commitments, a witness's root.
for (let n = 0; n <= 4; n++) {
  const xs = elements(n);
  add("hashAnyLength", `hashAnyLength of ${n}`, [xs], big(Poseidon.hashAnyLength(xs.map(F))));
  const g = Poseidon.hashToGroup(xs.map(F));
  add("hashToGroup", `hashToGroup of ${n}`, [xs], [big(g.x), big(g.y)]);
}
{
  const { Bool, Struct, UInt32, UInt64 } = o1js;
  class Entry extends Struct({ owner: Field, amount: UInt64, nonce: UInt32, flag: Bool }) {}
  for (let k = 0; k < 4; k++) {
    const value = new Entry({ owner: F(element()), amount: UInt64.from(next()), nonce: UInt32.from(next() >> 32n), flag: Bool(k % 2 === 0) });
    const { fields, packed } = Entry.toInput(value);
    add("hashPacked", `hashPacked of a struct ${k}`, [fields.map(big), packed.map(([v, n]) => [big(v), n])], big(Poseidon.hashPacked(Entry, value)));
  }
  const pk = o1js.PrivateKey.random().toPublicKey();
  add("deriveTokenId", "TokenId.derive", [big(pk.x), pk.isOdd.toBoolean(), 1n], big(o1js.TokenId.derive(pk)));
  const FieldList = o1js.MerkleList.create(Field, (h, x) => Poseidon.hashWithPrefix("my list", [h, x]));
  const xs = elements(7);
  add("merkleList", "MerkleList of 7 with a prefix", ["my list", xs.map((x) => [x])], big(FieldList.from(xs.map(F)).hash));
  const ops = Array.from({ length: 9 }, (_, i) => (i % 3 === 2 ? null : element()));
  ops.push(null, null);
  const sponge = new Poseidon.Sponge();
  const squeezed = ops.map((x) => (x === null ? big(sponge.squeeze()) : (sponge.absorb(F(x)), null))).filter((x) => x !== null);
  add("sponge", "a sponge's absorbs and squeezes", [ops], squeezed);
  const tree = new o1js.MerkleTree(8);
  const leaf = element();
  tree.setLeaf(37n, F(leaf));
  tree.setLeaf(2n, F(element()));
  class Witness extends o1js.MerkleWitness(8) {}
  const witness = tree.getWitness(37n);
  add("calculateRoot", "MerkleWitness.calculateRoot", [witness.map((w) => [w.isLeft, big(w.sibling)]), leaf], big(new Witness(witness).calculateRoot(F(leaf))));
}

// The cases go beside the package (target/js-package in the scripts), removed at the end.
const dir = resolve(here, "../.jsc-check");
rmSync(dir, { recursive: true, force: true });
mkdirSync(dir);
const file = join(dir, "cases.json");
writeFileSync(file, JSON.stringify({ cases }, (_, v) => (typeof v === "bigint" ? `${v}` : v)));

let passed = 0, failed = 0;
// The runs: each module (fma with relaxed SIMD switched on), then init()'s choice.
const runs = [
  { module: "scalar", flags: [] },
  { module: "simd", flags: [] },
  { module: "fma", flags: ["--useWasmRelaxedSIMD=true"] },
  { module: "wide", flags: [] },
  { module: undefined, flags: [] },
];
try {
  for (const { module, flags } of runs) {
    const name = module ?? "default";
    let report;
    try {
      const out = execFileSync(jsc, [...flags, "-m", join(here, "jsc-run.mjs"), "--", file, ...(module ? [module] : [])], {
        // As scripts/jsc-runner.sh: JavaScriptCore 2.50's concurrent tier-up made
        // about 1% of Wasm runs trap at random here.
        env: { JSC_useConcurrentJIT: "false", ...process.env },
        stdio: ["ignore", "pipe", "pipe"],
        maxBuffer: 1 << 24,
      });
      report = JSON.parse(out.toString().trim().split("\n").pop());
    } catch (e) {
      if (e.code === "ENOENT") {
        console.error(`jsc-check: cannot run jsc ("${jsc}"): on Debian, apt-get install libjavascriptcoregtk-4.0-bin, or set JSC`);
        process.exit(2);
      }
      console.log(`FAIL  jsc ${name}: ${(e.stderr || e.message).toString().trim()}`);
      failed++;
      continue;
    }
    if (module && !report.supported.includes(module)) {
      console.log(`skip  jsc ${name}: JavaScriptCore does not validate its instructions${flags.length ? ` even with ${flags.join(" ")}` : ""} (${module === "wide" ? "wide arithmetic" : "relaxed SIMD"}); it runs ${report.supported.join(", ")}`);
      continue;
    }
    const ok = !report.error && report.checked === cases.length && report.failed === 0 && report.P === `${P}` &&
      (module ? report.module === module : report.module === report.supported[0]);
    console.log(`${ok ? "ok  " : "FAIL"}  jsc ${name}${flags.length ? ` ${flags.join(" ")}` : ""}: module ${report.module}, ${report.checked} calls against o1js and Mina's vectors, ${report.failed} failed${report.error ? `, error: ${report.error}` : ""}${report.failures?.length ? ` ${JSON.stringify(report.failures)}` : ""}`);
    if (ok) passed++;
    else failed++;
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 && passed > 0 ? 0 : 1);
