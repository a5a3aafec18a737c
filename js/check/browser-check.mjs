// The browser check: opens check/index.html in a headless browser (browser-server.mjs)
// once per module of the package, and waits for the page to post its report
// (vectors hashed one by one and in one hashMany, hashes, batches, permutations,
// Merkle structures, salted hashes and the adapter against o1js's web build,
// permutation time). A module the engine refuses is a skip with the reason, never
// a pass. Chromium (V8): the wide module with --js-flags=--wasm-wide-arithmetic;
// Firefox (SpiderMonkey): fma and wide with the preferences that enable relaxed
// SIMD and wide arithmetic; WebKit (JavaScriptCore, WebKitGTK's MiniBrowser under
// Xvfb): fma with JavaScriptCore's option useWasmRelaxedSIMD (no wide arithmetic).
//   node js/check/browser-check.mjs [--engine chromium|firefox|webkit]   (default
//   chromium; CHROMIUM=path, FIREFOX=path, WEBKIT=path override the browsers)
import { runPage } from "../dev/browser-server.mjs";
import { arg, helpOnRequest } from "../dev/cli.mjs";

helpOnRequest(import.meta.url);

const engine = arg("--engine", "chromium");
const RUNS = {
  chromium: [
    { module: "scalar", flags: [] },
    { module: "simd", flags: [] },
    { module: "fma", flags: [] },
    { module: "wide", flags: ["--js-flags=--wasm-wide-arithmetic"] },
  ],
  firefox: [
    { module: "scalar", flags: [] },
    { module: "simd", flags: [] },
    { module: "fma", flags: ["javascript.options.wasm_relaxed_simd=true"] },
    { module: "wide", flags: ["javascript.options.wasm_wide_arithmetic=true"] },
  ],
  // JavaScriptCore's options, from the environment.
  webkit: [
    { module: "scalar", flags: [] },
    { module: "simd", flags: [] },
    { module: "fma", flags: ["JSC_useWasmRelaxedSIMD=true"] },
    { module: "wide", flags: [] },
  ],
};
if (!RUNS[engine]) {
  console.error(`browser-check.mjs: --engine ${engine}: chromium, firefox or webkit`);
  process.exit(2);
}
let passed = 0, failed = 0;
for (const { module, flags } of RUNS[engine]) {
  const report = await runPage(`check/index.html?module=${module}`, { engine, flags });
  const ua = report.userAgent ?? "?";
  // Engines get relaxed SIMD and wide arithmetic in different versions (and behind
  // flags or preferences before that): a module this browser cannot run is skipped.
  if (report.supported && !report.supported.includes(module)) {
    console.log(`skip  ${engine} ${module}: this browser (${ua}) does not validate its instructions${flags.length ? " even with " + flags.join(" ") : ""}; it runs ${report.supported.join(", ")}${module === "wide" ? " (wasmtime-check.mjs checks wide under wasmtime)" : ""}`);
    continue;
  }
  const ok = !report.error && report.module === module && report.vectors > 0 && report.failed === 0 &&
    report.o1js_checked > 0 && report.o1js_failed === 0 && report.permutation_us > 0;
  console.log(`${ok ? "ok  " : "FAIL"}  ${engine} ${module}${flags.length ? " " + flags.join(" ") : ""}: ${JSON.stringify(report)}`);
  if (ok) passed++;
  else failed++;
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 && passed > 0 ? 0 : 1);
