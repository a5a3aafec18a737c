// The parallel Merkle build's benchmark, the same code in Node (bench-structures.mjs)
// and in Chromium (parallel.html, served without cross-origin isolation): a tree of
// height 17 from seeded leaves, built single-threaded (fromLeaves) and by pools of 1
// and 2 workers (fromLeavesParallel), in interleaved rounds; each build ends with
// getRoot(), and every build's root is returned for the caller to check against
// o1js. Also the fixed costs the scaling model needs: starting a pool, and one task
// (a hashMany of one input, a round trip through a worker, its permutation included).

import { median } from "./timing.mjs";

export const HEIGHT = 17;
export const WORKERS = [1, 2];

// The leaves: n seeded elements of [0, p) (an LCG, as bench-structures.mjs's data).
export function parallelLeaves(n, P) {
  let s = 0x5eedn;
  const next = () => ((s = (s * 6364136223846793005n + 1442695040888963407n) % (1n << 64n)), s);
  return Array.from({ length: n }, () => ((next() << 192n) | (next() << 128n) | (next() << 64n) | next()) % P);
}


// api: the package's exports (MerkleTree, createPool). tick(): progress after a round.
export async function measureParallel(api, leaves, { rounds = 5, tick = () => {} } = {}) {
  const { MerkleTree, createPool } = api;
  const now = () => performance.now();
  const startMs = {};
  const pools = {};
  for (const w of WORKERS) {
    const t0 = now();
    pools[w] = await createPool({ workers: w });
    startMs[w] = now() - t0;
  }
  try {
    const builds = [
      { name: "single-threaded (fromLeaves)", workers: 0, run: async () => MerkleTree.fromLeaves(HEIGHT, leaves).getRoot() },
      ...WORKERS.map((w) => ({
        name: `pool of ${w} worker${w > 1 ? "s" : ""} (fromLeavesParallel)`,
        workers: w,
        run: async () => (await MerkleTree.fromLeavesParallel(HEIGHT, leaves, { pool: pools[w] })).getRoot(),
      })),
    ];
    const roots = new Set();
    for (const b of builds) roots.add(await b.run()); // warm-up
    const times = builds.map(() => []);
    for (let r = 0; r < rounds; r++) {
      for (const [i, b] of builds.entries()) {
        const t0 = now();
        roots.add(await b.run());
        times[i].push(now() - t0);
      }
      tick();
    }
    // One task's round trip: 500 calls of hashMany of one input one after the
    // other, timed together (a page that is not cross-origin isolated gets
    // performance.now() in 100 µs steps), per call.
    const t0 = now();
    for (let i = 0; i < 500; i++) await pools[1].hashMany([[BigInt(i)]]);
    const taskMs = (now() - t0) / 500;
    return {
      leaves: leaves.length,
      height: HEIGHT,
      rounds,
      roots: [...roots].map(String),
      rows: builds.map((b, i) => ({ build: b.name, workers: b.workers, ms: median(times[i]), runs: times[i] })),
      poolStartMs: startMs,
      taskMs,
    };
  } finally {
    await Promise.all(Object.values(pools).map((p) => p.close()));
  }
}
