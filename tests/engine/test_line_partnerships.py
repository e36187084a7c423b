# portable
"""Partnerships (rule book §4.1 ``partnerships``): four players, partners opposite (seats 0+2
and 1+3), one score per side. Whatever either partner scores counts for both (each display
shows the side's score), and the side that goes out, or holds fewer pips in a block, takes
the opponents' pips; the partner's own tiles never count against them."""
from portable import raises

from engine.line_setup import run, start
from tiletable.engine.errors import RulesetError
from tiletable.engine.rulesets import load_ruleset

BLOCK = {"setter": "rotate", "partnerships": True}


def _events(state):
    return [(e.seat, e.points, e.rule) for e in state.score_events]


def test_the_side_that_goes_out_scores_the_opponents_pips():
    state = start("block", [["6-6", "5-6"], ["0-1", "0-2"], ["4-6", "1-1"], ["0-3", "2-2"]], **BLOCK)
    run(state, "6-6 pass 4-6>L pass 5-6>R")  # P0 goes out; P2 still holds 1-1
    assert _events(state) == [(0, 10, "domino"), (2, 10, "domino")]  # P1 0-1 0-2 (3) + P3 0-3 2-2 (7)
    assert state.score_events[0].detail == "opponents' pips P1 3 + P3 7 = 10"
    assert state.score_events[1].detail == "partner P0: opponents' pips P1 3 + P3 7 = 10"
    assert state.scores == [10, 0, 10, 0]


def test_a_block_is_won_by_the_side_with_fewer_pips():
    state = start("block", [["6-6", "0-0"], ["1-2", "1-3"], ["2-3", "0-1"], ["4-5", "1-4"]], **BLOCK)
    run(state, "6-6 pass pass pass pass")  # nobody holds a six
    # side P0+P2 holds 0 + 6 pips, side P1+P3 7 + 14: the lighter side takes 21, to both partners
    assert _events(state) == [(0, 21, "blocked"), (2, 21, "blocked")]
    assert state.scores == [21, 0, 21, 0]


def test_sides_that_tie_in_a_block_score_nothing_unless_the_lightest_tile_decides():
    hands = [["6-6", "0-0"], ["0-1", "1-2"], ["1-3", "0-5"], ["0-2", "0-3"]]  # 0 + 4 + 5 = 1 + 3 + 2 + 3 = 9
    state = start("block", hands, **BLOCK)
    run(state, "6-6 pass pass pass pass")
    assert state.score_events == [] and state.scores == [0, 0, 0, 0]
    state = start("block", hands, blocked_tie="lightest_tile", **BLOCK)
    run(state, "6-6 pass pass pass pass")  # P0 holds 0-0, the lightest tile
    assert _events(state) == [(0, 9, "blocked"), (2, 9, "blocked")]


def test_points_made_during_play_count_for_both_partners_and_end_the_match_together():
    state = start("muggins", [["5-5", "0-1"], ["1-2", "1-3"], ["2-3", "2-4"], ["3-4", "3-6"]], partnerships=True, setter="rotate", target=10)
    run(state, "5-5 claim0")  # 5 + 5 = 10 on the set double, claimed by P0
    assert _events(state)[:2] == [(0, 10, "fives"), (2, 10, "fives")]
    outcome = state.outcome()
    assert outcome is not None and list(outcome.winners) == [0, 2]


def test_partnership_rulesets_that_cannot_work_are_refused():
    cases = [
        ({"partnerships": True}, "params.deal", "played by 4"),
        ({"partnerships": True, "deal": {"4": 5}, "blocked_tie": "split"}, "params.blocked_tie", "two sides that tie"),
        ({"partnerships": True, "deal": {"4": 5}, "blocked_winner": "hoyle_no_doubles_first"}, "params.blocked_winner", "fewer pips"),
    ]
    for params, field, words in cases:
        err = raises(RulesetError, load_ruleset, {"family": "line", "name": "x", "params": params})
        assert err.field == field and words in err.reason, (params, err.field, err.reason)
    err = raises(RulesetError, load_ruleset, {"family": "line", "name": "x", "params": {"partnerships": True, "deal": {"4": 6}, "max_pip": 8, "doubles": False, "hand_award": "betting_settlement", "stock_after_deal": "unused", "match_end": "num_games"}})
    assert err.field == "params.partnerships", (err.field, err.reason)


def test_minus_own_counts_the_whole_side_and_never_goes_below_zero():
    hands = [["6-6", "5-6"], ["0-1", "0-2"], ["4-6", "5-5"], ["0-3", "1-1"]]
    state = start("block", hands, hand_award="others_sum_minus_own", **BLOCK)
    run(state, "6-6 pass 4-6>L pass 5-6>R")  # P0 out; P2 keeps 5-5 (10) against P1 3 + P3 5 = 8
    assert state.score_events == [] and state.scores == [0, 0, 0, 0]
