"""Records lose nothing: ``export --format record`` -> ``import`` -> ``export`` gives the same
bytes, and the imported sessions end as the pulled ones did, for every preset game and every
way a session ends (docs/RECORD.md).

Each preset's journal is written by the table's own ``Session`` (the engine's actions, their
scores and times, undos as amendments, end records as the table writes them) with random
players from a seed, and holds one session of each outcome: a match played out, one stopped
after several hands, one the table abandoned with its scores, one the journal abandoned when
the next began, and one still in progress.
"""
import random
import re

import pytest

from cli import tiletable
from engine.families_play import Rng
from journal_games import play_as_the_table
from tiletable.engine.rulesets import find_ruleset, preset_names
from tiletable_host.db import Database
from tiletable_host.transport_local import LocalTransport


def journal_of_every_outcome(journal, ruleset, seed):
    """One session of each outcome in ``journal``, in the order the module's doc names them."""
    rng = random.Random(seed)
    choice = Rng(seed)
    won = play_as_the_table(journal, ruleset, rng, choice)
    journal.end_session(won.result("over"))
    stopped = play_as_the_table(journal, ruleset, rng, choice, hands=3, actions=400)
    journal.end_session(stopped.result("stopped"))
    set_aside = play_as_the_table(journal, ruleset, rng, choice, actions=rng.randrange(5, 60))
    journal.end_session(set_aside.result("abandoned"))
    play_as_the_table(journal, ruleset, rng, choice, actions=rng.randrange(1, 40))  # abandoned by the next start
    play_as_the_table(journal, ruleset, rng, choice, actions=rng.randrange(0, 80))
    journal.flush()


def outcomes(db_path):
    db = Database.open(db_path, create=False)
    try:
        return [(s["ruleset"], s["who"], s["outcome"], s["records"]) for s in db.sessions()]
    finally:
        db.close()


@pytest.mark.parametrize("name", preset_names())
def test_export_import_export_is_byte_identical_for_every_outcome(capsys, tmp_path, name):
    device = LocalTransport(str(tmp_path / "device"))
    journal_of_every_outcome(device.journal, find_ruleset(name), seed=sum(map(ord, name)))
    pulled, imported = str(tmp_path / "pulled.db"), str(tmp_path / "imported.db")
    assert tiletable(capsys, ["pull", "--db", pulled], device)[0] == 0
    first = str(tmp_path / "first.tgr")
    assert tiletable(capsys, ["export", "--format", "record", "-o", first, "--db", pulled])[0] == 0
    status, out, err = tiletable(capsys, ["import", first, "--db", imported])
    assert (status, err) == (0, "") and out.count("imported as session") == 5, out
    status, second, _ = tiletable(capsys, ["export", "--format", "record", "--db", imported])
    assert status == 0 and second == open(first, encoding="utf-8").read()
    kept = outcomes(imported)
    assert kept == outcomes(pulled)
    assert [outcome.split(":")[0] for _, _, outcome, _ in kept] == ["over", "stopped", "abandoned", "abandoned", "in progress"]


@pytest.mark.parametrize("name", ["muggins", "block", "moon", "dasan"])
def test_check_and_import_count_the_hands_to_the_last_one(capsys, tmp_path, name):
    """`check` and `import` say how many hands the record reaches: its last ``Hand`` marker."""
    device = LocalTransport(str(tmp_path / "device"))
    journal_of_every_outcome(device.journal, find_ruleset(name), seed=7)
    db_path, path = str(tmp_path / "t.db"), str(tmp_path / "all.tgr")
    assert tiletable(capsys, ["pull", "--db", db_path], device)[0] == 0
    assert tiletable(capsys, ["export", "--format", "record", "-o", path, "--db", db_path])[0] == 0
    records = open(path, encoding="utf-8").read().split("[Format ")[1:]
    markers = [[int(line[5:]) for line in text.splitlines() if line.startswith("Hand ")] for text in records]
    expected = ["up to hand %d," % hands[-1] if hands else "no actions," for hands in markers]
    assert len(expected) == 5 and expected[0] != "up to hand 1,"
    status, out, _ = tiletable(capsys, ["check", path])
    assert status == 0 and [_hands_told(line) for line in out.splitlines()] == expected
    status, out, _ = tiletable(capsys, ["import", path, "--db", str(tmp_path / "other.db")])
    assert status == 0 and [_hands_told(line) for line in out.splitlines()] == expected


def _hands_told(line):
    """``up to hand 8,`` (or ``no actions,``) from a line `check` or `import` prints."""
    return re.search(r"(up to hand \d+|no actions),", line).group(0)
