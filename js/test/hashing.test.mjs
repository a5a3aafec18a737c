// The off-chain hashing o1js offers beyond Poseidon.hash, against o1js 2.15.0 itself
// on seeded inputs and edge cases: hashAnyLength, the sponge, packed inputs
// (packToFields, hashPacked of real o1js structs), TokenId.derive, MerkleList
// commitments, and mina-signer's legacy packing and salted hashes.
import assert from "node:assert/strict";
import { test } from "node:test";

import * as o1js from "o1js";

import {
  MerkleList, P, Sponge, deriveTokenId, initialState, emptyHashWithPrefixLegacy, hash, hashAnyLength, hashPacked, hashWithPrefix,
  hashWithPrefixLegacy, merkleListHash, packToFields, packToFieldsLegacy, saltLegacy, update, updateLegacy,
} from "../index.js";
import { initModuleUnderTest, o1jsModule, splitmix } from "./common.mjs";
import { PoseidonLegacy } from "./o1js-ref.mjs";

const { Bool, Field, Poseidon, PrivateKey, Struct, TokenId, UInt32, UInt64, UInt8 } = o1js;

// mina-signer's bigint hashing and o1js's list step, not in o1js's exports: by path.
const signer = await o1jsModule("mina-signer/src/poseidon-bigint.js");
const { merkleListHash: o1MerkleListHash } = await o1jsModule("lib/provable/merkle-list.js");

await o1js.initializeBindings();
await initModuleUnderTest();

const next = splitmix(0x49);
const edges = [0n, 1n, 2n, P - 1n, P - 2n, (1n << 254n) - 1n];
const element = () => (next() % 5n === 0n ? edges[Number(next() % 6n)] : ((next() << 192n) | (next() << 128n) | (next() << 64n) | next()) % P);
const elements = (n) => Array.from({ length: n }, element);
const bits = (n) => ((next() << 192n) | (next() << 128n) | (next() << 64n) | next()) & ((1n << BigInt(n)) - 1n);
const F = (x) => Field(x);
const big = (f) => f.toBigInt();
// An o1js `toInput` result ({ fields: Field[], packed: [Field, bits][] }) as bigints.
const plain = ({ fields = [], packed = [] }) => ({ fields: fields.map(big), packed: packed.map(([x, n]) => [big(x), n]) });

test("hashAnyLength equals o1js's Poseidon.hashAnyLength for 0 to 12 fields, and differs from hash on trailing zeros", () => {
  for (let n = 0; n <= 12; n++) {
    const xs = elements(n);
    assert.equal(hashAnyLength(xs), big(Poseidon.hashAnyLength(xs.map(F))), `${n} fields`);
  }
  assert.equal(hash([5n]), hash([5n, 0n]), "hash pads: the collision hashAnyLength avoids");
  assert.notEqual(hashAnyLength([5n]), hashAnyLength([5n, 0n]));
  assert.throws(() => hashAnyLength([P]), /fields\[0\] = .* is not in \[0, p\)/);
});

test("initialState is o1js's Poseidon.initialState, and update from it is Poseidon.update's", () => {
  assert.deepEqual(initialState(), Poseidon.initialState().map(big));
  const xs = elements(3);
  assert.deepEqual(update(initialState(), xs), Poseidon.update(Poseidon.initialState(), xs.map(F)).map(big));
  const s = initialState();
  s[0] = 1n;
  assert.deepEqual(initialState(), [0n, 0n, 0n], "a fresh array each call");
});

test("Sponge: every sequence of absorbs and squeezes equals o1js's Poseidon.Sponge", () => {
  for (let run = 0; run < 60; run++) {
    const ours = new Sponge();
    const theirs = new Poseidon.Sponge();
    const ops = Array.from({ length: Number(next() % 12n) }, () => (next() % 2n === 0n ? element() : null));
    ops.push(null);
    for (const op of ops) {
      if (op === null) assert.equal(ours.squeeze(), big(theirs.squeeze()), `run ${run}: ${ops.map((o) => (o === null ? "s" : "a")).join("")}`);
      else {
        ours.absorb(op);
        theirs.absorb(F(op));
      }
    }
  }
  // The first squeeze is the hash; the second the state's next element.
  const xs = elements(5);
  const s = new Sponge();
  xs.forEach((x) => s.absorb(x));
  assert.equal(s.squeeze(), hash(xs));
  assert.equal(s.squeeze(), update([0n, 0n, 0n], xs)[1]);
  assert.equal(new Sponge().squeeze(), hash([]));
  assert.throws(() => new Sponge().absorb(P), /x = .* is not in \[0, p\)/);
});

// A struct with packed members, as zkApps and OffchainState use.
class Entry extends Struct({ owner: Field, amount: UInt64, nonce: UInt32, flag: Bool, small: UInt8, tag: Field }) {}
const entry = () =>
  new Entry({ owner: F(element()), amount: UInt64.from(bits(64)), nonce: UInt32.from(bits(32)), flag: Bool(next() % 2n === 0n), small: UInt8.from(bits(8)), tag: F(element()) });
// Many UInt64s: the packing crosses 255 bits (three per element, a fourth starts the next).
class Wide extends Struct({ a: UInt64, b: UInt64, c: UInt64, d: UInt64, e: UInt64, f: UInt32, g: Bool }) {}

test("packToFields and hashPacked equal o1js on structs with packed members, maximal values and packing across 255 bits", () => {
  for (let k = 0; k < 20; k++) {
    const value = entry();
    const input = plain(Entry.toInput(value));
    assert.deepEqual(packToFields(input), signer.packToFields(input), `packToFields ${k}`);
    assert.equal(hashPacked(input), big(Poseidon.hashPacked(Entry, value)), `hashPacked ${k}`);
  }
  const max = (Type, n) => Type.from((1n << BigInt(n)) - 1n);
  const wides = [
    new Wide({ a: max(UInt64, 64), b: max(UInt64, 64), c: max(UInt64, 64), d: max(UInt64, 64), e: max(UInt64, 64), f: max(UInt32, 32), g: Bool(true) }),
    new Wide({ a: UInt64.from(0), b: UInt64.from(0), c: UInt64.from(0), d: UInt64.from(0), e: UInt64.from(0), f: UInt32.from(0), g: Bool(false) }),
    new Wide({ a: UInt64.from(bits(64)), b: UInt64.from(bits(64)), c: UInt64.from(bits(64)), d: UInt64.from(bits(64)), e: UInt64.from(1), f: UInt32.from(bits(32)), g: Bool(true) }),
  ];
  for (const w of wides) {
    const input = plain(Wide.toInput(w));
    assert.deepEqual(packToFields(input), signer.packToFields(input));
    assert.equal(hashPacked(input), big(Poseidon.hashPacked(Wide, w)));
  }
  // A plain Field, no fields at all, and o1js's own packing of a single value.
  assert.equal(hashPacked({ fields: [7n] }), big(Poseidon.hashPacked(Field, F(7n))));
  assert.deepEqual(packToFields({}), []);
  assert.deepEqual(packToFields({ packed: [[1n, 1]] }), signer.packToFields({ fields: [], packed: [[1n, 1]] }));
  assert.deepEqual(packToFields({ packed: [[(1n << 254n) - 1n, 254], [1n, 1]] }), [(1n << 254n) - 1n, 1n]);
  // Values that do not fit their bits, and bad shapes, are refused.
  assert.throws(() => packToFields({ packed: [[2n, 1]] }), /at most 1 bits/);
  assert.throws(() => packToFields({ packed: [[1n, 0]] }), /bits must be an integer from 1 to 254/);
  assert.throws(() => packToFields({ packed: [[1n, 255]] }), /bits must be an integer from 1 to 254/);
  assert.throws(() => packToFields({ packed: [1n] }), /\[value, bits\] pair/);
  assert.throws(() => packToFields({ fields: [P] }), /fields\[0\]/);
  assert.throws(() => packToFields(null), /input must be/);
});

test("deriveTokenId equals o1js's TokenId.derive for random keys, under MINA and under a derived token", () => {
  for (let k = 0; k < 12; k++) {
    const pk = PrivateKey.random().toPublicKey();
    const owner = { x: big(pk.x), isOdd: pk.isOdd.toBoolean() };
    const mina = big(TokenId.derive(pk));
    assert.equal(deriveTokenId(owner), mina, `key ${k}`);
    const parent = k % 2 === 0 ? mina : element();
    assert.equal(deriveTokenId(owner, parent), big(TokenId.derive(pk, F(parent))), `key ${k} under a token`);
  }
  assert.throws(() => deriveTokenId({ x: 1n }), /isOdd/);
  assert.throws(() => deriveTokenId({ x: P, isOdd: false }), /owner.x/);
});

test("MerkleList: the hash after each push equals o1js's MerkleList (Field, a packed struct, a prefix, from, fromReverse, pushIf)", () => {
  const FieldList = o1js.MerkleList.create(Field);
  const ours = new MerkleList();
  const theirs = FieldList.empty();
  assert.equal(ours.hash, big(theirs.hash));
  assert.ok(ours.isEmpty());
  for (let i = 0; i < 30; i++) {
    const x = element();
    ours.push([x]);
    theirs.push(F(x));
    assert.equal(ours.hash, big(theirs.hash), `push ${i}`);
  }
  assert.equal(ours.length, 30);
  const EntryList = o1js.MerkleList.create(Entry, (h, e) => Poseidon.hashWithPrefix("my list", [h, ...o1js.Poseidon.hash(Entry.toFields(e)).toFields()]), F(123n));
  const custom = new MerkleList({ emptyHash: 123n, nextHash: (h, e) => hashWithPrefix("my list", [h, hash(e)]) });
  const theirCustom = EntryList.empty();
  const PackedList = o1js.MerkleList.create(Entry);
  const packed = new MerkleList();
  const theirPacked = PackedList.empty();
  const entries = Array.from({ length: 8 }, entry);
  for (const [i, e] of entries.entries()) {
    custom.push(Entry.toFields(e).map(big));
    theirCustom.push(e);
    packed.pushIf(i % 3 !== 1, plain(Entry.toInput(e)));
    theirPacked.pushIf(Bool(i % 3 !== 1), e);
    assert.equal(custom.hash, big(theirCustom.hash), `custom ${i}`);
    assert.equal(packed.hash, big(theirPacked.hash), `packed ${i}`);
  }
  const xs = elements(6);
  assert.equal(MerkleList.from(xs.map((x) => [x])).hash, big(FieldList.from(xs.map(F)).hash));
  assert.equal(MerkleList.fromReverse(xs.map((x) => [x])).hash, big(FieldList.fromReverse(xs.map(F)).hash));
  assert.equal(MerkleList.from([]).hash, 0n);
  // One step, with a prefix: o1js's merkleListHash(type, prefix), and a packed element.
  const step = o1MerkleListHash(Field, "MinaZkappEvent******");
  assert.equal(merkleListHash(5n, [xs[0]], "MinaZkappEvent******"), big(step(F(5n), F(xs[0]))));
  assert.equal(merkleListHash(xs[1], plain(Entry.toInput(entries[0]))), big(o1MerkleListHash(Entry)(F(xs[1]), entries[0])));
  assert.throws(() => new MerkleList({ nextHash: 1 }), /nextHash must be a function/);
  assert.throws(() => new MerkleList({ prefix: "é" }), /not ASCII/);
  assert.throws(() => ours.pushIf(1, [1n]), /condition must be a boolean/);
});

test("legacy: packToFieldsLegacy, updateLegacy and the legacy salted hashes equal mina-signer's", () => {
  for (const n of [0, 1, 253, 254, 255, 508, 600]) {
    const input = { fields: elements(n % 4), bits: Array.from({ length: n }, () => next() % 2n === 0n) };
    const copy = { fields: [...input.fields], bits: [...input.bits] };
    assert.deepEqual(packToFieldsLegacy(input), signer.packToFieldsLegacy(copy), `${n} bits`);
    assert.equal(input.bits.length, n, "the input is not changed");
  }
  for (let n = 0; n <= 5; n++) {
    const s = elements(3), xs = elements(n);
    assert.deepEqual(updateLegacy(s, xs), PoseidonLegacy.update([...s], [...xs]), `${n} fields`);
  }
  for (const prefix of ["", "CodaSignature*******", "MinaSignatureMainnet", "my prefix"]) {
    const xs = elements(prefix.length % 5);
    assert.deepEqual(saltLegacy(prefix), signer.HashLegacy.salt(prefix), prefix);
    assert.equal(hashWithPrefixLegacy(prefix, xs), signer.HashLegacy.hashWithPrefix(prefix, xs), prefix);
    assert.equal(emptyHashWithPrefixLegacy(prefix), signer.HashLegacy.emptyHashWithPrefix(prefix), prefix);
  }
  assert.throws(() => packToFieldsLegacy({ fields: [], bits: [1] }), /bits\[0\] must be a boolean/);
});
