// Dominoes, cards and the line of play drawn as SVG (no library, no build step).
"use strict";

// An HTML element of class `cls` holding `text` (the boards build their pictures with it).
function el(tag, cls, text) {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text !== undefined) node.textContent = text;
  return node;
}

const SVGNS = "http://www.w3.org/2000/svg";
const U = 40; // half a domino, in SVG units

// Pip positions on a 3x3 grid for 0..9 (the double-eight set of Buki needs 8), and for the
// double-twelve set of Mexican Train 10..12 on three columns of four rows (smaller pips).
const CORNERS = [[0, 0], [2, 2]];
const FOUR_ROWS = [0, 2 / 3, 4 / 3, 2];
const SIDES = FOUR_ROWS.flatMap((row) => [[0, row], [2, row]]);
const PIPS = {
  0: [], 1: [[1, 1]], 2: CORNERS, 3: [[0, 0], [1, 1], [2, 2]],
  4: [[0, 0], [2, 0], [0, 2], [2, 2]], 5: [[0, 0], [2, 0], [0, 2], [2, 2], [1, 1]],
  6: [[0, 0], [2, 0], [0, 1], [2, 1], [0, 2], [2, 2]],
  7: [[0, 0], [2, 0], [0, 1], [2, 1], [0, 2], [2, 2], [1, 1]],
  8: [[0, 0], [2, 0], [0, 1], [2, 1], [0, 2], [2, 2], [1, 0], [1, 2]],
  9: [[0, 0], [1, 0], [2, 0], [0, 1], [1, 1], [2, 1], [0, 2], [1, 2], [2, 2]],
  10: SIDES.concat([[1, 2 / 3], [1, 4 / 3]]),
  11: SIDES.concat([[1, 0], [1, 1], [1, 2]]),
  12: FOUR_ROWS.flatMap((row) => [[0, row], [1, row], [2, row]]),
};

function svgEl(name, attrs, parent) {
  const node = document.createElementNS(SVGNS, name);
  for (const key in attrs) node.setAttribute(key, attrs[key]);
  if (parent) parent.appendChild(node);
  return node;
}

// One half (a U x U square whose top-left corner is x, y) showing `value` pips.
function half(g, x, y, value) {
  for (const [col, row] of PIPS[value] || []) {
    svgEl("circle", { cx: x + U * (0.25 + col * 0.25), cy: y + U * (0.25 + row * 0.25), r: U * (value > 9 ? 0.065 : 0.085), class: "pip" }, g);
  }
}

// A domino centred on (cx, cy): `first` is the left (or top) half, `second` the right (or bottom).
function domino(parent, cx, cy, first, second, vertical, cls) {
  const w = vertical ? U : 2 * U;
  const h = vertical ? 2 * U : U;
  const g = svgEl("g", { class: "domino " + (cls || "") }, parent);
  svgEl("rect", { x: cx - w / 2 + 1, y: cy - h / 2 + 1, width: w - 2, height: h - 2, rx: U * 0.12, class: "face" }, g);
  if (vertical) {
    svgEl("line", { x1: cx - w / 2 + 5, x2: cx + w / 2 - 5, y1: cy, y2: cy, class: "bar" }, g);
    half(g, cx - U / 2, cy - U, first);
    half(g, cx - U / 2, cy, second);
  } else {
    svgEl("line", { x1: cx, x2: cx, y1: cy - h / 2 + 5, y2: cy + h / 2 - 5, class: "bar" }, g);
    half(g, cx - U, cy - U / 2, first);
    half(g, cx, cy - U / 2, second);
  }
  svgEl("title", {}, g).textContent = first + "-" + second;
  return g;
}

function tileHalves(text) {
  const [a, b] = text.split("-").map(Number);
  return [a, b];
}

// A lone domino (a trick, a column pile) as an SVG element of its own.
function dominoSVG(text, vertical) {
  const svg = svgEl("svg", { viewBox: vertical ? `0 0 ${U} ${2 * U}` : `0 0 ${2 * U} ${U}`, class: "tile" });
  const [a, b] = tileHalves(text);
  domino(svg, vertical ? U / 2 : U, vertical ? U : U / 2, a, b, vertical);
  return svg;
}

const SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" };

function cardEl(text) {
  const span = document.createElement("span");
  const suit = text[0];
  span.className = "card" + (suit === "H" || suit === "D" ? " red" : "");
  span.textContent = text === "?" ? "?" : text.slice(1) + (SUITS[suit] || suit);
  return span;
}

// The line of play in a box of its own that scrolls sideways when the line is longer than the
// screen is wide (a phone's), so that the tiles and the open ends' numbers stay readable.
function lineBox(line) {
  const box = el("div", "line-box");
  box.tabIndex = 0;  // a box that scrolls can be scrolled from the keyboard
  box.setAttribute("role", "group");
  box.setAttribute("aria-label", "The line of play");
  box.appendChild(lineSVG(line));
  return box;
}

// Keep the end of the line that grew from `was` to `now` (line pictures) in sight in the line's
// box `container` holds, when the line is longer than the box is wide.
function showNewestEnd(container, was, now) {
  const box = container.querySelector(".line-box");
  if (!box || !was || !now) return;
  if (now.L.length > was.L.length) box.scrollLeft = 0;
  else if (now.R.length > was.R.length) box.scrollLeft = box.scrollWidth;
}

// The line of play: the set tile, arms L and R along a row, spinner arms S1 up and S2 down
// from the tile they grow from, and a marker with the value of each open end.
function lineSVG(line) {
  const svg = svgEl("svg", { class: "line" });
  const box = { x0: -U, x1: U, y0: -U, y1: U };
  const grow = (x, y) => {
    box.x0 = Math.min(box.x0, x); box.x1 = Math.max(box.x1, x);
    box.y0 = Math.min(box.y0, y); box.y1 = Math.max(box.y1, y);
  };
  const anchors = {}; // "arm:index" -> {x, y, cross}
  const [setL, setR, setCross] = line.set;
  const setW = setCross ? U : 2 * U;
  domino(svg, 0, 0, setL, setR, setCross, "set");
  anchors["set:0"] = { x: 0, y: 0, cross: setCross };
  const edges = {};
  for (const [arm, dir] of [["L", -1], ["R", 1]]) {
    let cursor = dir * setW / 2;
    line[arm].forEach(([inner, out, cross], i) => {
      const w = cross ? U : 2 * U;
      const cx = cursor + dir * w / 2;
      if (dir < 0) domino(svg, cx, 0, out, inner, cross);
      else domino(svg, cx, 0, inner, out, cross);
      anchors[arm + ":" + i] = { x: cx, y: 0, cross: cross };
      cursor += dir * w;
      grow(cursor, U);
    });
    edges[arm] = { x: cursor + dir * U * 0.6, y: 0 };
  }
  const spin = line.spinner ? anchors[line.spinner[0] + ":" + line.spinner[1]] : anchors["set:0"];
  for (const [arm, dir] of [["S1", -1], ["S2", 1]]) {
    let cursor = spin.y + dir * (spin.cross ? U : U / 2);
    line[arm].forEach(([inner, out, cross]) => {
      const h = cross ? U : 2 * U;
      const cy = cursor + dir * h / 2;
      if (dir < 0) domino(svg, spin.x, cy, out, inner, !cross);
      else domino(svg, spin.x, cy, inner, out, !cross);
      cursor += dir * h;
      grow(spin.x + U, cursor);
    });
    edges[arm] = { x: spin.x, y: cursor + dir * U * 0.6 };
  }
  for (const arm in line.open || {}) {
    const at = edges[arm];
    const g = svgEl("g", { class: "open-end", "data-end": arm }, svg);
    svgEl("circle", { cx: at.x, cy: at.y, r: U * 0.42 }, g);
    svgEl("text", { x: at.x, y: at.y + U * 0.16 }, g).textContent = line.open[arm];
    grow(at.x - U / 2, at.y - U / 2);
    grow(at.x + U / 2, at.y + U / 2);
  }
  const m = U * 0.3;
  const [width, height] = [box.x1 - box.x0 + 2 * m, box.y1 - box.y0 + 2 * m];
  svg.setAttribute("viewBox", `${box.x0 - m} ${box.y0 - m} ${width} ${height}`);
  // its size in SVG units, for the stylesheet: drawn no smaller than 0.9 px a unit (the open
  // ends' numbers at 16 px and more), a long line scrolls sideways in its box (lineBox)
  svg.style.setProperty("--vbw", width);
  svg.style.setProperty("--vbh", height);
  return svg;
}
