"""Moon on the table (docs/TABLE.md "Moon"): bids with the seat button, the exchange on the pad,
tricks on the centre trick zone.

* **Deal**: hand scans on the seat pads, OK deals (the widow face down).
* **Bidding**: the bidding seat shows ``PASS``, ``bid4``..``bid7``, ``MOON``; press = next,
  long press = bid. Trumps (variant) the same way.
* **Exchange**: the bidder lays its discard on its pad or the widow zone (``X:3-4``); a press
  keeps the hand (``KEEP``).
* **Tricks**: each tile is laid on the trick zone by the seat to play. Leading a non-double
  whose suit must be named asks (press toggles the two numbers, long press confirms). A
  finished trick shows its winner's trick count (``tr 3``) until the trick zone is cleared.
  A renege found when the hand is over is reported (``FOUL`` + EV_ERROR). The trick zone
  cannot tell who laid a tile: one known (hand scan) to be in another seat's hand is refused
  as played out of turn (``Err1`` on that seat).
"""
from tiletable import tagrecord
from tiletable.drivers.buttons import Buttons
from tiletable.engine.errors import E_FOLLOW, E_PHASE, E_TILE, IllegalAction
from tiletable.engine.tiles import tile_str
from tiletable.profiles import SEAT, TRICK, WIDOW
from tiletable.runtime.controller import Choice, TextController
from tiletable.runtime.ui import tiles_text


class TrickController(TextController):
    def call_texts(self, seat):
        bids = ["B%d:%s" % (seat, word) for word in ("PASS", "4", "5", "6", "7", "MOON")]
        return bids + ["TRUMP%d" % n for n in range(7)] + ["NOTRUMP"]

    def __init__(self, table):
        TextController.__init__(self, table)
        self.reneges_seen = len(self.state.reneges)
        self.foul = set()
        self.on_trick_zone = 0  # tiles lying on the trick zone

    def call_label(self, text):
        word = text.split(":")[-1]
        if word.isdigit():
            return "bid" + word
        if text.startswith("TRUMP"):
            return "tr " + text[5:]
        if text == "NOTRUMP":
            return "notr"
        return word

    def on_lying(self, role, a, b, event):
        if role == TRICK:
            self.on_trick_zone = event.count  # the last trick still lies there: its winner shows

    def on_zone(self, role, a, b, event, now_ms):
        if role == TRICK:
            self.on_trick_zone = event.count
        if not self.is_placed(event):
            return
        seat = a if role == SEAT else self.state.current_player()
        if seat < 0:  # the trick zone while nobody is to play (the deal, a hand's end): a seat of
            seat = 0  # -1 has no display, so the first seat's tells, as the menu's problems do
        for identity in event.items:
            if identity[0] != tagrecord.KIND_TILE:
                self.reject(seat, E_TILE, "a card is not part of a domino game", now_ms)
                return
        if role == SEAT and self.dealing:
            self.scan(seat, event, now_ms)
            return
        if len(event.items) > 1:
            self.table.report(seat, 0, "%d tiles laid at once, one expected" % len(event.items), now_ms, tiles_text(len(event.items)))
            return
        text = tile_str(event.items[0][2])
        if role in (SEAT, WIDOW):
            discard = "X:" + text
            if self.is_legal_text(discard):
                self.choice = None
                if self.act(discard, seat, now_ms):
                    self.after_act(now_ms)
            else:
                self.reject(seat, E_PHASE, "tiles are played on the trick zone", now_ms)
        elif role == TRICK:
            holder = self.state.known_holder(event.items[0][2])
            if holder is not None and holder != seat:
                self.not_your_turn(holder, now_ms)
            else:
                self._play(seat, text, now_ms)

    def _play(self, seat, text, now_ms):
        candidates = (text, text + "/" + text[0], text + "/" + text[-1])  # as is, or naming a suit
        options = []
        for candidate in candidates:
            if candidate not in options and self.is_legal_text(candidate):
                options.append(candidate)
        if not options:
            st = self.state
            try:
                problem = st.why_illegal(st.parse_action(text))
            except IllegalAction as exc:
                problem = (exc.code, exc.reason)
            self.reject(seat, problem[0] if problem else E_PHASE, problem[1] if problem else "not now", now_ms)
        elif len(options) == 1:
            if self.act(options[0], seat, now_ms):
                self.after_act(now_ms)
        else:
            self.choice = Choice(seat, options, ["SUI" + t[-1] for t in options], "suit")

    def hot_zone(self):
        """The trick zone while the tricks are played (where the mover's tile is laid), else
        the mover's pad: the tray watches it every other scan."""
        if self.state.in_tricks():
            return self.table.profile.trick_zone
        return TextController.hot_zone(self)

    def on_button(self, seat, kind, now_ms):
        if self.choose(seat, kind, now_ms):
            return
        if kind == Buttons.PRESS and seat == self.state.current_player() and self.is_legal_text("KEEP"):
            if self.act("KEEP", seat, now_ms):
                self.after_act(now_ms)

    def open_call(self):
        """No call is open while the tricks are played: trying each of the family's call texts
        after every tile held a stock chip's loop for 60 of the 160 ms a Texas 42 play took."""
        if self.state.in_tricks():
            return
        if self.is_legal_text("KEEP"):
            return  # the exchange: a discard on the pad, or a press to keep
        TextController.open_call(self)

    def after_act(self, now_ms):
        TextController.after_act(self, now_ms)
        reneges = self.state.reneges
        for renege in reneges[self.reneges_seen :]:
            self.foul.add(renege.seat)
            self.table.report(renege.seat, E_FOLLOW, renege.text(), now_ms, "FOUL")
        self.reneges_seen = len(reneges)

    def on_ok(self, now_ms):
        if self.summary:
            self.foul = set()
        TextController.on_ok(self, now_ms)

    def draw(self):
        TextController.draw(self)
        if self.summary:
            for seat in self.foul:
                self.ui.text(seat, "FOUL", True)
        elif self.choice is None and self.on_trick_zone:
            taken = self.state.last_trick()
            if taken is not None:
                self.ui.text(taken[0], "tr%2d" % taken[1], True)  # took the last trick
