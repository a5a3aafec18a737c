// o1js's sponge and length-tagged hash out of circuit (lib/provable/crypto/poseidon.js
// in o1js 2.15; its Sponge is Snarky's Poseidon sponge): absorb and squeeze one
// element at a time over the kimchi permutation.
import { P, checkField, hash, permute } from "./core.js";

/**
 * o1js's `Poseidon.hashAnyLength(fields)`: `hash([...fields, length])`. Unlike
 * `hash`, inputs that differ only by trailing zeros do not collide.
 */
export function hashAnyLength(fields) {
  if (!Array.isArray(fields)) return hash(fields); // hash's own error
  return hash([...fields, BigInt(fields.length)]);
}

/** o1js's `Poseidon.initialState()`: the sponge's state before any input, `[0n, 0n, 0n]` (for `update`). */
export function initialState() {
  return [0n, 0n, 0n];
}

/**
 * o1js's `Poseidon.Sponge`: absorbs elements into the rate (two of the three
 * state elements, added in turn; the state is permuted when both are used) and
 * squeezes them out (permuting first after absorbing, and after two squeezes).
 * Absorbing a list then squeezing once equals `hash(list)`; a second squeeze
 * returns element 1 of the same state (`update(initial, list)[1]`) without a
 * permutation.
 */
export class Sponge {
  #state = [0n, 0n, 0n];
  // Absorbing: how many rate elements hold input; squeezing: how many were read.
  #mode = "absorb";
  #used = 0;

  /** Adds one element to the state. */
  absorb(x) {
    checkField(x, "x");
    if (this.#mode === "squeeze") {
      this.#mode = "absorb";
      this.#used = 0;
    } else if (this.#used === 2) {
      this.#state = permute(this.#state);
      this.#used = 0;
    }
    this.#state[this.#used] = (this.#state[this.#used] + x) % P;
    this.#used++;
  }

  /** The next output element. */
  squeeze() {
    if (this.#mode === "absorb" || this.#used === 2) {
      this.#state = permute(this.#state);
      this.#mode = "squeeze";
      this.#used = 0;
    }
    return this.#state[this.#used++];
  }
}
