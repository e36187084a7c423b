// Mexican Train's board: the round, the hub with its engine double, each seat's train and the
// Mexican train as a row of tiles from the hub outward (a long train its last tiles, with its
// length in words), the marker on each marked train, the open double to cover highlighted, the
// tiles in each hand and the boneyard.
// Loaded by the live page for the registry's family of the same name (serve/app.py); live.js
// calls <family>Board(t, table) with the table's picture and its family's part of it.
"use strict";

function trainBoard(t, table) {
  const box = el("div", "board train-board");
  const name = (seat) => t.players[seat] ?? `Seat ${seat + 1}`;
  const turn = table.turn === null ? "" : ` · ${name(table.turn)} ${table.drawing ? "draws" : "to play"}`;
  box.appendChild(el("p", "facts", `Round ${table.round} of ${table.rounds} · boneyard ${table.boneyard}${turn}`));
  const hub = el("figure", "hub");
  hub.appendChild(dominoSVG(`${table.engine}-${table.engine}`, false));
  hub.appendChild(el("figcaption", "", `Engine ${table.engine}-${table.engine} in the hub`));
  box.appendChild(hub);
  const list = el("ul", "trains");
  table.trains.forEach((train, index) => list.appendChild(trainRow(train, name, table.cover === index)));
  box.appendChild(list);
  const hands = table.hands.map((size, seat) => `${name(seat)} ${table.out[seat] ? "out" : size}`).join(" · ");
  box.appendChild(el("p", "facts", `Tiles in hand: ${hands}`));
  return box;
}

// One train: its name, length, open value, marker and open double in words, then its tiles.
function trainRow(train, name, toCover) {
  const item = el("li", "train" + (toCover ? " to-cover" : ""));
  const head = el("p", "train-name");
  head.appendChild(el("strong", "", train.seat === null ? "Mexican train" : `${name(train.seat)}'s train`));
  const shown = train.laid > train.tail.length ? `, last ${train.tail.length} shown` : "";
  const length = train.laid ? `${train.laid} tile${train.laid === 1 ? "" : "s"}${shown}` : "not started";
  head.append(` · ${length} · open at ${train.open}`);
  if (train.marker) head.appendChild(el("span", "marker", "marker"));
  if (train.double) head.appendChild(el("span", "open-double", toCover ? "open double: cover it" : "open double"));
  item.appendChild(head);
  if (train.laid) item.appendChild(trainSVG(train));
  return item;
}

// The train's tiles along a row from the hub outward, doubles crosswise, an open double
// highlighted; the stylesheet fits the row to the board's width (never wider than the screen).
function trainSVG(train) {
  const svg = svgEl("svg", { class: "train-tiles", role: "img", preserveAspectRatio: "xMinYMid meet" });
  let x = 0;
  if (train.laid > train.tail.length) {  // earlier tiles, toward the hub
    for (const dot of [0.3, 0.6, 0.9]) svgEl("circle", { cx: x + U * dot, cy: U, r: U * 0.08, class: "more" }, svg);
    x += U * 1.2;
  }
  train.tail.forEach(([inner, out], i) => {
    const double = inner === out;
    const open = double && train.double && i === train.tail.length - 1;
    const w = double ? U : 2 * U;
    domino(svg, x + w / 2, U, inner, out, double, open ? "open" : "");
    x += w;
  });
  const words = train.tail.map(([inner, out]) => `${inner}-${out}`).join(", ");
  svgEl("title", {}, svg).textContent = `Tiles from the hub outward: ${words}`;
  svg.setAttribute("viewBox", `0 0 ${x} ${2 * U}`);
  return svg;
}
