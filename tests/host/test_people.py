"""Seats and scores as people read them on the PC: from 1, named, Buki in chips, signs right."""
from tiletable_host.people import chance_text, for_people, players_text, scores_text, seat_name, score_text
from tiletable_host.sessionlog import result_of


def test_seats_are_named_or_counted_from_1():
    assert seat_name(["ann", "bob"], 1) == "bob"
    assert seat_name([], 0) == "P1" and seat_name(["ann"], 3) == "P4"


def test_engine_sentences_get_names_and_hands_counted_from_1():
    text = "hand 2, action 17, P1: setter: set 1-3, but P0 held 3-3"
    assert for_people(text, ["ann", "bob"]) == "hand 3, action 17, bob: setter: set 1-3, but ann held 3-3"
    assert for_people("P3 passes", []) == "P4 passes"


def test_a_tile_left_in_hand_is_not_a_hands_number_bug():
    text = "round 13, left in hand 1-6 1-8 = 16, hand 12"
    assert for_people(text, []) == "round 13, left in hand 1-6 1-8 = 16, hand 13"


def test_negative_results_print_with_their_own_sign_bug():
    session = {"players": ["ann", "bob", "cy"], "result": {"reason": "over", "scores": [13, -20, 7]}}
    assert result_of(session) == "over: ann 13, bob -20, cy 7"


def test_buki_half_chips_read_as_chips_bug():
    assert scores_text(["a", "b", "c", "d"], [-168, 162, 132, -126], 2) == "a -84, b 81, c 66, d -63"
    assert score_text(-75, 2) == "-37.5" and score_text(5, 2, signed=True) == "+2.5"
    assert score_text(0, signed=True) == "+0" and score_text(-3, signed=True) == "-3"


def test_a_seat_named_by_its_number_is_shown_once():
    assert players_text(["P1", "P2"]) == "P1, P2" and players_text(["ann", "P2", ""]) == "P1 ann, P2, P3"


def test_chance_actions_read_as_the_engines_sentences_gathered():
    said = ["P0 receives 0-4", "P0 receives 3-4", "P1 receives ?", "P1 says it holds the setting tile", "the widow is dealt (3-4)"]
    assert chance_text(said, ["ann", "bob"]) == "ann receives 0-4 3-4; bob receives ?; bob says it holds the setting tile; the widow is dealt (3-4)"
