// "kimchi-poseidon/o1js": an opt-in adapter that makes o1js's own out-of-circuit
// hashing use this package's permutation, and conversions that hand this package's
// Merkle structures to o1js's classes (so circuits keep o1js's witnesses).
//
// installFastPoseidon(o1js) replaces Poseidon.hash, Poseidon.update,
// Poseidon.hashWithPrefix and Poseidon.hashToGroup on o1js's public Poseidon object. o1js reaches them by
// property lookup, so MerkleTree, MerkleMap, MerkleList, events, actions, TokenId
// and Signature hash through them too. Inputs that are not all constants (provable
// code) go to o1js's originals unchanged; Poseidon.hashAnyLength and hashPacked
// call Poseidon.hash, so they are covered too. Not covered (o1js calls its internal
// bigint Poseidon or Snarky directly there): mina-signer's commitments (every
// transaction's signing), Poseidon.Sponge, and IndexedMerkleMap's path hashing (at
// height 31, 60 of one insert's 125 hashes): the package's own IndexedMerkleMap,
// sponge and transactionCommitments (with zkappCommandInput below) do those.
//
// It also replaces MerkleTree.prototype.setLeaf (and so fill, and MerkleMap.set):
// a write stores the leaf and marks its path; the marked nodes are hashed, level
// by level in batches, the next time anything reads the tree's `nodes` (which
// getNode, getRoot, getWitness, clone and user code all go through: on a tree
// that took such a write, `nodes` becomes an accessor that completes the pending
// hashes first). The nodes are exactly those o1js would hold; a setLeaf loop costs
// about one permutation per leaf instead of height−1.
import { describe, hash, hashToGroup, update } from "./core.js";
import { Marks } from "./merkle.js";
import { salt } from "./prefix.js";
import { memoFromText } from "./transaction.js";

function checkO1js(o1js) {
  if (!o1js || typeof o1js.Field !== "function" || !o1js.Poseidon || typeof o1js.Poseidon.hash !== "function") {
    throw new TypeError(`o1js must be the o1js module (import * as o1js from "o1js"), got ${describe(o1js)}`);
  }
  return o1js;
}

const constant = (xs) => xs.every((x) => x.isConstant());
const bigints = (xs) => xs.map((x) => x.toBigInt());

const installed = new WeakMap(); // Poseidon object -> its original functions

/**
 * Makes o1js's `Poseidon.hash`, `update` and `hashWithPrefix` compute constant
 * inputs with this package (call `await init()` first). Returns a function that
 * restores the originals. Installing twice is an error.
 */
export function installFastPoseidon(o1js) {
  const { Field, Poseidon } = checkO1js(o1js);
  if (installed.has(Poseidon)) throw new Error("installFastPoseidon: already installed on this o1js");
  hash([]); // throws now, not inside o1js, if init() was not awaited
  const original = { hash: Poseidon.hash, update: Poseidon.update, hashWithPrefix: Poseidon.hashWithPrefix, hashToGroup: Poseidon.hashToGroup };
  installed.set(Poseidon, original);
  Poseidon.hash = function (input) {
    return constant(input) ? Field(hash(bigints(input))) : original.hash.call(this, input);
  };
  Poseidon.update = function (state, input) {
    if (!(constant(state) && constant(input))) return original.update.call(this, state, input);
    return update(bigints(state), bigints(input)).map((x) => Field(x));
  };
  // o1js: update(update(initialState, [prefixToField(prefix)]), input)[0]; the salt
  // state is cached here. The prefix rule (ASCII, at most 31) is o1js's public one.
  Poseidon.hashWithPrefix = function (prefix, input) {
    if (!constant(input)) return original.hashWithPrefix.call(this, prefix, input);
    return Field(update(salt(prefix), bigints(input))[0]);
  };
  Poseidon.hashToGroup = function (input) {
    if (!constant(input)) return original.hashToGroup.call(this, input);
    return new o1js.Group(hashToGroup(bigints(input)));
  };
  const tree = o1js.MerkleTree?.prototype;
  const setLeaf = tree?.setLeaf;
  if (setLeaf) {
    tree.setLeaf = function (index, leaf) {
      if (!leaf.isConstant()) return setLeaf.call(this, index, leaf);
      if (index >= this.leafCount) throw new Error(`index ${index} is out of range for ${this.leafCount} leaves.`);
      const lazy = lazyNodes(this, Field);
      (lazy.raw[0] ??= {})[index.toString()] = leaf;
      lazy.marks.leaf(index);
    };
  }
  return function uninstall() {
    if (installed.get(Poseidon) !== original) return;
    Object.assign(Poseidon, original);
    if (setLeaf) tree.setLeaf = setLeaf;
    installed.delete(Poseidon);
  };
}

// tree -> its pending writes. The accessor stays after uninstall (it then only
// completes what is pending, with this package's hash: the same values).
const lazyTrees = new WeakMap();

function lazyNodes(tree, Field) {
  let lazy = lazyTrees.get(tree);
  if (lazy) return lazy;
  lazy = {
    raw: tree.nodes,
    marks: new Marks(tree.height),
    flush() {
      if (!lazy.marks.pending) return;
      const { raw } = lazy;
      lazy.marks.hash(
        (level, i) => (raw[level]?.[i.toString()] ?? tree.zeroes[level]).toBigInt(),
        (level, i, x) => ((raw[level] ??= {})[i.toString()] = Field(x)),
      );
    },
  };
  lazyTrees.set(tree, lazy);
  Object.defineProperty(tree, "nodes", {
    enumerable: true,
    configurable: true,
    get() {
      lazy.flush();
      return lazy.raw;
    },
    set(v) {
      lazy.flush();
      lazy.raw = v;
    },
  });
  return lazy;
}

/** An o1js `MerkleTree` holding the nodes of `tree` (a MerkleTree of this package). */
export function toO1jsMerkleTree(o1js, tree) {
  const { Field, MerkleTree } = checkO1js(o1js);
  const t = new MerkleTree(tree.height);
  for (const [level, i, x] of tree.entries()) (t.nodes[level] ??= {})[i.toString()] = Field(x);
  return t;
}

/** An o1js `MerkleMap` holding the nodes of `map` (a MerkleMap of this package). */
export function toO1jsMerkleMap(o1js, map) {
  const { Field, MerkleMap } = checkO1js(o1js);
  const m = new MerkleMap();
  for (const [level, i, x] of map.entries()) (m.tree.nodes[level] ??= {})[i.toString()] = Field(x);
  return m;
}

/**
 * An instance of `MapClass` (an o1js `IndexedMerkleMap(h)` class) holding the
 * contents of `map` (an IndexedMerkleMap of this package with the same height).
 */
export function toO1jsIndexedMerkleMap(o1js, MapClass, map) {
  const { Field, Unconstrained } = checkO1js(o1js);
  const m = new MapClass();
  if (m.height !== map.height) throw new RangeError(`MapClass has height ${m.height}, the map ${map.height}`);
  m._internalRoot = Field(map.internalRoot);
  m.length = Field(map.length);
  m.data = Unconstrained.from(map.data());
  return m;
}


const memoOf = (memo) => (typeof memo === "string" && new TextEncoder().encode(memo).length <= 32 ? memoFromText(memo) : memo);

const plainInput = ({ fields = [], packed = [] }) => ({ fields: bigints(fields), packed: packed.map(([x, n]) => [x.toBigInt(), n]) });

/**
 * A zkApp command as `transactionCommitments` takes it, laid out by o1js's public
 * `Types`: `zkappCommand` is o1js's (a transaction's `transaction`) or its JSON
 * (`transaction.toJSON()`, as a string or parsed). The fee payer becomes the account
 * update mina-signer hashes for it (fee as a negative balance change, nonce and
 * valid-until preconditions, full commitment, signed).
 */
export function zkappCommandInput(o1js, zkappCommand) {
  const { Bool, Sign, Types, UInt32 } = checkO1js(o1js);
  const json = typeof zkappCommand === "string" ? JSON.parse(zkappCommand) : zkappCommand;
  if (json === null || typeof json !== "object" || !json.feePayer || !Array.isArray(json.accountUpdates)) {
    throw new TypeError(`zkappCommand must be o1js's zkApp command or its JSON, got ${describe(zkappCommand)}`);
  }
  const command = typeof json.feePayer.body?.fee === "string" ? Types.ZkappCommand.fromJSON(json) : json;
  const { fee, nonce, publicKey, validUntil } = command.feePayer.body;
  const feePayer = Types.AccountUpdate.empty();
  const body = feePayer.body;
  body.publicKey = publicKey;
  body.balanceChange = { magnitude: fee, sgn: Sign.minusOne };
  body.incrementNonce = Bool(true);
  body.preconditions.network.globalSlotSinceGenesis = { isSome: Bool(true), value: { lower: UInt32.zero, upper: validUntil ?? UInt32.MAXINT() } };
  body.preconditions.account.nonce = { isSome: Bool(true), value: { lower: nonce, upper: nonce } };
  body.useFullCommitment = Bool(true);
  body.implicitAccountCreationFee = Bool(true);
  body.authorizationKind = { ...body.authorizationKind, isProved: Bool(false), isSigned: Bool(true) };
  return {
    feePayer: plainInput(Types.AccountUpdate.toInput(feePayer)),
    accountUpdates: command.accountUpdates.map((au) => ({
      ...plainInput(Types.AccountUpdate.toInput(au)),
      callDepth: Number(au.body.callDepth),
    })),
    // The JSON (and a transaction read from it) has the memo in base58, a
    // transaction o1js built holds its text; a text is at most 32 bytes, base58 longer.
    memo: memoOf(command.memo ?? ""),
  };
}
