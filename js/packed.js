// Hash inputs as o1js lays them out, out of circuit: the `{ fields, packed }` form
// of `toInput()` (o1js's `packToFields`, `Poseidon.hashPacked`), the legacy
// `{ fields, bits }` form (mina-signer's `packToFieldsLegacy`), and what o1js
// builds on them: `TokenId.derive`. Elements are bigints.
import { P, checkField, checkFields, describe, hash } from "./core.js";
import { hashWithPrefix } from "./prefix.js";

/**
 * o1js's `packToFields({ fields, packed })`: the fields, then the packed values
 * `[value, bits]` concatenated, most significant first, into as few elements as
 * hold them with fewer than 255 bits each (a value that would reach 255 bits starts
 * the next element). Each value must fit its bits (1 to 254), as o1js's types
 * guarantee; no packed values adds nothing, not even a zero.
 */
export function packToFields(input) {
  if (input === null || typeof input !== "object") {
    throw new TypeError(`input must be { fields, packed }, got ${describe(input)}`);
  }
  const { fields = [], packed = [] } = input;
  checkFields(fields, P);
  if (!Array.isArray(packed)) throw new TypeError(`packed must be an array of [value, bits] pairs, got ${describe(packed)}`);
  if (packed.length === 0) return [...fields];
  const out = [...fields];
  let current = 0n;
  let size = 0;
  packed.forEach((pair, i) => {
    if (!Array.isArray(pair) || pair.length !== 2) {
      throw new TypeError(`packed[${i}] must be a [value, bits] pair, got ${describe(pair)}`);
    }
    const [value, bits] = pair;
    if (!Number.isInteger(bits) || bits < 1 || bits > 254) {
      throw new RangeError(`packed[${i}]: bits must be an integer from 1 to 254, got ${describe(bits)}`);
    }
    if (typeof value !== "bigint" || value < 0n || value >> BigInt(bits) !== 0n) {
      throw new RangeError(`packed[${i}]: the value must be a bigint of at most ${bits} bits, got ${describe(value)}`);
    }
    size += bits;
    if (size < 255) current = (current << BigInt(bits)) | value;
    else {
      out.push(current);
      current = value;
      size = bits;
    }
  });
  out.push(current);
  return out;
}

/** o1js's `Poseidon.hashPacked(type, value)` given `type.toInput(value)`: `hash(packToFields(input))`. */
export function hashPacked(input) {
  return hash(packToFields(input));
}

/**
 * mina-signer's `packToFieldsLegacy({ fields, bits })`: the fields, then the bits
 * (booleans, least significant first) in elements of 254 bits each, the last one
 * shorter. The input is not changed (mina-signer's empties `bits`).
 */
export function packToFieldsLegacy(input) {
  if (input === null || typeof input !== "object") {
    throw new TypeError(`input must be { fields, bits }, got ${describe(input)}`);
  }
  const { fields = [], bits = [] } = input;
  checkFields(fields, P);
  if (!Array.isArray(bits)) throw new TypeError(`bits must be an array of booleans, got ${describe(bits)}`);
  const out = [...fields];
  for (let at = 0; at < bits.length; at += 254) {
    let x = 0n;
    const end = Math.min(at + 254, bits.length);
    for (let i = end - 1; i >= at; i--) {
      if (typeof bits[i] !== "boolean") throw new TypeError(`bits[${i}] must be a boolean, got ${describe(bits[i])}`);
      x = (x << 1n) | (bits[i] ? 1n : 0n);
    }
    out.push(x);
  }
  return out;
}

/**
 * o1js's `TokenId.derive(owner, parentTokenId = 1)`: the token id that `owner`
 * (a public key as o1js holds it, `{ x, isOdd }`: `PublicKey.toGroup()`'s x and the
 * parity of its y) derives under `parentTokenId` (1 is MINA).
 */
export function deriveTokenId(owner, parentTokenId = 1n) {
  if (owner === null || typeof owner !== "object" || typeof owner.isOdd !== "boolean") {
    throw new TypeError(`owner must be a public key { x: bigint, isOdd: boolean }, got ${describe(owner)}`);
  }
  checkField(owner.x, "owner.x");
  checkField(parentTokenId, "parentTokenId");
  return hashWithPrefix("MinaDeriveTokenId***", packToFields({ fields: [owner.x, parentTokenId], packed: [[owner.isOdd ? 1n : 0n, 1]] }));
}
