// Shared by fma-kernel.mjs (Node) and browser/fma.html: the generated FMA kernel
// module's state layout (benches/src/fma_kernel.rs), its check against o1js's
// block cipher on edge and seeded random states, and the timed cases.
import { measure } from "./timing.mjs";

export const P = 2n ** 254n + 45560315531419706090280762371685220353n;
const R = 2n ** 260n;
// As benches/src/fma_kernel.rs's interpreter: the state at STATE, the kernel's
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

// Elements 0 and 1 in the lanes of the first vector, element 2 in both lanes of
// the second; limbs of x·2^260 mod p, 52 bits each, as f64.
function put(k, state) {
  const f = new Float64Array(k.memory.buffer, STATE, 20);
  const m = state.map((x) => (x * R) % P);
  const lanes = [[m[0], m[1]], [m[2], m[2]]];
  for (let v = 0; v < 2; v++)
    for (let l = 0; l < 5; l++) for (let j = 0; j < 2; j++) f[10 * v + 2 * l + j] = Number((lanes[v][j] >> BigInt(52 * l)) & mask52);
}

function get(k) {
  const f = new Float64Array(k.memory.buffer, STATE, 20);
  const value = (v, j) => {
    let x = 0n;
    for (let l = 4; l >= 0; l--) {
      const limb = f[10 * v + 2 * l + j];
      if (!Number.isInteger(limb) || limb < 0) throw new Error(`limb ${limb} is not an integer`);
      x = (x << 52n) + BigInt(limb);
    }
    return (x * rInv) % P;
  };
  return [value(0, 0), value(0, 1), value(1, 0)];
}

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

// Kernel exports `k` against `blockCipher` (o1js's caml_pasta_fp_poseidon_block_cipher):
// the states that disagree (empty when all agree) and how many were tried.
export function check(k, blockCipher) {
  setup(k);
  const all = states();
  const failures = [];
  for (const s of all) {
    put(k, s);
    k.fma_permute(BASE, STATE);
    const got = get(k);
    const out = blockCipher(blockBytes(s));
    const want = [0, 1, 2].map((i) => fromLe(out.subarray(32 * i, 32 * i + 32)));
    if (got.some((x, i) => x !== want[i])) failures.push({ state: s, got, want });
  }
  return { failures, tried: all.length };
}

// Medians (ns per call) of the kernel, the package module's raw `permute` export
// (`pkg`, or none) and the block cipher, one state, `rounds` rounds.
export function time(k, pkg, blockCipher, rounds) {
  setup(k);
  const start = states()[4];
  put(k, start);
  const bytes = blockBytes(start);
  const cases = [() => k.fma_permute(BASE, STATE)];
  if (pkg) {
    const ptr = pkg.buffer(12);
    new BigUint64Array(pkg.memory.buffer, ptr, 12).set(start.flatMap((x) => [0n, 64n, 128n, 192n].map((s) => (x >> s) & ((1n << 64n) - 1n))));
    cases.push(() => pkg.permute(0));
  }
  cases.push(() => blockCipher(bytes));
  return measure(cases.map((f) => [f, 100]), { rounds });
}
