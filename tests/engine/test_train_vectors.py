# portable
"""Mexican Train (MORE-GAMES.md §5): the supplement's vectors TV-MT-1…12, one test each, with
the variants they name.

Round 1 (engine [12|12]) unless a vector says otherwise. Positions in the middle of a round
come from ``train_setup.position``; every action after it goes through the checked ``play``.
"""
from portable import raises

from engine.train_setup import legal_texts, position, tiles
from tiletable.engine.errors import E_MUST_PLAY, E_NO_DRAW, E_PHASE, IllegalAction
from tiletable.engine.rulesets import find_ruleset
from tiletable.engine.state import CHANCE
from tiletable.engine.tiles import named_set, pips
from tiletable.engine.train import P_PLAY, first_seat, hand_value, round_engine


def dealt(players, **params):
    """A round 1 dealt in set order: every chance outcome the first one offered."""
    state = find_ruleset("mexican-train", max_players=8, **params).new_state(players)
    while state.current_player() == CHANCE:
        state.play(state.chance_outcomes()[0])
    return state


def test_TV_MT_1_deal_and_boneyard():
    d12 = named_set("d12")
    assert len(d12) == 91 and sum(pips(t) for t in d12) == 1092
    boneyards = {2: 60, 3: 45, 4: 30, 5: 30, 6: 18, 7: 20, 8: 10}
    for players in boneyards:
        state = dealt(players)
        assert state.phase == P_PLAY
        assert state.boneyard == boneyards[players], players
        assert sum(h.size() for h in state.hands) + state.boneyard == 90
    assert dealt(7, deal="celko").boneyard == 90 - 77
    assert dealt(5, deal="pagat_copy").boneyard == 90 - 55
    assert dealt(2, deal="sliding").boneyard == 90 - 32
    assert find_ruleset("mexican-train").player_counts() == (2, 3, 4)


def test_TV_MT_2_engines_and_first_players():
    params = find_ruleset("mexican-train").params
    assert [round_engine(params, r) for r in (1, 6, 13)] == [12, 7, 0]
    assert [first_seat(r, 4) for r in (1, 6, 13)] == [0, 1, 0]
    assert first_seat(13, 5) == 2
    state = position(4, [], round_number=6)
    assert state.engine == 7 and state.open_values == [7] * 5
    assert state.trains[4] == [] and state.loc[tiles("7-7")[0]]  # the engine is in the hub


def _tv3(markers):
    return position(3, ["5-9 3-3 4-12 1-8 2-6"], {0: "5-12", 1: "3-12", 2: "8-12"}, markers=markers)


def test_TV_MT_3_where_a_tile_may_go():
    state = _tv3((1,))
    assert legal_texts(state) == ["3-3>T1", "4-12>M", "5-9>T0"]
    assert state.why_illegal(state.parse_action("1-8>T2"))[0] == E_PHASE
    assert state.why_illegal(state.parse_action("draw"))[0] == E_MUST_PLAY
    assert legal_texts(_tv3((1, 2))) == ["1-8>T2", "3-3>T1", "4-12>M", "5-9>T0"]


def _tv4(boneyard=20):
    return position(3, ["0-1 1-2", "0-2"], {1: "3-12", 3: "6-12"}, boneyard=boneyard, turn=1)


def test_TV_MT_4_draw_then_marker_or_forced_play():
    state = _tv4()
    assert legal_texts(state) == ["draw"]
    state.play("draw")
    assert state.current_player() == CHANCE
    state.play("D1:7-10")
    assert state.markers == [False, True, False] and state.boneyard == 19 and state.turn == 2
    fits = _tv4()
    fits.play("draw")
    fits.play("D1:3-10")
    assert legal_texts(fits) == ["3-10>T1"]
    assert raises(IllegalAction, fits.play, "pass").code == E_MUST_PLAY
    fits.play("3-10>T1")
    assert fits.open_values[1] == 10 and fits.turn == 2
    empty = _tv4(boneyard=0)
    assert legal_texts(empty) == ["pass"]
    assert empty.why_illegal(empty.parse_action("draw"))[0] == E_NO_DRAW
    empty.play("pass")
    assert empty.markers[1] and empty.turn == 2


def test_TV_MT_5_a_double_covered_by_its_player():
    state = position(3, ["5-5 5-11 2-9"], {0: "5-12", 3: "9-12"})
    state.play("5-5>T0")
    assert state.turn == 0 and state.open_doubles == [(0, 5, 0)]
    assert legal_texts(state) == ["5-11>T0"]
    assert raises(IllegalAction, state.play, "2-9>M").code == E_MUST_PLAY
    state.play("5-11>T0")
    assert state.open_values[0] == 11 and state.open_doubles == [] and state.turn == 1


def _tv6(seat1):
    state = position(3, ["9-9 1-2", seat1, "2-11"], {3: "9-12"}, boneyard=15)
    state.play("9-9>M")
    assert legal_texts(state) == ["draw"]
    state.play("draw")
    state.play("D0:1-4")
    assert state.markers[0] and state.turn == 1
    return state


def test_TV_MT_6_a_double_nobody_covers_at_once():
    state = _tv6("6-9 3-12")
    assert legal_texts(state) == ["6-9>M"]
    assert raises(IllegalAction, state.play, "3-12>T1").code == E_MUST_PLAY
    state.play("6-9>M")
    assert state.open_doubles == [] and state.turn == 2
    forced = _tv6("3-12 1-5")
    assert legal_texts(forced) == ["draw"]
    forced.play("draw")
    forced.play("D1:0-9")
    assert legal_texts(forced) == ["0-9>M"]
    missed = _tv6("3-12 1-5")
    missed.play("draw")
    missed.play("D1:1-6")
    assert missed.markers[1] and missed.turn == 2
    assert legal_texts(missed) == ["draw"]  # seat 2 (2-11) inherits the obligation
    assert missed.obligation() == (3, 9, 0)


def _tv7(**params):
    return position(4, ["0-1", "0-2", "7-7", "7-8 1-2"], {4: "7-12"}, turn=2, **params)


def test_TV_MT_7_a_double_as_the_last_tile():
    state = _tv7()
    state.play("7-7>M")
    assert state.round == 2 and state.last_round == ("out", 2, (1, 2, 0, 18))
    assert state.score_events[2].points == 0 and state.scores == [1, 2, 0, 18]
    cover = _tv7(last_double="cover_first")
    cover.play("7-7>M")
    assert cover.round == 1 and cover.out == [False, False, True, False] and cover.turn == 3
    assert legal_texts(cover) == ["7-8>M"]
    cover.play("7-8>M")
    assert cover.round == 2 and cover.scores == [1, 2, 0, 3]


def _tv8(**params):
    state = position(4, ["5-12", "0-0 3-4", "11-12 6-6", "2-10"], **params)
    state.play("5-12>T0")
    return [e.points for e in state.score_events]


def test_TV_MT_8_round_score():
    assert _tv8() == [0, 7, 35, 12]
    assert _tv8(double_blank=50) == [0, 57, 35, 12]
    assert hand_value(tiles("0-0 3-4"), 50) == 57


def test_TV_MT_9_blocked_round():
    state = position(4, ["0-1", "1-2", "2-3", "3-4"], boneyard=0, turn=1)
    for seat in (1, 2, 3):
        state.play("pass")
        assert state.markers[seat]
    assert state.round == 1 and state.passes == 3
    state.play("pass")
    assert state.round == 2 and state.last_round == ("blocked", None, (1, 3, 5, 7))
    assert state.scores == [1, 3, 5, 7]
    again = position(4, ["0-12 0-1", "1-2", "2-3", "3-4"], boneyard=0, turn=1)
    for _ in range(3):
        again.play("pass")
    again.play("0-12>T0")
    assert again.passes == 0 and again.round == 1 and again.turn == 1


def _tv10():
    return position(3, ["0-1", "3-6 5-12 1-1"], {1: "3-12"}, markers=(1,), turn=1)


def test_TV_MT_10_marker_removal():
    own = _tv10()
    own.play("3-6>T1")
    assert own.markers == [False, False, False]
    elsewhere = _tv10()
    elsewhere.play("5-12>M")
    assert elsewhere.markers == [False, True, False]


def test_TV_MT_11_first_turn_run():
    state = position(3, ["4-12 4-9 9-9 2-9 2-2 1-2", "11-12 3-12 5-6", "10-12 0-3"], first_turn="run")
    for text in ("4-12>T0", "4-9>T0", "9-9>T0"):
        state.play(text)
        assert state.turn == 0
    assert legal_texts(state) == ["2-9>T0", "end"]
    play = state.play
    play("2-9>T0")
    play("2-2>T0")
    play("end")
    assert state.open_doubles == [(0, 2, 0)] and state.turn == 1
    assert legal_texts(state) == ["11-12>T1", "3-12>T1"]
    assert raises(IllegalAction, play, "3-12>M").code == E_PHASE
    play("11-12>T1")
    play("end")
    play("10-12>T2")
    play("end")
    assert state.turn == 0 and state.obligation() == (0, 2, 0)
    assert legal_texts(state) == ["1-2>T0"]


def test_TV_MT_12_match_result():
    state = position(4, ["0-1", "3-4", "0-9", "2-10"], turn=2, round_number=13, scores=(211, 191, 198, 228))
    assert state.engine == 0
    state.play("0-9>T2")  # seat 2 goes out in the last round
    outcome = state.outcome()
    assert outcome.winners == (1, 2) and outcome.scores == (212, 198, 198, 240)


def test_plays_are_described_with_seats_from_0_as_every_familys_are():
    """The PC names the players in an engine sentence by its ``P<seat>`` (host people.py), so a
    session's record and the pages say "ann plays", never a seat number of their own."""
    state = _tv4()
    assert state.describe(state.parse_action("draw")) == "P1 draws"
    state.play("draw")
    assert state.describe(state.parse_action("D1:3-10")) == "P1 draws 3-10"
    state.play("D1:3-10")
    assert state.describe(state.parse_action("3-10>T1")) == "P1 plays 3-10 on P1's train (open at 10)"
    double = position(3, ["9-9 1-2"], {3: "9-12"})
    assert double.describe(double.parse_action("9-9>M")) == "P0 plays 9-9 on the Mexican train (open at 9), a double to cover"
    assert _tv4(boneyard=0).describe(_tv4(boneyard=0).parse_action("pass")) == "P1 passes (marker on its train)"
