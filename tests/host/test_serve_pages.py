"""The club's pages as people use them: a session to replay play by play (one numbering, the
board after every play, each hand's score sheet, the result and chance steps in words), the
big screen for the room, and every page on a phone, a desktop and the big screen, checked in
headless Chromium (tests/browser/live_page.mjs) for width, text size, touch targets and
axe-core's serious and critical findings."""
import json
import os
import re
import sys

import pytest
from starlette.testclient import TestClient

from club_night import NIGHT, club_night
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
