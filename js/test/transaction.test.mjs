// Transaction commitments and hashToGroup against o1js 2.15.0 itself:
// mina-signer's transactionCommitments on random zkApp commands (mina-signer's own
// generator, its randomness seeded here), with the account updates laid out by
// o1js (`AccountUpdate.toInput`), Memo.hash, and Poseidon.hashToGroup.
import assert from "node:assert/strict";
import crypto from "node:crypto";
import { test } from "node:test";

import * as o1js from "o1js";

import {
  MEMO_BYTES, P, accountUpdateHash, callForestHash, hashToGroup, memoFromBase58, memoFromText, memoHash, transactionCommitments,
  zkappBodyPrefix,
} from "../index.js";
import { installFastPoseidon, zkappCommandInput } from "../o1js.js";
import { sha256 } from "../transaction.js";
import { initModuleUnderTest, o1jsModule, seedRandomBytes, splitmix } from "./common.mjs";

// mina-signer's generator draws from node:crypto's randomBytes: seeded, before it is used.
seedRandomBytes(0x74786e73);
const { RandomTransaction } = await o1jsModule("mina-signer/src/random-transaction.js");
const signZkapp = await o1jsModule("mina-signer/src/sign-zkapp-command.js");
const { Memo } = await o1jsModule("mina-signer/src/memo.js");
const { zkAppBodyPrefix } = await o1jsModule("mina-signer/src/signature.js");
const { AccountUpdate, ZkappCommand } = await o1jsModule("bindings/mina-transaction/gen/v1/transaction-bigint.js");

await o1js.initializeBindings();
await initModuleUnderTest();

const next = splitmix(0x68326721);
const element = () => ((next() << 192n) | (next() << 128n) | (next() << 64n) | next()) % P;

test("transactionCommitments equals mina-signer's on 40 random zkApp commands (mainnet, testnet, devnet, custom)", () => {
  const random = RandomTransaction.zkappCommand.create();
  const networks = ["mainnet", "testnet", "devnet", { custom: "zeko" }, "a-very-long-network-name"];
  let updates = 0;
  for (let k = 0; k < 40; k++) {
    const command = random();
    const network = networks[k % networks.length];
    const want = signZkapp.transactionCommitments(command, network);
    const laidOut = {
      feePayer: AccountUpdate.toInput(signZkapp.accountUpdateFromFeePayer(command.feePayer)),
      accountUpdates: command.accountUpdates.map((au) => ({ ...AccountUpdate.toInput(au), callDepth: au.body.callDepth })),
      memo: command.memo,
    };
    assert.deepEqual(transactionCommitments(laidOut, network), want, `command ${k}`);
    // The parts: each update's hash, the forest, the memo as bytes.
    command.accountUpdates.forEach((au, i) => {
      assert.equal(accountUpdateHash(laidOut.accountUpdates[i], network), signZkapp.accountUpdateHash(au, network));
    });
    const forest = signZkapp.callForestHash(signZkapp.accountUpdatesToCallForest(command.accountUpdates), network);
    assert.equal(callForestHash(laidOut.accountUpdates.map((u) => ({ hash: accountUpdateHash(u, network), callDepth: u.callDepth }))), forest);
    const bytes = Uint8Array.from(Memo.toBytes(Memo.fromBase58(command.memo)));
    assert.deepEqual(memoFromBase58(command.memo), bytes);
    assert.equal(memoHash(bytes), Memo.hash(Memo.fromBase58(command.memo)));
    updates += command.accountUpdates.length;
  }
  assert.ok(updates >= 100, `${updates} account updates`);
  for (const network of networks) assert.equal(zkappBodyPrefix(network), zkAppBodyPrefix(network));
});

test("memo texts (empty, ASCII, 32 bytes, UTF-8) hash as Memo.hash; bad memos and call depths are refused", () => {
  for (const text of ["", "hello", "x".repeat(32), "Grüße, zkApp ✓", "0"]) {
    const memo = Memo.fromString(text);
    assert.deepEqual(memoFromText(text), Uint8Array.from(Memo.toBytes(memo)), text);
    assert.equal(memoHash(memoFromText(text)), Memo.hash(memo), text);
    assert.equal(memoHash(Memo.toBase58(memo)), Memo.hash(memo), text);
  }
  assert.throws(() => memoFromText("x".repeat(33)), RangeError);
  assert.throws(() => memoFromText("é".repeat(17)), RangeError); // 34 bytes of UTF-8
  const good = Memo.toBase58(Memo.fromString("hello"));
  const flipped = good.slice(0, 10) + (good[10] === "a" ? "b" : "a") + good.slice(11);
  assert.throws(() => memoFromBase58(flipped), /checksum/);
  assert.throws(() => memoFromBase58("0OIl"), /base58 character/);
  assert.throws(() => memoHash(new Uint8Array(MEMO_BYTES - 1)), TypeError);
  const h = 5n;
  assert.throws(() => callForestHash([{ hash: h, callDepth: 1 }]), RangeError);
  assert.throws(() => callForestHash([{ hash: h, callDepth: 0 }, { hash: h, callDepth: 2 }]), RangeError);
  assert.throws(() => callForestHash([{ hash: P, callDepth: 0 }]), RangeError);
  assert.equal(callForestHash([]), 0n);
  assert.throws(() => zkappBodyPrefix(3), TypeError);
});

test("hashToGroup equals o1js's Poseidon.hashToGroup for 0 to 9 fields and edge values; the point is on Pallas with even y", () => {
  const inputs = [[], [0n], [1n], [P - 1n], [0n, 0n], [P - 1n, P - 1n]];
  for (let n = 0; n <= 9; n++) for (let r = 0; r < 4; r++) inputs.push(Array.from({ length: n }, element));
  for (const xs of inputs) {
    const want = o1js.Poseidon.hashToGroup(xs.map((x) => o1js.Field(x)));
    const { x, y } = hashToGroup(xs);
    assert.deepEqual({ x, y }, { x: want.x.toBigInt(), y: want.y.toBigInt() }, `${xs.length} fields`);
    assert.equal((y * y) % P, (x * x * x + 5n) % P);
    assert.equal(y & 1n, 0n);
  }
  assert.throws(() => hashToGroup([P]), RangeError);
  assert.throws(() => hashToGroup([1]), TypeError);
});

test("zkappCommandInput lays out o1js's own transactions (and their JSON) as mina-signer hashes them", async () => {
  const { AccountUpdate: O1AccountUpdate, Mina, UInt64 } = o1js;
  const local = await Mina.LocalBlockchain({ proofsEnabled: false });
  Mina.setActiveInstance(local);
  const [alice, bob, carol] = local.testAccounts;
  const shapes = [
    { memo: "", build: () => {} },
    { memo: "one payment", build: () => O1AccountUpdate.createSigned(alice).send({ to: bob, amount: UInt64.from(1e9) }) },
    {
      memo: "Grüße, zkApp ✓",
      build: () => {
        const a = O1AccountUpdate.createSigned(alice);
        a.send({ to: bob, amount: UInt64.from(5) });
        a.send({ to: carol, amount: UInt64.from(7) });
        O1AccountUpdate.createSigned(bob).send({ to: carol, amount: UInt64.from(11) });
      },
    },
  ];
  for (const { memo, build } of shapes) {
    const tx = await Mina.transaction({ sender: alice, fee: 1e8, memo }, async () => build());
    for (const network of ["testnet", "mainnet"]) {
      const want = signZkapp.transactionCommitments(ZkappCommand.fromJSON(JSON.parse(tx.toJSON())), network);
      assert.deepEqual(transactionCommitments(zkappCommandInput(o1js, tx.transaction), network), want, `"${memo}" on ${network}`);
      assert.deepEqual(transactionCommitments(zkappCommandInput(o1js, tx.toJSON()), network), want);
      const read = Mina.Transaction.fromJSON(JSON.parse(tx.toJSON())); // its memo in base58
      assert.deepEqual(transactionCommitments(zkappCommandInput(o1js, read.transaction), network), want);
    }
  }
  assert.throws(() => zkappCommandInput(o1js, {}), TypeError);
});

test("with the adapter, o1js's Poseidon.hashToGroup gives o1js's points; provable input goes to o1js", () => {
  const xs = [[], [1n, 2n], [P - 1n, 0n, 5n]];
  const want = xs.map((x) => o1js.Poseidon.hashToGroup(x.map((v) => o1js.Field(v))).toJSON());
  const uninstall = installFastPoseidon(o1js);
  try {
    assert.deepEqual(xs.map((x) => o1js.Poseidon.hashToGroup(x.map((v) => o1js.Field(v))).toJSON()), want);
  } finally {
    uninstall();
  }
});

test("the memo checksum's SHA-256 equals node:crypto's for messages of 0 to 200 bytes", () => {
  for (let len = 0; len <= 200; len++) {
    const message = Uint8Array.from({ length: len }, () => Number(next() & 0xffn));
    assert.deepEqual(sha256(message), new Uint8Array(crypto.createHash("sha256").update(message).digest()), `${len} bytes`);
  }
});
