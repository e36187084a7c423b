# portable
"""Texas 42 random-play properties (after OpenSpiel's random_sim_test): every tile accounted
for, four tiles a trick (three in nello), with and without the optional contracts, a hand's 42 points never exceeded, one side scores each hand and
the partners' scores stay equal, matches end, records replay, undo takes back one action.
MicroPython plays shorter matches (3 marks) to fit its heap."""
import sys

from engine.families_play import Rng, check_undo, choose, run_random_matches
from tiletable.engine.rulesets import find_ruleset

SHORT = {} if sys.implementation.name == "cpython" else {"target": 3}
VARIANTS = [
    dict(SHORT),
    dict(SHORT, all_pass="shaker_forced", mark_raise="any", max_opening_marks=3, nt_doubles="low"),
    dict(SHORT, nt_doubles="own_suit", stop_when_decided=False),
    dict(SHORT, nello=True, nello_doubles="low", plunge=True, sevens=True),
]
TRICKS = 3  # fortytwo.State.phase while tricks are played


def check(state, action):
    if state.phase == TRICKS:
        assert sum(h.size() for h in state.hands) + len(state.plays) == 28
        per_trick = 3 if state.out_seat is not None else 4  # nello: the bidder's partner sits out
        assert len(state.plays) == per_trick * state.trick_number + len(state.trick)
        assert sum(state.side_tricks) == state.trick_number
        assert sum(state.points) == state.trick_number + sum(count for count in _counts(state))
    assert state.scores[0] == state.scores[2] and state.scores[1] == state.scores[3]
    assert [sum(e.points for e in state.score_events if e.seat == s) for s in range(4)] == state.scores
    if state.last_hand is not None:
        assert sum(state.last_hand[3]) <= 42


def _counts(state):
    for trick, seat, tile in state.plays:
        if trick < state.trick_number:
            pips = (tile >> 4) + (tile & 15)
            yield pips if pips % 5 == 0 and pips else 0


def test_random_matches_keep_every_tile_and_score_one_side_a_hand():
    run_random_matches("texas-42", VARIANTS, check, bid_rarely=True)


def test_undo_takes_back_exactly_one_action():
    check_undo("texas-42", SHORT)


def test_every_hand_gives_its_marks_to_exactly_one_side():
    state = find_ruleset("texas-42", **SHORT).new_state()
    rng = Rng(5)
    while not state.is_over():
        before = list(state.scores)
        state.play(choose(state, rng, bid_rarely=True))
        gained = [state.scores[s] - before[s] for s in range(4)]
        assert gained == [0, 0, 0, 0] or (gained[0] == gained[2] > 0) != (gained[1] == gained[3] > 0)
    winners = state.outcome().winners
    assert len(winners) == 2 and winners[1] == winners[0] + 2
    assert state.scores[winners[0]] >= state.ruleset.params["target"]
