# portable
"""Undo from checkpoints: the same state as a rebuild from the start, at a cost that does not grow
with the match (an UNDO at the table must answer within the loop's 50 ms on the Pico)."""
from engine.families_play import Rng, choose
from portable import raises
from tiletable.engine.line_actions import P_DEAL
from tiletable.engine.rulesets import find_ruleset
from tiletable.engine.state import CHECKPOINT_EVERY, CHECKPOINTS_KEPT

GAMES = (("muggins", {}, 4), ("moon", {}, None), ("dasan", {"hands": 1}, None), ("columns", {}, None))


def new_state(name, params, players):
    """A state that keeps checkpoints, as the table's do."""
    ruleset = find_ruleset(name, **params)
    state = ruleset.new_state(players) if players else ruleset.new_state()
    state.checkpoint_every = CHECKPOINT_EVERY
    return state


def plain(value):
    """A state's value as lists, dicts and numbers: two states compare equal when they match."""
    if isinstance(value, (list, tuple)):
        return [plain(item) for item in value]
    if isinstance(value, (bytearray, bytes)):
        return bytes(value)
    if isinstance(value, dict):
        return {key: plain(value[key]) for key in value}
    if hasattr(value, "__dict__") and not callable(value):
        return {key: plain(value.__dict__[key]) for key in value.__dict__}
    return value


NOT_COMPARED = ("_checkpoints", "outcomes", "outcomes_base", "checkpoint_every")  # the snapshots and their pace; a cache of chance outcomes


def view(state):
    attrs = state.__dict__
    return {key: plain(attrs[key]) for key in attrs if key not in NOT_COMPARED and key not in state.shared}


def count_replays(state):
    """Count what the state applies from now on (``undo`` replays through ``apply``)."""
    applied = [0]
    apply = state.apply

    def counted(action):
        applied[0] += 1
        apply(action)

    state.apply = counted
    return applied


def test_undo_equals_a_rebuild_in_every_family():
    for name, params, players in GAMES:
        state = new_state(name, params, players)
        rng = Rng(11)
        steps = 0
        while not state.is_over() and steps < 150:
            state.apply(choose(state, rng, bid_rarely=True))
            steps += 1
            if steps % 7 == 0:
                count = 1 + rng.below(min(len(state.history), 20))
                history = list(state.history)
                assert state.undo(count) == history[-1]
                assert state.history == history[:-count]
                assert view(state) == view(state.clone()), (name, steps, count)
        assert steps > 60, name


def test_an_undo_replays_fewer_than_a_checkpoint_apart():
    state = new_state("muggins", {}, 4)
    rng = Rng(5)
    while len(state.history) < 120:
        state.apply(choose(state, rng))
    for count in (1, 3, CHECKPOINT_EVERY + 4):  # 24 back: within the kept checkpoints
        applied = count_replays(state)
        state.undo(count)
        assert applied[0] < CHECKPOINT_EVERY, (count, applied[0])
        del state.apply
        assert view(state) == view(state.clone())
    for _ in range(40):  # play on from the undone point: the checkpoints follow the new history
        state.apply(choose(state, rng))
    applied = count_replays(state)
    state.undo()
    assert applied[0] < CHECKPOINT_EVERY
    del state.apply
    assert view(state) == view(state.clone())


def test_an_undo_beyond_the_kept_checkpoints_rebuilds_from_the_start():
    state = new_state("muggins", {}, 2)
    rng = Rng(3)
    while len(state.history) < (CHECKPOINTS_KEPT + 2) * CHECKPOINT_EVERY:
        state.apply(choose(state, rng))
    keep = len(state.history) - CHECKPOINTS_KEPT * CHECKPOINT_EVERY - 1
    applied = count_replays(state)
    state.undo(len(state.history) - keep)
    assert applied[0] == keep
    del state.apply
    assert view(state) == view(state.clone())


def test_undo_needs_that_many_actions():
    state = new_state("muggins", {}, 2)
    raises(IndexError, state.undo)
    state.apply(choose(state, Rng(1)))
    raises(IndexError, state.undo, 2)
    raises(IndexError, state.undo, 0)
    assert len(state.history) == 1


def test_restore_takes_back_what_was_tried_after_save():
    state = new_state("muggins", {}, 4)
    rng = Rng(9)
    while len(state.history) < CHECKPOINT_EVERY - 2:
        state.apply(choose(state, rng))
    before = view(state)
    history = list(state.history)
    saved = state.save()
    for _ in range(5):  # across a checkpoint, which goes with the actions tried
        state.apply(choose(state, rng))
    state.restore(saved)
    assert state.history == history and view(state) == before
    assert all(length <= len(history) for length, _ in state._checkpoints)
    state.apply(choose(state, rng))
    state.undo()
    assert view(state) == before


def test_a_deal_undone_at_a_later_hand_replays_nothing():
    state = new_state("muggins", {}, 4)
    rng = Rng(13)
    while state.hand_number == 0 or state.phase == P_DEAL:  # into the second hand, dealt
        state.apply(choose(state, rng))
    dealt = 0
    while state.action_str(state.history[-1 - dealt]).startswith("D"):
        dealt += 1
    applied = count_replays(state)
    state.undo(dealt)
    assert applied[0] == 0 and state.phase == P_DEAL
    del state.apply
    assert view(state) == view(state.clone())


def test_a_state_keeps_no_checkpoint_unless_asked():
    """A simulation's states (the PC's analysis, a playout) apply far more than they undo."""
    state = find_ruleset("muggins").new_state(2)
    rng = Rng(5)
    while len(state.history) < 3 * CHECKPOINT_EVERY:
        state.apply(choose(state, rng))
    assert state._checkpoints == []
