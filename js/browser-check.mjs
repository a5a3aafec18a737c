// The browser check: serves js/ over HTTP on 127.0.0.1, opens browser/index.html
// in headless Chromium (--headless --no-sandbox --disable-gpu), and waits for the page
// to post its report (vectors hashed, permutation time).
//   node js/browser-check.mjs           (CHROMIUM=path overrides the browser)
import { spawn } from "node:child_process";
import { readFile } from "node:fs/promises";
import { createServer } from "node:http";
import { dirname, extname, join, normalize, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const js = dirname(fileURLToPath(import.meta.url));
// $POSEIDON_VECTORS when the scripts check a copy of the package under target/.
const vectors = resolve(process.env.POSEIDON_VECTORS ?? resolve(js, "../poseidon/tests/data"));
const types = { ".html": "text/html", ".js": "text/javascript", ".json": "application/json", ".wasm": "application/wasm" };
const browser = process.env.CHROMIUM ?? "chromium";

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
    res.writeHead(200, { "content-type": types[extname(file)] ?? "application/octet-stream" }).end(data);
  } catch {
    res.writeHead(404).end();
  }
});
await new Promise((r) => server.listen(0, "127.0.0.1", r));
const url = `http://127.0.0.1:${server.address().port}/browser/index.html`;
const chrome = spawn(browser, ["--headless", "--no-sandbox", "--disable-gpu", "--user-data-dir=" + resolve(js, ".chromium-profile"), url], {
  stdio: ["ignore", "ignore", "pipe"],
});
let stderr = "";
chrome.stderr.on("data", (d) => (stderr += d));
chrome.on("error", (e) => done({ error: `cannot start ${browser}: ${e.message}` }));
const timeout = setTimeout(() => done({ error: "no report within 60 s", stderr: stderr.slice(-2000) }), 60_000);
const report = await reported;
clearTimeout(timeout);
chrome.kill();
server.close();
console.log(JSON.stringify(report, null, 2));
const ok = !report.error && report.vectors > 0 && report.failed === 0 && report.permutation_us > 0;
console.log(ok ? `1 passed, 0 failed` : `0 passed, 1 failed`);
process.exit(ok ? 0 : 1);
