// The browser check: opens check/index.html in headless Chromium (browser-server.mjs)
// once per module of the package, and waits for the page to post its report
// (vectors hashed one by one and in one hashMany, hashes, batches, permutations,
// Merkle structures, salted hashes and the adapter against o1js's web build,
// permutation time). The wide
// module runs with --js-flags=--wasm-wide-arithmetic (Chrome has it behind the flag).
//   node js/check/browser-check.mjs           (CHROMIUM=path overrides the browser)
import { runPage } from "../dev/browser-server.mjs";
import { helpOnRequest } from "../dev/cli.mjs";

helpOnRequest(import.meta.url);

const runs = [
  { module: "scalar", flags: [] },
  { module: "simd", flags: [] },
  { module: "fma", flags: [] },
  { module: "wide", flags: ["--js-flags=--wasm-wide-arithmetic"] },
];
let passed = 0, failed = 0;
for (const { module, flags } of runs) {
  const report = await runPage(`check/index.html?module=${module}`, { flags });
  // Chromium got wide arithmetic (behind the flag) in a later version than some
  // distributions ship: a module this Chromium cannot run is skipped, not failed.
  if (report.supported && !report.supported.includes(module)) {
    console.log(`skip  ${module}: this Chromium (${report.userAgent ?? "?"}) cannot run it${flags.length ? " even with " + flags.join(" ") : ""}; it runs ${report.supported.join(", ")}${module === "wide" ? " (wasmtime-check.mjs checks wide under wasmtime)" : ""}`);
    continue;
  }
  const ok = !report.error && report.module === module && report.vectors > 0 && report.failed === 0 &&
    report.o1js_checked > 0 && report.o1js_failed === 0 && report.permutation_us > 0;
  console.log(`${ok ? "ok  " : "FAIL"}  ${module}${flags.length ? " " + flags.join(" ") : ""}: ${JSON.stringify(report)}`);
  if (ok) passed++;
  else failed++;
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
