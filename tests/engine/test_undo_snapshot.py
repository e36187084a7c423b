"""Undo after ``push`` restores the state from a snapshot, exactly as replaying the match does,
in every family and every preset, at every point of random matches."""
import random

import pytest

from tiletable.engine.rulesets import find_ruleset
from tiletable.engine.state import CHANCE
from tiletable.families import games


def _view(value):
    """A comparable picture of a state's value (its objects by their attributes)."""
    if isinstance(value, list):
        return [_view(item) for item in value]
    if isinstance(value, dict):
        return {key: _view(value[key]) for key in value}
    if isinstance(value, bytearray):
        return bytes(value)
    attrs = getattr(value, "__dict__", None)
    if attrs is None or callable(value) or type(value).__name__ in ("Ruleset", "LineRules", "Rule"):
        return value if attrs is None else id(value)
    return (type(value).__name__, _view(attrs))


# push's snapshot, a line state's cache of chance outcomes, what a lightest draw leaves behind
_NOT_STATE = ("_undo", "outcomes", "outcomes_base", "lots")


def _picture(state):
    return {key: _view(value) for key, value in vars(state).items() if key not in _NOT_STATE}


def _replayed(state):
    copy = state.fresh()
    for action in state.history:
        copy.apply(action)
    return copy


@pytest.mark.parametrize("name", [game[0] for game in games()])
def test_undo_of_a_push_is_the_replayed_state(name):
    rng = random.Random(name)
    ruleset = find_ruleset(name)
    for players in ruleset.player_counts():
        state = ruleset.new_state(players)
        for _ in range(160):
            if state.is_over():
                break
            options = list(state.legal_actions())
            action = options[rng.randrange(len(options))]
            before = _picture(state)
            state.push(action)
            assert state.undo() == action
            assert _picture(state) == before, (name, state.action_str(action))
            if rng.random() < 0.3:  # an undo without a snapshot of the last action replays
                state.apply(action)
                state.undo()
                assert _picture(state) == before
            state.push(action)
            if state.current_player() != CHANCE and rng.random() < 0.2:
                state.undo()
                assert _picture(state) == before
                state.push(action)
        assert _picture(_replayed(state)) == _picture(state)


def _no_replay():
    raise AssertionError("undo replayed the match")


def test_a_push_keeps_one_snapshot_and_older_undos_replay():
    state = find_ruleset("muggins").new_state(2)
    rng = random.Random(3)
    for _ in range(40):
        options = list(state.legal_actions())
        state.push(options[rng.randrange(len(options))])
    state.fresh = _no_replay  # the last push's undo copies its snapshot back
    state.undo()
    del state.fresh
    for _ in range(4):
        before = _picture(state)
        state.undo()
        assert _picture(state) == _picture(_replayed(state)) != before
    assert state._undo is None and len(state.history) == 35
