"""``tiletable serve`` without a browser: the history pages of every game, the filters, the
standings and ratings, the live picture of every family, the event stream, a table that is
unplugged and plugged back, and the command itself."""
import json
import os
import re
import signal
import sys
import time
import urllib.request

import pytest
from starlette.testclient import TestClient

from cli import serve_process, tiletable
from journal_games import play_into_journal, play_whole_match
from tiletable.engine.line_actions import K_PLAY, kind_of
from tiletable.engine.rulesets import find_ruleset, preset_names
from tiletable_host.db import Database
from tiletable_host.people import score_text, score_value
from tiletable_host.serve.app import create_app
from tiletable_host.serve.command import WebServer
from tiletable_host.serve.history import Scales, find_sessions, standings
from tiletable_host.serve.live import Hub, PortWatcher, picture
from tiletable_host.sessionlog import replay_session
from tiletable_host.transport_local import LocalTransport
from tiletable_host.views import line_picture

GAMES = preset_names()


@pytest.fixture(scope="module")
def club(tmp_path_factory):
    """A database with a finished match of every game (session i+1 is GAMES[i]), a second
    Muggins match, and an unfinished Block match; and the final states."""
    root = tmp_path_factory.mktemp("club")
    device = LocalTransport(str(root / "device"))
    states = [play_whole_match(device.journal, name, seed) for seed, name in enumerate(GAMES, 1)]
    states.append(play_whole_match(device.journal, "muggins", 40))
    states.append(play_into_journal(device.journal, "block", ("cy", "di"), seed=3, max_actions=30))
    db_path = str(root / "club.db")
    db = Database.open(db_path)
    from tiletable_host.pull import pull_journal

    device.hello()
    pull_journal(device, db)
    db.close()
    return db_path, states


@pytest.fixture
def client(club):
    return TestClient(create_app(Hub(), club[0]))


@pytest.mark.parametrize("number", range(1, len(GAMES) + 1))
def test_the_session_page_of_every_game_tells_each_hand_and_score(client, club, number):
    state = club[1][number - 1]
    response = client.get("/history/session/%d" % number)
    assert response.status_code == 200
    page = response.text
    db = Database.open(club[0])
    hands = sorted({e.hand + 1 for e in replay_session(db, number).actions()})
    db.close()
    assert [int(h) for h in re.findall(r"<h2>Hand (\d+)</h2>", page)] == hands and hands[0] == 1
    assert "<svg" in page  # the score chart
    names = [n for n in ("ann", "bob", "cy", "di")][: state.players]
    scale = getattr(state, "score_scale", 1)  # Buki: chips, as everywhere people read them
    final = ", ".join("%s %s" % (n, score_text(s, scale)) for n, s in zip(names, state.scores))
    assert "Final scores: " + final in page
    for event in state.score_events[-3:]:
        assert "%s %s: " % (score_text(event.points, scale, signed=True), event.rule) in page
    assert "disagree" not in page


def test_the_session_page_gives_each_play_its_time(tmp_path):
    device = LocalTransport(str(tmp_path / "device"))
    state = play_into_journal(device.journal, "block", ("cy", "di"), seed=3, max_actions=20, tenths_apart=37)
    db = Database.open(str(tmp_path / "t.db"))
    from tiletable_host.pull import pull_journal

    device.hello()
    pull_journal(device, db)
    db.close()
    page = TestClient(create_app(Hub(), str(tmp_path / "t.db"))).get("/history/session/1").text
    setter = state.action_str(state.history[14]).split(">")[0]
    assert re.search(r'<span class="at">0:51\.8</span> [^<]*sets %s' % setter, page), page


def test_session_record_download_is_the_export(client, club, capsys):
    response = client.get("/history/session/5.tgr")
    assert response.status_code == 200 and response.text.startswith("[Format tiletable-record 1]\n")
    status, out, _ = tiletable(capsys, ["export", "5", "--format", "record", "--db", club[0]])
    assert status == 0 and out == response.text


def test_sessions_are_found_by_player_game_and_date(client, club):
    sessions = Database.open(club[0]).sessions()
    four_seats = [number for number, state in enumerate(club[1][: len(GAMES)], 1) if state.players >= 4]  # di sits at the fourth
    assert [s["id"] for s in find_sessions(sessions, player="di")] == four_seats + [len(GAMES) + 2]
    assert [s["id"] for s in find_sessions(sessions, game="muggins")] == [GAMES.index("muggins") + 1, len(GAMES) + 1]
    day = time.strftime("%Y-%m-%d", time.gmtime(sessions[0]["time"]))  # every session started that day
    assert find_sessions(sessions, since=day, until=day) == sessions
    next_day = time.strftime("%Y-%m-%d", time.gmtime(sessions[0]["time"] + 86400))
    assert find_sessions(sessions, since=next_day) == [] and find_sessions(sessions, until="2000-01-01") == []
    page = client.get("/history?player=cy&game=moon").text
    rows = re.findall(r'<a href="/history/session/(\d+)">', page)
    assert rows == [str(GAMES.index("moon") + 1)]
    assert "date &#39;soon&#39; is not YYYY-MM-DD" in client.get("/history?since=soon").text


def test_standings_rate_every_finished_session_with_openskill(client, club):
    db = Database.open(club[0])
    table = standings(db.sessions(), Scales(db))
    assert sorted(table) == sorted(GAMES)  # the unfinished Block match is not rated
    buki = club[1][GAMES.index("buki")]
    chips = {row["player"]: row["points"] for row in table["buki"]}  # half-chips read as chips
    assert chips == {name: score_value(buki.scores[seat], 2) for seat, name in enumerate(("ann", "bob", "cy", "di")[: buki.players])}
    muggins = {row["player"]: row for row in table["muggins"]}
    finals = [s for s in club[1] if s.ruleset.name == "muggins"]
    for seat, name in enumerate(("ann", "bob")):
        assert muggins[name]["played"] == 2
        assert muggins[name]["points"] == sum(s.scores[seat] for s in finals)
        assert muggins[name]["wins"] == sum(s.scores[seat] == max(s.scores) for s in finals)
    rows = table["sebastopol"]
    assert [r["ordinal"] for r in rows] == sorted((r["ordinal"] for r in rows), reverse=True)
    winner = club[1][GAMES.index("sebastopol")]
    assert rows[0]["player"] == ("ann", "bob", "cy", "di")[winner.scores.index(max(winner.scores))]
    page = client.get("/history/standings").text
    assert page.count('<section class="standings"') == len(GAMES)


def test_a_player_page_lists_games_and_sessions(client, club):
    page = client.get("/history/player/cy").text
    moon = club[1][GAMES.index("moon")]
    cells = re.sub(r' data-label="[^"]*"', "", page)  # each cell names its column for a phone's card
    assert "<td>moon</td><td>1</td><td>1</td><td>%d</td><td>%d</td>" % (moon.scores[2] == max(moon.scores), moon.scores[2]) in cells
    assert page.count('href="/history/session/') == sum(1 for s in Database.open(club[0]).sessions() if "cy" in s["players"])
    response = client.get("/history/player/nobody")
    assert response.status_code == 404 and "no session with a player named &#39;nobody&#39;" in response.text


def test_missing_session_and_missing_database_are_explained(client, tmp_path):
    response = client.get("/history/session/99")
    assert response.status_code == 404 and "no session 99 in" in response.text
    empty = TestClient(create_app(Hub(), str(tmp_path / "none.db")))
    response = empty.get("/history")
    assert response.status_code == 404 and "No database at" in response.text
    assert empty.get("/").status_code == 200  # the live page needs no database
    assert not os.path.exists(tmp_path / "none.db")


def position(name, seed, stop):
    """A random match of ``name`` played until ``stop(state)``; (state, replay of its journal)."""
    from engine.families_play import Rng, choose
    from tiletable.record import REC_ACTION, REC_SCORE
    from tiletable_host.sessionlog import replay_records

    state = find_ruleset(name).new_state()
    rng = Rng(seed)
    records = []
    while not stop(state):
        events = state.play(choose(state, rng, bid_rarely=True))
        records.append((len(records) + 2, REC_ACTION, state.action_str(state.history[-1]).encode()))
        records.extend((len(records) + 2, REC_SCORE, ("%d %d %s" % (e.seat, e.points, e.rule)).encode()) for e in events)
    names = ["ann", "bob", "cy", "di"][: state.players]
    return state, replay_records({"players": names}, state.ruleset, records)


def snapshot(state):
    to_act = state.current_player()
    return {"ruleset": state.ruleset.name, "hand": state.hand_number, "players": state.players, "scores": list(state.scores), "to_act": to_act if to_act >= 0 else "chance", "mode": "game"}


def hand_plays(state):
    """The plays (sets included) of the hand in progress, in order."""
    fresh = state.ruleset.new_state(state.players)
    plays = []
    for action in state.history:
        hand = fresh.hand_number
        fresh.apply(action)
        if fresh.hand_number != hand:
            plays = []
        elif kind_of(action) == K_PLAY:
            plays.append(action)
    return plays


@pytest.mark.parametrize("name", ["muggins", "sniff", "sebastopol", "matador", "bergen"])
def test_the_line_is_drawn_tile_by_tile_with_its_open_ends(name):
    for seed in range(1, 6):
        state, replay = position(name, seed, lambda s: len(hand_plays(s)) >= 9 or s.is_over())
        line = line_picture(state)
        arms = [line[arm] for arm in ("L", "R", "S1", "S2")]
        assert 1 + sum(len(a) for a in arms) == len(hand_plays(state))
        ends = {"L": line["set"][0], "R": line["set"][1]}
        if name != "matador":  # equal matching: each tile's inner half is the end it covered
            for arm, start in (("L", line["set"][0]), ("R", line["set"][1])):
                end = start
                for inner, out, _ in line[arm]:
                    assert inner == end
                    end = out
                ends[arm] = end
            for slot, value in line["open"].items():
                if slot in ("L", "R"):
                    assert value == ends[slot]
        assert set(line["open"]) == {s for i, s in enumerate(("L", "R", "S1", "S2")) if state.layout.is_open(i)}
        if line["S1"] or line["S2"]:
            assert line["spinner"] is not None
        if name == "sebastopol":  # the 6-6 set is the spinner, laid crosswise
            assert line["set"] == [6, 6, True] and line["spinner"] == ["set", 0]
        pic = picture(snapshot(state), ["ann", "bob", "cy", "di"][: state.players], replay)
        assert pic["table"]["boneyard"] == state.stock and pic["table"]["ends"] == state.layout.text()


def test_moon_column_and_dasan_pictures_show_what_is_on_the_table():
    state, replay = position("moon", 3, lambda s: len(s.trick) == 2)
    pic = picture(snapshot(state), ["ann", "bob", "cy"], replay)
    assert [p["seat"] for p in pic["table"]["trick"]] == [seat for seat, _ in state.trick]
    assert pic["table"]["tricks"] == state.tricks and pic["last"]["description"].split()[0] in ("ann", "bob", "cy")
    assert pic["table"]["taken"] is None  # a trick in progress: nothing just taken
    state, replay = position("moon", 3, lambda s: s.trick_number == 2 and not s.trick)  # the second trick just taken
    taken = picture(snapshot(state), ["ann", "bob", "cy"], replay)["table"]["taken"]
    last_three = [a for a in replay.actions() if a.actor is not None][-3:]
    assert [t["tile"] for t in taken["tiles"]] == [a.text.split("/")[0] for a in last_three]
    assert [t["seat"] for t in taken["tiles"]] == [a.actor for a in last_three] and taken["winner"] == state.leader
    state, replay = position("columns", 3, lambda s: sum(1 for c in s.columns if c) == 3 and s.last_battle)
    pic = picture(snapshot(state), ["ann", "bob"], replay)["table"]
    assert pic["piles"] == [state.pile_value(i) for i in range(3)] and len(pic["battle"]) == len(state.last_battle)
    state, replay = position("dasan", 3, lambda s: s.last_player is not None and s.cards_played >= 6)
    pic = picture(snapshot(state), ["ann", "bob", "cy"], replay)
    assert pic["table"]["to_beat"]["seat"] == state.last_player
    assert "+".join(pic["table"]["to_beat"]["cards"]) == [e.text for e in replay.actions() if e.actor == state.last_player][-1]
    assert pic["last"]["scores"] == [] or all(s["player"] in ("ann", "bob", "cy") for s in pic["last"]["scores"])


def test_the_live_picture_counts_seats_from_1_and_keeps_the_tables_words():
    """Turn, prompt, players and error agree on who is who, with names and without."""
    snap = {"ruleset": "muggins", "hand": 0, "players": 3, "scores": [0, 0, 0], "to_act": 1, "mode": "game",
            "prompt": "P2 to play", "last_error": [8, "P3 has nothing to claim"]}
    for names in (None, ["P1", "P2", "P3"]):
        pic = picture(snap, names, None)
        assert pic["players"] == ["P1", "P2", "P3"] and pic["turn"] == "P2 to act"
        assert pic["prompt"] == "P2 to play" and pic["error"] == "Err8 P3 has nothing to claim"
    named = picture(dict(snap, prompt="bob to play", last_error=[8, "cy has nothing to claim"]), ["ann", "bob", "cy"], None)
    assert named["turn"] == "bob to act" and named["prompt"] == "bob to play" and named["error"] == "Err8 cy has nothing to claim"
    cleared = dict(snap)
    del cleared["last_error"]  # the table clears it at the next accepted play
    assert picture(cleared, None, None, event_error=None)["error"] == ""


def test_the_live_picture_names_unnamed_seats_in_the_last_play_from_1():
    state, replay = position("muggins", 2, lambda s: any(e.seat == 1 for e in s.score_events))
    replay.session["players"] = []
    pic = picture(snapshot(state), None, replay)
    players = {"P1", "P2"}
    assert pic["last"]["description"].split()[0] in players and "P0" not in pic["last"]["description"]
    assert all(s["player"] in players and "P0" not in s["detail"] for s in pic["last"]["scores"])


def first_event(url, timeout=5.0):
    """The data of the first server-sent event from ``url``."""
    with urllib.request.urlopen(url, timeout=timeout) as stream:
        for raw in stream:
            line = raw.decode().strip()
            if line.startswith("data:"):
                return json.loads(line[5:])
    return None


def test_the_event_stream_sends_every_table_at_each_change(club):
    hub = Hub()
    server = WebServer(hub, club[0])
    url = server.start()
    try:
        hub.publish("one", {"status": "idle", "text": "menu"})
        hub.publish("two", {"status": "unplugged", "text": "no table"})
        tables = first_event(url + "live/stream")
        assert [(t["name"], t["status"]) for t in tables] == [("one", "idle"), ("two", "unplugged")]
        version = hub.version
        hub.publish("one", {"status": "idle", "text": "menu"})
        assert hub.version == version  # nothing changed: nothing sent
    finally:
        server.stop()


def test_two_watched_tables_one_missing_one_unplugged_and_plugged_back(tmp_path):
    sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "tools"))
    from live_browser import start_game, wait_for
    from tiletable_host.connect import open_link
    from tiletable_host.simtable import SimulatedTable

    table = SimulatedTable.start(root=str(tmp_path / "table"))
    hub = Hub()
    missing = str(tmp_path / "ttyACM9")
    newer = str(tmp_path / "newer.db")  # a database of a later schema: the tables are watched all the same
    Database.open(newer).close()
    import sqlite3

    with sqlite3.connect(newer) as conn:
        conn.execute("PRAGMA user_version = 99")
    watchers = [PortWatcher(hub, port, newer, timeout=0.5) for port in (table.port, missing)]
    try:
        start_game(open_link, table.port, "muggins", ["ann", "bob"])
        for watcher in watchers:
            watcher.start()
        status = lambda: sorted((t["name"], t.get("status")) for t in hub.tables()[1])  # noqa: E731
        assert wait_for(lambda: status() == sorted([(table.port, "game"), (missing, "unplugged")]))
        table.bridge.process.kill()  # unplugged: nothing answers on the port any more
        assert wait_for(lambda: status() == sorted([(table.port, "unplugged"), (missing, "unplugged")]))
        assert all("waiting for it" in t["text"] for t in hub.tables()[1])
        table.control.close()
        table.restart()  # plugged back: the same port, the game resumed from the journal
        assert wait_for(lambda: status() == sorted([(table.port, "game"), (missing, "unplugged")]))
        assert [t["players"] for t in hub.tables()[1] if t["name"] == table.port] == [["ann", "bob"]]
    finally:
        for watcher in watchers:
            watcher.stop()
        table.stop()


def test_serve_prints_its_address_and_stops_on_ctrl_c(club):
    proc, line = serve_process("--no-table", "--db", club[0])
    try:
        match = re.match(r"live view and history on (http://127\.0\.0\.1:\d+/) \(tables: none; database (.*)\); Ctrl-C stops$", line.strip())
        assert match, line
        with urllib.request.urlopen(match.group(1) + "history", timeout=5) as response:
            assert response.status == 200 and b"<h1>Sessions</h1>" in response.read()
    finally:
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=15)
    assert proc.returncode == 130 and err.strip().endswith("tiletable: serve: interrupted")


def test_run_prints_the_address_of_its_live_view(capsys, tmp_path):
    status, out, err = tiletable(capsys, ["run", "--hands", "1", "--db", str(tmp_path / "run.db")])
    assert status == 0, err
    assert re.search(r"^live view in a browser: http://127\.0\.0\.1:\d+/$", out, re.M)


def test_serve_on_a_port_in_use_says_so_in_one_line(capsys, tmp_path):
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        status, out, err = tiletable(capsys, ["serve", "--no-table", "--http-port", str(port), "--db", str(tmp_path / "t.db")])
    assert status == 1 and out == ""
    assert err == "tiletable: serve: cannot listen on 127.0.0.1:%d (Address already in use); pass another --http-port\n" % port
