"""A Mexican Train session on the PC: pulled from a table's journal, ``show`` tells it with the
players' names and the tiles left in hand as the engine counted them, ``replay`` finds no
divergence, and its record exports and checks clean (docs/RECORD.md)."""
import re

import pytest

from cli import tiletable
from journal_games import play_whole_match
from tiletable_host.transport_local import LocalTransport


@pytest.fixture(scope="module")
def match(tmp_path_factory):
    """A whole match of mexican-train for ann and bob, pulled into a database; its path and final state."""
    root = tmp_path_factory.mktemp("train")
    device = LocalTransport(str(root / "device"))
    state = play_whole_match(device.journal, "mexican-train", seed=3)
    device.hello()
    from tiletable_host.db import Database
    from tiletable_host.pull import pull_journal

    db_path = str(root / "club.db")
    db = Database.open(db_path)
    pull_journal(device, db)
    db.close()
    return db_path, state


def test_show_names_the_players_and_counts_what_each_held_at_the_end(capsys, match):
    db_path, state = match
    status, out, err = tiletable(capsys, ["show", "1", "--db", db_path])
    assert (status, err) == (0, "")
    assert re.search(r"^  #\d+ +ann plays \d+-\d+ on (the Mexican train|ann's train|bob's train) \(open at \d+\)", out, re.M), out[:2000]
    assert not re.search(r"\bseat \d", out) and not re.search(r"\bP\d\b", out.split("\n", 2)[2])
    hands = re.findall(r"^ +(ann|bob) \+(\d+) hand: round (\d+), (out|left in hand [-\d ]+= \d+)$", out, re.M)
    events = [(("ann", "bob")[e.seat], str(e.points), e.detail) for e in state.score_events]
    assert [(who, points, "round %s, %s" % (round_number, left)) for who, points, round_number, left in hands] == events
    assert len(events) == 2 * 13 and out.rstrip().endswith("violations found at the reveal: none")
    assert "final scores: ann %d, bob %d" % tuple(state.scores) in out


def test_replay_finds_no_divergence(capsys, match):
    status, out, _ = tiletable(capsys, ["replay", "1", "--db", match[0]])
    assert status == 0 and out.rstrip().endswith("no divergence: final scores ann %d, bob %d" % tuple(match[1].scores))


def test_its_record_names_the_players_in_comments_and_checks_clean(capsys, match, tmp_path):
    record = str(tmp_path / "train.tgr")
    assert tiletable(capsys, ["export", "1", "--format", "record", "-o", record, "--db", match[0]])[0] == 0
    text = open(record, encoding="utf-8").read()
    assert "[Family train]" in text and re.search(r"^\d+-\d+>(M|T[01])  ; (ann|bob) plays ", text, re.M)
    assert "; seat " not in text
    status, out, _ = tiletable(capsys, ["check", record])
    assert status == 0 and out == "%s: record 1 (mexican-train, ann v bob: %d actions up to hand 13, rounds %d %d): clean\n" % (
        record, len(match[1].history), match[1].scores[0], match[1].scores[1])
