"""Mexican Train on the club's pages, in headless Chromium at a phone's, a desktop's and the big
screen's size: a live table in the middle of a round and a session's replay draw the hub, the
trains by their players' names and the double to cover, fit the screen with text of 16 px and
more, and have no serious or critical axe-core finding (tools/club_pages.py)."""
import os
import sys

import pytest
from starlette.testclient import TestClient

from club_night import play_session
from test_serve_pages import frames_of
from tiletable_host.db import Database
from tiletable_host.pull import pull_journal
from tiletable_host.serve.app import create_app
from tiletable_host.serve.live import Hub
from tiletable_host.transport_local import LocalTransport

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tools"))
import club_pages  # noqa: E402
import live_browser  # noqa: E402
from test_serve_browser import _missing  # noqa: E402



@pytest.fixture(scope="module")
def train_night(tmp_path_factory):
    """A database with one Mexican Train match in progress (session 1), journalled by a table."""
    folder = tmp_path_factory.mktemp("train")
    device = LocalTransport(str(folder / "Table-1"))
    play_session(device.journal, "mexican-train", 21, 1700000000, False, actions=300)  # round 1 played out, round 2 begun
    device.set_name("Table 1")
    device.hello()
    db_path = str(folder / "club.db")
    db = Database.open(db_path)
    pull_journal(device, db)
    db.close()
    return db_path


def _frames(db_path):
    return frames_of(TestClient(create_app(Hub(), db_path)).get("/history/session/1").text)["frames"]


def _fullest_play(frames):
    """The play (from 1) after which round 1's trains hold the most tiles, and their count."""
    laid = [sum(train["laid"] for train in frame["table"]["trains"]) if frame["table"]["round"] == 1 else -1 for frame in frames]
    return laid.index(max(laid)) + 1, max(laid)


def test_the_session_page_has_the_trains_after_every_play(train_night):
    frames = _frames(train_night)
    assert all(frame["table"]["family"] == "train" for frame in frames)
    rounds = [frame["table"]["round"] for frame in frames]
    assert rounds == sorted(rounds) and rounds[0] == 1 and rounds[-1] == 2
    assert _fullest_play(frames)[1] > 10 and all(len(train["tail"]) <= 8 for frame in frames for train in frame["table"]["trains"])


def _train_room():
    """A live table in the middle of a round: a long train, a marker out, a double to cover."""
    hub = Hub()
    shown = live_browser.position_picture("mexican-train", 3, live_browser.POSITIONS["mexican-train"])
    hub.publish("/dev/ttyACM0", dict(shown, title="Table 1"))
    return hub


@pytest.mark.skipif(_missing() is not None, reason=_missing() or "")
@pytest.mark.parametrize("size", club_pages.SIZES)
def test_the_live_board_and_a_sessions_replay_fit_every_screen_with_no_axe_finding(train_night, size):
    frames = _frames(train_night)
    play = _fullest_play(frames)[0]
    pages = {"live": "", "session": "history/session/1#play-%d" % play}
    lines, errors = club_pages.audit(_train_room(), train_night, size, None, pages)
    assert errors == []
    assert {line["name"]: club_pages.findings(line) for line in lines} == {name: [] for name in pages}
    seen = {line["name"]: line["text"] for line in lines}
    live = seen["live"]
    assert "Engine 12-12 in the hub" in live and "ann's train" in live and "bob's train" in live and "Mexican train" in live
    assert "marker" in live and "open double: cover it" in live and "last 8 shown" in live
    frame = frames[play - 1]
    assert "Play %d of %d · hand %d · %s" % (play, len(frames), frame["hand"], frame["text"]) in seen["session"]
    assert "Round 1 of 13" in seen["session"] and "Tiles in hand: ann %d · bob %d" % tuple(frame["table"]["hands"]) in seen["session"]
