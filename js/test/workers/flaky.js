// The package's worker with failures injected, for the pool's failure tests
// (pool.test.mjs; Node only): the wasm instance it gets is wrapped so that a
// hash_many of exactly 7 inputs throws inside the task (the worker catches it and
// reports it); one of exactly 11 inputs ends in an uncaught error instead of a reply
// (the worker dies), and one of exactly 13 exits the thread without replying.
import { parentPort } from "node:worker_threads";

let crash = null;
const post = parentPort.postMessage;
parentPort.postMessage = function (message, transfer) {
  if (crash === "throw") setTimeout(() => { throw new Error("injected crash"); });
  if (crash === "exit") process.exit(3);
  if (crash) return; // no reply: the worker is dying
  return post.call(this, message, transfer);
};

const instantiate = WebAssembly.instantiate;
WebAssembly.instantiate = async (module, imports) => {
  const real = await instantiate(module, imports);
  const exports = { ...(real.exports ?? real.instance.exports) };
  const hashMany = exports.hash_many;
  exports.hash_many = (kind, count) => {
    if (count === 7) throw new Error("injected failure");
    if (count === 11) crash = "throw";
    if (count === 13) crash = "exit";
    return hashMany(kind, count);
  };
  return { exports };
};
await import("../../worker.js");
