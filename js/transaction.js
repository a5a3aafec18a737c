// The hashes that sign a zkApp transaction, as mina-signer's
// `transactionCommitments` (o1js 2.15) computes them out of circuit: each account
// update's hash from its packed input, the call forest's hash (`commitment`), the
// memo's hash and the `fullCommitment` over memo, fee payer and forest.
//
// An account update's input (`toInput`: some 40 fields and 130 packed values)
// follows Mina's layout of the body, which o1js generates; these functions take
// the input as o1js gives it (`{ fields, packed }` with bigints) rather than laying
// the body out again.
import { checkField, describe } from "./core.js";
import { packToFields, packToFieldsLegacy } from "./packed.js";
import { hashWithPrefix } from "./prefix.js";

/** Bytes of an encoded memo: 1, the text's length, its UTF-8 bytes, zeros. */
export const MEMO_BYTES = 34;

const NODE = "MinaAcctUpdateNode**";
const CONS = "MinaAcctUpdateCons**";
const MEMO = "MinaZkappMemo*******";

/**
 * mina-signer's `zkAppBodyPrefix(networkId)`: "MainnetZkappBody****" for
 * "mainnet", "TestnetZkappBody****" for "devnet" and "testnet", else the network's
 * name (a string, or `{ custom }`) and "ZkappBody", `*`-padded or cut to 20.
 */
export function zkappBodyPrefix(networkId) {
  const name = typeof networkId === "string" ? networkId : networkId?.custom;
  if (typeof name !== "string") throw new TypeError(`networkId must be a string or { custom: string }, got ${describe(networkId)}`);
  if (name === "mainnet") return "MainnetZkappBody****";
  if (name === "devnet" || name === "testnet") return "TestnetZkappBody****";
  return `${name}ZkappBody`.slice(0, 20).padEnd(20, "*");
}

/**
 * mina-signer's `accountUpdateHash`: the hash, prefixed for the network, of the
 * account update's packed input (`{ fields, packed }` as o1js's
 * `AccountUpdate.toInput` gives it; for the fee payer, the input of the fee payer
 * as an account update).
 */
export function accountUpdateHash(input, networkId) {
  return hashWithPrefix(zkappBodyPrefix(networkId), packToFields(input));
}

/**
 * mina-signer's `callForestHash` (the transaction's `commitment`): the hash of the
 * forest that the account updates form, given in order as `{ hash, callDepth }`; an
 * update's children are the updates after it one level deeper. 0n for none. Call
 * depths start at 0 and rise by at most one per update.
 */
export function callForestHash(updates) {
  if (!Array.isArray(updates)) throw new TypeError(`updates must be an array of { hash, callDepth }, got ${describe(updates)}`);
  let previous = -1;
  updates.forEach((u, i) => {
    const depth = u?.callDepth;
    if (!Number.isInteger(depth) || depth < 0 || depth > previous + 1) {
      throw new RangeError(`updates[${i}].callDepth = ${describe(depth)}: call depths start at 0 and rise by at most one per update`);
    }
    checkField(u.hash, `updates[${i}].hash`);
    previous = depth;
  });
  // Right to left: stacks[d] is the hash of the siblings at depth d seen so far
  // under the current parent; an update takes stacks[d + 1] as its children.
  const stacks = [];
  for (let i = updates.length - 1; i >= 0; i--) {
    const { hash, callDepth: d } = updates[i];
    while (stacks.length < d + 2) stacks.push(0n);
    const calls = stacks[d + 1];
    stacks.length = d + 1;
    stacks[d] = hashWithPrefix(CONS, [hashWithPrefix(NODE, [hash, calls]), stacks[d]]);
  }
  return stacks[0] ?? 0n;
}

/** o1js's `Memo.fromString(text)` as its 34 bytes: 1, the text's UTF-8 length, the text, zeros. */
export function memoFromText(text) {
  if (typeof text !== "string") throw new TypeError(`memo text must be a string, got ${describe(text)}`);
  const utf8 = new TextEncoder().encode(text);
  if (utf8.length > 32) throw new RangeError(`memo text of ${utf8.length} bytes: at most 32`);
  const memo = new Uint8Array(MEMO_BYTES);
  memo[0] = 1;
  memo[1] = utf8.length;
  memo.set(utf8, 2);
  return memo;
}

// Base58check (Bitcoin's alphabet), as Mina encodes memos: version byte 20, the 34
// bytes, the first 4 bytes of SHA-256(SHA-256(version and bytes)).
const ALPHABET = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
const MEMO_VERSION = 20;

/** The 34 bytes of a memo in Mina's base58 form (a zkApp command's `memo` in JSON). */
export function memoFromBase58(base58) {
  if (typeof base58 !== "string") throw new TypeError(`memo must be a base58 string, got ${describe(base58)}`);
  let n = 0n;
  for (const c of base58) {
    const digit = ALPHABET.indexOf(c);
    if (digit < 0) throw new RangeError(`memo: ${JSON.stringify(c)} is not a base58 character`);
    n = n * 58n + BigInt(digit);
  }
  const bytes = [];
  for (; n > 0n; n >>= 8n) bytes.unshift(Number(n & 0xffn));
  for (let i = 0; i < base58.length && base58[i] === "1"; i++) bytes.unshift(0);
  if (bytes.length !== 1 + MEMO_BYTES + 4 || bytes[0] !== MEMO_VERSION) {
    throw new RangeError(`memo: not a base58 memo (version ${MEMO_VERSION} and ${MEMO_BYTES} bytes)`);
  }
  const body = Uint8Array.from(bytes.slice(0, 1 + MEMO_BYTES));
  const check = sha256(sha256(body));
  if (bytes.slice(-4).some((b, i) => b !== check[i])) throw new RangeError("memo: base58 checksum mismatch");
  return body.slice(1);
}

/** A memo given as its 34 bytes or in base58; the bytes, checked. */
function memoBytes(memo) {
  if (typeof memo === "string") return memoFromBase58(memo);
  if (!(memo instanceof Uint8Array) || memo.length !== MEMO_BYTES) {
    throw new TypeError(`memo must be a base58 string or ${MEMO_BYTES} bytes (Uint8Array), got ${describe(memo)}`);
  }
  return memo;
}

/**
 * mina-signer's `Memo.hash`: the memo's 272 bits (each byte least significant bit
 * first) packed as the legacy packing does, hashed with the prefix
 * "MinaZkappMemo*******". The memo: its 34 bytes (`memoFromText`) or base58.
 */
export function memoHash(memo) {
  const bytes = memoBytes(memo);
  const bits = [];
  for (const byte of bytes) for (let i = 0; i < 8; i++) bits.push(((byte >> i) & 1) === 1);
  return hashWithPrefix(MEMO, packToFieldsLegacy({ bits }));
}

/**
 * mina-signer's `transactionCommitments(zkappCommand, networkId)` given the
 * command's parts as o1js lays them out: `feePayer`, the packed input of the fee
 * payer as an account update; `accountUpdates`, each one's packed input with its
 * `callDepth` (`{ fields, packed, callDepth }`); `memo`, base58 (as in the
 * command's JSON) or 34 bytes. Returns `{ commitment, fullCommitment }`.
 */
export function transactionCommitments(command, networkId) {
  if (command === null || typeof command !== "object" || !Array.isArray(command.accountUpdates)) {
    throw new TypeError(`command must be { feePayer, accountUpdates, memo }, got ${describe(command)}`);
  }
  const memo = memoHash(command.memo);
  const updates = command.accountUpdates.map((u) => ({ hash: accountUpdateHash(u, networkId), callDepth: u.callDepth }));
  const commitment = callForestHash(updates);
  const feePayer = accountUpdateHash(command.feePayer, networkId);
  return { commitment, fullCommitment: hashWithPrefix(CONS, [memo, feePayer, commitment]) };
}

// SHA-256 (FIPS 180-4), for the memo's base58 checksum only (exported for its test;
// index.js does not re-export it).
const K = Uint32Array.from(
  "428a2f98 71374491 b5c0fbcf e9b5dba5 3956c25b 59f111f1 923f82a4 ab1c5ed5 d807aa98 12835b01 243185be 550c7dc3 72be5d74 80deb1fe 9bdc06a7 c19bf174 e49b69c1 efbe4786 0fc19dc6 240ca1cc 2de92c6f 4a7484aa 5cb0a9dc 76f988da 983e5152 a831c66d b00327c8 bf597fc7 c6e00bf3 d5a79147 06ca6351 14292967 27b70a85 2e1b2138 4d2c6dfc 53380d13 650a7354 766a0abb 81c2c92e 92722c85 a2bfe8a1 a81a664b c24b8b70 c76c51a3 d192e819 d6990624 f40e3585 106aa070 19a4c116 1e376c08 2748774c 34b0bcb5 391c0cb3 4ed8aa4a 5b9cca4f 682e6ff3 748f82ee 78a5636f 84c87814 8cc70208 90befffa a4506ceb bef9a3f7 c67178f2"
    .split(" ")
    .map((h) => parseInt(h, 16)),
);
const H0 = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19];

export function sha256(message) {
  const length = Math.ceil((message.length + 9) / 64) * 64;
  const m = new Uint8Array(length);
  m.set(message);
  m[message.length] = 0x80;
  new DataView(m.buffer).setUint32(length - 4, message.length * 8);
  const h = Uint32Array.from(H0);
  const w = new Uint32Array(64);
  const rotr = (x, n) => (x >>> n) | (x << (32 - n));
  for (let at = 0; at < length; at += 64) {
    for (let i = 0; i < 16; i++) w[i] = new DataView(m.buffer, at + 4 * i, 4).getUint32(0);
    for (let i = 16; i < 64; i++) {
      const s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >>> 3);
      const s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >>> 10);
      w[i] = w[i - 16] + s0 + w[i - 7] + s1;
    }
    let [a, b, c, d, e, f, g, k] = h;
    for (let i = 0; i < 64; i++) {
      const t1 = k + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + K[i] + w[i];
      const t2 = (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
      [k, g, f, e, d, c, b, a] = [g, f, e, (d + t1) | 0, c, b, a, (t1 + t2) | 0];
    }
    [a, b, c, d, e, f, g, k].forEach((x, i) => (h[i] += x));
  }
  const out = new Uint8Array(32);
  h.forEach((x, i) => new DataView(out.buffer).setUint32(4 * i, x));
  return out;
}
