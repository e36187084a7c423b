"""Who won a line-game hand (rule book §2.5), domino or blocked, a seat or a side of partners.
The points are paid by the pip award (``line_pips``: the opponents' pips, less one's own, to
the nearest 5, a fixed award), or in Buki's chips by its ``Betting``: Buki never imports the
pip award's code (``LineRules.pay``), heap a Buki start on a stock Pico cannot spare.
"""

from tiletable.engine.tiles import is_double, pips


def award_hand(state):
    """Score the hand; the winning seat, or None when nobody won it."""
    n = state.players
    out = [s for s in range(n) if not state.hands[s]]
    variants = state.rules.variants
    if variants:  # both_out, the going out paid with the last play, blocked_award none
        out = variants.ended_by(state, out)
        if variants.pays_nothing(out):
            return out[0] if out else None
    if state.p["partnerships"]:
        return state.rules.pay_sides(state, out)
    totals = pip_totals(state)
    if out:
        winners = out
        how = "domino"
    else:
        how = "blocked"
        if state.p["blocked_winner"] == "hoyle_no_doubles_first":
            keys = [(1 if any(is_double(t) for t in state.hands[s]) else 0, totals[s]) for s in range(n)]
        else:
            keys = totals
        least = min(keys)
        winners = [s for s in range(n) if keys[s] == least]
        if len(winners) > 1 and state.p["blocked_tie"] == "lightest_tile":
            winners = [min(winners, key=lambda s: min((pips(t), t) for t in state.hands[s]))]
    if state.betting:
        winner = winners[0] if len(winners) == 1 else None
        for seat, points, rule, detail in state.betting.settle(winner, state.setter):
            state._award(seat, points, rule, detail)
        return winner
    return state.rules.pay(state, winners, how, totals)


def pip_totals(state):
    """Each seat's pips in hand (a double counts both halves)."""
    totals = [0] * state.players
    for s in range(state.players):
        for t in state.hands[s]:
            totals[s] += (t >> 4) + (t & 15)
    return totals
