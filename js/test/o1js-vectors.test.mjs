// The shared o1js vectors (poseidon/tests/data/o1js-hashes.json, which the Rust
// library's tests also check): the file is what o1js computes now (dev/o1js-vectors.mjs
// writes it again and the two are compared), and the package gives its results.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

import {
  deriveTokenId, emptyHashWithPrefix, emptyHashWithPrefixLegacy, hashAnyLength, hashPacked, hashWithPrefix, hashWithPrefixLegacy,
  hashToGroup, memoFromText, memoHash, merkleListHash, packToFields, packToFieldsLegacy, salt, saltLegacy, transactionCommitments,
} from "../index.js";
import { initModuleUnderTest } from "./common.mjs";

await initModuleUnderTest();

const dataDir = process.env.POSEIDON_VECTORS ?? fileURLToPath(new URL("../../poseidon/tests/data", import.meta.url));
const file = join(dataDir, "o1js-hashes.json");
const doc = JSON.parse(readFileSync(file));
const big = (xs) => xs.map(BigInt);

test("the file is what o1js computes now (dev/o1js-vectors.mjs writes it again, byte for byte)", () => {
  // Beside the package (target/js-package in the scripts), removed at the end; one folder
  // per run, since make test runs each module's tests in parallel in the same copy.
  const dir = mkdtempSync(fileURLToPath(new URL("../.o1js-vectors-", import.meta.url)));
  try {
    const again = join(dir, "o1js-hashes.json");
    execFileSync(process.execPath, [fileURLToPath(new URL("../dev/o1js-vectors.mjs", import.meta.url)), "--out", again]);
    assert.equal(readFileSync(again, "utf8"), readFileSync(file, "utf8"));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("the package gives the file's salts, salted hashes, hashAnyLength, packings, list hashes and token ids", () => {
  assert.ok(doc.salted.length >= 20 && doc.packed.length >= 6 && doc.lists.length >= 3 && doc.token_ids.length >= 4);
  for (const c of doc.salted) {
    const [s, h, e] = c.set === "kimchi" ? [salt, hashWithPrefix, emptyHashWithPrefix] : [saltLegacy, hashWithPrefixLegacy, emptyHashWithPrefixLegacy];
    assert.deepEqual(s(c.prefix), big(c.salt), `${c.set} salt ${c.prefix}`);
    assert.equal(e(c.prefix), BigInt(c.salt[0]));
    assert.equal(h(c.prefix, big(c.inputs)), BigInt(c.hash), `${c.set} ${c.prefix} of ${c.inputs.length}`);
  }
  for (const c of doc.any_length) assert.equal(hashAnyLength(big(c.inputs)), BigInt(c.hash));
  for (const c of doc.packed) {
    const input = { fields: big(c.fields), packed: c.packed.map(([x, n]) => [BigInt(x), n]) };
    assert.deepEqual(packToFields(input), big(c.packed_fields));
    assert.equal(hashPacked(input), BigInt(c.hash));
  }
  for (const c of doc.legacy_packed) {
    assert.deepEqual(packToFieldsLegacy({ fields: big(c.fields), bits: [...c.bits].map((b) => b === "1") }), big(c.packed_fields));
  }
  for (const c of doc.lists) {
    let h = 0n;
    c.elements.forEach((e, i) => {
      h = merkleListHash(h, big(e), c.prefix);
      assert.equal(h, BigInt(c.hashes[i]), `list "${c.prefix}", push ${i}`);
    });
  }
  for (const c of doc.token_ids) assert.equal(deriveTokenId({ x: BigInt(c.x), isOdd: c.is_odd }, BigInt(c.parent)), BigInt(c.id));
});

test("the package gives the file's hashToGroup points, memo hashes and transaction commitments", () => {
  assert.ok(doc.hash_to_group.length >= 8 && doc.memos.length >= 4 && doc.transactions.length >= 5);
  for (const c of doc.hash_to_group) assert.deepEqual(hashToGroup(big(c.inputs)), { x: BigInt(c.x), y: BigInt(c.y) });
  const bytes = (hex) => Uint8Array.from(Buffer.from(hex, "hex"));
  for (const c of doc.memos) {
    assert.deepEqual(memoFromText(c.text), bytes(c.bytes));
    assert.equal(memoHash(c.base58), BigInt(c.hash));
  }
  const input = (c) => ({ fields: big(c.fields), packed: c.packed.map(([x, n]) => [BigInt(x), n]) });
  for (const c of doc.transactions) {
    const command = {
      feePayer: input(c.fee_payer),
      accountUpdates: c.account_updates.map((u) => ({ ...input(u), callDepth: u.call_depth })),
      memo: bytes(c.memo),
    };
    const want = { commitment: BigInt(c.commitment), fullCommitment: BigInt(c.full_commitment) };
    assert.deepEqual(transactionCommitments(command, c.network), want, c.network);
  }
});
