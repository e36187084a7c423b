"""What the trick games know of the hands in play, shared by Moon (engine/trick.py) and Texas 42
(engine/fortytwo.py).

The table reads a hand when it is laid on its seat's pad; a hand it could not read is played
blind. A seat holding unread tiles may then play any tile not seen elsewhere, and a play that
does not follow the suit led shows that the seat had none of it: a later play of that suit by
the same seat is a renege, reported at the hand's end (``reneges``), not scored.
"""

from tiletable.engine.holdings import Holding
from tiletable.engine.state import GameState
from tiletable.engine.trick_score import Renege


class TrickHands(GameState):
    """A trick game's state, for what it knows of the hands: ``hands`` (a ``Holding`` a seat),
    ``_seen`` (1 for a tile whose place the table knows), ``plays`` (``(trick number, seat,
    tile)`` of the hand, in order) and the voids unread hands showed. The game gives ``TILES``
    (its set), ``trick``, ``suit``, ``trick_number`` and ``follows(tile, suit)``."""

    def _new_hands(self, seats):
        self.hands = [Holding() for _ in range(seats)]
        self._seen = bytearray(128)
        self.plays = []
        self._voids = []  # (trick number, seat, suit) shown by unread hands

    def _playable(self, seat):
        """Tiles the seat could put down: its known tiles, or any unseen one if it has unseen tiles."""
        hand = self.hands[seat]
        if hand.unknown:
            return [t for t in self.TILES if hand.holds(t) or not self._seen[t]]
        return sorted(hand.known)

    def _lay(self, seat, tile):
        """``seat`` plays ``tile`` to the trick (the suit of a lead already set): an unread hand
        that does not follow shows a void."""
        hand = self.hands[seat]
        if self.trick and hand.unknown and self.suit is not None and not self.follows(tile, self.suit):
            self._voids.append((self.trick_number, seat, self.suit))
        hand.remove(tile)
        self.plays.append((self.trick_number, seat, tile))
        self.trick.append((seat, tile))

    def _note_reneges(self):
        """At the hand's end: each void a seat showed and later played a tile of."""
        for trick, seat, suit in self._voids:
            for later, player, tile in self.plays:
                if player == seat and later > trick and self.follows(tile, suit):
                    self.reneges.append(Renege(self.hand_number, trick + 1, seat, suit, tile))
                    break

    def known_holder(self, tile):
        """The seat whose hand is known to hold ``tile`` (it was read), or None."""
        for seat in range(len(self.hands)):
            if self.hands[seat].holds(tile):
                return seat
        return None
