# portable
"""The questions the table's controller asks a line game (``current_phase``, ``waits_for``,
``lay_problem``...) agree with what the game does, over random play with hands seen and unseen."""
import gc

from engine.line_random import MORE_GAMES_VARIANTS, RULE_BOOK_VARIANTS, new_rng, pick
from engine.line_setup import start
from tiletable.engine.errors import E_NO_MATCH, E_NOT_HELD, E_SET, E_TILE
from tiletable.engine.line_actions import (
    K_DEAL,
    K_LOT,
    K_PLAY,
    K_REVEAL,
    K_SETTER,
    K_STAKES,
    P_BERGEN,
    P_DEAL,
    P_DECLARE,
    P_DRAWN,
    P_LOT,
    P_PLAY,
    P_REVEAL,
    kind_of,
    seat_action,
    seat_of,
    tile_of,
)
from portable import table_ruleset
from tiletable.engine.tiles import parse_tile

ACTIONS_PER_GAME = 150  # a hand or two


def _declared_sets(state, seat, t):
    """Whether ``seat`` may declare and then set ``t``, tried (and taken back); None when the
    game then asks for the stakes first (Buki: the set comes after them)."""
    declare = seat_action(K_SETTER, seat)
    if declare not in state.legal_actions():
        return False
    state.push(declare)  # taken back from its snapshot: a replay of the match would need a 192 KB heap's room
    legal = list(state.legal_actions())
    state.undo()
    if legal and kind_of(legal[0]) == K_STAKES:
        return None
    return any(kind_of(a) == K_PLAY and tile_of(a) == t for a in legal)


def _check(state):
    phase = state.current_phase()
    waited = [s for s in range(state.players) if state.waits_for(s)]
    chance = [a for a in state.legal_actions() if kind_of(a) in (K_DEAL, K_LOT, K_REVEAL)]
    if phase in (P_DEAL, P_DRAWN, P_LOT, P_REVEAL) or (phase == P_BERGEN and chance):
        assert waited and set(seat_of(a) for a in chance) == set([waited[0]]), (phase, waited, chance)
    elif phase != P_PLAY:
        assert waited == [], (phase, waited)
    if phase in (P_PLAY, P_DRAWN):
        assert waited == [state.turn], (phase, waited)
        assert phase == P_DRAWN or state.current_player() in (state.turn, state.setter)  # a spectator's bet: the banker
    for seat in range(state.players):
        assert state.holds_unseen(seat) == (state.hidden[seat] > 0)
    claim = state.open_claim()
    assert claim is None or (claim[1] > 0 and 0 <= claim[0] < state.players)
    if phase in (P_DECLARE, P_BERGEN):
        for seat in range(state.players):
            for t in state.hands[seat] + state.hands[seat - 1][:1] + state.free[:3] + [0x77]:
                expected = _declared_sets(state, seat, t)
                if expected is not None:
                    assert (state.lay_problem(seat, t, None) is None) == expected, (seat, t, state.lay_problem(seat, t, None))
    return phase


def _phases_in_random_play(variants):
    """Check the answers over random play of each of ``variants``; the phases met."""
    phases = set()
    rng = new_rng(38)
    for name, params in variants:
        ruleset = table_ruleset(name, **params)
        for players in sorted(int(k) for k in ruleset.params["deal"]):
            gc.collect()
            state = ruleset.new_state(players)
            for _ in range(ACTIONS_PER_GAME):
                if state.is_over():
                    break
                phases.add(_check(state))
                state.apply(pick(state, rng, 0.6))
    return phases


def test_the_answers_agree_with_the_game_in_random_play():
    phases = _phases_in_random_play(RULE_BOOK_VARIANTS)
    assert phases == set([P_DEAL, P_LOT, P_DECLARE, P_BERGEN, P_PLAY, P_DRAWN, P_REVEAL]), phases


def test_the_answers_agree_in_the_newer_games_random_play():
    """A test of their own: one that played every game at once held every game's rule modules
    (Buki's betting, line_variants, the scoring rules) beside a validation's 33 KB, 16 KB more
    than a Pico-sized heap's margin allowed (tests/test_micropython.py)."""
    phases = _phases_in_random_play(MORE_GAMES_VARIANTS)
    assert phases == set([P_DEAL, P_LOT, P_DECLARE, P_PLAY, P_DRAWN, P_REVEAL]), phases


def test_laying_the_setting_tile_from_an_unseen_hand_is_checked_without_playing():
    state = start("draw", [["?"] * 7, ["?"] * 7])  # nobody seen: the holder declares as it sets
    assert state.current_phase() == P_DECLARE
    history = list(state.history)
    assert state.lay_problem(1, parse_tile("6-6"), None) is None
    assert state.history == history  # nothing was played to find out
    fixed = start("draw", [["?"] * 7, ["3-3"] + ["?"] * 6], setter="fixed_tile", fixed_tile="6-6")
    assert fixed.lay_problem(1, parse_tile("3-3"), None)[0] == E_SET  # the fixed tile, not any tile
    assert fixed.lay_problem(1, parse_tile("6-6"), None) is None
    assert fixed.lay_problem(0, parse_tile("3-3"), None)[0] == E_NOT_HELD  # known to be in P1's hand
    assert fixed.lay_problem(0, 0x77, None)[0] == E_TILE  # 7-7 is no tile of a double six


def test_a_tile_with_no_play_is_told_why():
    state = start("draw", [["6-6", "1-2", "0-0"], ["5-5", "3-4", "0-1"]], setter="highest_double", set_constraint="any")
    assert state.current_phase() == P_PLAY and state.waits_for(0)  # P0 holds the highest double
    assert state.lay_problem(0, parse_tile("5-5"), None)[0] == E_NOT_HELD  # P1's, seen at the deal
    state.play("1-2")
    assert state.lay_problem(1, parse_tile("5-5"), None)[0] == E_NO_MATCH  # fits neither 1 nor 2
    assert state.lay_problem(1, parse_tile("0-1"), 1)[0] == E_NO_MATCH  # fits L, not R
    assert state.open_claim() is None and not state.is_betting() and not state.holds_unseen(0)
