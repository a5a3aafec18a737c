// "kimchi-poseidon/o1js": typed against the parts of o1js it uses, so that this
// package needs no o1js types to compile.
import type { IndexedMerkleMap, MerkleMap, MerkleTree, ZkappCommandInput } from "./index.js";

/** The o1js module, as `import * as o1js from "o1js"` gives it. */
export type O1js = any;

/**
 * Makes o1js's out-of-circuit `Poseidon.hash`, `update`, `hashWithPrefix` and `hashToGroup` (and
 * `MerkleTree.setLeaf`, hashing its paths lazily in batches) use this package; call
 * `await init()` first. Non-constant inputs go to o1js's originals. Returns a
 * function that restores them. Throws if already installed on this o1js.
 */
export function installFastPoseidon(o1js: O1js): () => void;
/** An o1js `MerkleTree` holding the nodes of `tree`. */
export function toO1jsMerkleTree(o1js: O1js, tree: MerkleTree): any;
/** An o1js `MerkleMap` holding the nodes of `map`. */
export function toO1jsMerkleMap(o1js: O1js, map: MerkleMap): any;
/** An instance of `MapClass` (an o1js `IndexedMerkleMap(h)` class of the same height) holding `map`. */
export function toO1jsIndexedMerkleMap(o1js: O1js, MapClass: new () => any, map: IndexedMerkleMap): any;
/**
 * A zkApp command (o1js's, or its JSON as a string or parsed) laid out by o1js's
 * public `Types` as `transactionCommitments` takes it; the fee payer as the account
 * update mina-signer hashes for it.
 */
export function zkappCommandInput(o1js: O1js, zkappCommand: any): ZkappCommandInput;
