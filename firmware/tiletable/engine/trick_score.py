"""How a hand of the trick family (Moon) is scored and a match won: the bidder's points with
their arithmetic, the winner at the target, and the reneges a hand with hidden tiles shows
once its last trick closes (engine/trick.py plays the hand)."""

from tiletable.engine.tiles import tile_str

HAND = 7  # tiles in a hand, and tricks in a hand
MOON = 21  # the MOON call: all seven tricks, worth 21
PASS = 0  # the pass call


def match_result(scores, target, exact_tie, bidder, made):
    """The winning seat when a hand ends, or None to play another hand.

    The highest total at or above the target wins; an exact tie for it plays on,
    unless ``exact_tie == "bidder_out"`` and the tied bidder made the bid.

    >>> match_result([22, 22, 3], 21, "replay", 2, False) is None
    True
    """
    best = max(scores)
    if best < target:
        return None
    leaders = [seat for seat in range(len(scores)) if scores[seat] == best]
    if len(leaders) == 1:
        return leaders[0]
    if exact_tie == "bidder_out" and made and bidder in leaders:
        return bidder
    return None


def bidder_points(call, taken, fail):
    """``(points, arithmetic)`` for the bidder: the bid if made (21 for MOON, all 7 tricks).

    A failure costs ``bid - taken`` (seed; 21 - taken for MOON) or, with
    ``fail == "full_bid"``, the whole bid.

    >>> bidder_points(5, 4, "bid_minus_taken")
    (-1, 'bid 5, took 4: -(5 - 4) = -1')
    """
    need = HAND if call == MOON else call
    name = bid_text(call).lower()
    if taken >= need:
        return call, "bid %s, took %d: +%d" % (name, taken, call)
    if fail == "full_bid":
        return -call, "bid %s, took %d: -%d" % (name, taken, call)
    return taken - call, "bid %s, took %d: -(%d - %d) = %d" % (name, taken, call, taken, taken - call)


class Renege:
    """A void shown in a trick, contradicted by a later play of the same hand."""

    def __init__(self, hand, trick, seat, suit, tile):
        self.hand = hand
        self.trick = trick
        self.seat = seat
        self.suit = suit
        self.tile = tile

    def __repr__(self):
        return "Renege(%d, %d, %d, %d, %r)" % (self.hand, self.trick, self.seat, self.suit, tile_str(self.tile))

    def text(self):
        return "hand %d trick %d: P%d did not follow suit %d but held %s" % (
            self.hand,
            self.trick,
            self.seat,
            self.suit,
            tile_str(self.tile),
        )


def bid_text(call):
    if call == PASS:
        return "PASS"
    if call == MOON:
        return "MOON"
    return str(call)
