// A stored session's board, play by play: the frames (the table's picture, the scores and the
// play in words after each numbered play, serve/history.py's session_story) come with the page;
// the buttons, the arrow keys (Home and End too) and each play's link (#play-12) step through them.
"use strict";

const story = JSON.parse(document.getElementById("frames").textContent);
const frames = story.frames;
const caption = document.getElementById("caption");
const scoresBox = document.getElementById("replay-scores");
const boardBox = document.getElementById("replay-board");
const buttons = {
  first: document.getElementById("first"), previous: document.getElementById("previous"),
  next: document.getElementById("next"), last: document.getElementById("last"),
};
let shown = 0;

// Show play `number`; the address names it (#play-12) unless it came from there, or the page
// just opened on the first play.
function show(number, keepAddress) {
  shown = Math.max(1, Math.min(frames.length, number));
  const frame = frames[shown - 1];
  caption.textContent = `Play ${shown} of ${frames.length} · hand ${frame.hand} · ${frame.text}`;
  scoresBox.replaceChildren();
  story.players.forEach((name, seat) => {
    const item = el("li", name === frame.player ? "to-act" : "");
    item.appendChild(el("span", "name", name));
    item.appendChild(el("span", "points", String(frame.scores[seat])));
    scoresBox.appendChild(item);
  });
  const draw = window[frame.table.family + "Board"];
  boardBox.replaceChildren();
  if (typeof draw === "function") boardBox.appendChild(draw({ players: story.players, scores: frame.scores }, frame.table));
  showNewestEnd(boardBox, frames[shown - 2] && frames[shown - 2].table.line, frame.table.line);
  buttons.first.disabled = buttons.previous.disabled = shown === 1;
  buttons.next.disabled = buttons.last.disabled = shown === frames.length;
  for (const item of document.querySelectorAll("ol.plays li[aria-current]")) item.removeAttribute("aria-current");
  const item = document.getElementById("play-" + shown);
  if (item) item.setAttribute("aria-current", "step");
  if (!keepAddress) history.replaceState(null, "", "#play-" + shown);
  document.body.dataset.play = String(shown);
}

function fromHash() {
  const match = /^#play-(\d+)$/.exec(location.hash);
  return match ? Number(match[1]) : null;
}

buttons.first.addEventListener("click", () => show(1));
buttons.previous.addEventListener("click", () => show(shown - 1));
buttons.next.addEventListener("click", () => show(shown + 1));
buttons.last.addEventListener("click", () => show(frames.length));
document.addEventListener("keydown", (event) => {
  if (event.altKey || event.ctrlKey || event.metaKey || /^(INPUT|SELECT|TEXTAREA)$/.test(event.target.tagName)) return;
  const to = { ArrowLeft: shown - 1, ArrowRight: shown + 1, Home: 1, End: frames.length }[event.key];
  if (to === undefined) return;
  event.preventDefault();
  show(to);
});
window.addEventListener("hashchange", () => {
  const number = fromHash();
  if (number === null) return;
  show(number, true);
  setTimeout(boardInView, 0);
});
show(fromHash() || 1, true);
// A link to a play opens on its board: once the browser has scrolled to the play in the list,
// the board is brought into view when that left it out (a phone's; a desktop's stays beside).
function boardInView() {
  const board = document.getElementById("replay");
  const box = board.getBoundingClientRect();
  if (box.top < 0 || box.top > innerHeight - 100) board.scrollIntoView({ block: "start" });
}
window.addEventListener("load", () => { if (fromHash() !== null) setTimeout(boardInView, 0); });
