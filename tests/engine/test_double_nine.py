# portable
"""Latin partnership Double-Nine (MORE-GAMES §3): the supplement's vectors (TV-LAT-1…10), one
test each. The hand award's (1…6, 8, 9) play the block game's rules with the double-nine set,
partners and play counter-clockwise, a fixed tile naming who sets; the lead's and the thrown-in
deal's (7, 10) play the ``cuban`` preset, its side lot first. The side names its leader as the
line family names who sets when the table cannot see it: its player declares it (``setter2``).

Seats are numbered from 0 as in the actions; sides are A (seats 0 and 2) and B (1 and 3).
"""
from portable import raises, table_ruleset

from engine.line_setup import legal, run, start
from tiletable.engine.errors import RulesetError
from tiletable.engine.line_actions import P_DEAL, P_DECLARE, P_LOT, P_PLAY
from tiletable.engine.tiles import pips


def _d9(hands, setting_tile, **params):
    """The hands dealt (a few tiles each: what the vector leaves); ``setting_tile`` sets."""
    return start(
        "block", hands, max_pip=9, partnerships=True, direction="counterclockwise",
        setter="fixed_tile", fixed_tile=setting_tile, **params
    )


def _cuban(lots, hands, leader="", **params):
    """The ``cuban`` preset after its side lot (``lots``: the texts drawn), the deal of
    ``hands`` (the deal size is the first hand's) and the side's ``setter`` (its text)."""
    params["deal"] = {"4": len(hands[0])}
    state = table_ruleset("cuban", **params).new_state(4)
    run(state, lots)
    for seat in range(4):
        for text in hands[seat]:
            state.play("D%d:%s" % (seat, text))
    run(state, leader)
    return state


def _events(events):
    return [(e.seat, e.points) for e in events]


def test_TV_LAT_1_set_and_deal():
    ruleset = table_ruleset("block", max_pip=9, deal={"4": 10}, partnerships=True)
    state = ruleset.new_state(4)
    assert len(state.tiles) == 55 and sum(pips(t) for t in state.tiles) == 495
    while state.stock > 15:  # the deal, tile by tile
        state.apply(state.chance_outcomes()[0])
    assert [len(hand) for hand in state.hands] == [10] * 4 and state.stock == 55 - 40


def test_TV_LAT_2_direction_and_sides():
    hands = [["0-1", "8-9"], ["2-3", "2-4"], ["4-5", "2-5"], ["6-7", "2-6"]]
    state = start("block", hands, max_pip=9, partnerships=True, direction="counterclockwise", setter="rotate")
    assert state.current_player() == 0
    order = []
    for _ in range(4):  # nobody can follow 0-1: every seat after seat 0 knocks in turn
        run(state, "pass" if order else "0-1")
        order.append(state.current_player())
    assert order == [3, 2, 1, 0] and order[0] % 2 == 1  # the next after seat 0 is on side B


# seat 3 sets 1-7; seat 2 plays 7-7, seats 1 and 0 cannot follow, seat 3 goes out with 1-1:
# left are P0 9-9 2-5 (25), P1 0-4 6-8 (18), P2 0-3 (3)
_LAT3 = [["9-9", "2-5"], ["0-4", "6-8"], ["0-3", "7-7"], ["1-7", "1-1"]]
_LAT3_PLAYS = "1-7 7-7>R pass pass 1-1>L"


def test_TV_LAT_3_domino_award():
    state = _d9(_LAT3, "1-7")
    events = run(state, _LAT3_PLAYS)
    assert _events(events) == [(3, 28), (1, 28)] and events[0].detail == "opponents' pips P0 25 + P2 3 = 28"
    state = _d9(_LAT3, "1-7", hand_award="all_hands")
    assert _events(run(state, _LAT3_PLAYS)) == [(3, 46), (1, 46)]  # 25 + 18 + 3


# seat 3 sets 6-6, seat 2 plays 3-6, seat 1 3-3; then four passes with ends 6 and 3:
# A: P0 1-2 0-9 (12) + P2 4-5 (9) = 21; B: P1 7-8 (15) + P3 0-4 (4) = 19
_LAT4 = [["1-2", "0-9"], ["7-8", "3-3"], ["4-5", "3-6"], ["0-4", "6-6"]]


def test_TV_LAT_4_tranque_side_totals():
    state = _d9(_LAT4, "6-6")
    events = run(state, "6-6 3-6>R 3-3>R pass pass pass pass")
    assert _events(events) == [(3, 21), (1, 21)] and state.hand_number == 1  # B's lighter hand, P3, wins
    state = _d9(_LAT4, "6-6", hand_award="all_hands")
    assert _events(run(state, "6-6 3-6>R 3-3>R pass pass pass pass")) == [(3, 40), (1, 40)]


# seat 0 sets 4-6, seat 3 plays 6-6, seat 2 cannot, seat 1 makes the last play 4-4; then four
# passes: A: P0 0-2 (2) + P2 8-9 1-2 (20) = 22; B: P1 5-5 (10) + P3 3-7 (10) = 20
_LAT5 = [["0-2", "4-6"], ["5-5", "4-4"], ["8-9", "1-2"], ["3-7", "6-6"]]
_LAT5_PLAYS = "4-6 6-6>R pass 4-4>L pass pass pass pass"


def test_TV_LAT_5_the_three_tranque_rules_disagree():
    assert _events(run(_d9(_LAT5, "4-6"), _LAT5_PLAYS)) == [(1, 22), (3, 22)]  # side totals: B, 20 < 22
    assert _events(run(_d9(_LAT5, "4-6", blocked_compare="lowest_hand"), _LAT5_PLAYS)) == [(0, 20), (2, 20)]
    assert _events(run(_d9(_LAT5, "4-6", blocked_compare="blocker_vs_next"), _LAT5_PLAYS)) == [(0, 20), (2, 20)]


def test_TV_LAT_6_tranque_tie():
    # seat 0 sets 2-5, seat 3 plays 5-5, seat 2 2-2; then four passes: A 4 + 15, B 4 + 15
    hands = [["0-4", "2-5"], ["1-3", "0-0"], ["7-8", "2-2"], ["6-9", "5-5"]]
    plays = "2-5 5-5>R 2-2>L pass pass pass pass"
    for compare in ("side_totals", "lowest_hand"):  # equal sides; the lowest hand (4) on both sides
        state = _d9(hands, "2-5", blocked_compare=compare)
        assert run(state, plays) == [] and state.hand_number == 1, compare


def test_TV_LAT_7_first_leader():
    state = table_ruleset("cuban").new_state(4)
    assert state.current_phase() == P_LOT and legal(state)[0].startswith("lot0:")  # before the deal
    run(state, "lot0:3-8 lot1:1-9")  # 11 against 10: side A leads
    assert state.current_phase() == P_DEAL and state.stock == 55  # the lot tiles went back
    state = _cuban("lot0:3-8 lot1:1-9", _LAT3)
    assert state.current_phase() == P_DECLARE and legal(state) == ["setter0", "setter2"]
    assert state.why_illegal(state.parse_action("setter1")) is not None
    run(state, "setter2")
    assert state.current_phase() == P_PLAY and state.current_player() == 2
    state = table_ruleset("cuban").new_state(4)
    run(state, "lot0:3-8 lot1:2-9")  # 11 and 11: both draw again
    assert state.current_phase() == P_LOT and legal(state)[0].startswith("lot0:")
    assert state.why_illegal(state.parse_action("lot0:3-8")) is not None  # still out
    run(state, "lot0:0-1 lot1:0-2")
    assert legal(_cuban("lot0:0-1 lot1:0-2", _LAT3)) == ["setter1", "setter3"]  # side B chooses
    # highest_double: 9-9 is not dealt, seat 2 holds 8-8: it leads with it
    hands = [["7-7", "0-1", "0-2"], ["6-6", "1-2", "1-3"], ["8-8", "2-3", "2-4"], ["5-5", "3-4", "3-5"]]
    state = start("block", hands, max_pip=9, partnerships=True, direction="counterclockwise", set_constraint="qualifying_tile")
    assert state.current_player() == 2 and legal(state) == ["8-8"]


def test_the_winning_side_names_the_next_leader_and_after_a_tie_the_side_that_led():
    state = _cuban("lot0:0-1 lot1:9-9", _LAT3, "setter3")
    run(state, _LAT3_PLAYS)  # seat 3 goes out: side B won
    run(state, "D0:0-1 D0:0-2 D1:0-3 D1:0-4 D2:0-5 D2:0-6 D3:0-7 D3:0-8")
    assert state.current_phase() == P_DECLARE and legal(state) == ["setter1", "setter3"]
    state = _cuban("lot0:9-9 lot1:0-1", [["0-4", "2-5"], ["1-3", "0-0"], ["7-8", "2-2"], ["6-9", "5-5"]], "setter0")
    assert run(state, "2-5 5-5>R 2-2>L pass pass pass pass") == []  # a tied tranque: A led it
    run(state, "D0:0-1 D0:0-2 D1:0-3 D1:0-4 D2:0-5 D2:0-6 D3:0-7 D3:0-8")
    assert state.current_phase() == P_DECLARE and legal(state) == ["setter0", "setter2"]


def test_TV_LAT_8_capicua():
    # seat 1 sets 4-4, seat 0 plays 4-9, seat 3 9-7: ends 4 and 7; seat 2 cannot; seat 1's 4-7 fits both
    hands = [["4-9", "2-3"], ["4-4", "4-7"], ["0-0", "1-1"], ["7-9", "5-6"]]
    plays = "4-4 4-9>R 7-9>R pass 4-7>R"
    events = run(_d9(hands, "4-4", capicua=True), plays)
    assert _events(events) == [(1, 32), (3, 32)] and events[0].detail == "opponents' pips P0 5 + P2 2 = 7, capicua 25"
    assert _events(run(_d9(hands, "4-4"), plays)) == [(1, 7), (3, 7)]
    # ends 7 and 7 (seat 1 set 7-7, nobody could follow): 2-7 fits both, but the ends are equal
    hands = [["0-1", "2-3"], ["7-7", "2-7"], ["1-1", "3-4"], ["5-6", "0-2"]]
    plays = "7-7 pass pass pass 2-7>L"
    assert _events(run(_d9(hands, "7-7", capicua=True), plays)) == [(1, 15), (3, 15)]
    assert _events(run(_d9(hands, "7-7", capicua=True, capicua_same_ends=True), plays)) == [(1, 40), (3, 40)]
    # ends 4 and 7: 7-7 fits only the 7
    hands = [["4-9", "2-3"], ["4-4", "7-7"], ["0-0", "1-1"], ["7-9", "5-6"]]
    plays = "4-4 4-9>R 7-9>R pass 7-7>R"
    assert _events(run(_d9(hands, "4-4", capicua=True, capicua_same_ends=True), plays)) == [(1, 7), (3, 7)]


# seat 2: five doubles and five singles; seat 0: four doubles
_LAT10 = [
    ["1-1", "2-2", "4-4", "6-6", "1-2", "1-3", "1-4", "1-5", "1-6", "1-7"],
    ["2-3", "2-4", "2-5", "2-6", "2-7", "2-8", "2-9", "3-4", "3-5", "3-6"],
    ["0-0", "3-3", "5-5", "8-8", "9-9", "0-1", "0-2", "0-3", "0-4", "0-5"],
    ["3-7", "3-8", "3-9", "4-5", "4-6", "4-7", "4-8", "4-9", "5-6", "5-7"],
]


def test_TV_LAT_10_thrown_in_deal():
    state = _cuban("lot0:3-8 lot1:1-9", _LAT10)  # while side A names its leader
    assert legal(state) == ["setter0", "setter2", "show2"]
    assert state.why_illegal(state.parse_action("show0")) is not None  # four doubles
    assert run(state, "show2") == [] and state.scores == [0] * 4
    assert state.hand_number == 0 and state.current_phase() == P_LOT  # the first hand again, its lot too
    state = _cuban("lot0:3-8 lot1:1-9", _LAT10, "setter0")
    run(state, "1-2")  # on the table the leader's first tile names it
    assert state.why_illegal(state.parse_action("show2")) is not None  # the first tile is down
    state = _cuban("lot0:3-8 lot1:1-9", _LAT10, "setter0", doubles_redeal=0)
    assert "show2" not in legal(state) and "doubles_redeal" not in state.p


def test_TV_LAT_9_match_end():
    state = _d9(_LAT3, "1-7", target=100)
    state.scores[1] = state.scores[3] = 92  # side B, as the match left it
    run(state, _LAT3_PLAYS)  # + 28 = 120
    assert state.is_over() and list(state.outcome().winners) == [1, 3] and state.scores[1] == 120


def test_the_latin_rules_need_partnerships_and_a_line():
    for params in ({"blocked_compare": "lowest_hand"}, {"capicua": True}, {"hand_award": "all_hands"}):
        raises(RulesetError, table_ruleset, "block", **params)
    raises(RulesetError, table_ruleset, "muggins", partnerships=True, deal={"4": 5}, spinner="first_double", count_mode="all_fives_spinner", capicua=True)
    assert table_ruleset("block", partnerships=True, deal={"4": 7}, capicua=True).params["capicua_bonus"] == 25
