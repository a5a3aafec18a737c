// The package's modules under wasmtime, against o1js: above all `wide` (u64
// arithmetic, i64.mul_wide_u), which no Node up to 26 and not Debian's Chromium
// run, but also `scalar`, `simd` and `fma` (its FMA kernels: wasmtime fuses
// relaxed_madd where the CPU has FMA), so that each runs on a second engine. A
// driver module, generated here as text, imports the module's memory and exports
// (wasmtime --preload), writes each case's input words into the module's buffer as
// the package's core.js does, calls the export, and writes the status and the
// output words to stdout (WASI fd_write); this process compares them with o1js's
// results. The driver first writes whether this wasmtime fuses relaxed_madd.
//   node wasmtime-check.mjs [--time [--rounds N]] [MODULE.wasm ...]
//     (default: the four in dist/; WASMTIME or the wasmtime on PATH)
// --time: then, per module that agreed, the wall-clock time of one `permute` and of
// one hash in `hash_many` of 64 pairs (19,200 permutations a process, less a
// process that runs none; the median over N rounds, default 5, modules in turn).
// Run from the package copy (target/js-package: dev dependencies installed).
import { execFileSync } from "node:child_process";
import { performance } from "node:perf_hooks";
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

import { PoseidonLegacy, blockFp, blockFq, hashFp, sponge, updateFp } from "../test/o1js-ref.mjs";
import { P, Q } from "../index.js";
import { join as join4, splitmix, words } from "../test/common.mjs";
import { helpOnRequest } from "../dev/cli.mjs";

helpOnRequest(import.meta.url);

// The package directory (this script is one folder below it).
const pkg = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const argv = process.argv.slice(2);
const timing = argv.includes("--time");
const roundsAt = argv.indexOf("--rounds");
const rounds = roundsAt >= 0 ? Number(argv[roundsAt + 1]) : 5;
const files = argv.filter((a, i) => !a.startsWith("--") && (roundsAt < 0 || i !== roundsAt + 1));
if (!(rounds >= 1) || (roundsAt >= 0 && !timing)) {
  console.error("usage: node wasmtime-check.mjs [--time [--rounds N]] [MODULE.wasm ...]");
  process.exit(2);
}
const modules = files.length ? files.map((f) => resolve(f)) : ["wide", "fma", "simd", "scalar"].map((m) => join(pkg, `dist/poseidon-${m}.wasm`));
const missing = modules.filter((f) => !existsSync(f));
if (missing.length) {
  console.error(`wasmtime-check: no such module: ${missing.join(", ")} (build them with node build.mjs)`);
  process.exit(2);
}
const wasmtime = process.env.WASMTIME ?? "wasmtime";
let version;
try {
  version = execFileSync(wasmtime, ["--version"], { stdio: ["ignore", "pipe", "ignore"] }).toString().trim();
} catch {
  console.error(`wasmtime-check: cannot run wasmtime ("${wasmtime}"): put it on PATH or set WASMTIME (cargo install --locked wasmtime-cli@48.0.8)`);
  process.exit(2);
}
const [KIMCHI_FP, KIMCHI_FQ, LEGACY_FP] = [0, 1, 2];

// Seeded: the same cases on every run.
const next = splitmix(0x5eed);
const edges = (m) => [0n, 1n, 2n, m - 1n, m - 2n, (m - 1n) / 2n, (1n << 254n) - 1n];
// Every third element an edge value (each in turn), the rest random below m.
let edge = 0;
const element = (m, i) => {
  if (i % 3 !== 2) return ((next() << 192n) | (next() << 128n) | (next() << 64n) | next()) % m;
  const e = edges(m);
  return e[edge++ % e.length];
};
const elements = (m, n) => Array.from({ length: n }, (_, i) => element(m, i));

// What o1js computes per parameter set: the permutation, and the hash.
const sets = [
  { kind: KIMCHI_FP, m: P, permute: blockFp, hash: hashFp },
  { kind: KIMCHI_FQ, m: Q, permute: blockFq, hash: sponge(Q, blockFq) },
  { kind: LEGACY_FP, m: P, permute: (s) => PoseidonLegacy.update(s, []), hash: (xs) => PoseidonLegacy.hash(xs) },
];

// The cases: the export, its arguments, the input words, the number of output
// words, what o1js computes, and how to read the output.
const cases = [];
const state = (ws) => [0, 1, 2].map((i) => join4(ws.slice(4 * i, 4 * i + 4)));
for (const { kind, m, permute: want } of sets) {
  const states = [[m - 1n, m - 1n, m - 1n], [0n, 0n, 0n], ...Array.from({ length: 24 }, () => elements(m, 3))];
  for (const s of states) {
    cases.push({ what: `permute(${kind}) of ${s}`, call: "permute", args: [kind], input: s.flatMap(words), out: 12, want: want(s), read: state });
  }
}
// Chains: the permutation applied 2,000 times in place (its output is where its
// input is read), so 2,000 unrelated states for the arithmetic.
const CHAIN = 2000;
for (const { kind, m, permute: want } of sets) {
  const s = [m - 1n, m - 2n, 0n];
  let t = s;
  for (let i = 0; i < CHAIN; i++) t = want(t);
  cases.push({ what: `permute(${kind}) chained ${CHAIN} times`, call: "permute", args: [kind], repeat: CHAIN, input: s.flatMap(words), out: 12, want: t, read: state });
}
for (const { kind, m, hash: want } of sets) {
  for (let n = 0; n <= 12; n++) {
    const xs = elements(m, n);
    cases.push({ what: `hash(${kind}) of ${n}`, call: "hash", args: [kind, n], input: xs.flatMap(words), out: 4, want: want(xs), read: join4 });
  }
}
// The batch path: the kimchi sets.
for (const { kind, m, hash: want } of sets.filter((t) => t.kind !== LEGACY_FP)) {
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
// [output words, status] to stdout.
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
  ;; Writes [p, p + bytes) to stdout; the iovec and the count go just past it.
  (func $emit (param $p i32) (param $bytes i32) (local $iov i32)
    (local.set $iov (i32.add (local.get $p) (local.get $bytes)))
    (i32.store (local.get $iov) (local.get $p))
    (i32.store offset=4 (local.get $iov) (local.get $bytes))
    (if (call $fd_write (i32.const 1) (local.get $iov) (i32.const 1) (i32.add (local.get $iov) (i32.const 8))) (then unreachable)))
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
  // The outputs start at the buffer: the status word goes after them.
  body.push(`(i64.store offset=${8 * c.out} (local.get $p) (i64.extend_i32_u (local.get $st)))`);
  body.push(`(call $emit (local.get $p) (i32.const ${8 * (c.out + 1)}))`);
  wat += `  (func $case${k} (local $p i32) (local $st i32) (local $i i32)\n    ${body.join("\n    ")})\n`;
});
// Whether relaxed_madd is fused here: (2^52 − 1)² needs 105 bits, so a fused
// multiply-add of it minus its rounded value gives the rounding error, not 0.
wat += `  (func $fused (local $p i32)
    (local.set $p (call $buffer (i32.const ${most})))
    (i64.store (local.get $p) (i64.extend_i32_u (f64.ne (f64.const 0) (f64x2.extract_lane 0
      (f64x2.relaxed_madd (f64x2.splat (f64.const 4503599627370495)) (f64x2.splat (f64.const 4503599627370495))
        (f64x2.splat (f64.neg (f64.mul (f64.const 4503599627370495) (f64.const 4503599627370495)))))))))
    (call $emit (local.get $p) (i32.const 8)))
`;
wat += `  (func (export "_start")\n    (call $fused)\n    ${cases.map((_, k) => `(call $case${k})`).join("\n    ")})\n)\n`;

// The drivers go beside the package (target/js-package in the scripts), removed at the end.
const dir = join(pkg, ".wasmtime-check");
rmSync(dir, { recursive: true, force: true });
mkdirSync(dir);
const driver = join(dir, "driver.wat");
writeFileSync(driver, wat);
let failed = 0;
const agreed = [];
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
  if (!bad) agreed.push(module);
}
console.log(`${version}, -W wide-arithmetic=y`);
if (timing) timeModules(agreed);
rmSync(dir, { recursive: true, force: true });
console.log(`${modules.length - failed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);

// Timing drivers: `permute` chained K times on one state, or K calls of `hash_many`
// on 64 pairs (the input restored from a copy before each call: the digests
// overwrite it). K = 0 measures the process without the work.
function timingDriver(batch, k) {
  const pairs = Array.from({ length: 128 }, () => element(P, 0));
  const input = batch ? [...Array(64).fill(2n), ...pairs.flatMap(words)] : elements(P, 3).flatMap(words);
  const copyAt = 8 * 1024;
  const stores = input.map((x, i) => `(i64.store offset=${(batch ? copyAt : 0) + 8 * i} (local.get $p) (i64.const ${hex(x)}))`);
  const step = batch
    ? `(memory.copy (local.get $p) (i32.add (local.get $p) (i32.const ${copyAt})) (i32.const ${8 * input.length})) (drop (call $hash_many (i32.const 0) (i32.const 64)))`
    : "(drop (call $permute (i32.const 0)))";
  return `(module
  (import "w" "memory" (memory 1))
  (import "w" "buffer" (func $buffer (param i32) (result i32)))
  (import "w" "hash_many" (func $hash_many (param i32 i32) (result i32)))
  (import "w" "permute" (func $permute (param i32) (result i32)))
  (export "memory" (memory 0))
  (func (export "_start") (local $p i32) (local $i i32)
    (local.set $p (call $buffer (i32.const ${copyAt / 8 + input.length})))
    ${stores.join("\n    ")}
    (local.set $i (i32.const ${k}))
    (block $done (loop $again
      (br_if $done (i32.eqz (local.get $i)))
      ${step}
      (local.set $i (i32.sub (local.get $i) (i32.const 1)))
      (br $again)))))
`;
}

function timeModules(list) {
  const PERMS = 19200; // 300 batches of 64
  const kinds = [
    ["permute", false, PERMS],
    ["hash_many(64)", true, PERMS / 64],
  ];
  const files = {};
  for (const [name, batch, k] of kinds) {
    for (const n of [k, 0]) {
      files[`${name}-${n}`] = join(dir, `time-${batch ? "batch" : "one"}-${n}.wat`);
      writeFileSync(files[`${name}-${n}`], timingDriver(batch, n));
    }
  }
  const wall = (module, file) => {
    const t = performance.now();
    execFileSync(wasmtime, ["run", "-W", "wide-arithmetic=y", "--preload", `w=${module}`, file]);
    return performance.now() - t;
  };
  // times[module][kind]: µs per permutation, one per round.
  const times = list.map(() => kinds.map(() => []));
  for (let r = 0; r < rounds; r++) {
    list.forEach((module, m) =>
      kinds.forEach(([name, , k], j) => {
        const with_ = wall(module, files[`${name}-${k}`]);
        const without = wall(module, files[`${name}-0`]);
        times[m][j].push((1000 * (with_ - without)) / PERMS);
      }),
    );
    process.stderr.write(`round ${r + 1}/${rounds}\r`);
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  console.log(`\nµs per permutation under wasmtime, wall clock, median of ${rounds} rounds (${PERMS} permutations a process, less a process without them)`);
  console.log(`${"module".padEnd(22)} ${"permute".padStart(10)} ${"hash_many(64)".padStart(14)}   one / batch`);
  list.forEach((module, m) => {
    const [one, many] = times[m].map(median);
    console.log(`${basename(module).padEnd(22)} ${one.toFixed(2).padStart(10)} ${many.toFixed(2).padStart(14)}   ${(one / many).toFixed(2)}×`);
  });
}
