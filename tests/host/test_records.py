"""sessions, show, export, replay and plot on sessions pulled from a real journal."""
import csv
import io
import json
import re
import xml.etree.ElementTree as ET

import pytest

from cli import tiletable
from journal_games import play_into_journal
from tiletable.record import REC_SCORE
from tiletable_host.db import Database
from tiletable_host.transport_local import LocalTransport


@pytest.fixture
def pulled(capsys, tmp_path, db_target):
    """A database holding two finished Muggins matches and one unfinished, and their final states."""
    device = LocalTransport(str(tmp_path / "device"))
    states = [play_into_journal(device.journal, seed=seed) for seed in (1, 2)]
    states.append(play_into_journal(device.journal, "block", ("cy", "di"), seed=3, max_actions=30))
    db_path = db_target
    assert tiletable(capsys, ["pull", "--db", db_path], device)[0] == 0
    return db_path, states


def test_sessions_lists_each_session_with_its_result(capsys, pulled):
    db_path, states = pulled
    status, out, _ = tiletable(capsys, ["sessions", "--db", db_path])
    lines = out.splitlines()
    assert status == 0 and len(lines) == 4
    expected = "ann, bob / %s: ann %d, bob %d" % ((states[0].outcome().termination,) + tuple(states[0].scores))
    assert "muggins" in lines[1] and expected in lines[1]
    assert "2023-11-14 22:13 UTC" in lines[1]
    assert lines[3].endswith("cy, di / in progress")


def test_sessions_pads_its_columns_by_characters_as_python_does(tmp_path, db_target):
    """The listing is formatted by the database (SQLite's printf, PostgreSQL's format); a table
    named with accents lines up."""
    from tiletable.engine.rulesets import canonical_json
    from tiletable_host.sessions import ROW

    header = {"ruleset": "muggins", "hash": "0", "players": ["José", "李"], "time": 1700000000}
    db = Database.open(db_target)
    db.import_records("mesa-niño-ß", [(1, 1, canonical_json(header).encode())])
    (line,) = db.listing(ROW)
    db.close()
    expected = ROW.replace("!", "") % (1, "2023-11-14 22:13 UTC", "muggins", "mesa-niño-ß", 1, "José, 李", "in progress")
    assert line == expected


def test_show_explains_every_score_and_ends_with_the_final_scores(capsys, pulled):
    db_path, states = pulled
    status, out, _ = tiletable(capsys, ["show", "1", "--db", db_path])
    assert status == 0
    events = states[0].score_events
    for event in events:
        detail = event.detail.replace("P0", "ann").replace("P1", "bob")  # the engine counts seats from 0
        assert "%s %+d %s: %s" % (("ann", "bob")[event.seat], event.points, event.rule, detail) in out
    assert "\nhand %d\n" % (states[0].hand_number + 1) in out and "\nhand %d\n" % (states[0].hand_number + 2) not in out
    assert "final scores: ann %d, bob %d" % tuple(states[0].scores) in out
    assert "ann sets" in out or "bob sets" in out
    assert "players: P1 ann, P2 bob" in out and "P0" not in out
    assert "disagree" not in out


def test_a_seat_is_the_same_person_in_show_and_in_the_records_comments(capsys, tmp_path, db_target):
    """A game started at the table names its seats P1, P2: shown once, never renumbered; the
    record's actions and score comments count from 0 (docs/RECORD.md), its ``;`` comments as show."""
    device = LocalTransport(str(tmp_path / "device"))
    play_into_journal(device.journal, "muggins", ("P1", "P2"), seed=1, tenths_apart=7)
    play_into_journal(device.journal, "sebastopol", ("ann", "bob", "cy", "di"), seed=2, max_actions=60, tenths_apart=7)
    db_path = db_target
    assert tiletable(capsys, ["pull", "--db", db_path], device)[0] == 0
    for session, players, first in (("1", "P1, P2", "P1 receives "), ("2", "P1 ann, P2 bob, P3 cy, P4 di", "ann receives ")):
        out = tiletable(capsys, ["show", session, "--db", db_path])[1]
        assert "\nplayers: %s\n" % players in out and "P0" not in out
        chance = [line.split(" chance: ", 1)[1] for line in out.splitlines() if " chance: " in line]
        assert chance[0].startswith(first) and not any(re.search(r"\b[A-Z]+[0-9]:", line) for line in chance)
        shown = dict(re.findall(r"^  #\d+ +(\d+:\d\d\.\d) +(.*)$", out, re.M))
        record = tiletable(capsys, ["export", session, "--format", "record", "--db", db_path])[1]
        notes = re.findall(r"^\+(\d+:\d\d\.\d) .*?  ; (.*)$", record, re.M)
        assert len(notes) > 20 and all(shown[at] == note for at, note in notes), notes[:3]


def test_show_of_an_unknown_session_names_it(capsys, pulled):
    status, _, err = tiletable(capsys, ["show", "99", "--db", pulled[0]])
    assert status == 1 and err == "tiletable: show: no session 99 in %s (see `tiletable sessions`)\n" % pulled[0]


def test_replay_agrees_with_the_table(capsys, pulled):
    db_path, states = pulled
    status, out, _ = tiletable(capsys, ["replay", "2", "--db", db_path])
    assert status == 0
    assert out.splitlines()[-1] == "no divergence: final scores ann %d, bob %d" % tuple(states[1].scores)


def test_replay_reports_a_score_the_engine_does_not_give(capsys, pulled):
    db_path, _ = pulled
    db = Database.open(db_path)
    seq, payload = db.execute("SELECT seq, payload FROM records WHERE session = 1 AND type = ? ORDER BY seq LIMIT 1", (REC_SCORE,)).fetchone()
    seat, points, rule = bytes(payload).decode().split(" ", 2)
    db.execute("UPDATE records SET payload = ? WHERE seq = ?", (("%s %d %s" % (seat, int(points) + 5, rule)).encode(), seq))
    db.close()
    status, out, err = tiletable(capsys, ["replay", "1", "--db", db_path])
    assert status == 1
    assert err == "tiletable: replay: session 1: 2 divergences from the table's record\n"
    name = ("ann", "bob")[int(seat)]
    assert "the table scored %s %+d %s, the engine %s %+d %s" % (name, int(points) + 5, rule, name, int(points), rule) in out
    assert "final scores: the table has" in out


def test_replay_reports_an_illegal_action_the_table_accepted(capsys, pulled):
    db_path, _ = pulled
    db = Database.open(db_path)
    seq = db.execute("SELECT seq FROM records WHERE session = 1 AND payload = ? ORDER BY seq LIMIT 1", (b"draw",)).fetchone()[0]
    db.execute("UPDATE records SET payload = ? WHERE seq = ?", (b"pass", seq))
    db.close()
    status, out, _ = tiletable(capsys, ["replay", "1", "--db", db_path])
    assert status == 1
    assert "#%d: pass is illegal here" % seq in out


def test_export_jsonl_has_one_object_per_record_with_scores_split(capsys, pulled):
    db_path, states = pulled
    status, out, _ = tiletable(capsys, ["export", "1", "--db", db_path])
    rows = [json.loads(line) for line in out.splitlines()]
    assert status == 0 and rows[0]["type"] == "header" and rows[-1]["type"] == "end"
    scores = [r for r in rows if r["type"] == "score"]
    expected = [(e.seat + 1, ("ann", "bob")[e.seat], e.points, e.rule) for e in states[0].score_events]
    assert [(r["seat"], r["player"], r["points"], r["rule"]) for r in scores] == expected


def test_a_journal_with_action_times_and_one_from_before_them_show_and_export_side_by_side(capsys, tmp_path, db_target):
    """Journals written before actions had times still import: no time column in `show`, an
    empty ``elapsed`` in `export`; a timed session beside it gives every action its time."""
    device = LocalTransport(str(tmp_path / "device"))
    play_into_journal(device.journal, "block", ("ann", "bob"), seed=3, max_actions=30)
    state = play_into_journal(device.journal, "block", ("ann", "bob"), seed=3, max_actions=30, tenths_apart=37)
    db_path = db_target
    assert tiletable(capsys, ["pull", "--db", db_path], device)[0] == 0
    _, old, _ = tiletable(capsys, ["show", "1", "--db", db_path])
    status, new, _ = tiletable(capsys, ["show", "2", "--db", db_path])
    old_steps = [line for line in old.splitlines() if re.match(r"  #\d+ ", line) and " abandoned " not in line]
    new_steps = [line for line in new.splitlines() if re.match(r"  #\d+ ", line)]
    assert status == 0 and len(old_steps) == len(new_steps) > 5
    assert all(re.match(r"  #\d+ +(chance:|ann |bob )", line) for line in old_steps), old
    assert all(re.match(r"  #\d+ +\d+:\d\d\.\d +(chance:|ann |bob )", line) for line in new_steps), new
    setter = next(line for line in new_steps if " sets " in line)
    assert setter.split()[1] == "0:51.8"  # the 15th action: 14 x 3.7 s
    for session, times in (("1", [None] * 30), ("2", [i * 37 / 10 for i in range(30)])):
        _, out, _ = tiletable(capsys, ["export", session, "--db", db_path])
        actions = [json.loads(line) for line in out.splitlines() if json.loads(line)["type"] == "action"]
        assert [a["elapsed"] for a in actions] == times
        assert [a["text"] for a in actions] == [state.action_str(a) for a in state.history]


def test_export_csv_to_a_file(capsys, pulled, tmp_path):
    db_path, _ = pulled
    target = tmp_path / "all.csv"
    status, out, _ = tiletable(capsys, ["export", "--format", "csv", "-o", str(target), "--db", db_path])
    rows = list(csv.DictReader(io.StringIO(target.read_text())))
    db = Database.open(db_path)
    assert status == 0 and len(rows) == db.record_count()
    assert out == "wrote %d records to %s\n" % (len(rows), target)
    assert {r["session"] for r in rows} == {"1", "2", "3"}


def test_plot_writes_an_svg_with_one_line_per_seat(capsys, pulled, tmp_path):
    db_path, states = pulled
    target = tmp_path / "s1.svg"
    status, out, _ = tiletable(capsys, ["plot", "1", "-o", str(target), "--db", db_path])
    assert status == 0 and out == "wrote %s\n" % target
    root = ET.fromstring(target.read_text())
    ns = "{http://www.w3.org/2000/svg}"
    lines = [path for path in root.iter(ns + "path") if path.get("class") == "line reactive nofill"]
    assert len(lines) == 3  # a line per seat, and Muggins' target
    goal = states[0].ruleset.params["target"]
    assert "target: %d" % goal in [t.text for t in root.iter(ns + "text")]
    markers = [c for c in root.iter(ns + "circle") if "dot" in (c.get("class") or "")]
    assert len(markers) == 2 * (states[0].hand_number + 1)  # where each hand ends, for each seat
    assert "font-family:system-ui" in target.read_text() and "monospace" not in target.read_text()  # the pages' font
    assert "stroke-dasharray:8,4" in target.read_text().replace(" ", "")  # the second seat is dashed
    texts = [t.text for t in root.iter(ns + "text")]
    assert ["ann: %d" % states[0].scores[0], "bob: %d" % states[0].scores[1]] == [t for t in texts if t and t.split(":")[0] in ("ann", "bob")]
    assert "score" in texts and any(t and t.startswith("hands:") for t in texts)
    x_axis = next(g for g in root.iter(ns + "g") if g.get("class") == "axis x always_show")
    marks = [t.text for t in x_axis.iter(ns + "text")]
    assert marks == [str(n) for n in range(1, states[0].hand_number + 2)]  # hand_number counts from 0


@pytest.mark.parametrize("name", ["bergen", "block", "buki", "columns", "dasan", "draw", "matador", "moon", "sebastopol", "sniff"])
def test_show_and_replay_follow_every_family(capsys, tmp_path, name):
    from tiletable.engine.rulesets import find_ruleset

    device = LocalTransport(str(tmp_path / "device"))
    players = ("ann", "bob", "cy", "di")[: find_ruleset(name).new_state().players]
    state = play_into_journal(device.journal, name, players, seed=2, max_actions=150)
    db_path = str(tmp_path / "t.db")
    assert tiletable(capsys, ["pull", "--db", db_path], device)[0] == 0
    status, out, err = tiletable(capsys, ["show", "1", "--db", db_path])
    assert status == 0, err
    final = ", ".join("%s %s" % (n, _chips(s) if name == "buki" else s) for n, s in zip(players, state.scores))
    assert "final scores: " + final in out
    assert "disagree" not in out
    status, out, _ = tiletable(capsys, ["replay", "1", "--db", db_path])
    assert status == 0 and out.splitlines()[-1] == "no divergence: final scores " + final


def _chips(half_chips):
    """Buki's score as the table shows it: chips, from the engine's half-chips."""
    return ("%.1f" % (half_chips / 2.0)).replace(".0", "")


def test_show_reports_a_violation_found_at_the_reveal_with_a_synced_ruleset(capsys, tmp_path):
    from tiletable.engine.rulesets import find_ruleset

    ruleset = find_ruleset("block", deal={"2": 2}, setter="rotate")  # a house variant, synced from this PC
    device = LocalTransport(str(tmp_path / "device"))
    journal = device.journal
    journal.start_session(ruleset.name, ruleset.hash, ["ann", "bob"], "test", None)
    state = ruleset.new_state(2)
    for text in "D0:3-4 D0:0-0 D1:? D1:? 3-4 pass pass R1:3-5 R1:1-1".split():
        events = state.play(text)
        journal.log_action(text)
        for event in events:
            journal.log_score(event.seat, event.points, event.rule)
    journal.flush()
    db_path = str(tmp_path / "t.db")
    assert tiletable(capsys, ["pull", "--db", db_path], device)[0] == 0
    status, _, err = tiletable(capsys, ["show", "1", "--db", db_path])
    assert status == 1
    assert err == "tiletable: show: ruleset 'block' with hash %s is neither a preset of this engine nor one synced from this PC\n" % ruleset.hash
    db = Database.open(db_path)
    db.remember_ruleset(ruleset.hash, ruleset.name, ruleset.to_json())
    db.close()
    status, out, _ = tiletable(capsys, ["show", "1", "--db", db_path])
    assert status == 0
    assert out.splitlines()[-2:] == [
        "violations found at the reveal:",
        "  hand 1, action 5, bob: must play: passed on L=3 R=4: held nothing that fits, but held 3-5",
    ]


def test_show_tells_the_end_in_words(capsys, tmp_path):
    """The session's end is told as a person says it, not as the journal's JSON: who won by
    how much, or where it was stopped and the scores then."""
    import random

    from engine.families_play import Rng
    from journal_games import play_as_the_table
    from tiletable.engine.rulesets import find_ruleset

    device = LocalTransport(str(tmp_path / "device"))
    ruleset = find_ruleset("muggins")
    won = play_as_the_table(device.journal, ruleset, random.Random(3), Rng(3))
    device.journal.end_session(won.result("over"))
    stopped = play_as_the_table(device.journal, ruleset, random.Random(4), Rng(4), hands=3)
    device.journal.end_session(stopped.result("stopped"))
    db_path = str(tmp_path / "t.db")
    assert tiletable(capsys, ["pull", "--db", db_path], device)[0] == 0
    scores = won.state.scores
    winner = won.state.outcome().winners[0]
    expected = "%s won %d-%d" % (("ann", "bob")[winner], scores[winner], scores[1 - winner])
    status, out, _ = tiletable(capsys, ["show", "1", "--db", db_path])
    assert status == 0 and out.splitlines()[-3].split(None, 1)[1] == expected and "{" not in out
    status, out, _ = tiletable(capsys, ["show", "2", "--db", db_path])
    expected = "stopped after hand 2: ann %d, bob %d" % tuple(stopped.state.scores)
    assert status == 0 and out.splitlines()[-3].split(None, 1)[1] == expected and "{" not in out


def test_replay_agrees_with_the_table_when_a_scoring_play_was_taken_back(capsys, tmp_path):
    """The table takes back an action's scores with it (it journals no scores of its own for
    an undo): the table's totals the replay compares leave them out too."""
    import random

    from engine.families_play import Rng
    from journal_games import play_as_the_table
    from tiletable.engine.rulesets import find_ruleset
    from tiletable.record import REC_SCORE, REC_UNDO

    device = LocalTransport(str(tmp_path / "device"))
    won = play_as_the_table(device.journal, find_ruleset("muggins"), random.Random(3), Rng(3))
    device.journal.end_session(won.result("over"))
    db_path = str(tmp_path / "t.db")
    assert tiletable(capsys, ["pull", "--db", db_path], device)[0] == 0
    db = Database.open(db_path)
    records = db.session_records(1)
    db.close()
    scored = {seq - 1 for seq, rtype, _ in records if rtype == REC_SCORE}  # the action before a first score
    assert any(rtype == REC_UNDO and int(payload) in scored for _, rtype, payload in records)
    status, out, _ = tiletable(capsys, ["replay", "1", "--db", db_path])
    assert status == 0 and out.splitlines()[-1] == "no divergence: final scores ann %d, bob %d" % tuple(won.state.scores)
