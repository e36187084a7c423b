// The trick family's board (Moon): the tiles of the trick (or of the one just taken), the bidder, suit, trumps and tricks won.
// Loaded by the live page for the registry's family of the same name (serve/app.py); live.js
// calls <family>Board(t, table) with the table's picture and its family's part of it.
"use strict";

function trickBoard(t, table) {
  const box = el("div", "board trick-board");
  const row = el("div", "trick");
  const shown = table.trick.length || !table.taken ? table.trick : table.taken.tiles;  // the trick just taken, until the next lead
  for (const play of shown) {
    const cell = el("figure", "played");
    cell.appendChild(dominoSVG(play.tile, true));
    cell.appendChild(el("figcaption", "", t.players[play.seat]));
    row.appendChild(cell);
  }
  if (!shown.length) row.appendChild(el("p", "empty", "No tile in this trick yet."));
  else if (shown !== table.trick) row.appendChild(el("p", "taken", `${t.players[table.taken.winner]} takes the trick`));
  box.appendChild(row);
  const bidder = table.bidder === null ? "no bid yet" : `bidder ${t.players[table.bidder]}`;
  const tricks = t.players.map((p, i) => `${p} ${table.tricks[i]}`).join(", ");
  box.appendChild(el("p", "facts", `Trick ${table.trick_number} · ${bidder} · suit led: ${table.suit ?? "–"} · trumps: ${table.trump ?? "none"} · tricks won: ${tricks}`));
  return box;
}
