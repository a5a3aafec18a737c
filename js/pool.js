// A pool of workers that hash for the calling thread: worker_threads in Node, module
// Web Workers in browsers. Nothing is shared: a call checks its input, packs it into
// plain buffers of 64-bit words (core.js's hash_many layout), splits it into tasks,
// transfers each task's buffer to a worker (worker.js) and the digests back, so the
// pool needs no SharedArrayBuffer and no cross-origin isolation.
//
// Tasks: a call is cut into about TASKS_PER_WORKER tasks per worker (so a slow
// worker does not hold up the others), and each worker has at most IN_FLIGHT tasks
// at a time (so it never waits for the next message). A call resolves when all its
// tasks have; the first failed task rejects it and drops the tasks it still had
// queued. A worker that reports an error stays; a worker that dies (an uncaught
// error, exiting) is replaced, its tasks rejected, and the pool goes on (smaller, if
// the replacement cannot start).
import { backend, checkInputs, describe, get, moduleBytes, moduleSource, packInputs } from "./core.js";

const TASKS_PER_WORKER = 4;
const IN_FLIGHT = 2;
// Below this many permutations a task costs more in messages than it saves.
const MIN_TASK = 64;

/**
 * Starts `workers` workers (default: the machine's cores, `navigator.hardwareConcurrency`
 * or Node's `os.availableParallelism()`) on one wasm module (`module`, as for `init`;
 * default: the module this thread's `init` loaded, else the one `init()` would
 * choose) and resolves when every worker is ready.
 * `workerUrl`: where the worker module is (default: worker.js beside this file).
 */
export async function createPool(options = {}) {
  if (options === null || typeof options !== "object") throw new TypeError(`options must be an object, got ${describe(options)}`);
  const { workers = await cores(), module, workerUrl = new URL("./worker.js", import.meta.url) } = options;
  if (typeof workers !== "number" || !Number.isInteger(workers) || workers < 1 || workers > 1024) {
    throw new RangeError(`workers must be an integer from 1 to 1024, got ${describe(workers)}`);
  }
  const source = module === undefined && backend() ? { name: backend(), bytes: moduleBytes() } : await moduleSource(module === undefined ? undefined : { module });
  const compiled = await WebAssembly.compile(source.bytes);
  const pool = new Pool(source.name, compiled, workerUrl, await spawner());
  await pool[started](workers);
  return pool;
}

const started = Symbol("started");
const submit = Symbol("submit");

class Pool {
  #module;
  #name;
  #url;
  #spawn;
  #workers = new Set();
  #queue = [];
  #exits = [];
  #nextId = 1;
  #closed = null;

  constructor(name, module, url, spawn) {
    this.#name = name;
    this.#module = module;
    this.#url = url;
    this.#spawn = spawn;
  }

  /** The number of live workers. */
  get size() {
    return this.#workers.size;
  }

  /** The wasm module the workers run ("wide", "fma", "simd", "scalar", "custom"). */
  get module() {
    return this.#name;
  }

  /** `hashMany(inputs)` across the workers: the same digests, in order. */
  async hashMany(inputs) {
    checkInputs(inputs);
    const cost = (k) => Math.max(1, Math.ceil(inputs[k].length / 2));
    const ranges = split(inputs.length, cost, taskCount(this));
    const tasks = ranges.map(([from, to]) => ({ message: { op: "hashMany", count: to - from, words: packInputs(inputs, from, to).buffer } }));
    // Digests are read as each task returns, while the others run.
    const out = new Array(inputs.length);
    await this[submit](tasks, (j, buffer) => {
      const [from, to] = ranges[j];
      const w = new BigUint64Array(buffer);
      for (let k = from; k < to; k++) out[k] = get(w, 4 * (k - from));
    });
    return out;
  }

  /** Ends every worker; calls still running reject. Resolves when all have exited. */
  async close() {
    if (this.#closed) return this.#closed;
    const error = new Error("poseidon pool: closed");
    for (const task of this.#queue) task.reject(error);
    this.#queue = [];
    for (const w of [...this.#workers]) this.#end(w, error);
    this.#closed = Promise.all(this.#exits).then(() => {});
    return this.#closed;
  }

  async [started](count) {
    try {
      await Promise.all(Array.from({ length: count }, () => this.#start()));
    } catch (e) {
      await this.close();
      throw e;
    }
  }

  // Starts a worker and resolves when its module is instantiated.
  #start() {
    return new Promise((resolve, reject) => {
      const worker = { handle: null, running: new Map(), ready: false };
      const fail = (e) => {
        if (worker.ready) return this.#died(worker, e);
        const error = new Error(`poseidon pool: a worker could not start (${this.#url}): ${e?.message ?? e}`);
        this.#end(worker, error);
        reject(error);
      };
      try {
        worker.handle = this.#spawn(this.#url, (m) => this.#received(worker, m, resolve, reject), fail);
      } catch (e) {
        reject(new Error(`poseidon pool: cannot start a worker from ${this.#url}: ${e?.message ?? e}`));
        return;
      }
      this.#workers.add(worker);
      worker.handle.post({ op: "init", module: this.#module }, []);
    });
  }

  #received(worker, message, resolve, reject) {
    if (message?.op === "ready") {
      worker.ready = true;
      worker.handle.idle(true);
      resolve();
      return this.#pump();
    }
    if (message?.op === "failed") {
      const error = new Error(`poseidon pool: a worker could not instantiate the module: ${message.error}`);
      this.#end(worker, error);
      return reject(error);
    }
    const task = worker.running.get(message?.id);
    if (!task) return;
    worker.running.delete(message.id);
    if (worker.running.size === 0) worker.handle.idle(true);
    if (message.error) task.reject(new Error(`poseidon pool: a worker failed: ${message.error}`));
    else task.resolve(message.words);
    this.#pump();
  }

  // A worker that died: its tasks reject, a new worker takes its place.
  #died(worker, error) {
    if (worker.ended) return;
    this.#end(worker, new Error(`poseidon pool: a worker died: ${error?.message ?? error}`));
    if (this.#closed) return;
    this.#start().catch((e) => {
      // No replacement: with no worker left, nothing queued can run.
      if (this.#workers.size > 0) return;
      for (const task of this.#queue) task.reject(e);
      this.#queue = [];
    });
  }

  #end(worker, error) {
    if (worker.ended) return;
    worker.ended = true;
    this.#workers.delete(worker);
    for (const task of worker.running.values()) task.reject(error);
    worker.running.clear();
    if (worker.handle) this.#exits.push(worker.handle.terminate());
  }

  // Hands queued tasks to the ready workers, least busy first.
  #pump() {
    for (;;) {
      if (this.#queue.length === 0) return;
      let best = null;
      for (const w of this.#workers) {
        if (w.ready && w.running.size < IN_FLIGHT && (!best || w.running.size < best.running.size)) best = w;
      }
      if (!best) return;
      const task = this.#queue.shift();
      if (task.call.failed) continue;
      const id = this.#nextId++;
      best.running.set(id, task);
      best.handle.idle(false);
      best.handle.post({ ...task.message, id }, [task.message.words]);
    }
  }

  // Runs tasks ({ message } with a transferable message.words) and resolves with
  // their results' buffers in order; the first failure rejects. each(j, buffer), if
  // given, takes each result as it arrives instead (and the array stays empty).
  [submit](tasks, each) {
    if (this.#closed) return Promise.reject(new Error("poseidon pool: closed"));
    if (this.#workers.size === 0) return Promise.reject(new Error("poseidon pool: no worker left"));
    return new Promise((resolve, reject) => {
      const call = { failed: false };
      const results = new Array(tasks.length);
      let left = tasks.length;
      if (left === 0) return resolve(results);
      tasks.forEach((t, j) => {
        this.#queue.push({
          call,
          message: t.message,
          resolve: (words) => {
            if (call.failed) return;
            if (each) {
              try {
                each(j, words);
              } catch (e) {
                call.failed = true;
                return reject(e);
              }
            } else results[j] = words;
            if (--left === 0 && !call.failed) resolve(results);
          },
          reject: (e) => {
            if (call.failed) return;
            call.failed = true;
            reject(e);
          },
        });
      });
      this.#pump();
    });
  }
}

/** How many tasks a call of any size is cut into at most (merkle.js's too). */
export function taskCount(pool) {
  return TASKS_PER_WORKER * Math.max(1, pool.size);
}

/** For merkle.js: whether `pool` came from createPool (a TypeError otherwise). */
export function checkPool(pool) {
  if (!(pool instanceof Pool)) throw new TypeError(`options.pool must be a pool from createPool, got ${describe(pool)}`);
  return pool;
}

/**
 * For merkle.js: runs tasks ({ message: { op, words, ... } }, words transferable) on
 * the pool; resolves when all are done. each(j, buffer) takes task j's result as it
 * arrives, so the calling thread works on it while the workers go on.
 */
export function runTasks(pool, tasks, each) {
  return checkPool(pool)[submit](tasks, each);
}

// Cuts items 0..n−1 into at most `parts` consecutive ranges [from, to) of about
// equal cost (cost(k): item k's), none below MIN_TASK unless there is less in all.
function split(n, cost, parts) {
  let total = 0;
  for (let k = 0; k < n; k++) total += cost(k);
  const target = Math.max(MIN_TASK, total / parts);
  const ranges = [];
  let from = 0, sum = 0;
  for (let k = 0; k < n; k++) {
    sum += cost(k);
    if (sum >= target * (ranges.length + 1) && k + 1 < n) {
      ranges.push([from, k + 1]);
      from = k + 1;
    }
  }
  if (from < n) ranges.push([from, n]);
  return ranges;
}

async function cores() {
  if (globalThis.navigator?.hardwareConcurrency) return globalThis.navigator.hardwareConcurrency;
  const os = await import(/* @vite-ignore */ ["node", "os"].join(":"));
  return os.availableParallelism?.() ?? os.cpus().length;
}

const isNode = typeof globalThis.process?.versions?.node === "string" && typeof globalThis.Worker !== "function";

// The platform's workers behind one interface: spawn(url, onMessage, onError) →
// { post(message, transfer), idle(bool), terminate(): Promise }. An idle Node worker
// is unref'd: a pool that is not working does not keep the process alive.
async function spawner() {
  if (!isNode) {
    return (url, onMessage, onError) => {
      // Written out so that bundlers that follow `new Worker(new URL(…, import.meta.url))`
      // (webpack 5, Vite, Parcel) emit the worker when the default is used.
      const w = url instanceof URL && url.href === new URL("./worker.js", import.meta.url).href
        ? new Worker(new URL("./worker.js", import.meta.url), { type: "module" })
        : new Worker(url, { type: "module" });
      w.onmessage = (e) => onMessage(e.data);
      w.onmessageerror = () => onError(new Error("a message could not be read"));
      w.onerror = (e) => {
        e.preventDefault?.();
        onError(new Error(e.message || `the worker module ${url} failed to load or threw`));
      };
      return { post: (m, t) => w.postMessage(m, t), idle: () => {}, terminate: async () => w.terminate() };
    };
  }
  const { Worker: NodeWorker } = await import(/* @vite-ignore */ ["node", "worker_threads"].join(":"));
  // Workers get the process's Node options (worker_threads' default), except under
  // `node --input-type=module -e …`: a worker rejects --input-type (it is for -e/-p
  // code), so those options go without it and without the code.
  const given = process.execArgv;
  const skip = (a, prev) => /^--(input-type|eval|print)(=|$)/.test(a) || a === "-e" || a === "-p" ||
    ["--input-type", "--eval", "--print", "-e", "-p"].includes(prev);
  const options = given.some((a) => a.startsWith("--input-type")) ? { execArgv: given.filter((a, i) => !skip(a, given[i - 1])) } : {};
  return (url, onMessage, onError) => {
    const w = new NodeWorker(url, options);
    const exit = new Promise((resolve) => w.once("exit", resolve));
    w.on("message", onMessage);
    w.on("messageerror", () => onError(new Error("a message could not be read")));
    w.on("error", (e) => onError(e));
    w.on("exit", (code) => onError(new Error(`the worker exited with code ${code}`)));
    return {
      post: (m, t) => w.postMessage(m, t),
      idle: (yes) => (yes ? w.unref() : w.ref()),
      // Resolves on the exit event. A worker being terminated no longer keeps
      // Node's event loop alive (seen in Node 20), so a timer does, for at most
      // a few seconds, until the exit comes.
      terminate: () => {
        const keep = setTimeout(() => {}, 5000);
        w.terminate().catch(() => {});
        return exit.then(() => clearTimeout(keep));
      },
    };
  };
}
