"""The chance side of a line-game hand (rule book §2.2): which deal, draw, lot draw, setter
declaration or reveal is due, and who sets once the tiles are dealt (a rule, the lightest lot
draw, the best-ranked tile, Bergen's equal draws, or a declaration when hands are unseen).

Functions of ``line.State`` kept apart from the moves: ``chance_outcomes`` is the state's own
method; the state calls the rest when a deal or a lot draw is done.
"""

from tiletable.engine.line_actions import (
    K_DEAL, K_LOT, K_REVEAL, K_SETTER, LOC_FREE, LOC_LOT, P_BERGEN, P_DEAL, P_DECLARE, P_DRAWN,
    P_LOT, P_OVER, P_PLAY, P_REVEAL, UNKNOWN_TILE, chance_action, seat_action,
)
from tiletable.engine.tiles import is_double, pips

_DEAL = chance_action(K_DEAL, 0)  # a deal to seat 0 of tile 0: chance_outcomes adds the seat and the tile


def lot(state, seat, t):
    state.lots[seat] = t
    state.loc[t] = LOC_LOT
    state.free.remove(t)
    state.outcomes_base = -1
    state.lot_seats.pop(0)
    if state.lot_seats:
        return
    variants = state.rules.variants
    rank = variants.lot_rank if variants else pips  # highest_draw: the heaviest wins
    drawn = [s for s in range(state.players) if state.lots[s] >= 0]
    least = min(rank(state.lots[s]) for s in drawn)
    tied = [s for s in drawn if rank(state.lots[s]) == least]
    left = state.stock - sum(1 for t in state.tiles if state.loc[t] == LOC_LOT)
    if len(tied) > 1:  # the tied draw again
        if left < len(tied):  # RULES.md §2 S2 (settled): everything back, start over with all
            _lots_back(state)
            tied = list(range(state.players))
        state.lots = [-1] * state.players
        state.lot_seats = tied
        return
    _lots_back(state)
    if variants:
        variants.lot_drawn(state, tied[0])
    else:
        state._start_play(tied[0])


def _lots_back(state):
    """The drawn lot tiles go back into the boneyard (reshuffled: draws stay chance)."""
    for t in state.tiles:
        if state.loc[t] == LOC_LOT:
            state.loc[t] = LOC_FREE
            state.free.append(t)
    state.free.sort()
    state.outcomes_base = -1


def bergen_drew(state):
    """After each equal round of Bergen's draws, the best double (or at the end the best tile) sets."""
    state.bergen_draws += 1
    state.bergen_next = state._next(state.bergen_next)
    if state.bergen_draws % state.players == 0 and state._all_known():
        best = best_holder(state, True)
        if best is None and not state.stock:
            best = best_holder(state, False)
        if best is not None:
            state._start_play(best)


def deal_done(state):
    p = state.p
    state.phase = P_PLAY
    if state.rules.variants and state.rules.variants.leads(state):
        return
    rule = p["setter"]
    if state.hand_number > 0 and p["later_setter"] == "previous_winner":
        state._start_play(state.setter if state.last_winner is None else state.last_winner)
    elif rule == "rotate":
        state._start_play(0 if state.hand_number == 0 else state._next(state.setter))
    elif rule == "lightest_draw":
        state.phase = P_LOT
        state.lot_seats = list(range(state.players))
        state.lots = [-1] * state.players
    elif rule == "double_draw_equalized":
        best = best_holder(state, True)
        if best is not None:
            state._start_play(best)
        else:
            state.phase = P_BERGEN
            dealer = state.hand_number % state.players
            state.bergen_next = dealer if p["first_drawer"] == "dealer" else state._next(dealer)
    elif rule == "fixed_tile" and state.loc[state.rules.fixed] != LOC_FREE:
        state.must_set = state.rules.fixed
        state._start_play(state.loc[state.rules.fixed] - 1)
    elif rule == "fixed_tile" and not state._all_known():
        state.must_set = state.rules.fixed  # an unseen hand holds it: its owner declares
        state.phase = P_DECLARE
    else:  # highest_double, lowest_double, and fixed_tile when the tile was not dealt
        best = best_holder(state, False)
        if best is None:
            state.phase = P_DECLARE
        else:
            state._start_play(best)


def best_holder(state, doubles_only):
    """The seat holding the best-ranked tile when every hand is seen, else None."""
    if not state._all_known():
        return None
    rank = state.rules.set_rank
    best_seat, best_tile = None, -1
    for seat in range(state.players):
        for t in state.hands[seat]:
            if doubles_only and not is_double(t):
                continue
            if best_tile < 0 or rank(t) > rank(best_tile):
                best_seat, best_tile = seat, t
    if best_seat is not None and state.p["set_constraint"] == "qualifying_tile":
        state.must_set = best_tile
    return best_seat


def deal_seat(state):
    return state.dealt // state.per_hand


def reveal_seat(state):
    for s in range(state.players):
        if state.hidden[s]:
            return s
    return -1


def chance_outcomes(state):
    phase = state.phase
    if phase == P_DEAL or phase == P_DRAWN:  # the hot path of simulation: one list, no calls
        base = _DEAL | (state.dealt // state.per_hand if phase == P_DEAL else state.drawer) << 8
        if base != state.outcomes_base:
            state.outcomes = [base | t for t in state.free]
            state.outcomes_base = base
        return state.outcomes[:]
    if phase == P_LOT:
        return [chance_action(K_LOT, state.lot_seats[0], t) for t in state.free]
    if phase == P_REVEAL:
        return [chance_action(K_REVEAL, reveal_seat(state), t) for t in state.free]
    if phase == P_BERGEN:
        out = []
        if state.stock:
            out = [chance_action(K_DEAL, state.bergen_next, t) for t in state.free]
        if may_declare(state):
            out.extend(seat_action(K_SETTER, s) for s in range(state.players) if may_set(state, s))
        return out
    if phase == P_DECLARE:
        out = [seat_action(K_SETTER, s) for s in range(state.players) if may_set(state, s)]
        if state.rules.variants:  # or doubles shown, before the first play
            state.rules.variants.shows(state, out)
        return out
    return []


def may_set(state, seat):
    """Whether seat may declare it sets: for a fixed tile, only a hand with unseen tiles could hold
    it; where a side names its leader (line_variants), a seat of that side (``lot_seats``)."""
    if state.lot_seats:
        return seat in state.lot_seats
    return seat < state.players and (state.p["setter"] != "fixed_tile" or state.hidden[seat] > 0)


def may_declare(state):
    """Bergen with unseen hands: after each equal round of draws a seat may declare it sets."""
    return state.bergen_draws % state.players == 0 and (not state._all_known() or state.stock == 0)


def chance_actions(state):
    """The chance outcomes as legal actions, an unseen deal or draw among them."""
    phase = state.phase
    if phase == P_OVER:
        return []
    out = chance_outcomes(state)
    if phase == P_DEAL:
        out.append(chance_action(K_DEAL, deal_seat(state), UNKNOWN_TILE))
    elif phase == P_DRAWN or (phase == P_BERGEN and state.stock):
        seat = state.drawer if phase == P_DRAWN else state.bergen_next
        out.append(chance_action(K_DEAL, seat, UNKNOWN_TILE))
    out.sort()
    return out
