// The package's modules under wasmtime, against o1js: above all `wide` (u64
// arithmetic, i64.mul_wide_u), which no Node up to 26 and not Debian's Chromium
// run, but also `scalar`, `simd` and `fma` (its FMA kernels: wasmtime fuses
// relaxed_madd where the CPU has FMA), so that each runs on a second engine. A
// driver module, generated here as text, imports the module's memory and exports
// (wasmtime --preload), writes each case's input words into the module's buffer as
// the package's core.js does, calls the export, and writes the status and the
// output words to stdout (WASI fd_write); this process compares them with o1js's
// results. The driver first writes whether this wasmtime fuses relaxed_madd.
//   node wasmtime-check.mjs [MODULE.wasm ...]   (default: the four in dist/; WASMTIME
//                                                or the wasmtime on PATH)
// Run from the package copy (target/js-package: dev dependencies installed).
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

import { PoseidonLegacy, blockFp, blockFq, hashFp, sponge, updateFp } from "./o1js-ref.mjs";
import { P, Q } from "./index.js";

const here = dirname(fileURLToPath(import.meta.url));
const modules = process.argv.length > 2 ? process.argv.slice(2).map((f) => resolve(f)) : ["wide", "fma", "simd", "scalar"].map((m) => join(here, `dist/poseidon-${m}.wasm`));
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
// Chains: the permutation applied 2,000 times in place (its output is where its
// input is read), so 2,000 unrelated states for the arithmetic.
const CHAIN = 2000;
for (const [kind, m, want] of [
  [KIMCHI_FP, P, blockFp],
  [KIMCHI_FQ, Q, blockFq],
  [LEGACY_FP, P, (s) => PoseidonLegacy.update(s, [])],
]) {
  const s = [m - 1n, m - 2n, 0n];
  let t = s;
  for (let i = 0; i < CHAIN; i++) t = want(t);
  cases.push({ what: `permute(${kind}) chained ${CHAIN} times`, call: "permute", args: [kind], repeat: CHAIN, input: s.flatMap(words), out: 12, want: t, read: state });
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
  const call = `(call $${c.call} ${c.args.map((a) => `(i32.const ${a})`).join(" ")})`;
  if (c.repeat) {
    // Any non-zero status along the chain stays in $st.
    body.push(`(local.set $i (i32.const ${c.repeat}))`);
    body.push(`(loop $again (local.set $st (i32.or (local.get $st) ${call})) (br_if $again (local.tee $i (i32.sub (local.get $i) (i32.const 1)))))`);
  } else body.push(`(local.set $st ${call})`);
  body.push(`(local.set $p (call $buffer (i32.const ${most})))`);
  // The status word first: the outputs start at the buffer, so it goes after them
  // and the iovec covers [outputs, status].
  const bytes = 8 * (c.out + 1);
  body.push(`(i64.store offset=${8 * c.out} (local.get $p) (i64.extend_i32_u (local.get $st)))`);
  body.push(`(i32.store offset=${bytes} (local.get $p) (local.get $p))`);
  body.push(`(i32.store offset=${bytes + 4} (local.get $p) (i32.const ${bytes}))`);
  body.push(`(if (call $fd_write (i32.const 1) (i32.add (local.get $p) (i32.const ${bytes})) (i32.const 1) (i32.add (local.get $p) (i32.const ${bytes + 8}))) (then unreachable))`);
  wat += `  (func $case${k} (local $p i32) (local $st i32) (local $i i32)\n    ${body.join("\n    ")})\n`;
});
// Whether relaxed_madd is fused here: (2^52 − 1)² needs 105 bits, so a fused
// multiply-add of it minus its rounded value gives the rounding error, not 0.
wat += `  (func $fused (local $p i32)
    (local.set $p (call $buffer (i32.const ${most})))
    (i64.store (local.get $p) (i64.extend_i32_u (f64.ne (f64.const 0) (f64x2.extract_lane 0
      (f64x2.relaxed_madd (f64x2.splat (f64.const 4503599627370495)) (f64x2.splat (f64.const 4503599627370495))
        (f64x2.splat (f64.neg (f64.mul (f64.const 4503599627370495) (f64.const 4503599627370495)))))))))
    (i32.store offset=8 (local.get $p) (local.get $p))
    (i32.store offset=12 (local.get $p) (i32.const 8))
    (if (call $fd_write (i32.const 1) (i32.add (local.get $p) (i32.const 8)) (i32.const 1) (i32.add (local.get $p) (i32.const 16))) (then unreachable)))
`;
wat += `  (func (export "_start")\n    (call $fused)\n    ${cases.map((_, k) => `(call $case${k})`).join("\n    ")})\n)\n`;

const dir = mkdtempSync(join(tmpdir(), "wasmtime-check-"));
const driver = join(dir, "driver.wat");
writeFileSync(driver, wat);
const version = execFileSync(wasmtime, ["--version"]).toString().trim();
let failed = 0;
for (const module of modules) {
  const name = basename(module);
  let out;
  try {
    out = execFileSync(wasmtime, ["run", "-W", "wide-arithmetic=y", "--preload", `w=${module}`, driver], { maxBuffer: 1 << 26 });
  } catch (e) {
    console.log(`FAIL  ${name}: wasmtime failed: ${(e.stderr || e.message).toString().trim()}`);
    failed++;
    continue;
  }
  const all = new BigUint64Array(out.buffer, out.byteOffset, out.length / 8);
  const fused = all[0] === 1n;
  let at = 1, bad = 0;
  for (const c of cases) {
    const ws = Array.from(all.subarray(at, at + c.out + 1));
    at += c.out + 1;
    const status = ws[c.out];
    const got = c.read(ws.slice(0, c.out));
    if (status !== 0n || JSON.stringify(got, (_, v) => `${v}`) !== JSON.stringify(c.want, (_, v) => `${v}`)) {
      bad++;
      if (bad <= 5) console.log(`FAIL  ${name}, ${c.what}: status ${status}, got ${got}, o1js ${c.want}`);
    }
  }
  if (at * 8 !== out.length) {
    console.log(`FAIL  ${name}: the driver wrote ${out.length} bytes, ${at * 8} expected`);
    bad++;
  }
  const note = name.includes("fma") ? (fused ? " (relaxed_madd fused: its FMA kernels ran)" : " (relaxed_madd not fused here: its u29 fallback ran)") : "";
  console.log(`${bad ? "FAIL" : "ok  "}  ${name}: ${cases.length - bad} of ${cases.length} cases agree with o1js${note}`);
  failed += bad ? 1 : 0;
}
rmSync(dir, { recursive: true, force: true });
console.log(`${version}, -W wide-arithmetic=y`);
console.log(`${modules.length - failed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
