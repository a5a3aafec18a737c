// What the package's development scripts share (not shipped in the package): their
// --help, their option values, and the project's root for default output paths.
import { existsSync, readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** With -h or --help: prints the script's header comment (its usage) and exits 0. */
export function helpOnRequest(scriptUrl) {
  if (!process.argv.includes("--help") && !process.argv.includes("-h")) return;
  const lines = readFileSync(fileURLToPath(scriptUrl), "utf8").split("\n");
  const header = lines.slice(0, lines.findIndex((l) => !l.startsWith("//")));
  console.log(header.map((l) => l.replace(/^\/\/ ?/, "")).join("\n"));
  process.exit(0);
}

/** The value after `--name` on the command line, else `dflt`. */
export function arg(name, dflt) {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : dflt;
}

/**
 * The project's root: the nearest directory above `from` with the workspace's
 * Cargo.toml and scripts/rustc-wide.sh (js/.. in the repository; a copy of the
 * package under target/ finds the same root, not target/). null if there is none.
 */
export function projectRoot(from) {
  for (let dir = resolve(from, ".."); ; dir = dirname(dir)) {
    if (existsSync(resolve(dir, "scripts/rustc-wide.sh")) && existsSync(resolve(dir, "Cargo.toml"))) return dir;
    if (dirname(dir) === dir) return null;
  }
}

/** `--out`, else `file` in the project's target/bench-report (exits 2 outside a checkout). */
export function reportOut(scriptUrl, file) {
  const given = arg("--out");
  if (given) return resolve(given);
  const here = dirname(fileURLToPath(scriptUrl));
  const root = projectRoot(here);
  if (root === null) {
    console.error(`no project root above ${here}: give --out FILE`);
    process.exit(2);
  }
  return resolve(root, "target/bench-report", file);
}
