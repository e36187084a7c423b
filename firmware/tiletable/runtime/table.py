"""The table: zone and button events in, engine actions, journal records, display and link events out.

``Table`` owns what every game shares: the menu (runtime/menu.py: game and player count, e.g.
``MUGG 4P``), the match in progress, the ``act`` that plays each accepted action on
its ``Session`` (runtime/session.py: engine state and journal) and reports each rejected one (red
flash, buzz, ``Err<code>``, nothing changed), undo, stopping a match, the redraw, the snapshot,
and the events for the PC link. Starting a match, or resuming the one in progress after a
restart, is its ``GameStarter``'s (runtime/starter.py). What a zone or a seat button *means*
depends on the game family and lives in one controller per family (``play_line``, ...; see
docs/TABLE.md).

Inputs are ``zone_event(event, now_ms)`` (tray ``ZoneEvent``), ``button_event(event, now_ms)``
(``Buttons`` events) and ``tick(now_ms)``; outputs go to ``ui`` (display, LEDs, buzzer), the
journal, ``outbox``: link events ``(msg_type, fields)`` the link service sends, and
``intents``: what the app is asked to do (the self test, a restart into a game, the REPL).
"""
from tiletable import tagrecord
from tiletable.board.setup import BUTTON_MENU, BUTTON_OK, BUTTON_UNDO, SEATS, status_leds
from tiletable.drivers.buttons import Buttons
from tiletable.drivers.clock import ticks_add, ticks_diff
from tiletable.engine.errors import E_OVER, E_PHASE, IllegalAction, RulesetError
from tiletable.engine.rulesets import canonical_json
from tiletable.engine.state import CHANCE, SIMULTANEOUS, TERMINAL
from tiletable.proto.messages import E_NO_MEMORY, EV_ERROR, EV_PLAY, EV_SCORE, EV_TAG_WRITE, EV_ZONE
from tiletable.runtime.identity import uid_hex
from tiletable.runtime.menu import Menu
from tiletable.runtime.starter import GameStarter, JournalFull, NoRoom
from tiletable.runtime.tray import PLACED, READER_FAULT, REMOVED, SEEN, TAG_WRITTEN, UNKNOWN_TAG, UNSEEN
from tiletable.runtime.ui import error_text

OUTBOX_SIZE = 32

# What the table asks of the app, which owns the board and the link (``Table.intents``):
INTENT_MAINTENANCE = "maintenance"  # MENU held: leave protocol mode for the REPL
INTENT_SELF_TEST = "self test"  # OK held in the menu: run the hardware self test
INTENT_RESTART_INTO = "restart into"  # (.., game, player names): the menu's start wants a fresh heap

MODE_MENU = "menu"
MODE_GAME = "game"
MODE_OVER = "over"
FINAL_FLIP_MS = 1500  # the final screen alternates each seat's place and final score
_ORDINALS = ("1St", "2nd", "3rd", "4th")


class Table:
    """The table of ``board``, shown on ``ui``, its matches kept in ``journal``; ``rulestore``
    the installed rulesets (None: the presets alone), ``clock`` seconds since 1970 for journal
    headers (or None), ``policy`` the build's heap policy (tiletable/heap.py; by default
    ``build_policy()``'s)."""

    def __init__(self, board, ui, journal, rulestore=None, clock=None, policy=None):
        if policy is None:
            from tiletable.heap import build_policy

            policy = build_policy()
        self.board = board
        self.ui = ui
        self.journal = journal
        self.rulestore = rulestore
        self.clock = clock  # seconds since 1970 for journal headers, or None
        self.policy = policy
        self.starter = GameStarter(self, policy)
        self.menu = Menu(rulestore, policy)
        self.mode = MODE_MENU
        self.session = None  # the match in play (or over, on the final screen)
        self.profile = None
        self.controller = None
        self.hot_zone = None  # the pad a tile is most likely laid on next (see _aim_tray)
        self.zones_in_use = None  # the zones of the game in progress, None for all
        self.outbox = []
        self.events_lost = 0
        self.last_error = None
        self.intents = []  # what the table asks the app to do, in order (INTENT_*; App.buttons)
        self.selftest_status = None  # "running", then the last self test's result (STATE)
        self._held_long = bytearray(BUTTON_UNDO + 1)  # the press became long or double: no short press
        self.quiet_until = None  # after a resume: pieces lying on the pads until then are no plays
        self._preview = None  # the verdict a preview flashed for a tile not yet confirmed
        self._final_places = True  # the final screen shows places (else the final scores)
        self._final_due = None  # when it flips next; None: at the next tick's time + FINAL_FLIP_MS
        self.aside = None  # the end record's result of the game a start set aside (GameStarter.set_aside)

    # ----- lifecycle

    def boot(self, now_ms, opens_on=None):
        """Resume the match the journal has in progress, else open the menu: on ``opens_on``
        (``(game, player count)``: the game a restart is for, which App.start_pending starts
        next), else on the game played last."""
        if self.journal.in_session:
            try:
                if self.starter.resume(now_ms):
                    return
            except (RulesetError, ValueError, KeyError) as exc:
                self.report(0, E_OVER, "cannot resume: %s" % exc, now_ms)
                self.journal.end_session({"reason": "unresumable"})
        if opens_on:
            self.menu.select(opens_on[0], opens_on[1])
        else:
            sessions = self.journal.sessions()
            if sessions and sessions[-1]["header"] is not None:  # the menu opens on the last game
                header = sessions[-1]["header"]
                self.menu.select(header.get("ruleset"), len(header.get("players", ())))
            self.menu.read_ahead()
        self.open_menu()

    def open_menu(self):
        self.mode = MODE_MENU
        self.ui.turn(None)
        self.redraw()

    def begin(self, session, profile, controller):
        """Play ``session`` (its game just started or resumed by the starter) on ``profile``'s
        zones with the family's ``controller`` class."""
        state = session.state
        self.menu.select(session.ruleset.name, state.players)
        self.session = session
        self.profile = profile
        self.ui.leds = status_leds(self.board, profile.seat_leds(state.players), profile.end_leds())
        self.ui.clear_messages()
        self.controller = controller(self)
        self.mode = MODE_OVER if state.is_over() else MODE_GAME

    def stop(self):
        """End the match in progress (journalled as stopped) and go back to the menu."""
        if self.journal.in_session:
            self.end_session("stopped")
        self.session = None
        self.controller = None
        self.open_menu()

    def end_session(self, reason, flush=True):
        """End the journal's session: with the result the game had when it was set aside, if
        it was, else the match's (``flush``: see ``Journal.end_session``)."""
        result = self.aside
        if result is None:
            result = self.session.result(reason) if self.session is not None else {"reason": reason}
        self.aside = None
        self.journal.end_session(result, flush)

    def now_s(self):
        return self.clock() if self.clock is not None else None

    # ----- inputs

    def zone_event(self, event, now_ms):
        kind = event.kind
        if kind == UNSEEN:  # the tray did not confirm the tile a preview was for
            if self._preview is not None:
                self._preview = None
                self.ui.preview(None, now_ms)
            return
        if kind == SEEN:  # a tile read once on the mover's pad: its verdict while the tray confirms it
            role_of = self.profile.role_of if self.mode == MODE_GAME and self.quiet_until is None else ()
            if event.zone in role_of:
                role, a, b = role_of[event.zone]
                verdict = self.controller.preview(role, a, b, event.items[0])
                if verdict is not None:
                    self._preview = verdict
                    self.ui.preview(verdict, now_ms)
            return
        if kind == READER_FAULT:
            self.report(0, 0, "reader of zone %d: %s" % (event.zone, event.reason), now_ms, "rdr%d" % event.zone)
            return
        if kind == TAG_WRITTEN:
            self.send(EV_TAG_WRITE, {"zone": event.zone, "uid": uid_hex(event.uid), "failure": event.reason or ""})
            return
        if kind == UNKNOWN_TAG and self.mode != MODE_GAME:
            return  # between games (enrolment, inventory) a blank tag is expected, not an error
        if kind == UNKNOWN_TAG:
            self.report(self._seat_of_zone(event.zone), 0, "zone %d: unusable tag: %s" % (event.zone, event.reason), now_ms, "tAG?")
            return
        if kind not in (PLACED, REMOVED):
            return
        present = 1 if kind == PLACED else 0
        for identity in event.items:
            self.send(EV_ZONE, {"zone": event.zone, "tag": tagrecord.item_text(identity[0], identity[2]), "present": present})
        settling = self.quiet_until is not None and ticks_diff(now_ms, self.quiet_until) < 0
        if not settling:
            self.quiet_until = None
        if self.mode == MODE_GAME and self.profile is not None and event.zone in self.profile.role_of:
            role, a, b = self.profile.role_of[event.zone]
            if settling:  # pieces lying since before the restart: where they lie, not plays
                self.controller.on_lying(role, a, b, event)
            else:
                self.controller.on_zone(role, a, b, event, now_ms)
            self.redraw()
        self._preview = None  # PLACED answered it

    def button_event(self, event, now_ms):
        """A button event from the driver. A short press counts when the button is let go
        without having become a long or double press, so a long press never also acts as a
        press; the controllers see PRESS (short), LONG and DOUBLE."""
        button = Buttons.button_of(event)
        kind = Buttons.kind_of(event)
        if kind == Buttons.PRESS:
            self._held_long[button] = 0
            return
        if kind == Buttons.RELEASE:
            if self._held_long[button]:
                return
            kind = Buttons.PRESS
        else:
            self._held_long[button] = 1
        self._button(button, kind, now_ms)

    def _button(self, button, kind, now_ms):
        if self.aside is not None:
            return  # a start that set the game in progress aside is under way (start_steps)
        if button == BUTTON_MENU:
            if kind == Buttons.LONG:
                self.intents.append((INTENT_MAINTENANCE,))
            elif kind == Buttons.PRESS:
                if self.mode == MODE_MENU and self.session is not None:
                    self.mode = MODE_OVER if self.session.state.is_over() else MODE_GAME
                elif self.mode != MODE_MENU:
                    self.mode = MODE_MENU
                self.redraw()
            return
        if self.mode == MODE_MENU:
            self._menu_button(button, kind, now_ms)
        elif button == BUTTON_UNDO:
            if kind == Buttons.PRESS:
                self.undo(now_ms)
        elif button == BUTTON_OK:
            if kind == Buttons.PRESS:
                if self.mode == MODE_OVER:
                    self.stop()
                else:
                    self.controller.on_ok(now_ms)
        elif button < SEATS and self.mode == MODE_GAME and button < self.session.state.players:
            self.controller.on_button(button, kind, now_ms)
        self.redraw()

    def _menu_button(self, button, kind, now_ms):
        menu = self.menu
        if button == BUTTON_OK and kind == Buttons.LONG:
            self.intents.append((INTENT_SELF_TEST,))
        elif button == BUTTON_OK and kind == Buttons.PRESS:
            names = ["P%d" % (s + 1) for s in range(menu.players)]
            try:
                self.starter.start(menu.name, names, now_ms)
            except JournalFull:
                pass  # start() said so on the display
            except NoRoom as exc:
                if self.policy.restart_may_help:
                    self.intents.append((INTENT_RESTART_INTO, menu.name, names))
                else:
                    self.report(0, E_NO_MEMORY, str(exc), now_ms)
            except (RulesetError, ValueError) as exc:
                self.report(0, 0, str(exc), now_ms, "Err")
        elif button < SEATS and kind == Buttons.PRESS:
            menu.next_game()
        elif button < SEATS and kind == Buttons.LONG:
            menu.next_players()
        self.redraw()

    def tick(self, now_ms):
        """Timers: the UI's messages and flashes, the controller's (e.g. a stable Da San lay)."""
        if self.ui.tick(now_ms):
            self.redraw()
        if self.mode == MODE_GAME and self.controller is not None and self.controller.tick(now_ms):
            self.redraw()
        if self.mode == MODE_OVER:
            if self._final_due is None:
                self._final_due = ticks_add(now_ms, FINAL_FLIP_MS)
            elif ticks_diff(now_ms, self._final_due) >= 0:
                self._final_places = not self._final_places
                self._final_due = ticks_add(now_ms, FINAL_FLIP_MS)
                self.redraw()
        self.ui.show()

    def has_timers(self):
        """Whether something will happen by itself soon (a press held back for a possible
        double press); a simulation fast-forwards until it has."""
        return self.mode == MODE_GAME and self.controller is not None and self.controller.has_timers()

    def dealing(self):
        """Whether the table is dealing by itself, a few pieces a step (a line or train game's
        deal after OK): what it journals meanwhile may wait for the rest of the deal
        (App.buttons), and so do the players' tiles and presses (App._table_step)."""
        return self.mode == MODE_GAME and self.controller is not None and self.controller.deal_going

    # ----- acting on the engine

    def act(self, action, seat, now_ms, quiet=False):
        """Play ``action`` (engine value or canonical text) checked; journal it and announce it.

        Returns True when accepted (STATE's last error is cleared). A rejected action shows
        ``Err<code>`` on ``seat``, flashes red and buzzes (``reject``); the state is unchanged.
        """
        session = self.session
        try:
            action = session.check(action)
        except IllegalAction as exc:
            self.reject(seat, exc.code, exc.reason, now_ms)
            return False
        if not quiet:
            if self._preview is not True:  # (a preview flashes green already)
                self.ui.legal(now_ms)  # first of all, the check passed: what the player waits for
            self.ui.clear_messages()  # an Err still up would hide the play's digits: the play replaces it
        state = session.state
        actor = state.current_player()
        before = len(state.score_events)
        text = session.apply(action, now_ms)
        self.last_error = None  # what was wrong before is no longer what the table says
        self.send(EV_PLAY, {"seat": actor if actor >= 0 else 255, "action": text, "journal_seq": session.seqs[-1]})
        for event in state.score_events[before:]:
            self.send(EV_SCORE, {"seat": event.seat, "points": self.controller.score_text(event.points), "rule": event.rule})
        if state.is_over():  # its end goes to flash with this play, after the display (App.buttons)
            self.end_session("over", flush=False)
            self.mode = MODE_OVER
            self._final_places = True  # the final screen opens on the places
            self._final_due = None
            self.ui.chime(now_ms)
        return True

    def reject(self, seat, code, reason, now_ms):
        """An illegal play: ``Err<code>`` on ``seat``'s display, the buzz, and ``reason`` (the
        engine's words) for people in STATE's last error and an EV_ERROR event."""
        self.ui.illegal(seat, code, now_ms, self._preview is not False)  # (a preview flashes red already)
        self._error(code, reason)

    def report(self, seat, code, message, now_ms, text=None):
        """A problem that is not an illegal play (unusable tag, reader fault, a broken rule found
        at the reveal): a message on ``seat``'s display, the buzz, and an EV_ERROR event."""
        self.ui.problem(seat, text or error_text(code), now_ms)
        self._error(code, message)

    def _error(self, code, text):
        text = self.for_people(text)
        self.last_error = (code, text)
        self.send(EV_ERROR, {"code": code, "message": _short(text)})

    def for_people(self, text):
        """An engine sentence as people read it: each seat ``P<n>`` (from 0) as ``seat_name``
        names it, each ``hand <n>`` counted from 1 (errors only: never in the scan)."""
        words = text.split(" ")
        for i in range(len(words)):
            word = words[i]
            if word[:1] == "P" and word[1:2].isdigit() and not word[2:3].isdigit():
                words[i] = self.seat_name(int(word[1])) + word[2:]
            elif i and words[i - 1] == "hand" and word[:1].isdigit():
                digits = word.rstrip(",:")
                words[i] = str(int(digits) + 1) + word[len(digits) :]
        return " ".join(words)

    def undo(self, now_ms):
        """Take back the last action (and the automatic ones that came with it, e.g. the
        unseen tile of a draw); each is amended in the journal with REC_UNDO, never deleted."""
        session = self.session
        state = session.state if session is not None else None
        if state is None or not state.history or self.mode != MODE_GAME:
            # a finished match's session is closed: its journal stays as it ended
            self.reject(0, E_OVER, "nothing to undo", now_ms)
            return False
        if not self.controller.can_undo():
            self.reject(0, E_PHASE, "the last hand is over: its plays are kept", now_ms)
            return False
        while state.history:
            before = state.action_str(state.history[-2]) if len(state.history) > 1 else None
            last, seq = self.session.undo_last()
            self.send(EV_PLAY, {"seat": 255, "action": "undo " + last, "journal_seq": seq})
            if before is None or not self.controller.joins_previous(before, last):
                break
        self.last_error = None
        self.controller.reset()
        self.ui.chime(now_ms)
        self.redraw()
        return True

    def send(self, msg_type, fields):
        """Queue a link event; the oldest is dropped (and counted) when nobody reads them."""
        if len(self.outbox) >= OUTBOX_SIZE:
            self.outbox.pop(0)
            self.events_lost += 1
        self.outbox.append((msg_type, fields))

    def seat_name(self, seat):
        """What people call ``seat`` (from 0): its player's name, else ``P<seat + 1>``. Prompts
        and error texts use it; the engine's sentences count seats from 0 (``for_people``)."""
        names = self.session.player_names if self.session is not None else ()
        return names[seat] if 0 <= seat < len(names) and names[seat] else "P%d" % (seat + 1)

    def _seat_of_zone(self, zone):
        if self.profile is not None and zone in self.profile.role_of:
            role, a, b = self.profile.role_of[zone]
            if role == "seat":
                return a
            if role == "assign":
                return b
        return 0

    # ----- output

    def redraw(self):
        """Draw the steady view: the menu, the game's (the controller's), or the final scores."""
        ui = self.ui
        if self.mode == MODE_MENU:
            self.menu.refresh()
            ui.text(0, self.menu.label())
            ui.text(1, "%dP" % self.menu.players)
            for seat in range(2, ui.seats):
                ui.blank(seat)
            ui.candidate_ends(0)  # a column match's last results stay lit until the next game
        elif self.mode == MODE_OVER:
            state = self.session.state
            places = final_places(state) if self._final_places else None
            for seat in range(ui.seats):
                if seat >= state.players:
                    ui.blank(seat)
                elif places is not None:
                    ui.text(seat, places[seat])
                else:
                    self.controller.draw_score(seat)
            ui.turn(None)
            ui.candidate_ends(0)
            self.controller.draw_final()
        else:
            self.controller.draw()
        ui.show()
        self._aim_tray()

    def _aim_tray(self):
        """Tell the tray (through ``hot_zone`` and ``zones_in_use``, which the app passes on) the
        pad a tile is most likely laid on next, and the zones the game in progress uses."""
        if self.mode == MODE_GAME and self.controller is not None:
            self.hot_zone = self.controller.hot_zone()
            self.zones_in_use = self.profile.zone_ids
        else:
            self.hot_zone = None
            self.zones_in_use = None

    def snapshot(self, extra=None):
        """The table as JSON text for the STATE request, with ``extra``'s entries (the app's);
        ``scores`` in the unit people read (Buki: chips, ``37.5`` for a half chip)."""
        view = {"mode": self.mode, "menu": [self.menu.name, self.menu.players]}
        if extra:
            view.update(extra)
        session = self.session
        if session is not None:
            state = session.state
            actor = state.current_player()
            view["ruleset"] = session.ruleset.name
            view["players"] = state.players
            view["hand"] = state.hand_number
            view["actions"] = len(state.history)
            view["to_act"] = {CHANCE: "chance", SIMULTANEOUS: "all", TERMINAL: "over"}.get(actor, actor)
            view["prompt"] = self.controller.prompt()
        if self.last_error is not None:
            view["last_error"] = [self.last_error[0], self.last_error[1]]
        if self.events_lost:
            view["events_lost"] = self.events_lost
        if self.selftest_status is not None:
            view["selftest"] = self.selftest_status
        text = canonical_json(view)
        if session is None:
            return text
        # the scores as JSON numbers in the unit people read: Buki's chips may be decimals
        # (37.5), which canonical JSON has no form for, so they are written here, last
        score_text = self.controller.score_text
        return '%s,"scores":[%s]}' % (text[:-1], ",".join([score_text(points) for points in session.state.scores]))


def final_places(state):
    """What each seat's group shows on the final screen: its place (``1St`` for every winner,
    then ``2nd``... by score, equal scores sharing a place; the lowest first where it wins, as in
    Mexican Train), or ``tIE`` for all in a drawn match."""
    winners = state.outcome().winners
    if not winners:
        return ["tIE"] * state.players
    lowest_first = getattr(state, "lowest_wins", False)
    behind = sorted(set(state.scores[s] for s in range(state.players) if s not in winners), reverse=not lowest_first)
    return [_ORDINALS[0 if s in winners else 1 + behind.index(state.scores[s])] for s in range(state.players)]


def _short(text):
    """An EV_ERROR message fits a ``str`` field (255 bytes)."""
    return text if len(text) < 250 else text[:247] + "..."
