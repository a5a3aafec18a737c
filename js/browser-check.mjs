// The browser check: opens browser/index.html in headless Chromium (browser-server.mjs)
// and waits for the page to post its report (vectors hashed, permutation time).
//   node js/browser-check.mjs           (CHROMIUM=path overrides the browser)
import { runPage } from "./browser-server.mjs";

const report = await runPage("browser/index.html");
console.log(JSON.stringify(report, null, 2));
const ok = !report.error && report.vectors > 0 && report.failed === 0 && report.permutation_us > 0;
console.log(ok ? `1 passed, 0 failed` : `0 passed, 1 failed`);
process.exit(ok ? 0 : 1);
