"""Positions of a Mexican Train round for the vector tests (portable: CPython and MicroPython).

A vector starts from the middle of a round ("T1 open 3 with a marker, seat 0 holds ..."), which
would take dozens of turns to reach by play. ``position`` deals the round through the engine's
own deal actions, then lays the trains and trims the hands to the vector's, as the table would
find them; everything after that goes through the checked ``play``.
"""
from tiletable.engine.rulesets import find_ruleset
from tiletable.engine.tiles import other, parse_tile
from tiletable.engine.train import LOC_FREE, LOC_HAND, LOC_LAID, P_PLAY, deal_action


def tiles(text):
    return [parse_tile(t) for t in text.split()]


def legal_texts(state):
    return sorted(state.action_str(a) for a in state.legal_actions())


def position(players, hands, trains=None, markers=(), boneyard=20, turn=0, round_number=1, scores=None, **params):
    """A round of ``mexican-train`` (with ``params``) where seat s holds ``hands[s]`` (tile
    texts), train i carries ``trains[i]`` (tile texts from the hub out; the Mexican train is
    ``players``), the seats in ``markers`` have theirs out, the boneyard holds ``boneyard``
    tiles and ``turn`` is to play."""
    state = find_ruleset("mexican-train", **params).new_state(players)
    if round_number != 1:
        state.round = round_number
        state._start_round()
    held = [tiles(hands[s]) if s < len(hands) else [] for s in range(players)]
    laid = dict((train, tiles(text)) for train, text in (trains or {}).items())
    used = set(t for hand in held for t in hand) | set(t for line in laid.values() for t in line)
    spare = [t for t in state.tiles if state.loc[t] == LOC_FREE and t not in used]
    for seat in range(players):
        dealt = held[seat] + spare[: state.deal - len(held[seat])]
        spare = spare[len(dealt) - len(held[seat]):]
        for t in dealt:
            state.play(deal_action(seat, t))
    assert state.phase == P_PLAY
    for seat in range(players):
        for t in state.hands[seat].known:
            state.loc[t] = LOC_FREE
        state.hands[seat].known = list(held[seat])
        for t in held[seat]:
            state.loc[t] = LOC_HAND
    for train in laid:
        value = state.engine
        for t in laid[train]:
            state.loc[t] = LOC_LAID
            value = other(t, value)
        state.trains[train] = laid[train]
        state.open_values[train] = value
    for seat in markers:
        state.markers[seat] = True
    state.boneyard = boneyard
    state.turn = turn
    if scores is not None:
        state.scores = list(scores)
    return state
