"""Cross-check of the Block game against OpenSpiel's ``python_block_dominoes`` (rule book §5).

OpenSpiel names a placement by (tile, covered pip), has no PASS (a seat with no move is
skipped) and always lets player 0 lead, so our placements are collapsed by covered pip,
our passes are matched against OpenSpiel's skips, and our Block game sets by rotation.
"""
import random

import pytest

from engine.line_setup import run, start
from engine.test_line_vectors import blk1_position
from tiletable.engine.line_actions import K_PLAY, SET_POINT, kind_of, point_of, tile_of
from tiletable.engine.rulesets import find_ruleset
from tiletable.engine.state import CHANCE
from tiletable.engine.tiles import high, low

pyspiel = pytest.importorskip("pyspiel")
block_dominoes = pytest.importorskip("open_spiel.python.games.block_dominoes")


def _os_tile(t):
    return (float(low(t)), float(high(t)))


def _ours_collapsed(state):
    """Our legal plays as (tile, covered pip), the set as pip None; passes left out."""
    out = set()
    for action in state.generate_legal_actions():
        if kind_of(action) != K_PLAY:
            continue
        t, point = tile_of(action), point_of(action)
        covered = None if point == SET_POINT else float(state.layout.val[point])
        out.add((_os_tile(t), covered))
    return out


def _theirs_collapsed(os_state):
    player = os_state.current_player()
    out = {}
    for action in os_state.legal_actions(player):
        move = block_dominoes._ACTIONS[action]
        out[(move.tile, move.edge)] = action
    return out


def _os_position(hands, edges, player):
    state = pyspiel.load_game("python_block_dominoes").new_initial_state()
    state.deck = []
    state.hands = [[_os_tile(t) for t in hand] for hand in hands]
    state.open_edges = sorted(float(v) for v in edges)
    state._next_player = player
    return state


def test_TV_BLK_1_matches_openspiel():
    ours = blk1_position()
    theirs = _os_position(ours.hands, (3, 5), 1)
    assert _ours_collapsed(ours) == set(_theirs_collapsed(theirs))
    assert len(_ours_collapsed(ours)) == 4


def test_TV_BLK_2_collapses_to_one_openspiel_action():
    ours = start("block", [["4-4", "0-0"], ["2-4", "1-1"]], setter="rotate")
    run(ours, "4-4")
    assert ours.legal_actions().count() == 2
    theirs = _os_position(ours.hands, (4, 4), 1)
    assert _ours_collapsed(ours) == set(_theirs_collapsed(theirs)) == {((2.0, 4.0), 4.0)}


def test_TV_BLK_5_matches_openspiel_returns():
    ours = start("block", [["3-3", "5-5", "1-2"], ["3-5", "0-0", "0-1"]], setter="rotate")
    events = run(ours, "3-3 3-5>L 5-5>L pass pass")
    theirs = _os_position([[0x12], [0x00, 0x01]], (5, 5), 0)
    theirs._game_over = True
    assert theirs.returns() == [-3.0, 3.0]
    assert [(e.seat, e.points) for e in events] == [(1, 3)]


def test_random_two_player_hands_agree_with_openspiel():
    ruleset = find_ruleset("block", setter="rotate")
    game = pyspiel.load_game("python_block_dominoes")
    rng = random.Random(2024)
    for _ in range(150):
        ours = ruleset.new_state(2)
        theirs = game.new_initial_state()
        while ours.current_player() == CHANCE:
            options = ours.chance_outcomes()
            action = options[rng.randrange(len(options))]
            ours.apply(action)
            theirs.apply_action(block_dominoes._DECK.index(_os_tile(tile_of(action))))
        while ours.hand_number == 0 and not ours.is_over():
            seat = ours.current_player()
            plays = _ours_collapsed(ours)
            if not plays:
                assert theirs.is_terminal() or theirs.current_player() != seat
                ours.play("pass")
                continue
            assert theirs.current_player() == seat
            theirs_moves = _theirs_collapsed(theirs)
            assert plays == set(theirs_moves)
            choice = sorted(plays)[rng.randrange(len(plays))]
            mine = [a for a in ours.generate_legal_actions() if kind_of(a) == K_PLAY and _collapse(ours, a) == choice]
            ours.apply(mine[rng.randrange(len(mine))])
            theirs.apply_action(theirs_moves[choice])
        assert theirs.is_terminal()
        returns = theirs.returns()
        gains = [0, 0]
        for event in ours.score_events:
            if event.hand == 0:
                gains[event.seat] += event.points
        assert [max(r, 0) for r in returns] == gains, (returns, gains)


def _collapse(state, action):
    t, point = tile_of(action), point_of(action)
    return (_os_tile(t), None if point == SET_POINT else float(state.layout.val[point]))
