// Writes poseidon/tests/data/o1js-hashes.json: what o1js 2.15.0 (and its
// mina-signer) computes for seeded inputs of its hashing beyond Poseidon.hash:
// salts and salted hashes (kimchi and legacy), hashAnyLength, packToFields and
// hashPacked of real o1js structs, packToFieldsLegacy, MerkleList hashes after
// each push, TokenId.derive, hashToGroup, memo hashes, and the commitments of
// zkApp commands (mina-signer's random commands, its randomness seeded here). The Rust library's tests (poseidon/tests/o1js.rs)
// check its `o1js` module against the file; the package's tests
// (test/o1js-vectors.test.mjs) check the file against o1js and the package.
//   node dev/o1js-vectors.mjs [--out FILE]   (from the package, dev dependencies installed)
// Elements are decimal strings; legacy bits a string of 0s and 1s, least significant first.
import { writeFileSync } from "node:fs";
import { resolve } from "node:path";

import * as o1js from "o1js";

import { o1jsModule, seedRandomBytes, splitmix } from "../test/common.mjs";
import { arg, helpOnRequest, projectRoot } from "./cli.mjs";

helpOnRequest(import.meta.url);

// mina-signer's bigint hashing and o1js's list step are not in o1js's exports: by path.
const signer = await o1jsModule("mina-signer/src/poseidon-bigint.js");
const { merkleListHash } = await o1jsModule("lib/provable/merkle-list.js");
const { Memo } = await o1jsModule("mina-signer/src/memo.js");
const { RandomTransaction } = await o1jsModule("mina-signer/src/random-transaction.js");
const signZkapp = await o1jsModule("mina-signer/src/sign-zkapp-command.js");
const { AccountUpdate: AccountUpdateBigint } = await o1jsModule("bindings/mina-transaction/gen/v1/transaction-bigint.js");
const { Bool, Field, Poseidon, PrivateKey, Struct, TokenId, UInt32, UInt64, UInt8 } = o1js;
const P = Field.ORDER;

const next = splitmix(0x6f316a73);
const edges = [0n, 1n, P - 1n];
const element = () => (next() % 6n === 0n ? edges[Number(next() % 3n)] : ((next() << 192n) | (next() << 128n) | (next() << 64n) | next()) % P);
const elements = (n) => Array.from({ length: n }, element);
const bits = (n) => ((next() << 192n) | (next() << 128n) | (next() << 64n) | next()) & ((1n << BigInt(n)) - 1n);
const F = (x) => Field(x);
const big = (f) => f.toBigInt();
const str = (x) => `${x}`;

const salted = [];
for (const prefix of ["", "MinaZkappEvent******", "MinaDeriveTokenId***", "a prefix of 31 characters: ok!!"]) {
  for (const n of [0, 1, 2, 5]) {
    const xs = elements(n);
    salted.push({ set: "kimchi", prefix, salt: signer.HashHelpers.salt(prefix).map(str), inputs: xs.map(str), hash: str(big(Poseidon.hashWithPrefix(prefix, xs.map(F)))) });
  }
}
for (const prefix of ["", "CodaSignature*******", "MinaSignatureMainnet"]) {
  for (const n of [0, 3]) {
    const xs = elements(n);
    salted.push({ set: "legacy", prefix, salt: signer.HashLegacy.salt(prefix).map(str), inputs: xs.map(str), hash: str(signer.HashLegacy.hashWithPrefix(prefix, xs)) });
  }
}

const anyLength = [0, 1, 2, 3, 6].map((n) => {
  const xs = elements(n);
  return { inputs: xs.map(str), hash: str(big(Poseidon.hashAnyLength(xs.map(F)))) };
});

class Entry extends Struct({ owner: Field, amount: UInt64, nonce: UInt32, flag: Bool, small: UInt8 }) {}
class Wide extends Struct({ a: UInt64, b: UInt64, c: UInt64, d: UInt64, e: UInt32, f: Bool }) {}
const max = (T, n) => T.from((1n << BigInt(n)) - 1n);
const values = [
  ...Array.from({ length: 3 }, () => [Entry, new Entry({ owner: F(element()), amount: UInt64.from(bits(64)), nonce: UInt32.from(bits(32)), flag: Bool(next() % 2n === 0n), small: UInt8.from(bits(8)) })]),
  [Wide, new Wide({ a: max(UInt64, 64), b: max(UInt64, 64), c: max(UInt64, 64), d: max(UInt64, 64), e: max(UInt32, 32), f: Bool(true) })],
  [Wide, new Wide({ a: UInt64.from(bits(64)), b: UInt64.from(0), c: UInt64.from(bits(64)), d: UInt64.from(1), e: UInt32.from(bits(32)), f: Bool(false) })],
  [Field, F(element())],
];
// type.toInput(value) with bigints.
const plainInput = (T, v) => {
  const input = T.toInput(v);
  return { fields: (input.fields ?? []).map(big), packed: (input.packed ?? []).map(([x, n]) => [big(x), n]) };
};
const packed = values.map(([T, v]) => {
  const plain = plainInput(T, v);
  return {
    fields: plain.fields.map(str),
    packed: plain.packed.map(([x, n]) => [str(x), n]),
    packed_fields: signer.packToFields(plain).map(str),
    hash: str(big(Poseidon.hashPacked(T, v))),
  };
});

const legacyPacked = [0, 1, 253, 254, 255, 600].map((n) => {
  const input = { fields: elements(n % 3), bits: Array.from({ length: n }, () => next() % 2n === 0n) };
  const bitString = input.bits.map((b) => (b ? "1" : "0")).join("");
  return { fields: input.fields.map(str), bits: bitString, packed_fields: signer.packToFieldsLegacy(input).map(str) };
});

const lists = [];
for (const prefix of ["", "MinaZkappEvent******"]) {
  const step = merkleListHash(Field, prefix);
  let h = F(0n);
  const xs = elements(5);
  const hashes = xs.map((x) => str(big((h = step(h, F(x))))));
  lists.push({ prefix, elements: xs.map((x) => [str(x)]), hashes });
}
{
  const EntryList = o1js.MerkleList.create(Entry);
  const list = EntryList.empty();
  const entries = values.slice(0, 3).map(([, v]) => v);
  const hashes = entries.map((e) => (list.push(e), str(big(list.hash))));
  lists.push({ prefix: "", elements: entries.map((e) => signer.packToFields(plainInput(Entry, e)).map(str)), hashes });
}

const tokenIds = Array.from({ length: 4 }, (_, k) => {
  const pk = PrivateKey.fromBigInt(1n + (element() % (o1js.Scalar.ORDER - 1n))).toPublicKey();
  const parent = k < 2 ? 1n : element();
  return { x: str(big(pk.x)), is_odd: pk.isOdd.toBoolean(), parent: str(parent), id: str(big(TokenId.derive(pk, F(parent)))) };
});

const hashToGroup = [0, 1, 1, 2, 2, 3, 5, 8].map((n) => {
  const xs = elements(n);
  const g = Poseidon.hashToGroup(xs.map(F));
  return { inputs: xs.map(str), x: str(big(g.x)), y: str(big(g.y)) };
});

const hex = (bytes) => Buffer.from(bytes).toString("hex");
const memos = ["", "hello", "x".repeat(32), "Grüße, zkApp ✓"].map((text) => {
  const memo = Memo.fromString(text);
  return { text, bytes: hex(Memo.toBytes(memo)), base58: Memo.toBase58(memo), hash: str(Memo.hash(memo)) };
});

// mina-signer's random zkApp commands draw from node:crypto's randomBytes: seeded.
seedRandomBytes(0x7a6b6170);
const randomCommand = RandomTransaction.zkappCommand.create();
const inputJson = (au) => {
  const { fields, packed } = AccountUpdateBigint.toInput(au);
  return { fields: fields.map(str), packed: packed.map(([x, n]) => [str(x), n]) };
};
// One command without account updates, then commands with some (at most 4: a prefix
// keeps the call depths valid).
let sawEmpty = false;
const someCommand = () => {
  for (;;) {
    const command = randomCommand();
    if (command.accountUpdates.length > 0 || !sawEmpty) {
      sawEmpty ||= command.accountUpdates.length === 0;
      command.accountUpdates = command.accountUpdates.slice(0, 4);
      return command;
    }
  }
};
const transactions = ["mainnet", "testnet", "zeko", "devnet", "mainnet"].map((network) => {
  const command = someCommand();
  const { commitment, fullCommitment } = signZkapp.transactionCommitments(command, network);
  return {
    network,
    memo: hex(Memo.toBytes(Memo.fromBase58(command.memo))),
    fee_payer: inputJson(signZkapp.accountUpdateFromFeePayer(command.feePayer)),
    account_updates: command.accountUpdates.map((au) => ({ ...inputJson(au), call_depth: au.body.callDepth })),
    commitment: str(commitment),
    full_commitment: str(fullCommitment),
  };
});

const out = arg("--out", resolve(projectRoot(resolve(import.meta.dirname)) ?? ".", "poseidon/tests/data/o1js-hashes.json"));
const doc = {
  source: "o1js 2.15.0 and its mina-signer, js/dev/o1js-vectors.mjs",
  salted, any_length: anyLength, packed, legacy_packed: legacyPacked, lists, token_ids: tokenIds, hash_to_group: hashToGroup, memos, transactions,
};
// One object per line or block; an array of strings, numbers or pairs on one line.
const flat = (json) => json.replace(/\[(?:[^[\]{}]|\[[^[\]{}]*\])*\]/g, (a) => a.replace(/\n\s*/g, ""));
writeFileSync(out, flat(JSON.stringify(doc, null, 1)) + "\n");
console.log(`wrote ${out}`);
