"""Table-level properties for every game, played through the simulated table's zones and
buttons with random undos, power cuts and refused pieces mixed in (``chaos.py``): each undo
returns the table exactly to where it was and the undone pieces play again, a power cut
resumes to the same state and display, a refused piece changes nothing; at the end the
table's scores equal the players' own engine and the PC's replay of the journal.

A few short matches per family here; ``bench/table_matches.py`` plays hundreds."""
import random

import pytest

from chaos import chaos_table, chaotic
from player import ClimbPlayer, ColumnPlayer, LinePlayer, MoonPlayer, journal_sessions, replay, table_scores
from tiletable.profiles import profile_for

# (player class, game, players, player options)
MATCHES = [
    (LinePlayer, "muggins", 2, {"scan": (0,)}),
    (LinePlayer, "block", 3, {}),
    (LinePlayer, "draw", 2, {"scan": (0, 1)}),
    (LinePlayer, "sebastopol", 4, {}),
    (LinePlayer, "bergen", 2, {}),
    (LinePlayer, "sniff", 2, {}),
    (LinePlayer, "matador", 2, {}),
    (LinePlayer, "buki", 4, {}),
    (LinePlayer, "fives-threes-pairs", 4, {}),
    (LinePlayer, "cuban", 4, {}),
    (MoonPlayer, "moon", 3, {}),
    (ColumnPlayer, "columns", 2, {}),
    (ClimbPlayer, "dasan", 3, {}),
]


def play_chaotic_match(root, player_class, name, players, options, seed, max_moves, **chances):
    """Play one match (or its first ``max_moves`` steps) with chaos; returns (god, counts).
    ``chances``: of an undo, a power cut and a refused piece after a step (``ChaosControl``)."""
    rng = random.Random(seed)
    family = player_class.family if player_class is not LinePlayer else "line"
    profile = profile_for(name, players, family)
    zones = sorted(profile.seat_zone.values()) or sorted(profile.assign_zone.values())
    control = chaos_table(root, rng, "3-4" if family == "climb" else "H4", zones, **chances)
    player = chaotic(player_class)(control, name, players, seed=seed, **options)
    god = player.play_match(max_moves=max_moves)
    table = control.state()
    assert table["scores"] == table_scores(god)  # Buki: chips
    assert table["mode"] == ("over" if god.is_over() else "game")
    header, actions = journal_sessions(root)[-1]
    assert replay(header, actions).scores == god.scores
    return god, control.counts


@pytest.mark.parametrize("player_class,name,players,options", MATCHES, ids=[m[1] for m in MATCHES])
def test_undo_power_cut_and_refused_pieces_keep_the_table_right(table_root, player_class, name, players, options):
    _, counts = play_chaotic_match(table_root, player_class, name, players, options, seed=5, max_moves=60)
    assert counts["undos"] and counts["refusals"]
