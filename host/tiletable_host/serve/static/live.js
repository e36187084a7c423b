// Live tables: each table's picture arrives as JSON over server-sent events and is redrawn.
"use strict";

const tablesBox = document.getElementById("tables");

function sectionFor(name) {
  let box = tablesBox.querySelector(`section.table[data-name="${CSS.escape(name)}"]`);
  if (!box) {
    box = el("section", "table");
    box.dataset.name = name;
    tablesBox.appendChild(box);
  }
  return box;
}

function scoresEl(t) {
  const list = el("ol", "scores");
  t.players.forEach((name, seat) => {
    const item = el("li", seat === t.to_act ? "to-act" : "");
    item.appendChild(el("span", "name", name));
    item.appendChild(el("span", "points", String(t.scores[seat])));
    list.appendChild(item);
  });
  return list;
}

function lastPlayEl(last) {
  const box = el("div", "last");
  box.dataset.seq = last.seq;
  box.appendChild(el("p", "play", "Last play: " + last.description));
  for (const s of last.scores) {
    box.appendChild(el("p", "score", `${s.player} ${s.points >= 0 ? "+" : ""}${s.points} ${s.rule}: ${s.detail}`));
  }
  return box;
}

// A family's board is drawn by <family>Board(t, table) in static/boards/<family>.js, which the
// page loads for each family of the registry (serve/app.py); a family without one shows none.
function boardEl(t, table) {
  const draw = window[table.family + "Board"];
  return typeof draw === "function" ? draw(t, table) : null;
}

const shownLines = {};  // each table's line as last drawn: a phone keeps its newest end in sight

function render(t) {
  const box = sectionFor(t.name);
  box.replaceChildren();
  box.dataset.status = t.status;
  box.appendChild(el("h2", "", t.title || t.name));  // the table's name as people set it
  if (t.status !== "game") {  // in its menu, unplugged or gone: a quiet tile, no last board
    if (t.place) box.appendChild(el("p", "where", t.place));
    box.appendChild(el("p", "message", t.text));
    return;
  }
  box.appendChild(el("p", "game", `${t.ruleset} · hand ${t.hand} · ${t.turn}`));
  if (t.title || t.place) box.appendChild(el("p", "where", t.place || t.name));
  box.appendChild(scoresEl(t));
  const board = t.table ? boardEl(t, t.table) : null;
  if (board) box.appendChild(board);
  showNewestEnd(box, shownLines[t.name], t.table && t.table.line);
  shownLines[t.name] = t.table && t.table.line;
  if (t.last) box.appendChild(lastPlayEl(t.last));
  if (t.prompt) box.appendChild(el("p", "prompt", "Table says: " + t.prompt));
  if (t.error) box.appendChild(el("p", "error illegal", "Illegal: " + t.error));
}

// The big screen's grid sized to the number of tables: 1, 2 side by side, then 2x2, 3x2, 3x3, 4x3.
function layOut(count) {
  const columns = Math.max(1, Math.ceil(Math.sqrt(count)));
  tablesBox.style.setProperty("--columns", columns);
  tablesBox.style.setProperty("--rows", Math.max(1, Math.ceil(count / columns)));
  tablesBox.dataset.count = String(count);
  if (count > 4) tablesBox.dataset.crowded = ""; else delete tablesBox.dataset.crowded;
}

// Tonight's leaderboard beside the tables on the big screen (/night), looked up again as the
// tables change (at most every NIGHT_GAP ms: the last change is never missed), and every half minute.
const leaderboard = document.getElementById("leaderboard");
const NIGHT_GAP = 5000;
let lookedUp = 0;
let nightSoon = null;

function lookUpNightSoon() {
  if (nightSoon !== null) return;
  nightSoon = setTimeout(() => { nightSoon = null; lookUpNight(); }, Math.max(0, lookedUp + NIGHT_GAP - Date.now()));
}

async function lookUpNight() {
  lookedUp = Date.now();
  let night;
  try {
    night = await (await fetch("/night")).json();
  } catch (error) {
    return;  // the server restarting: the next look will do
  }
  const list = document.getElementById("leaderboard-rows");
  list.replaceChildren();
  for (const row of night.rows) {
    const item = el("li", "");
    item.appendChild(el("span", "points", String(row.wins)));
    item.appendChild(el("span", "player", row.player));
    item.appendChild(el("span", "wins", `won ${row.wins} of ${row.played}`));
    list.appendChild(item);
  }
  document.getElementById("leaderboard-empty").hidden = night.rows.length > 0;
  leaderboard.dataset.updated = String(Date.now());
}

if (leaderboard) {
  lookUpNight();
  setInterval(lookUpNight, 30000);
}

const source = new EventSource("/live/stream");
source.addEventListener("tables", (event) => {
  const tables = JSON.parse(event.data);
  const waiting = document.getElementById("waiting");
  if (waiting && tables.length) waiting.remove();
  for (const t of tables) render(t);
  const names = new Set(tables.map((t) => t.name));  // a club table forgotten, or now watched here
  for (const box of tablesBox.querySelectorAll("section.table")) if (!names.has(box.dataset.name)) box.remove();
  layOut(tables.length);
  if (leaderboard) lookUpNightSoon();
  document.body.dataset.updated = String(Date.now());
});
