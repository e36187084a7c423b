# portable
"""Texas 42 (MORE-GAMES.md §4): the TV-42 vectors (the optional contracts' too), bad input and
unscanned hands.

Seats 0-3 clockwise; the first shaker is seat 3, so seat 0 calls first, as in the vectors.
A vector's trick is set up by a deal that gives each seat the vector's tiles and fills its hand
with tiles that do not follow the led suit, so that the legal plays are the vector's.
"""
from portable import raises

from engine.families_play import play_texts
from tiletable.engine.errors import E_BID, E_FOLLOW, E_NOT_HELD, E_PHASE, E_TILE, E_TURN, IllegalAction
from tiletable.engine.fortytwo import MARKS, TILES, count_of, verdict
from tiletable.engine.rulesets import find_ruleset
from tiletable.engine.suits import DOUBLES, NO_TRUMP, follows, lead_suit
from tiletable.engine.tiles import parse_tile, tile_str


def tiles(text):
    return [parse_tile(t) for t in text.split()]


def legal_texts(state):
    return sorted(state.action_str(a) for a in state.legal_actions())


def dealt(**params):
    """A hand dealt in set order, round the table from seat 0: the auction is open."""
    state = find_ruleset("texas-42", **params).new_state()
    for i, tile in enumerate(TILES):
        state.play("D%d:%s" % (i % 4, tile_str(tile)))
    return state


def trick_position(hands, trump, lead, nt_doubles="high", bid="30", **params):
    """Seat 0 has bid 30 and named ``trump`` (TRUMP4, DOUBLES, FOLLOWME); ``hands`` (seat ->
    tile texts) are in the hands, which are filled with tiles that do not follow the suit of
    ``lead`` (seat 0's fill is what is left); the auction is over and seat 0 is to lead."""
    state = find_ruleset("texas-42", nt_doubles=nt_doubles, **params).new_state()
    trump_suit = {"DOUBLES": DOUBLES, "FOLLOWME": NO_TRUMP, "NELLO": NO_TRUMP, "SEVENS": NO_TRUMP}.get(trump)
    trump_suit = int(trump[5:]) if trump_suit is None else trump_suit
    apart = trump_suit == NO_TRUMP and nt_doubles == "own_suit"
    suit = lead_suit(parse_tile(lead), trump_suit, True, apart)
    fits = (lambda t: _from_seven(t) <= 1) if trump == "SEVENS" else (lambda t: follows(t, suit, trump_suit, apart))
    held = dict((seat, tiles(hands.get(seat, ""))) for seat in range(4))
    pool = [t for t in TILES if not any(t in hand for hand in held.values())]
    for seat in (1, 2, 3):
        fill = [t for t in pool if not fits(t)][: 7 - len(held[seat])]
        held[seat] += fill
        pool = [t for t in pool if t not in fill]
    held[0] += pool
    for seat in range(4):
        assert len(held[seat]) == 7
        for tile in held[seat]:
            state.play("D%d:%s" % (seat, tile_str(tile)))
    play_texts(state, "B0:%s B1:PASS B2:PASS B3:PASS %s" % (bid, trump))
    return state, held


def _from_seven(tile):
    pips = (tile >> 4) + (tile & 15)
    return pips - 7 if pips > 7 else 7 - pips


def test_TV_42_1_auction_ladder_and_mark_bids():
    state = dealt()
    state.play("B0:30")
    calls = legal_texts(state)
    assert len(calls) == 14
    assert set(calls) == set(["B1:PASS", "B1:M1", "B1:M2"] + ["B1:%d" % n for n in range(31, 42)])
    assert state.why_illegal(state.parse_action("B1:30"))[0] == E_BID
    assert state.why_illegal(state.parse_action("B1:M3"))[0] == E_BID
    state.play("B1:M2")
    assert legal_texts(state) == ["B2:M3", "B2:PASS"]
    play_texts(state, "B2:PASS B3:PASS")
    assert state.bidder == 1 and state.high_call == MARKS + 2 and state.current_player() == 1
    other = dealt()
    other.play("B0:M1")
    assert legal_texts(other) == ["B1:M2", "B1:PASS"]


def test_TV_42_1_mark_raise_any_allows_a_jump():
    state = dealt(mark_raise="any")
    state.play("B0:M1")
    assert "B1:M4" in legal_texts(state)


def test_TV_42_2_all_pass_redeals_and_the_shake_passes_left():
    state = dealt()
    play_texts(state, "B0:PASS B1:PASS B2:PASS B3:PASS")
    assert state.shaker == 0 and state.hand_number == 1 and state.scores == [0, 0, 0, 0]
    for i, tile in enumerate(TILES):
        state.play("D%d:%s" % ((i + 1) % 4, tile_str(tile)))
    assert state.current_player() == 1  # the shaker's left calls first


def test_TV_42_2_shaker_forced_must_bid_after_three_passes():
    state = dealt(all_pass="shaker_forced")
    play_texts(state, "B0:PASS B1:PASS B2:PASS")
    calls = legal_texts(state)
    assert len(calls) == 14 and "B3:PASS" not in calls
    assert set(calls) == set(["B3:M1", "B3:M2"] + ["B3:%d" % n for n in range(30, 42)])
    assert state.why_illegal(state.parse_action("B3:PASS"))[0] == E_BID


def test_TV_42_3_suit_of_a_lead():
    suit_of = {}
    for trump in ("TRUMP4", "DOUBLES", "FOLLOWME"):
        state = dealt()
        play_texts(state, "B0:30 B1:PASS B2:PASS B3:PASS " + trump)
        suit_of[trump] = lambda text, state=state: state.lead_suit(parse_tile(text))
    four = suit_of["TRUMP4"]
    assert [four(t) for t in ("6-3", "4-1", "6-4", "3-3", "4-4", "0-2", "5-5")] == [6, 4, 4, 3, 4, 2, 5]
    assert suit_of["DOUBLES"]("3-3") == DOUBLES and suit_of["DOUBLES"]("6-3") == 6
    assert suit_of["FOLLOWME"]("0-2") == 2 and suit_of["FOLLOWME"]("5-5") == 5


def test_TV_42_4_follow_suit_with_trumps_4():
    state, held = trick_position({0: "3-6", 1: "4-6 0-6 2-2", 2: "2-4 1-3 5-5", 3: "6-6 1-1"}, "TRUMP4", "3-6")
    state.play("3-6")
    assert legal_texts(state) == ["0-6"]  # 4-6 is a trump, not a 6
    assert state.why_illegal(state.parse_action("4-6"))[0] == E_FOLLOW
    state.play("0-6")
    assert legal_texts(state) == sorted(tile_str(t) for t in held[2])  # no 6: anything goes
    state.play("2-4")
    assert legal_texts(state) == ["6-6"]
    state.play("6-6")
    assert state.leader == 2 and state.points == [1, 0] and state.side_tricks == [1, 0]


def test_TV_42_5_a_trump_led():
    state, held = trick_position({0: "1-4", 1: "4-6 1-1", 2: "1-6 4-4", 3: "1-2 3-5"}, "TRUMP4", "1-4")
    state.play("1-4")
    assert legal_texts(state) == ["4-6"]
    state.play("4-6")
    assert legal_texts(state) == ["4-4"]
    state.play("4-4")
    assert "1-2" in legal_texts(state) and "3-5" in legal_texts(state)  # the 1 of 1-2 does not follow a trump
    state.play("3-5")
    assert state.leader == 2 and state.points == [16, 0]


def test_TV_42_6_doubles_are_trumps():
    state, held = trick_position({0: "5-5", 1: "2-2 5-6", 2: "1-5 3-6", 3: "6-6 0-5"}, "DOUBLES", "5-5")
    state.play("5-5")
    assert legal_texts(state) == ["2-2"]
    state.play("2-2")
    assert "1-5" in legal_texts(state) and "3-6" in legal_texts(state)
    state.play("1-5")
    assert legal_texts(state) == ["6-6"]
    state.play("6-6")
    assert state.leader == 3 and state.points == [0, 11]
    assert state.lead_suit(parse_tile("2-5")) == 5 and not state.follows(parse_tile("5-5"), 5)  # 5-5 is a trump only


def test_TV_42_7_follow_me_and_the_doubles_option():
    hands = {0: "1-3", 1: "3-3 1-1", 2: "3-6 0-2", 3: "1-4 0-0"}
    for nt_doubles, winner, points in (("high", 1, [0, 6]), ("low", 2, [6, 0]), ("own_suit", 2, [6, 0])):
        state, held = trick_position(hands, "FOLLOWME", "1-3", nt_doubles)
        state.play("1-3")
        if nt_doubles == "own_suit":
            assert legal_texts(state) == sorted(tile_str(t) for t in held[1])  # 3-3 is a double, not a 3
        else:
            assert legal_texts(state) == ["3-3"]
        state.play("3-3")
        assert legal_texts(state) == ["3-6"]
        state.play("3-6")
        state.play("1-4")
        assert (state.leader, state.points) == (winner, points), nt_doubles


# TV-42-8: the captured tiles of a whole hand, trick by trick, and the side that took each
CAPTURED = [
    ("A", "6-6 4-6 1-6 0-6"),
    ("A", "5-5 5-6 1-5 2-5"),
    ("A", "4-4 4-5 2-4 3-4"),
    ("B", "3-3 3-6 2-3 1-3"),
    ("A", "2-2 2-6 0-2 0-5"),
    ("A", "1-1 1-2 0-1 0-0"),
    ("B", "0-3 0-4 1-4 3-5"),
]


def running_totals():
    a = b = 0
    totals = []
    for side, trick in CAPTURED:
        points = 1 + sum(count_of(t) for t in tiles(trick))
        if side == "A":
            a += points
        else:
            b += points
        totals.append((a, b))
    return totals


def decided_after(call, bidders_side):
    """The trick (1..7) after which the bid is decided, and the verdict."""
    tricks = [0, 0]
    for number, (side, _) in enumerate(CAPTURED):
        tricks["AB".index(side)] += 1
        a, b = running_totals()[number]
        ours, theirs = (a, b) if bidders_side == "A" else (b, a)
        mine, others = (tricks[0], tricks[1]) if bidders_side == "A" else (tricks[1], tricks[0])
        made = verdict(call, ours, theirs, mine, others)
        if made is not None:
            return number + 1, made
    return None


def test_TV_42_8_a_whole_hands_points_made_and_set():
    assert [a for a, _ in running_totals()] == [11, 22, 23, 23, 29, 30, 30]
    assert [b for _, b in running_totals()] == [0, 0, 0, 6, 6, 6, 12]
    assert decided_after(30, "A") == (6, True)
    assert decided_after(31, "A") == (7, False)
    assert decided_after(MARKS + 1, "A") == (4, False)
    assert decided_after(MARKS + 2, "A") == (4, False)
    assert decided_after(30, "B") == (2, False)


def hand_of_trumps(bidder_side_wins, call):
    """Seat 0 bids ``call`` and names 6s; the seven 6s are seat 0's when its side is to win every
    trick, else seat 1's (who trumps the first lead). Plays: each seat's first legal tile."""
    state = find_ruleset("texas-42").new_state()
    sixes = [t for t in TILES if t & 15 == 6]
    others = [t for t in TILES if t & 15 != 6]
    strong = 0 if bidder_side_wins else 1
    order = [s for s in range(4) if s != strong]
    for tile in sixes:
        state.play("D%d:%s" % (strong, tile_str(tile)))
    for i, tile in enumerate(others):
        state.play("D%d:%s" % (order[i // 7], tile_str(tile)))
    play_texts(state, "B0:%s B1:PASS B2:PASS B3:PASS TRUMP6" % call)
    return state


def play_first_legal_until_the_hand_ends(state):
    hand = state.hand_number
    while state.hand_number == hand and not state.is_over():
        state.play(min(state.legal_actions()))


def test_TV_42_9_a_set_mark_bid_ends_the_match_for_the_opponents():
    state = hand_of_trumps(False, "M2")
    state.scores = [6, 5, 6, 5]
    play_first_legal_until_the_hand_ends(state)
    assert state.scores == [6, 7, 6, 7] and state.outcome().winners == (1, 3)
    assert state.last_hand[2] is False and len(state.plays) == 4  # set after the first trick


def test_TV_42_9_a_made_bid_ends_the_match_for_the_bidders():
    state = hand_of_trumps(True, "30")
    state.scores = [6, 5, 6, 5]
    play_first_legal_until_the_hand_ends(state)
    assert state.scores == [7, 5, 7, 5] and state.outcome().winners == (0, 2)


def test_TV_42_10_the_count_is_35_in_five_tiles():
    counted = [tile_str(t) for t in TILES if count_of(t)]
    assert counted == ["0-5", "1-4", "2-3", "4-6", "5-5"]
    assert sum(count_of(t) for t in TILES) == 35 and 35 + 7 == 42


def test_stop_when_decided_off_plays_all_seven_tricks_with_the_same_marks():
    for stop in (True, False):
        state = find_ruleset("texas-42", stop_when_decided=stop).new_state()
        for i, tile in enumerate(TILES):
            state.play("D%d:%s" % (i % 4, tile_str(tile)))
        play_texts(state, "B0:30 B1:PASS B2:PASS B3:PASS TRUMP6")
        play_first_legal_until_the_hand_ends(state)
        assert len(state.score_events) == 2
        if not stop:
            assert len(state.plays) == 0 and sum(state.last_hand[3]) == 42  # all 42 points were taken


def test_a_score_names_the_bid_and_credits_both_partners():
    state = hand_of_trumps(True, "30")
    play_first_legal_until_the_hand_ends(state)
    first, second = state.score_events
    assert (first.seat, second.seat, first.points) == (0, 2, 1)
    assert first.detail == "P0 bids 30: made with 31 points to 0, 1 mark"  # decided by the trick that passed 30
    assert state.shaker == 0 and state.current_player() < 0  # the next deal, shaken by seat 0


def test_bad_input_is_refused_with_its_reason():
    state = dealt()
    for text, code in (("B0:29", E_BID), ("B0:42", E_BID), ("B0:M0", E_BID), ("X:4-5", E_TILE), ("7-7", E_TILE), ("B1:30", E_TURN)):
        assert raises(IllegalAction, state.play, text).code == code, text
    assert state.why_illegal(state.parse_action("TRUMP4"))[0] == E_PHASE
    assert state.why_illegal(state.parse_action("4-5"))[0] == E_PHASE


def test_a_tile_not_in_the_players_hand_is_refused():
    state, held = trick_position({0: "3-6"}, "TRUMP4", "3-6")
    other = tile_str(held[1][0])
    assert state.why_illegal(state.parse_action(other))[0] == E_NOT_HELD


def test_every_action_reads_back_from_its_text():
    state = dealt()
    for text in ("B0:PASS", "B0:30", "B0:M2", "TRUMP0", "DOUBLES", "FOLLOWME", "D3:?", "D1:0-0", "5-6"):
        assert state.action_str(state.parse_action(text)) == text


def test_unscanned_hands_report_a_renege_when_the_hand_ends():
    state = find_ruleset("texas-42", stop_when_decided=False).new_state()
    for i, tile in enumerate(TILES):  # seat 1, unscanned, holds 0-1 0-5 1-3 2-2 2-6 3-6 5-5
        state.play("D%d:%s" % (i % 4, "?" if i % 4 == 1 else tile_str(tile)))
    play_texts(state, "B0:30 B1:PASS B2:PASS B3:PASS FOLLOWME 1-2 0-1")  # seat 1 shows no 2
    assert "0-1" not in legal_texts(state) and "2-6" not in legal_texts(state)  # seen, or possibly seat 1's
    reneged = False
    while state.hand_number == 0:
        if state.current_player() == 1 and not reneged:
            state.play("2-6")  # a 2 after all
            reneged = True
        else:
            state.play(min(state.legal_actions()))
    renege = state.reneges[0]  # the first; seat 1's random plays may show more
    assert (renege.hand, renege.trick, renege.seat, renege.suit, tile_str(renege.tile)) == (0, 1, 1, 2, "2-6")


def test_describe_says_who_calls_names_trumps_and_takes_the_trick():
    state, held = trick_position({0: "3-6", 1: "4-6 0-6 2-2", 2: "2-4 1-3 5-5", 3: "6-6 1-1"}, "TRUMP4", "3-6")
    assert state.describe(state.parse_action("3-6")) == "P0 plays 3-6"
    play_texts(state, "3-6 0-6 2-4")
    assert state.describe(state.parse_action("6-6")) == "P3 plays 6-6 (P2 takes the trick)"
    assert dealt().describe(dealt().parse_action("B0:M2")) == "P0 bids 2 marks"


def test_TV_42_11_nello_the_partner_sits_out_and_the_bidder_takes_no_trick():
    hands = {0: "1-2", 1: "0-2", 3: "2-6"}
    state, held = trick_position(hands, "NELLO", "1-2", bid="M1", nello=True)
    assert state.out_seat == 2 and state.leader == 0
    play_texts(state, "1-2 0-2")
    assert state.current_player() == 3  # seat 2 sits out
    state.play("2-6")
    assert state.leader == 3 and state.side_tricks == [0, 1] and state.trick == []
    while state.hand_number == 0:
        state.play(min(state.legal_actions()))
    bidder_took_one = state.last_hand[2] is False
    assert state.scores == ([0, 1, 0, 1] if bidder_took_one else [1, 0, 1, 0])
    assert len([e for e in state.score_events if "nello" in e.detail]) == 2
    point_bid = dealt(nello=True)
    play_texts(point_bid, "B0:35 B1:PASS B2:PASS B3:PASS")
    assert point_bid.why_illegal(point_bid.parse_action("NELLO"))[0] == E_PHASE
    assert dealt().why_illegal(dealt().parse_action("NELLO"))[0] == E_PHASE  # off by default


def test_TV_42_11_nello_ends_when_the_bidder_wins_a_trick():
    state, held = trick_position({0: "6-6", 1: "0-1", 3: "0-2"}, "NELLO", "6-6", bid="M1", nello=True)
    play_texts(state, "6-6 0-1 0-2")  # nobody else holds a 6: the bidder takes it
    assert state.hand_number == 1 and state.scores == [0, 1, 0, 1] and state.last_hand[2] is False


def plunge_deal(doubles, **params):
    """Seat 1 holds ``doubles`` doubles and singles to seven; the rest dealt round the others."""
    state = find_ruleset("texas-42", plunge=True, **params).new_state()
    mine = tiles(doubles) + [t for t in TILES if t >> 4 != t & 15][: 7 - len(doubles.split())]
    for tile in mine:
        state.play("D1:" + tile_str(tile))
    others = [t for t in TILES if t not in mine]
    for i, tile in enumerate(others):
        state.play("D%d:%s" % ((0, 2, 3)[i // 7], tile_str(tile)))
    return state


def test_TV_42_12_plunge_bids_four_marks_and_the_partner_leads():
    state = plunge_deal("0-0 2-2 4-4 6-6")
    state.play("B0:M1")
    assert "B1:PLUNGE" in legal_texts(state)
    state.play("B1:PLUNGE")
    assert state.high_call == MARKS + 4 and state.plunged
    assert legal_texts(state) == ["B2:M5", "B2:PASS"]
    play_texts(state, "B2:PASS B3:PASS")
    assert state.current_player() == 3  # the partner names trumps
    assert state.why_illegal(state.parse_action("NELLO"))[0] == E_PHASE
    state.play("TRUMP6")
    assert state.current_player() == 3 and state.leader == 3
    while state.hand_number == 0:
        state.play(min(state.legal_actions()))
    marks = [0, 4, 0, 4] if state.last_hand[2] else [4, 0, 4, 0]
    assert state.scores == marks


def test_TV_42_12_three_doubles_may_not_plunge():
    state = plunge_deal("0-0 2-2 4-4")
    state.play("B0:M1")
    assert "B1:PLUNGE" not in legal_texts(state)
    assert state.why_illegal(state.parse_action("B1:PLUNGE"))[0] == E_BID


def test_TV_42_13_sevens_nearest_seven_wins_ties_to_the_first():
    hands = {0: "3-4", 1: "2-6 1-5 0-0", 2: "2-5", 3: "3-3"}
    state, held = trick_position(hands, "SEVENS", "3-4", bid="M1", sevens=True)
    state.play("3-4")
    assert legal_texts(state) == ["1-5", "2-6"]
    assert state.why_illegal(state.parse_action("0-0"))[0] == E_FOLLOW
    play_texts(state, "2-6 2-5")
    assert "3-3" in legal_texts(state)
    state.play("3-3")
    assert state.leader == 0  # 3-4 and 2-5 are both 7: the first played wins


def test_nello_value_one_mark_scores_a_two_mark_nello_as_one():
    state, held = trick_position({0: "6-6", 1: "0-1", 3: "0-2"}, "NELLO", "6-6", bid="M2", nello=True, nello_value="one_mark")
    play_texts(state, "6-6 0-1 0-2")
    assert state.scores == [0, 1, 0, 1]


def test_plunge_opening_false_needs_a_bid_before_the_plunge():
    state = plunge_deal("0-0 2-2 4-4 6-6", plunge_opening=False)
    state.play("B0:PASS")
    assert state.why_illegal(state.parse_action("B1:PLUNGE"))[0] == E_BID
