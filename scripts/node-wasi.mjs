// Runs a wasm32-wasip1 program under Node's built-in WASI (no npm packages):
//   node --no-warnings scripts/node-wasi.mjs MODULE.wasm [ARGS...]
// The working directory is preopened as ".", and criterion's results directory
// ($CRITERION_HOME, default target/criterion of the repository) as /criterion,
// so a bench binary saves its baseline where the native and wasmtime runs do.
import { mkdirSync, readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { WASI } from "node:wasi";

const [module, ...args] = process.argv.slice(2);
if (!module) {
  process.stderr.write("usage: node scripts/node-wasi.mjs MODULE.wasm [ARGS...]\n");
  process.exit(2);
}
const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const results = resolve(process.env.CRITERION_HOME ?? `${root}/target/criterion`);
mkdirSync(results, { recursive: true });

const wasi = new WASI({
  version: "preview1",
  args: [module, ...args],
  env: { ...process.env, CRITERION_HOME: "/criterion" },
  preopens: { ".": process.cwd(), "/criterion": results },
  returnOnExit: true,
});
const compiled = await WebAssembly.compile(readFileSync(module));
const instance = await WebAssembly.instantiate(compiled, wasi.getImportObject());
process.exitCode = wasi.start(instance);
