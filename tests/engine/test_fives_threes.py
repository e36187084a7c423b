# portable
"""Fives and Threes (MORE-GAMES §1): the supplement's test vectors TV-F3-1…10, one test each.

Positions are reached by applying actions, as on the table. Where a vector starts from a
given score ("P0 has 58") the score is set on the state before the play, as a match would
have left it. Most vectors fix who leads (``setter rotate``: seat 0 leads the first hand)
so that a deal can be given at once; TV-F3-8 plays the presets' lot before the deal.
"""
from portable import raises, table_ruleset

from engine.line_setup import legal, run, start
from tiletable.engine.errors import IllegalAction
from tiletable.engine.line_score_threes_fives import threes_fives
from tiletable.engine.state import CHANCE

# ends total 0..22 -> points, the supplement's table (19 and 21 cannot occur, F3 gives 0 and 7)
TABLE = (0, 0, 0, 1, 0, 1, 2, 0, 0, 3, 2, 0, 4, 0, 0, 8, 0, 0, 6, 0, 4, 7, 0)


def _f3(hands, **params):
    params.setdefault("setter", "rotate")
    return start("fives-threes-pairs" if params.pop("pairs", False) else "fives-threes", hands, **params)


def _events(events):
    return [(e.seat, e.points) for e in events]


def test_TV_F3_1_score_table():
    assert [threes_fives(n) for n in range(23)] == list(TABLE)
    assert (threes_fives(15), threes_fives(18), threes_fives(20), threes_fives(22), threes_fives(0)) == (8, 6, 4, 0, 0)


def test_TV_F3_2_two_player_sequence():
    state = _f3([["3-6", "6-6", "1-3", "0-0", "0-2", "2-2", "2-5"], ["3-4", "1-4", "2-6", "0-5", "5-5", "0-3", "4-5"]])
    steps = (("3-6", (0, 3)), ("3-4>L", (1, 2)), ("6-6>R", None), ("1-4>L", None), ("1-3>L", (0, 8)), ("2-6>R", (1, 1)))
    for action, event in steps:
        assert _events(run(state, action)) == ([event] if event else []), action
    assert state.scores == [11, 3]
    assert state.score_events[2].detail == "ends 3 + 6x2 = 15"


def test_TV_F3_3_a_lone_lead_scores():
    for lead, points in (("6-6", 4), ("5-5", 2), ("3-3", 2), ("0-5", 1), ("1-2", 1), ("4-6", 2), ("5-6", 0), ("0-0", 0)):
        spare = "1-1" if lead != "1-1" else "2-2"
        state = _f3([[lead, spare], ["3-4", "2-4"] if lead not in ("3-4", "2-4") else ["0-1", "0-2"]])
        assert [e.points for e in run(state, lead)] == ([points] if points else []), lead


def _ends_2_and_5(p0):
    """P0 leads 2-4, P1 plays 4-5: ends L 2, R 5 with P0 to play from ``p0``."""
    state = _f3([["2-4"] + p0, ["4-5", "0-0", "0-6"][: len(p0) + 1]])
    run(state, "2-4 4-5>R")
    return state


def test_TV_F3_4_knocking_is_forced_and_only_then_legal():
    state = _ends_2_and_5(["5-6", "1-3"])
    assert legal(state) == ["5-6>R"]
    assert raises(IllegalAction, state.play, "pass").reason == "P0 must play: it holds a tile that fits"
    assert legal(_ends_2_and_5(["1-3", "4-4"])) == ["pass"]
    assert legal(_ends_2_and_5(["2-5", "0-1"])) == ["2-5>L", "2-5>R"]
    assert _events(run(_ends_2_and_5(["2-5", "0-1"]), "2-5>L")) == [(0, 2)]  # ends 5, 5
    assert _events(run(_ends_2_and_5(["2-5", "0-1"]), "2-5>R")) == []  # ends 2, 2
    # the last tile: the chip-out point joins the play's score, one event
    state = _ends_2_and_5(["2-5"])
    events = run(state, "2-5>L")
    assert _events(events) == [(0, 3)] and events[0].detail == "ends 5 + 5 = 10, chipped out 1"


def _chip_out(before, last, extra=(), **params):
    """P0 leads 0-4, P1 plays 1-4 (ends 0, 1: nothing), P0 plays ``last`` on L from ``before`` points."""
    state = _f3([["0-4", last] + list(extra), ["1-4", "5-5"] + ["6-6"] * bool(extra)], **params)
    state.scores[0] = before
    run(state, "0-4 1-4>R")
    return state, run(state, last + ">L")


def test_TV_F3_5_exact_61_individual():
    state, events = _chip_out(58, "0-2")  # ends 2 + 1 = 3: 1, and 1 for chipping out
    assert _events(events) == [(0, 2)] and state.scores[0] == 60 and not state.is_over() and state.hand_number == 1
    state, _ = _chip_out(59, "0-2")
    assert state.scores[0] == 61 and state.outcome().winners == (0,)
    state, events = _chip_out(59, "0-5")  # ends 5 + 1 = 6: 2 + 1 = 3, 62: disregarded, the hand still ends
    assert events == [] and state.scores[0] == 59 and not state.is_over() and state.hand_number == 1
    state, events = _chip_out(60, "0-2", extra=["3-3"])  # not out: +1 makes 61, the match ends mid-hand
    assert _events(events) == [(0, 1)] and state.outcome().winners == (0,) and state.hand_number == 0
    state, _ = _chip_out(59, "0-5", target_exact=False)
    assert state.scores[0] == 62 and state.outcome().winners == (0,)


_PAIRS = [["2-6", "1-4"], ["5-6", "4-6"], ["2-3", "3-6"], ["1-5", "0-0"]]


def test_TV_F3_6_partnership_hand_end_and_the_sides_chip_point():
    state = _f3(_PAIRS, pairs=True)
    assert run(state, "2-6 5-6>R 2-3>L 1-5>R") == []
    assert run(state, "1-4>R") == []  # seat 0 is out: ends 3 + 4 = 7, no chip point yet
    assert state.current_player() == 1 and state.hand_number == 0
    assert _events(run(state, "4-6>R")) == [(1, 3), (3, 3)]  # ends 3 + 6 = 9
    assert state.current_player() == 2
    events = run(state, "3-6>L")  # seat 2's last tile: ends 6 + 6 = 12: 4, and the side's chip point
    assert _events(events) == [(2, 5), (0, 5)] and events[0].detail == "ends 6 + 6 = 12, chipped out 1"
    assert state.scores == [5, 3, 5, 3] and state.hand_number == 1


def test_TV_F3_6_a_block_after_one_is_out_scores_nothing():
    state = _f3([["2-6", "1-4"], ["5-6", "0-0"], ["2-3", "1-1"], ["1-5", "2-2"]], pairs=True)
    run(state, "2-6 5-6>R 2-3>L 1-5>R 1-4>R")
    assert state.current_player() == 1
    assert run(state, "pass pass") == [] and state.hand_number == 0 and state.current_player() == 3
    assert run(state, "pass") == [] and state.hand_number == 1  # seats 1, 2, 3 knocked: blocked
    assert state.scores == [0, 0, 0, 0]


def test_TV_F3_6_a_seat_that_is_out_is_skipped_after_a_play_and_after_a_knock():
    hands = [["2-6", "1-4", "0-2"], ["5-6", "4-6", "1-1"], ["2-3", "3-6", "0-0"], ["1-5", "0-6", "2-4"]]
    state = _f3(hands, pairs=True)
    run(state, "2-6 5-6>R 2-3>L 1-5>R 1-4>R 4-6>R 3-6>L 0-6>L 0-2>L")  # seat 0 is out
    assert state.current_player() == 1
    run(state, "pass pass 2-4>L")  # seat 3 is out too: seat 1 is next, not seat 0
    assert state.current_player() == 1 and state.hand_number == 0
    run(state, "pass")
    assert state.current_player() == 2
    run(state, "pass")  # both seats still holding tiles knocked: blocked
    assert state.hand_number == 1


def test_TV_F3_6_first_out_ends_the_hand_at_once():
    state = _f3(_PAIRS, pairs=True, partnership_end="first_out")
    run(state, "2-6 5-6>R 2-3>L 1-5>R")
    assert _events(run(state, "1-4>R")) == [(0, 1), (2, 1)] and state.hand_number == 1


def test_TV_F3_7_blocked_individual_hand():
    hands = [["6-6", "0-4"], ["4-5", "0-0"], ["1-3", "1-2"]]
    state = _f3(hands)
    assert _events(run(state, "6-6")) == [(0, 4)]  # a lone double led: 12
    assert run(state, "pass pass pass") == [] and state.hand_number == 1 and state.scores == [4, 0, 0]
    state = _f3(hands, hand_award="rounded5", units="fives", blocked_award="same")  # pips_fives
    run(state, "6-6")
    events = run(state, "pass pass pass")  # P0 holds 4, the lowest: R5(9 + 7 = 16) = 15, in fives 3
    assert [(e.seat, e.points, e.rule) for e in events] == [(0, 3, "blocked")]
    assert events[0].detail == "opponents' pips 9 + 7 = 16, to the nearest 5 = 15, in fives = 3"


def _deal_and_play_the_hand(state):
    """Deal the next hand from the sorted stock and play it out by the first legal action."""
    hand = state.hand_number
    while state.hand_number == hand and not state.is_over():
        if state.current_player() == CHANCE:
            state.apply(state.chance_outcomes()[0])
        else:
            state.apply(state.generate_legal_actions()[0])


def _deal(state):
    while state.current_player() == CHANCE:
        state.apply(state.chance_outcomes()[0])


def test_TV_F3_8_lot_then_the_lead_passes_left():
    state = table_ruleset("fives-threes", target=1000).new_state(4)
    run(state, "lot0:2-3 lot1:4-6 lot2:5-5 lot3:0-1")  # seats 1 and 2 tie on 10 and draw again
    assert state.waits_for(1) and state.waits_for(2) and not state.waits_for(0)
    run(state, "lot1:3-3 lot2:0-2")
    _deal(state)
    assert state.current_player() == 1
    leaders = [state.current_player()]
    for _ in range(3):
        _deal_and_play_the_hand(state)
        _deal(state)
        leaders.append(state.current_player())
    assert leaders == [1, 2, 3, 0]


def test_TV_F3_8_deal_sizes():
    for deal, players, each, out in ((None, 2, 7, 14), (None, 3, 5, 13), (None, 4, 5, 8), ({"4": 6}, 4, 6, 4), ({"2": 9}, 2, 9, 10)):
        params = {"setter": "rotate"}
        if deal:
            params["deal"] = deal
        state = table_ruleset("fives-threes", **params).new_state(players)
        _deal(state)
        assert [len(h) for h in state.hands] == [each] * players and state.stock == out, (players, each)
    pairs = table_ruleset("fives-threes-pairs", deal={"4": 6})
    assert pairs.player_counts() == [4]


def test_TV_F3_9_the_maximum_scores_nothing():
    state = _f3([["5-6", "5-5", "0-0"], ["6-6", "1-1", "0-1"]])
    assert run(state, "5-6 6-6>R 5-5>L") == []  # ends 5x2 + 6x2 = 22
    assert state.layout.count(0) == 22


def test_TV_F3_9_knock_bonus():
    hands = [["0-4", "3-3"], ["5-5", "6-6"], ["1-1", "2-2"], ["0-5", "1-2"]]
    state = _f3(hands, knock_bonus=True)
    events = run(state, "0-4 pass pass 0-5>L")  # ends 5 + 4 = 9: 3, and 2 knocks
    assert [(e.seat, e.points, e.detail) for e in events] == [(3, 5, "ends 5 + 4 = 9, 2 knocked")]
    assert _events(run(_f3(hands), "0-4 pass pass 0-5>L")) == [(3, 3)]


def test_TV_F3_10_the_exact_rule_on_a_side():
    state = _f3([["3-6", "1-1"], ["6-6", "1-2"], ["2-3", "1-3"], ["0-2", "1-4"]], pairs=True)
    run(state, "3-6")  # 9: side A 3
    state.scores[1] = state.scores[3] = 57
    assert run(state, "6-6>R") == [] and state.scores == [3, 57, 3, 57]  # 3 + 12 = 15: 8, 65 > 61
    assert run(state, "2-3>L") == []  # 2 + 12 = 14
    assert _events(run(state, "0-2>L")) == [(3, 4), (1, 4)]  # 0 + 12 = 12: 4, 61
    assert state.outcome().winners == (1, 3) and state.scores == [3, 61, 3, 61]


def test_the_knock_bonus_and_claims_need_threes_fives_and_both_out_partners():
    from tiletable.engine.errors import RulesetError

    for params in ({"knock_bonus": True}, {"partnership_end": "both_out"}, {"units": "fives"}):
        raises(RulesetError, table_ruleset, "block", **params)
    assert table_ruleset("fives-threes", muggins_claims="manual").params["muggins_claims"] == "manual"
