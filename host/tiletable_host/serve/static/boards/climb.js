// The climb family's board (Da San): the combination to beat, the bid, the cards left.
// Loaded by the live page for the registry's family of the same name (serve/app.py); live.js
// calls <family>Board(t, table) with the table's picture and its family's part of it.
"use strict";

function climbBoard(t, table) {
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
