// The package as users get it: `npm pack`, then in a fresh project (consumer/):
// install from the tarball offline, import it from ESM in Node, type-check a
// consumer file with tsc --strict (and see a wrong one fail), bundle a page and the
// pool's worker with esbuild and run it in headless Chromium, and in Firefox where
// it is installed, without cross-origin isolation. Expected values come from o1js here.
// Run from the package copy (target/js-package, dev dependencies installed):
//   node pack-check.mjs            (CHROMIUM=path, FIREFOX=path override the browsers)
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

import * as o1js from "o1js";

import { engines, installed, runPage } from "../dev/browser-server.mjs";
import { helpOnRequest } from "../dev/cli.mjs";

helpOnRequest(import.meta.url);

// The package directory (this script is one folder below it).
const pkg = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const consumer = join(pkg, "consumer");
const bin = (name) => join(pkg, "node_modules/.bin", name);
const run = (cmd, args, opts = {}) => execFileSync(cmd, args, { cwd: consumer, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], ...opts });
let passed = 0, failed = 0;
function check(what, f) {
  try {
    const detail = f();
    console.log(`ok    ${what}${detail ? `: ${detail}` : ""}`);
    passed++;
  } catch (e) {
    console.log(`FAIL  ${what}: ${(e.stderr || e.stdout || e.message || String(e)).toString().trim().slice(0, 2000)}`);
    failed++;
  }
}

// What the consumer computes, from o1js: a MerkleTree(5) of leaves 1..7, a salted
// hash, and with a pool of two workers the hashes of 40 pairs and a MerkleTree(8)
// of 100 leaves.
const tree = new o1js.MerkleTree(5);
for (let i = 0; i < 7; i++) tree.setLeaf(BigInt(i), o1js.Field(BigInt(i + 1)));
const pairs = Array.from({ length: 40 }, (_, i) => [BigInt(i), BigInt(3 * i + 1)]);
const big = new o1js.MerkleTree(8);
for (let i = 0; i < 100; i++) big.setLeaf(BigInt(i), o1js.Field(BigInt(i * i)));
const want = [
  tree.getRoot().toBigInt(),
  o1js.Poseidon.hashWithPrefix("MinaZkappEvent******", [o1js.Field(1), o1js.Field(2)]).toBigInt(),
  ...pairs.map((xs) => o1js.Poseidon.hash(xs.map((x) => o1js.Field(x))).toBigInt()),
  big.getRoot().toBigInt(),
].join(" ");
const program = `import { init, MerkleTree, hashWithPrefix, backend, createPool } from "kimchi-poseidon";
import { installFastPoseidon } from "kimchi-poseidon/o1js";
await init();
if (typeof installFastPoseidon !== "function") throw new Error("no adapter");
const t = MerkleTree.fromLeaves(5, [1n, 2n, 3n, 4n, 5n, 6n, 7n]);
const pool = await createPool({ workers: 2 });
const pairs = Array.from({ length: 40 }, (_, i) => [BigInt(i), BigInt(3 * i + 1)]);
const pooled = await pool.hashMany(pairs);
const big = await MerkleTree.fromLeavesParallel(8, Array.from({ length: 100 }, (_, i) => BigInt(i * i)), { pool });
export const workers = pool.size;
await pool.close();
export const result = [t.getRoot(), hashWithPrefix("MinaZkappEvent******", [1n, 2n]), ...pooled, big.getRoot()].join(" ");
export const module = backend();
`;

rmSync(consumer, { recursive: true, force: true });
mkdirSync(consumer, { recursive: true });
let tarball;
check("npm pack", () => {
  const out = JSON.parse(execFileSync("npm", ["pack", "--json", "--pack-destination", consumer], { cwd: pkg, encoding: "utf8" }));
  tarball = join(consumer, out[0].filename);
  const files = out[0].files.map((f) => f.path);
  for (const f of ["index.js", "index.d.ts", "o1js.js", "o1js.d.ts", "merkle.js", "pool.js", "worker.js", "dist/wasm-simd.js", "README.md", "LICENSE-MIT", "LICENSE-APACHE"]) {
    if (!files.includes(f)) throw new Error(`the tarball lacks ${f} (has ${files.join(", ")})`);
  }
  if (files.some((f) => f.startsWith("test/") || f.startsWith("node_modules/"))) throw new Error("the tarball carries tests or node_modules");
  return `${out[0].filename}, ${files.length} files, ${(out[0].size / 1024).toFixed(0)} KiB`;
});
writeFileSync(join(consumer, "package.json"), JSON.stringify({ name: "consumer", private: true, type: "module" }, null, 2));
check("npm install of the tarball into a fresh project, offline", () => {
  run("npm", ["install", "--offline", "--no-audit", "--no-fund", tarball]);
  return JSON.parse(readFileSync(join(consumer, "node_modules/kimchi-poseidon/package.json"))).version;
});
writeFileSync(join(consumer, "main.mjs"), program + "console.log(result);\n");
check("ESM import in Node (root and ./o1js), results equal o1js's", () => {
  const got = run(process.execPath, ["main.mjs"]).trim();
  if (got !== want) throw new Error(`got ${got}, o1js ${want}`);
  return "MerkleTree root, hashWithPrefix, and a pool of two worker_threads: hashMany, fromLeavesParallel";
});

// The README's usage block, as shipped, run in the consumer project; what it logs
// must be what o1js computes.
check("the README's usage block runs as shipped, its output equals o1js's", () => {
  const readme = readFileSync(join(consumer, "node_modules/kimchi-poseidon/README.md"), "utf8");
  const block = readme.split("## Use")[1]?.match(/```js\n([\s\S]*?)```/)?.[1];
  if (!block) throw new Error("no ```js block after '## Use' in the README");
  const capture = "const logged = [];\nconsole.log = (...a) => logged.push(a);\n";
  const report = '\nprocess.stdout.write(JSON.stringify(logged, (_, v) => (typeof v === "bigint" ? `${v}` : v)));\n';
  writeFileSync(join(consumer, "readme.mjs"), capture + block + report);
  const got = JSON.parse(run(process.execPath, ["readme.mjs"]));
  const h = (xs) => o1js.Poseidon.hash(xs.map((x) => o1js.Field(x))).toString();
  const t = new o1js.MerkleTree(5);
  [1n, 2n, 3n].forEach((x, i) => t.setLeaf(BigInt(i), o1js.Field(x)));
  const expect = [[h([1n, 2n])], [[h([1n, 2n]), h([3n, 4n])]], [t.getRoot().toString()]];
  assert.deepEqual(got.slice(0, 3), expect);
  assert.ok(["wide", "fma", "simd", "scalar"].includes(got[3]?.[0]), `backend() gave ${JSON.stringify(got[3])}`);
  return `${got.length} lines logged, module ${got[3][0]}`;
});

const tsconfig = { compilerOptions: { strict: true, noEmit: true, target: "es2022", module: "nodenext", moduleResolution: "nodenext", types: [] } };
writeFileSync(join(consumer, "tsconfig.json"), JSON.stringify({ ...tsconfig, files: ["good.ts"] }));
writeFileSync(join(consumer, "good.ts"), `import { init, MerkleTree, MerkleMap, IndexedMerkleMap, hashWithPrefix, createPool, type Pool, type WitnessStep, type OptionValue } from "kimchi-poseidon";
import { Sponge, MerkleList, hashAnyLength, hashPacked, packToFieldsLegacy, deriveTokenId, calculateRoot, computeRootAndKey, type HashInput } from "kimchi-poseidon";
import { installFastPoseidon } from "kimchi-poseidon/o1js";
await init({ module: "simd" });
const t: MerkleTree = MerkleTree.fromLeaves(5, [1n, 2n]);
const w: WitnessStep[] = t.getWitness(1n);
const root: bigint = t.getRoot() + w[0].sibling;
const m = new MerkleMap();
m.set(1n, 2n);
const imm = new IndexedMerkleMap(8);
const o: OptionValue = imm.set(3n, 4n);
const len: bigint = imm.length;
const undo: () => void = installFastPoseidon({});
const pool: Pool = await createPool({ workers: 2, module: "simd" });
const pooled: bigint[] = await pool.hashMany([[1n, 2n]]);
const big: MerkleTree = await MerkleTree.fromLeavesParallel(5, [1n, 2n], { pool });
await pool.close();
console.log(root, m.getWitness(1n).isLefts[0], o.isSome, len, hashWithPrefix("a", []), undo, pooled, big.getRoot());
const sponge = new Sponge();
sponge.absorb(1n);
const input: HashInput = { fields: [1n], packed: [[1n, 1], [5n, 32]] };
const list = MerkleList.from([[1n], input], { prefix: "p" });
list.pushIf(true, [2n]);
const [mapRoot, key]: [bigint, bigint] = computeRootAndKey(m.getWitness(1n), 2n);
const copy: IndexedMerkleMap = imm.clone();
copy.overwriteIf(imm.isIncluded(3n), imm);
console.log(sponge.squeeze(), hashAnyLength([]), hashPacked(input), list.hash, list.length, packToFieldsLegacy({ bits: [true] }),
  deriveTokenId({ x: 1n, isOdd: false }), calculateRoot(w, 1n), mapRoot, key, t.validate(0n));
`);
check("tsc --strict type-checks a consumer file", () => {
  run(bin("tsc"), ["-p", "tsconfig.json"]);
  return run(bin("tsc"), ["--version"]).trim();
});
writeFileSync(join(consumer, "tsconfig.bad.json"), JSON.stringify({ ...tsconfig, files: ["bad.ts"] }));
writeFileSync(join(consumer, "bad.ts"), `import { MerkleTree } from "kimchi-poseidon";
new MerkleTree(5).setLeaf(1, "x");
await MerkleTree.fromLeavesParallel(5, [1n], {});
`);
check("tsc rejects wrong calls (number index, string leaf; fromLeavesParallel without a pool)", () => {
  try {
    run(bin("tsc"), ["-p", "tsconfig.bad.json"]);
  } catch (e) {
    const errors = (e.stdout || "").match(/error TS\d+/g) ?? [];
    if (errors.length >= 2) return `${errors.length} errors`;
    throw e;
  }
  throw new Error("tsc accepted it");
});

// The page reports whether it was cross-origin isolated and had SharedArrayBuffer:
// it is served without COOP/COEP, as many sites are, and the pool must work there.
writeFileSync(join(consumer, "page.mjs"), program + `fetch("/report", { method: "POST", body: JSON.stringify({ result, module, workers, crossOriginIsolated: globalThis.crossOriginIsolated, sharedArrayBuffer: typeof SharedArrayBuffer }) });\n`);
writeFileSync(join(consumer, "page.html"), `<!doctype html><meta charset="utf-8"><title>consumer</title><script type="module" src="bundle.js"></script>\n`);
// Two entry points: the page, and the pool's worker as worker.js beside the bundle,
// where the pool looks for it by default (new URL("./worker.js", import.meta.url)).
check("esbuild bundles a page that imports the package, and the pool's worker beside it", () => {
  run(bin("esbuild"), ["bundle=page.mjs", "worker=kimchi-poseidon/worker", "--bundle", "--format=esm", "--platform=browser", "--target=es2022", "--outdir=.", "--log-level=warning"]);
  const kib = (f) => (readFileSync(join(consumer, f)).length / 1024).toFixed(0);
  return `bundle.js ${kib("bundle.js")} KiB, worker.js ${kib("worker.js")} KiB`;
});
// In each engine's browser: Chromium always (this check needs it), Firefox and
// WebKit where they are installed (else a skip, said).
for (const [engine, name] of [["chromium", "Chromium"], ["firefox", "Firefox"], ["webkit", "WebKit (MiniBrowser)"]]) {
  if (engine !== "chromium" && !installed(engine)) {
    console.log(`skip  the bundled page in ${name}: ${engines[engine].binary} is not installed`);
    continue;
  }
  const report = await runPage("consumer/page.html", { isolated: false, engine });
  check(`the bundled page runs in headless ${name} without cross-origin isolation, its pool too; results equal o1js's`, () => {
    if (report.error || report.result !== want) throw new Error(JSON.stringify(report));
    if (report.crossOriginIsolated !== false || report.sharedArrayBuffer !== "undefined") throw new Error(`the page was isolated: ${JSON.stringify(report)}`);
    if (report.workers !== 2) throw new Error(`the pool had ${report.workers} workers`);
    return `module ${report.module}, 2 Web Workers, no SharedArrayBuffer`;
  });
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
