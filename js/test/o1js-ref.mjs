// What o1js computes, for the checks (tests, wasmtime-check.mjs): o1js 2.15.0, a dev
// dependency. The block ciphers and the legacy Poseidon are not in o1js's package
// exports, so they are loaded by path.
import { createRequire } from "node:module";

import { Field, Poseidon } from "o1js";

const o1jsFile = (path) => new URL(`../node_modules/o1js/dist/node/${path}`, import.meta.url);

/** o1js's `Poseidon.hash` (kimchi, Fp) of bigints. */
export const hashFp = (xs) => Poseidon.hash(xs.map((x) => Field(x))).toBigInt();

/** o1js's `Poseidon.update(state, fields)` of bigints. */
export const updateFp = (state, xs) =>
  Poseidon.update(
    state.map((x) => Field(x)),
    xs.map((x) => Field(x)),
  ).map((x) => x.toBigInt());

/** o1js's legacy Poseidon (bigint code, what mina-signer hashes legacy transactions with). */
export const { PoseidonLegacy } = await import(o1jsFile("bindings/crypto/poseidon.js").href);

// o1js's Rust wasm block ciphers over Fp and Fq, on states of canonical 32-byte
// little-endian elements.
const kimchi = createRequire(import.meta.url)(o1jsFile("bindings/compiled/node_bindings/kimchi_wasm.cjs").pathname);
const cipher = (f) => (s) => {
  const le = (x) => Uint8Array.from({ length: 32 }, (_, i) => Number((x >> BigInt(8 * i)) & 0xffn));
  const fromLe = (b) => b.reduceRight((acc, byte) => (acc << 8n) | BigInt(byte), 0n);
  const bytes = new Uint8Array(96);
  s.forEach((x, i) => bytes.set(le(x), 32 * i));
  const got = f(bytes);
  return [0, 1, 2].map((i) => fromLe(got.subarray(32 * i, 32 * i + 32)));
};
/** The kimchi permutation over Fp: `caml_pasta_fp_poseidon_block_cipher`. */
export const blockFp = cipher(kimchi.caml_pasta_fp_poseidon_block_cipher);
/** The kimchi permutation over Fq: `caml_pasta_fq_poseidon_block_cipher`. */
export const blockFq = cipher(kimchi.caml_pasta_fq_poseidon_block_cipher);

/**
 * Kimchi's sponge on a permutation: absorb two elements at a time (added to state 0
 * and 1), permute after each pair and after a last single one, permute once for no
 * input; the digest is element 0.
 */
export const sponge = (modulus, permute) => (xs) => {
  let s = [0n, 0n, 0n];
  if (xs.length === 0) s = permute(s);
  for (let i = 0; i < xs.length; i += 2) {
    s[0] = (s[0] + xs[i]) % modulus;
    if (i + 1 < xs.length) s[1] = (s[1] + xs[i + 1]) % modulus;
    s = permute(s);
  }
  return s[0];
};
