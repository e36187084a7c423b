"""What the family controllers share: the table they act through, choices made with a seat
button (press = next option, long press = confirm), and the steady score view.

A controller turns one family's zone and button events into engine actions (docs/TABLE.md).
The interface the table calls: ``on_zone(role, a, b, event, now_ms)``, ``preview(role, a, b,
identity)``, ``on_button(seat, kind, now_ms)``, ``on_ok(now_ms)``, ``tick(now_ms) -> redraw?``,
``draw()``, ``draw_final()`` (the final screen's), ``draw_score(seat, winner)``,
``score_text(points)``, ``prompt()``, ``joins_previous(before, last)`` (undo takes both back),
``can_undo()`` and ``reset()`` (forget half-made choices after an undo).
"""
from tiletable import tagrecord
from tiletable.drivers.buttons import Buttons
from tiletable.engine.errors import E_TILE, E_TURN, IllegalAction
from tiletable.engine.state import CHANCE
from tiletable.runtime.tray import PLACED


class Choice:
    """A decision one seat makes with its button: ``options`` (engine actions) and their labels."""

    def __init__(self, seat, options, labels, purpose):
        self.seat = seat
        self.options = options
        self.labels = labels
        self.purpose = purpose
        self.index = 0

    @property
    def action(self):
        return self.options[self.index]

    @property
    def label(self):
        return self.labels[self.index]

    def step(self):
        self.index = (self.index + 1) % len(self.options)

    def step_to_next(self, wanted):
        """Step to the next option (round the end) whose label ``wanted`` accepts; stay when none does."""
        count = len(self.options)
        for ahead in range(1, count + 1):
            index = (self.index + ahead) % count
            if wanted(self.labels[index]):
                self.index = index
                return


class Controller:
    deal_going = False  # dealing a few pieces a tick (the line games': play_line.py)

    def __init__(self, table):
        self.table = table
        self.state = table.session.state
        self.ui = table.ui
        self.choice = None
        self.summary = False  # a finished hand's scores are up until OK
        self.closed_at = 0  # history length when the last hand's summary was dismissed

    def close_hand(self):
        """The summary was dismissed: the finished hand's actions are no longer undone."""
        self.closed_at = len(self.state.history)

    def can_undo(self):
        """Whether UNDO may take back the last action: not once a finished hand is closed."""
        return len(self.state.history) > self.closed_at

    def hot_zone(self):
        """The pad of the seat to move (None while nobody is to move): the tray watches it."""
        return self.table.profile.seat_zone.get(self.state.current_player())

    # ----- helpers for the families

    def act(self, action, seat, now_ms, quiet=False):
        return self.table.act(action, seat, now_ms, quiet)

    def reject(self, seat, code, reason, now_ms):
        self.table.reject(seat, code, reason, now_ms)

    def items(self, event, kind, seat, now_ms):
        """The items of ``kind`` (tagrecord.KIND_TILE or KIND_CARD) a PLACED event brought; a
        piece of the other kind is refused (``E_TILE``) and yields nothing."""
        out = []
        for identity in event.items:
            if identity[0] != kind:
                self.reject(seat, E_TILE, "a %s is not part of this game" % ("card" if identity[0] == tagrecord.KIND_CARD else "tile"), now_ms)
                return []
            out.append(identity[2])
        return out

    def choose(self, seat, kind, now_ms):
        """Handle a seat button while ``seat`` has a choice open; True when it was used."""
        choice = self.choice
        if choice is None or choice.seat != seat:
            return False
        if kind == Buttons.PRESS:
            choice.step()
        elif kind == Buttons.LONG:
            self.choice = None
            if not self.act(choice.action, seat, now_ms):
                self.choice = choice
            else:
                self.after_act(now_ms)
        return True

    def not_your_turn(self, seat, now_ms):
        self.reject(seat, E_TURN, "P%d acted out of turn" % seat, now_ms)

    @staticmethod
    def is_placed(event):
        return event.kind == PLACED

    # ----- defaults

    def after_act(self, now_ms):
        """Automatic follow-ups once an action was accepted (families override)."""

    def preview(self, role, a, b, identity):
        """The verdict (True: legal) a piece read once on a zone would get, for the table to
        flash while the tray confirms the read; None where a family has no quick verdict."""
        return None

    def on_lying(self, role, a, b, event):
        """Pieces found lying on a zone as the table resumes: never plays, but a family may
        need to know where they lie (the trick zone's count, a column slot's card)."""

    def on_ok(self, now_ms):
        pass

    def tick(self, now_ms):
        return False

    def has_timers(self):
        return False

    def reset(self):
        self.choice = None

    def joins_previous(self, before, last):
        return False

    def draw_score(self, seat, highlight=False):
        self.ui.number(seat, self.state.scores[seat], highlight)

    def score_text(self, points):
        """A score as the link carries it (STATE, the score event): a decimal in the unit people
        read, which the line games turn from Buki's half-chips into chips (``"37.5"``)."""
        return str(points)

    def draw_final(self):
        """What the final screen keeps of the game's view besides the scores (the table draws
        places, scores and the dark turn LEDs); families with more override."""

    def draw_choice(self):
        """The open choice's option on its seat's display; True when one is open."""
        if self.choice is None:
            return False
        self.ui.text(self.choice.seat, self.choice.label, True)
        return True

    def blank_unused(self):
        for seat in range(self.state.players, self.ui.seats):
            self.ui.blank(seat)

    def prompt(self):
        """What the table waits for, in words (STATE, the PC's watch): seats as people name them."""
        if self.choice is not None:
            return "%s chooses %s: %s" % (self.table.seat_name(self.choice.seat), self.choice.purpose, self.choice.label)
        if self.state.is_over():
            winners = self.state.outcome().winners
            names = " and ".join(self.table.seat_name(s) for s in winners)
            won = "%s win%s" % (names, "s" if len(winners) == 1 else "") if winners else "a tie"
            return "match over, %s: OK for the menu" % won
        if self.summary:
            return "hand over: OK for the next hand"
        return self.play_prompt()

    def play_prompt(self):
        """The prompt in the middle of a hand (families override)."""
        return ""


class TextController(Controller):
    """A controller that works with the engine's canonical action texts (trick, column, climb):
    chance actions are ``<who>:<piece>`` with ``<who>:?`` for a piece nobody saw, so the table
    deals unseen pieces itself and names the ones laid on a zone.

    * **Deal**: pieces laid on a seat pad before OK are that seat's hand scan; OK (or any
      deal the engine asks for later, e.g. a refill) deals them as seen and the rest unseen.
    * **Calls** (bids, trumps): the seat's display shows the option, press = next, long press
      = confirm (``call_prefixes``).
    * **Summary**: when a hand ends the scores stay up until OK.
    """

    scans_hands = True  # a deal waits for hand scans and OK (Da San's does not)

    def call_texts(self, seat):
        """Every call ``seat`` might make now, in display order (families override); the legal
        ones are offered. Built from a short list because enumerating every legal action can
        be huge (Da San with unseen hands: every combination the unseen cards allow)."""
        return ()

    def __init__(self, table):
        Controller.__init__(self, table)
        self.scanned = {}  # chance prefix ("D1") -> piece texts laid on that seat's pad
        self.dealing = self.scans_hands and self.at_deal()  # waiting for OK (hand scans allowed)
        self.hand = self.state.hand_number
        self.summary = self.state.hand_number > 0 and self.between_hands()  # resumed in a summary
        if not self.dealing and not self.summary:  # resumed mid-hand: the call is offered again
            self.open_call()

    def at_deal(self):
        """Whether the match stands at a deal (a start, or a resume between hands): the table
        then waits for hand scans and OK. Mid-hand (a resume after a power cut) it does not."""
        return self.state.current_player() == CHANCE

    def between_hands(self):
        """Whether nothing of the current hand was played yet (its summary may still be up)."""
        return self.at_deal()

    def legal_texts(self):
        st = self.state
        return [st.action_str(a) for a in st.legal_actions()]

    def piece_text(self, identity):
        """The engine's text of a piece (families override: cards are ``H4``)."""
        from tiletable.engine.tiles import tile_str

        return tile_str(identity[2])

    def after_act(self, now_ms):
        """Deal unseen pieces (after OK), open a call, and show the summary of a finished hand."""
        st = self.state
        if st.hand_number != self.hand or st.is_over():  # the next deal waits for the summary's OK
            self.hand = st.hand_number
            self.summary = True
            self.dealing = self.scans_hands
            self.scanned = {}
        if not self.dealing and not st.is_over() and st.current_player() == CHANCE:
            # the play that set the deal off is kept first (its LEDs are lit): the deal of a
            # hand's unseen pieces holds this step for long (Da San: 54 cards, about 1 s)
            self.table.journal.flush()
        while not self.dealing and not st.is_over() and self.deal_unseen(now_ms):
            pass
        if self.choice is None and not self.summary:
            self.open_call()

    def is_legal_text(self, text):
        st = self.state
        try:
            return st.is_legal(st.parse_action(text))
        except IllegalAction:
            return False

    def deal_unseen(self, now_ms):
        """Apply one chance action the table can name itself; True when one was applied."""
        if self.state.current_player() != CHANCE:
            return False
        texts = self.legal_texts()
        for text in texts:
            if text.endswith(":?"):
                prefix = text[:-2]
                known = self.scanned.get(prefix)
                while known:
                    named = prefix + ":" + known.pop(0)
                    if named in texts:
                        return self.act(named, 0, now_ms, quiet=True)
                return self.act(text, 0, now_ms, quiet=True)
        return False

    def open_call(self):
        seat = self.state.current_player()
        if seat < 0:
            return
        options = [text for text in self.call_texts(seat) if self.is_legal_text(text)]
        if options:
            self.choice = Choice(seat, options, [self.call_label(t) for t in options], "call")

    def call_label(self, text):
        return text.split(":")[-1]

    def scan(self, seat, event, now_ms):
        """A hand scan during the deal: remember the pieces for the seat's ``D<seat>:`` deals."""
        known = self.scanned.setdefault("D%d" % seat, [])
        for identity in event.items:
            text = self.piece_text(identity)
            if text not in known:
                known.append(text)

    def on_ok(self, now_ms):
        if self.summary:
            self.summary = False
            self.close_hand()
            if not self.dealing:
                self.open_call()
            return
        if self.dealing:
            self.dealing = False
            self.after_act(now_ms)

    def on_button(self, seat, kind, now_ms):
        self.choose(seat, kind, now_ms)

    def joins_previous(self, before, last):
        """Unseen pieces the table dealt itself go with what came before them, and the second
        player's column assignment with the first (they were laid at the same time)."""
        return last.endswith(":?") or (last.startswith("A1:") and before.startswith("A0:"))

    def reset(self):
        """After an undo: back in the hand (an undone hand-ending play leaves the summary and
        the next deal), or at the deal again when the deal itself was undone."""
        self.choice = None
        self.summary = False
        self.dealing = self.scans_hands and self.at_deal()
        self.hand = self.state.hand_number
        self.open_call()

    def draw_scores(self):
        for seat in range(self.state.players):
            if self.dealing and not self.summary:
                count = len(self.scanned.get("D%d" % seat, ()))
                self.ui.text(seat, "h%3d" % count if count else "dEAL")
            else:
                self.draw_score(seat, self.summary)
        self.blank_unused()
        self.draw_choice()
        actor = self.state.current_player()
        self.ui.turn(actor if actor >= 0 and not self.summary and not self.dealing else None)

    def draw(self):
        self.draw_scores()

    def play_prompt(self):
        if self.dealing:
            return "deal: scan hands on the pads, then OK"
        actor = self.state.current_player()
        return "%s to play" % self.table.seat_name(actor) if actor >= 0 else "waiting for the pieces"
