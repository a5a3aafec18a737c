// Serves the package directory over HTTP on 127.0.0.1, cross-origin isolated (the
// COOP/COEP headers that o1js's web build needs for its shared wasm memory), opens
// one page in headless Chromium and resolves with the JSON the page POSTs to
// /report. Used by browser-check.mjs and bench-browser.mjs. CHROMIUM=path
// overrides the browser; the profile lives in .chromium-profile beside this file.
import { spawn } from "node:child_process";
import { readFile } from "node:fs/promises";
import { createServer } from "node:http";
import { dirname, extname, join, normalize, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const js = dirname(fileURLToPath(import.meta.url));
// $POSEIDON_VECTORS when the scripts check a copy of the package under target/.
const vectors = resolve(process.env.POSEIDON_VECTORS ?? resolve(js, "../poseidon/tests/data"));
const types = { ".html": "text/html", ".js": "text/javascript", ".mjs": "text/javascript", ".json": "application/json", ".wasm": "application/wasm" };
export const browser = process.env.CHROMIUM ?? "chromium";
const isolation = { "cross-origin-opener-policy": "same-origin", "cross-origin-embedder-policy": "require-corp" };

// page: a path below the package, e.g. "browser/index.html"; flags: more Chromium
// options (e.g. --js-flags=--wasm-wide-arithmetic).
export async function runPage(page, { timeoutMs = 60_000, flags: extra = [] } = {}) {
  let done;
  const reported = new Promise((r) => (done = r));
  const server = createServer(async (req, res) => {
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
      res.writeHead(200, { "content-type": types[extname(file)] ?? "application/octet-stream", ...isolation }).end(data);
    } catch {
      res.writeHead(404).end();
    }
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${server.address().port}/${page}`;
  // No background connections: this machine's network is closed.
  const flags = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"];
  const chrome = spawn(browser, [...flags, ...extra, "--user-data-dir=" + resolve(js, ".chromium-profile"), url], {
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  chrome.stderr.on("data", (d) => (stderr += d));
  chrome.on("error", (e) => done({ error: `cannot start ${browser}: ${e.message}` }));
  const timeout = setTimeout(() => done({ error: `no report within ${timeoutMs / 1000} s`, stderr: stderr.slice(-2000) }), timeoutMs);
  const report = await reported;
  clearTimeout(timeout);
  chrome.kill();
  server.close();
  return report;
}
