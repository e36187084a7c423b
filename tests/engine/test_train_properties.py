# portable
"""Mexican Train random-play properties (after OpenSpiel's random_sim_test), with each variant:
every tile of the set accounted for and the pips with it, trains that chain from the engine,
markers only where their seats failed, at most one open double under ``must_cover``, legal
actions that never raise on ``play``, one round scored at a time with every seat's pips, matches
that end after their rounds with the lowest totals winning, records that replay, undo that takes
back one action, and unseen hands shown before the score. The variants play 4 rounds (the
preset its 13); MicroPython plays 3 rounds of each to fit its heap."""
import sys

from engine.families_play import Rng, check_undo, choose, run_random_matches
from tiletable.engine.holdings import UNKNOWN
from tiletable.engine.rulesets import find_ruleset
from tiletable.engine.state import CHANCE
from tiletable.engine.tiles import has, other, pips, tile
from tiletable.engine.train import K_PLAY, LOC_FREE, LOC_HAND, LOC_LAID, P_REVEAL, deal_action, fields, hand_value

SHORT = {} if sys.implementation.name == "cpython" else {"rounds": 3}
VARIANT = {"rounds": 4 if sys.implementation.name == "cpython" else 3}
VARIANTS = [
    dict(SHORT),
    dict(VARIANT, first_turn="run", own_train_first=True, deal="sliding"),
    dict(VARIANT, last_double="cover_first", double_blank=50),
    dict(VARIANT, double_rule="pagat_free_second", deal="celko"),
]


def check(state, action):
    if state.is_over():
        return
    engine = tile(state.engine, state.engine)
    laid = [engine] + [t for train in state.trains for t in train]
    held = [t for hand in state.hands for t in hand.known]
    laid_set, held_set = set(laid), set(held)
    assert len(laid) + len(held) == len(laid_set | held_set)  # no tile in two places
    for t in state.tiles:
        where = LOC_LAID if t in laid_set else (LOC_HAND if t in held_set else LOC_FREE)
        assert state.loc[t] == where
    free = sum(1 for t in state.tiles if state.loc[t] == LOC_FREE)
    assert free == state.boneyard + sum(hand.unknown for hand in state.hands)
    free_pips = sum(pips(t) for t in state.tiles if state.loc[t] == LOC_FREE)
    assert sum(pips(t) for t in laid + held) + free_pips == sum(pips(t) for t in state.tiles)
    for train in range(state.players + 1):
        value = state.engine
        for t in state.trains[train]:
            assert has(t, value)
            value = other(t, value)
        assert state.open_values[train] == value
    for train, value, seat in state.open_doubles:
        assert state.trains[train][-1] == tile(value, value)
    if state.ruleset.params["double_rule"] == "must_cover" and state.ruleset.params["first_turn"] == "single":
        assert len(state.open_doubles) <= 1
    assert state.passes < state.out.count(False)
    assert [sum(e.points for e in state.score_events if e.seat == s) for s in range(state.players)] == state.scores


def test_random_matches_keep_every_tile_and_end_after_their_rounds():
    run_random_matches("mexican-train", VARIANTS, check)


def test_a_round_scores_every_seats_pips_once_and_the_lowest_totals_win():
    for players in (2, 3, 4):
        ruleset = find_ruleset("mexican-train", double_blank=50, **SHORT)
        state = ruleset.new_state(players)
        rng = Rng(players)
        rounds = 0
        while not state.is_over():
            before = len(state.score_events)
            held = [list(hand.known) for hand in state.hands]
            round_number = state.round
            action = choose(state, rng)
            kind, _, _, laid = fields(action)
            if kind == K_PLAY:
                held[state.turn].remove(laid)
            state.play(action)
            events = state.score_events[before:]
            if events:
                rounds += 1
                assert [e.seat for e in events] == list(range(players))
                assert [e.points for e in events] == [hand_value(hand, 50) for hand in held]
                assert all(e.hand == round_number - 1 for e in events)
                assert min(e.points for e in events) == 0 or state.last_round[0] == "blocked"
        assert rounds == ruleset.params["rounds"]
        outcome = state.outcome()
        low = min(state.scores)
        assert outcome.winners == tuple(s for s in range(players) if state.scores[s] == low)


def test_undo_takes_back_exactly_one_action():
    check_undo("mexican-train", SHORT)


def test_unseen_hands_are_played_blind_and_shown_before_the_score():
    state = find_ruleset("mexican-train", **SHORT).new_state(2)
    for seat in (0, 1):
        for _ in range(state.deal):
            state.play(deal_action(seat, UNKNOWN))
    assert state.hands[0].unknown == 15 and state.boneyard == 60
    rng = Rng(3)
    while state.round == 1:
        if state.current_player() == CHANCE and state.phase != P_REVEAL:  # deals and draws stay unseen
            state.play(deal_action(state.turn, UNKNOWN))
            continue
        actions = list(state.legal_actions())
        plays = [a for a in actions if state.action_str(a)[0].isdigit()]
        state.play(rng.choice(plays or actions))
    events = state.score_events
    assert len(events) == 2 and state.last_round[2] == tuple(e.points for e in events)
