// The column family's board: the three field columns and their pips, the last battle.
// Loaded by the live page for the registry's family of the same name (serve/app.py); live.js
// calls <family>Board(t, table) with the table's picture and its family's part of it.
"use strict";

function columnBoard(t, table) {
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
