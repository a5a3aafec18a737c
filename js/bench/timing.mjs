// Timing for the benchmark scripts (bench.mjs, compare.mjs, bench.html):
// every case is warmed up first, then measured in rounds that take each case in
// turn, so a drift of the machine touches all alike. Per round the median of timed
// batches; the result is the median over rounds, in ns per call. Node's hrtime
// where there is one; in a browser performance.now() (5 µs steps when
// cross-origin isolated, far below a batch's milliseconds).

export const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

const nowNs =
  typeof process !== "undefined" && process.hrtime?.bigint
    ? () => Number(process.hrtime.bigint())
    : () => performance.now() * 1e6;

// Median ns per call of `batches` timed batches of `reps` calls each.
function batchMedian(f, reps, batches) {
  const t = [];
  for (let b = 0; b < batches; b++) {
    const t0 = nowNs();
    for (let i = 0; i < reps; i++) f();
    t.push((nowNs() - t0) / reps);
  }
  return median(t);
}

// cases: [f, reps per timed batch]. Returns the median ns per call of each.
// `tick` is called after each round (progress output).
export function measure(cases, { rounds, batches = 15, warmMs = 500, tick = () => {} }) {
  for (const [f, reps] of cases) {
    const until = performance.now() + warmMs;
    while (performance.now() < until) for (let i = 0; i < reps; i++) f();
  }
  const samples = cases.map(() => []);
  for (let r = 0; r < rounds; r++) {
    cases.forEach(([f, reps], i) => samples[i].push(batchMedian(f, reps, batches)));
    tick();
  }
  return samples.map(median);
}
