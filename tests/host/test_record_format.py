"""The open record format (docs/RECORD.md): export, check and import of every game, the
rule-book examples written by hand, and every kind of problem reported with its line."""
import os
import re

import pytest

from cli import tiletable
from journal_games import play_into_journal, play_whole_match
from tiletable.engine.rulesets import preset_names
from tiletable_host import record as recordmod
from tiletable_host.db import Database
from tiletable_host.transport_local import LocalTransport

DOCS = os.path.join(os.path.dirname(__file__), "..", "..", "docs", "RECORD.md")


def doc_examples():
    with open(DOCS, encoding="utf-8") as handle:
        return re.findall(r"```tgr\n(.*?)```", handle.read(), re.S)


def played_session(tmp_path, capsys, name, seed=5):
    """A finished match of preset ``name`` logged into a journal and pulled; (db path, state)."""
    device = LocalTransport(str(tmp_path / "device"))
    state = play_whole_match(device.journal, name, seed)
    db_path = str(tmp_path / "t.db")
    assert tiletable(capsys, ["pull", "--db", db_path], device)[0] == 0
    return db_path, state


def write(tmp_path, text, name="game.tgr"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_the_rule_book_examples_check_clean_one_per_family(capsys, tmp_path):
    examples = doc_examples()
    families = [re.search(r"^\[Family (\w+)\]$", text, re.M).group(1) for text in examples]
    assert sorted(families) == ["climb", "column", "line", "trick"]
    for number, text in enumerate(examples):
        path = write(tmp_path, text, "example%d.tgr" % number)
        status, out, err = tiletable(capsys, ["check", path])
        assert (status, err) == (0, ""), err
        assert out.endswith("clean\n")


@pytest.mark.parametrize("name", preset_names())
def test_every_game_round_trips_journal_record_engine(capsys, tmp_path, name):
    db_path, played = played_session(tmp_path, capsys, name)
    assert played.is_over()
    out_path = str(tmp_path / "out.tgr")
    status, out, err = tiletable(capsys, ["export", "--format", "record", "-o", out_path, "--db", db_path])
    assert (status, err) == (0, "") and out == "wrote 1 records to %s\n" % out_path
    [record] = recordmod.parse_records(open(out_path, encoding="utf-8").read())
    state = recordmod.check_record(record)
    assert state.scores == played.scores and state.history == played.history
    assert record.tags["Result"] == recordmod.result_text(played)
    assert record.tags["Date"] == "2023.11.14" and record.tags["Table"] == "tiletable-local"
    status, out, _ = tiletable(capsys, ["check", out_path])
    assert status == 0 and out.endswith(": clean\n")


@pytest.mark.parametrize("name", ["muggins", "moon", "dasan"])
def test_check_and_import_count_the_hands_to_the_last_one(capsys, tmp_path, name):
    """A match whose last hand is Hand 8 goes "up to hand 8": the engine stays in the last
    hand when the match ends there."""
    db_path, played = played_session(tmp_path, capsys, name)
    path = str(tmp_path / "match.tgr")
    assert tiletable(capsys, ["export", "--format", "record", "-o", path, "--db", db_path])[0] == 0
    last = [line for line in open(path, encoding="utf-8").read().splitlines() if line.startswith("Hand ")][-1]
    assert last == "Hand %d" % (played.hand_number + 1) and played.hand_number > 0
    told = ": %d actions up to hand %d, %s" % (len(played.history), played.hand_number + 1, recordmod.result_text(played))
    status, out, _ = tiletable(capsys, ["check", path])
    assert status == 0 and told in out
    status, out, _ = tiletable(capsys, ["import", path, "--db", str(tmp_path / "other.db")])
    assert status == 0 and told in out


def test_an_imported_record_is_a_session_like_a_pulled_one_and_is_stored_once(capsys, tmp_path, new_db):
    db_path, played = played_session(tmp_path, capsys, "muggins")
    text = "".join(recordmod.session_records_text(Database.open(db_path), Database.open(db_path).sessions()))
    path = write(tmp_path, text.replace("[Event ?]", "[Event club night; finals]"))
    other_db = new_db("other")
    status, out, err = tiletable(capsys, ["import", path, "--db", other_db])
    assert (status, err) == (0, "") and out.endswith("imported as session 1\n")
    status, out, _ = tiletable(capsys, ["import", path, "--db", other_db])
    assert status == 0 and out.endswith("already stored as session 1\n")
    assert tiletable(capsys, ["replay", "1", "--db", other_db])[1].splitlines()[-1] == "no divergence: final scores ann %d, bob %d" % tuple(played.scores)
    status, out, _ = tiletable(capsys, ["export", "1", "--format", "record", "--db", other_db])
    assert status == 0 and "[Event club night; finals]" in out and "[Site ?]" in out and "[Table tiletable-local]" in out
    status, renamed, _ = tiletable(capsys, ["export", "1", "--format", "record", "--site", "Kyoto\nwest", "--db", other_db])
    assert renamed == out.replace("[Site ?]", "[Site Kyoto west]")
    assert out.split("\n\n", 1)[1] == text.split("\n\n", 1)[1]  # the body is unchanged by the trip


def test_import_of_a_bad_record_stores_nothing(capsys, tmp_path, new_db):
    good = write(tmp_path, doc_examples()[0], "good.tgr")
    bad = write(tmp_path, doc_examples()[1].replace("3-4/4 4-6 3-6", "3-4/4 6-6 3-6"), "bad.tgr")
    db_path = new_db("t")
    status, out, err = tiletable(capsys, ["import", good, bad, "--db", db_path])
    assert status == 1 and out == ""
    assert err.startswith("tiletable: import: %s: line " % bad) and "illegal action '6-6'" in err
    db = Database.open(db_path)
    assert db.session_count() == 0 and db.record_count() == 0


def check_error(capsys, tmp_path, text):
    status, out, err = tiletable(capsys, ["check", write(tmp_path, text)])
    assert status == 1 and out == "" and err.count("\n") == 1
    return err


def line_of(text, fragment):
    return text[: text.index(fragment)].count("\n") + 1


def test_check_names_the_line_of_an_illegal_action(capsys, tmp_path):
    text = doc_examples()[0].replace("18:00:30 5-6>L", "18:00:30 5-6>R")
    err = check_error(capsys, tmp_path, text)
    assert err.startswith("tiletable: check: %s: line %d: illegal action '5-6>R': " % (tmp_path / "game.tgr", line_of(text, "5-6>R")))


def test_check_names_the_line_of_a_score_that_disagrees(capsys, tmp_path):
    text = doc_examples()[0].replace("{P0 +10 fives: ends 6 + 4 = 10}", "{P0 +5 fives: ends 6 + 4 = 10}")
    err = check_error(capsys, tmp_path, text)
    assert ": line %d: after claim0 the record scores P0 +5 fives, the engine P0 +10 fives: ends 6 + 4 = 10\n" % line_of(text, "+5 fives") in err


def test_check_finds_a_score_the_record_leaves_out(capsys, tmp_path):
    text = doc_examples()[0].replace(" {P1 +10 fives: ends 5x2 + 0 = 10}", "")
    err = check_error(capsys, tmp_path, text)
    assert ": line %d: after claim1 the record scores nothing, the engine P1 +10 fives" % line_of(text, "claim1") in err


def test_check_names_the_line_of_a_wrong_hash(capsys, tmp_path):
    text = doc_examples()[0].replace("[Hash 2536ada149cfab8d]", "[Hash 2536ada149cfab8e]")
    err = check_error(capsys, tmp_path, text)
    assert err.endswith(
        ": line %d: hash 2536ada149cfab8e is not the content hash of ruleset muggins with these parameters (2536ada149cfab8d)\n"
        % line_of(text, "[Hash")
    )


def test_check_finds_parameters_that_are_not_the_hashed_ones(capsys, tmp_path):
    text = doc_examples()[0].replace('"target":200', '"target":61')
    assert ": line %d: hash 2536ada149cfab8d is not the content hash" % line_of(text, "[Hash") in check_error(capsys, tmp_path, text)


def test_check_finds_a_wrong_hand_marker_and_a_wrong_result(capsys, tmp_path):
    text = doc_examples()[0].replace("Hand 1", "Hand 2")
    assert ": line %d: hand marker says hand 2, but the engine is in hand 1" % line_of(text, "D0:5-5") in check_error(capsys, tmp_path, text)
    text = doc_examples()[0].replace("[Result *]", "[Result target 30 10]")
    assert ": line %d: result 'target 30 10', but the engine ends with '*'" % line_of(text, "[Result") in check_error(capsys, tmp_path, text)


@pytest.mark.parametrize(
    "change, message",
    [
        (("[Format tiletable-record 1]", "[Format tiletable-record 2]"), "format 'tiletable-record 2' is not 'tiletable-record 1'"),
        (("[Site ?]\n", ""), "the header lacks the Site tag"),
        (("{P0 +10 fives: ends 6 + 4 = 10}", "{P0 +10 fives: ends 6 + 4 = 10"), "is not closed with }"),
        (("{P0 +10 fives: ends 6 + 4 = 10}", "{zero points}"), "is not of the form {P<seat> <points> <rule>: <detail>}"),
        (("18:00:42 claim0", "18:00:42"), "time 18:00:42 is followed by no action"),
        (("[Params {", "[Params {{"), "parameters or version do not parse"),
        (("[Params {", '[Params {"no_such_rule":1,'), "the ruleset does not load"),
    ],
)
def test_check_explains_a_record_that_does_not_parse(capsys, tmp_path, change, message):
    text = doc_examples()[0].replace(*change)
    assert text != doc_examples()[0]
    err = check_error(capsys, tmp_path, text)
    assert err.startswith("tiletable: check: %s: line " % (tmp_path / "game.tgr")) and message in err


def test_check_of_a_file_that_is_not_there_or_not_text(capsys, tmp_path):
    status, _, err = tiletable(capsys, ["check", str(tmp_path / "none.tgr")])
    assert status == 1 and err.startswith("tiletable: check: cannot read %s: " % (tmp_path / "none.tgr"))
    path = tmp_path / "binary.tgr"
    path.write_bytes(b"\xff\xfe\x00")
    status, _, err = tiletable(capsys, ["check", str(path)])
    assert status == 1 and err.startswith("tiletable: check: cannot read %s: " % path)


def test_an_undone_action_is_kept_and_taken_back(capsys, tmp_path, new_db):
    """A play taken back at the table is in the record, and ``undo`` after it; imported, it is
    the journal's amendment again, and `show` lists the play as undone."""
    device = LocalTransport(str(tmp_path / "device"))
    journal = device.journal
    state = play_into_journal(journal, "block", ("ann", "bob"), seed=2, max_actions=16)
    # the session is still open: log a play and take it back
    action = next(iter(state.legal_actions()))
    seq = journal.log_action(state.action_str(action))
    journal.log_undo(seq)
    assert not state.play(action)  # played again for good: no score in Block
    journal.log_action(state.action_str(action))
    journal.flush()
    db_path = new_db("t")
    assert tiletable(capsys, ["pull", "--db", db_path], device)[0] == 0
    status, out, _ = tiletable(capsys, ["export", "--format", "record", "--db", db_path])
    assert status == 0 and "[Result *]" in out and "[End *]" in out
    [record] = recordmod.parse_records(out)
    assert [move.text for move in record.moves[-3:]] == [state.action_str(action), "undo", state.action_str(action)]
    assert "\nundo  ; taken back: %s\n" % state.action_str(action) in out
    checked = recordmod.check_record(record)
    assert checked.scores == state.scores and checked.history == state.history
    other_db = new_db("other")
    status, imported, _ = tiletable(capsys, ["import", write(tmp_path, out), "--db", other_db])
    assert status == 0 and ": 17 actions up to hand 1, in progress: imported as session 1" in imported
    shown = tiletable(capsys, ["show", "1", "--db", other_db])[1]
    undone = [line.split()[0] for line in shown.splitlines() if line.endswith("(undone)")]
    assert len(undone) == 1 and "undo of %s (" % undone[0] in shown
    assert tiletable(capsys, ["export", "--format", "record", "--db", other_db])[1] == out


@pytest.mark.parametrize(
    "change, message",
    [
        (("\nD0:5-5 ", "\nundo D0:5-5 "), "undo, but no action is in effect to take back"),
        (("18:00:41 0-4>R", "18:00:41 undo"), "time 18:00:41 before undo (an undo has no time of its own)"),
        (("18:00:41 0-4>R", "undo {P0 +10 fives: x}"), "an undo scores nothing, but the record scores P0 +10 fives"),
        (("[Result *]", "[Result *]\n[End stopped 30 11]"), "end 'stopped 30 11', but the engine ends with the scores 30 10"),
        (("[Result *]", "[Result *]\n[End stopped 30]"), "end 'stopped 30' is not a reason followed by the scores by seat"),
        (("[Result *]", "[Result *]\n[End 30 10]"), "end '30 10' is not a reason followed by the scores by seat"),
    ],
)
def test_check_finds_an_undo_or_an_end_that_does_not_hold(capsys, tmp_path, change, message):
    text = doc_examples()[0].replace(*change)
    assert text != doc_examples()[0]
    err = check_error(capsys, tmp_path, text)
    line = line_of(text, change[1].strip().split("\n")[-1])
    assert err.startswith("tiletable: check: %s: line %d: " % (tmp_path / "game.tgr", line)) and message in err, err


def test_the_end_of_a_record_is_the_end_of_the_imported_session(capsys, tmp_path, new_db):
    """``End`` says how the table ended the session; without it a record reads as before."""
    stopped = doc_examples()[0].replace("[Result *]", "[Result *]\n[End stopped 30 10]")
    db_path = new_db("t")
    status, out, _ = tiletable(capsys, ["import", write(tmp_path, stopped), "--db", db_path])
    assert status == 0 and out.endswith(": muggins, ann v bob: 23 actions up to hand 1, stopped 30 10: imported as session 1\n")
    assert tiletable(capsys, ["sessions", "--db", db_path])[1].splitlines()[-1].endswith("ann, bob / stopped: ann 30, bob 10")
    status, out, _ = tiletable(capsys, ["export", "1", "--format", "record", "--db", db_path])
    assert status == 0 and "\n[Result *]\n[End stopped 30 10]\n\n" in out
    status, out, _ = tiletable(capsys, ["import", write(tmp_path, doc_examples()[0], "old.tgr"), "--db", db_path])
    assert status == 0 and out.endswith(": 23 actions up to hand 1, in progress: imported as session 2\n")
    assert tiletable(capsys, ["sessions", "--db", db_path])[1].splitlines()[-1].endswith("ann, bob / in progress")


def test_a_stopped_session_stays_stopped_through_export_and_import(capsys, tmp_path, new_db):
    import random

    from engine.families_play import Rng
    from journal_games import play_as_the_table
    from tiletable.engine.rulesets import find_ruleset

    device = LocalTransport(str(tmp_path / "device"))
    stopped = play_as_the_table(device.journal, find_ruleset("muggins"), random.Random(4), Rng(4), hands=3)
    device.journal.end_session(stopped.result("stopped"))
    db_path, other_db, path = new_db("t"), new_db("other"), str(tmp_path / "s.tgr")
    assert tiletable(capsys, ["pull", "--db", db_path], device)[0] == 0
    assert tiletable(capsys, ["export", "--format", "record", "-o", path, "--db", db_path])[0] == 0
    status, out, _ = tiletable(capsys, ["import", path, "--db", other_db])
    assert status == 0 and ", stopped %d %d: imported as session 1" % tuple(stopped.state.scores) in out
    listed = [tiletable(capsys, ["sessions", "--db", db])[1].splitlines()[-1].split(" / ")[-1] for db in (db_path, other_db)]
    assert listed == ["stopped: ann %d, bob %d" % tuple(stopped.state.scores)] * 2


def test_a_file_of_several_records_checks_and_imports_each(capsys, tmp_path, new_db):
    device = LocalTransport(str(tmp_path / "device"))
    played = [play_whole_match(device.journal, name, seed) for seed, name in enumerate(("moon", "columns"), 1)]
    db_path = new_db("t")
    assert tiletable(capsys, ["pull", "--db", db_path], device)[0] == 0
    path = str(tmp_path / "two.tgr")
    assert tiletable(capsys, ["export", "--format", "record", "-o", path, "--db", db_path])[1] == "wrote 2 records to %s\n" % path
    status, out, _ = tiletable(capsys, ["check", path])
    assert status == 0 and [line.split(" (")[0] for line in out.splitlines()] == ["%s: record 1" % path, "%s: record 2" % path]
    assert "(moon, ann v bob v cy: " in out and "(columns, ann v bob: " in out
    other_db = new_db("other")
    status, out, _ = tiletable(capsys, ["import", path, "--db", other_db])
    assert status == 0 and out.count("imported as session") == 2
    assert [s["ruleset"] for s in Database.open(other_db).sessions()] == ["moon", "columns"]
    assert [recordmod.check_record(r).scores for r in recordmod.parse_records(open(path).read())] == [s.scores for s in played]


def test_a_record_of_a_custom_ruleset_checks_imports_and_replays(capsys, tmp_path, new_db):
    from tiletable.engine.rulesets import find_ruleset

    custom = find_ruleset("muggins", target=61)
    text = doc_examples()[0].replace('"target":200', '"target":61').replace("[Hash 2536ada149cfab8d]", "[Hash %s]" % custom.hash)
    path = write(tmp_path, text)
    assert tiletable(capsys, ["check", path])[0] == 0
    db_path = new_db("t")
    assert tiletable(capsys, ["import", path, "--db", db_path])[0] == 0
    status, out, _ = tiletable(capsys, ["replay", "1", "--db", db_path])  # the ruleset came with the record
    assert status == 0 and "replayed with muggins (hash %s)" % custom.hash in out and out.endswith("final scores ann 30, bob 10\n")


def test_times_of_day_and_times_since_the_start_import_as_action_times(capsys, tmp_path):
    """TV-MUG-1 times its plays ``18:00:05`` with the session at ``18:00:00``: imported, each
    action keeps its time since the start, and exported again it reads ``+0:05.0``."""
    example = doc_examples()[0]
    assert "\n18:00:05 5-5 " in example
    db_path = str(tmp_path / "t.db")
    assert tiletable(capsys, ["import", write(tmp_path, example), "--db", db_path])[0] == 0
    status, out, _ = tiletable(capsys, ["show", "1", "--db", db_path])
    steps = [line.split()[1:4] for line in out.splitlines() if " sets " in line or " plays " in line]
    assert status == 0 and steps[:2] == [["0:05.0", "ann", "sets"], ["0:11.0", "bob", "plays"]]
    status, out, _ = tiletable(capsys, ["export", "1", "--format", "record", "--db", db_path])
    assert status == 0 and "\n+0:05.0 5-5 " in out and "\n+0:42.0 claim0 {P0 +10 fives" in out


def test_action_times_in_both_forms_cross_midnight_and_hours():
    [record] = recordmod.parse_records(
        doc_examples()[0]
        .replace("[Time 18:00:00]", "[Time 23:59:58]")
        .replace("18:00:05 5-5", "23:59:59 5-5")
        .replace("18:00:06 claim0", "00:00:03 claim0")
        .replace("18:00:11 0-5>R", "+1:02:05.3 0-5>R")
        .replace("18:00:12 claim1", "+75:03 claim1")
    )
    times = record.action_times()
    assert times[14:18] == [10, 50, 37253, 45030]
    assert recordmod.elapsed_tenths("+0:60.0") is None and recordmod.elapsed_tenths("0:05.0") is None
    unknown = recordmod.parse_records(doc_examples()[0].replace("[Time 18:00:00]", "[Time ??:??:??]"))[0]
    assert unknown.action_times()[14] is None  # a time of day needs the session's start


def test_buki_records_write_chips_and_import_them_back_as_the_journals_half_chips(capsys, tmp_path):
    """Issue 42: a record's score comments and Result are in chips, as people read Buki's
    scores everywhere (``+37.5`` for a half chip); importing gives the journal's half-chips."""
    db_path, played = played_session(tmp_path, capsys, "buki")
    db = Database.open(db_path)
    text = "".join(recordmod.session_records_text(db, db.sessions()))
    db.close()
    [record] = recordmod.parse_records(text)
    chips = [score / 2 for score in played.scores]
    assert [float(s) for s in record.tags["Result"].split()[1:]] == chips
    written = [m.group(1) for m in re.finditer(r"\{P[0-9] ([+-][0-9.]+) ", text)]
    halves = [e.points for e in played.score_events]
    assert [float(points) for points in written] == [points / 2 for points in halves]
    assert any(points % 2 for points in halves) == any("." in points for points in written)
    assert recordmod.check_record(record).scores == played.scores
    other_db = str(tmp_path / "other.db")
    assert tiletable(capsys, ["import", write(tmp_path, text), "--db", other_db])[0] == 0
    db = Database.open(other_db)
    [session] = db.sessions()
    scored = [bytes(p).decode() for _, t, p in db.session_records(session["id"]) if t == 3]  # REC_SCORE
    assert session["result"]["scores"] == list(played.scores)
    assert [int(row.split()[1]) for row in scored] == halves
    db.close()


def test_a_half_point_in_a_game_of_whole_points_is_reported_with_its_line(capsys, tmp_path):
    db_path, played = played_session(tmp_path, capsys, "muggins")
    db = Database.open(db_path)
    text = "".join(recordmod.session_records_text(db, db.sessions()))
    db.close()
    broken = re.sub(r"\{P([0-9]) \+([0-9]+) ", r"{P\1 +\2.5 ", text, count=1)
    status, _, err = tiletable(capsys, ["check", write(tmp_path, broken)])
    assert status == 1 and "not a whole number of this game's points" in err
