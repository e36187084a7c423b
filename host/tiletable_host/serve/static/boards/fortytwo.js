// Texas 42's board: the bid and trumps, the trick on the table (or the one just taken), each side's
// points and tricks in the hand, and the tricks taken so far with their winners.
// Loaded by the live page for the registry's family of the same name (serve/app.py); live.js
// calls <family>Board(t, table) with the table's picture and its family's part of it.
"use strict";

function fortytwoBoard(t, table) {
  const box = el("div", "board trick-board");
  const name = (seat) => t.players[seat] ?? `Seat ${seat + 1}`;
  const sides = [`${name(0)} and ${name(2)}`, `${name(1)} and ${name(3)}`];
  const bid = table.bidder === null ? "No bid yet" : `${name(table.bidder)} ${table.bid}`;
  box.appendChild(el("p", "facts", `${bid} · ${table.trumps ?? "trumps not named"}`));
  const row = el("div", "trick");
  const shown = table.trick.length || !table.taken ? table.trick : table.taken.tiles;  // the trick just taken, until the next lead
  for (const play of shown) {
    const cell = el("figure", "played");
    cell.appendChild(dominoSVG(play.tile, true));
    cell.appendChild(el("figcaption", "", name(play.seat)));
    row.appendChild(cell);
  }
  if (!shown.length) row.appendChild(el("p", "empty", "No tile in this trick yet."));
  else if (shown !== table.trick) row.appendChild(el("p", "taken", `${name(table.taken.winner)} takes the trick`));
  box.appendChild(row);
  const count = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;
  const score = sides.map((side, i) => `${side}: ${count(table.points[i], "point")}, ${count(table.side_tricks[i], "trick")}`).join(" · ");
  box.appendChild(el("p", "facts", `Trick ${table.trick_number} · ${score}`));
  if (table.tricks.length) {
    const list = el("ol", "tricks");
    for (const trick of table.tricks) {
      const tiles = trick.tiles.map((play) => `${name(play.seat)} ${play.tile}`).join(", ");
      list.appendChild(el("li", "", `${tiles}: ${name(trick.winner)} takes it`));
    }
    box.appendChild(list);
  }
  return box;
}
