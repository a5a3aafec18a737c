// Shared by fma-kernel.mjs (Node) and fma.html: the generated FMA kernel
// module's state layout (fma-kernel/src/module.rs), its check against o1js's
// block cipher on edge and seeded random states, and the timed cases.
import { measure } from "./timing.mjs";

export const P = 2n ** 254n + 45560315531419706090280762371685220353n;
// The kernel takes and gives x·2^261 mod p (the u29 backend's form).
const R = 2n ** 261n;
// As fma-kernel/src/interp.rs: the state at STATE, the kernel's
// region at BASE (fma_init writes its constants there).
const STATE = 1024;
const BASE = 4096;
const ready = new WeakSet();
function setup(k) {
  if (ready.has(k)) return;
  if (k.fma_fused(4503599627370495) !== 1) throw new Error("this engine's f64x2.relaxed_madd is not fused: the kernel would compute wrong results");
  k.fma_init(BASE);
  ready.add(k);
}
const mask52 = (1n << 52n) - 1n;
const modpow = (b, e) => {
  let r = 1n;
  for (b %= P; e > 0n; e >>= 1n, b = (b * b) % P) if (e & 1n) r = (r * b) % P;
  return r;
};
const rInv = modpow(R, P - 2n);
const le = (x) => Uint8Array.from({ length: 32 }, (_, i) => Number((x >> BigInt(8 * i)) & 0xffn));
const fromLe = (b) => b.reduceRight((acc, byte) => (acc << 8n) | BigInt(byte), 0n);

// Vector v's two lanes hold elements slots[v] of `xs`: limbs of x·2^261 mod p,
// 52 bits each, as f64 (limb l of vector v at 2·(5v + l) + lane).
function put(k, xs, slots, at = STATE) {
  const f = new Float64Array(k.memory.buffer, at, 10 * slots.length);
  const m = xs.map((x) => (x * R) % P);
  slots.forEach((lanes, v) => {
    for (let l = 0; l < 5; l++) lanes.forEach((e, j) => (f[10 * v + 2 * l + j] = Number((m[e] >> BigInt(52 * l)) & mask52)));
  });
}

// Lane j of vector v, back as an element.
function get(k, v, j) {
  const f = new Float64Array(k.memory.buffer, STATE, 10 * (v + 1));
  let x = 0n;
  for (let l = 4; l >= 0; l--) {
    const limb = f[10 * v + 2 * l + j];
    if (!Number.isInteger(limb) || limb < 0) throw new Error(`limb ${limb} is not an integer`);
    x = (x << 52n) + BigInt(limb);
  }
  return (x * rInv) % P;
}

// fma_permute: elements 0 and 1 in the first vector's lanes, element 2 in both
// lanes of the second. fma_permute2: two states, element e of state j in lane j
// of vector e.
const SINGLE = [[0, 1], [2, 2]];
const PAIR = [[0, 3], [1, 4], [2, 5]];

function states() {
  let seed = 0x9e3779b97f4a7c15n;
  const rand = () => {
    seed = (seed * 6364136223846793005n + 1442695040888963407n) & ((1n << 64n) - 1n);
    return seed;
  };
  const edge = [0n, 1n, P - 1n, P - 2n];
  return [
    ...edge.map((_, i) => [0, 1, 2].map((j) => edge[(i + j) % 4])),
    ...Array.from({ length: 12 }, () => [0, 1, 2].map(() => ((rand() << 192n) | (rand() << 128n) | (rand() << 64n) | rand()) % P)),
  ];
}

const blockBytes = (state) => {
  const bytes = new Uint8Array(96);
  state.forEach((x, i) => bytes.set(le(x), 32 * i));
  return bytes;
};

// Kernel exports `k` against `blockCipher` (o1js's caml_pasta_fp_poseidon_block_cipher),
// both exports (each state alone, and beside the next state as a pair): the
// failures (empty when all agree) and how many checks were made.
export function check(k, blockCipher) {
  setup(k);
  const all = states();
  const want = all.map((s) => {
    const out = blockCipher(blockBytes(s));
    return [0, 1, 2].map((i) => fromLe(out.subarray(32 * i, 32 * i + 32)));
  });
  const failures = [];
  const same = (got, w) => got.every((x, i) => x === w[i]);
  all.forEach((s, n) => {
    put(k, s, SINGLE);
    k.fma_permute(BASE, STATE);
    const got = [get(k, 0, 0), get(k, 0, 1), get(k, 1, 0)];
    if (!same(got, want[n])) failures.push({ state: s, export: "fma_permute", got, want: want[n] });
    const m = (n + 1) % all.length;
    put(k, [...s, ...all[m]], PAIR);
    k.fma_permute2(BASE, STATE);
    [n, m].forEach((i, j) => {
      const got = [0, 1, 2].map((e) => get(k, e, j));
      if (!same(got, want[i])) failures.push({ state: all[i], export: `fma_permute2 lane ${j}`, got, want: want[i] });
    });
  });
  return { failures, tried: 3 * all.length };
}

// Medians (ns per permutation) of the single and pair exports of each kernel in
// `kernels`, the package module's raw `permute` export (`pkg`, or none) and the
// block cipher, one state, `rounds` rounds.
export function time(kernels, pkg, blockCipher, rounds) {
  const start = states()[4];
  const bytes = blockBytes(start);
  const cases = kernels.flatMap((k) => {
    setup(k);
    put(k, start, SINGLE);
    // The pair (the same state twice) past the single's 160 bytes.
    put(k, [...start, ...start], PAIR, STATE + 160);
    return [() => k.fma_permute(BASE, STATE), () => k.fma_permute2(BASE, STATE + 160)];
  });
  if (pkg) {
    const ptr = pkg.buffer(12);
    new BigUint64Array(pkg.memory.buffer, ptr, 12).set(start.flatMap((x) => [0n, 64n, 128n, 192n].map((s) => (x >> s) & ((1n << 64n) - 1n))));
    cases.push(() => pkg.permute(0));
  }
  cases.push(() => blockCipher(bytes));
  const med = measure(cases.map((f) => [f, 100]), { rounds });
  kernels.forEach((_, i) => (med[2 * i + 1] /= 2));
  return med;
}
