// Drives headless Chromium (Debian's /usr/bin/chromium) through playwright-core for the
// tests of `tiletable serve`. Usage:
//   node live_page.mjs watch URL                  print {"seq", "t", "text"} each time the last play
//                                                 changes, until a line arrives on standard input
//   node live_page.mjs shot URL FILE.png [WIDTH HEIGHT]   wait for a drawn table, save a screenshot
//   node live_page.mjs visit URL...              load each page (a live page: until its tables
//                                                 arrive), print its status, title and text
// Every mode ends with one line {"errors": [...]}: console errors and page errors seen.
import { chromium } from "playwright-core";

const [mode, ...rest] = process.argv.slice(2);
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  // playwright gives the browser a fresh profile directory of its own (no --user-data-dir)
});
const errors = [];
const out = (obj) => process.stdout.write(JSON.stringify(obj) + "\n");

async function newPage(width, height) {
  const page = await browser.newPage({ viewport: { width: width || 1280, height: height || 800 } });
  page.on("console", (msg) => { if (msg.type() === "error") errors.push(msg.text()); });
  page.on("pageerror", (err) => errors.push(String(err)));
  return page;
}

try {
  if (mode === "watch") {
    const [url] = rest;
    const page = await newPage();
    await page.exposeFunction("reportSeq", (seq, t, text) => out({ seq: Number(seq), t: t / 1000, text }));
    await page.goto(url);
    await page.evaluate(() => {
      let last = null;
      new MutationObserver(() => {
        const box = document.querySelector("section.table .last");
        const seq = box ? box.dataset.seq : null;
        if (seq !== null && seq !== last) { last = seq; window.reportSeq(seq, Date.now(), box.querySelector(".play").textContent); }
      }).observe(document.getElementById("tables"), { childList: true, subtree: true });
    });
    out({ ready: true });
    await new Promise((resolve) => { process.stdin.once("data", resolve); process.stdin.once("end", resolve); });
  } else if (mode === "shot") {
    const [url, file, width, height] = rest;
    const page = await newPage(Number(width) || 1280, Number(height) || 800);
    await page.goto(url);
    await page.waitForSelector("section.table[data-status=game] .board");
    await page.waitForTimeout(300);
    await page.screenshot({ path: file, fullPage: true });
    out({ shot: file });
  } else if (mode === "visit") {
    const page = await newPage();
    for (const url of rest) {
      const response = await page.goto(url);
      if (await page.$("#tables")) await page.waitForSelector("section.table");  // a live page: its first event
      out({ url, status: response.status(), title: await page.title(), text: await page.innerText("main") });
    }
  }
} finally {
  out({ errors });
  await browser.close();
}
