"""Shared helpers for the Moon, column-game and Da San tests (portable: CPython and MicroPython).

``Rng`` is a tiny xorshift generator so a seed plays the same game on every port;
``play_out`` plays a match with random choices and calls ``check`` after every action.
"""
import gc
import sys

from engine.journal_replay import records_of, replayed
from tiletable.engine.rulesets import find_ruleset
from tiletable.engine.state import CHANCE, SIMULTANEOUS

# Random matches per variant: CPython plays more; MicroPython runs the same checks on fewer.
MATCHES = 12 if sys.implementation.name == "cpython" else 1


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

    ``bid_rarely`` makes an auction call PASS three times in four and otherwise the
    lowest bid: random MOON calls would sink every score and Moon matches would not end.
    """
    if state.current_player() == CHANCE:
        return rng.choice(state.chance_outcomes())
    actions = list(state.legal_actions())
    assert actions, "no legal action for %r" % state.current_player()
    if bid_rarely and state.action_str(actions[0]).endswith(":PASS"):
        return actions[0] if rng.below(4) or len(actions) == 1 else actions[1]
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
    """Replay the state's journal records through the checked path and return the copy."""
    gc.collect()  # the replay builds a second match beside the first: start it on a clean 192 KB heap
    copy = replayed(ruleset, records_of(state))
    assert len(copy.history) == len(state.history)
    for mine, theirs in zip(copy.history, state.history):  # no second list of texts: MicroPython's heap is small
        assert mine == theirs
    assert copy.scores == state.scores
    return copy


def play_texts(state, texts):
    """Play space-separated canonical actions; return the ScoreEvents they caused."""
    events = []
    for text in texts.split():
        events.extend(state.play(text))
    return events


def check_legal_view(state):
    """The legal actions are unique, sorted when they are plain ints, legal one by one, and parse back."""
    actions = list(state.legal_actions())
    assert len(actions) == len(set(actions)), "duplicate legal actions"
    if all(isinstance(a, int) for a in actions):
        assert actions == sorted(actions)
    for action in actions[:40]:
        assert state.is_legal(action) and action in state.legal_actions()
        assert state.parse_action(state.action_str(action)) == action
    if state.current_player() == SIMULTANEOUS:
        seats = set(state.action_str(a)[1] for a in actions)
        assert seats and seats <= set("01")


def run_random_matches(name, variants, check, bid_rarely=False, seed=1):
    """Play ``MATCHES`` random matches of each variant, checking after every action, then replay each record."""
    for params in variants:
        ruleset = find_ruleset(name, **params)
        for match in range(MATCHES):
            state = ruleset.new_state()
            rng = Rng(seed + match)

            def every_action(s, action):
                check(s, action)
                if rng.below(8) == 0:
                    check_legal_view(s)

            play_out(state, rng, every_action, bid_rarely=bid_rarely)
            assert state.outcome().scores == tuple(state.scores)
            round_trip(state, ruleset)


def check_undo(name, params, steps=160):
    """Undo every 23rd action and check that exactly that action is taken back, then replay it."""
    state = find_ruleset(name, **params).new_state()
    rng = Rng(7)
    done = 0
    while not state.is_over() and done < steps:
        before = [state.action_str(a) for a in state.history]
        scores = list(state.scores)
        player = state.current_player()
        action = choose(state, rng, bid_rarely=True)
        state.play(action)
        if done % 23 == 0:
            assert state.undo() == action
            assert [state.action_str(a) for a in state.history] == before
            assert state.scores == scores and state.current_player() == player
            state.play(action)
        done += 1
    assert done > 23
