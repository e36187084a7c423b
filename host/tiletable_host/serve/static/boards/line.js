// The line family's board: the line of dominoes (spinner arms too), its open ends, the boneyard.
// Loaded by the live page for the registry's family of the same name (serve/app.py); live.js
// calls <family>Board(t, table) with the table's picture and its family's part of it.
"use strict";

function lineBoard(t, table) {
  const box = el("div", "board line-board");
  if (table.line) box.appendChild(lineBox(table.line));
  else box.appendChild(el("p", "empty", "No tile on the table yet."));
  box.appendChild(el("p", "facts", `Open ends: ${table.ends || "none"} · boneyard: ${table.boneyard}`));
  return box;
}
