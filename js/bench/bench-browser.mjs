// The comparison with o1js inside a headless browser: bench.html runs the cases of
// cases.mjs against o1js's web build, timed as in Node (timing.mjs), and posts the
// medians back (browser-server.mjs serves it cross-origin isolated).
//   node js/bench/bench-browser.mjs [--engine chromium|firefox|webkit] [--out FILE] [--rounds N] [--wide]
//   (defaults: Chromium; target/bench-report/js-<runtime>.json of the checkout, 9
//   rounds). --engine firefox: Firefox (SpiderMonkey), runtime firefox; --engine
//   webkit: WebKitGTK's MiniBrowser under Xvfb (JavaScriptCore), runtime webkit. --wide starts
//   Chromium with --js-flags=--wasm-wide-arithmetic (runtime chromium-wide), so the
//   page picks the wide-arithmetic module; where that Chromium's V8 has no wide
//   arithmetic (the page loads another module) it exits 1 and writes no column.
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";

import { arg, helpOnRequest, reportOut } from "../dev/cli.mjs";
import { browserVersion, engines, runPage } from "../dev/browser-server.mjs";
import { report } from "./cases.mjs";

helpOnRequest(import.meta.url);
const engine = arg("--engine", "chromium");
if (!engines[engine]) throw new Error(`--engine ${engine}: chromium, firefox or webkit`);
const wide = process.argv.includes("--wide");
if (wide && engine !== "chromium") throw new Error("--wide is Chromium's flag");
const runtime = wide ? "chromium-wide" : engine;
const out = reportOut(import.meta.url, `js-${runtime}.json`);
const rounds = Number(arg("--rounds", 9));
if (!(rounds >= 1)) throw new Error("--rounds takes a positive number");

process.stderr.write(`${engine}: warming up, then ${rounds} rounds (inside the page)\n`);
const flags = wide ? ["--js-flags=--wasm-wide-arithmetic"] : [];
const got = await runPage(`bench/bench.html?rounds=${rounds}`, { timeoutMs: 600_000, flags, engine });
if (got.error) {
  console.error(`the browser benchmark failed: ${got.error}${got.stderr ? "\n" + got.stderr : ""}`);
  process.exit(1);
}
// A Chromium whose V8 has no wide arithmetic ignores the flag, and the page loads the
// module it would load anyway: that is no column of its own.
if (wide && got.module !== "wide") {
  console.error(`Chromium with --js-flags=--wasm-wide-arithmetic loaded the "${got.module}" module, not "wide" (its V8 validates no wide-arithmetic module): no chromium-wide column`);
  process.exit(1);
}
const browser = engines[engine].binary;
const version = browserVersion(engine);
const env = { runtime, engine: (version || browser) + (wide ? " --js-flags=--wasm-wide-arithmetic" : ""), module: got.module, userAgent: got.userAgent, crossOriginIsolated: got.crossOriginIsolated, date: new Date().toISOString(), rounds };
const { json, text } = report(env, got.rows);
console.log(text);
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, JSON.stringify(json, null, 2) + "\n");
console.log(`wrote ${out}`);
