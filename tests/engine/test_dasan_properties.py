# portable
"""Da San random-play properties: chips zero-sum after every action, all 52 cards
accounted for in the card play, matches end (by hands or by chips), records replay,
undo takes back one action."""
from engine.families_play import check_undo, run_random_matches

VARIANTS = [{"hands": 2}, {"forced_bid_house_rule": True, "chips": 3}]
PLAY = 4  # climb.State.phase during the card play


def check(state, action):
    assert sum(state.scores) == 0, "chips are zero-sum"
    if state.phase == PLAY:
        assert sum(h.size() for h in state.hands) + state.cards_played == 52
        assert not state.kitty


def test_random_matches_settle_zero_sum():
    run_random_matches("dasan", VARIANTS, check)


def test_undo_takes_back_exactly_one_action():
    check_undo("dasan", {"hands": 1})
