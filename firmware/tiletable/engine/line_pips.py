"""The points of a won line-game hand (rule book §2.5) by ``hand_award``: the opponents' pips
(``all_hands``: a side scores every hand's, MORE-GAMES §3), less one's own, to the nearest 5
(and ``line_variants``' rounding), or the fixed award, for a seat or a side of partners.
``line_award`` finds who won; every line game but Buki imports this module
(``LineRules.pay``): Buki's chips are its ``Betting``'s.
"""

from tiletable.engine.line_award import pip_totals
from tiletable.engine.tiles import pips


def pay(state, winners, how, totals):
    """Pay the hand won (``how``: domino or blocked) by ``winners``, several for a blocked tie
    (split, or nobody paid, by ``blocked_tie``); ``totals``: each seat's pips in hand. Returns
    the winning seat, or None when nobody won it."""
    n = state.players
    if len(winners) > 1 and state.p["blocked_tie"] != "split":
        return None
    summed = 0
    terms = []
    for s in range(n):
        if s not in winners:
            summed += totals[s]
            terms.append(str(totals[s]))
    terms = " + ".join(terms)
    for w in winners:
        points, detail = _hand_points(state, how, summed, terms, totals[w], "own")
        if len(winners) > 1:
            points //= len(winners)
            detail += ", split %d ways = %d" % (len(winners), points)
        if points:
            state._award(w, points, how, detail)
        if state._outcome is not None:
            break
    return winners[0] if len(winners) == 1 else None


def award_sides(state, out):
    """The hand of a partnership game: the side that went out (``out``: the seat that ended
    it), or holds fewer pips when blocked, scores the opponents' pips (per ``hand_award``);
    returns the seat that went out or the lighter hand of the winning side, or None for a
    tie between the sides."""
    totals = pip_totals(state)
    side_pips = [totals[0] + totals[2], totals[1] + totals[3]]
    variants = state.rules.variants
    seat = -1
    if out:
        side, how, seat = out[0] % 2, "domino", out[0]
    elif variants and variants.by_hand:  # blocked_compare: the lowest hand, or the blocker's or the next's
        seat = variants.blocked_winner(state, totals)
        if seat is None:
            return None
        side, how = seat % 2, "blocked"
    elif side_pips[0] != side_pips[1]:
        side, how = (0 if side_pips[0] < side_pips[1] else 1), "blocked"
    elif state.p["blocked_tie"] == "lightest_tile":
        lightest = min((pips(t), t, s) for s in range(4) for t in state.hands[s])
        side, how = lightest[2] % 2, "blocked"
    else:
        return None
    if seat < 0:
        seat = min((side, side + 2), key=lambda s: totals[s])
    a, b = 1 - side, 3 - side
    if state.p["hand_award"] == "all_hands":  # the partner's hand too (the side that went out holds 0 of its own)
        summed = side_pips[0] + side_pips[1]
        terms = "P%d %d + P%d %d + P%d %d + P%d %d" % (a, totals[a], b, totals[b], side, totals[side], side + 2, totals[side + 2])
    else:
        summed = side_pips[1 - side]
        terms = "P%d %d + P%d %d" % (a, totals[a], b, totals[b])
    points, detail = _hand_points(state, how, summed, terms, side_pips[side], "the side's own")
    bonus = variants.capicua_points(state) if variants and out else 0
    if bonus:
        points += bonus
        detail += ", capicua %d" % bonus
    if points:
        state._award(seat, points, how, detail)
    return seat


def _hand_points(state, how, summed, terms, own, own_label):
    """Points and explanation of a won hand by ``hand_award``: the opponents' pips ``summed``
    (``terms``), less ``own`` (never below 0: a partner's tiles may outweigh the
    opponents'), to the nearest 5, or the fixed award."""
    award = state.p["hand_award"]
    if award == "fixed":
        return state.p["fixed_award"], "hand won (%s)" % how
    if award == "others_sum_minus_own":
        points = max(0, summed - own)
        detail = "opponents' pips %s = %d minus %s %d = %d" % (terms, summed, own_label, own, points)
    elif award == "rounded5":
        points = (summed + 2) // 5 * 5
        detail = "opponents' pips %s = %d, to the nearest 5 = %d" % (terms, summed, points)
    else:
        whose = "all hands'" if award == "all_hands" else "opponents'"
        points, detail = summed, "%s pips %s = %d" % (whose, terms, summed)
    variants = state.rules.variants
    return variants.points(points, detail) if variants else (points, detail)
