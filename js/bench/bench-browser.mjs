// The comparison with o1js inside headless Chromium: bench.html runs the
// cases of cases.mjs against o1js's web build, timed as in Node (timing.mjs), and
// posts the medians back (browser-server.mjs serves it cross-origin isolated).
//   node js/bench/bench-browser.mjs [--out FILE] [--rounds N] [--wide]
//   (defaults: target/bench-report/js-chromium.json of the checkout, 9 rounds). --wide starts
//   Chromium with --js-flags=--wasm-wide-arithmetic (runtime chromium-wide), so the
//   page picks the wide-arithmetic module.
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";

import { arg, helpOnRequest, reportOut } from "../dev/cli.mjs";
import { browser, runPage } from "../dev/browser-server.mjs";
import { report } from "./cases.mjs";

helpOnRequest(import.meta.url);
const out = reportOut(import.meta.url, "js-chromium.json");
const rounds = Number(arg("--rounds", 9));
if (!(rounds >= 1)) throw new Error("--rounds takes a positive number");

process.stderr.write(`chromium: warming up, then ${rounds} rounds (inside the page)\n`);
const wide = process.argv.includes("--wide");
const flags = wide ? ["--js-flags=--wasm-wide-arithmetic"] : [];
const got = await runPage(`bench/bench.html?rounds=${rounds}`, { timeoutMs: 600_000, flags });
if (got.error) {
  console.error(`the browser benchmark failed: ${got.error}${got.stderr ? "\n" + got.stderr : ""}`);
  process.exit(1);
}
let version = "";
try {
  version = execFileSync(browser, ["--version"], { encoding: "utf8" }).trim();
} catch {}
const env = { runtime: wide ? "chromium-wide" : "chromium", engine: (version || browser) + (wide ? " --js-flags=--wasm-wide-arithmetic" : ""), module: got.module, userAgent: got.userAgent, crossOriginIsolated: got.crossOriginIsolated, date: new Date().toISOString(), rounds };
const { json, text } = report(env, got.rows);
console.log(text);
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, JSON.stringify(json, null, 2) + "\n");
console.log(`wrote ${out}`);
