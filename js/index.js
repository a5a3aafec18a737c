// Kimchi and legacy Poseidon over the Pasta fields for JavaScript, compiled from
// Rust to WebAssembly, and what o1js users build on it out of circuit: salted
// hashes and Merkle structures, bit-exact with o1js. The o1js adapter is
// "kimchi-poseidon/o1js" (o1js.js).
export { P, Q, MODULES, supported, init, backend, moduleBytes, hash, hashFq, hashLegacy, permute, update, hashMany } from "./core.js";
export { prefixToField, salt, hashWithPrefix, emptyHashWithPrefix } from "./prefix.js";
export { MerkleTree, MerkleMap, IndexedMerkleMap } from "./merkle.js";
export { createPool } from "./pool.js";
