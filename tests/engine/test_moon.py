# portable
"""Moon (rule book §3.10): the TV-MOON vectors, bad input and unscanned hands.

Seats: the first dealer is seat 0, so the book's P1, P2, P3 (in speaking order) are
seats 1, 2 and 0.
"""
from portable import raises

from engine.families_play import play_texts
from tiletable.engine.errors import E_BID, E_FOLLOW, E_NOT_HELD, E_PHASE, E_TILE, E_TURN, IllegalAction
from tiletable.engine.rulesets import find_ruleset
from tiletable.engine.tiles import parse_tile
from tiletable.engine.trick_score import MOON, bidder_points, match_result

P1, P2, P3 = 1, 2, 0

# A deal for TV-MOON-1/2: P2's only 4 is 4-6 and only 5 is 5-5; P3's only 5 is 5-6, no 4.
HANDS_1 = {
    P1: "4-5 1-4 1-5 2-4 2-5 3-4 3-5",
    P2: "4-6 5-5 0-0 1-2 1-1 1-3 2-2",
    P3: "5-6 2-3 6-6 1-6 2-6 3-3 3-6",
}
WIDOW_1 = "4-4"


def deal(state, hands, widow, unscanned=()):
    """Deal the given hands (seat -> tiles) and widow; seats in ``unscanned`` get ``D<s>:?``."""
    for seat in sorted(hands):
        for tile in hands[seat].split():
            state.play("D%d:%s" % (seat, "?" if seat in unscanned else tile))
    state.play("W:" + widow)


def hand_with_p1_bidding(ruleset=None, unscanned=()):
    state = (ruleset or find_ruleset("moon")).new_state()
    deal(state, HANDS_1, WIDOW_1, unscanned)
    play_texts(state, "B1:4 B2:PASS B0:PASS KEEP")
    return state


def legal_texts(state):
    return sorted(state.action_str(a) for a in state.legal_actions())


def test_TV_MOON_1_follow_declared_suit_4():
    state = hand_with_p1_bidding()
    state.play("4-5/4")
    assert state.current_player() == P2
    assert legal_texts(state) == ["4-6"]
    state.play("4-6")
    assert legal_texts(state) == sorted(HANDS_1[P3].split())  # no 4: anything goes
    state.play("6-6")
    assert state.tricks == [0, 0, 1]  # P2 wins: 4-6 beats 4-5, 6-6 is off suit
    assert state.leader == P2


def test_the_table_asks_who_holds_a_tile_and_who_took_the_last_trick():
    state = hand_with_p1_bidding(unscanned=(P3,))
    assert state.known_holder(parse_tile("4-6")) == P2 and state.known_holder(parse_tile("5-6")) is None  # P3 unscanned
    assert state.last_trick() is None  # no trick taken yet
    play_texts(state, "4-5/4 4-6")
    assert state.last_trick() is None  # the trick is not complete
    state.play("6-6")
    assert state.last_trick() == (P2, 1)
    state.play("5-5")
    assert state.last_trick() is None  # the next trick has begun


def test_TV_MOON_2_same_tile_other_suit():
    state = hand_with_p1_bidding()
    state.play("4-5/5")
    assert legal_texts(state) == ["5-5"]  # 4-6 is not a 5
    state.play("5-5")
    assert legal_texts(state) == ["5-6"]
    state.play("5-6")
    assert state.tricks[P2] == 1


def test_TV_MOON_3_led_double_blank_wins():
    state = find_ruleset("moon").new_state()
    deal(
        state,
        {P1: "0-0 1-1 1-2 1-3 1-4 1-5 1-6", P2: "6-6 2-2 2-3 2-4 2-5 2-6 3-3", P3: "5-5 3-4 3-5 3-6 4-4 4-5 4-6"},
        "5-6",
    )
    play_texts(state, "B1:4 B2:PASS B0:PASS KEEP 0-0 6-6 5-5")
    assert state.tricks == [0, 1, 0]


def test_double_blank_played_later_never_wins():
    state = find_ruleset("moon").new_state()
    deal(
        state,
        {P1: "1-2 1-1 1-3 1-4 1-5 1-6 2-2", P2: "0-0 3-3 3-4 3-5 3-6 4-4 4-5", P3: "2-3 2-4 2-5 2-6 4-6 5-5 6-6"},
        "5-6",
    )
    play_texts(state, "B1:4 B2:PASS B0:PASS KEEP 1-2/1 0-0 2-3")
    assert state.tricks[P1] == 1  # [0|0] off the lead cannot win; 1-2 was the only 1 played


def test_TV_MOON_5_scoring():
    assert bidder_points(5, 4, "bid_minus_taken")[0] == -1
    assert bidder_points(5, 4, "full_bid")[0] == -5
    assert bidder_points(5, 6, "bid_minus_taken")[0] == 5
    assert bidder_points(MOON, 7, "bid_minus_taken")[0] == 21
    assert bidder_points(MOON, 6, "bid_minus_taken")[0] == -15
    assert bidder_points(MOON, 6, "full_bid")[0] == -21
    assert bidder_points(5, 4, "bid_minus_taken")[1] == "bid 5, took 4: -(5 - 4) = -1"


# A hand of the TV-MOON-1 deal with P1 bidding 5: P1 takes 4 tricks, P2 2 and P3 1.
HAND_4_2_1 = "3-4/4 4-6 3-6 1-2/1 1-6 1-4 5-6/5 3-5 5-5 1-3/1 2-3 1-5 2-4/4 2-2 6-6 2-5/5 0-0 3-3 4-5/5 1-1 2-6"


def test_TV_MOON_5_scoring_through_a_played_hand():
    for fail, bidder_points_expected in (("bid_minus_taken", -1), ("full_bid", -5)):
        state = find_ruleset("moon", fail=fail).new_state()
        deal(state, HANDS_1, WIDOW_1)
        events = play_texts(state, "B1:5 B2:PASS B0:PASS KEEP " + HAND_4_2_1)
        assert state.last_tricks == [1, 4, 2]
        assert sorted((e.seat, e.points, e.rule) for e in events) == [
            (P3, 1, "tricks"), (P1, bidder_points_expected, "set"), (P2, 2, "tricks")]
    assert events[-1].text() == "P1 -5 set: bid 5, took 4: -5"


def test_TV_MOON_6_auction():
    state = find_ruleset("moon").new_state()
    deal(state, HANDS_1, WIDOW_1)
    state.play("B1:6")
    err = raises(IllegalAction, state.play, "B2:5")
    assert err.code == E_BID and "not above" in err.reason
    assert legal_texts(state) == ["B2:7", "B2:MOON", "B2:PASS"]
    state.undo()
    play_texts(state, "B1:4 B2:MOON")
    assert state.bidder == P2 and state.high_call == MOON
    assert state.current_player() == P2  # the auction is over: P3 never speaks
    err = raises(IllegalAction, state.play, "B0:PASS")
    assert err.code == E_PHASE


def test_TV_MOON_7_match_end():
    assert match_result([22, 22, 5], 21, "replay", 2, False) is None  # A 19+3, B 20+2: tie, play on
    assert match_result([23, 22, 5], 21, "replay", 2, False) == 0  # A 23 beats B 22
    assert match_result([22, 22, 5], 21, "bidder_out", 1, True) == 1
    assert match_result([22, 22, 5], 21, "bidder_out", 1, False) is None
    assert match_result([20, 19, 5], 21, "replay", 0, True) is None


# A hand of the TV-MOON-1 deal (P1 bids 4) in which A (seat 0) takes 3 tricks, B (seat 2) 2, the bidder 2.
HAND_3_2_2 = "1-4/1 1-3 1-6 6-6 2-5 4-6 3-6/3 3-5 1-1 2-3/3 3-4 2-2 4-5/4 0-0 2-6 1-5/5 5-5 5-6 1-2/1 3-3 2-4"


def test_TV_MOON_7_match_end_in_a_played_hand():
    for before, over, winners in (([19, 0, 20], False, None), ([20, 0, 20], True, (0,))):
        state = find_ruleset("moon").new_state()
        state.scores = list(before)  # the totals the vector starts from
        deal(state, HANDS_1, WIDOW_1)
        play_texts(state, "B1:4 B2:PASS B0:PASS KEEP " + HAND_3_2_2)
        assert state.last_tricks == [3, 2, 2]
        assert state.scores == [before[0] + 3, -2, before[2] + 2]
        assert state.is_over() == over
        if over:
            assert state.outcome().winners == winners
        else:
            assert state.hand_number == 1  # A 22, B 22: another hand


def test_TV_MOON_8_pagat_trumps_and_higher_end():
    ruleset = find_ruleset("moon", trumps="bidder_declares", lead_suit_rule="higher_end")
    state = ruleset.new_state()
    deal(
        state,
        {P1: "4-5 1-1 1-2 1-3 1-4 2-2 2-4", P2: "5-6 2-3 0-0 3-3 3-4 4-4 6-6", P3: "1-5 1-6 2-5 2-6 3-5 3-6 4-6"},
        "5-5",
    )
    play_texts(state, "B1:4 B2:PASS B0:PASS KEEP TRUMP6")
    err = raises(IllegalAction, state.play, "4-5/4")
    assert err.code == E_PHASE  # the suit is the higher end: no declaring
    state.play("4-5")
    assert state.suit == 5
    assert legal_texts(state) == sorted(HANDS_TV8_P2.split())  # 5-6 is a trump, not a 5
    state.play("5-6")
    assert legal_texts(state) == ["1-5", "2-5", "3-5"]
    state.play("3-5")
    assert state.tricks[P2] == 1  # trumped


HANDS_TV8_P2 = "5-6 2-3 0-0 3-3 3-4 4-4 6-6"


def test_bad_input_is_rejected_with_the_state_unchanged():
    state = hand_with_p1_bidding()
    before = len(state.history)
    cases = [
        ("0-3", E_TILE),  # not in the 22-tile set
        ("9-9", E_TILE),
        ("4-5", E_PHASE),  # a non-double lead needs its suit
        ("4-5/6", E_TILE),
        ("4-6/4", E_NOT_HELD),  # P2's tile
    ]
    for text, code in cases:
        err = raises(IllegalAction, state.play, text)
        assert err.code == code, (text, err.code, err.reason)
    state.play("4-5/4")
    err = raises(IllegalAction, state.play, "5-5")
    assert err.code == E_FOLLOW and "4-6" in err.reason
    assert len(state.history) == before + 1 and state.current_player() == P2


def test_bids_out_of_range_or_turn():
    state = find_ruleset("moon").new_state()
    deal(state, HANDS_1, WIDOW_1)
    for text, code in (("B1:3", E_BID), ("B1:8", E_BID), ("B2:5", E_TURN), ("B7:5", E_TURN), ("B1:X", E_BID)):
        err = raises(IllegalAction, state.play, text)
        assert err.code == code, (text, err.code)
    assert state.current_player() == P1 and len(state.history) == 22


def test_all_pass_redeals_and_the_deal_moves_on():
    state = find_ruleset("moon").new_state()
    deal(state, HANDS_1, WIDOW_1)
    play_texts(state, "B1:PASS B2:PASS B0:PASS")
    assert state.hand_number == 1 and state.dealer == 1 and state.hands[0].size() == 0
    forced = find_ruleset("moon", all_pass="dealer_forced").new_state()
    deal(forced, HANDS_1, WIDOW_1)
    play_texts(forced, "B1:PASS B2:PASS")
    err = raises(IllegalAction, forced.play, "B0:PASS")
    assert err.code == E_BID and "dealer must bid" in err.reason


def test_widow_exchange_face_up_and_face_down():
    state = find_ruleset("moon").new_state()
    deal(state, HANDS_1, WIDOW_1)
    play_texts(state, "B1:4 B2:PASS B0:PASS")
    assert raises(IllegalAction, state.play, "X:?").code == E_TILE  # the seed's discard is face up
    assert raises(IllegalAction, state.play, "X:4-4").code == E_NOT_HELD  # that is the widow
    state.play("X:1-4")
    assert state.discard == 0x14 and state.hands[P1].holds(0x44) and not state.hands[P1].holds(0x14)
    down = find_ruleset("moon", widow="mandatory_facedown").new_state()
    deal(down, HANDS_1, WIDOW_1)
    play_texts(down, "B1:4 B2:PASS B0:PASS")
    assert down.hands[P1].size() == 8
    assert raises(IllegalAction, down.play, "KEEP").code == E_PHASE
    down.play("X:?")
    assert down.hands[P1].size() == 7 and down.hands[P1].unknown == 7  # which tile went is unknown


def test_unscanned_hands_report_a_renege_with_its_trick():
    state = hand_with_p1_bidding(unscanned=(P2, P3))
    state.play("4-5/4")
    state.play("1-2")  # P2 holds 4-6: a renege the table cannot see yet
    assert state.reneges == []
    real = {P1: HANDS_1[P1].split(), P2: HANDS_1[P2].split(), P3: HANDS_1[P3].split()}
    real[P1].remove("4-5")
    real[P2].remove("1-2")
    while state.hand_number == 0:
        seat = state.current_player()
        legal = [t for t in real[seat] if state.is_legal(state.parse_action(t))]
        if state.trick and state.suit is not None:
            following = [t for t in legal if state.follows(parse_tile(t), state.suit)]
            legal = following or legal
        if not legal:  # leading a non-double: declare its lower end
            legal = [t + "/" + t[0] for t in real[seat]]
        state.play(legal[0])
        real[seat].remove(legal[0].split("/")[0])
    assert len(state.reneges) == 1
    renege = state.reneges[0]
    assert (renege.hand, renege.trick, renege.seat, renege.suit, renege.tile) == (0, 1, P2, 4, 0x46)
    assert renege.text() == "hand 0 trick 1: P2 did not follow suit 4 but held 4-6"


def test_unscanned_hand_cannot_play_a_tile_seen_elsewhere():
    state = hand_with_p1_bidding(unscanned=(P2,))
    state.play("4-5/4")
    err = raises(IllegalAction, state.play, "1-4")  # P1 holds it
    assert err.code == E_NOT_HELD
    state.play("5-5")  # not a 4: a void, checked at the end of the hand
    assert state.current_player() == P3


def test_action_text_round_trips():
    state = hand_with_p1_bidding()
    for text in ("D0:1-2", "D2:?", "W:?", "B1:PASS", "B0:MOON", "B2:7", "X:3-4", "X:?", "KEEP", "TRUMP0",
                 "NOTRUMP", "4-5/4", "6-6"):
        assert state.action_str(state.parse_action(text)) == text, text
    assert state.describe(state.parse_action("4-5/4")) == "P1 leads 4-5 as a 4"
    assert state.describe(state.parse_action("D2:?")) == "P2 is dealt a tile face down"
    assert state.describe(state.parse_action("NOTRUMP")) == "the bidder plays without trumps"


def test_describe_names_who_takes_the_trick_a_play_completes():
    state = hand_with_p1_bidding()
    state.play("4-5/4")
    assert state.describe(state.parse_action("4-6")) == "P%d plays 4-6" % P2
    state.play("4-6")
    sentence = state.describe(state.parse_action("6-6"))
    state.play("6-6")
    assert sentence == "P%d plays 6-6 (P%d takes the trick)" % (P3, P2) and state.leader == P2


def test_player_count_and_parameters():
    from tiletable.engine.errors import RulesetError

    assert find_ruleset("moon").new_state().players == 3
    assert raises(RulesetError, find_ruleset("moon").new_state, 4).reason == "the rules are for 3 players, not 4"
    assert raises(RulesetError, find_ruleset, "moon", widow="open").field == "params.widow"


def test_TV_MOON_9_double_blank_under_pagat_trumps():
    """RULES.md TV-MOON-9 (settled): [0|0] is an ordinary suit-0 tile that can be trumped when
    led, and the only trump, winning any trick, when 0 is trumps."""
    hands = {P1: "0-0 1-1 1-2 1-3 1-4 2-2 2-4", P2: "5-5 2-3 5-6 3-3 3-4 4-4 6-6", P3: "1-5 1-6 2-5 2-6 3-5 3-6 4-6"}
    led = find_ruleset("moon", trumps="bidder_declares", lead_suit_rule="higher_end").new_state()
    deal(led, hands, "4-5")
    play_texts(led, "B1:4 B2:PASS B0:PASS KEEP TRUMP5 0-0 5-5 1-6")
    assert led.tricks[P2] == 1 and led.tricks[P1] == 0  # trumped
    hands = {P1: "5-6 1-1 1-2 1-3 1-4 2-2 2-4", P2: "0-0 2-3 5-5 3-3 3-4 4-4 1-5", P3: "6-6 1-6 2-5 2-6 3-5 3-6 4-6"}
    discarded = find_ruleset("moon", trumps="bidder_declares", lead_suit_rule="higher_end").new_state()
    deal(discarded, hands, "4-5")
    play_texts(discarded, "B1:4 B2:PASS B0:PASS KEEP TRUMP0 5-6")
    assert "0-0" in legal_texts(discarded)  # P2 holds no 6: it may discard the blank
    play_texts(discarded, "0-0 4-6")
    assert discarded.tricks[P2] == 1  # [0|0] is the trump
