// Drives headless Chromium (Debian's /usr/bin/chromium) through playwright-core for the
// tests of `tiletable serve`. Usage:
//   node live_page.mjs watch URL                  print {"seq", "t", "text"} each time the last play
//                                                 changes, until a line arrives on standard input
//   node live_page.mjs shot URL FILE.png [WIDTH HEIGHT]   wait for a drawn table, save a screenshot
//   node live_page.mjs visit URL...              load each page (a live page: until its tables
//                                                 arrive), print its status, title and text
//   node live_page.mjs audit WxH DIR NAME=URL...  load each page at that size and print what a
//                                                 person would meet: its width against the
//                                                 screen's, text under 16 px, touch targets under
//                                                 44 px, axe-core's serious and critical findings,
//                                                 the live tables' places and score sizes, its
//                                                 text; a screenshot DIR/NAME-WxH.png (DIR "-": none)
//   node live_page.mjs wait URL SELECTOR          print the text of SELECTOR once it shows, then for
//                                                 each line read, wait until its text has that line
//                                                 in it and print the text again
//   node live_page.mjs step URL WxH KEY...         open a session's board at that size, press each
//                                                 key and print the play, its line's scroll and
//                                                 the chart's size as drawn
//   node live_page.mjs replay URL                 step through a session's board with the keys,
//                                                 the buttons and a play's link: the captions seen
//   node live_page.mjs organiser URL WxH PASSWORD OLD NEW FROM INTO   at that size, sign in at
//                                                 URL/organiser/sign-in, rename player OLD to NEW
//                                                 and merge FROM into INTO with the pages' forms;
//                                                 each page met as "audit" prints it
// Every mode ends with one line {"errors": [...]}: console errors and page errors seen.
import { createRequire } from "node:module";
import { chromium } from "playwright-core";

const require = createRequire(import.meta.url);

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

// What a person meets on the page (run in the page): see "audit" above.
function auditPage() {
  const visible = (node) => {
    const box = node.getBoundingClientRect();
    const style = getComputedStyle(node);
    return box.width > 0 && box.height > 0 && style.visibility !== "hidden" && style.display !== "none";
  };
  const where = (node) => node.id ? "#" + node.id : node.tagName.toLowerCase() + (node.className && typeof node.className === "string" ? "." + node.className.trim().split(/\s+/).join(".") : "");
  const smallText = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let text = walker.nextNode(); text; text = walker.nextNode()) {
    const node = text.parentElement;
    if (!text.textContent.trim() || !node || !visible(node) || node.closest("script, style, title, desc")) continue;
    let size = parseFloat(getComputedStyle(node).fontSize);
    const matrix = node instanceof SVGElement ? node.getScreenCTM() : null;
    if (matrix) size *= Math.hypot(matrix.a, matrix.b);  // as drawn (a rotated label too)
    if (size < 15.95) smallText.push({ where: where(node), size: Math.round(size * 10) / 10, text: text.textContent.trim().slice(0, 40) });
  }
  const smallTargets = [];
  for (const node of document.querySelectorAll("a[href], button, input, select, textarea, summary")) {
    if (!visible(node)) continue;
    const style = getComputedStyle(node);
    // WCAG 2.5.8's exception: a link inline in a sentence keeps the sentence's line height
    const inSentence = style.display === "inline" && node.parentElement.textContent.trim().length > node.textContent.trim().length;
    const box = node.getBoundingClientRect();
    if (!inSentence && (box.width < 43.5 || box.height < 43.5)) smallTargets.push({ where: where(node), text: node.textContent.trim().slice(0, 30), width: Math.round(box.width), height: Math.round(box.height) });
  }
  const wide = [];
  for (const node of document.body.querySelectorAll("*")) {
    const box = node.getBoundingClientRect();
    if (box.right > innerWidth + 0.5 && visible(node) && !node.closest(".scroll, .chart")) wide.push(where(node));
  }
  const tables = [...document.querySelectorAll("section.table")].map((box) => {
    const rect = box.getBoundingClientRect();
    return {
      name: box.dataset.name, status: box.dataset.status, text: box.innerText,
      top: rect.top, bottom: rect.bottom, left: rect.left, right: rect.right,
      scores: [...box.querySelectorAll("ol.scores .points")].map((p) => ({ size: parseFloat(getComputedStyle(p).fontSize), bottom: p.getBoundingClientRect().bottom })),
      board: !!box.querySelector(".board") && visible(box.querySelector(".board")),
    };
  });
  const board = document.querySelector(".leaderboard");
  return {
    width: document.documentElement.scrollWidth, screen: innerWidth, screenHeight: innerHeight,
    wide: wide.slice(0, 8), smallText: smallText.slice(0, 12), smallTextCount: smallText.length,
    smallTargets: smallTargets.slice(0, 12), smallTargetCount: smallTargets.length, tables,
    leaderboard: board ? { text: board.innerText, right: board.getBoundingClientRect().right, bottom: board.getBoundingClientRect().bottom } : null,
    text: document.querySelector("main").innerText,
  };
}

// axe-core's serious and critical findings on the page as it is
async function axeFindings(page) {
  await page.addScriptTag({ path: require.resolve("axe-core/axe.min.js") });
  return page.evaluate(async () => {
    const found = await window.axe.run(document, { resultTypes: ["violations"] });
    return found.violations.filter((v) => v.impact === "serious" || v.impact === "critical")
      .map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.length, first: v.nodes[0].target.join(" ") }));
  });
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
  } else if (mode === "audit") {
    const [size, dir, ...named] = rest;
    const [width, height] = size.split("x").map(Number);
    const page = await newPage(width, height);
    for (const pair of named) {
      const cut = pair.indexOf("=");
      const [name, url] = [pair.slice(0, cut), pair.slice(cut + 1)];
      const response = await page.goto(url);
      if (await page.$("#tables")) await page.waitForSelector("section.table");  // a live page: its first event
      if (await page.$("#frames")) await page.waitForFunction(() => document.body.dataset.play);  // a session's board
      await page.waitForTimeout(200);
      const scrolled = await page.evaluate(() => scrollY);  // where the page put itself (a #play-N)
      await page.addScriptTag({ path: require.resolve("axe-core/axe.min.js") });
      const axe = await page.evaluate(async () => {
        const found = await window.axe.run(document, { resultTypes: ["violations"] });
        return found.violations.filter((v) => v.impact === "serious" || v.impact === "critical")
          .map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.length, first: v.nodes[0].target.join(" ") }));
      });
      const seen = await page.evaluate(auditPage);
      await page.evaluate((y) => scrollTo(0, y), scrolled);  // axe scrolls
      if (dir !== "-") await page.screenshot({ path: `${dir}/${name}-${size}.png` });
      out({ name, url, status: response.status(), axe, ...seen });
    }
  } else if (mode === "wait") {
    const [url, selector] = rest;
    const page = await newPage(1920, 1080);
    await page.goto(url);
    await page.waitForSelector(selector);
    out({ text: await page.innerText(selector) });
    const lines = process.stdin.setEncoding("utf8");
    let buffer = "";
    for await (const chunk of lines) {
      buffer += chunk;
      while (buffer.includes("\n")) {
        const cut = buffer.indexOf("\n");
        const wanted = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 1);
        await page.waitForFunction(([s, w]) => document.querySelector(s).innerText.includes(w), [selector, wanted], { timeout: 60000 });
        out({ text: await page.innerText(selector) });
      }
    }
  } else if (mode === "step") {
    const [url, size, ...keys] = rest;
    const [width, height] = size.split("x").map(Number);
    const page = await newPage(width, height);
    await page.goto(url);
    await page.waitForFunction(() => document.body.dataset.play);
    for (const key of keys) {
      await page.keyboard.press(key);
      out(await page.evaluate(() => {
        const box = document.querySelector("#replay-board .line-box");
        const chart = document.querySelector("figure.chart svg").getBoundingClientRect();
        return { play: Number(document.body.dataset.play), scrollLeft: box.scrollLeft, scrollWidth: box.scrollWidth, clientWidth: box.clientWidth,
          chart: { width: chart.width, height: chart.height } };
      }));
    }
  } else if (mode === "organiser") {
    const [base, size, password, old, renamed, from, into] = rest;
    const [width, height] = size.split("x").map(Number);
    const page = await newPage(width, height);
    const met = async (name) => out({ name, url: page.url(), axe: await axeFindings(page), ...(await page.evaluate(auditPage)) });
    await page.goto(`${base}organiser/sign-in?next=/history/player/${encodeURIComponent(old)}`);
    await met("sign-in");
    await page.getByLabel("Organiser password").fill(password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForSelector("form#rename");
    await met("player");
    await page.getByLabel(`New name for ${old}`).fill(renamed);
    await page.getByRole("button", { name: "Rename" }).click();
    await page.waitForURL(`**/history/player/${encodeURIComponent(renamed)}`);
    await met("renamed");
    await page.goto(`${base}history/player/${encodeURIComponent(from)}`);
    await page.getByLabel(`${from} is the same person as`).selectOption(into);
    await page.getByRole("button", { name: "Merge" }).click();
    await page.waitForURL(`**/history/player/${encodeURIComponent(into)}`);
    await met("merged");
  } else if (mode === "replay") {
    const [url] = rest;
    const page = await newPage(1280, 900);
    await page.goto(url);
    await page.waitForFunction(() => document.body.dataset.play);
    const caption = async (how) => out({ how, play: Number(await page.evaluate(() => document.body.dataset.play)),
      caption: await page.innerText("#caption"), hash: await page.evaluate(() => location.hash),
      current: await page.evaluate(() => document.querySelector("ol.plays li[aria-current]")?.id || null),
      board: await page.evaluate(() => document.getElementById("replay-board").innerText) });
    await caption("open");
    for (const key of ["End", "ArrowLeft", "Home", "ArrowRight", "ArrowRight"]) { await page.keyboard.press(key); await caption(key); }
    await page.click("#next"); await caption("next");
    await page.click("#previous"); await caption("previous");
    await page.click("#last"); await caption("last");
    await page.click("#first"); await caption("first");
    const link = (await page.$$("ol.plays a.number"))[6];
    await link.click();
    await page.waitForFunction(() => document.body.dataset.play === "7");
    await caption("link");
  }
} finally {
  out({ errors });
  await browser.close();
}
