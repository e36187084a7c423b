# portable
"""The column battle game of seed 001 (rule book §3.9, Appendix A): TV-001 vectors, the
full comparison matrix, Fig. 1 overrides, simultaneous hidden assignment and bad input.

Seats: the book's P1 is seat 0 ("me" in the comparison), P2 is seat 1.
"""
from portable import raises

from engine.column_matrix import APPENDIX_A
from engine.families_play import play_texts
from tiletable.engine.column import DRAW, LOSS, WIN, compare, judge
from tiletable.engine.errors import E_NOT_HELD, E_PHASE, E_TILE, E_TURN, IllegalAction
from tiletable.engine.rulesets import find_ruleset
from tiletable.engine.state import CHANCE, SIMULTANEOUS
from tiletable.engine.tiles import named_set, parse_tile, pips

RESULTS = {"W": WIN, "D": DRAW, "L": LOSS}


def setup(field, hand0, hand1, **params):
    """A game whose first field cards and hands are the given tiles (space-separated)."""
    state = find_ruleset("columns", **params).new_state()
    play_texts(state, " ".join("F:" + t for t in field.split()))
    play_texts(state, " ".join("D0:" + t for t in hand0.split()))
    play_texts(state, " ".join("D1:" + t for t in hand1.split()))
    return state


def test_TV_001_1_comparison_spot_checks():
    cases = [
        ("6-6", "1-6", "L"),
        ("6-6", "1-2", "W"),
        ("1-1", "0-1", "D"),
        ("1-1", "0-3", "W"),
        ("4-4", "0-3", "L"),
        ("0-1", "0-6", "L"),
        ("0-5", "2-3", "D"),
        ("1-2", "0-4", "W"),
        ("3-4", "2-5", "D"),
        ("2-2", "3-3", "L"),
        ("2-2", "3-6", "W"),
        ("0-0", "6-6", "D"),
        ("0-6", "1-6", "W"),
    ]
    for me, opp, result in cases:
        assert compare(parse_tile(me), parse_tile(opp)) == RESULTS[result], (me, opp)
    assert compare(parse_tile("0-6"), parse_tile("1-6"), fig1_override=True) == LOSS
    assert judge(parse_tile("2-2"), parse_tile("3-6")) == (WIN, 5)


def test_appendix_A_matrix_all_784_cells():
    lines = APPENDIX_A.strip().split("\n")
    mine = [parse_tile(h) for h in lines[0].split()[1:]]
    assert len(mine) == 28 and sorted(mine) == list(named_set("d6"))
    checked = 0
    for line in lines[1:]:
        cells = line.split()
        opp = parse_tile(cells[0])
        assert len(cells) == 29, cells[0]
        for me, cell in zip(mine, cells[1:]):
            if cell == "-":
                assert me == opp and compare(me, opp) == DRAW
            else:
                assert compare(me, opp) == RESULTS[cell], (me, opp, cell)
                assert compare(opp, me) == -RESULTS[cell]  # antisymmetric
            checked += 1
    assert checked == 784


def test_fig1_override_changes_exactly_the_0_6_against_1_6_cells():
    t06, t16, t05, t15 = parse_tile("0-6"), parse_tile("1-6"), parse_tile("0-5"), parse_tile("1-5")
    assert compare(t16, t06, fig1_override=True) == WIN  # row 0-6, column 16: Fig. 1 W
    assert compare(t06, t16, fig1_override=True) == LOSS  # row 1-6, column 06: Fig. 1 L
    assert compare(t05, t15, fig1_override=True) == WIN  # row 1-5, column 05: Fig. 1's D is a misprint
    changed = []
    for me in named_set("d6"):
        for opp in named_set("d6"):
            if compare(me, opp, True) != compare(me, opp):
                changed.append((me, opp))
    assert sorted(changed) == sorted([(t16, t06), (t06, t16)])


def test_TV_001_2_a_round_with_a_double_blank_column():
    state = setup("2-3 0-0 4-6", "1-1 6-6 0-2 3-3", "2-4 1-2 5-6 4-4")
    assert state.current_player() == SIMULTANEOUS
    state.play("A0:1-1,6-6,0-2")
    assert state.pending is not None and state.scores == [0, 0]
    assert [state.action_str(a)[:3] for a in state.legal_actions()] == ["A1:"] * 24  # only P2 still assigns
    assert raises(IllegalAction, state.play, "A0:3-3,6-6,0-2").code == E_TURN
    events = state.play("A1:2-4,1-2,5-6")
    assert [(e.seat, e.points) for e in events] == [(0, 5), (0, 10)]
    assert events[0].detail == "L: 1-1 beats 2-4 (rule 5), pile 2-3 = 5"
    assert state.scores == [15, 0]
    assert state.columns[0] is None and state.columns[2] is None
    assert sorted(state.columns[1]) == [0x00, 0x12, 0x66] and state.pile_value(1) == 15
    assert state.current_player() == CHANCE and state.field_deck == 5
    play_texts(state, "F:1-3 F:2-5")
    assert state.pile_value(0) == 4 and state.pile_value(1) == 15 and state.pile_value(2) == 7


def test_TV_001_3_two_draws_merge_into_one_pile():
    state = setup("1-3 2-5 0-6", "3-4 5-5 4-4 0-1", "1-6 0-5 1-2 0-2")
    play_texts(state, "A1:1-6,0-5,1-2 A0:3-4,5-5,4-4")
    assert state.scores == [6, 0]
    assert state.columns[1] is None and state.columns[2] is None
    assert state.pile_value(0) == 40 and len(state.columns[0]) == 6
    play_texts(state, "F:2-2 F:3-3")
    assert [state.pile_value(s) for s in range(3)] == [40, 4, 6]


def test_TV_001_5_length_of_a_game_without_draws():
    # Field cards never [0|0]; each round P2 picks an assignment with no drawn column.
    state = setup("1-2 1-3 1-4", "0-1 0-2 0-3 0-4", "2-2 3-3 4-4 5-5")
    field_cards = ["1-5", "1-6", "2-3", "2-4", "2-5"]
    p1_cards = ["0-5", "0-6", "1-1", "3-4", "3-5", "3-6"]
    p2_cards = ["6-6", "2-6", "4-5", "4-6", "5-6", "0-0"]
    rounds = 0
    while not state.is_over():
        if state.current_player() == CHANCE:
            if None in state.columns and state.field_deck:
                state.play("F:" + field_cards.pop(0))
            elif state.hands[0].size() < 4 and state.decks[0]:
                state.play("D0:" + p1_cards.pop(0))
            else:
                state.play("D1:" + p2_cards.pop(0))
            continue
        p1 = list(state.legal_actions())[0]
        state.play(p1)
        for p2 in state.legal_actions():
            trial = state.clone()
            trial.play(p2)
            if all(result != DRAW for _, _, _, result in trial.last_battle):
                break
        state.play(p2)
        rounds += 1
        assert all(result != DRAW for _, _, _, result in state.last_battle)
        assert state.field_deck == (5, 2, 0)[rounds - 1] or rounds == 3
    assert rounds == 3 and len(state.last_battle) == 2  # round 3 had only two columns
    assert state.outcome().termination == "field_deck_empty"
    assert state.hands[0].size() == 2 and state.hands[1].size() == 2
    assert len(state.won[0]) + len(state.won[1]) == 8
    assert state.scores == [sum(pips(t) for t in state.won[0]), sum(pips(t) for t in state.won[1])]


def test_double_blank_pile_always_draws():
    state = setup("0-0 1-2 1-3", "6-6 0-1 0-2 0-3", "1-1 2-2 3-3 4-4")
    play_texts(state, "A0:6-6,0-1,0-2 A1:1-1,2-2,3-3")
    assert state.last_battle[0] == (0, 0x66, 0x11, DRAW)  # 6-6 would beat 1-1, but the pile is 0-0
    assert state.pile_value(0) == 14


def test_final_merge_when_each_player_holds_one_card():
    # One drawn column a round keeps the field deck alive until the hands are down to one card.
    state = setup("1-2 1-3 1-4", "2-5 0-1 0-2 0-3", "3-4 1-1 2-2 3-3")
    play_texts(state, "A0:2-5,0-2,0-1 A1:3-4,1-1,2-2")  # L draws 7-7, C P2, R P1
    play_texts(state, "F:1-5 F:1-6 D0:0-4 D0:0-5 D0:0-6 D1:4-4 D1:5-5 D1:6-6")
    play_texts(state, "A0:0-3,0-4,0-5 A1:3-3,5-5,6-6")  # L draws 3 against 3-3
    play_texts(state, "F:2-3 F:2-4 D0:2-6 D0:3-5 D0:3-6 D1:4-5 D1:4-6 D1:5-6")
    play_texts(state, "A0:3-6,0-6,2-6 A1:4-5,4-4,4-6")  # L draws 9-9
    assert not state.is_over() and state.field_deck == 1
    state.play("F:0-0")
    assert state.hands[0].size() == 1 and state.hands[1].size() == 1
    assert state.columns[1] is None and state.columns[2] is None  # the 0-0 joined the old pile
    assert len(state.columns[0]) == 8 and state.pile_value(0) == (3 + 7 + 7) + (3 + 6) + (9 + 9) + 0
    events = state.play("A0:3-5,-,-") + state.play("A1:5-6,-,-")
    assert [(e.seat, e.points) for e in events] == [(1, 44)]  # 5-6 (11) beats 3-5 (8)
    assert state.outcome().termination == "hands_empty"


def test_bad_input_is_rejected_with_the_state_unchanged():
    state = setup("2-3 1-4 4-6", "1-1 6-6 0-2 3-3", "2-4 1-2 5-6 4-4")
    before = len(state.history)
    cases = [
        ("A0:7-7,6-6,0-2", E_TILE),  # not a double-six tile
        ("A0:1-1,1-1,0-2", E_TILE),
        ("A0:1-1,6-6,2-4", E_NOT_HELD),
        ("A0:1-1,6-6", E_TILE),
        ("A0:1-1,6-6,-", E_PHASE),
        ("A2:1-1,6-6,0-2", E_TILE),
        ("F:1-5", E_PHASE),  # the field and hands are full: the players assign
        ("D0:5-5", E_PHASE),
    ]
    for text, code in cases:
        err = raises(IllegalAction, state.play, text)
        assert err.code == code, (text, err.code, err.reason)
    assert len(state.history) == before and state.current_player() == SIMULTANEOUS


def test_cards_are_dealt_only_when_refilling():
    state = setup("2-3 1-4 4-6", "1-1 6-6 0-2 3-3", "2-4 1-2 5-6 4-4")
    state.play("A0:1-1,6-6,0-2")
    assert state.current_player() == SIMULTANEOUS  # seat 0's hand refills only after the battle
    assert raises(IllegalAction, state.play, "D0:5-5").code == E_PHASE
    assert raises(IllegalAction, state.play, "F:?").code == E_TILE


def test_unscanned_hands_play_any_unseen_card():
    state = find_ruleset("columns").new_state()
    play_texts(state, "F:2-3 F:1-4 F:4-6 D0:? D0:? D0:? D0:? D1:? D1:? D1:? D1:?")
    assert raises(IllegalAction, state.play, "A0:2-3,6-6,0-2").code == E_NOT_HELD  # 2-3 is on the field
    play_texts(state, "A0:1-1,6-6,0-2")
    assert raises(IllegalAction, state.play, "A1:1-1,1-2,5-6").code == E_NOT_HELD  # P1 put 1-1 down
    play_texts(state, "A1:2-4,1-2,5-6")
    assert state.scores == [5 + 5 + 10, 0] and state.hands[0].unknown == 1


def test_assignments_laid_together_are_checked_in_turn_without_playing_them():
    """The table lays both seats' cards at once (play_column.py): the second is checked as though
    the first were made, and nothing is played to find out."""
    state = find_ruleset("columns").new_state()
    play_texts(state, "F:2-3 F:1-4 F:4-6 D0:? D0:? D0:? D0:? D1:? D1:? D1:? D1:?")
    first, second, other = (state.parse_action(t) for t in ("A0:1-1,6-6,0-2", "A1:1-1,1-2,5-6", "A1:2-4,1-2,5-6"))
    before = len(state.history)
    assert state.why_illegal(second) is None  # alone, P1 may hold 1-1
    refused = state.refused_assignment([first, second])
    assert refused[0] == 1 and refused[1][0] == E_NOT_HELD  # not once P0 put 1-1 down
    assert state.refused_assignment([first, other]) is None
    assert state.refused_assignment([state.parse_action("A0:2-3,6-6,0-2"), other])[0] == 0  # 2-3 is on the field
    assert len(state.history) == before and not state.assigned(0)
    assert [state.has_pile(slot) for slot in range(3)] == [True, True, True]


def test_action_text_round_trips():
    state = setup("2-3 1-4 4-6", "1-1 6-6 0-2 3-3", "2-4 1-2 5-6 4-4")
    for text in ("D0:1-2", "D1:?", "F:0-0", "A0:1-1,6-6,0-2", "A1:-,3-4,5-5"):
        assert state.action_str(state.parse_action(text)) == text
    assert state.describe(state.parse_action("A1:-,3-4,5-5")) == "P1 assigns -,3-4,5-5"
    assert state.describe(state.parse_action("D1:?")) == "P1 draws a card unseen"


def test_player_count():
    from tiletable.engine.errors import RulesetError

    assert find_ruleset("columns").new_state().players == 2
    assert raises(RulesetError, find_ruleset("columns").new_state, 3).reason == "the rules are for 2 players, not 3"
