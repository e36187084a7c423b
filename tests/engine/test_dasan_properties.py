# portable
"""Da San random-play properties: chips zero-sum after every action, all 52 cards
accounted for in the card play, matches end (by hands or by chips), records replay,
undo takes back one action."""
from engine.families_play import Rng, check_undo, choose, run_random_matches
from tiletable.engine.rulesets import find_ruleset

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


def test_describe_names_who_leads_after_every_round_the_passes_end():
    state = find_ruleset("dasan", hands=2).new_state()
    rng = Rng(5)
    named = 0
    while not state.is_over():
        action = choose(state, rng)
        sentence = state.describe(action)
        playing, last = state.phase == PLAY, state.last_player
        state.play(action)
        if "takes the trick" in sentence:
            assert sentence.endswith("(P%d takes the trick and leads)" % last) and state.current_player() == last
            assert state.last is None, "a new round"
            named += 1
        elif playing and action == ():
            assert state.last is not None, "a pass that ended the round was not told so: %s" % sentence
    assert named > 3
