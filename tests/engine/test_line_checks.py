# portable
"""Bad input and hidden hands in the line family: specific errors, nothing changed, violations at the reveal."""
from portable import raises

from engine.line_setup import legal, run, snapshot, start
from tiletable.engine.errors import (
    E_CHANCE,
    E_CLAIM,
    E_MUST_PLAY,
    E_NO_DRAW,
    E_NO_MATCH,
    E_NOT_HELD,
    E_ORDER,
    E_PHASE,
    E_SET,
    E_TILE,
    E_TURN,
    IllegalAction,
    RulesetError,
)
from tiletable.engine.knowledge import UNSEEN, Knowledge
from tiletable.engine.rulesets import find_ruleset, load_ruleset


def _rejects(state, text, code, words):
    """``text`` is refused with ``code`` and a reason containing ``words``; the state is unchanged."""
    before = snapshot(state)
    checked = raises(IllegalAction, state.check, text)  # the check play makes, and the table's Session
    err = raises(IllegalAction, state.play, text)
    assert (checked.code, checked.reason) == (err.code, err.reason), text
    assert err.code == code, (text, err.code, err.reason)
    assert words in err.reason, (text, err.reason)
    assert snapshot(state) == before, text


def _block():
    state = start("block", [["3-4", "0-0", "1-1"], ["4-6", "2-2", "5-5"]], setter="rotate")
    run(state, "3-4")
    return state


def test_unknown_or_malformed_tiles_are_refused():
    state = _block()
    _rejects(state, "7-7>L", E_TILE, "not in this game's set")
    _rejects(state, "5-6>Q", E_TILE, "unknown end")
    _rejects(state, "hello", E_TILE, "not an action")
    _rejects(state, "bet", E_TILE, "not an action")
    buki = start("buki", [["7-8"], ["0-1"], ["0-2"], ["0-3"]])
    _rejects(buki, "8-8", E_TILE, "not in this game's set")


def test_check_returns_a_legal_action_and_changes_nothing():
    state = _block()
    before = snapshot(state)
    action = state.check("4-6>R")
    assert state.action_str(action) == "4-6>R" and state.check(action) == action
    assert snapshot(state) == before
    run(state, "4-6>R")


def test_illegal_plays_name_the_reason():
    state = _block()
    _rejects(state, "2-2>L", E_NO_MATCH, "2-2 does not match end L (3)")
    _rejects(state, "0-0>L", E_NOT_HELD, "known to be in P0's hand")
    _rejects(state, "1-2>L", E_NOT_HELD, "P1 does not hold 1-2")
    _rejects(state, "3-4>L", E_NOT_HELD, "already on the table")
    _rejects(state, "pass", E_MUST_PLAY, "must play")
    _rejects(state, "draw", E_NO_DRAW, "no drawing")
    _rejects(state, "4-6>S1", E_NO_MATCH, "no open end S1")
    _rejects(state, "4-6", E_PHASE, "name an end")


def test_out_of_turn_and_impossible_chance_actions():
    state = find_ruleset("block").new_state(2)
    _rejects(state, "D1:5-5", E_TURN, "P0 is next")
    run(state, "D0:5-5")
    _rejects(state, "D0:5-5", E_CHANCE, "known to be in P0's hand")
    _rejects(state, "3-3", E_PHASE, "chance event")
    _rejects(state, "setter1", E_PHASE, "no setter declaration")
    full = start("muggins", [["6-6", "0-1"], ["5-5", "1-2"]])
    _rejects(full, "5-5", E_NOT_HELD, "in P1's hand")  # P0 holds the highest double, so P0 sets
    _rejects(full, "0-1x", E_TILE, "no orientation")


def test_claims_that_are_not_due():
    state = start("muggins", [["6-6", "2-3"], ["1-1", "1-2"]])
    _rejects(state, "claim1", E_CLAIM, "nothing to claim")
    run(state, "2-3 waive")
    _rejects(state, "claim0", E_CLAIM, "P0 waived its 5")
    _rejects(state, "waive", E_CLAIM, "already waived")


def test_sebastopol_and_set_constraints():
    state = start("sebastopol", [["6-6", "0-0", "0-1", "0-2", "0-3", "0-4", "0-5"],
                                 ["0-6", "1-6", "1-1", "1-2", "1-3", "1-4", "1-5"],
                                 ["2-6", "2-2", "2-3", "2-4", "2-5", "3-3", "3-4"],
                                 ["3-6", "4-6", "5-6", "3-5", "4-4", "4-5", "5-5"]])
    _rejects(state, "0-0", E_SET, "must set the tile that made it setter, 6-6")
    run(state, "6-6")
    _rejects(state, "0-6>R", E_ORDER, "play at L")


def test_bad_rulesets_name_the_field():
    cases = [
        ({"family": "dominoes", "name": "x"}, "family", "unknown family"),
        ({"family": "line", "name": "x", "params": {"deal": {"4": 8}}}, "params.deal.4", "more than the 28-tile set"),
        ({"family": "line", "name": "x", "params": {"target": 0}}, "params.target", "at least 1"),
        ({"family": "line", "name": "x", "params": {"colour": "red"}}, "params.colour", "unknown parameter"),
        ({"family": "line", "name": "x", "params": {"spinner_fill_first": True}}, "params.spinner_fill_first", "needs a spinner"),
        ({"family": "line", "name": "x", "params": {"fixed_tile": "7-7"}}, "params.fixed_tile", "not in the set"),
        ({"family": "line", "name": "x", "params": {"may_pass_when_able": True}}, "params.may_pass_when_able", "contradicts"),
        ({"family": "line", "name": "x", "params": {"draw_policy": "anytime"}}, "params.draw_policy", "boneyard"),
        ({"family": "line", "name": "x", "params": {"blocked_tie": "draw_carry_over"}}, "params.blocked_tie", "betting"),
        ({"family": "line", "name": "x", "params": {"muggins_claims": "manual"}}, "params.muggins_claims", "fives"),
    ]
    for doc, field, words in cases:
        err = raises(RulesetError, load_ruleset, doc)
        assert err.field == field, (doc, err.field, err.reason)
        assert words in err.reason, (doc, err.reason)
    err = raises(RulesetError, find_ruleset, "buki", payout_denominator=3)
    assert err.field == "params.payout_denominator"
    err = raises(RulesetError, find_ruleset, "sniff", sniff_mode="pagat_inline_stub")
    assert err.field == "params.first_double_orientation"
    assert raises(RulesetError, find_ruleset("sebastopol").new_state, 2).field == "players"


def test_every_preset_loads_with_its_documented_defaults():
    assert find_ruleset("block").params["target"] == 100
    assert find_ruleset("sebastopol").params["target"] == 60
    assert find_ruleset("bergen").params["target"] == 15
    assert find_ruleset("muggins").params["target"] == 200
    assert find_ruleset("sniff").params["deal"] == {"2": 7, "3": 6, "4": 5}
    assert find_ruleset("matador").params["matadors"] == ["0-0", "1-6", "2-5", "3-4"]
    buki = find_ruleset("buki").params
    assert (buki["max_pip"], buki["doubles"], buki["deal"]) == (8, False, {"4": 6})


# --- hidden hands -------------------------------------------------------------------------
def _unseen_block(reveal):
    state = start("block", [["3-4", "0-0"], ["?", "?"]], setter="rotate")
    run(state, "3-4 pass pass")  # P1 passes on 3 / 4; P0 (0-0) passes: blocked
    run(state, reveal)
    return state


def test_renege_is_found_at_the_reveal_with_the_play_named():
    state = _unseen_block("R1:3-5 R1:1-1")
    assert len(state.violations) == 1
    v = state.violations[0]
    assert (v.hand, v.index, v.seat, v.rule) == (0, 5, 1, "must play")
    assert v.text() == "hand 0, action 5, P1: must play: passed on L=3 R=4: held nothing that fits, but held 3-5"
    assert state.action_str(state.history[5]) == "pass"
    assert [(e.seat, e.points) for e in state.score_events] == [(0, 10)]  # pips still count


def test_consistent_hands_give_no_violations():
    state = _unseen_block("R1:1-2 R1:1-1")
    assert state.violations == [] and state.scores == [5, 0]


def test_a_tile_known_elsewhere_cannot_be_played_or_revealed():
    state = start("block", [["3-4", "5-6", "0-0"], ["?", "?", "?"], ["?", "?", "?"]], setter="rotate")
    run(state, "3-4")
    _rejects(state, "5-6>L", E_NOT_HELD, "5-6 is known to be in P0's hand")
    run(state, "4-4>R")
    _rejects(state, "4-4>R", E_NOT_HELD, "already on the table")
    assert "4-6>R" in legal(state) and "4-4>R" not in legal(state)


def test_a_setter_who_did_not_hold_the_best_tile_is_reported():
    state = start("muggins", [["?"], ["?"]])
    run(state, "setter1 2-2")  # P1 sets and goes out at once
    run(state, "R0:6-6")
    assert [(v.seat, v.rule) for v in state.violations] == [(1, "setter")]
    assert "P0 held 6-6" in state.violations[0].text()


def test_a_setter_by_right_of_winning_claims_nothing():
    """Buki's later banker (and any ``later_setter=previous_winner``) sets as the last winner,
    not as the holder of the best tile: a better tile elsewhere is no violation."""
    state = start("muggins", [["?"], ["?"]], later_setter="previous_winner")
    run(state, "setter1 2-2 R0:6-6")  # hand 0: a false claim, reported
    run(state, "D0:? D1:?")
    assert state.current_player() == 1  # the winner sets without declaring
    run(state, "1-1 R0:5-5")
    assert [(v.hand, v.rule) for v in state.violations] == [(0, "setter")]


def test_a_setter_by_rotation_claims_nothing():
    state = start("block", [["?"], ["?"]], setter="rotate")
    run(state, "1-1 R1:6-6")
    assert state.violations == []


def test_an_unseen_draw_can_excuse_one_tile_but_not_two():
    k = Knowledge()
    k.add_fact(3, 1, 1 << 0x35 | 1 << 0x36, "must play", "passed on 3")
    k.log_draw(4, 1, UNSEEN)
    assert k.check(0, [[], [0x35, 0x11]], None) == []  # 3-5 may be the unseen draw
    found = k.check(0, [[], [0x35, 0x36]], None)
    assert len(found) == 1 and "3-5, 3-6" in found[0].text()
    k.log_play(5, 1, 0x36)  # a tile played after the fact was held at the time
    assert len(k.check(0, [[], [0x35]], None)) == 1


def test_a_tile_drawn_and_played_after_the_set_was_not_held_at_the_set_bug():
    k = Knowledge()
    k.add_setter_claim(2, 1, "set 1-3 as holder of the best setting tile")
    k.log_play(2, 1, 0x13)
    k.log_draw(9, 0, 0x33)  # P0's scanned hand draws 3-3 later, then plays it
    k.log_play(11, 0, 0x33)
    assert k.check(0, [[0x12], []], lambda t: t) == []


def test_describe_says_who_does_what():
    state = start("muggins", [["6-6", "2-3"], ["1-1", "1-2"]])
    assert state.describe(state.parse_action("2-3")) == "P0 sets 2-3"
    run(state, "2-3")
    assert state.describe(state.parse_action("1-2>L")) == "P1 plays 1-2 on L (now showing 1)"
    assert state.describe(state.parse_action("claim1")) == "P1 claims 5"
    assert state.describe(state.parse_action("waive")) == "P0 waives its 5"
    assert state.describe(state.parse_action("R1:4-4")) == "P1 shows 4-4 at the end of the hand"


def test_lowest_double_sets_in_pagats_bergen():
    hands = [["2-2", "5-5", "0-1", "0-2", "0-3", "0-4", "0-5"], ["6-6", "1-2", "1-3", "1-4", "1-5", "1-6", "2-3"]]
    assert start("bergen", hands).current_player() == 1  # the seed: the heavier doublet sets
    state = start("bergen", hands, setter="lowest_double")
    assert state.current_player() == 0 and legal(state) == ["2-2"]


def test_lowest_double_with_no_double_dealt_lets_the_lightest_tile_set():
    state = start("block", [["4-6", "5-6"], ["0-2", "3-6"]], setter="lowest_double")
    assert state.current_player() == 1  # 0-2 is the lightest tile


def test_a_lowest_double_setter_who_held_a_lower_double_is_reported():
    state = start("muggins", [["?"], ["?"]], setter="lowest_double")
    run(state, "setter1 2-2")  # P1 claims the lowest double and goes out at once
    run(state, "R0:1-1")
    assert [(v.seat, v.rule) for v in state.violations] == [(1, "setter")]
    assert "P0 held 1-1" in state.violations[0].text()
    honest = start("muggins", [["?"], ["?"]], setter="lowest_double")
    run(honest, "setter1 2-2 R0:3-3")
    assert honest.violations == []


def test_excluded_tiles_are_not_in_the_game():
    state = start("block", [["0-1", "5-6"], ["0-2", "3-6"]], exclude=["6-6", "0-0"])
    assert len(state.tiles) == 26 and 0x66 not in state.tiles and 0x00 not in state.tiles
    before = snapshot(state)
    err = raises(IllegalAction, state.play, "D0:6-6")
    assert "6-6" in str(err), str(err)
    assert snapshot(state) == before
    cases = [
        ({"exclude": ["7-7"]}, "params.exclude", "7-7 is not in the set"),
        ({"exclude": ["0-%d" % b for b in range(7)] + ["1-%d" % b for b in range(1, 7)], "deal": {"4": 5}}, "params.deal.4", "more than the 15-tile set"),
        ({"exclude": ["6-6"], "setter": "fixed_tile", "fixed_tile": "6-6"}, "params.fixed_tile", "6-6 is not in the set"),
    ]
    for params, field, words in cases:
        err = raises(RulesetError, load_ruleset, {"family": "line", "name": "x", "params": params})
        assert err.field == field, (params, err.field, err.reason)
        assert words in err.reason, (params, err.reason)
