"""The column battle game on the table (docs/TABLE.md "The column battle game").

Three columns, each with a slot per player and a field slot. Field cards turned up are laid
on the field slots (``F:2-3``); private decks are never scanned, so the table deals their
cards unseen (``D0:?``). Each round both players lay one card face down on each of their
column slots (a column whose field slot is empty takes none); the table reads them but shows
nothing until both players' slots are full, then plays both assignments at once
(``A0:1-1,6-6,0-2`` and ``A1:...``) and the engine resolves the columns. Both are checked
before either is journalled, so a refused card changes nothing: the seat lays another one and
the round goes on. Cards still lying on a slot from an earlier round do not count again.

The LED beside each assignment slot shows the last battle's result in its column for that
slot's player: green won, red lost, amber drawn (dark: no battle there). It is drawn from
the engine's ``last_battle``, so an undo or a power cut shows what the state says, and the
final screen keeps the battle that ended the match (``draw_final``).
"""
from tiletable import tagrecord
from tiletable.drivers.status_leds import StatusLeds
from tiletable.engine.errors import E_TILE, IllegalAction
from tiletable.engine.state import SIMULTANEOUS
from tiletable.engine.tiles import tile_str
from tiletable.profiles import ASSIGN, FIELD
from tiletable.runtime.controller import TextController

COLUMNS = 3
_RESULT_LEDS = {1: StatusLeds.WIN, 0: StatusLeds.DRAW, -1: StatusLeds.LOSS}  # by seat 0's result


class ColumnController(TextController):
    def __init__(self, table):
        TextController.__init__(self, table)
        self.slot = {}  # (column, seat) -> tile text lying there
        self.used = self._played_cards()

    def on_lying(self, role, a, b, event):
        if role == ASSIGN and self.is_placed(event) and event.items[0][0] == tagrecord.KIND_TILE:
            self.slot[(a, b)] = tile_str(event.items[-1][2])  # a card laid before the power cut

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

    def at_deal(self):
        """Only the match's start: later the table deals the private decks and waits for the
        field cards by itself."""
        return not self.state.history

    def _played_cards(self):
        """The tiles the match's assignments have played so far (they never count again)."""
        st = self.state
        played = set()
        for action in st.history:
            text = st.action_str(action)
            if text.startswith("A"):
                played.update(card for card in text[3:].split(",") if card != "-")
        return played

    def reset(self):
        """After an undo the engine's history says which cards are played (an undone battle's
        cards can be laid again)."""
        TextController.reset(self)
        self.used = self._played_cards()

    def _assignment(self, seat):
        """The seat's assignment from the cards on its slots, or None while one is missing."""
        cards = []
        for column in range(COLUMNS):
            if not self.state.has_pile(column):  # an empty column takes no card
                cards.append("-")
                continue
            text = self.slot.get((column, seat))
            if text is None or text in self.used:
                return None
            cards.append(text)
        return "A%d:%s" % (seat, ",".join(cards))

    def _assign_when_full(self, now_ms):
        st = self.state
        if st.current_player() != SIMULTANEOUS:
            return
        seats = [seat for seat in (0, 1) if not st.assigned(seat)]
        texts = [self._assignment(seat) for seat in seats]
        if None in texts:
            return
        refused = self._first_refused(seats, texts)
        if refused is not None:
            self.reject(refused[0], refused[1], refused[2], now_ms)
            return
        for seat, text in zip(seats, texts):
            self.act(text, seat, now_ms)
            self.used.update(card for card in text[3:].split(",") if card != "-")
        self.after_act(now_ms)

    def _first_refused(self, seats, texts):
        """(seat, code, reason) of the first assignment the engine refuses, each checked as
        though the ones before it were made (the engine's question, nothing played): None
        when all are legal."""
        st = self.state
        actions = []
        unreadable = None
        for i in range(len(seats)):
            try:
                actions.append(st.parse_action(texts[i]))
            except IllegalAction as exc:
                unreadable = (seats[i], exc.code, exc.reason)
                break
        refused = st.refused_assignment(actions)
        if refused is not None:
            return (seats[refused[0]], refused[1][0], refused[1][1])
        return unreadable

    def draw(self):
        self.draw_scores()
        self.ui.turn(None)  # both players act at once
        self.draw_results()

    def draw_results(self):
        """Each slot's LED: its player's result in the last battle of its column."""
        zone = self.table.profile.assign_zone
        results = [None] * COLUMNS
        for column, _, _, result in self.state.last_battle:
            results[column] = result
        for column in range(COLUMNS):
            result = results[column]
            self.ui.zone_result(zone[(column, 0)], None if result is None else _RESULT_LEDS[result])
            self.ui.zone_result(zone[(column, 1)], None if result is None else _RESULT_LEDS[-result])

    draw_final = draw_results  # the match's last battle stays lit on the final screen
