"""Random-play properties of the line family on CPython: thousands of hands per preset.

Tiles are conserved, hands end, every listed action passes the checked ``play``, Buki's
chips sum to zero, records round-trip and undo restores. Part of the games deal some hands
unseen (``D2:?``) so the reveal and the fact checks run too.
"""
import random

import pytest

from engine.journal_replay import records_of, replayed
from engine.line_random import VARIANTS, check_tiles, pick
from tiletable.engine.line_actions import K_DRAW, K_PLAY, K_SHOW_DOUBLES, SET_POINT, kind_of, point_of
from tiletable.engine.rulesets import find_ruleset
from tiletable.engine.state import CHANCE

HANDS_PER_PRESET = 1000
CASES = [
    (name, params, players)
    for name, params in VARIANTS
    for players in sorted(int(k) for k in find_ruleset(name, **params).params["deal"])
]
CASES_PER_PRESET = {}
for _case in CASES:
    CASES_PER_PRESET[_case[0]] = CASES_PER_PRESET.get(_case[0], 0) + 1


def _state_key(state):
    return (records_of(state), list(state.scores), [e.text() for e in state.score_events], state.current_player())


def _zero_sum(state):
    extra = sum(state.betting.spectator_chips) if state.betting else 0
    return sum(state.scores) + extra == 0


@pytest.mark.parametrize("name,params,players", CASES, ids=["%s-%dp-%d" % (c[0], c[2], i) for i, c in enumerate(CASES)])
def test_random_hands_keep_the_invariants(name, params, players):
    ruleset = find_ruleset(name, **params)
    rng = random.Random("%s-%d-%d" % (name, players, len(params)))  # hash() of a str differs by process
    hands = 0
    matches = 0
    while hands < max(100, HANDS_PER_PRESET // CASES_PER_PRESET[name]):
        unseen_rate = 0.0 if matches % 3 else 0.3
        state = ruleset.new_state(players)
        matches += 1
        steps_in_hand = 0
        hand = 0
        while not state.is_over():
            action = pick(state, rng, unseen_rate)
            if rng.random() < 0.02:
                before = _state_key(state)
                state.apply(action)
                state.undo()
                assert _state_key(state) == before
            state.play(action)  # checked: every listed action is legal
            check_tiles(state)
            if state.betting:
                assert _zero_sum(state), state.scores
            steps_in_hand += 1
            if kind_of(action) == K_SHOW_DOUBLES:  # the deal is thrown in: a deal of its own
                steps_in_hand = 0
            assert steps_in_hand < 600, "hand does not end: %r" % state
            if state.hand_number != hand:
                hand = state.hand_number
                hands += 1
                steps_in_hand = 0
        hands += 1
        assert state.outcome().scores == tuple(state.scores)
        if state.betting:
            assert _zero_sum(state)
        else:
            assert all(e.points > 0 for e in state.score_events)
        if matches % 4 == 0:
            again = replayed(ruleset, records_of(state))
            assert _state_key(again) == _state_key(state)
            assert [v.text() for v in again.violations] == [v.text() for v in state.violations]


@pytest.mark.parametrize("name", ["block", "muggins", "sniff", "buki"])
def test_legal_actions_are_sorted_unique_and_agree_with_why_illegal(name):
    ruleset = find_ruleset(name)
    rng = random.Random(5)
    for _ in range(20):
        state = ruleset.new_state()
        while not state.is_over():
            listed = state.generate_legal_actions()
            assert listed == sorted(set(listed))
            for action in listed:
                assert state.why_illegal(action) is None, state.action_str(action)
                assert state.parse_action(state.action_str(action)) == action
            if state.current_player() != CHANCE:
                assert state.legal_actions().count() == len(listed)
            state.apply(pick(state, rng, 0.1))


def test_aliases_find_their_presets():
    assert find_ruleset("all-fives").name == "muggins"
    assert find_ruleset("Bukidomino").name == "buki"
    assert find_ruleset("block-game").name == "block"


@pytest.mark.parametrize("name,params", VARIANTS, ids=["%s-%d" % (v[0], i) for i, v in enumerate(VARIANTS)])
def test_describe_says_what_is_true_after_a_play_or_a_draw(name, params):
    """``#17 P2 plays 0-6 on L (now showing 6)``: the end the play leaves; a draw's count is the
    boneyard once the drawn tile (the deal after the draw) has left it."""
    ruleset = find_ruleset(name, **params)
    rng = random.Random(len(name) + len(params))
    plays = draws = 0
    for _ in range(3):
        state = ruleset.new_state(min(int(k) for k in ruleset.params["deal"]))
        said_left = None
        while not state.is_over():
            action = pick(state, rng, 0.2)
            sentence = state.describe(action)
            kind = kind_of(action)
            point = point_of(action)
            hand = state.hand_number
            state.play(action)
            if said_left is not None:  # the tile drawn has just been dealt
                assert state.stock == said_left, (sentence, state.stock)
                said_left = None
            if kind == K_PLAY and point != SET_POINT and state.hand_number == hand and not state.is_over():
                assert sentence.endswith("(now showing %d)" % state.layout.val[point]), (sentence, state.layout.text())
                plays += 1
            elif kind == K_DRAW:
                said_left = int(sentence.rsplit("(", 1)[1].split()[0])
                draws += 1
    assert plays > 0
    assert draws > 0 or ruleset.params["draw_policy"] == "none"
