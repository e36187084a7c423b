# portable
"""Da San (rule book §3.11): the card encoding, the TV-DS vectors, the cut, unscanned
hands and bad input.

Seats are numbered clockwise and Da San plays counter-clockwise (next = seat - 1), so
the book's A, B, C in playing order B -> C -> A are seats 0, 2 and 1.
"""
from portable import raises

from engine.families_play import play_texts
from tiletable.engine.cards import card, card_str, parse_card, rank_of, suit_of
from tiletable.engine.climb import PASS, settlement
from tiletable.engine.climb_combos import beat_problem, classify
from tiletable.engine.errors import E_BID, E_CHANCE, E_COMBO, E_MUST_PLAY, E_NOT_HELD, E_PHASE, E_TILE, E_TURN, IllegalAction
from tiletable.engine.rulesets import find_ruleset
from tiletable.engine.state import CHANCE

A, B, C = 0, 2, 1


def combo(text):
    """Cards by rank only ("44-55-66", "9-10-J"), suits assigned C, D, H, S in turn."""
    cards = []
    for group in text.split("-"):
        ranks = _split_ranks(group)
        for i in range(len(ranks)):
            cards.append(parse_card("CDHS"[i] + ranks[i]))
    return tuple(sorted(cards))


def _split_ranks(group):
    """``"44"`` -> ["4", "4"]; ``"1010"`` -> ["10", "10"]; ``"J"`` -> ["J"]."""
    out = []
    while group:
        step = 2 if group.startswith("10") else 1
        out.append(group[:step])
        group = group[step:]
    return out


def cut_and_deal(state, fixed, kitty):
    """Seat 0 deals (cut 9, 2, 3); seats get the cards in ``fixed`` plus the rest in id order."""
    play_texts(state, "C0:H9 C1:S2 C2:D3")
    taken = set(parse_card(c) for c in kitty.split())
    hands = {}
    for seat in range(3):
        hands[seat] = [parse_card(c) for c in fixed.get(seat, "").split()]
        taken.update(hands[seat])
    rest = [c for c in range(52) if c not in taken]
    for seat in range(3):
        while len(hands[seat]) < 16:
            hands[seat].append(rest.pop(0))
        for c in hands[seat]:
            state.play("D%d:%s" % (seat, card_str(c)))
    for c in kitty.split():
        state.play("K:" + c)


def unscanned_deal(state):
    """Seat 0 deals; every card face down, so the opener must show the four of hearts."""
    play_texts(state, "C0:H9 C1:S2 C2:D3")
    for seat in range(3):
        play_texts(state, " ".join(["D%d:?" % seat] * 16))
    play_texts(state, "K:? K:? K:? K:?")
    assert state.current_player() == CHANCE and state.opener is None


def legal_texts(state):
    return sorted(state.action_str(a) for a in state.legal_actions())


def test_card_ids_are_the_tag_encoding():
    assert parse_card("CA") == 0 and parse_card("CK") == 12 and parse_card("DA") == 13
    assert parse_card("H4") == 2 * 13 + 3 and parse_card("SK") == 51
    assert card(3, 1) == 39 and suit_of(29) == 2 and rank_of(29) == 4
    for c in range(52):
        assert parse_card(card_str(c)) == c
    assert parse_card("d10") == parse_card("DT") == card(1, 10)
    for bad in ("", "X4", "H1", "H11", "H", "4H"):
        assert "not a card" in str(raises(ValueError, parse_card, bad))


def test_TV_DS_1_sequences():
    for valid in ("4-5-6", "J-Q-K", "44-55-66", "444-555-666", "4444-5555-6666", "9-10-J-Q-K"):
        assert classify(combo(valid)) is not None, valid
    for invalid in ("Q-K-A", "K-A-2", "3-4-5", "44-55", "A-2-3", "4-5", "4-6-7"):
        assert classify(combo(invalid)) is None, invalid
    assert classify(combo("44-55-66")) == (2, 3, 2)


def test_TV_DS_2_beating():
    def beats(new, old):
        return beat_problem(classify(combo(new)), classify(combo(old))) is None

    assert beats("7-8-9-10", "6-7-8-9")
    assert not beats("JJJJ", "6-7-8-9")
    assert not beats("9-10-J-Q-K", "6-7-8-9")
    assert beats("22", "AA")
    assert beats("3", "2")
    assert not beats("4444", "5")
    assert beats("55-66-77", "44-55-66")
    assert not beats("44-55-66-77", "44-55-66")
    assert not beats("5", "5") and not beats("4", "5")
    assert "no bombs" in beat_problem(classify(combo("4444")), classify(combo("5")))


def test_TV_DS_3_opening_bidder_is_the_lowest_heart():
    state = find_ruleset("dasan").new_state()
    cut_and_deal(state, {C: "H6", A: "H7"}, "H4 H5 S2 S3")
    assert state.opener == C and state.current_player() == C
    assert legal_texts(state) == ["B1:1", "B1:2", "B1:3"]
    err = raises(IllegalAction, state.play, "B1:PASS")
    assert err.code == E_BID and "must bid" in err.reason


def test_TV_DS_4_auction_and_first_lead():
    state = find_ruleset("dasan").new_state()
    cut_and_deal(state, {B: "H4"}, "S2 S3 D2 D3")
    assert state.opener == B
    play_texts(state, "B2:1 B1:PASS B0:2 B2:PASS B1:PASS")
    assert (state.bidder, state.bid) == (A, 2)
    assert state.hands[A].size() == 20 and state.hands[A].holds(parse_card("S3"))
    assert state.current_player() == B  # the opener leads, whoever won the auction
    state = find_ruleset("dasan").new_state()
    cut_and_deal(state, {B: "H4"}, "S2 S3 D2 D3")
    play_texts(state, "B2:1 B1:PASS B0:PASS")
    assert (state.bidder, state.bid) == (B, 1) and state.current_player() == B


def test_auction_ends_at_three_and_allows_reentry():
    state = find_ruleset("dasan").new_state()
    cut_and_deal(state, {B: "H4"}, "S2 S3 D2 D3")
    play_texts(state, "B2:1 B1:PASS")
    state.play("B0:2")
    state.play("B2:PASS")
    state.play("B1:3")  # C passed before and comes back in; 3 ends the auction at once
    assert (state.bidder, state.bid) == (C, 3) and state.current_player() == B


def test_TV_DS_6_settlement():
    assert sorted(_net(settlement(A, 2, A))) == sorted([(A, 4), (B, -2), (C, -2)])
    assert sorted(_net(settlement(A, 2, C))) == sorted([(A, -4), (B, 2), (C, 2)])
    assert dict(_net(settlement(B, 1, B, True)))[B] == 4
    assert dict(_net(settlement(B, 1, A, True)))[B] == -2
    assert dict(_net(settlement(B, 1, B, False)))[B] == 2


def _net(moves):
    total = {}
    for seat, points, _ in moves:
        total[seat] = total.get(seat, 0) + points
    return list(total.items())


def _opened_by_b(params=None, calls="B2:1 B1:PASS B0:2 B2:PASS B1:PASS"):
    state = find_ruleset("dasan", **(params or {})).new_state()
    unscanned_deal(state)
    state.play("O2:H4")  # B shows the four of hearts
    play_texts(state, calls)
    return state


def test_TV_DS_6_bidder_out_first_in_a_played_hand():
    state = _opened_by_b()
    assert (state.bidder, state.bid) == (A, 2)
    play_texts(state, "C4 PASS S3 PASS PASS")  # B leads; A's 3 wins the trick
    assert state.current_player() == A and state.last is None
    play_texts(state, "D4+D5+D6+D7+D8+D9+D10+DJ+DQ+DK PASS PASS")
    events = play_texts(state, "H5+H6+H7+H8+H9+H10+HJ+HQ+HK")
    assert _sums(events) == {A: 4, B: -2, C: -2}
    assert state.dealer == A and state.hand_number == 1  # the winner deals next


def test_TV_DS_6_opponent_out_first_in_a_played_hand():
    state = _opened_by_b()
    play_texts(state, "C4 C6 PASS PASS")  # C wins the trick
    play_texts(state, "D4+D5+D6+D7+D8+D9+D10+DJ+DQ+DK PASS PASS")
    events = play_texts(state, "S4+S5+S6+S7+S8")
    assert _sums(events) == {A: -4, B: 2, C: 2}


def test_TV_DS_6_forced_bid_house_rule_in_played_hands():
    won = _opened_by_b({"forced_bid_house_rule": True}, "B2:1 B1:PASS B0:PASS")
    play_texts(won, "D4+D5+D6+D7+D8+D9+D10+DJ+DQ+DK PASS PASS")
    assert _sums(play_texts(won, "H4+S5+S6+S7+S8+S9+S10+SJ+SQ+SK")) == {B: 4, A: -2, C: -2}
    lost = _opened_by_b({"forced_bid_house_rule": True}, "B2:1 B1:PASS B0:PASS")
    play_texts(lost, "C4 C6 PASS PASS D4+D5+D6+D7+D8+D9+D10+DJ+DQ+DK PASS PASS")
    assert _sums(play_texts(lost, "S4+S5+S6+S7+S8")) == {B: -2, A: 1, C: 1}


def _sums(events):
    total = {}
    for e in events:
        total[e.seat] = total.get(e.seat, 0) + e.points
    return total


def test_first_dealer_by_cut_with_a_tie():
    state = find_ruleset("dasan").new_state()
    play_texts(state, "C0:HK C1:SQ C2:D5")  # pictures count 0
    assert state.dealer == 2
    state = find_ruleset("dasan").new_state()
    play_texts(state, "C0:H9 C1:S9 C2:DA")
    assert state.dealer is None
    assert raises(IllegalAction, state.play, "C2:D2").code == E_TURN  # only the tied players draw again
    assert raises(IllegalAction, state.play, "C0:S9").code == E_CHANCE  # already drawn
    play_texts(state, "C1:D4 C0:D7")
    assert state.dealer == 0


def test_play_runs_counter_clockwise_and_a_trick_ends_after_two_passes():
    state = _opened_by_b()
    state.play("C7")
    assert state.current_player() == C
    state.play("PASS")
    assert state.current_player() == A
    state.play("C8")
    play_texts(state, "PASS")
    assert state.current_player() == C  # C may come back in after passing
    state.play("PASS")
    assert state.current_player() == A and state.last is None and state.hands[A].size() == 19


def test_the_player_of_the_play_to_beat_leads_after_the_passes_it_waits_for():
    """What the table asks when a seat lays cards out of turn on its own play (play_climb.py):
    how many passes come first, and whether its cards may lead then; nothing is played."""
    state = _opened_by_b()
    play_texts(state, "C7 PASS C8")  # B leads, C passes, A plays: B is to play on A's 8
    before = len(state.history)
    assert state.current_player() == B
    assert [state.passes_before_lead(seat) for seat in (A, B, C)] == [2, 0, 0]  # B, then C
    assert state.lead_problem(A, (parse_card("D9"),)) is None  # an unseen card may lead
    assert state.lead_problem(A, (parse_card("D5"),)) is None  # under the 8: a lead need beat nothing
    assert state.lead_problem(A, (parse_card("C7"),))[0] == E_NOT_HELD  # played already
    assert state.lead_problem(A, combo("4-5"))[0] == E_COMBO
    assert len(state.history) == before and state.current_player() == B
    play_texts(state, "PASS PASS")
    assert state.current_player() == A and state.passes_before_lead(A) == 0


def test_bad_input_is_rejected_with_the_state_unchanged():
    state = _opened_by_b()
    before = len(state.history)
    for text, code in (("PASS", E_MUST_PLAY), ("Z9", E_TILE), ("H11", E_TILE), ("C4+C4", E_TILE),
                       ("C4+D5", E_COMBO), ("Q+K+A", E_TILE), ("CQ+CK+CA", E_COMBO), ("B2:2", E_PHASE)):
        err = raises(IllegalAction, state.play, text)
        assert err.code == code, (text, err.code, err.reason)
    state.play("C9")
    for text, code in (("C8", E_COMBO), ("C10+D10", E_COMBO), ("C9", E_COMBO)):
        err = raises(IllegalAction, state.play, text)
        assert err.code == code, (text, err.code, err.reason)
    assert "not higher" in raises(IllegalAction, state.play, "C8").reason
    assert len(state.history) == before + 1 and state.current_player() == C


def test_bids_out_of_range_or_turn():
    state = find_ruleset("dasan").new_state()
    cut_and_deal(state, {B: "H4"}, "S2 S3 D2 D3")
    for text, code in (("B2:4", E_BID), ("B2:0", E_BID), ("B0:1", E_TURN), ("B5:1", E_TURN), ("B2:X", E_BID)):
        err = raises(IllegalAction, state.play, text)
        assert err.code == code, (text, err.code)
    state.play("B2:2")
    assert raises(IllegalAction, state.play, "B1:2").code == E_BID  # not higher
    assert state.current_player() == C


def test_hand_sizes_limit_unscanned_hands():
    state = _opened_by_b()
    play_texts(state, "C4 PASS S3 PASS PASS D4+D5+D6+D7+D8+D9+D10+DJ+DQ+DK PASS PASS")
    err = raises(IllegalAction, state.play, "S4+S5+S6+S7+S8+S9+S10+SJ+SQ+SK")  # A has 9 cards left
    assert err.code == E_NOT_HELD and "only 9" in err.reason


def test_action_text_round_trips():
    state = _opened_by_b()
    for text in ("C0:H4", "D2:SA", "D1:?", "K:S3", "K:?", "O1:H6", "B1:2", "B0:PASS", "PASS",
                 "H4+S4", "C9+D10+SJ"):
        assert state.action_str(state.parse_action(text)) == text, text
    assert state.parse_action("S4+H4") == state.parse_action("H4+S4") == (parse_card("H4"), parse_card("S4"))
    assert state.parse_action("PASS") == PASS
    assert state.describe(state.parse_action("C9+D10+SJ")) == "P2 plays C9+D10+SJ (sequence 9-J)"
    assert state.describe(state.parse_action("O1:H6")) == "P1 shows H6 and opens the auction"
    assert state.describe(state.parse_action("K:?")) == "the kitty gets a card face down"


def test_describe_names_who_leads_after_the_pass_that_ends_a_round():
    state = _opened_by_b()
    play_texts(state, "C4 PASS S3")
    leader = state.current_player()
    sentence = state.describe(PASS)
    play_texts(state, "PASS")
    assert sentence == "P%d passes" % leader
    last, seat = state.last_player, state.current_player()
    sentence = state.describe(PASS)
    play_texts(state, "PASS")
    assert sentence == "P%d passes (P%d takes the trick and leads)" % (seat, last) and state.current_player() == last


def test_ruleset_checks():
    from tiletable.engine.errors import RulesetError

    assert find_ruleset("DASAN").name == "dasan"
    assert find_ruleset("Big-Three").name == "dasan"  # an alias, found in the presets' documents
    err = raises(RulesetError, find_ruleset, "dasan", chips=0, hands=0)
    assert err.field == "params.hands" and "needs an end" in err.reason
    err = raises(RulesetError, find_ruleset("dasan").new_state, 4)
    assert err.field == "players" and err.reason == "the rules are for 3 players, not 4"
