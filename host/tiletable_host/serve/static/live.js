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

function render(t) {
  const box = sectionFor(t.name);
  box.replaceChildren();
  box.dataset.status = t.status;
  const where = t.title ? `${t.title} · ${t.place || t.name}` : t.name;
  if (t.status !== "game") {
    box.appendChild(el("h2", "", t.title || t.name));
    if (t.place) box.appendChild(el("p", "where", t.place));
    box.appendChild(el("p", "message", t.text));
    return;
  }
  box.appendChild(el("h2", "", `${t.ruleset} · hand ${t.hand} · ${t.turn}`));
  box.appendChild(el("p", "where", where));
  box.appendChild(scoresEl(t));
  const board = t.table ? boardEl(t, t.table) : null;
  if (board) box.appendChild(board);
  if (t.last) box.appendChild(lastPlayEl(t.last));
  if (t.prompt) box.appendChild(el("p", "prompt", "Table says: " + t.prompt));
  if (t.error) box.appendChild(el("p", "error illegal", "Illegal: " + t.error));
}

const source = new EventSource("/events");
source.addEventListener("tables", (event) => {
  const tables = JSON.parse(event.data);
  const waiting = document.getElementById("waiting");
  if (waiting && tables.length) waiting.remove();
  for (const t of tables) render(t);
  const names = new Set(tables.map((t) => t.name));  // a club table forgotten, or now watched here
  for (const box of tablesBox.querySelectorAll("section.table")) if (!names.has(box.dataset.name)) box.remove();
  document.body.dataset.updated = String(Date.now());
});
