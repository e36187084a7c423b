"""``tiletable serve`` in a real browser: headless Chromium (Debian's package, driven by
playwright-core from npm through tests/browser/live_page.mjs) shows every play of a hand on
the simulated table, renders the history pages of every game, and logs no console error.
How fast a play reaches the page is measured by bench/live_view.py, not asserted here."""
import os
import re
import shutil
import sys

import pytest

from test_serve import GAMES, club  # noqa: F401  (the database of every game)

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tools"))
import live_browser  # noqa: E402


def _missing():
    if not (shutil.which("chromium") or os.path.exists("/usr/bin/chromium")):
        return "Chromium is not installed (make test installs Debian's chromium package where it can)"
    if not shutil.which("node"):
        return "Node.js is not installed"
    if not os.path.isdir(os.path.join(ROOT, "node_modules", "playwright-core")):
        return "playwright-core is not installed (make setup runs npm ci)"
    return None


pytestmark = pytest.mark.skipif(_missing() is not None, reason=_missing() or "")


@pytest.mark.parametrize("ruleset, names", [("muggins", ("ann", "bob")), ("moon", ("ann", "bob", "cy"))])
def test_the_live_page_shows_every_play_of_the_simulated_table_in_order(ruleset, names):
    times, seen, errors = live_browser.watch_plays(plays=12, pace=0, ruleset=ruleset, each_seen=True)
    assert errors == []
    assert len(times) == 12 and len(seen) == len(times), seen
    seqs = [seq for seq, _, _ in seen]
    assert seqs == sorted(set(seqs))
    for (seq, shown, text), played in zip(seen, times):
        assert text.split()[2] in names or text == "Last play: the bidder keeps the hand", text
        assert shown >= played - 0.5  # seen after it was played (clocks of one machine)


def test_history_pages_of_every_game_render_without_console_errors(club):  # noqa: F811
    from tiletable_host.serve.command import WebServer
    from tiletable_host.serve.live import Hub

    server = WebServer(Hub(), club[0])
    url = server.start()
    try:
        pages = ["history", "history/standings", "history/player/ann"] + ["history/session/%d" % n for n in range(1, len(GAMES) + 1)]
        lines = live_browser.browser("visit", *[url + page for page in pages])
    finally:
        server.stop()
    assert lines[-1] == {"errors": []}
    visits = {line["url"][len(url):]: line for line in lines[:-1]}
    assert all(v["status"] == 200 for v in visits.values())
    for number, game in enumerate(GAMES, 1):
        text = visits["history/session/%d" % number]["text"]
        assert re.match(r"Session %d\s+%s on " % (number, game), text) and "Hand 1" in text and "Final scores:" in text
    assert all(game in visits["history/standings"]["text"] for game in GAMES)


def test_screenshots_of_every_family(tmp_path):
    assert live_browser.main([str(tmp_path)]) == 0
    for name in ("muggins", "sniff", "moon", "dasan", "columns", "texas-42", "mexican-train"):
        with open(tmp_path / ("live-%s.png" % name), "rb") as shot:
            assert shot.read(8) == b"\x89PNG\r\n\x1a\n"


def test_an_illegal_play_is_shown_with_its_reason_on_the_big_screen():
    from tiletable.engine.line_actions import K_PLAY, kind_of, tile_of
    from tiletable.engine.tiles import tile_str

    with live_browser.WatchedTable() as watched:
        watched.play(5)
        state = watched.game.state
        seat = state.current_player()
        playable = {tile_of(a) for a in state.legal_actions() if kind_of(a) == K_PLAY}
        tile = tile_str([t for t in state.hands[seat] if t not in playable][0])
        watched.table.control.place(watched.game.zone[seat], tile)
        assert live_browser.wait_for(lambda: watched.hub.tables()[1][0]["error"])
        lines = live_browser.browser("visit", watched.url + "?big=1")
    assert lines[-1] == {"errors": []}
    text = lines[0]["text"]
    assert re.search(r"Illegal: Err\d+ %s does not match end [LR] \(\d\)" % tile, text), text
    assert "%s to act" % ("ann", "bob")[seat] in text and "Table says: %s to play" % ("ann", "bob")[seat] in text


def test_the_live_page_draws_each_familys_board_and_plain_scores_for_a_family_without_one():
    """The page loads a board for each family of the registry; a table of a family without one
    (a test's, a new family's before its board) shows its scores and turn, and no error."""
    from tiletable_host.serve.command import WebServer
    from tiletable_host.serve.live import Hub

    hub = Hub()
    shared = {"status": "game", "hand": 1, "turn": "ann to act", "players": ["ann", "bob"], "scores": [12, 7], "to_act": 0}
    hub.publish("Table 1", dict(shared, ruleset="block", table={"family": "line", "line": None, "ends": "", "boneyard": 14}))
    hub.publish("Table 2", dict(shared, ruleset="pips-race", table={"family": "pips"}))
    server = WebServer(hub, "/nonexistent.db")
    url = server.start()
    try:
        lines = live_browser.browser("visit", url)
    finally:
        server.stop()
    assert lines[-1] == {"errors": []}
    text = lines[0]["text"]
    assert "block · hand 1 · ann to act" in text and "Open ends: none · boneyard: 14" in text
    assert "pips-race · hand 1 · ann to act" in text and text.count("ann12\nbob7") == 2, text
