// Serves the package directory over HTTP on 127.0.0.1, cross-origin isolated (the
// COOP/COEP headers that o1js's web build needs for its shared wasm memory; not
// with { isolated: false }, as many sites are: the worker pool's check), opens
// one page in a headless browser, Chromium (V8) or Firefox (SpiderMonkey), and
// resolves with the JSON the page POSTs to /report. Used by browser-check.mjs and
// bench-browser.mjs. CHROMIUM=path and FIREFOX=path override the browsers; the
// profiles live in .chromium-profile and .firefox-profile in the package directory.
// A page may POST the name of the stage it starts to /progress: a timeout then says
// where the page stood. A page that does not report within the time (seen once in
// CI, on a loaded machine, with a fresh profile) is opened once more; a page that
// hangs fails twice, and the result says so.
import { spawn } from "node:child_process";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { createServer } from "node:http";
import { dirname, extname, join, normalize, resolve } from "node:path";
import { fileURLToPath } from "node:url";

// The package directory (this file is in its dev/).
const js = resolve(dirname(fileURLToPath(import.meta.url)), "..");
// $POSEIDON_VECTORS when the scripts check a copy of the package under target/.
const vectors = resolve(process.env.POSEIDON_VECTORS ?? resolve(js, "../poseidon/tests/data"));
const types = { ".html": "text/html", ".js": "text/javascript", ".mjs": "text/javascript", ".json": "application/json", ".wasm": "application/wasm" };
// Each engine's browser: its binary, and its command line for a headless page with
// a profile of its own (no background connections: this machine's network is
// closed). Chromium keeps shared memory in /tmp: a container's /dev/shm may be too
// small for o1js's workers. Firefox takes extra flags as preferences
// ("pref=value"), written into the profile's user.js.
export const engines = {
  chromium: {
    binary: process.env.CHROMIUM ?? "chromium",
    args: (profile, extra, url) => [
      "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
      "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage",
      ...extra, "--user-data-dir=" + profile, url,
    ],
  },
  firefox: {
    binary: process.env.FIREFOX ?? "firefox-esr",
    args: (profile, _extra, url) => ["--headless", "--no-remote", "--profile", profile, url],
    async prepare(profile, extra) {
      const prefs = [
        ["browser.shell.checkDefaultBrowser", false],
        ["app.update.enabled", false],
        ["datareporting.policy.dataSubmissionEnabled", false],
        ["toolkit.telemetry.enabled", false],
        ["browser.startup.homepage_override.mstone", "ignore"],
        ["network.captive-portal-service.enabled", false],
        ["browser.safebrowsing.update.enabled", false],
        ...extra.map((e) => e.split("=")).map(([k, v]) => [k, v === "true" ? true : v === "false" ? false : v]),
      ];
      await mkdir(profile, { recursive: true });
      await writeFile(join(profile, "user.js"), prefs.map(([k, v]) => `user_pref(${JSON.stringify(k)}, ${JSON.stringify(v)});\n`).join(""));
    },
  },
};
const isolation = { "cross-origin-opener-policy": "same-origin", "cross-origin-embedder-policy": "require-corp" };

// page: a path below the package, e.g. "check/index.html"; engine: "chromium"
// (default) or "firefox"; flags: more browser options (Chromium's, e.g.
// --js-flags=--wasm-wide-arithmetic; Firefox's preferences, pref=value);
// isolated: false serves the page without the COOP/COEP headers.
export async function runPage(page, options = {}) {
  const first = await openPage(page, options);
  if (!first.timedOut) return first;
  console.error(`(${page}: ${first.error}; opening it once more)`);
  return { ...(await openPage(page, options)), first_try: first.error };
}

async function openPage(page, { timeoutMs = 180_000, flags: extra = [], isolated = true, engine = "chromium" } = {}) {
  const b = engines[engine];
  if (!b) throw new Error(`no browser engine ${engine} (${Object.keys(engines).join(", ")})`);
  const profile = resolve(js, `.${engine}-profile`);
  await b.prepare?.(profile, extra);
  let done, stage;
  const reported = new Promise((r) => (done = r));
  const server = createServer(async (req, res) => {
    if (req.method === "POST" && req.url === "/progress") {
      stage = "";
      for await (const chunk of req) stage += chunk;
      res.end("ok");
      return;
    }
    if (req.method === "POST" && req.url === "/report") {
      let body = "";
      for await (const chunk of req) body += chunk;
      res.end("ok");
      done(JSON.parse(body));
      return;
    }
    const path = decodeURIComponent(new URL(req.url, "http://x").pathname);
    const file = path.startsWith("/vectors/") ? join(vectors, normalize(path.slice(9))) : join(js, normalize(path));
    if (!file.startsWith(js) && !file.startsWith(vectors)) return res.writeHead(403).end();
    try {
      const data = await readFile(file);
      res.writeHead(200, { "content-type": types[extname(file)] ?? "application/octet-stream", ...(isolated ? isolation : {}) }).end(data);
    } catch {
      res.writeHead(404).end();
    }
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${server.address().port}/${page}`;
  const child = spawn(b.binary, b.args(profile, extra, url), { stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (d) => (stderr += d));
  child.on("error", (e) => done({ error: `cannot start ${b.binary}: ${e.message}` }));
  // No report: a timeout, or a browser that quit first (both retried by runPage).
  const silent = (what) => done({ error: what + (stage ? `; last stage begun: ${stage}` : ""), timedOut: true, stage, stderr: stderr.slice(-2000) });
  const exited = new Promise((r) => child.on("close", r));
  exited.then((code) => silent(`${b.binary} exited (${code}) before the page reported`));
  const timeout = setTimeout(() => silent(`no report within ${timeoutMs / 1000} s`), timeoutMs);
  const report = await reported;
  clearTimeout(timeout);
  // The next page reuses the profile: wait (a little) for this browser to let go of it.
  child.kill();
  await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
  server.close();
  return report;
}
