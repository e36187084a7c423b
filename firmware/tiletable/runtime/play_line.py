"""The line games on the table (docs/TABLE.md "Line games"): Block, Draw, Sebastopol, Bergen,
Muggins, Sniff, Matador and Buki.

* **Deal** (``dEAL``): tiles laid on a seat pad now are that seat's hand scan; OK deals: the
  scanned tiles as seen (``D0:5-6``), the rest unseen (``D0:?``).
* **Setter**: lightest draw lays one tile per seat (``lot``); with unseen hands the holder of
  the setting tile lays it (``setter2`` then the set).
* **Play**: a tile on the pad of the seat to act. One legal placement is played at once;
  several open a choice (candidate end LEDs, press = next, long press = confirm, or lay it on
  an end zone). Seat press = draw, or go when drawing is not allowed, once no double press
  can follow (a double press claims, or changes nothing when no claim is open).
* **Reveal** (``rEVL``): each seat lays its remaining tiles; the engine counts and checks
  every fact the hand implied, and each broken rule is reported (``FOUL`` + EV_ERROR).
* **Buki**: the banker picks the minimum stake, a seat whose bet is due picks its stake
  (press steps, double press jumps to the next round figure, long press places); a long
  press on your turn opens an early bet. The choice opens on the seat's last stake, so a
  seat that keeps its stake only confirms it.
* **Drawn tile** (scanned hand): the drawer's display asks for it (``SHO?``).
* **Latin Double-Nine**: the side that leads names its leader by laying the first tile on
  that player's pad (``setter1`` then the set); before the first play a long press shows a
  player's doubles and throws the deal in (``show2``).
"""
from micropython import const

from tiletable import tagrecord
from tiletable.drivers.buttons import Buttons
from tiletable.drivers.clock import ticks_add, ticks_diff
from tiletable.engine.errors import E_CLAIM, E_MUST_PLAY, E_NOT_HELD, E_NO_MATCH, E_PHASE, E_SET, E_TILE
from tiletable.engine.line_actions import (
    DRAW,
    K_BET,
    K_CLAIM,
    K_DEAL,
    K_LOT,
    K_PLAY,
    K_REVEAL,
    K_SETTER,
    K_SHOW_DOUBLES,
    K_STAKES,
    P_BERGEN,
    P_DEAL,
    P_DECLARE,
    P_DRAWN,
    P_LOT,
    P_PLAY,
    P_REVEAL,
    PASS,
    SET_POINT,
    UNKNOWN_TILE,
    action_text,
    amount_of,
    chance_action,
    kind_of,
    point_of,
    seat_action,
    tile_of,
)
from tiletable.profiles import ARM, END, SEAT
from tiletable.runtime.controller import Choice, Controller
from tiletable.runtime.ui import tiles_text

# Which broken rule (knowledge.Violation.rule) is reported with which reason code.
_VIOLATION_CODES = {"must play": E_MUST_PLAY, "setter": E_SET}
_DEAL_STEP = const(4)  # tiles dealt per tick: about 5 ms each on the Pico (a checked, journalled play)
ROUND_FIGURE = 5  # a double press on a stake choice jumps to the next multiple of this


def option_label(action):
    """At most four digits naming a choice: an end ``L``, ``S1x``, a matador's ``L 5``, a set
    ``SEtx``, or a stake."""
    kind = kind_of(action)
    if kind in (K_BET, K_STAKES):
        return str(amount_of(action))
    text = action_text(action)
    if point_of(action) == SET_POINT:
        return "SEt" + text[-1]
    return text.split(">")[1].replace("^", " ")


def _round_figure(label):
    """Whether a stake's label is a round figure (a multiple of 5): where a double press goes."""
    return int(label) % ROUND_FIGURE == 0


class LineController(Controller):
    def __init__(self, table):
        Controller.__init__(self, table)
        st = self.state
        self.per_hand = st.ruleset.params["deal"][str(st.players)]  # tiles a hand scan may hold
        self.scanned = [[] for _ in range(st.players)]
        self.queued = [[] for _ in range(st.players)]  # lots and reveals laid before their turn
        self.violations_seen = len(st.violations)
        self.foul = [False] * st.players
        self.deferred_press = None  # (seat, due_ms): a press that may become a double press
        self.deal_going = False  # OK was pressed to deal: the next tiles go out at each tick
        self.last_stake = self._stakes_chosen()  # seat -> its last stake (Buki), offered first next time
        self.hand = st.hand_number  # the hand whose summary comes when it ends
        if st.current_phase() == P_DEAL and st.hand_number:  # resumed between hands: the last one's result
            self.summary = True
            for violation in st.violations:
                if violation.hand == st.hand_number - 1:
                    self.foul[violation.seat] = True
        self.after_act(0)

    # ----- zones

    def on_zone(self, role, a, b, event, now_ms):
        st = self.state
        if not self.is_placed(event):
            choice = self.choice
            if role == SEAT and event.count == 0 and choice is not None and choice.purpose == "end" and a == choice.seat:
                self.choice = None  # the tile was lifted before its end was confirmed (not another pad's)
            return
        if role == SEAT:
            seat = a
        elif role in (END, ARM):
            seat = self._first_awaited()  # the mover (or the drawer): an end zone cannot tell who laid it
        else:
            return
        tiles = self.items(event, tagrecord.KIND_TILE, seat, now_ms)
        if not tiles:
            return
        phase = st.current_phase()
        if phase == P_DEAL:
            if role == SEAT and not self.summary:  # during the summary the pads are cleared
                self._scan(seat, tiles, now_ms)
            return
        if phase in (P_REVEAL, P_LOT):
            if role == SEAT:
                self.queued[seat].extend(tiles)
                self.after_act(now_ms)
            return
        if event.count > 1:
            self.table.report(seat, 0, "%d tiles on the pad of P%d, one expected" % (event.count, seat), now_ms, tiles_text(event.count))
            return
        t = tiles[0]
        if role in (END, ARM):
            self._on_end(a, t, now_ms)
        elif phase == P_DRAWN:
            if not st.waits_for(seat):
                self.not_your_turn(seat, now_ms)
            elif self.act(chance_action(K_DEAL, seat, t), seat, now_ms):
                self.after_act(now_ms)
        elif phase in (P_DECLARE, P_BERGEN):
            self._declare_and_set(seat, t, now_ms)
        elif phase == P_PLAY:
            if seat != st.current_player():
                self.not_your_turn(seat, now_ms)
            else:
                self._lay(seat, t, None, now_ms)

    def _scan(self, seat, tiles, now_ms):
        """A hand scan: the tiles on the pad become the seat's known hand at the deal."""
        known = self.scanned[seat]
        for t in tiles:
            problem = self.state.why_illegal(chance_action(K_DEAL, self._first_awaited(), t))
            if problem is not None and problem[0] == E_TILE:  # not in this game's set
                self.reject(seat, E_TILE, problem[1], now_ms)
                return
            for other in self.scanned:
                if t in other and other is not known:
                    self.reject(seat, E_NOT_HELD, "scanned in another hand", now_ms)
                    return
        for t in tiles:
            if t not in known and len(known) < self.per_hand:
                known.append(t)

    def _on_end(self, slot, t, now_ms):
        """A tile on an end zone: plays it on that end (or picks that end of an open choice)."""
        choice = self.choice
        if choice is not None and choice.purpose == "end":
            options = [a for a in choice.options if point_of(a) == slot]
            if not options:
                self.reject(choice.seat, E_NO_MATCH, "the tile does not fit that end", now_ms)
            elif len(options) == 1:
                self.choice = None
                if self.act(options[0], choice.seat, now_ms):
                    self.after_act(now_ms)
            else:
                self.choice = Choice(choice.seat, options, [option_label(a) for a in options], "end")
            return
        self._lay(self._first_awaited(), t, slot, now_ms)

    def hot_zone(self):
        """The mover's pad; while a scanned hand shows its drawn tile, the drawer's."""
        st = self.state
        if st.current_phase() == P_DRAWN:
            return self.table.profile.seat_zone.get(self._first_awaited())  # the drawer
        return Controller.hot_zone(self)

    def preview(self, role, a, b, identity):
        """Whether the tile read on the mover's pad would be a legal lay there, or on the
        drawer's pad the drawn tile (the table flashes it before the read is confirmed); None
        where it would be neither."""
        st = self.state
        if role != SEAT or self.choice is not None or identity[0] != tagrecord.KIND_TILE:
            return None
        t = identity[2]
        phase = st.current_phase()
        if phase == P_DRAWN and st.waits_for(a):
            return st.why_illegal(chance_action(K_DEAL, a, t)) is None
        if phase != P_PLAY or a != st.current_player():
            return None
        for action in st.legal_actions():
            if kind_of(action) == K_PLAY and tile_of(action) == t:
                return True
        return False

    def _lay(self, seat, t, slot, now_ms):
        st = self.state
        options = []
        for a in st.legal_actions():
            if kind_of(a) == K_PLAY and tile_of(a) == t and (slot is None or point_of(a) == slot):
                options.append(a)
        if not options:
            problem = st.lay_problem(seat, t, slot)
            self.reject(seat, problem[0], problem[1], now_ms)
        elif len(options) == 1:
            if self.act(options[0], seat, now_ms):
                self.after_act(now_ms)
        else:
            self.choice = Choice(seat, options, [option_label(a) for a in options], "end")

    def _declare_and_set(self, seat, t, now_ms):
        """Unseen hands: laying the setting tile says "I hold it" (``setter<seat>``) and sets it."""
        problem = self.state.lay_problem(seat, t, None)
        if problem is not None:
            self.reject(seat, problem[0], problem[1], now_ms)
        elif self.act(seat_action(K_SETTER, seat), seat, now_ms, quiet=True):
            self._lay(seat, t, None, now_ms)

    # ----- buttons

    def on_button(self, seat, kind, now_ms):
        choice = self.choice
        if choice is not None and choice.seat == seat and choice.purpose == "stake":
            if kind == Buttons.DOUBLE:  # a stake jumps to the next round figure
                choice.index = (choice.index - 1) % len(choice.options)  # from before the first tap's step
                choice.step_to_next(_round_figure)
                return
            if kind == Buttons.LONG:
                self.last_stake[seat] = amount_of(choice.action)
        if self.choose(seat, kind, now_ms):
            return
        st = self.state
        if kind == Buttons.DOUBLE:
            self.deferred_press = None
            claim = seat_action(K_CLAIM, seat)
            if claim in st.legal_actions():
                self.act(claim, seat, now_ms)
            else:
                self.reject(seat, E_CLAIM, "P%d has nothing to claim" % seat, now_ms)
        elif kind == Buttons.PRESS:
            held = self.deferred_press
            if held is not None and held[0] != seat:
                self._press(held[0], now_ms)  # another seat's press: no double press of this one
            # held back: it may be the first of a double press, which must not draw or go
            self.deferred_press = (seat, ticks_add(now_ms, Buttons.double_press_ms + 50))
        elif kind == Buttons.LONG:
            self._open_bet(seat, now_ms)

    def _press(self, seat, now_ms):
        """The seat's "no-tile" action: draw, or go when drawing is not allowed."""
        st = self.state
        phase = st.current_phase()
        if phase == P_BERGEN:
            draw = chance_action(K_DEAL, seat, UNKNOWN_TILE)
            if draw in st.legal_actions():
                self.act(draw, seat, now_ms)
            else:
                self.not_your_turn(seat, now_ms)
            return
        if phase != P_PLAY or seat != st.current_player():
            self.not_your_turn(seat, now_ms)
            return
        for action in (DRAW, PASS):
            if action in st.legal_actions():
                if self.act(action, seat, now_ms):
                    self.after_act(now_ms)
                return
        problem = st.why_illegal(PASS) or (E_MUST_PLAY, "must play")
        self.reject(seat, problem[0], problem[1], now_ms)

    def _open_bet(self, seat, now_ms):
        """A long press: a bet's choice (Buki), or doubles shown (Latin Double-Nine)."""
        st = self.state
        show = seat_action(K_SHOW_DOUBLES, seat)
        if show in st.legal_actions() and self.act(show, seat, now_ms):
            self.after_act(now_ms)
        if not st.is_betting() or st.current_phase() != P_PLAY or seat != st.current_player():
            return
        bets = [a for a in st.legal_actions() if kind_of(a) == K_BET]
        if bets:
            self.choice = Choice(seat, bets, [option_label(a) for a in bets], "bet")

    def tick(self, now_ms):
        if self.deal_going:
            self._deal(now_ms)
            return True
        if self.deferred_press is not None and ticks_diff(now_ms, self.deferred_press[1]) >= 0:
            seat = self.deferred_press[0]
            self.deferred_press = None
            self._press(seat, now_ms)
            return True
        return False

    def has_timers(self):
        return self.deferred_press is not None or self.deal_going

    def on_ok(self, now_ms):
        st = self.state
        if self.summary:
            self.summary = False
            self.foul = [False] * st.players
            self.close_hand()
        elif st.current_phase() == P_DEAL:
            self.deal_going = True  # the table's tick, in this same step, deals the first tiles

    def _deal(self, now_ms):
        """Deal the next ``_DEAL_STEP`` tiles, seat by seat: scanned tiles as seen, the rest
        unseen; one batch a tick, so a deal of every hand (14 to 28 journalled plays) never holds
        the loop for long (OK only starts it: a batch at OK and another at the tick of the same
        step held the loop for 50 ms on the chip). Where the deal goes on is the seat the engine
        waits for: a deal cut short by a restart goes on where it stopped at the next OK."""
        st = self.state
        for _ in range(_DEAL_STEP):
            seat = self._first_awaited()
            known = self.scanned[seat]
            t = known[0] if known else UNKNOWN_TILE
            started = bool(st.history) and kind_of(st.history[-1]) == K_DEAL  # a hand starts with its deal
            if not self.act(chance_action(K_DEAL, seat, t), seat, now_ms, quiet=started):
                self.deal_going = False
                return
            if known:
                known.pop(0)  # dealt as seen
            if st.current_phase() != P_DEAL:  # the last hand is full
                self.deal_going = False
                self.scanned = [[] for _ in range(st.players)]
                self.after_act(now_ms)
                return

    # ----- automatic steps

    def after_act(self, now_ms):
        """Follow-ups the table makes itself: the unseen tile of a draw, queued lots and reveals
        in the engine's order, Buki's stake choices, and the summary when a hand ended."""
        st = self.state
        while not st.is_over():
            phase = st.current_phase()
            if phase == P_DRAWN and st.holds_unseen(self._first_awaited()):
                drawer = self._first_awaited()
                if not self.act(chance_action(K_DEAL, drawer, UNKNOWN_TILE), drawer, now_ms, quiet=True):
                    break
            elif phase == P_REVEAL or phase == P_LOT:
                seat = self._first_awaited()
                if not self.queued[seat]:
                    break
                t = self.queued[seat].pop(0)
                self.act(chance_action(K_LOT if phase == P_LOT else K_REVEAL, seat, t), seat, now_ms)
            else:
                break
        if st.hand_number != self.hand or st.is_over():
            self._hand_ended(now_ms)
        self._open_forced_choice()

    def _first_awaited(self):
        """The seat the hand waits for: the mover, the drawer, whose lot draw or reveal comes
        next (seat by seat); 0 when it waits for nobody's tile (a declaration)."""
        for seat in range(self.state.players):
            if self.state.waits_for(seat):
                return seat
        return 0

    def _open_forced_choice(self):
        st = self.state
        if self.choice is not None or not st.is_betting() or st.current_phase() != P_PLAY:
            return
        legal = list(st.legal_actions())
        if legal and kind_of(legal[0]) in (K_STAKES, K_BET) and kind_of(legal[-1]) == kind_of(legal[0]):
            seat = st.current_player()  # the banker sets the stakes; a bet is the mover's
            self.choice = Choice(seat, legal, [option_label(a) for a in legal], "stake")
            last = self.last_stake.get(seat)
            for i in range(len(legal)):
                if amount_of(legal[i]) == last:
                    self.choice.index = i

    def _hand_ended(self, now_ms):
        """Show the hand's result until OK; report every rule the reveal found broken."""
        st = self.state
        self.hand = st.hand_number
        self.summary = True
        self.queued = [[] for _ in range(st.players)]
        for violation in st.violations[self.violations_seen :]:
            self.foul[violation.seat] = True
            code = _VIOLATION_CODES.get(violation.rule, E_PHASE)
            self.table.report(violation.seat, code, violation.text(), now_ms, "FOUL")
        self.violations_seen = len(st.violations)

    def reset(self):
        self.choice = None
        self.deferred_press = None
        self.deal_going = False
        self.queued = [[] for _ in range(self.state.players)]
        self.summary = False
        self.foul = [False] * self.state.players
        self.hand = self.state.hand_number
        self.violations_seen = len(self.state.violations)
        self.last_stake = self._stakes_chosen()  # an undone stake no longer counts
        self._open_forced_choice()  # an undone stake is chosen again

    def _stakes_chosen(self):
        """Each seat's last stake in the match (Buki), read from the engine's history: what the
        choice offers first after an undo or a power cut is what it offered before."""
        st = self.state
        chosen = {}
        if not st.is_betting():
            return chosen
        replay = st.fresh()
        for action in st.history:
            kind = kind_of(action)
            if kind == K_STAKES or kind == K_BET:
                chosen[replay.current_player()] = amount_of(action)  # the banker, or the mover
            replay.apply(action)
        return chosen

    def joins_previous(self, before, last):
        """A draw's tile and the deal's tiles go with what started them; a set with its declaration.
        Bergen's equal draws (``last`` taken back into ``P_BERGEN``) were each a seat's press:
        one UNDO each, not the deal with them."""
        if last.startswith("D") and (before.startswith("D") or before == "draw"):
            return self.state.current_phase() != P_BERGEN
        return before.startswith("setter")

    # ----- display

    def score_text(self, points):
        """Buki's half-chips as chips (``75`` -> ``"37.5"``), other games' points as they are."""
        if not self.state.is_betting():
            return str(points)
        from tiletable.engine.betting import chips_text  # loaded with the game's betting

        return chips_text(points)

    def draw_score(self, seat, highlight=False):
        st = self.state
        if not st.is_betting():
            self.ui.number(seat, st.scores[seat], highlight)
            return
        text = st.chips(seat)
        if len(text.replace(".", "")) > 4:  # no room for the half: the whole chips, either sign
            self.ui.number(seat, int(text.split(".")[0]), highlight)
        else:
            self.ui.text(seat, text, highlight)

    def draw(self):
        st = self.state
        ui = self.ui
        phase = st.current_phase()
        claim = st.open_claim()
        for seat in range(st.players):
            if self.summary:
                if self.foul[seat]:
                    ui.text(seat, "FOUL", True)
                else:
                    self.draw_score(seat, True)
            elif phase == P_DEAL:
                count = len(self.scanned[seat])
                ui.text(seat, "h%3d" % count if count else "dEAL")
            elif phase == P_LOT:
                ui.text(seat, "Lot") if st.waits_for(seat) else self.draw_score(seat)
            elif phase in (P_DECLARE, P_BERGEN):
                ui.text(seat, "drAW" if st.waits_for(seat) else "SEt?")
            elif phase == P_REVEAL:
                ui.text(seat, "rEVL") if st.waits_for(seat) else self.draw_score(seat)
            elif phase == P_DRAWN and st.waits_for(seat):
                ui.text(seat, "SHO?", True)  # a scanned hand: show the drawn tile on the pad
            elif claim is not None and seat == claim[0]:
                ui.text(seat, "C%3d" % claim[1], True)
            else:
                self.draw_score(seat)
        self.blank_unused()
        self.draw_choice()
        playing = phase in (P_PLAY, P_DRAWN) and not self.summary
        ui.turn(st.current_player() if playing and st.current_player() >= 0 else None)
        mask = 0
        if self.choice is not None and self.choice.purpose == "end":
            for a in self.choice.options:
                point = point_of(a)
                if point < SET_POINT:
                    mask |= 1 << point
        ui.candidate_ends(mask)

    def play_prompt(self):
        st = self.state
        phase = st.current_phase()
        if phase == P_DEAL:
            return "deal: scan hands on the pads, then OK"
        if phase == P_LOT:
            return "lot: %s lays one tile" % self.table.seat_name(self._first_awaited())
        if phase in (P_DECLARE, P_BERGEN):
            return "the setter lays the first tile"
        if phase == P_REVEAL:
            return "reveal: %s lays its tiles" % self.table.seat_name(self._first_awaited())
        if phase == P_DRAWN:
            return "%s lays the drawn tile" % self.table.seat_name(self._first_awaited())
        return "%s to play" % self.table.seat_name(st.current_player())
