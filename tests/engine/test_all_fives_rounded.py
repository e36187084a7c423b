# portable
"""All Fives rounding (MORE-GAMES §2): the supplement's test vectors TV-R5-1…7, one test each,
played with the ``all-fives-rounded`` preset (Muggins with ``hand_award`` rounded5).

Each hand is one the setter wins by setting its only tile (a double whose count is no
multiple of 5, so that only the hand award scores), or a block where nobody can follow.
"""
from engine.line_setup import run, start


def _domino(opponents, **params):
    """P0 sets 4-4 (8: no fives) and is out: the award for ``opponents``' single tiles."""
    params.setdefault("setter", "rotate")  # P0 sets, whoever holds the highest double
    state = start("all-fives-rounded", [["4-4"]] + [[t] for t in opponents], **params)
    return state, [(e.seat, e.points, e.rule) for e in run(state, "4-4")]


def test_TV_R5_1_the_rule_books_case():
    state = start("all-fives-rounded", [["3-3"], ["3-4"], ["5-6"]])
    events = run(state, "3-3")  # 7 + 11 = 18, remainder 3: up
    assert [(e.seat, e.points, e.rule) for e in events] == [(0, 20, "domino")]
    assert events[0].detail == "opponents' pips 7 + 11 = 18, to the nearest 5 = 20"


def test_TV_R5_2_both_sides_of_a_multiple():
    for opponents, points in ((["6-6", "0-0"], 10), (["6-6", "0-1"], 15), (["6-6", "2-3"], 15), (["6-6", "5-6"], 25), (["6-6", "5-6", "1-1"], 25)):
        assert _domino(opponents)[1] == [(0, points, "domino")], opponents


def test_TV_R5_3_small_totals():
    for tile, points in (("0-0", 0), ("0-1", 0), ("0-2", 0), ("1-2", 5), ("1-3", 5), ("2-3", 5)):
        assert _domino([tile])[1] == ([(0, points, "domino")] if points else []), tile


def test_TV_R5_4_the_sum_is_rounded_once():
    assert _domino(["3-4", "5-6"])[1] == [(0, 20, "domino")]  # R5(7 + 11) = 20
    # rounding each hand (round_each, not built: no source plays it) would give 5 + 10 = 15
    assert _domino(["3-4"])[1][0][1] + _domino(["5-6"])[1][0][1] == 15


def test_TV_R5_5_units_of_five():
    for opponents, points in ((["3-4", "5-6"], 4), (["6-6", "0-0"], 2), (["0-2", "0-0"], 0)):
        assert _domino(opponents, units="fives")[1] == ([(0, points, "domino")] if points else []), opponents


def _blocked(**params):
    """P0 sets 6-6 and holds 4 pips; P1 holds 9, P2 14; nobody has a six: blocked."""
    params.update(stock_after_deal="unused", draw_policy="none")
    state = start("all-fives-rounded", [["6-6", "0-4"], ["4-5", "0-0"], ["5-5", "1-3"]], **params)
    run(state, "6-6")
    return [(e.seat, e.points, e.rule) for e in run(state, "pass pass pass")]


def test_TV_R5_6_minus_own_then_rounded_on_a_block():
    assert _blocked() == [(0, 25, "blocked")]  # R5(9 + 14 = 23)
    assert _blocked(hand_award="others_sum_minus_own", round5=True) == [(0, 20, "blocked")]  # R5(23 - 4 = 19)


def test_TV_R5_7_the_rounded_award_reaches_the_target():
    state = start("all-fives-rounded", [["4-4"], ["6-6"], ["0-1"]], setter="rotate")
    state.scores[0] = 185
    run(state, "4-4")  # 13 -> 15
    assert state.scores[0] == 200 and state.outcome().winners == (0,) and state.outcome().termination == "target"
