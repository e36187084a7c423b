"""Mexican Train on the table (docs/TABLE.md "Mexican Train", docs/MEXICAN-TRAIN.md).

* **Deal** (``dEAL``): tiles laid on a seat pad now are that seat's hand scan; OK deals: the
  scanned tiles as seen (``D0:5-6``), the rest unseen (``D0:?``), a few a tick.
* **Play**: a tile on the mover's pad goes on the mover's own train when that is the only train
  it fits; when it fits several, the mover's display offers them, its own train first (``tr 1``,
  ``MEX``; press = next, long press = confirm, lifting the tile takes the choice back). A tile
  on the Mexican zone goes on the Mexican train. The seat's press draws, passes (empty
  boneyard: the marker goes out) or ends a first-turn run.
* **Drawn tile** (scanned hand): the drawer's display asks for it (``SHO?``); laid on the pad
  it is shown, and then played like any tile (the engine makes it the only one allowed).
* **Open double**: its train's owner's display blinks ``d`` and the pips (``d 12``), the hub's
  LED is lit while one is open and the Mexican zone's when it is on the Mexican train.
* **Markers**: a seat whose train carries a marker shows ``t`` before its score (``t 25``).
* **Reveal** (``rEVL``): after a round, seats with unseen tiles lay what is left; the round is
  scored and stays up until OK (then the next round's deal, 13 rounds in all).
"""
from micropython import const

from tiletable import tagrecord
from tiletable.drivers.buttons import Buttons
from tiletable.drivers.status_leds import StatusLeds
from tiletable.engine.errors import E_NOT_HELD, E_TILE
from tiletable.engine.holdings import UNKNOWN
from tiletable.engine.train import (
    DRAW,
    END_TURN,
    P_DEAL,
    P_DRAWN,
    P_PLAY,
    P_PLAY_DRAWN,
    P_REVEAL,
    PASS,
    deal_action,
    fields,
    play_action,
    reveal_action,
)
from tiletable.engine.tiles import has, tile_str
from tiletable.profiles import SEAT
from tiletable.runtime.controller import Choice, Controller
from tiletable.runtime.ui import tiles_text

MEXICAN = "mexican"  # the profile's role of the Mexican train's zone
HUB = "hub"  # the profile's role of the engine's zone
_DEAL_STEP = const(4)  # tiles dealt per tick, as the line games' deal (play_line.py)
_MARKED_MOST = const(999)  # the highest score that leaves a digit for the marker's "t"


class TrainController(Controller):
    def __init__(self, table):
        Controller.__init__(self, table)
        st = self.state
        self.scanned = [[] for _ in range(st.players)]  # hand scans before the deal's OK
        self.queued = [[] for _ in range(st.players)]  # tiles laid to be shown after a round
        self.deal_going = False  # OK was pressed to deal: the next tiles go out at each tick
        self.hand = st.hand_number  # the round whose summary comes when it ends
        self.summary = st.phase == P_DEAL and st.hand_number > 0  # resumed between rounds
        self.mexican_zone = self.hub_zone = None
        for zone, role, _, _ in table.profile.zones:
            if role == MEXICAN:
                self.mexican_zone = zone
            elif role == HUB:
                self.hub_zone = zone
        self.after_act(0)

    # ----- zones

    def on_zone(self, role, a, b, event, now_ms):
        st = self.state
        if not self.is_placed(event):
            choice = self.choice
            if role == SEAT and event.count == 0 and choice is not None and a == choice.seat:
                self.choice = None  # the tile was lifted before its train was confirmed
            return
        if role == SEAT:
            seat = a
        elif role == MEXICAN or role == HUB:
            seat = st.turn  # a zone of the middle cannot tell who laid it: the mover
        else:
            return
        tiles = self.items(event, tagrecord.KIND_TILE, seat, now_ms)
        if not tiles:
            return
        phase = st.phase
        if role == HUB:
            self._on_hub(tiles[0], now_ms)
        elif phase == P_DEAL:
            if role == SEAT and not self.summary:  # during the summary the pads are cleared
                self._scan(seat, tiles, now_ms)
        elif phase == P_REVEAL:
            if role == SEAT:
                self.queued[seat].extend(tiles)
                self.after_act(now_ms)
        elif event.count > 1:
            self.table.report(seat, 0, "%d tiles on the pad of P%d, one expected" % (event.count, seat), now_ms, tiles_text(event.count))
        elif seat != st.turn:
            self.not_your_turn(seat, now_ms)
        elif phase == P_DRAWN:
            if self.act(deal_action(seat, tiles[0]), seat, now_ms):
                self.after_act(now_ms)
        elif role == MEXICAN:
            self.choice = None
            if self.act(play_action(tiles[0], st.mexican()), seat, now_ms):
                self.after_act(now_ms)
        else:
            self._lay(seat, tiles[0], now_ms)

    def _on_hub(self, t, now_ms):
        """The round's engine laid in the hub is as it should be; another tile is refused."""
        engine = self.state.engine
        if t >> 4 != engine or t & 15 != engine:
            self.reject(self.state.turn, E_TILE, "the hub holds this round's engine %d-%d, not %s" % (engine, engine, tile_str(t)), now_ms)

    def _scan(self, seat, tiles, now_ms):
        """A hand scan: the tiles on the pad become the seat's known hand at the deal."""
        st = self.state
        known = self.scanned[seat]
        for t in tiles:
            if t not in st.tiles:
                self.reject(seat, E_TILE, "%s is not in the double-%d set" % (tile_str(t), st.ruleset.params["engine_max"]), now_ms)
                return
            if t >> 4 == st.engine and t & 15 == st.engine:
                self.reject(seat, E_TILE, "%s is this round's engine: it goes in the hub" % tile_str(t), now_ms)
                return
            for other in self.scanned:
                if t in other and other is not known:
                    self.reject(seat, E_NOT_HELD, "%s was scanned in another hand" % tile_str(t), now_ms)
                    return
        for t in tiles:
            if t not in known and len(known) < st.deal:
                known.append(t)

    def _options(self, seat, t):
        """The trains tile ``t`` may go on now, as play actions: the open double's train when
        one must be covered, else the seat's own first, the marked trains, the Mexican train."""
        st = self.state
        due = st.obligation()
        trains = (due[0],) if due is not None else st.trains_open_to(seat)
        values = st.open_values
        out = []
        for train in trains:
            if has(t, values[train]):
                action = play_action(t, train)
                if st.why_illegal(action) is None:
                    out.append(action)
        return out

    def _lay(self, seat, t, now_ms):
        options = self._options(seat, t)
        if not options:
            problem = self.state.why_illegal(play_action(t, seat))
            if problem is None:  # fits its own train, which is closed to it now (a first run's end)
                problem = self.state.why_illegal(play_action(t, self.state.mexican()))
            self.reject(seat, problem[0], problem[1], now_ms)
        elif len(options) == 1:
            self.choice = None
            if self.act(options[0], seat, now_ms):
                self.after_act(now_ms)
        else:
            self.choice = Choice(seat, options, [self._train_label(a) for a in options], "train")

    def _train_label(self, action):
        """A train on four digits: ``MEX`` the Mexican train, ``tr 2`` seat 2's."""
        train = fields(action)[2]
        return "MEX" if train == self.state.mexican() else "tr%2d" % (train + 1)

    def hot_zone(self):
        """The pad of the seat the round waits for: the mover (also while it shows its drawn
        tile), or whose tiles are shown after the round."""
        st = self.state
        phase = st.phase
        if phase == P_REVEAL:
            return self.table.profile.seat_zone.get(self._revealing())
        if phase in (P_PLAY, P_DRAWN, P_PLAY_DRAWN):
            return self.table.profile.seat_zone.get(st.turn)
        return None

    def preview(self, role, a, b, identity):
        """Whether the tile read on the mover's pad would be a legal lay (or, asked for, the
        drawn tile); None elsewhere."""
        st = self.state
        if role != SEAT or self.choice is not None or identity[0] != tagrecord.KIND_TILE or a != st.turn:
            return None
        t = identity[2]
        if st.phase == P_DRAWN:
            return st.why_illegal(deal_action(a, t)) is None
        if st.phase not in (P_PLAY, P_PLAY_DRAWN):
            return None
        due = st.obligation()
        for train in (due[0],) if due is not None else st.trains_open_to(a):
            if has(t, st.open_values[train]) and st.why_illegal(play_action(t, train)) is None:
                return True
        return False

    # ----- buttons

    def on_button(self, seat, kind, now_ms):
        if self.choose(seat, kind, now_ms) or kind != Buttons.PRESS:
            return
        st = self.state
        if st.phase not in (P_PLAY, P_PLAY_DRAWN) or seat != st.turn:
            self.not_your_turn(seat, now_ms)
            return
        legal = st.legal_actions()
        for action in (END_TURN, DRAW, PASS):
            if action in legal:
                if self.act(action, seat, now_ms):
                    self.after_act(now_ms)
                return
        problem = st.why_illegal(DRAW if st.boneyard else PASS)
        self.reject(seat, problem[0], problem[1], now_ms)

    def on_ok(self, now_ms):
        if self.summary:
            self.summary = False
            self.close_hand()
        elif self.state.phase == P_DEAL:
            self.deal_going = True  # the table's tick, in this same step, deals the first tiles

    def tick(self, now_ms):
        if self.deal_going:
            self._deal(now_ms)
            return True
        return False

    def has_timers(self):
        return self.deal_going

    def _deal(self, now_ms):
        """Deal the next ``_DEAL_STEP`` tiles, seat by seat: scanned tiles as seen, the rest
        unseen (as the line games deal: one batch a tick, so the loop is never held long)."""
        st = self.state
        for _ in range(_DEAL_STEP):
            seat = self._dealt()
            known = self.scanned[seat]
            started = st.hands[0].size() > 0  # the round's first tile is announced, the rest quiet
            if not self.act(deal_action(seat, known[0] if known else UNKNOWN), seat, now_ms, quiet=started):
                self.deal_going = False
                return
            if known:
                known.pop(0)
            if st.phase != P_DEAL:  # the last hand is full
                self.deal_going = False
                self.scanned = [[] for _ in range(st.players)]
                self.after_act(now_ms)
                return

    # ----- automatic steps

    def after_act(self, now_ms):
        """Follow-ups the table makes itself: the unseen tile of an unseen hand's draw, the tiles
        laid for the reveal in the engine's order, and the summary when a round ended."""
        st = self.state
        while not st.is_over():
            if st.phase == P_DRAWN and st.hands[st.turn].unknown:
                if not self.act(deal_action(st.turn, UNKNOWN), st.turn, now_ms, quiet=True):
                    break
            elif st.phase == P_REVEAL and self.queued[self._revealing()]:
                seat = self._revealing()
                self.act(reveal_action(seat, self.queued[seat].pop(0)), seat, now_ms)
            else:
                break
        if st.hand_number != self.hand or st.is_over():
            self.hand = st.hand_number
            self.summary = True
            self.choice = None
            self.queued = [[] for _ in range(st.players)]

    def _dealt(self):
        """The seat the deal fills now: the first whose hand is short."""
        st = self.state
        for seat in range(st.players):
            if st.hands[seat].size() < st.deal:
                return seat
        return 0

    def _revealing(self):
        """The seat whose unseen tiles are shown next after a round (seat by seat)."""
        hands = self.state.hands
        for seat in range(len(hands)):
            if hands[seat].unknown:
                return seat
        return 0

    def reset(self):
        self.choice = None
        self.deal_going = False
        self.queued = [[] for _ in range(self.state.players)]
        self.summary = False
        self.hand = self.state.hand_number

    def joins_previous(self, before, last):
        """A dealt tile goes with the deal before it, a drawn tile with its draw."""
        return last[0] == "D" and (before[0] == "D" or before == "draw")

    # ----- display

    def draw(self):
        st = self.state
        ui = self.ui
        phase = st.phase
        playing = phase in (P_PLAY, P_DRAWN, P_PLAY_DRAWN) and not self.summary
        doubled = [-1] * st.players  # the pips of an open double on each seat's train
        on_mexican = False
        for train, value, _ in st.open_doubles:
            if train == st.mexican():
                on_mexican = True
            else:
                doubled[train] = value
        for seat in range(st.players):
            if self.summary:
                self.draw_score(seat, True)
            elif phase == P_DEAL:
                count = len(self.scanned[seat])
                ui.text(seat, "h%3d" % count if count else "dEAL")
            elif phase == P_REVEAL:
                ui.text(seat, "rEVL") if st.hands[seat].unknown else self.draw_score(seat)
            elif phase == P_DRAWN and seat == st.turn:
                ui.text(seat, "SHO?", True)  # a scanned hand: show the drawn tile on the pad
            elif doubled[seat] >= 0:
                ui.text(seat, "d%3d" % doubled[seat], True)
            elif st.markers[seat] and st.scores[seat] <= _MARKED_MOST:
                ui.text(seat, "t%3d" % st.scores[seat])
            elif st.markers[seat]:
                ui.text(seat, "%d." % st.scores[seat])  # no digit left: the marker is the point
            else:
                self.draw_score(seat)
        self.blank_unused()
        self.draw_choice()
        ui.turn(st.turn if playing else None)
        self._light(self.hub_zone, playing and bool(st.open_doubles))
        self._light(self.mexican_zone, playing and on_mexican)

    def _light(self, zone, lit):
        if zone is not None:
            self.ui.zone_result(zone, StatusLeds.DRAW if lit else None)

    def draw_final(self):
        self._light(self.hub_zone, False)
        self._light(self.mexican_zone, False)

    def play_prompt(self):
        st = self.state
        phase = st.phase
        name = self.table.seat_name
        if phase == P_DEAL:
            return "round %d: scan hands on the pads, then OK" % st.round
        if phase == P_REVEAL:
            return "reveal: %s lays its tiles" % name(self._revealing())
        if phase == P_DRAWN:
            return "%s shows the drawn tile on its pad" % name(st.turn)
        if phase == P_PLAY_DRAWN:
            if st.drawn == UNKNOWN:
                return "%s plays the drawn tile, or presses to pass" % name(st.turn)
            return "%s plays the drawn tile %s" % (name(st.turn), tile_str(st.drawn))
        due = st.obligation()
        if due is not None:
            where = "the Mexican train" if due[0] == st.mexican() else "%s's train" % name(due[0])
            return "%s covers the double %d-%d on %s" % (name(st.turn), due[1], due[1], where)
        return "%s to play" % name(st.turn)
