// Shared by the test files (not a test file itself: the runner takes *.test.mjs).
import crypto from "node:crypto";
import { syncBuiltinESMExports } from "node:module";

import { init } from "../index.js";

// POSEIDON_MODULE=scalar|simd|fma|wide: the module under test (the scripts run the
// tests once per module); else the best this engine supports.
export async function initModuleUnderTest() {
  const module = process.env.POSEIDON_MODULE;
  await init(module ? { module } : undefined);
}

// SplitMix64, seeded: the same inputs on every run.
export function splitmix(seed) {
  let s = BigInt(seed);
  const M = (1n << 64n) - 1n;
  return () => {
    s = (s + 0x9e3779b97f4a7c15n) & M;
    let z = s;
    z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & M;
    z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & M;
    return z ^ (z >> 31n);
  };
}

// o1js's internals that its package exports leave out (mina-signer's bigint code,
// the transaction layouts, its random generators), imported by path.
export const o1jsModule = (path) => import(new URL(`../node_modules/o1js/dist/node/${path}`, import.meta.url).href);

// node:crypto's randomBytes drawn from SplitMix64, seeded, for o1js code that takes
// its randomness there (mina-signer's random transactions): ES modules that
// imported it see the replacement too (syncBuiltinESMExports).
export function seedRandomBytes(seed) {
  const next = splitmix(seed);
  crypto.randomBytes = (n) => Buffer.from(Array.from({ length: n }, () => Number(next() & 0xffn)));
  syncBuiltinESMExports();
}

// An element as the module's four 64-bit words (little-endian), and back.
export const words = (x) => [0n, 64n, 128n, 192n].map((s) => (x >> s) & ((1n << 64n) - 1n));
export const join = (ws) => ws.reduceRight((acc, x) => (acc << 64n) | x, 0n);
