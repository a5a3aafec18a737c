// The worker of the pool (pool.js): one per thread, in Node (worker_threads) and in
// browsers (a module Web Worker). It holds one instance of the wasm module the pool
// compiled and hashes what the pool sends, words in and words out: no bigints, no
// checks (the pool checked every element before sending), no shared memory.
//
// Messages, all plain objects (buffers are transferred, never shared):
//   { op: "init", module }                    module: a WebAssembly.Module
//     → { op: "ready" }
//   { id, op: "hashMany", count, words }      words: hash_many's layout (core.js)
//     → { id, words }                         4·count words: the digests
//   { id, op: "subtree", count, levels, words, zeros }
//                                             words: 4·count words, leaves of one
//                                             subtree; zeros: 4·levels words, the
//                                             empty nodes of levels 0..levels−1
//     → { id, words }                         levels 1..levels, concatenated:
//                                             ⌈count/2^L⌉ nodes of four words each
//   any failure → { id, error }               (the pool rejects that call)
// Bundlers: this file is an entry point of its own ("kimchi-poseidon/worker");
// pool.js says how the pool finds it.

const KIMCHI_FP = 0;
let wasm = null;

// The first n words of the module's scratch buffer (grown to n if shorter); a fresh
// view each time, since growing may move the memory.
function scratch(n) {
  const ptr = wasm.buffer(n); // first: growing detaches memory.buffer
  return new BigUint64Array(wasm.memory.buffer, ptr, n);
}

// hash_many on the `count` inputs laid out in the scratch buffer; the digests'
// 4·count words, a view of the scratch buffer (valid until its next use).
function digests(count) {
  const code = wasm.hash_many(KIMCHI_FP, count);
  if (code !== 0) throw new RangeError(`element ${code - 1} is not below the modulus`);
  return scratch(4 * count);
}

// Levels 1..levels above `count` leaves: each level one hash_many of its pairs,
// written straight into the scratch buffer, the last node of an odd level paired
// with the empty node of that level.
function subtree(count, levels, leaves, zeros) {
  let total = 0;
  for (let L = 1, m = count; L <= levels; L++) total += 4 * (m = Math.ceil(m / 2));
  const out = new BigUint64Array(total);
  let below = leaves, m = count, at = 0;
  for (let L = 1; L <= levels; L++) {
    const pairs = Math.ceil(m / 2);
    const input = scratch(pairs + 8 * pairs);
    input.fill(2n, 0, pairs);
    input.set(below.subarray(0, 4 * m), pairs);
    if (m % 2 === 1) input.set(zeros.subarray(4 * (L - 1), 4 * L), pairs + 4 * m);
    out.set(digests(pairs), at);
    below = out.subarray(at, at + 4 * pairs);
    at += 4 * pairs;
    m = pairs;
  }
  return out;
}

async function handle(message) {
  const { id, op } = message;
  if (op === "init") {
    wasm = (await WebAssembly.instantiate(message.module, {})).exports;
    return { op: "ready" };
  }
  if (!wasm) throw new Error("the worker got work before its module");
  const words = new BigUint64Array(message.words);
  if (op === "hashMany") {
    scratch(words.length).set(words);
    return { id, words: digests(message.count).slice().buffer };
  }
  if (op === "subtree") {
    return { id, words: subtree(message.count, message.levels, words, new BigUint64Array(message.zeros)).buffer };
  }
  throw new Error(`unknown operation ${JSON.stringify(op)}`);
}

// The channel to the pool: the worker's global scope in a browser, worker_threads'
// parentPort in Node (imported by a computed name, so that bundlers for the browser
// leave it alone). Both are EventTargets whose postMessage takes a transfer list.
const port = globalThis.WorkerGlobalScope && globalThis instanceof globalThis.WorkerGlobalScope
  ? globalThis
  : (await import(/* @vite-ignore */ ["node", "worker_threads"].join(":"))).parentPort;
if (!port) throw new Error("kimchi-poseidon's worker.js runs as a worker of the pool (createPool), not on its own");

port.addEventListener("message", async (event) => {
  const message = event.data;
  try {
    const reply = await handle(message);
    port.postMessage(reply, reply.words ? [reply.words] : []);
  } catch (e) {
    port.postMessage({ id: message?.id, op: message?.op === "init" ? "failed" : undefined, error: `${e?.name ?? "Error"}: ${e?.message ?? e}` });
  }
});
