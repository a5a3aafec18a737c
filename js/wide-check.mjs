// The package's `wide` module (u64 arithmetic, i64.mul_wide_u) against o1js. No
// Node up to 26 and not Debian's Chromium run Wasm wide arithmetic; wasmtime does
// (-W wide-arithmetic=y). So a driver module, generated here as text, imports the
// wide module's memory and exports (wasmtime --preload), writes each case's input
// words into the module's buffer as the package's core.js does, calls the export,
// and writes the status and the output words to stdout (WASI fd_write); this
// process compares them with o1js's results.
//   node wide-check.mjs [MODULE.wasm]   (default dist/poseidon-wide.wasm; WASMTIME or
//                                        the wasmtime on PATH)
// Run from the package copy (target/js-package: dev dependencies installed).
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

import { PoseidonLegacy, blockFp, blockFq, hashFp, sponge, updateFp } from "./o1js-ref.mjs";
import { P, Q } from "./index.js";

const here = dirname(fileURLToPath(import.meta.url));
const module = resolve(process.argv[2] ?? join(here, "dist/poseidon-wide.wasm"));
const wasmtime = process.env.WASMTIME ?? "wasmtime";
const [KIMCHI_FP, KIMCHI_FQ, LEGACY_FP] = [0, 1, 2];

// SplitMix64, seeded: the same cases on every run.
let seed = 0x5eedn;
const M64 = (1n << 64n) - 1n;
function next() {
  seed = (seed + 0x9e3779b97f4a7c15n) & M64;
  let z = seed;
  z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & M64;
  z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & M64;
  return z ^ (z >> 31n);
}
const edges = (m) => [0n, 1n, 2n, m - 1n, m - 2n, (m - 1n) / 2n, (1n << 254n) - 1n];
// Every third element an edge value (each in turn), the rest random below m.
let edge = 0;
const element = (m, i) => (i % 3 === 2 ? edges(m)[edge++ % 7] : ((next() << 192n) | (next() << 128n) | (next() << 64n) | next()) % m);
const elements = (m, n) => Array.from({ length: n }, (_, i) => element(m, i));
const words = (x) => [0n, 64n, 128n, 192n].map((s) => (x >> s) & M64);
const join4 = (ws) => ws.reduceRight((acc, x) => (acc << 64n) | x, 0n);

// The cases: the export, its arguments, the input words, the number of output
// words, what o1js computes, and how to read the output.
const cases = [];
const state = (ws) => [0, 1, 2].map((i) => join4(ws.slice(4 * i, 4 * i + 4)));
for (const [kind, m, want] of [
  [KIMCHI_FP, P, blockFp],
  [KIMCHI_FQ, Q, blockFq],
  [LEGACY_FP, P, (s) => PoseidonLegacy.update(s, [])],
]) {
  const states = [[m - 1n, m - 1n, m - 1n], [0n, 0n, 0n], ...Array.from({ length: 24 }, () => elements(m, 3))];
  for (const s of states) {
    cases.push({ what: `permute(${kind}) of ${s}`, call: "permute", args: [kind], input: s.flatMap(words), out: 12, want: want(s), read: state });
  }
}
for (const [kind, m, want] of [
  [KIMCHI_FP, P, hashFp],
  [KIMCHI_FQ, Q, sponge(Q, blockFq)],
  [LEGACY_FP, P, (xs) => PoseidonLegacy.hash(xs)],
]) {
  for (let n = 0; n <= 12; n++) {
    const xs = elements(m, n);
    cases.push({ what: `hash(${kind}) of ${n}`, call: "hash", args: [kind, n], input: xs.flatMap(words), out: 4, want: want(xs), read: join4 });
  }
}
for (const [kind, m, want] of [
  [KIMCHI_FP, P, hashFp],
  [KIMCHI_FQ, Q, sponge(Q, blockFq)],
]) {
  for (const count of [1, 2, 3, 4, 5, 7, 9, 64]) {
    // Merkle pairs, and inputs of lengths 0 to 5 mixed.
    for (const mixed of [false, true]) {
      const inputs = Array.from({ length: count }, (_, i) => elements(m, mixed ? i % 6 : 2));
      const input = [...inputs.map((xs) => BigInt(xs.length)), ...inputs.flat().flatMap(words)];
      const read = (ws) => inputs.map((_, i) => join4(ws.slice(4 * i, 4 * i + 4)));
      cases.push({ what: `hash_many(${kind}) of ${count}${mixed ? " mixed" : " pairs"}`, call: "hash_many", args: [kind, count], input, out: 4 * count, want: inputs.map(want), read });
    }
  }
}
for (let n = 0; n <= 5; n++) {
  const s = elements(P, 3);
  const xs = elements(P, n);
  cases.push({ what: `update(0) of ${n}`, call: "update", args: [KIMCHI_FP, n], input: [...s, ...xs].flatMap(words), out: 12, want: updateFp(s, xs), read: state });
}

// The driver: one function per case. The buffer is asked for once at its largest,
// so that later asks return it unmoved; each case writes its input, calls, asks for
// the buffer again (where core.js reads results) and writes
// [status, output words] to stdout, the iovec just past them.
const most = Math.max(...cases.map((c) => Math.max(c.input.length, c.out))) + 4;
const hex = (x) => `0x${x.toString(16)}`;
let wat = `(module
  (import "w" "memory" (memory 1))
  (import "w" "buffer" (func $buffer (param i32) (result i32)))
  (import "w" "hash" (func $hash (param i32 i32) (result i32)))
  (import "w" "hash_many" (func $hash_many (param i32 i32) (result i32)))
  (import "w" "permute" (func $permute (param i32) (result i32)))
  (import "w" "update" (func $update (param i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "fd_write" (func $fd_write (param i32 i32 i32 i32) (result i32)))
  (export "memory" (memory 0))
`;
cases.forEach((c, k) => {
  const body = [`(local.set $p (call $buffer (i32.const ${most})))`];
  c.input.forEach((x, i) => body.push(`(i64.store offset=${8 * i} (local.get $p) (i64.const ${hex(x)}))`));
  body.push(`(local.set $st (call $${c.call} ${c.args.map((a) => `(i32.const ${a})`).join(" ")}))`);
  body.push(`(local.set $p (call $buffer (i32.const ${most})))`);
  // The status word first: the outputs start at the buffer, so it goes after them
  // and the iovec covers [outputs, status].
  const bytes = 8 * (c.out + 1);
  body.push(`(i64.store offset=${8 * c.out} (local.get $p) (i64.extend_i32_u (local.get $st)))`);
  body.push(`(i32.store offset=${bytes} (local.get $p) (local.get $p))`);
  body.push(`(i32.store offset=${bytes + 4} (local.get $p) (i32.const ${bytes}))`);
  body.push(`(if (call $fd_write (i32.const 1) (i32.add (local.get $p) (i32.const ${bytes})) (i32.const 1) (i32.add (local.get $p) (i32.const ${bytes + 8}))) (then unreachable))`);
  wat += `  (func $case${k} (local $p i32) (local $st i32)\n    ${body.join("\n    ")})\n`;
});
wat += `  (func (export "_start")\n    ${cases.map((_, k) => `(call $case${k})`).join("\n    ")})\n)\n`;

const dir = mkdtempSync(join(tmpdir(), "wide-check-"));
let out;
try {
  writeFileSync(join(dir, "driver.wat"), wat);
  out = execFileSync(wasmtime, ["run", "-W", "wide-arithmetic=y", "--preload", `w=${module}`, join(dir, "driver.wat")], { maxBuffer: 1 << 26 });
} catch (e) {
  console.error(`wide-check: wasmtime failed: ${(e.stderr || e.message).toString().trim()}`);
  process.exit(1);
} finally {
  rmSync(dir, { recursive: true, force: true });
}

const all = new BigUint64Array(out.buffer, out.byteOffset, out.length / 8);
let at = 0, failed = 0;
for (const c of cases) {
  const ws = Array.from(all.subarray(at, at + c.out + 1));
  at += c.out + 1;
  const status = ws[c.out];
  const got = c.read(ws.slice(0, c.out));
  if (status !== 0n || JSON.stringify(got, (_, v) => `${v}`) !== JSON.stringify(c.want, (_, v) => `${v}`)) {
    failed++;
    if (failed <= 5) console.log(`FAIL  ${c.what}: status ${status}, got ${got}, o1js ${c.want}`);
  }
}
if (at * 8 !== out.length) {
  console.log(`FAIL  the driver wrote ${out.length} bytes, ${at * 8} expected`);
  failed++;
}
const version = execFileSync(wasmtime, ["--version"]).toString().trim();
console.log(`${cases.length - failed} of ${cases.length} cases of ${module} agree with o1js (${version}, -W wide-arithmetic=y)`);
console.log(`${cases.length - failed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
