"""The column battle game on the table (docs/TABLE.md "The column battle game").

Three columns, each with a slot per player and a field slot. Field cards turned up are laid
on the field slots (``F:2-3``); private decks are never scanned, so the table deals their
cards unseen (``D0:?``). Each round both players lay one card face down on each of their
column slots (a column whose field slot is empty takes none); the table reads them but shows
nothing until both players' slots are full, then plays both assignments at once
(``A0:1-1,6-6,0-2`` and ``A1:...``) and the engine resolves the columns. Cards still lying
on a slot from an earlier round do not count again.
"""
from tiletable import tagrecord
from tiletable.engine.errors import E_TILE
from tiletable.engine.tiles import tile_str
from tiletable.runtime.controller import TextController
from tiletable.runtime.profiles import ASSIGN, FIELD

COLUMNS = 3


class ColumnController(TextController):
    def __init__(self, table):
        TextController.__init__(self, table)
        self.slot = {}  # (column, seat) -> tile text lying there
        self.used = set()  # tiles already played in an assignment

    def on_zone(self, role, a, b, event, now_ms):
        if role == ASSIGN:
            key = (a, b)
            if not self.is_placed(event):
                if event.count == 0:
                    self.slot.pop(key, None)
                return
            if event.items[0][0] != tagrecord.KIND_TILE:
                self.reject(b, E_TILE, "a playing card is not part of this game", now_ms)
                return
            self.slot[key] = tile_str(event.items[-1][2])
            self._assign_when_full(now_ms)
        elif role == FIELD and self.is_placed(event):
            for identity in event.items:
                turned = "F:" + tile_str(identity[2])
                if self.is_legal_text(turned):  # otherwise drawn cards being stacked: not an action
                    if self.act(turned, 0, now_ms, quiet=True):
                        self.after_act(now_ms)

    def _pattern(self, seat):
        """Which columns take a card this round, from any legal assignment (``-`` = none)."""
        prefix = "A%d:" % seat
        for text in self.legal_texts():
            if text.startswith(prefix):
                return text[len(prefix) :].split(",")
        return None

    def _assignment(self, seat):
        pattern = self._pattern(seat)
        if pattern is None:
            return None
        cards = []
        for column in range(COLUMNS):
            if pattern[column] == "-":
                cards.append("-")
                continue
            text = self.slot.get((column, seat))
            if text is None or text in self.used:
                return None
            cards.append(text)
        return "A%d:%s" % (seat, ",".join(cards))

    def _assign_when_full(self, now_ms):
        first = self._assignment(0)
        second = self._assignment(1)
        if first is None or second is None:
            return
        for seat, text in ((0, first), (1, second)):
            if not self.act(text, seat, now_ms):
                return
            for card in text[3:].split(","):
                if card != "-":
                    self.used.add(card)
        self.after_act(now_ms)

    def draw(self):
        self.draw_scores()
        self.ui.turn(None)  # both players act at once
