// o1js's Merkle structures out of circuit, bit-exact with o1js 2.15 (lib/provable/
// merkle-tree.js, merkle-map.js, merkle-tree-indexed.js), with bigints where o1js
// has Field. The difference is when hashing happens: o1js rehashes a leaf's whole
// path on every write; here a write only marks the path, and the next read of a
// node (root, witness) hashes each marked node once, one tree level per hashMany
// call (SIMD lanes in the simd module). A tree filled with n leaves then costs
// about n permutations instead of n·(height−1), and the nodes stored are exactly
// those o1js would have stored.
import { P, checkBoolean, checkField, describe, get, hash, hashMany, packElements } from "./core.js";
import { checkPool, runTasks, taskCount } from "./pool.js";

// Inputs per hashMany call: bounds the scratch buffer for very large levels.
const CHUNK = 1 << 15;

function hashAll(inputs) {
  if (inputs.length <= CHUNK) return hashMany(inputs);
  const out = [];
  for (let i = 0; i < inputs.length; i += CHUNK) out.push(...hashMany(inputs.slice(i, i + CHUNK)));
  return out;
}

// zeros[L]: the root of an empty subtree of height L+1 (o1js's `zeroes`), shared by
// every tree; computed on first use, up to the height asked for.
const zeros = [0n];
function zero(level) {
  while (zeros.length <= level) {
    const z = zeros[zeros.length - 1];
    zeros.push(hash([z, z]));
  }
  return zeros[level];
}

function checkInteger(x, name, min, max) {
  if (typeof x !== "number" || !Number.isInteger(x)) throw new TypeError(`${name} must be an integer, got ${describe(x)}`);
  if (x < min || x > max) throw new RangeError(`${name} = ${x} is not in [${min}, ${max}]`);
  return x;
}

function checkIndex(x, name, count) {
  if (typeof x !== "bigint") throw new TypeError(`${name} must be a bigint, got ${describe(x)}`);
  if (x < 0n || x >= count) throw new RangeError(`${name} = ${x} is out of range for ${count} leaves`);
  return x;
}

// The parents still to hash in a tree of `height` levels, by level: a write marks
// its leaf's parent, hashing a level marks the next. Shared with the o1js adapter,
// which keeps o1js's node layout.
export class Marks {
  constructor(height) {
    this.height = height;
    this.levels = Array.from({ length: height }, () => new Set());
    this.low = height; // the lowest level with a mark (height: none)
  }

  leaf(i) {
    if (this.height > 1) this.node(1, i >> 1n);
  }

  // Marks node i of `level` (1 to height−1) to be hashed from its children.
  node(level, i) {
    this.levels[level].add(i);
    if (level < this.low) this.low = level;
  }

  get pending() {
    return this.low < this.height;
  }

  // Hashes the marked nodes bottom-up, each level in one hashMany call:
  // child(level, i) reads a node (a bigint), store(level, i, x) writes one.
  hash(child, store) {
    for (let level = this.low; level < this.height; level++) {
      const marked = this.levels[level];
      if (marked.size === 0) continue;
      const at = [...marked];
      marked.clear();
      const digests = hashAll(at.map((j) => [child(level - 1, 2n * j), child(level - 1, 2n * j + 1n)]));
      const up = level + 1 < this.height ? this.levels[level + 1] : null;
      for (let k = 0; k < at.length; k++) {
        store(level, at[k], digests[k]);
        if (up) up.add(at[k] >> 1n);
      }
    }
    this.low = this.height;
  }
}

// The nodes of a sparse binary tree of `height` levels (0: leaves, height−1: root),
// by level and bigint index, and its marks.
class Levels {
  constructor(height) {
    this.height = height;
    this.nodes = Array.from({ length: height }, () => new Map());
    this.marks = new Marks(height);
  }

  setLeaf(i, x) {
    this.nodes[0].set(i, x);
    this.marks.leaf(i);
  }

  leaf(i) {
    return this.nodes[0].get(i) ?? 0n;
  }

  node(level, i) {
    if (level > 0) this.flush();
    return this.nodes[level].get(i) ?? zero(level);
  }

  flush() {
    if (!this.marks.pending) return;
    this.marks.hash(
      (level, i) => this.nodes[level].get(i) ?? zero(level),
      (level, i, x) => this.nodes[level].set(i, x),
    );
  }

  // Siblings from the leaf up: [{ isLeft, sibling }] as o1js's MerkleTree.getWitness.
  witness(i) {
    this.flush();
    const path = [];
    for (let level = 0; level < this.height - 1; level++) {
      const isLeft = (i & 1n) === 0n;
      path.push({ isLeft, sibling: this.node(level, isLeft ? i + 1n : i - 1n) });
      i >>= 1n;
    }
    return path;
  }

  *entries() {
    this.flush();
    for (let level = 0; level < this.height; level++) {
      for (const [i, x] of this.nodes[level]) yield [level, i, x];
    }
  }

  copy() {
    this.flush();
    const c = new Levels(this.height);
    c.nodes = this.nodes.map((m) => new Map(m));
    return c;
  }
}

/**
 * o1js's `MerkleTree(height)`: 2^(height−1) leaves, levels 0 (leaves) to height−1
 * (root), node = hash([left, right]), empty nodes are the zero subtree roots.
 */
export class MerkleTree {
  #t;

  /** A tree of `height` levels, 1 to 256 (o1js's MerkleMap uses 256), all leaves 0. */
  constructor(height) {
    checkInteger(height, "height", 1, 256);
    this.height = height;
    this.#t = new Levels(height);
  }

  /** A tree of `height` with leaves 0..n−1 set from `leaves`. */
  static fromLeaves(height, leaves) {
    const t = new MerkleTree(height);
    t.fill(leaves);
    return t;
  }

  /** 2^(height−1), as a bigint. */
  get leafCount() {
    return 1n << BigInt(this.height - 1);
  }

  /** Sets leaves 0..n−1 (o1js's `fill`). */
  fill(leaves) {
    this.#checkLeaves(leaves);
    leaves.forEach((x, i) => this.#t.setLeaf(BigInt(i), x));
  }

  #checkLeaves(leaves) {
    if (!Array.isArray(leaves)) throw new TypeError(`leaves must be an array of bigints, got ${describe(leaves)}`);
    if (BigInt(leaves.length) > this.leafCount) {
      throw new RangeError(`leaves: ${leaves.length} leaves do not fit in a tree of height ${this.height} (${this.leafCount} leaves)`);
    }
    leaves.forEach((x, i) => checkField(x, `leaves[${i}]`));
  }

  /**
   * `fromLeaves(height, leaves)` with the hashing done by a worker pool (createPool):
   * the leaves are cut into equal subtrees, a few per worker, each hashed up to its
   * own root by one worker; the levels above them are hashed here. The same tree
   * (nodes, root, witnesses) as `fromLeaves`. Input is checked before any work is sent.
   */
  static async fromLeavesParallel(height, leaves, { pool } = {}) {
    const t = new MerkleTree(height);
    t.#checkLeaves(leaves);
    checkPool(pool);
    const n = leaves.length;
    if (n === 0 || height === 1) {
      leaves.forEach((x, i) => t.#t.setLeaf(BigInt(i), x)); // nothing to hash
      return t;
    }
    // Subtrees of 2^k leaves, about as many as a pool's call has tasks; k in [1, height−1].
    const k = Math.min(height - 1, Math.max(1, Math.floor(Math.log2(n / taskCount(pool)))));
    const size = 2 ** k;
    const zeros = packElements(Array.from({ length: k }, (_, L) => zero(L)));
    const tasks = [];
    for (let from = 0; from < n; from += size) {
      const count = Math.min(size, n - from);
      const words = packElements(leaves, from, from + count);
      tasks.push({ message: { op: "subtree", count, levels: k, words: words.buffer, zeros: zeros.slice().buffer } });
    }
    // Each subtree's nodes are stored as its task returns, while the others run, in
    // the order of the subtrees (as fromLeaves stores them: entries() is the same).
    const store = (j, buffer) => {
      const w = new BigUint64Array(buffer);
      let at = 0, m = Math.min(size, n - j * size);
      for (let L = 1; L <= k; L++) {
        m = Math.ceil(m / 2);
        const level = t.#t.nodes[L];
        const first = BigInt(j) << BigInt(k - L);
        for (let i = 0; i < m; i++) level.set(first + BigInt(i), get(w, at + 4 * i));
        at += 4 * m;
      }
      if (k + 1 < height) t.#t.marks.node(k + 1, BigInt(j >> 1));
    };
    const arrived = new Array(tasks.length);
    let next = 0;
    const done = runTasks(pool, tasks, (j, buffer) => {
      arrived[j] = buffer;
      for (; next < tasks.length && arrived[next]; next++) {
        store(next, arrived[next]);
        arrived[next] = null;
      }
    });
    leaves.forEach((x, i) => t.#t.nodes[0].set(BigInt(i), x));
    await done;
    return t;
  }

  /** Sets one leaf; its path is hashed at the next read (at most height−1 permutations). */
  setLeaf(index, leaf) {
    checkIndex(index, "index", this.leafCount);
    this.#t.setLeaf(index, checkField(leaf, "leaf"));
  }

  /** The node at `level` (0: leaves) and `index`. */
  getNode(level, index) {
    checkInteger(level, "level", 0, this.height - 1);
    checkIndex(index, "index", 1n << BigInt(this.height - 1 - level));
    return this.#t.node(level, index);
  }

  getLeaf(index) {
    return this.getNode(0, index);
  }

  getRoot() {
    return this.#t.node(this.height - 1, 0n);
  }

  /** The leaf's path up to the root: [{ isLeft, sibling }], height−1 entries, as o1js's. */
  getWitness(index) {
    checkIndex(index, "index", this.leafCount);
    return this.#t.witness(index);
  }

  /** Every stored node as [level, index, value] (the nodes o1js's `nodes` would hold). */
  entries() {
    return this.#t.entries();
  }

  clone() {
    const c = new MerkleTree(this.height);
    c.#t = this.#t.copy();
    return c;
  }

  /** o1js's `validate(index)`: whether the leaf's witness leads to the root. */
  validate(index) {
    return calculateRoot(this.getWitness(index), this.getLeaf(index)) === this.getRoot();
  }
}

function checkWitness(witness, name) {
  if (!Array.isArray(witness)) throw new TypeError(`${name} must be an array of { isLeft, sibling }, got ${describe(witness)}`);
  witness.forEach((w, i) => {
    if (w === null || typeof w !== "object") throw new TypeError(`${name}[${i}] must be { isLeft, sibling }, got ${describe(w)}`);
    checkBoolean(w.isLeft, `${name}[${i}].isLeft`);
    checkField(w.sibling, `${name}[${i}].sibling`);
  });
}

/**
 * o1js's `MerkleWitness.calculateRoot(leaf)`: the root that `witness` (a
 * `getWitness` result: { isLeft, sibling } from the leaf up) leads to from `leaf`.
 */
export function calculateRoot(witness, leaf) {
  checkWitness(witness, "witness");
  let h = checkField(leaf, "leaf");
  for (const { isLeft, sibling } of witness) h = hash(isLeft ? [h, sibling] : [sibling, h]);
  return h;
}

/** o1js's `MerkleWitness.calculateIndex()`: the leaf index the witness's path spells. */
export function calculateIndex(witness) {
  checkWitness(witness, "witness");
  return witness.reduceRight((index, { isLeft }) => (index << 1n) | (isLeft ? 0n : 1n), 0n);
}

/**
 * o1js's `MerkleMapWitness.computeRootAndKey(value)`: [root, key] for a
 * `MerkleMap.getWitness` result ({ isLefts, siblings }, 255 each; isLefts[0] must
 * be true, as o1js asserts, so keys stay below 2^254).
 */
export function computeRootAndKey(witness, value) {
  if (witness === null || typeof witness !== "object" || !Array.isArray(witness.isLefts) || !Array.isArray(witness.siblings)) {
    throw new TypeError(`witness must be { isLefts, siblings }, got ${describe(witness)}`);
  }
  const { isLefts, siblings } = witness;
  if (isLefts.length !== 255 || siblings.length !== 255) {
    throw new RangeError(`witness must have 255 isLefts and siblings, got ${isLefts.length} and ${siblings.length}`);
  }
  if (isLefts[0] !== true) throw new RangeError("witness.isLefts[0] must be true (o1js's rule: keys are below 2^254)");
  const steps = isLefts.map((isLeft, i) => ({ isLeft, sibling: siblings[i] }));
  let key = 0n;
  for (const { isLeft } of steps) key = (key << 1n) | (isLeft ? 0n : 1n);
  return [calculateRoot(steps, value), key];
}

/** o1js's rule: the key's 255 bits reversed (so the index is even); keys below 2^254. */
function keyToIndex(key) {
  checkField(key, "key");
  if (key >> 254n) throw new RangeError(`key = ${key} must be below 2^254 (o1js's MerkleMap rule)`);
  return BigInt("0b" + [...key.toString(2).padStart(255, "0")].reverse().join(""));
}

/** o1js's `MerkleMap`: a MerkleTree of height 256 indexed by the key's reversed bits. */
export class MerkleMap {
  #t = new Levels(256);

  /** A map holding `entries` ([key, value] pairs; later ones win), hashed in bulk. */
  static fromEntries(entries) {
    const m = new MerkleMap();
    for (const e of entries) {
      if (!Array.isArray(e) || e.length !== 2) throw new TypeError(`entries: each entry must be [key, value], got ${describe(e)}`);
      m.set(e[0], e[1]);
    }
    return m;
  }

  set(key, value) {
    const i = keyToIndex(key);
    this.#t.setLeaf(i, checkField(value, "value"));
  }

  /** The value at `key`, 0 if never set. */
  get(key) {
    return this.#t.leaf(keyToIndex(key));
  }

  getRoot() {
    return this.#t.node(255, 0n);
  }

  /** o1js's MerkleMapWitness as plain values: { isLefts: boolean[255], siblings: bigint[255] }. */
  getWitness(key) {
    const path = this.#t.witness(keyToIndex(key));
    return { isLefts: path.map((p) => p.isLeft), siblings: path.map((p) => p.sibling) };
  }

  /** Every stored node of the inner tree as [level, index, value]. */
  entries() {
    return this.#t.entries();
  }
}

/**
 * o1js's `IndexedMerkleMap(height)` (an instance, not a class factory): leaves in
 * insertion order, leaf = hash([key, value, nextKey]) with the keys linked in
 * ascending order (nextKey 0: the largest), root = hash([internalRoot, length]).
 * Starts with the leaf (0, 0).
 */
export class IndexedMerkleMap {
  #t;
  #keys = [0n];
  #values = [0n];
  #next = [0n];
  #sorted = [0]; // leaf indices by ascending key
  #dirty = new Set([0]); // leaves to rehash
  #root = null;

  /** height: 1 to 52 (o1js's limits); 2^(height−1) leaves. */
  constructor(height) {
    checkInteger(height, "height", 1, 52);
    this.height = height;
    this.#t = new Levels(height);
  }

  /**
   * A map of `height` holding `entries` ([key, value] pairs), as inserting them in
   * this order would: one sort instead of a search and a splice per key (for
   * rebuilding a large map, e.g. from OffchainState's actions). Throws as `insert`
   * on a duplicate key, key 0, or too many entries.
   */
  static fromEntries(height, entries) {
    const m = new IndexedMerkleMap(height);
    const list = [];
    for (const e of entries) {
      if (!Array.isArray(e) || e.length !== 2) throw new TypeError(`entries: each entry must be [key, value], got ${describe(e)}`);
      list.push([checkField(e[0], `entries[${list.length}][0]`), checkField(e[1], `entries[${list.length}][1]`)]);
    }
    if (BigInt(list.length + 1) > 1n << BigInt(height - 1)) {
      throw new RangeError(`entries: ${list.length} entries do not fit in IndexedMerkleMap(${height}) (${(1n << BigInt(height - 1)) - 1n} besides the (0, 0) leaf)`);
    }
    // Leaf i+1 holds entry i; #sorted lists the leaves by key, leaf 0 (key 0) first.
    const sorted = list.map((_, i) => i + 1).sort((a, b) => (list[a - 1][0] < list[b - 1][0] ? -1 : list[a - 1][0] > list[b - 1][0] ? 1 : 0));
    const key = (leaf) => (leaf === 0 ? 0n : list[leaf - 1][0]);
    sorted.forEach((leaf, k) => {
      if (key(leaf) === 0n || (k > 0 && key(sorted[k - 1]) === key(leaf))) throw new Error("Key already exists in the tree");
    });
    m.#sorted = [0, ...sorted];
    m.#keys = [0n, ...list.map((e) => e[0])];
    m.#values = [0n, ...list.map((e) => e[1])];
    m.#next = new Array(list.length + 1);
    m.#sorted.forEach((leaf, k) => (m.#next[leaf] = k + 1 < m.#sorted.length ? key(m.#sorted[k + 1]) : 0n));
    m.#dirty = new Set(m.#keys.keys());
    return m;
  }

  /** The number of leaves (a bigint, as o1js's `length` Field). */
  get length() {
    return BigInt(this.#keys.length);
  }

  // Position in #sorted of the largest key <= key.
  #find(key) {
    let lo = 0, hi = this.#sorted.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.#keys[this.#sorted[mid]] <= key) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  #index(key) {
    checkField(key, "key");
    const i = this.#sorted[this.#find(key)];
    return this.#keys[i] === key ? i : -1;
  }

  #touch(i) {
    this.#dirty.add(i);
    this.#root = null;
  }

  /** Adds a new key; throws if it exists (key 0 always does) or the map is full. */
  insert(key, value) {
    checkField(key, "key");
    checkField(value, "value");
    const pos = this.#find(key);
    const low = this.#sorted[pos];
    if (this.#keys[low] === key) throw new Error("Key already exists in the tree");
    const n = this.#keys.length;
    if (BigInt(n) >= 1n << BigInt(this.height - 1)) {
      throw new RangeError(`IndexedMerkleMap(${this.height}) is full (${n} leaves)`);
    }
    this.#keys.push(key);
    this.#values.push(value);
    this.#next.push(this.#next[low]);
    this.#next[low] = key;
    this.#sorted.splice(pos + 1, 0, n);
    this.#touch(low);
    this.#touch(n);
  }

  /** Changes the value of an existing key; returns the previous value. */
  update(key, value) {
    const i = this.#index(key);
    checkField(value, "value");
    if (i < 0) throw new Error("Key does not exist in the tree");
    const previous = this.#values[i];
    this.#values[i] = value;
    this.#touch(i);
    return previous;
  }

  /** Inserts or updates; returns the previous value as { isSome, value } (value 0 if none). */
  set(key, value) {
    const i = this.#index(key);
    checkField(value, "value");
    if (i < 0) {
      this.insert(key, value);
      return { isSome: false, value: 0n };
    }
    return { isSome: true, value: this.update(key, value) };
  }

  /** The value of an existing key; throws if there is none. */
  get(key) {
    const i = this.#index(key);
    if (i < 0) throw new Error("Key does not exist in the tree");
    return this.#values[i];
  }

  /** { isSome, value } (value 0 if the key is not in the map). */
  getOption(key) {
    const i = this.#index(key);
    return i < 0 ? { isSome: false, value: 0n } : { isSome: true, value: this.#values[i] };
  }

  /**
   * o1js's `setIf(condition, key, value)`: `set(key, value)` if `condition`, else
   * `set(0, 0)` as o1js does (a no-op for maps that never use key 0).
   */
  setIf(condition, key, value) {
    checkBoolean(condition, "condition");
    return condition ? this.set(key, value) : this.set(0n, 0n);
  }

  /** Whether `key` is in the map (key 0 always is). */
  isIncluded(key) {
    return this.#index(key) >= 0;
  }

  /** Throws (with `message`, else o1js's) unless `key` is in the map. */
  assertIncluded(key, message) {
    if (!this.isIncluded(key)) throw new Error(message ?? "Key does not exist in the tree");
  }

  /** Throws (with `message`, else o1js's) if `key` is in the map. */
  assertNotIncluded(key, message) {
    if (this.isIncluded(key)) throw new Error(message ?? "Key already exists in the tree");
  }

  /** An independent copy (o1js's `clone`). */
  clone() {
    const c = new IndexedMerkleMap(this.height);
    c.#copyFrom(this);
    return c;
  }

  /** Makes this map a copy of `other`, a map of the same height (o1js's `overwrite`). */
  overwrite(other) {
    this.overwriteIf(true, other);
  }

  /** `overwrite(other)` if `condition` (o1js's `overwriteIf`). */
  overwriteIf(condition, other) {
    checkBoolean(condition, "condition");
    if (!(other instanceof IndexedMerkleMap) || other.height !== this.height) {
      throw new TypeError(`other must be an IndexedMerkleMap(${this.height}), got ${other instanceof IndexedMerkleMap ? `IndexedMerkleMap(${other.height})` : describe(other)}`);
    }
    if (condition && other !== this) this.#copyFrom(other);
  }

  #copyFrom(other) {
    this.#t = other.#t.copy();
    this.#keys = [...other.#keys];
    this.#values = [...other.#values];
    this.#next = [...other.#next];
    this.#sorted = [...other.#sorted];
    this.#dirty = new Set(other.#dirty);
    this.#root = other.#root;
  }

  #flush() {
    if (this.#dirty.size === 0) return;
    const at = [...this.#dirty];
    this.#dirty.clear();
    const digests = hashAll(at.map((i) => [this.#keys[i], this.#values[i], this.#next[i]]));
    at.forEach((i, k) => this.#t.setLeaf(BigInt(i), digests[k]));
  }

  /** The root of the leaves' tree (o1js's `_internalRoot`). */
  get internalRoot() {
    this.#flush();
    return this.#t.node(this.height - 1, 0n);
  }

  /** o1js's `root`: hash([internalRoot, length]). */
  getRoot() {
    if (this.#root === null) this.#root = hash([this.internalRoot, this.length]);
    return this.#root;
  }

  get root() {
    return this.getRoot();
  }

  /**
   * The map's contents in o1js's stored form (its `data`): `nodes[level][index]`
   * (bigints, only the nodes o1js stores) and `sortedLeaves` ({ key, value,
   * nextKey, index } by ascending key).
   */
  data() {
    this.#flush();
    const nodes = Array.from({ length: this.height }, () => []);
    for (const [level, i, x] of this.#t.entries()) nodes[level][Number(i)] = x;
    const sortedLeaves = this.#sorted.map((i) => ({ key: this.#keys[i], value: this.#values[i], nextKey: this.#next[i], index: i }));
    return { nodes, sortedLeaves };
  }
}

