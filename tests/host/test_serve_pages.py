"""The club's pages as people use them: a session to replay play by play (one numbering, the
board after every play, each hand's score sheet, the result and chance steps in words), the
big screen for the room, a night's event and a league season, and every page on a phone, a desktop and the big screen, checked in
headless Chromium (tests/browser/live_page.mjs) for width, text size, touch targets and
axe-core's serious and critical findings."""
import json
import os
import re
import shutil
import sys

import pytest
from starlette.testclient import TestClient

from club_night import NIGHT, club_events, club_night
from tiletable_host.db import Database
from tiletable_host.people import score_value
from tiletable_host.serve.app import create_app
from tiletable_host.serve.history import chance_words, session_story
from tiletable_host.serve.live import Hub
from tiletable_host.sessionlog import replay_session
from tiletable_host.views import table_picture

NAMES = ["ann", "bob", "cy"]


@pytest.fixture(scope="module")
def night(tmp_path_factory):
    return club_night(tmp_path_factory.mktemp("night"))


@pytest.fixture
def client(night):
    return TestClient(create_app(Hub(), night))


@pytest.fixture(scope="module")
def club(night, tmp_path_factory):
    """The night's database with the night as an event and a league season (``club_events``)."""
    folder = tmp_path_factory.mktemp("club")
    return club_events(folder, shutil.copy(night, str(folder / "club.db")))


def frames_of(page):
    return json.loads(re.search(r'<script type="application/json" id="frames">(.*?)</script>', page, re.S).group(1))


@pytest.mark.parametrize("number", range(1, len(NIGHT) + 1))
def test_a_session_numbers_its_plays_once_and_has_the_board_after_each(client, night, number):
    page = client.get("/history/session/%d" % number).text
    db = Database.open(night)
    replay = replay_session(db, number)
    db.close()
    story = frames_of(page)
    frames = story["frames"]
    assert story["players"] == replay.session["players"]
    numbers = [int(n) for n in re.findall(r'<li id="play-(\d+)"', page)]
    assert numbers == list(range(1, len(frames) + 1)) and [f["play"] for f in frames] == numbers
    plays = "".join(re.findall(r'<ol class="plays">(.*?)</ol>', page, re.S))
    assert 'class="seq"' not in page and not re.search(r"(?<!&)#\d+", re.sub(r'href="#play-\d+"', "", plays))  # no second numbering
    assert "chance:" not in page and not re.search(r"\bD\d:\d-\d", page)  # chance steps in words
    scale = 2 if replay.ruleset.name == "buki" else 1
    assert frames[-1]["scores"] == [score_value(s, scale) for s in replay.state.scores]
    assert frames[-1]["table"] == json.loads(json.dumps(table_picture(replay.state, replay)))  # the board as the table stood


def test_each_hands_score_sheet_adds_up_to_the_scores_after_it(night):
    db = Database.open(night)
    for number in range(1, len(NIGHT) + 1):
        replay = replay_session(db, number)
        hands, _ = session_story(replay)
        before = [0] * len(replay.session["players"])
        for hand in hands:
            sheet = hand["sheet"]
            assert all(row["play"] for row in sheet["rows"])  # every scoring play links to the board
            if hand["scores"] is not None:
                assert [b + t for b, t in zip(before, sheet["totals"])] == hand["scores"], (number, hand["number"])
                before = hand["scores"]
    db.close()


def test_the_result_is_said_in_words(client, night):
    db = Database.open(night)
    first = db.session(1)
    db.close()
    winner = first["result"]["winners"][0]
    scores = first["result"]["scores"]
    words = "%s won %d-%d" % (first["players"][winner], scores[winner], scores[1 - winner])
    assert '<p class="result" id="result">%s</p>' % words in client.get("/history/session/1").text
    assert ">%s</td>" % words in client.get("/history").text
    assert '<p class="result" id="result">in progress</p>' in client.get("/history/session/4").text


def test_chance_steps_are_told_in_words():
    assert chance_words(["P0 receives 1-2", "P1 receives 3-4", "P0 receives 5-5"], NAMES, True) == "the deal"
    assert chance_words(["P1 is dealt 4-6", "P0 is dealt 1-1", "the widow is dealt (2-6)"], NAMES, True) == "the deal; the widow is dealt (2-6)"
    assert chance_words(["P0 receives 4-4"], NAMES, False) == "ann draws 4-4"
    assert chance_words(["P1 draws 1-3", "P1 draws 0-2", "P2 draws 3-6"], NAMES, False) == "bob draws 1-3 0-2; cy draws 3-6"
    assert chance_words(["the field turns up 5-6", "the field turns up 5-5"], NAMES, False) == "the field turns up 5-6 5-5"


def test_tonights_leaderboard_counts_the_matches_finished_in_the_last_hours(client):
    night = client.get("/night").json()
    assert night["hours"] == 12
    rows = night["rows"]
    # last week's muggins and the sniff match in progress do not count
    assert {r["player"]: r["played"] for r in rows} == {"ann": 5, "bob": 5, "cy": 1}
    assert sum(r["wins"] for r in rows) == 5  # a winner a match
    assert [(r["wins"], -r["played"]) for r in rows] == sorted([(r["wins"], -r["played"]) for r in rows], reverse=True)


def test_a_table_back_in_its_menu_shows_no_board():
    from tiletable_host.serve.live import picture

    snap = {"mode": "menu", "menu": ["muggins", 2], "ruleset": "muggins", "players": 2, "hand": 3, "scores": [201, 150], "to_act": "over"}
    assert picture(snap, ["ann", "bob"], None) == {"status": "idle", "text": "Free: muggins for 2 players chosen in its menu"}
    assert picture(dict(snap, mode="over"), ["ann", "bob"], None)["status"] == "game"  # the final scores on show


# Events and leagues ------------------------------------------------------------------------


def test_an_events_page_ranks_players_and_partners_and_lists_each_rounds_tables(club):
    client = TestClient(create_app(Hub(), club))
    listing = _visible(client.get("/events").text)
    assert re.search(r"Friday night \d{4}-\d\d-\d\d night 2 6", listing), listing
    page = client.get("/events/1").text
    text = _visible(page)
    assert "A night on " in text and "2 rounds, 6 sessions" in text
    ranking = re.findall(r'<td data-label="Place">(\d+)</td><td data-label="Player">(.*?)</td><td data-label="Played">(\d+)</td>'
                         r'<td data-label="Wins">(\d+)</td>', page)
    assert [(int(place), re.sub(r"<[^>]+>", "", who), int(wins)) for place, who, _, wins in ranking][:2] == [(1, "ann", 3), (2, "bob", 2)]
    pairs = re.findall(r'<td data-label="Partners">(.*?)</td>', page)
    assert [re.sub(r"<[^>]+>", "", p).replace("&amp;", "&") for p in pairs] == ["eve & gus", "dee & fay"]
    assert '<a href="/history/player/dee">dee</a> &amp; <a href="/history/player/fay">fay</a>' in page  # each partner's page
    assert re.search(r"Round 2 Table Session Game Players Result Table 1 2 muggins ann , bob .*Table 4 8 muggins dee , eve , fay , gus", text)
    assert client.get("/events/9").status_code == 404


def test_a_league_page_has_its_table_and_each_fixtures_legs_linked_to_their_sessions(club):
    client = TestClient(create_app(Hub(), club))
    assert "Winter league 2 singles, 1 doubles" in _visible(client.get("/leagues").text)
    page = client.get("/leagues/1").text
    rows = re.findall(r'<tr><td data-label="Place">(\d+)</td><td data-label="Team">([^<]+)</td>((?:<td data-label="[^"]+">\d+</td>)+)</tr>', page)
    table = [(int(place), team, [int(n) for n in re.findall(r">(\d+)<", cells)]) for place, team, cells in rows]
    assert table == [(1, "Black Bull", [1, 1, 0, 0, 2, 2]), (2, "Red Lion", [1, 0, 0, 1, 1, 0]), (3, "Crown", [0, 0, 0, 0, 0, 0])]
    text = _visible(page)
    assert "Red Lion 1–2 Black Bull" in text and "Black Bull 0–0 Crown (not finished)" in text
    assert re.findall(r'<td data-label="Session"><a href="/history/session/(\d+)">', page) == ["1", "2", "8"]
    assert "1, singles ann bob ann won 1" in text and "3, doubles dee &amp; fay eve &amp; gus eve &amp; gus won 8" in text
    assert "1, singles bob cy not played yet –" in text  # a leg without a session
    assert client.get("/leagues/5").status_code == 404


# The register's pages ----------------------------------------------------------------------


def _visible(page):
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page.split("<main>")[1])).replace("&#39;", "'")


def test_the_index_of_players_lists_the_register_with_sessions_wins_and_a_rating(client, night):
    page = client.get("/history/players")
    assert page.status_code == 200
    rows = re.findall(r'<tr><td data-label="Player"><a href="/history/player/(\w+)">\w+</a></td><td data-label="Sessions">(\d+)</td>'
                      r'<td data-label="Wins">(\d+)</td>\s*<td data-label="Rating">([^<]*)</td>', page.text)
    assert [(name, int(played)) for name, played, _, _ in rows] == [("ann", 7), ("bob", 7), ("cy", 1)]
    db = Database.open(night)
    finished = [s for s in db.sessions() if s["result"]]
    db.close()
    for name, _, wins, rating in rows:
        assert int(wins) == sum(s["players"].index(name) in s["result"]["winners"] for s in finished if name in s["players"])
    assert rows[0][3].endswith(" in muggins") and rows[2][3].endswith(" in moon")  # the game each finished most
    assert '<a href="/history/players">Players</a>' in page.text  # in every page's navigation


def test_a_players_page_has_games_wins_average_hand_and_the_rating_in_words(client, night):
    text = _visible(client.get("/history/player/ann").text)
    assert re.search(r"muggins 3 3 \d 454 17\.5 over 26 hands -?\d+\.\d", text), text
    sentence = re.search(r"A muggins rating of (-?\d+\.\d) means: after 3 finished matches, the best guess of ann's skill is"
                         r" (\d+\.\d), give or take (\d+\.\d), and (-?\d+\.\d) is the low end of that", text)
    assert sentence and abs(float(sentence.group(2)) - float(sentence.group(3)) - float(sentence.group(1))) < 0.11
    assert "μ" not in text and "σ" not in text and "ordinal" not in text
    assert "μ" not in _visible(client.get("/history/standings").text)


def test_each_hands_points_add_up_to_the_final_scores(night):
    from tiletable_host.serve.history import hand_totals

    db = Database.open(night)
    try:
        for session in db.sessions():
            replay = replay_session(db, session["id"])
            totals = hand_totals(replay)
            scale = 2 if replay.ruleset.name == "buki" else 1
            if session["result"]:
                assert [sum(hand[seat] for hand in totals) for seat in range(len(session["players"]))] == [
                    score_value(s, scale) for s in replay.state.scores], session["id"]
            else:  # the hand it stopped in is no hand of anyone's average
                assert len(totals) == replay.state.hand_number
    finally:
        db.close()


def _play_muggins(folder, device_id, players, seed):
    """A whole muggins match of ``players`` journalled by a table of its own; returns it."""
    from engine.families_play import Rng, choose
    from tiletable.engine.rulesets import find_ruleset
    from tiletable.runtime.session import Session
    from tiletable_host.transport_local import LocalTransport

    device = LocalTransport(str(folder / device_id))
    device.server.device = device_id
    ruleset = find_ruleset("muggins")
    state = ruleset.new_state(len(players))
    session = Session.start(device.journal, ruleset, state, list(players), "test", 1700000000, 0)
    choice = Rng(seed)
    while not state.is_over():
        session.apply(choose(state, choice), 1000 * len(state.history))
    device.journal.end_session(session.result("over"))
    device.hello()
    return device


def test_a_merged_name_plays_under_the_registers_name_on_every_page(tmp_path, night):
    import shutil

    from tiletable_host.pull import pull_journal

    db_path = str(tmp_path / "club.db")
    shutil.copy(night, db_path)
    db = Database.open(db_path)
    try:
        pull_journal(_play_muggins(tmp_path, "tiletable-e669", ["annie", "bob"], 3), db)
        db.add_player("Dee Smith")
        assert db.merge_players("annie", "ann") == 1
        db.rename_player("bob", "Bob Jones")
        assert [s["players"] for s in db.sessions()][-1] == ["annie", "bob"]  # the record as played
    finally:
        db.close()
    client = TestClient(create_app(Hub(), db_path))
    moved = client.get("/history/player/annie", follow_redirects=False)
    assert moved.status_code == 301 and moved.headers["location"] == "/history/player/ann"
    assert client.get("/history/player/bob", follow_redirects=False).headers["location"] == "/history/player/Bob%20Jones"
    page = client.get("/history/player/annie").text
    ann = _visible(page)
    assert "Also played as annie: those sessions are ann's too." in ann and re.search(r"muggins 4 4 ", ann)
    assert page.count('<a href="/history/session/') == 8 and '<a href="/history/session/8">8</a>' in page  # played as annie
    assert 'ann, <a href="/history/player/Bob%20Jones">Bob Jones</a></td><td data-label="Result">' in page
    index = _visible(client.get("/history/players").text)
    assert re.search(r"Bob Jones 8 \d+ -?\d+\.\d in muggins bob ", index) and re.search(r"Dee Smith 0 0 – – ", index)
    assert re.search(r"ann 8 \d+ -?\d+\.\d in muggins annie ", index)
    dee = client.get("/history/player/Dee%20Smith")
    assert dee.status_code == 200 and "No session yet: Dee Smith is in the register" in dee.text
    sessions = client.get("/history?player=annie").text
    assert sessions.count('<a href="/history/session/') == 8  # all of ann's
    standings = client.get("/history/standings").text
    assert "/history/player/annie" not in standings and ">Bob Jones</a>" in standings
    assert client.get("/history/player/nobody").status_code == 404


# In a real browser ------------------------------------------------------------------------

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tools"))
import club_pages  # noqa: E402
import live_browser  # noqa: E402
from test_serve_browser import _missing  # noqa: E402

browser = pytest.mark.skipif(_missing() is not None, reason=_missing() or "")


@browser
@pytest.mark.parametrize("size", club_pages.SIZES)
def test_every_page_fits_the_screen_with_readable_text_big_targets_and_no_axe_finding(club, size):
    lines, errors = club_pages.audit(club_pages.room(3), club, size, None, club_pages.PAGES)
    assert errors == []
    assert {line["name"]: club_pages.findings(line) for line in lines} == {name: [] for name in club_pages.PAGES}
    seen = {line["name"]: line for line in lines}
    assert [t["name"] for t in seen["live"]["tables"]] == ["/dev/ttyACM0", "/dev/ttyACM1", "/dev/ttyACM2"]
    assert all("Table %d" % n in seen["live"]["text"] for n in (1, 2, 3))
    assert re.search(r"\n(ann|bob) won \d+-\d+\n", seen["session"]["text"]) and "Play 120 of " in seen["session"]["text"]
    assert "the deal" in seen["session"]["text"] and "Score sheet, hand 1" in seen["session"]["text"]
    assert re.search(r"Play 40 of \d+ · hand \d+", seen["session-moon"]["text"])  # a link to a play opens the board there
    assert seen["player"]["width"] == seen["sessions"]["width"] == seen["standings"]["width"] == int(size.split("x")[0])
    assert seen["players"]["width"] == int(size.split("x")[0]) and re.search(r"\nann\s+7\s+3\s", seen["players"]["text"])
    assert "A muggins rating of " in seen["player"]["text"] and "μ" not in seen["player"]["text"] + seen["standings"]["text"]
    assert all(seen[name]["width"] == int(size.split("x")[0]) for name in ("events", "event", "leagues", "league"))
    assert re.search(r"\n1\s+ann\s+5\s+3\s", seen["event"]["text"]) and "eve & gus" in seen["event"]["text"]
    assert re.search(r"\n1\s+Black Bull\s+1\s+1\s+0\s+0\s+2\s+2\n", seen["league"]["text"]) and "not played yet" in seen["league"]["text"]


@browser
@pytest.mark.parametrize("count", [1, 3, 12])
def test_the_big_screen_shows_every_table_readable_from_afar_beside_tonights_leaderboard(night, count):
    lines, errors = club_pages.audit(club_pages.room(count), night, "1920x1080", None, {"big": "?big=1"})
    assert errors == []
    [line] = lines
    assert line["axe"] == [] and line["width"] == 1920
    tables, board = line["tables"], line["leaderboard"]
    assert len(tables) == count
    for number, table in enumerate(tables, 1):
        assert table["text"].startswith("Table %d\n" % number)  # its name, not its port
        assert 0 <= table["top"] and table["bottom"] <= 1080 and table["right"] <= 1920 - 300  # all above the fold, the leaderboard beside
        if number == 3:  # in its menu: a quiet tile, no last board
            assert table["status"] == "idle" and table["scores"] == [] and not table["board"] and "Free" in table["text"]
            continue
        assert table["status"] == "game" and len(table["scores"]) >= 2
        assert all(s["size"] >= 64 and s["bottom"] <= table["bottom"] for s in table["scores"]), table  # none cut off
        assert re.search(r"hand \d+ · ", table["text"]) and table["board"] == (count <= 4)
    assert board["bottom"] <= 1080 and board["text"].startswith("Tonight\n")
    assert re.search(r"\nann\nwon \d of 5\n", board["text"]) and re.search(r"\ncy\nwon \d of 1", board["text"])


@browser
def test_the_session_board_steps_with_the_keys_the_buttons_and_a_plays_link(night, client):
    frames = frames_of(client.get("/history/session/1").text)["frames"]
    last = len(frames)
    server = club_pages.WebServer(Hub(), night)
    url = server.start()
    try:
        lines = live_browser.browser("replay", url + "history/session/1")
    finally:
        server.stop()
    assert lines[-1] == {"errors": []}
    steps = [(line["how"], line["play"]) for line in lines[:-1]]
    assert steps == [("open", 1), ("End", last), ("ArrowLeft", last - 1), ("Home", 1), ("ArrowRight", 2), ("ArrowRight", 3),
                     ("next", 4), ("previous", 3), ("last", last), ("first", 1), ("link", 7)]
    for line in lines[:-1]:
        frame = frames[line["play"] - 1]
        assert line["caption"] == "Play %d of %d · hand %d · %s" % (line["play"], last, frame["hand"], frame["text"])
        assert line["current"] == "play-%d" % line["play"]
        assert line["hash"] == ("" if line["how"] == "open" else "#play-%d" % line["play"])
        assert "Open ends: %s · boneyard: %d" % (frame["table"]["ends"], frame["table"]["boneyard"]) in line["board"]


def test_a_session_page_kept_rendered_shows_the_plays_a_later_pull_adds(tmp_path):
    from engine.families_play import Rng, choose
    from tiletable.engine.rulesets import find_ruleset
    from tiletable.runtime.session import Session
    from tiletable_host.pull import pull_journal
    from tiletable_host.transport_local import LocalTransport

    device = LocalTransport(str(tmp_path / "device"))
    ruleset = find_ruleset("muggins")
    state = ruleset.new_state(2)
    session = Session.start(device.journal, ruleset, state, ["ann", "bob"], "test", 1700000000, 0)
    choice = Rng(4)
    db_path = str(tmp_path / "t.db")
    client = TestClient(create_app(Hub(), db_path))
    shown = []
    for plays in (30, 30):
        for _ in range(plays):
            session.apply(choose(state, choice), 1000 * len(state.history))
        device.journal.flush()
        db = Database.open(db_path)
        device.hello()
        pull_journal(device, db)
        db.close()
        page = client.get("/history/session/1").text
        assert client.get("/history/session/1").text == page  # asked again: the same page
        shown.append(len(frames_of(page)["frames"]))
    assert shown[0] < shown[1]


@browser
def test_the_big_screens_leaderboard_follows_a_match_pulled_during_the_night(tmp_path):
    import subprocess
    import time

    from club_night import play_session
    from tiletable_host.pull import pull_journal
    from tiletable_host.transport_local import LocalTransport

    db_path = club_night(tmp_path)
    hub = club_pages.room(2, free=())
    server = club_pages.WebServer(hub, db_path)
    url = server.start()
    proc = subprocess.Popen(["node", live_browser.BROWSER_SCRIPT, "wait", url + "?big=1", "#leaderboard"], cwd=ROOT,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        proc.stdout.readline()
        proc.stdin.write("won 3 of 5\n")  # tonight so far: ann's three wins
        proc.stdin.flush()
        before = json.loads(proc.stdout.readline())["text"]
        assert "\ndi\n" not in before
        device = LocalTransport(str(tmp_path / "table-4"))
        device.server.device = "tiletable-e664"
        play_session(device.journal, "buki", 21, time.time() - 600, True)  # ann, bob, cy and di
        db = Database.open(db_path)
        device.hello()
        pull_journal(device, db)
        db.close()
        [first] = [p for p in hub.tables()[1] if p["name"] == "/dev/ttyACM0"]
        hub.publish("/dev/ttyACM0", dict(first, hand=first["hand"] + 1))  # a table moves on
        proc.stdin.write("di\n")
        proc.stdin.flush()
        after = json.loads(proc.stdout.readline())["text"]
        out, _ = proc.communicate("", timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
        server.stop()
    assert json.loads(out.splitlines()[-1]) == {"errors": []}
    assert re.search(r"\ndi\nwon [01] of 1", after) and re.search(r"\ncy\nwon \d of 2", after), after


@browser
def test_on_a_phone_the_line_scrolls_to_the_end_each_play_went_on(night, client):
    frames = frames_of(client.get("/history/session/1").text)["frames"]

    def grew(n, arm):  # play n (from 1) added a tile to arm of a line of 8 tiles or more
        before, now = frames[n - 2]["table"]["line"], frames[n - 1]["table"]["line"]
        return before and now and len(now[arm]) > len(before[arm]) and len(now["L"]) + len(now["R"]) >= 7
    right = next(n for n in range(2, len(frames) + 1) if grew(n, "R"))
    left = next(n for n in range(right + 1, len(frames) + 1) if grew(n, "L") and frames[n - 1]["hand"] == frames[right - 1]["hand"])
    server = club_pages.WebServer(Hub(), night)
    url = server.start()
    try:
        lines = live_browser.browser("step", "%shistory/session/1#play-%d" % (url, right - 1), "390x844", "ArrowRight", *["ArrowRight"] * (left - right))
    finally:
        server.stop()
    assert lines[-1] == {"errors": []}
    at_right, at_left = lines[0], lines[-2]
    assert at_right["play"] == right and at_right["scrollWidth"] > at_right["clientWidth"]  # longer than a phone is wide
    assert at_right["scrollLeft"] + at_right["clientWidth"] >= at_right["scrollWidth"] - 1  # scrolled to its right end
    assert at_left["play"] == left and at_left["scrollLeft"] == 0
