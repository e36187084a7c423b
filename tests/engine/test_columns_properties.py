# portable
"""Column-game random-play properties: all 28 cards accounted for after every action
(hands, decks, field, the face-down first assignment, discards, won piles), scores equal
the pips won, games end, records replay, undo takes back one action."""
from engine.families_play import check_undo, run_random_matches
from tiletable.engine.tiles import pips

VARIANTS = [{}, {"end": "hands_empty"}, {"fig1_override": True}]


def check(state, action):
    on_field = sum(len(p) for p in state.columns if p is not None)
    held = state.hands[0].size() + state.hands[1].size() + state.decks[0] + state.decks[1]
    out = len(state.discards) + len(state.won[0]) + len(state.won[1])
    face_down = 0  # the first assignment of a round, held until the second arrives
    if state.pending is not None:
        face_down = sum(1 for part in state.action_str(state.pending)[3:].split(",") if part != "-")
    assert held + state.field_deck + on_field + out + face_down == 28
    assert state.scores == [sum(pips(t) for t in state.won[0]), sum(pips(t) for t in state.won[1])]


def test_random_games_keep_every_card():
    run_random_matches("columns", VARIANTS, check)


def test_undo_takes_back_exactly_one_action():
    check_undo("columns", {}, steps=60)
