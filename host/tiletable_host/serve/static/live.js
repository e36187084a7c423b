// Live tables: each table's picture arrives as JSON over server-sent events and is redrawn.
"use strict";

const tablesBox = document.getElementById("tables");

function el(tag, cls, text) {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text !== undefined) node.textContent = text;
  return node;
}

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

function lineEl(t, table) {
  const box = el("div", "board line-board");
  if (table.line) box.appendChild(lineSVG(table.line));
  else box.appendChild(el("p", "empty", "No tile on the table yet."));
  box.appendChild(el("p", "facts", `Open ends: ${table.ends || "none"} · boneyard: ${table.boneyard}`));
  return box;
}

function trickEl(t, table) {
  const box = el("div", "board trick-board");
  const row = el("div", "trick");
  for (const play of table.trick) {
    const cell = el("figure", "played");
    cell.appendChild(dominoSVG(play.tile, true));
    cell.appendChild(el("figcaption", "", t.players[play.seat]));
    row.appendChild(cell);
  }
  if (!table.trick.length) row.appendChild(el("p", "empty", "No tile in this trick yet."));
  box.appendChild(row);
  const bidder = table.bidder === null ? "no bid yet" : `bidder ${t.players[table.bidder]}`;
  const tricks = t.players.map((p, i) => `${p} ${table.tricks[i]}`).join(", ");
  box.appendChild(el("p", "facts", `Trick ${table.trick_number} · ${bidder} · suit led: ${table.suit ?? "–"} · trumps: ${table.trump ?? "none"} · tricks won: ${tricks}`));
  return box;
}

function columnsEl(t, table) {
  const box = el("div", "board column-board");
  const row = el("div", "columns");
  table.columns.forEach((pile, i) => {
    const col = el("figure", "column");
    col.appendChild(el("figcaption", "", `${"LCR"[i]} · ${pile ? table.piles[i] + " pips" : "empty"}`));
    for (const tile of pile || []) col.appendChild(dominoSVG(tile, false));
    row.appendChild(col);
  });
  box.appendChild(row);
  const battle = table.battle.map(b => `${b.column}: ${b.cards[0]} v ${b.cards[1]}`).join(" · ");
  box.appendChild(el("p", "facts", `Last battle: ${battle || "none yet"} · field deck: ${table.field_deck}`));
  return box;
}

function climbEl(t, table) {
  const box = el("div", "board climb-board");
  const row = el("div", "combination");
  if (table.to_beat) {
    row.appendChild(el("span", "who", `${t.players[table.to_beat.seat]} played`));
    for (const card of table.to_beat.cards) row.appendChild(cardEl(card));
  } else {
    row.appendChild(el("p", "empty", "Nothing to beat: the next play leads."));
  }
  box.appendChild(row);
  const bidder = table.bidder === null ? "no bid yet" : `bidder ${t.players[table.bidder]} (${table.bid})`;
  const left = t.players.map((p, i) => `${p} ${table.cards_left[i]}`).join(", ");
  box.appendChild(el("p", "facts", `${bidder} · cards left: ${left}`));
  return box;
}

const BOARDS = { line: lineEl, trick: trickEl, column: columnsEl, climb: climbEl };

function render(t) {
  const box = sectionFor(t.name);
  box.replaceChildren();
  box.dataset.status = t.status;
  const where = t.title ? `${t.title} · ${t.name}` : t.name;
  if (t.status !== "game") {
    box.appendChild(el("h2", "", t.title || t.name));
    box.appendChild(el("p", "message", t.text));
    return;
  }
  box.appendChild(el("h2", "", `${t.ruleset} · hand ${t.hand} · ${t.turn}`));
  box.appendChild(el("p", "where", where));
  box.appendChild(scoresEl(t));
  if (t.table) box.appendChild(BOARDS[t.table.family](t, t.table));
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
  document.body.dataset.updated = String(Date.now());
});
