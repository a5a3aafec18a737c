// Salted hashes as o1js computes them out of circuit (lib/provable/crypto/poseidon.js
// and hash-generic.js in o1js 2.15): a prefix string becomes a field element, the
// salt is the state after absorbing it, and hashWithPrefix continues from the salt.
// Salt states are cached per prefix, so a salted hash of two fields costs one
// permutation where o1js pays two.
import { P, describe, update, updateLegacy } from "./core.js";

/**
 * o1js's `prefixToField`: the prefix's characters as little-endian bytes. At most 31
 * characters, ASCII only (o1js's public rule); no `*` padding is added (o1js's
 * built-in prefixes come padded, e.g. "MinaZkappEvent******").
 */
export function prefixToField(prefix) {
  if (typeof prefix !== "string") throw new TypeError(`prefix must be a string, got ${describe(prefix)}`);
  if (prefix.length > 31) throw new RangeError(`prefix must have at most 31 characters, got ${prefix.length}`);
  let x = 0n;
  for (let i = prefix.length - 1; i >= 0; i--) {
    const c = prefix.charCodeAt(i);
    if (c > 127) throw new RangeError(`prefix: character ${i} (${JSON.stringify(prefix[i])}) is not ASCII`);
    x = (x << 8n) | BigInt(c);
  }
  return x;
}

// prefix -> salt state, one cache per permutation. Bounded: a caller that salts
// with unbounded distinct prefixes (e.g. per-user strings) must not grow memory
// without limit.
const SALT_CACHE = 4096;
function salter(updateFn) {
  const salts = new Map();
  return (prefix) => {
    let s = salts.get(prefix);
    if (s === undefined) {
      s = updateFn([0n, 0n, 0n], [prefixToField(prefix)]);
      if (salts.size >= SALT_CACHE) salts.delete(salts.keys().next().value);
      salts.set(prefix, s);
    }
    return [s[0], s[1], s[2]];
  };
}
const kimchiSalt = salter(update);
const legacySalt = salter(updateLegacy);

/** o1js's `salt(prefix)`: the state after absorbing `prefixToField(prefix)` (cached). */
export function salt(prefix) {
  return kimchiSalt(prefix);
}

/** o1js's `Poseidon.hashWithPrefix(prefix, fields)`: `update(salt(prefix), fields)[0]`. */
export function hashWithPrefix(prefix, fields) {
  return update(kimchiSalt(prefix), fields)[0];
}

/** o1js's `emptyHashWithPrefix(prefix)`: `salt(prefix)[0]` (not `hashWithPrefix(prefix, [])`). */
export function emptyHashWithPrefix(prefix) {
  return kimchiSalt(prefix)[0];
}

/** mina-signer's `HashLegacy.salt(prefix)`: `salt` with the legacy Poseidon. */
export function saltLegacy(prefix) {
  return legacySalt(prefix);
}

/** mina-signer's `HashLegacy.hashWithPrefix(prefix, fields)` (legacy signatures, legacy transactions). */
export function hashWithPrefixLegacy(prefix, fields) {
  return updateLegacy(legacySalt(prefix), fields)[0];
}

/** mina-signer's `HashLegacy.emptyHashWithPrefix(prefix)`: `saltLegacy(prefix)[0]`. */
export function emptyHashWithPrefixLegacy(prefix) {
  return legacySalt(prefix)[0];
}

