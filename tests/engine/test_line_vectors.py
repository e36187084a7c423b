# portable
"""Rule-book test vectors of the line family (RULES.md §3.1-§3.7, §3.12), one test per TV id.

Positions are reached by applying actions (known deals, sets, plays); where a vector needs a
boneyard size a two-player deal cannot leave, the other hand is dealt unseen (``D1:?``) and
draws unseen tiles, which the engine allows exactly as a table that cannot see that hand.
"""
from portable import raises

from engine.line_setup import legal, run, snapshot, start
from tiletable.engine.betting import payout
from tiletable.engine.errors import E_BET, E_MUST_PLAY, E_NO_DRAW, IllegalAction
from tiletable.engine.state import CHANCE


def _plays(state):
    return [a for a in legal(state) if ">" in a]


def _drain(state, times):
    """The seat to act draws ``times`` unseen tiles (its hand is unseen, so nothing is implied)."""
    seat = state.current_player()
    for _ in range(times):
        run(state, "draw D%d:?" % seat)


# --- §3.1 Block -----------------------------------------------------------------------------
def blk1_position():
    """Ends L=3, R=5 with P1 to play {3-3, 1-5, 2-4, 0-6, 3-5} (also used by the OpenSpiel check)."""
    state = start(
        "block",
        [["2-5", "0-0", "0-1", "1-1", "1-2", "4-6"], ["2-3", "3-3", "1-5", "2-4", "0-6", "3-5"]],
        setter="rotate",
    )
    run(state, "2-5 2-3>L pass")
    return state


def test_TV_BLK_1_placement_count():
    state = blk1_position()
    assert state.layout.text() == "L=3 R=5" and state.current_player() == 1
    assert legal(state) == ["1-5>R", "3-3>L", "3-5>L", "3-5>R"]


def test_TV_BLK_2_equal_ends_are_two_actions():
    state = start("block", [["4-4", "0-0"], ["2-4", "1-1"]], setter="rotate")
    run(state, "4-4")
    assert legal(state) == ["2-4>L", "2-4>R"]


def test_TV_BLK_3_blocked_three_players():
    for award, points in (("others_sum", 15), ("others_sum_minus_own", 14)):
        state = start(
            "block", [["3-4", "1-2"], ["0-0", "0-1"], ["6-6", "4-5"]], setter="rotate", hand_award=award
        )
        events = run(state, "3-4 pass 4-5>R pass pass pass")
        assert [(e.seat, e.points, e.rule) for e in events] == [(1, points, "blocked")], events
        assert state.hand_number == 1


def test_TV_BLK_3_detail_shows_the_arithmetic():
    state = start("block", [["3-4", "1-2"], ["0-0", "0-1"], ["6-6", "4-5"]], setter="rotate")
    events = run(state, "3-4 pass 4-5>R pass pass pass")
    assert events[0].detail == "opponents' pips 3 + 12 = 15"


def test_TV_BLK_4_blocked_tie_scores_nothing():
    state = start("block", [["6-6", "0-5"], ["2-6", "1-4"], ["3-6", "4-5"]], setter="rotate")
    events = run(state, "6-6 2-6>L 3-6>R pass pass pass")
    assert events == [] and state.scores == [0, 0, 0] and state.hand_number == 1


def test_TV_BLK_5_two_player_block():
    state = start("block", [["3-3", "5-5", "1-2"], ["3-5", "0-0", "0-1"]], setter="rotate")
    events = run(state, "3-3 3-5>L 5-5>L pass pass")
    assert [(e.seat, e.points) for e in events] == [(1, 3)]


# --- §3.2 Draw ------------------------------------------------------------------------------
def test_TV_DRW_1_go_rule():
    state = start("draw", [["3-4", "6-6", "1-5"], ["?", "?", "?"]], setter="rotate")
    run(state, "3-4")
    _drain(state, 19)  # boneyard 22 -> 3
    run(state, "4-4>R")  # ends 3 / 4
    assert state.stock == 3 and legal(state) == ["draw"]
    run(state, "draw D0:2-2")
    assert state.stock == 2 and legal(state) == ["pass"]
    err = raises(IllegalAction, state.play, "draw")
    assert err.code == E_NO_DRAW and "last 2 tiles" in err.reason


def test_TV_DRW_3_anytime_draws():
    state = start("draw", [["3-4", "4-5"], ["?", "?"]], setter="rotate", draw_policy="anytime")
    run(state, "3-4")
    _drain(state, 19)  # 24 -> 5
    run(state, "3-3>L")
    assert state.stock == 5 and legal(state) == ["4-5>R", "draw"]
    run(state, "draw D0:0-0 draw D0:0-1 draw D0:1-1")
    assert state.stock == 2 and legal(state) == ["4-5>R"]


# --- §3.3 Sebastopol --------------------------------------------------------------------------
def _sebastopol(p0, p1):
    return start("sebastopol", [p0, p1, ["?"] * 7, ["?"] * 7])


def test_TV_SEB_1_only_sixes_on_the_spinner():
    state = _sebastopol(["6-6"] + ["?"] * 6, ["2-6", "3-4", "2-2", "0-0", "0-1", "1-1", "1-2"])
    run(state, "6-6")
    assert legal(state) == ["2-6>L"]


def test_TV_SEB_2_fourth_point_before_any_arm():
    state = _sebastopol(["6-6", "1-5", "2-2", "4-6", "0-0", "0-1", "0-2"], ["?"] * 7)
    run(state, "6-6 1-6>L 2-6>R 3-6>S1")
    assert legal(state) == ["4-6>S2"]
    for text in ("1-5>L", "2-2>R"):
        raises(IllegalAction, state.play, text)


def test_TV_SEB_3_arms_after_the_four_points():
    state = _sebastopol(["6-6", "0-6", "1-5", "2-2", "4-4", "5-5", "5-6"], ["?"] * 7)
    run(state, "6-6 1-6>L 2-6>R 3-6>S1 0-6>S2 pass pass pass")
    assert legal(state) == ["1-5>L", "2-2>R"]


# --- §3.4 Bergen ------------------------------------------------------------------------------
_NO_DOUBLES_A = ["0-1", "0-2", "0-3", "0-4", "0-5", "0-6", "1-2"]
_NO_DOUBLES_B = ["1-3", "1-5", "1-6", "2-3", "2-4", "2-5", "3-4"]


def test_TV_BRG_1_heavier_doublet_sets_and_scores_two():
    state = start("bergen", [["2-2", "5-5", "0-1", "0-2", "0-3", "0-4", "0-5"], ["6-6", "1-2", "1-3", "1-4", "1-5", "1-6", "2-3"]])
    assert state.current_player() == 1 and legal(state) == ["6-6"]
    events = run(state, "6-6")
    assert [(e.seat, e.points, e.rule) for e in events] == [(1, 2, "double-header")]


def test_TV_BRG_2_equal_draws_before_the_set():
    # A is the non-dealer, P1 (the dealer of the first hand is P0); B is P0.
    state = start("bergen", [_NO_DOUBLES_B, _NO_DOUBLES_A])
    run(state, "D1:1-4 D0:2-6 D1:3-3")
    assert state.current_player() == CHANCE  # B still gets its draw
    run(state, "D0:5-5")
    assert state.current_player() == 0 and legal(state) == ["5-5"]
    assert [(e.seat, e.points) for e in run(state, "5-5")] == [(0, 2)]
    other = start("bergen", [_NO_DOUBLES_B, _NO_DOUBLES_A])
    run(other, "D1:1-4 D0:2-6 D1:3-3 D0:4-5")
    assert other.current_player() == 1 and legal(other) == ["3-3"]


def _bergen_headers(**params):
    return start(
        "bergen",
        [["1-1", "1-5", "3-3", "3-6", "0-0"], ["1-3", "3-5", "2-2", "4-4", "0-2"]],
        setter="rotate",
        set_constraint="any",
        **params
    )


def test_TV_BRG_3_double_and_triple_header():
    state = _bergen_headers()
    run(state, "1-1 1-3>L 1-5>R")  # ends 3 / 5
    events = run(state, "3-5>R")
    assert [(e.seat, e.points, e.rule) for e in events] == [(1, 2, "double-header")]
    events = run(state, "3-3>L")
    assert [(e.seat, e.points, e.rule) for e in events] == [(0, 3, "triple-header")]


def test_TV_BRG_5_no_score_after_a_header():
    state = _bergen_headers()
    run(state, "1-1 1-3>L 1-5>R 3-5>R")
    assert run(state, "3-6>L") == []


def test_TV_BRG_6_target_ends_the_match_mid_hand():
    # The setter's +2 and a triple-header make 5: with target 4 standing in for "14, then 16".
    state = _bergen_headers(target=4)
    run(state, "1-1 1-3>L 1-5>R 3-5>R 3-3>L")
    out = state.outcome()
    assert out is not None and out.termination == "target" and out.winners == (0,)
    assert state.hands[0] == [0x36, 0x00]  # the hand was not finished
    raises(IllegalAction, state.play, "pass")


# --- §3.5 Muggins ---------------------------------------------------------------------------
def _mug1(claims):
    return start(
        "muggins",
        [["5-5", "0-0", "0-4", "1-1", "1-2", "1-3", "1-4"], ["0-5", "5-6", "2-2", "2-3", "2-4", "3-3", "3-4"]],
        muggins_claims=claims,
    )


def test_TV_MUG_1_doubles_count_both_halves():
    state = _mug1("manual")
    events = run(state, "5-5 claim0 0-5>R claim1 0-0>R claim0 5-6>L 0-4>R claim0")
    assert [(e.seat, e.points) for e in events] == [(0, 10), (1, 10), (0, 10), (0, 10)]
    assert [e.detail for e in events] == ["ends 5x2 = 10", "ends 5x2 + 0 = 10", "ends 5x2 + 0x2 = 10", "ends 6 + 4 = 10"]
    assert state.scores == [30, 10]
    auto = _mug1("auto")
    run(auto, "5-5 0-5>R 0-0>R 5-6>L 0-4>R")
    assert auto.scores == [30, 10]


def _mug3():
    state = start(
        "muggins",
        [["2-4", "5-5", "1-5", "0-0", "0-1", "0-2", "0-3"], ["4-5", "1-2", "3-3", "3-4", "3-5", "3-6", "4-4"]],
    )
    run(state, "2-4 4-5>R 5-5>R 1-2>L 1-5>L")  # P0 makes 5 + 5x2 = 15
    return state


def test_TV_MUG_3_steal_after_a_waive():
    state = _mug3()
    run(state, "waive")
    events = run(state, "claim1")
    assert [(e.seat, e.points, e.rule) for e in events] == [(1, 15, "muggins")]
    assert state.scores == [0, 15]


def test_TV_MUG_3_lost_when_the_next_player_acts_first():
    state = _mug3()
    run(state, "3-5>L")  # P1 plays on without claiming
    assert state.scores == [0, 0]
    assert raises(IllegalAction, state.play, "claim1").reason == "nothing to claim"


def test_TV_MUG_4_the_set_scores():
    state = start("muggins", [["2-3", "6-6"], ["0-0", "1-1"]], muggins_claims="auto")
    assert [(e.seat, e.points) for e in run(state, "2-3")] == [(0, 5)]
    state = start("muggins", [["1-3", "6-6"], ["0-0", "1-1"]], muggins_claims="auto")
    assert run(state, "1-3") == []


def test_TV_MUG_5_hand_score():
    for award, points in (("others_sum", 18), ("rounded5", 20)):
        state = start("muggins", [["3-3"], ["3-4"], ["5-6"]], hand_award=award)
        events = run(state, "3-3")
        assert [(e.seat, e.points, e.rule) for e in events] == [(0, points, "domino")], events


def test_TV_MUG_6_reserve_leaves_only_pass():
    state = start("muggins", [["6-6", "0-1", "0-2", "0-3", "0-4", "1-3", "1-2"], ["?"] * 7])
    run(state, "setter0 6-6")  # P1's hand is unseen, so P0 declares it holds the highest double
    _drain(state, 12)  # 14 -> 2
    run(state, "5-6>L")
    assert state.stock == 2 and legal(state) == ["pass"]


# --- §3.6 Sniff -------------------------------------------------------------------------------
def test_TV_SNF_1_orientation_choice():
    hands = [["1-4", "0-0", "0-2", "0-3", "2-2", "2-3", "3-3"], ["1-1", "5-5", "5-6", "6-6", "2-5", "2-6", "3-5"]]
    state = start("sniff", hands)
    run(state, "lot0:0-1 lot1:4-6")
    assert [(e.seat, e.points) for e in run(state, "1-4")] == [(0, 5)]
    moves = legal(state)
    assert "1-1>Li" in moves and "1-1>Lx" in moves and "draw" in moves and "1-1>L" not in moves
    inline = start("sniff", hands)
    run(inline, "lot0:0-1 lot1:4-6 1-4")
    assert [(e.seat, e.points) for e in run(inline, "1-1>Li")] == [(1, 5)]
    cross = start("sniff", hands)
    run(cross, "lot0:0-1 lot1:4-6 1-4")
    assert run(cross, "1-1>Lx") == [] and cross.layout.count(2) == 6


def test_TV_SNF_2_sniff_keeps_counting():
    hands = [["4-4", "1-4", "0-0", "0-2", "0-3", "2-2", "2-3"], ["4-6", "3-3", "5-5", "5-6", "2-5", "3-5", "0-5"]]
    state = start("sniff", hands)
    run(state, "lot0:0-1 lot1:1-2")
    assert run(state, "4-4x") == [] and run(state, "4-6>L") == []
    events = run(state, "1-4>R")
    assert [(e.seat, e.points, e.detail) for e in events] == [(0, 15, "ends 6 + 1 + 4 + 4 = 15")]
    fives = start("sniff", hands, count_mode="all_fives_spinner")
    run(fives, "lot0:0-1 lot1:1-2 4-4x 4-6>L")
    assert run(fives, "1-4>R") == []  # All Fives would drop the spinner: 6 + 1 = 7


def test_TV_SNF_4_only_the_first_double_spins():
    no_146 = ["0-0", "0-2", "0-3", "0-5", "2-2", "2-3", "2-5", "3-3", "3-5", "5-5"]
    p1 = ["4-6", "6-6"] + no_146
    p0 = ["4-4", "1-4", "0-1", "0-4", "0-6", "1-1", "1-2", "1-3", "1-5", "1-6"]
    p0 += ["2-4", "2-6"]
    state = start("sniff", [p0, p1])  # boneyard: 3-4 3-6 4-5 5-6
    run(state, "lot0:3-4 lot1:5-6 4-4x 4-6>L draw D0:3-4 draw D0:3-6 1-4>R")
    assert state.stock == 2
    assert legal(state) == ["6-6>L"]
    assert run(state, "6-6>L") == [] and state.layout.count(2) == 21


def test_TV_SNF_5_draw_availability():
    state = start("sniff", [["3-4", "4-5", "0-0"], ["?", "?", "?"]], setter="rotate")
    run(state, "3-4")
    _drain(state, 19)  # 22 -> 3
    run(state, "3-3>Lx")
    assert state.stock == 3 and legal(state) == ["4-5>R", "draw"]
    run(state, "draw D0:0-1")
    assert state.stock == 2 and legal(state) == ["4-5>R"]
    run(state, "4-5>R pass")
    assert legal(state) == ["pass"]  # 0-0, 0-1 on the sniff's 3s and 5, boneyard 2


def test_TV_SNF_6_lightest_draw_sets():
    state = start("sniff", [["0-0", "0-1", "0-2", "0-3", "0-5", "0-6", "1-1"], ["1-2", "1-3", "1-4", "1-5", "1-6", "2-2", "2-4"]])
    assert state.current_player() == CHANCE
    run(state, "lot0:2-3 lot1:0-4")
    assert state.current_player() == 1
    assert state.loc[0x23] == 0 and state.loc[0x04] == 0  # both drawn tiles are back in the boneyard
    assert state.stock == 14


def test_TV_SNF_lightest_draw_starts_over_when_the_boneyard_cannot_serve_the_tied():
    """RULES.md §2 S2, settled: every drawn tile goes back and all players draw again."""
    stock = ["0-3", "1-2", "0-4", "2-2"]
    rest = ["%d-%d" % (a, b) for a in range(7) for b in range(a, 7) if "%d-%d" % (a, b) not in stock]
    state = start("sniff", [rest[:12], rest[12:]])
    run(state, "lot0:0-3 lot1:1-2")  # tied on 3: two tiles left for the two tied
    assert state.lot_seats == [0, 1]
    run(state, "lot0:0-4 lot1:2-2")  # tied on 4, and nothing left to draw
    assert state.current_player() == CHANCE and state.lot_seats == [0, 1]
    assert all(state.loc[t] == 0 for t in (0x03, 0x12, 0x04, 0x22))  # all back in the boneyard
    run(state, "lot0:0-3 lot1:0-4")
    assert state.current_player() == 0


# --- §3.7 Matador -----------------------------------------------------------------------------
def _mat1(**params):
    return start(
        "matador",
        [["3-6", "0-1", "0-3", "0-4", "1-1", "1-2", "1-3"], ["2-4", "1-5", "2-5", "0-0", "6-6", "3-3", "0-2"]],
        setter="rotate",
        **params
    )


def test_TV_MAT_1_sum_to_seven_and_matadors():
    off = _mat1(matadors=[], zero_end_only_matadors=False)
    run(off, "3-6")
    assert _plays(off) == ["1-5>R", "2-4>L"]
    on = _mat1()
    run(on, "3-6")
    assert _plays(on) == ["0-0>L^0", "0-0>R^0", "1-5>R", "2-4>L", "2-5>L^2", "2-5>L^5", "2-5>R^2", "2-5>R^5"]


def test_TV_MAT_3_double_matches_by_one_half():
    state = start("matador", [["1-2", "0-3", "0-4", "0-5"], ["6-6", "0-2", "2-2", "2-3"]], setter="rotate")
    run(state, "1-2")
    assert "6-6>L" in legal(state)
    run(state, "6-6>L")
    assert state.layout.val[0] == 6


def test_TV_MAT_4_after_a_matador():
    state = start(
        "matador", [["3-6", "2-5", "1-1", "2-2", "4-4"], ["0-1", "1-2", "5-5", "3-4", "0-3"]], setter="rotate"
    )
    run(state, "3-6 0-1>R 2-5>L^5")  # the 0 end now takes only matadors
    assert state.layout.val[0] == 5
    assert _plays(state) == ["1-2>L", "3-4>L^3", "3-4>L^4", "3-4>R^3", "3-4>R^4"]


# --- §3.12 Buki -------------------------------------------------------------------------------
def test_TV_BUKI_1_first_banker():
    state = start(
        "buki",
        [["4-8", "0-1", "0-2", "0-3", "0-4", "0-5"], ["6-7", "1-2", "1-3", "1-4", "1-5", "1-6"],
         ["5-8", "2-3", "2-4", "2-5", "2-6", "3-4"], ["5-6", "0-6", "0-7", "1-7", "2-7", "3-5"]],
    )
    assert state.current_player() == 2


def test_TV_BUKI_2_forced_play():
    state = start(
        "buki", [["3-8", "0-4", "0-5"], ["1-3", "2-8", "5-6"], ["4-6", "0-1", "1-4"], ["1-2", "0-6", "0-7"]]
    )
    assert state.current_player() == 0
    run(state, "3-8 bet10")
    assert _plays(state) == ["1-3>L", "2-8>R"] and "pass" not in legal(state)
    assert raises(IllegalAction, state.play, "pass").code == E_MUST_PLAY
    run(state, "2-8>R bet10")  # ends 3 / 2
    assert legal(state) == ["pass"]


def _buki_bets(a_second):
    state = start("buki", [["7-8", a_second], ["6-7", "5-6"], ["4-8", "0-2"], ["3-4", "0-3"]])
    return run(state, "7-8 bet20 6-7>L bet10 4-8>R bet30 3-4>R"), state


def test_TV_BUKI_3_settlement_non_banker_wins():
    _, state = _buki_bets("0-1")
    events = run(state, "pass 5-6>L")
    assert state.scores == [-20, 100, -20, -60]  # half-chips: A -10, B +50, C -10, D -30
    assert sum(state.scores) == 0
    assert "stake 20 x 5/2 = 50" in events[0].detail


def test_TV_BUKI_4_banker_wins():
    _, state = _buki_bets("3-5")
    run(state, "3-5>R")
    assert state.scores == [120, -40, -20, -60]  # A +60, B -20, C -10, D -30


def test_TV_BUKI_6_betting_legality():
    state = start("buki", [["?"] * 4, ["6-7", "5-6", "4-5", "0-1"], ["?"] * 4, ["?"] * 4])
    run(state, "setter0 7-8 6-7>L bet10 pass bet30 pass pass 5-6>L pass pass pass")
    assert legal(state) == ["bet%d" % n for n in range(10, 31)]
    assert raises(IllegalAction, state.play, "bet40").code == E_BET
    assert raises(IllegalAction, state.play, "4-5>L").code == E_BET
    run(state, "bet20")
    assert legal(state) == ["4-5>L"]
    err = raises(IllegalAction, state.play, "bet20")
    assert err.code == E_BET and "already bet" in err.reason


def test_TV_BUKI_7_fractional_payout():
    assert payout(15, 5, 2, "exact") == (75, "stake 15 x 5/2 = 37.5")
    assert payout(15, 5, 2, "floor") == (74, "stake 15 x 5/2 = 37.5, floored to 37")
    state = start("buki", [["7-8", "0-1"], ["6-7", "5-6"], ["4-8", "0-2"], ["3-4", "0-3"]], payout_rounding="require_even_stakes")
    run(state, "7-8")
    before = snapshot(state)
    assert raises(IllegalAction, state.play, "bet15").code == E_BET and snapshot(state) == before
    exact = start("buki", [["7-8", "0-1"], ["6-7", "5-6"], ["4-8", "0-2"], ["3-4", "0-3"]])
    run(exact, "7-8 bet15 6-7>L bet10 4-8>R bet10 3-4>R pass 5-6>L")
    assert exact.scores[1] == 75 and exact.chips(1) == "37.5" and sum(exact.scores) == 0
