// o1js's MerkleList commitment out of circuit (lib/provable/merkle-list.js in o1js
// 2.15): a list is one hash, starting at the empty hash (0 unless given), and each
// pushed element makes it nextHash(hash, element), by default
// hashWithPrefix(prefix, [hash, ...packToFields(element)]) with the prefix "".
import { checkBoolean, checkField, describe } from "./core.js";
import { packToFields } from "./packed.js";
import { hashWithPrefix, prefixToField } from "./prefix.js";

// An element: its fields (bigint[]) or its `{ fields, packed }` input.
const input = (element) => (Array.isArray(element) ? { fields: element } : element);

/**
 * o1js's default `nextHash` of `MerkleList.create(type)`:
 * `hashWithPrefix(prefix, [previous, ...packToFields(type.toInput(element))])`,
 * the element given as its fields or its `{ fields, packed }` input.
 */
export function merkleListHash(previous, element, prefix = "") {
  checkField(previous, "previous");
  return hashWithPrefix(prefix, [previous, ...packToFields(input(element))]);
}

/**
 * o1js's `MerkleList` as a commitment: `push` elements, read `hash`. Options:
 * `prefix` (of the default `nextHash`), `emptyHash` (default 0), or `nextHash`
 * (hash, element) => bigint in place of the default (e.g. o1js's action lists).
 */
export class MerkleList {
  #hash;
  #length = 0;
  #next;
  #empty;

  constructor(options = {}) {
    if (options === null || typeof options !== "object") throw new TypeError(`options must be an object, got ${describe(options)}`);
    const { prefix = "", emptyHash = 0n, nextHash } = options;
    if (nextHash !== undefined && typeof nextHash !== "function") {
      throw new TypeError(`nextHash must be a function (hash, element) => bigint, got ${describe(nextHash)}`);
    }
    prefixToField(prefix); // checks the prefix now, not at the first push
    this.#empty = checkField(emptyHash, "emptyHash");
    this.#hash = this.#empty;
    this.#next = nextHash ?? ((h, element) => merkleListHash(h, element, prefix));
  }

  /** o1js's `MerkleList.from(elements)`: the list of `elements`, pushed in order. */
  static from(elements, options) {
    if (!Array.isArray(elements)) throw new TypeError(`elements must be an array, got ${describe(elements)}`);
    const list = new MerkleList(options);
    for (const e of elements) list.push(e);
    return list;
  }

  /** o1js's `MerkleList.fromReverse(elements)`: pushed last to first. */
  static fromReverse(elements, options) {
    if (!Array.isArray(elements)) throw new TypeError(`elements must be an array, got ${describe(elements)}`);
    return MerkleList.from([...elements].reverse(), options);
  }

  /** Appends `element` (its fields, or its `{ fields, packed }` input). */
  push(element) {
    this.#hash = checkField(this.#next(this.#hash, element), "nextHash's result");
    this.#length++;
  }

  /** `push(element)` when `condition` is true (o1js's `pushIf`). */
  pushIf(condition, element) {
    if (checkBoolean(condition, "condition")) this.push(element);
  }

  /** The commitment: o1js's `list.hash`. */
  get hash() {
    return this.#hash;
  }

  /** How many elements were pushed. */
  get length() {
    return this.#length;
  }

  /** Whether nothing was pushed (o1js compares the hash with the empty hash). */
  isEmpty() {
    return this.#hash === this.#empty;
  }
}
