# portable
"""Moon random-play properties (after OpenSpiel's random_sim_test): every tile accounted
for, seven tricks a hand, scores equal to their ScoreEvents, matches end, records replay,
undo takes back one action. MicroPython plays shorter matches (target 7) to fit its heap."""
import sys

from engine.families_play import Rng, check_undo, choose, run_random_matches
from tiletable.engine.rulesets import find_ruleset

SHORT = {} if sys.implementation.name == "cpython" else {"target": 7}
VARIANTS = [
    dict(SHORT),
    dict(SHORT, trumps="bidder_declares", lead_suit_rule="higher_end", widow="mandatory_facedown",
         fail="full_bid", exact_tie="bidder_out"),
    dict({"all_pass": "dealer_forced", "redeal_dealer": "same", "target": 11}, **SHORT),
]
TRICKS = 4  # trick.State.phase while tricks are played


def check(state, action):
    if state.phase == TRICKS:
        hands = sum(h.size() for h in state.hands)
        put_aside = (state.widow is not None) + (state.discard is not None)
        assert hands + put_aside + len(state.plays) == 22
        assert len(state.plays) == 3 * state.trick_number + len(state.trick)
    if state.last_tricks is not None:
        assert sum(state.last_tricks) == 7
    assert [sum(e.points for e in state.score_events if e.seat == s) for s in range(3)] == state.scores


def test_random_matches_keep_every_tile_and_take_seven_tricks_a_hand():
    run_random_matches("moon", VARIANTS, check, bid_rarely=True)


def test_undo_takes_back_exactly_one_action():
    check_undo("moon", SHORT)


def test_describe_names_the_seat_that_takes_each_trick():
    state = find_ruleset("moon", **SHORT).new_state()
    rng = Rng(3)
    named = 0
    while not state.is_over():
        action = choose(state, rng, bid_rarely=True)
        sentence = state.describe(action)
        completes = state.phase == TRICKS and len(state.trick) == 2
        hand, before = state.hand_number, list(state.tricks)
        state.play(action)
        if completes:
            after = state.tricks if state.hand_number == hand else state.last_tricks
            (took,) = [seat for seat in range(3) if after[seat] > before[seat]]
            assert sentence.endswith("(P%d takes the trick)" % took), sentence
            named += 1
        else:
            assert "takes the trick" not in sentence, sentence
    assert named >= 7
