// Runs in JavaScriptCore's `jsc` shell (no Node, no browser): loads the package,
// replays the cases that jsc-check.mjs wrote (each a call of the package's API with
// what o1js or Mina's vector files say it returns) and prints one JSON line:
//   { engine, supported, module, checked, failed, failures }
//   jsc -m check/jsc-run.mjs -- CASES.json [MODULE]   (default: the module init() picks)
// Elements travel as decimal strings; a result is compared as JSON with bigints as
// strings.
import * as pkg from "../index.js";

const [casesFile, module] = globalThis.arguments;
const { P, init, backend, supported } = pkg;
const report = { engine: "jsc", supported: supported() };
const big = (s) => BigInt(s);
const bigs = (xs) => xs.map(big);

// What each case calls: its arguments as the JSON gives them, the package's answer.
const ops = {
  hash: ([xs]) => pkg.hash(bigs(xs)),
  hashFq: ([xs]) => pkg.hashFq(bigs(xs)),
  hashLegacy: ([xs]) => pkg.hashLegacy(bigs(xs)),
  hashMany: ([inputs]) => pkg.hashMany(inputs.map(bigs)),
  permute: ([s]) => pkg.permute(bigs(s)),
  update: ([s, xs]) => pkg.update(bigs(s), bigs(xs)),
  salt: ([prefix]) => pkg.salt(prefix),
  hashWithPrefix: ([prefix, xs]) => pkg.hashWithPrefix(prefix, bigs(xs)),
  emptyHashWithPrefix: ([prefix]) => pkg.emptyHashWithPrefix(prefix),
  merkleTree([height, sets, at]) {
    const tree = new pkg.MerkleTree(height);
    for (const [i, x] of sets) tree.setLeaf(big(i), big(x));
    return { root: tree.getRoot(), witness: tree.getWitness(big(at)).map((w) => [w.isLeft, w.sibling]) };
  },
  merkleMap([sets]) {
    const map = new pkg.MerkleMap();
    for (const [k, v] of sets) map.set(big(k), big(v));
    return map.getRoot();
  },
  hashAnyLength: ([xs]) => pkg.hashAnyLength(bigs(xs)),
  hashToGroup: ([xs]) => Object.values(pkg.hashToGroup(bigs(xs))),
  hashPacked: ([fields, packed]) => pkg.hashPacked({ fields: bigs(fields), packed: packed.map(([v, n]) => [big(v), n]) }),
  deriveTokenId: ([x, isOdd, parent]) => pkg.deriveTokenId({ x: big(x), isOdd }, big(parent)),
  merkleList: ([prefix, elements]) => pkg.MerkleList.from(elements.map(bigs), { prefix }).hash,
  sponge([ops]) {
    const sponge = new pkg.Sponge();
    return ops.map((x) => (x === null ? sponge.squeeze() : (sponge.absorb(big(x)), null))).filter((x) => x !== null);
  },
  calculateRoot: ([witness, leaf]) => pkg.calculateRoot(witness.map(([isLeft, s]) => ({ isLeft, sibling: big(s) })), big(leaf)),
  indexedMerkleMap([height, inserts]) {
    const map = new pkg.IndexedMerkleMap(height);
    for (const [k, v] of inserts) map.insert(big(k), big(v));
    return map.getRoot();
  },
};

const json = (x) => JSON.stringify(x, (_, v) => (typeof v === "bigint" ? `${v}` : v));
try {
  await init(module ? { module } : undefined);
  report.module = backend();
  const { cases } = JSON.parse(readFile(casesFile));
  report.checked = 0;
  report.failed = 0;
  report.failures = [];
  for (const c of cases) {
    report.checked++;
    let got;
    try {
      got = json(ops[c.op](c.args));
    } catch (e) {
      got = `threw ${e}`;
    }
    if (got !== json(c.want)) {
      report.failed++;
      if (report.failures.length < 5) report.failures.push({ what: c.what, got, want: json(c.want) });
    }
  }
  // The modulus the package exports, checked by the driver against o1js's.
  report.P = `${P}`;
} catch (e) {
  report.error = `${e}`;
}
print(json(report));
