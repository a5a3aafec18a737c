// Builds the package's four wasm modules (cargo, wasm32-unknown-unknown, release)
// and writes, for each module M, dist/poseidon-M.wasm and dist/wasm-M.js (the same
// bytes, base64, as an ES module) into the package directory: js/, or DIR (the
// scripts use a copy under target/), with the root's license texts. `init()`
// loads the one the engine runs best.
//   scalar  u29 arithmetic, plain Wasm (every engine)
//   fma     the simd module with +relaxed-simd, its kimchi permutations (Fp, Fq) by
//           generated kernels (crate poseidon-fma-kernel, `fma-kernel --linked`: 52-bit limbs in
//           f64x2 lanes, products split by f64x2.relaxed_madd) that binaryen's
//           wasm-merge links in; Node 22+, Chrome 114+
//   simd    the same without the kernel: batches (hashMany) run four permutations in
//           i32x4 lanes with i64x2.extmul products
//   wide    u64 arithmetic with +wide-arithmetic (i64.mul_wide_u): for engines that
//           have it (Firefox 155+, Chrome behind --wasm-wide-arithmetic). Only crate
//           poseidon gets the feature (scripts/rustc-wide.sh) and LTO is off: LLVM 22
//           miscompiles some other code with it (see the README).
// The scalar, simd and fma modules then go through binaryen's wasm-opt (OPT_PASSES; for
// fma the Rust part only, the kernel keeps the order it was generated in): V8's
// Turboshaft (Node 24+, Chrome) compiles Wasm in the order it is written, and
// LLVM's order costs our permutation about 15% there (see the README). wasm-opt is
// the npm package binaryen (a dev dependency, exact version), or WASM_OPT.
//   node js/build.mjs [--out DIR] [--only M]
import { execFileSync, spawn } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

import { arg, helpOnRequest, projectRoot } from "./dev/cli.mjs";

const here = dirname(fileURLToPath(import.meta.url));
helpOnRequest(import.meta.url);
const root = projectRoot(here);
if (root === null) {
  console.error(`build.mjs: no project root above ${here} (a directory with Cargo.toml and scripts/rustc-wide.sh); run js/build.mjs of a checkout`);
  process.exit(2);
}
const pkg = arg("--out") ? resolve(arg("--out")) : here;
const TARGET = "wasm32-unknown-unknown";
// Measured under Node 24 (README, "Turboshaft and the order of the code"): 15% off
// the permutation; -O4 gains as much there but slows the four-lane batch, -O3 gains
// less. Names are kept (-g): `make test` finds the hot functions by name.
const OPT_PASSES = ["-g", "-O2", "--flatten", "--simplify-locals-notee-nostructure", "--local-cse", "-O2"];
const MODULES = {
  scalar: { dir: "target", rustflags: "", opt: true },
  fma: {
    dir: "target/js-fma",
    rustflags: "-C target-feature=+simd128,+relaxed-simd --cfg poseidon_fma",
    opt: true,
    kernel: true,
  },
  simd: { dir: "target/js-simd", rustflags: "-C target-feature=+simd128", opt: true },
  // Not through wasm-opt: no engine here runs it, so the passes' effect could not be weighed.
  wide: {
    dir: "target/js-wide",
    rustflags: '-C target-feature=+simd128 --cfg poseidon_backend="u64"',
    env: { RUSTC_WRAPPER: resolve(root, "scripts/rustc-wide.sh"), CARGO_PROFILE_RELEASE_LTO: "false" },
  },
};
const only = arg("--only");
if (only && !MODULES[only]) throw new Error(`--only: no module ${only} (${Object.keys(MODULES).join(", ")})`);

// wasm-opt (and wasm-merge beside it): $WASM_OPT, else the dev dependency installed
// in DIR or in js/.
function wasmOpt() {
  if (process.env.WASM_OPT) return process.env.WASM_OPT;
  for (const dir of [pkg, here]) {
    const bin = resolve(dir, "node_modules/.bin/wasm-opt");
    if (existsSync(bin)) return bin;
  }
  console.error(`build.mjs: wasm-opt not found: run \`npm install\` in ${here} (binaryen is a dev dependency) or set WASM_OPT`);
  process.exit(2);
}
function wasmMerge(opt) {
  const bin = resolve(dirname(opt), "wasm-merge");
  if (existsSync(bin)) return bin;
  console.error(`build.mjs: wasm-merge not found beside ${opt} (binaryen's; the fma module needs it)`);
  process.exit(2);
}

const optBin = Object.entries(MODULES).some(([n, m]) => m.opt && (!only || n === only)) ? wasmOpt() : null;
if (optBin) console.log(`wasm-opt: ${optBin} (${execFileSync(optBin, ["--version"]).toString().trim()})`);
const mergeBin = Object.entries(MODULES).some(([n, m]) => m.kernel && (!only || n === only)) ? wasmMerge(optBin) : null;
mkdirSync(resolve(pkg, "dist"), { recursive: true });
// The license texts live at the project's root; the package carries copies.
for (const f of ["LICENSE-MIT", "LICENSE-APACHE"]) copyFileSync(resolve(root, f), resolve(pkg, f));
// The modules' cargo builds run side by side: each has a build directory of its own
// (their flags differ), and each spends most of its time in one crate on one core.
const selected = Object.entries(MODULES).filter(([name]) => !only || name === only);
function cargoBuild(name, m) {
  return new Promise((done, fail) => {
    const args = ["build", "--release", "-p", "poseidon-js", "--target", TARGET, "--target-dir", resolve(root, m.dir)];
    const child = spawn("cargo", args, {
      cwd: root,
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS: m.rustflags, ...m.env },
    });
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    child.on("error", fail);
    child.on("close", (code) => {
      process.stdout.write(`cargo build of the ${name} module:\n${output}`);
      if (code === 0) done();
      else fail(new Error(`cargo build of the ${name} module failed (exit ${code})`));
    });
  });
}
try {
  await Promise.all(selected.map(([name, m]) => cargoBuild(name, m)));
} catch (e) {
  console.error(`build.mjs: ${e.message}`);
  process.exit(1);
}
for (const [name, m] of selected) {
  const targetDir = resolve(root, m.dir);
  const built = resolve(targetDir, TARGET, "release/poseidon_js.wasm");
  const out = resolve(pkg, `dist/poseidon-${name}.wasm`);
  if (m.kernel) {
    // The Rust part through the passes, then the Fp and Fq kernels generated and
    // merged in by the generator (`fma-kernel --merge`, with binaryen's wasm-merge
    // and wasm-opt from optBin's directory), which also removes the kernels'
    // exports. It runs in the dev profile: its output does not depend on the
    // profile, and the tests have built its dependencies there.
    const rust = resolve(targetDir, "rust-opt.wasm");
    execFileSync(optBin, [...OPT_PASSES, built, "-o", rust], { stdio: "inherit" });
    execFileSync("cargo", ["run", "-q", "-p", "poseidon-fma-kernel", "--", "--merge", rust, "--binaryen", dirname(mergeBin), "--out", out], {
      cwd: root,
      stdio: "inherit",
    });
  } else if (m.opt) execFileSync(optBin, [...OPT_PASSES, built, "-o", out], { stdio: "inherit" });
  else copyFileSync(built, out);
  const bytes = readFileSync(out);
  writeFileSync(
    resolve(pkg, `dist/wasm-${name}.js`),
    `// Generated by js/build.mjs: the ${name} wasm module's bytes (${bytes.length}), base64.\n` +
      `const b64 = "${bytes.toString("base64")}";\n` +
      `export function wasmBytes() {\n` +
      `  const s = atob(b64);\n` +
      `  const out = new Uint8Array(s.length);\n` +
      `  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);\n` +
      `  return out;\n` +
      `}\n`,
  );
  console.log(`wrote ${pkg}/dist/poseidon-${name}.wasm and dist/wasm-${name}.js (${bytes.length} bytes)`);
}
