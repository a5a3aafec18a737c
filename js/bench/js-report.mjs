// Merges the per-runtime reports of the JavaScript comparison (bench.mjs under each
// Node, bench-browser.mjs in Chromium) into one table: a column per runtime, the
// ratios to o1js below it, then any runtime's warnings (cases.mjs). Writes the
// merged JSON.
//   node js/bench/js-report.mjs --out FILE REPORT.json [REPORT.json ...]
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";

import { helpOnRequest } from "../dev/cli.mjs";

helpOnRequest(import.meta.url);

const args = process.argv.slice(2);
const at = args.indexOf("--out");
const out = at >= 0 ? resolve(args.splice(at, 2)[1]) : null;
if (!out || args.length === 0) {
  console.error("usage: node js/bench/js-report.mjs --out FILE REPORT.json [REPORT.json ...]");
  process.exit(2);
}
const parts = args.map((f) => JSON.parse(readFileSync(f, "utf8")));
const names = parts.map((p) => p.env.runtime);
const us = (ns) => `${(ns / 1000).toFixed(2)} µs`;
const lines = [`| workload | implementation | ${names.join(" | ")} |`, `| --- | --- |${" --- |".repeat(names.length)}`];
parts[0].results.forEach((r, i) => {
  lines.push(`| ${r.workload} | ${r.implementation} | ${parts.map((p) => us(p.results[i].median_ns)).join(" | ")} |`);
});
for (const k of Object.keys(parts[0].ratios)) {
  lines.push(`| ${k} | | ${parts.map((p) => `**${p.ratios[k].toFixed(2)}×**`).join(" | ")} |`);
}
console.log("\nthe JavaScript package against o1js " + parts[0].env.o1js + ", per runtime (median per call):");
for (const p of parts) console.log(`  ${p.env.runtime}: ${p.env.engine}, module ${p.env.module}`);
console.log(lines.join("\n"));
for (const p of parts) for (const w of p.warnings ?? []) console.log(`warning (${p.env.runtime}): ${w}`);
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, JSON.stringify({ runtimes: Object.fromEntries(names.map((n, i) => [n, parts[i]])) }, null, 2) + "\n");
console.log(`wrote ${out}`);
