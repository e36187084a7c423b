"""Hands known only in part, for the trick, column and climbing families.

A table that does not scan hands at the deal still knows how many tiles (or cards)
each player holds. A ``Holding`` keeps the items it has seen plus a count of unseen
ones, so a play from an unscanned hand is checked as far as the table can: the item
must be unseen elsewhere and the hand must not be empty.

>>> h = Holding(); h.add(UNKNOWN); h.add(0x34); h.size(), h.holds(0x34)
(2, True)
"""

UNKNOWN = 127  # an item dealt face down (text "?"); larger than any tile or card id


class Holding:
    """The items of one hand that the table has seen, and how many it has not."""

    def __init__(self):
        self.known = []
        self.unknown = 0

    def size(self):
        return len(self.known) + self.unknown

    def holds(self, item):
        """True when the item is known to be in this hand."""
        return item in self.known

    def could_hold(self, item):
        """True when the item is known here or could be one of the unseen items."""
        return item in self.known or self.unknown > 0

    def add(self, item):
        if item == UNKNOWN:
            self.unknown += 1
        else:
            self.known.append(item)

    def remove(self, item):
        """Take out an item that ``could_hold`` allows; an unseen one becomes seen."""
        if item in self.known:
            self.known.remove(item)
        else:
            self.unknown -= 1

    def forget(self):
        """Treat every item as unseen (a face-down discard from a hand we knew)."""
        items = self.known
        self.unknown += len(items)
        self.known = []
        return items
