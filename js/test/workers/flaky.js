// The package's worker with failures injected, for the pool's failure tests
// (pool.test.mjs): the wasm instance it gets is wrapped so that a hash_many of
// exactly 7 inputs throws inside the task (the worker catches it and reports it),
// one of exactly 11 inputs throws outside any handler, before the reply (an
// uncaught error: the worker dies), and one of exactly 13 exits the thread.
const instantiate = WebAssembly.instantiate;
WebAssembly.instantiate = async (module, imports) => {
  const real = await instantiate(module, imports);
  const exports = { ...(real.exports ?? real.instance.exports) };
  const hashMany = exports.hash_many;
  exports.hash_many = (kind, count) => {
    if (count === 7) throw new Error("injected failure");
    if (count === 11) queueMicrotask(() => { throw new Error("injected crash"); });
    if (count === 13) process.exit(3);
    return hashMany(kind, count);
  };
  return { exports };
};
await import("../../worker.js");
