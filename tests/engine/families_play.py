"""Shared helpers for the Moon, column-game and Da San tests (portable: CPython and MicroPython).

``Rng`` is a tiny xorshift generator so a seed plays the same game on every port;
``play_out`` plays a match with random choices and calls ``check`` after every action.
"""
from tiletable.engine.record import Record
from tiletable.engine.state import CHANCE


class Rng:
    """xorshift32: the same sequence on CPython and MicroPython (``random`` differs)."""

    def __init__(self, seed):
        self.x = (seed * 2654435761 + 1) & 0xFFFFFFFF or 1

    def below(self, n):
        x = self.x
        x ^= (x << 13) & 0xFFFFFFFF
        x ^= x >> 17
        x ^= (x << 5) & 0xFFFFFFFF
        self.x = x
        return x % n

    def choice(self, items):
        return items[self.below(len(items))]


def choose(state, rng, bid_rarely=False):
    """A random action for whoever acts: a chance outcome, or a legal action.

    ``bid_rarely`` makes an auction call PASS three times in four (when PASS is legal),
    so Moon matches end in a reasonable number of hands.
    """
    if state.current_player() == CHANCE:
        return rng.choice(state.chance_outcomes())
    actions = list(state.legal_actions)
    assert actions, "no legal action for %r" % state.current_player()
    if bid_rarely and rng.below(4) and state.action_str(actions[0]).endswith(":PASS"):
        return actions[0]
    return rng.choice(actions)


def play_out(state, rng, check=None, limit=20000, bid_rarely=False):
    """Play random actions through ``play`` until the match ends; return the number of actions."""
    count = 0
    while not state.is_over():
        action = choose(state, rng, bid_rarely)
        state.play(action)
        count += 1
        if check is not None:
            check(state, action)
        assert count < limit, "the match did not end within %d actions" % limit
    return count


def round_trip(state, ruleset):
    """Replay the state's record text through the checked path and return the copy."""
    copy = Record.from_text(state.record().to_text()).replay(ruleset)
    assert [copy.action_str(a) for a in copy.history] == [state.action_str(a) for a in state.history]
    assert copy.scores == state.scores
    return copy


def play_texts(state, texts):
    """Play space-separated canonical actions; return the ScoreEvents they caused."""
    events = []
    for text in texts.split():
        events.extend(state.play(text))
    return events
