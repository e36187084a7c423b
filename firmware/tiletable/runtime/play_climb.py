"""Da San on the table (docs/TABLE.md "Da San"): cards on the seat pads, bids and passes with
the seat button.

* **Cut**: each seat lays its cut card on its pad (``C0:H4``). **Deal**: OK deals the hands
  and the kitty unseen (hands are never scanned). An opener the table cannot tell shows its
  lowest heart on its pad (``O1:H6``).
* **Bidding**: ``1``, ``2``, ``3``, ``PASS`` on the bidding seat's display; press = next,
  long press = bid.
* **Play**: lay the whole combination on your pad; it is taken once the set of cards has been
  stable for ``stable_ms`` (a card laid or lifted starts the wait again) or at a long press,
  and checked (type, beats the last play).
  Press = pass. Lift the cards afterwards; cards already played never count again (the
  engine's history says which: an undone play's cards can be laid again). Cards laid out of
  turn are refused (``Err1``) once they lie still, unless the seat's turn came meanwhile: a
  combination laid just before one's turn is taken when the turn comes.
* **The trick's winner leads again without waiting for the passes**: the seat that made the
  trick's last play can only mean a new lead when it lays cards, so those cards are taken
  as the others' passes (journalled as ``PASS`` each) and then its lead. Most passes end a
  trick, so nobody presses for them; a seat that wants to beat the play lays its cards in its
  turn as usual. UNDO takes the lead back, then each pass.
"""
from tiletable import tagrecord
from tiletable.drivers.buttons import Buttons
from tiletable.drivers.clock import ticks_add, ticks_diff
from tiletable.engine.cards import card_str
from tiletable.engine.errors import E_TILE, IllegalAction
from tiletable.profiles import SEAT
from tiletable.runtime.controller import TextController


class ClimbController(TextController):
    # Measured on the simulated table (bench/dasan_settle.py): cards laid together are all read
    # within 0.27 s, a card added to a pad in up to 0.53 s; so 1.2 s lets a person pause 0.7 s
    # between the cards of a combination laid one at a time (0.8 s allowed only 0.32 s).
    stable_ms = 1200
    scans_hands = False  # hands are never scanned: the cut comes first, the deal needs no OK

    def __init__(self, table):
        TextController.__init__(self, table)
        self.on_pad = [[] for _ in range(self.state.players)]
        self.played = self._played_cards()
        self.due = [None] * self.state.players  # per seat: ms when the pad's cards count as laid

    def draw_score(self, seat, highlight=False):
        """Chips left when the match is played down from a stack (``chips``), else the score."""
        st = self.state
        stack = st.ruleset.params["chips"]
        self.ui.number(seat, stack + st.scores[seat] if stack else st.scores[seat], highlight)

    def between_hands(self):
        """The next hand is dealt at once: nothing of it played yet but its deal."""
        st = self.state
        return bool(st.history) and st.action_str(st.history[-1])[0] in "DK"

    def call_texts(self, seat):
        return ["B%d:%s" % (seat, word) for word in ("PASS", "1", "2", "3")]

    def piece_text(self, identity):
        return card_str(identity[2])

    def on_zone(self, role, a, b, event, now_ms):
        if role != SEAT:
            return
        seat = a
        pad = self.on_pad[seat]
        for identity in event.items:
            if identity[0] != tagrecord.KIND_CARD:
                if self.is_placed(event):
                    self.reject(seat, E_TILE, "a domino is not part of Da San", now_ms)
                return
        texts = [card_str(identity[2]) for identity in event.items]
        if not self.is_placed(event):
            for text in texts:
                if text in pad:
                    pad.remove(text)
            self.due[seat] = ticks_add(now_ms, self.stable_ms) if self._laid(seat) else None  # what is left counts
            return
        pad.extend(text for text in texts if text not in pad)
        for text in texts:
            for prefix in ("C%d:" % seat, "O%d:" % seat):
                if self.is_legal_text(prefix + text):  # the cut, or the opener's heart: one card, at once
                    pad.remove(text)  # shown, not played: it goes back into the hand or the deck
                    if self.act(prefix + text, seat, now_ms):
                        self.after_act(now_ms)
                    return
        if self._laid(seat):
            self.due[seat] = ticks_add(now_ms, self.stable_ms)

    def _laid(self, seat):
        return [text for text in self.on_pad[seat] if text not in self.played]

    def _played_cards(self):
        """The cards played in the current hand, read from the engine's history back to the
        hand's deal."""
        st = self.state
        played = set()
        for i in range(len(st.history) - 1, -1, -1):
            action = st.history[i]
            if not isinstance(action, tuple):
                if st.action_str(action)[0] in "CDK":  # the cut and the deal start a hand
                    break
                continue
            played.update(card_str(c) for c in action)
        return played

    def reset(self):
        TextController.reset(self)
        self.played = self._played_cards()
        self.due = [None] * self.state.players

    def _take(self, seat, now_ms):
        """The cards on the pad as one combination."""
        self.due[seat] = None
        cards = self._laid(seat)
        if not cards:
            return
        st = self.state
        passes = 0
        if seat != st.current_player():
            passes = st.passes_before_lead(seat)
            if not passes:
                self.not_your_turn(seat, now_ms)
                return
        text = "+".join(cards)
        try:
            action = st.parse_action(text)
        except IllegalAction as exc:
            self.reject(seat, exc.code, exc.reason, now_ms)
            return
        problem = st.lead_problem(seat, action) if passes else st.why_illegal(action)
        if problem is not None:
            self.reject(seat, problem[0], problem[1], now_ms)
            return
        for _ in range(passes):
            self.act("PASS", st.current_player(), now_ms, quiet=True)
        if self.act(action, seat, now_ms):
            self.played.update(cards)
            self.after_act(now_ms)

    def tick(self, now_ms):
        taken = False
        for seat in range(len(self.due)):
            due = self.due[seat]
            if due is not None and ticks_diff(now_ms, due) >= 0:
                self._take(seat, now_ms)
                taken = True
        return taken

    def has_timers(self):
        return self.due.count(None) < len(self.due)

    def on_button(self, seat, kind, now_ms):
        if self.choose(seat, kind, now_ms):
            return
        if seat != self.state.current_player():
            self.not_your_turn(seat, now_ms)
        elif kind == Buttons.LONG:
            self._take(seat, now_ms)
        elif kind == Buttons.PRESS:
            self.due[seat] = None
            if self.act("PASS", seat, now_ms):
                self.after_act(now_ms)

    def after_act(self, now_ms):
        TextController.after_act(self, now_ms)
        if self.summary:  # the next hand is dealt already
            self.played = set()
            self.on_pad = [[] for _ in range(self.state.players)]
        seat = self.state.current_player()
        if seat >= 0 and self.due[seat] is None and self._laid(seat):  # laid before the turn came
            self.due[seat] = ticks_add(now_ms, self.stable_ms)
