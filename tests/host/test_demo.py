"""``tiletable demo`` (what ``make run`` shows): a whole simulated match, every score change explained."""
import re

from cli import tiletable


def test_demo_plays_a_muggins_match_to_the_end(capsys):
    status, out, err = tiletable(capsys, ["demo", "--seed", "3"])
    assert status == 0, err
    lines = out.splitlines()
    assert lines[0].startswith("muggins (") and "4 players, seed 3" in lines[0]
    assert "hand 1" in lines
    final = lines[-1]
    assert final.startswith("match over (target)")
    # every score line adds up to the final scores
    totals = [0, 0, 0, 0]
    for seat, points in re.findall(r"^  P(\d) ([+-]\d+) ", out, re.M):
        totals[int(seat) - 1] += int(points)  # seats count from 1
    assert final.endswith(", ".join("P%d %d" % (seat + 1, totals[seat]) for seat in range(4)))
    assert max(totals) >= 200
    assert re.search(r"^  P\d \+\d+ fives: ends .* = \d+  \[P\d claims \d+\]$", out, re.M)
    assert re.search(r"^  P\d \+\d+ (domino|blocked): opponents' pips .* = \d+  \[", out, re.M)


def test_demo_counts_players_from_1_everywhere(capsys):
    out = tiletable(capsys, ["demo", "--seed", "2", "--players", "3"])[1]
    assert out.splitlines()[1] == "players: P1 greedy, P2 random, P3 greedy"
    assert sorted(set(re.findall(r"\bP(\d)\b", out))) == ["1", "2", "3"]  # in sentences and arithmetic too


def test_demo_is_the_same_for_the_same_seed(capsys):
    first = tiletable(capsys, ["demo", "--seed", "5", "--players", "2"])[1]
    again = tiletable(capsys, ["demo", "--seed", "5", "--players", "2"])[1]
    assert first == again and "2 players" in first


def test_demo_other_rulesets_and_bad_input(capsys):
    status, out, _ = tiletable(capsys, ["demo", "--ruleset", "buki", "--seed", "2"])
    assert status == 0 and "chips" in out and out.splitlines()[-1].startswith("match over (games) after 4 hands")
    status, _, err = tiletable(capsys, ["demo", "--ruleset", "sebastopol", "--players", "2"])
    assert status == 1 and err.strip() == "tiletable: demo: players: the rules are for 4 players, not 2"
    status, _, err = tiletable(capsys, ["demo", "--ruleset", "chess"])
    assert status == 1 and "unknown ruleset: 'chess'" in err
