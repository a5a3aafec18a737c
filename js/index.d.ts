/** The Pallas base field modulus (kimchi's Fp, o1js's `Field`). */
export const P: bigint;
/** The Vesta base field modulus (Fq). */
export const Q: bigint;
/** The wasm modules, best first. */
export const MODULES: readonly ["wide", "fma", "simd", "scalar"];
export type Module = (typeof MODULES)[number];
/** The modules this engine can run, best first (`WebAssembly.validate` of small probes). */
export function supported(): Module[];
/**
 * Compiles and instantiates a wasm module; await it once before the other calls.
 * Without arguments the best supported module (`simd` rather than `fma` under Node 22
 * and older, where its batches are faster); `{ module }` one of them (rejects if
 * the engine cannot run it); a BufferSource: those bytes. Once a module is loaded,
 * `init()` keeps it; asking for another module, or giving bytes, replaces it.
 */
export function init(source?: BufferSource | { module: Module }): Promise<void>;
/** The module `init` loaded ("custom" for given bytes), null before `init`. */
export function backend(): Module | "custom" | null;
/** The loaded module's bytes. */
export function moduleBytes(): BufferSource | null;
/** Kimchi Poseidon over Fp (o1js's `Poseidon.hash`). Throws RangeError for an element outside [0, p). */
export function hash(fields: bigint[]): bigint;
/** Kimchi Poseidon over Fq. */
export function hashFq(fields: bigint[]): bigint;
/** Legacy Poseidon over Fp. */
export function hashLegacy(fields: bigint[]): bigint;
/**
 * o1js's `Poseidon.update(state, fields)` over Fp: absorb the fields two at a time
 * (zero-padded), permuting after each pair; no fields permute once.
 */
export function update(state: [bigint, bigint, bigint], fields: bigint[]): [bigint, bigint, bigint];
/** `update` with the legacy Poseidon (mina-signer's `PoseidonLegacy.update`). */
export function updateLegacy(state: [bigint, bigint, bigint], fields: bigint[]): [bigint, bigint, bigint];
/** The kimchi permutation over Fp. */
export function permute(state: [bigint, bigint, bigint]): [bigint, bigint, bigint];
/** Kimchi Poseidon over Fp of many inputs in one call. */
export function hashMany(inputs: bigint[][]): bigint[];
/**
 * o1js's `Poseidon.hashToGroup(fields)`: the hash mapped onto Pallas by Mina's group
 * map, y the even root.
 */
export function hashToGroup(fields: bigint[]): { x: bigint; y: bigint };

/**
 * o1js's `prefixToField`: the prefix's characters as little-endian bytes. At most 31
 * ASCII characters (RangeError otherwise); no `*` padding is added.
 */
export function prefixToField(prefix: string): bigint;
/** o1js's `salt(prefix)`: the state after absorbing `prefixToField(prefix)`; cached per prefix. */
export function salt(prefix: string): [bigint, bigint, bigint];
/** o1js's `Poseidon.hashWithPrefix(prefix, fields)`: `update(salt(prefix), fields)[0]`. */
export function hashWithPrefix(prefix: string, fields: bigint[]): bigint;
/** o1js's `emptyHashWithPrefix(prefix)`: `salt(prefix)[0]`, which differs from `hashWithPrefix(prefix, [])`. */
export function emptyHashWithPrefix(prefix: string): bigint;
/** mina-signer's `HashLegacy.salt(prefix)`: `salt` with the legacy Poseidon. */
export function saltLegacy(prefix: string): [bigint, bigint, bigint];
/** mina-signer's `HashLegacy.hashWithPrefix(prefix, fields)`. */
export function hashWithPrefixLegacy(prefix: string, fields: bigint[]): bigint;
/** mina-signer's `HashLegacy.emptyHashWithPrefix(prefix)`: `saltLegacy(prefix)[0]`. */
export function emptyHashWithPrefixLegacy(prefix: string): bigint;

/**
 * o1js's `Poseidon.hashAnyLength(fields)`: `hash([...fields, length])`, so inputs
 * that differ by trailing zeros do not collide (as they do under `hash`).
 */
export function hashAnyLength(fields: bigint[]): bigint;
/** o1js's `Poseidon.initialState()`: `[0n, 0n, 0n]`. */
export function initialState(): [bigint, bigint, bigint];
/**
 * o1js's `Poseidon.Sponge`: absorb elements one at a time, squeeze them out. One
 * squeeze after absorbing a list is `hash(list)`; a second is `update(zeros, list)[1]`.
 */
export class Sponge {
  constructor();
  absorb(x: bigint): void;
  squeeze(): bigint;
}

/** A hash input as o1js's `toInput()` gives it, with bigints: fields, then `[value, bits]` to pack. */
export interface HashInput {
  fields?: bigint[];
  packed?: [bigint, number][];
}
/** mina-signer's legacy hash input: fields, then bits (least significant first). */
export interface HashInputLegacy {
  fields?: bigint[];
  bits?: boolean[];
}
/**
 * o1js's `packToFields`: the fields, then the packed values concatenated (most
 * significant first) into elements of fewer than 255 bits. Each value must fit its
 * bits, 1 to 254 (RangeError otherwise).
 */
export function packToFields(input: HashInput): bigint[];
/** o1js's `Poseidon.hashPacked(type, value)`, given `type.toInput(value)` as bigints. */
export function hashPacked(input: HashInput): bigint;
/** mina-signer's `packToFieldsLegacy`: the bits in elements of 254 (the input is left as it is). */
export function packToFieldsLegacy(input: HashInputLegacy): bigint[];
/** A public key as o1js holds it (`PublicKey`'s fields): the x coordinate and the parity of y. */
export interface PublicKeyFields {
  x: bigint;
  isOdd: boolean;
}
/** o1js's `TokenId.derive(owner, parentTokenId)`; parentTokenId defaults to 1 (MINA). */
export function deriveTokenId(owner: PublicKeyFields, parentTokenId?: bigint): bigint;

/** A network as mina-signer names it: "mainnet", "testnet", "devnet", or a custom name. */
export type NetworkId = string | { custom: string };
/** An account update's packed input (`Types.AccountUpdate.toInput`, as bigints) with its call depth. */
export interface AccountUpdateInput extends HashInput {
  callDepth: number;
}
/** A zkApp command as `transactionCommitments` takes it (`zkappCommandInput` of "kimchi-poseidon/o1js" makes one). */
export interface ZkappCommandInput {
  /** The packed input of the fee payer as an account update. */
  feePayer: HashInput;
  accountUpdates: AccountUpdateInput[];
  /** Base58, as in the command's JSON, or the 34 bytes. */
  memo: string | Uint8Array;
}
/** Bytes of an encoded memo (34). */
export const MEMO_BYTES: number;
/** mina-signer's `zkAppBodyPrefix`: the account-update hash prefix of a network. */
export function zkappBodyPrefix(networkId: NetworkId): string;
/** mina-signer's `accountUpdateHash`, given the update's packed input. */
export function accountUpdateHash(input: HashInput, networkId: NetworkId): bigint;
/**
 * mina-signer's `callForestHash` (the `commitment`) of account updates given in
 * order with their hashes and call depths (starting at 0, rising by at most one).
 */
export function callForestHash(updates: { hash: bigint; callDepth: number }[]): bigint;
/** o1js's `Memo.fromString(text)` as its 34 bytes (at most 32 bytes of UTF-8 text). */
export function memoFromText(text: string): Uint8Array;
/** The 34 bytes of a memo in Mina's base58 form (checksum checked). */
export function memoFromBase58(base58: string): Uint8Array;
/** mina-signer's `Memo.hash` of a memo given as its 34 bytes or in base58. */
export function memoHash(memo: string | Uint8Array): bigint;
/** mina-signer's `transactionCommitments(zkappCommand, networkId)`. */
export function transactionCommitments(command: ZkappCommandInput, networkId: NetworkId): { commitment: bigint; fullCommitment: bigint };

/** A MerkleList element: its fields, or its `toInput()` form. */
export type ListElement = bigint[] | HashInput;
/** Options of `MerkleList`. */
export interface MerkleListOptions {
  /** The prefix of the default next hash (default ""). */
  prefix?: string;
  /** The hash of the empty list (default 0). */
  emptyHash?: bigint;
  /** The next hash in place of the default, as `MerkleList.create(type, nextHash)`. */
  nextHash?: (hash: bigint, element: any) => bigint;
}
/**
 * o1js's default list step: `hashWithPrefix(prefix, [previous, ...packToFields(element)])`.
 */
export function merkleListHash(previous: bigint, element: ListElement, prefix?: string): bigint;
/** o1js's `MerkleList` as a commitment: push elements, read `hash`. */
export class MerkleList {
  constructor(options?: MerkleListOptions);
  /** The list of `elements` pushed in order (o1js's `MerkleList.from`). */
  static from(elements: ListElement[], options?: MerkleListOptions): MerkleList;
  /** Pushed last to first (o1js's `fromReverse`). */
  static fromReverse(elements: ListElement[], options?: MerkleListOptions): MerkleList;
  push(element: ListElement): void;
  pushIf(condition: boolean, element: ListElement): void;
  /** The commitment, o1js's `list.hash`. */
  readonly hash: bigint;
  /** How many elements were pushed. */
  readonly length: number;
  isEmpty(): boolean;
}

/** Options of `createPool`. */
export interface PoolOptions {
  /** How many workers (1 to 1024); default: the machine's logical cores. */
  workers?: number;
  /** The wasm module the workers run, as `init({ module })`; default: the one this thread's `init` loaded, else the one `init()` would choose. */
  module?: Module;
  /**
   * Where the worker module is; default `new URL("./worker.js", import.meta.url)`,
   * i.e. the package's worker.js (export "kimchi-poseidon/worker") beside pool.js or
   * beside a bundle that holds pool.js. In browsers a URL (string or `URL`); in
   * Node a `URL` or a file path.
   */
  workerUrl?: string | URL;
}

/**
 * Workers that hash for the calling thread (worker_threads in Node, module Web
 * Workers in browsers), with transferred buffers: no SharedArrayBuffer, no
 * cross-origin isolation needed. A failed worker rejects the call it was running;
 * one that dies is replaced. Idle Node workers do not keep the process alive.
 */
export interface Pool {
  /** The live workers. */
  readonly size: number;
  /** The module the workers run. */
  readonly module: Module | "custom";
  /** `hashMany(inputs)` across the workers (input checked before any work is sent). */
  hashMany(inputs: bigint[][]): Promise<bigint[]>;
  /** Ends every worker; calls still running reject. Resolves once all have exited. */
  close(): Promise<void>;
}

/** Starts a pool; resolves when every worker has its module instantiated. */
export function createPool(options?: PoolOptions): Promise<Pool>;

/** One step of a Merkle path, from the leaf up, as o1js's `MerkleTree.getWitness`. */
export interface WitnessStep {
  /** Whether the path's node is the left child (its index is even). */
  isLeft: boolean;
  sibling: bigint;
}

/**
 * o1js's `MerkleTree`: 2^(height−1) leaves, node = hash([left, right]), empty
 * subtrees are o1js's zero hashes. Writes are hashed at the next read, one level
 * per batch (about one permutation per leaf for a full build). Indices are bigints;
 * `kimchi-poseidon/o1js`'s `toO1jsMerkleTree` turns it into o1js's class.
 */
export class MerkleTree {
  /** height: an integer from 1 to 256 (RangeError otherwise). */
  constructor(height: number);
  /** A tree with leaves 0..n−1 set from `leaves`. */
  static fromLeaves(height: number, leaves: bigint[]): MerkleTree;
  /**
   * `fromLeaves` with the hashing spread over a pool's workers (subtrees of equal
   * size, a few per worker; the top levels on the calling thread). The same tree.
   * Rejects bad input (as `fromLeaves` throws) before sending any work.
   */
  static fromLeavesParallel(height: number, leaves: bigint[], options: { pool: Pool }): Promise<MerkleTree>;
  readonly height: number;
  /** 2^(height−1). */
  readonly leafCount: bigint;
  /** Sets leaves 0..n−1 (RangeError if there are more than leafCount). */
  fill(leaves: bigint[]): void;
  setLeaf(index: bigint, leaf: bigint): void;
  /** The node at `level` (0: leaves) and `index` (below 2^(height−1−level)). */
  getNode(level: number, index: bigint): bigint;
  getLeaf(index: bigint): bigint;
  getRoot(): bigint;
  /** height−1 steps from the leaf up. */
  getWitness(index: bigint): WitnessStep[];
  /** The stored nodes as [level, index, value]: those o1js's `nodes` would hold. */
  entries(): IterableIterator<[number, bigint, bigint]>;
  clone(): MerkleTree;
  /** o1js's `validate(index)`: whether the leaf's witness leads to the root. */
  validate(index: bigint): boolean;
}

/** o1js's `MerkleWitness.calculateRoot(leaf)`: the root a tree witness leads to from `leaf`. */
export function calculateRoot(witness: WitnessStep[], leaf: bigint): bigint;
/** o1js's `MerkleWitness.calculateIndex()`: the leaf index the witness's path spells. */
export function calculateIndex(witness: WitnessStep[]): bigint;

/** o1js's `MerkleMapWitness` as plain values. */
export interface MerkleMapWitness {
  /** 255 entries; the first is always true (keys are below 2^254). */
  isLefts: boolean[];
  siblings: bigint[];
}

/**
 * o1js's `MerkleMap`: a MerkleTree of height 256 whose leaf index is the key's 255
 * bits reversed. Keys are below 2^254 (RangeError otherwise), values below p.
 */
export class MerkleMap {
  constructor();
  /** A map holding `entries` (later ones win), hashed in bulk at the first read. */
  static fromEntries(entries: Iterable<[bigint, bigint]>): MerkleMap;
  set(key: bigint, value: bigint): void;
  /** The value at `key`, 0 if never set. */
  get(key: bigint): bigint;
  getRoot(): bigint;
  getWitness(key: bigint): MerkleMapWitness;
  /** The inner tree's stored nodes as [level, index, value]. */
  entries(): IterableIterator<[number, bigint, bigint]>;
}

/**
 * o1js's `MerkleMapWitness.computeRootAndKey(value)`: [root, key]. RangeError
 * unless the witness has 255 steps and `isLefts[0]` is true (o1js asserts it).
 */
export function computeRootAndKey(witness: MerkleMapWitness, value: bigint): [bigint, bigint];

/** A value that may be absent, as o1js's `Option` (value 0 when absent). */
export interface OptionValue {
  isSome: boolean;
  value: bigint;
}

/** One leaf of an IndexedMerkleMap in o1js's stored form. */
export interface StoredLeaf {
  key: bigint;
  value: bigint;
  nextKey: bigint;
  /** Position among the leaves (insertion order). */
  index: number;
}

/**
 * o1js's `IndexedMerkleMap(height)`, as an instance: leaves hash([key, value,
 * nextKey]) in insertion order, keys linked in ascending order, root
 * hash([internalRoot, length]). Starts with the leaf (0, 0); key 0 always exists.
 */
export class IndexedMerkleMap {
  /** height: an integer from 1 to 52 (o1js's limits); 2^(height−1) leaves. */
  constructor(height: number);
  /**
   * The map that inserting `entries` in this order gives, with one sort (for large
   * rebuilds); throws as `insert` on a duplicate key, key 0 or too many entries.
   */
  static fromEntries(height: number, entries: Iterable<[bigint, bigint]>): IndexedMerkleMap;
  readonly height: number;
  /** The number of leaves. */
  readonly length: bigint;
  /** Adds a key; throws Error if it exists, RangeError if the map is full. */
  insert(key: bigint, value: bigint): void;
  /** Changes an existing key's value (Error if absent); returns the previous value. */
  update(key: bigint, value: bigint): bigint;
  /** Inserts or updates; returns the previous value. */
  set(key: bigint, value: bigint): OptionValue;
  /** An existing key's value (Error if absent). */
  get(key: bigint): bigint;
  getOption(key: bigint): OptionValue;
  /** o1js's `setIf`: `set(key, value)` if `condition`, else `set(0, 0)` (a no-op unless key 0 is used). */
  setIf(condition: boolean, key: bigint, value: bigint): OptionValue;
  /** Whether `key` is in the map (key 0 always is). */
  isIncluded(key: bigint): boolean;
  /** Throws unless `key` is in the map. */
  assertIncluded(key: bigint, message?: string): void;
  /** Throws if `key` is in the map. */
  assertNotIncluded(key: bigint, message?: string): void;
  /** An independent copy (o1js's `clone`). */
  clone(): IndexedMerkleMap;
  /** Makes this map a copy of `other` (same height; TypeError otherwise). */
  overwrite(other: IndexedMerkleMap): void;
  /** `overwrite(other)` if `condition`. */
  overwriteIf(condition: boolean, other: IndexedMerkleMap): void;
  /** hash([internalRoot, length]), o1js's `root`. */
  getRoot(): bigint;
  readonly root: bigint;
  /** The leaves' tree root, o1js's `_internalRoot`. */
  readonly internalRoot: bigint;
  /** The contents in o1js's stored form (its `data`). */
  data(): { nodes: bigint[][]; sortedLeaves: StoredLeaf[] };
}
