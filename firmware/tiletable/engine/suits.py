"""Suits of dominoes in trick games, shared by Moon (engine/trick.py) and Texas 42
(engine/fortytwo.py): which suit a lead makes, which tiles follow it, and which tile wins.

A suit is a number 0..6 or ``DOUBLES`` (the seven doubles, when they are trumps or, in
Texas 42's follow-me, a suit of their own: ``doubles_apart``). ``trump`` is a suit, or
``NO_TRUMP`` / None for none. A trump tile belongs to the trump suit only.

>>> follows(0x46, 6, 4), lead_suit(0x36, 4, True), lead_suit(0x33, DOUBLES, True) == DOUBLES
(False, 6, True)
"""

NO_TRUMP = 7  # no trumps (Moon's NOTRUMP, Texas 42's follow-me)
DOUBLES = 8  # the doubles as a suit


def _is_trump_number(trump):
    return trump is not None and trump < NO_TRUMP


def follows(tile, suit, trump, doubles_apart=False):
    """True when the tile belongs to the suit."""
    lo = tile >> 4
    hi = tile & 15
    if lo == hi and (doubles_apart or trump == DOUBLES):
        return suit == DOUBLES
    if _is_trump_number(trump) and (lo == trump or hi == trump):
        return suit == trump
    return lo == suit or hi == suit


def lead_suit(tile, trump, higher_end, doubles_apart=False):
    """The suit a lead of this tile makes by itself (a trump: trumps; a double: its number, or
    the doubles; else the higher end under ``higher_end``), or None: the leader names it."""
    lo = tile >> 4
    hi = tile & 15
    if lo == hi:
        return DOUBLES if doubles_apart or trump == DOUBLES else lo
    if _is_trump_number(trump) and (lo == trump or hi == trump):
        return trump
    return hi if higher_end else None


def rank_in(tile, suit, doubles_low=False):
    """Rank within a suit, 0..8: a number's double highest (8; lowest, 0, under
    ``doubles_low``), then the other end, high to low; the doubles by their number."""
    lo = tile >> 4
    hi = tile & 15
    if lo == hi:
        if suit == DOUBLES:
            return lo + 1
        return 0 if doubles_low else 8
    return (hi if lo == suit else lo) + 1


def strength(tile, suit, trump, doubles_apart=False, doubles_low=False):
    """How strongly a tile bids for a trick led in ``suit``: higher wins, 0 cannot win."""
    if _is_trump_number(trump) or trump == DOUBLES:
        if follows(tile, trump, trump, doubles_apart):
            return 20 + rank_in(tile, trump)
    if follows(tile, suit, trump, doubles_apart):
        return 10 + rank_in(tile, suit, doubles_low)
    return 0


def trick_winner(trick, suit, trump, doubles_apart=False, doubles_low=False):
    """The seat whose tile wins ``trick`` (``(seat, tile)`` pairs in play order) so far."""
    best_seat, best = None, -1
    for seat, tile in trick:
        bid = strength(tile, suit, trump, doubles_apart, doubles_low)
        if bid > best:
            best_seat, best = seat, bid
    return best_seat
