// Serves the package directory over HTTP on 127.0.0.1, cross-origin isolated (the
// COOP/COEP headers that o1js's web build needs for its shared wasm memory; not
// with { isolated: false }, as many sites are: the worker pool's check), opens
// one page in a headless browser, Chromium (V8), Firefox (SpiderMonkey) or
// WebKitGTK's MiniBrowser under Xvfb (JavaScriptCore), and
// resolves with the JSON the page POSTs to /report. Used by browser-check.mjs and
// bench-browser.mjs. CHROMIUM=path, FIREFOX=path and WEBKIT=path override the browsers; the
// profiles live in .chromium-profile, .firefox-profile and .webkit-profile in the
// package directory.
// A page may POST the name of the stage it starts to /progress: a timeout then says
// where the page stood. A page that does not report within the time (seen once in
// CI, on a loaded machine, with a fresh profile) is opened once more; a page that
// hangs fails twice, and the result says so.
import { execFileSync, spawn } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
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
      // A fresh profile each time: one left by a Firefox that was killed (a
      // timeout) made the next bench page hang.
      await rm(profile, { recursive: true, force: true });
      await mkdir(profile, { recursive: true });
      await writeFile(join(profile, "user.js"), prefs.map(([k, v]) => `user_pref(${JSON.stringify(k)}, ${JSON.stringify(v)});\n`).join(""));
    },
  },
  // WebKitGTK's MiniBrowser (JavaScriptCore, Safari's engine): a GTK window, so
  // under xvfb-run; its web processes in a sandbox of their own, which a root
  // container refuses, hence WEBKIT_DISABLE_SANDBOX_THIS_IS_DANGEROUS. Extra flags
  // are MiniBrowser's (WebKitSettings, --enable-...=true). It starts helper
  // processes, so the whole process group is ended.
  webkit: {
    binary: process.env.WEBKIT ?? miniBrowser(),
    command: (binary) => ["xvfb-run", ["-a", "-s", "-screen 0 1280x1024x24", binary]],
    args: (_profile, extra, url) => [...extra.filter((f) => !f.startsWith("JSC_")), url],
    // JavaScriptCore reads its options from JSC_<option>=value in the environment;
    // WebKit keeps its cache and data where XDG says: in the profile folder.
    env: (extra, profile) => ({
      WEBKIT_DISABLE_SANDBOX_THIS_IS_DANGEROUS: "1",
      WEBKIT_DISABLE_COMPOSITING_MODE: "1",
      XDG_CACHE_HOME: join(profile, "cache"),
      XDG_DATA_HOME: join(profile, "data"),
      XDG_CONFIG_HOME: join(profile, "config"),
      ...Object.fromEntries(extra.filter((f) => f.startsWith("JSC_")).map((f) => f.split("="))),
    }),
    group: true,
  },
};

/** The browser's name and version, for reports ("" if it cannot say). */
export function browserVersion(engine) {
  const out = (cmd, args) => {
    try {
      return execFileSync(cmd, args, { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
    } catch {
      return "";
    }
  };
  if (engine !== "webkit") return out(engines[engine].binary, ["--version"]);
  // MiniBrowser has no --version; Debian's package says which WebKitGTK it is.
  const v = out("dpkg-query", ["-W", "-f", "${Version}", "libwebkit2gtk-4.1-0"]);
  return `MiniBrowser (WebKitGTK${v ? ` ${v}` : ""})`;
}

/** Whether `engine`'s browser can start here (MiniBrowser also needs xvfb-run). */
export function installed(engine) {
  const runs = (cmd, args) => {
    try {
      execFileSync(cmd, args, { stdio: "ignore" });
      return true;
    } catch {
      return false;
    }
  };
  if (engine === "webkit") return existsSync(engines.webkit.binary) && runs("xvfb-run", ["--help"]);
  return runs(engines[engine].binary, ["--version"]);
}

// Debian's MiniBrowser: /usr/lib/<multiarch>/webkit2gtk-4.1/MiniBrowser.
function miniBrowser() {
  const lib = "/usr/lib";
  const arch = existsSync(lib) ? readdirSync(lib).find((d) => existsSync(`${lib}/${d}/webkit2gtk-4.1/MiniBrowser`)) : undefined;
  return arch ? `${lib}/${arch}/webkit2gtk-4.1/MiniBrowser` : "MiniBrowser";
}
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
  const [program, before] = b.command ? b.command(b.binary) : [b.binary, []];
  const child = spawn(program, [...before, ...b.args(profile, extra, url)], {
    stdio: ["ignore", "ignore", "pipe"],
    env: { ...process.env, ...b.env?.(extra, profile) },
    detached: Boolean(b.group),
  });
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
  if (b.group) {
    try {
      process.kill(-child.pid, "SIGTERM");
    } catch {
      // already gone
    }
  } else child.kill();
  await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
  server.close();
  return report;
}
