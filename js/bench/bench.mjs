// Our package against o1js 2.15.0 in one Node process: per permutation, per hash of
// 1 and 16 elements and per Merkle level of 64 pairs (cases.mjs), timed as
// timing.mjs describes (warm-up, alternating rounds, median over rounds).
//   node js/bench/bench.mjs [--out FILE] [--rounds N] [--runtime NAME] [--module M]
//   (defaults: target/bench-report/js-report.json of the checkout, 9 rounds,
//   node<major>, the best module this Node supports)
import { createRequire } from "node:module";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

import * as o1js from "o1js";

import { arg, helpOnRequest, reportOut } from "../dev/cli.mjs";
import { makeCases, report } from "./cases.mjs";
import { backend } from "../index.js";
import { measure } from "./timing.mjs";

// The package directory (this script is one folder below it).
const pkg = resolve(dirname(fileURLToPath(import.meta.url)), "..");
helpOnRequest(import.meta.url);
const out = reportOut(import.meta.url, "js-report.json");
const rounds = Number(arg("--rounds", 9));
if (!(rounds >= 1)) throw new Error("--rounds takes a positive number");
const runtime = arg("--runtime", `node${process.versions.node.split(".")[0]}`);

const require = createRequire(import.meta.url);
// Not in o1js's package exports: load the file by path.
const kimchi = require(resolve(pkg, "node_modules/o1js/dist/node/bindings/compiled/node_bindings/kimchi_wasm.cjs"));
// --module M: run ours on that module (default: the best this Node supports).
const cases = await makeCases(o1js, kimchi.caml_pasta_fp_poseidon_block_cipher, arg("--module"));

process.stderr.write(`${runtime}: warming up ${cases.length} cases, then ${rounds} rounds `);
const medians = measure(
  cases.map(([, , f, reps]) => [f, reps]),
  { rounds, tick: () => process.stderr.write(".") },
);
process.stderr.write("\n");
const env = { runtime, engine: `node ${process.version} (V8 ${process.versions.v8})`, module: backend(), date: new Date().toISOString(), rounds };
const { json, text } = report(env, cases.map(([workload, impl], i) => [workload, impl, medians[i]]));
console.log(text);
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, JSON.stringify(json, null, 2) + "\n");
console.log(`wrote ${out}`);
