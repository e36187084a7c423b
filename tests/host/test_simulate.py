"""``tiletable simulate``: every preset plays to the end of its hands with random and greedy players."""
import random

import pytest

from cli import tiletable
from tiletable.engine.rulesets import find_ruleset, preset_names
from tiletable.engine.state import CHANCE, TERMINAL
from tiletable_host.simulate import immediate_gain, simulate


@pytest.mark.parametrize("name", preset_names())
def test_every_preset_simulates_with_random_and_greedy_players(name):
    stats = simulate(find_ruleset(name), 3, seed=7)
    assert len(stats.hand_lengths) == 3
    assert all(len(points) == stats.players for points in stats.hand_points)
    report = "\n".join(stats.report())
    assert "hand length:" in report and "score distribution" in report and "first player advantage" in report


def test_greedy_beats_random_at_muggins():
    stats = simulate(find_ruleset("muggins"), 40, strategies=("greedy", "random"), seed=3)
    greedy = sum(p[0] for p in stats.hand_points)
    random_ = sum(p[1] for p in stats.hand_points)
    assert greedy > random_


def test_the_same_seed_gives_the_same_statistics():
    a = simulate(find_ruleset("draw"), 5, seed=11)
    b = simulate(find_ruleset("draw"), 5, seed=11)
    assert a.hand_points == b.hand_points and a.hand_lengths == b.hand_lengths


def test_the_column_game_has_no_first_player(capsys):
    status, out, _ = tiletable(capsys, ["simulate", "columns", "-n", "2", "--seed", "1"])
    assert status == 0
    assert "first player advantage: no hand has a first player (every decision is simultaneous)" in out


def test_a_ruleset_file_can_be_simulated(capsys, tmp_path):
    path = tmp_path / "quick.json"
    path.write_text('{"family": "line", "name": "quick", "params": {"target": 20}}')
    status, out, _ = tiletable(capsys, ["simulate", str(path), "-n", "4", "--seed", "2"])
    assert status == 0 and out.startswith("quick (hash ")
    assert "match wins by seat: P1 " in out and ", P2 " in out and "2 players: P1 greedy, P2 random" in out
    assert "P0" not in out


@pytest.mark.parametrize(
    "argv, message",
    [
        (["simulate", "chess"], "unknown ruleset: 'chess'"),
        (["simulate", "muggins", "-n", "0"], "-n must be at least 1 (got 0)"),
        (["simulate", "muggins", "--strategies", "clever"], "unknown strategy 'clever' (known: random, greedy)"),
        (["simulate", "columns", "--players", "3"], "columns: the rules are for 2 players, not 3"),
    ],
)
def test_simulate_errors_are_one_line(capsys, argv, message):
    status, _, err = tiletable(capsys, argv)
    assert status == 1 and err == "tiletable: simulate: %s\n" % message


@pytest.mark.parametrize("name", preset_names())
def test_the_greedy_players_trial_scores_as_a_replayed_clone_and_leaves_the_state_alone(name):
    state = find_ruleset(name).new_state(None)
    rng = random.Random(7)
    for _ in range(400):
        player = state.current_player()
        if player == TERMINAL:
            break
        if player == CHANCE:
            state.apply(rng.choice(list(state.chance_outcomes())))
            continue
        before = (list(state.history), list(state.score_events), list(state.scores), state.action_str(state.history[-1]))
        for action in state.legal_actions():
            replayed = state.clone()
            replayed.apply(action)
            seat = player if player >= 0 else 0
            assert immediate_gain(state, action, seat) == replayed.scores[seat] - state.scores[seat]
        assert (list(state.history), list(state.score_events), list(state.scores), state.action_str(state.history[-1])) == before
        state.apply(rng.choice(list(state.legal_actions())))


def test_the_seat_table_has_a_row_per_seat_with_its_strategy_and_mean():
    stats = simulate(find_ruleset("moon"), 5, seed=3)
    lines = stats.report()
    start = lines.index("points per hand by seat:")
    rows = [line.split() for line in lines[start + 3:start + 3 + stats.players]]
    assert [row[:2] for row in rows] == [["P1", "greedy"], ["P2", "random"], ["P3", "greedy"]]  # seats from 1
    means = [float(row[2]) for row in rows]
    assert means == [round(sum(p[s] for p in stats.hand_points) / 5, 2) for s in range(3)]


def test_in_mexican_train_the_fewest_points_win_a_hand_and_greedy_takes_the_fewest():
    stats = simulate(find_ruleset("mexican-train"), 6, players=3, seed=2)
    assert stats.lowest_wins and len(stats.hand_points) == 6
    first_won = [points for first, points in zip(stats.first_actors, stats.hand_points) if min(points) == points[first]
                 and points.count(min(points)) == 1]
    report = "\n".join(stats.report())
    assert "the seat that acted first won %d of 6 hands" % len(first_won) in report
