// Kimchi and legacy Poseidon over the Pasta fields for JavaScript, compiled from
// Rust to WebAssembly, and what o1js users build on it out of circuit: salted
// hashes and Merkle structures, bit-exact with o1js. The o1js adapter is
// "kimchi-poseidon/o1js" (o1js.js).
export { P, Q, MODULES, supported, init, backend, moduleBytes, hash, hashFq, hashLegacy, permute, update, updateLegacy, hashMany, hashToGroup } from "./core.js";
export {
  prefixToField, salt, hashWithPrefix, emptyHashWithPrefix, saltLegacy, hashWithPrefixLegacy, emptyHashWithPrefixLegacy,
} from "./prefix.js";
export { hashAnyLength, initialState, Sponge } from "./sponge.js";
export { packToFields, hashPacked, packToFieldsLegacy, deriveTokenId } from "./packed.js";
export { merkleListHash, MerkleList } from "./list.js";
export { MerkleTree, MerkleMap, IndexedMerkleMap, calculateRoot, calculateIndex, computeRootAndKey } from "./merkle.js";
export { createPool } from "./pool.js";
export {
  MEMO_BYTES, zkappBodyPrefix, accountUpdateHash, callForestHash, memoFromText, memoFromBase58, memoHash, transactionCommitments,
} from "./transaction.js";
