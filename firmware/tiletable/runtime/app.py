"""The firmware's services: tray scan, buttons, table, display, link, journal.

``assemble()`` builds the runtime's parts from a ``Board`` (board/setup.py), for main.py, the
simulated table (sim/device.py) and the tests alike, and hands them to an ``App``, which
schedules them: it publishes its services (``services()``: a synchronous step and a period
each), so the same code runs as asyncio tasks on the Pico (``run()``, gathered by main.py)
and step by step in a simulation that runs them on its own clock. Nothing here imports
``machine``.

Services (``services()``): the tray scan (as fast as the readers' field settling allows), the
buttons, the table's timers and the journal's flush of what the table accepted (every 10 ms),
the USB link (every 5 ms; every 1 ms during a transfer, at once while a full chunk came in or
a ruleset commit or a game start goes on in steps), and the watchdog (every 100 ms: a task
that hangs stops the feeding and the watchdog resets the board; the table then resumes from
the journal; where the heap policy has one, a ``Warmer`` readies the menu's game,
runtime/warmup.py). What the app does for room is its heap policy's (tiletable/heap.py).
"""
import gc
from binascii import crc32

try:
    import asyncio
except ImportError:  # older MicroPython builds
    import uasyncio as asyncio

from tiletable.board import pins
from tiletable.drivers.clock import ticks_diff
from tiletable.engine.errors import RulesetError
from tiletable.heap import EVERY, RESTART_SPARE, build_policy, forget_failed_imports
from tiletable.proto.messages import E_BAD_VALUE, E_JOURNAL_FULL, E_NO_MEMORY, GAME_START, GAME_STOP, RESTARTS_INTO, SET_CLOCK, STATE, ProtocolError
from tiletable.proto.messages import E_NOT_FOUND, EV_SELF_TEST, SELF_TEST, TAG_SCAN, TAG_WRITE, UID_PUT
from tiletable.proto.server import LinkServer
from tiletable.runtime.identity import Resolver, UidTable
from tiletable.runtime.journal import Journal
from tiletable.runtime.rulestore import RuleStore
from tiletable.runtime.starter import FIRMWARE, JournalFull, NoRoom
from tiletable.runtime.table import INTENT_MAINTENANCE, INTENT_RESTART_INTO, INTENT_SELF_TEST, Table
from tiletable.runtime.tray import Tray
from tiletable.runtime.ui import TableUi
from tiletable.runtime.usblink import CHUNK, UsbLink
from tiletable.runtime.wallclock import WallClock

DEVICE = "tiletable"
_BUTTON_MS = 10
_LINK_MS = 5
# During a transfer (a request in the last _TRANSFER_MS) the link looks every _LINK_BUSY_MS: a
# pull or a sync is a request, its reply, the next request; at 5 ms the next request waited
# 2.5 ms on average, as long as the reply took. Output alone does not count: a PC that has
# stopped reading would keep the link polling every millisecond.
_LINK_BUSY_MS = 1
_TRANSFER_MS = 50
_HOUSEKEEPING_MS = 100
# Where the heap policy says so (a frozen build), in play: a garbage collection just after a
# play, at most this often (App._collect_in_play).
_COLLECT_IN_PLAY_MS = 2000
_UPLOADS_QUIET_MS = 1000  # a link this long quiet after ruleset uploads has ended their row (LinkServer)
# The services, in the order of ``App.services()`` and ``App.longest_us``: each one's longest
# step since the last STATE request (a step holds the loop: nothing else runs until it returns).
SERVICES = ("scan", "buttons", "link", "housekeeping")


def device_name(unique_id):
    """``tiletable-<hex>`` from ``machine.unique_id()``, so a PC tells two tables apart."""
    if not unique_id:
        return DEVICE
    return DEVICE + "-" + "".join("%02x" % b for b in unique_id)


def assemble(board, instream, outstream, ticks_ms, root="", unique_id=None, ticks_us=None, policy=None, collector=gc, crc=crc32, meter=None):
    """The ``App`` on ``board``, its link on ``instream``/``outstream`` (the USB serial
    streams), its files under ``root``. ``ticks_ms`` is the clock (``time.ticks_ms`` on the
    Pico), ``ticks_us`` the tray's finer one for its fields' settling (``time.ticks_us``;
    without it the tray counts in milliseconds); ``unique_id`` (``machine.unique_id()``)
    names the device to the PC. ``policy``: the heap policy (tiletable/heap.py: its link
    queue and intake, a ``Warmer``, collections in play, what it unloads), by default the one
    of the build this runs on (``build_policy()``; the simulated table, whose sources stand for
    a frozen chip where its work is charged, passes a frozen build's). What a simulation does differently comes in with the chip's
    defaults: ``collector`` makes the link server's and the app's garbage collections
    (``gc``), ``crc`` the link frames' CRC-32 (``binascii.crc32``), and ``meter`` (see
    ``App``)."""
    if policy is None:
        policy = build_policy()
    board.buttons.enable_irq(ticks_ms)  # an idle table reads no button pin until one moves; no tap is lost
    tray = Tray(
        board.readers,
        Resolver(UidTable.read(root + "/uids.json")),
        fields=pins.READER_FIELDS_ON,
        conflicts=pins.READER_FIELD_CONFLICTS,
        ticks_us=ticks_us,
    )
    journal = Journal(root + "/journal")
    rulestore = RuleStore(root + "/rulesets", FIRMWARE, policy)
    wall_clock = WallClock(ticks_ms)
    table = Table(board, TableUi(board.display, board.buzzer), journal, rulestore, wall_clock.now_s, policy)
    server = LinkServer(rulestore, journal, FIRMWARE, device_name(unique_id), policy, collector, crc)
    link = UsbLink(server, instream, outstream, policy.link_room, policy.native_intake)
    return App(board, tray, table, server, link, wall_clock, policy, ticks_ms, root, ticks_us, collector, meter)


# The services wake about 600 times a second at idle: each wake's sleep is asyncio's own,
# looked up once here, and each step's time is noted in place, not through a helper call
# (the chip's idle CPU busy 76.0 -> 74.8 %).
if hasattr(asyncio, "sleep_ms"):
    _sleep_ms = asyncio.sleep_ms
else:  # CPython

    def _sleep_ms(ms):
        return asyncio.sleep(ms / 1000)


class App:
    """The table's services on the parts ``assemble()`` made: the board, its ``tray``, the
    ``table`` (with its journal and display), the link ``server`` and the USB ``link``, the
    ``wall_clock``. ``ticks_ms`` is the clock (``time.ticks_ms`` on the Pico), ``ticks_us``
    the finer one its steps are timed by (``time.ticks_us``); ``root`` the folder of the
    table's files; ``policy`` the heap policy (tiletable/heap.py: a ``Warmer``, collections
    in play, what it unloads); ``collector`` makes its garbage collections (``gc``). ``meter``:
    a simulation that charges the chip's time for the firmware's work (sim/device.py), None on
    the chip: ``meter.run(call, *args)`` runs the table's work on the tray's events, and
    ``meter.scanned()`` hears that the tray's poll is over, before the scan works out its wait."""

    def __init__(self, board, tray, table, server, link, wall_clock, policy, ticks_ms, root="", ticks_us=None, collector=gc, meter=None):
        self._restart_spare = bytearray(RESTART_SPARE)
        self.policy = policy
        self.board = board
        self.ticks_ms = ticks_ms
        self._ticks_us = ticks_us if ticks_us is not None else (lambda: ticks_ms() * 1000)
        self.gc = collector
        self.meter = meter
        self.longest_us = [0] * len(SERVICES)  # see SERVICES; reported and reset by STATE
        self.wdt = None  # main.py starts the watchdog once the boot (journal check, resume) is over
        self._uid_table = root + "/uids.json"
        self.tray = tray
        self.table = table
        self.journal = table.journal
        self.wall_clock = wall_clock
        self.server = server
        self.link = link
        self.server.steps = True  # a commit or a game start gives the loop back between its steps
        self.server.register(GAME_START, self._game_start, "game", stepped=True)
        self.server.register(GAME_STOP, self._game_stop, "game")
        self.server.register(STATE, self._state, "game")
        self.server.register(SET_CLOCK, self._set_clock, "clock")
        # the hardware self test (runtime/selftest.py, imported only while one runs)
        self.server.register(SELF_TEST, self._self_test, "selftest")
        self.selftest = None
        self.selftest_report = None  # (summary, rows) of the last test since boot
        # enrolment (runtime/tags.py, imported on the first tag request)
        self._tags = None
        self.server.register(TAG_SCAN, self._tag_handler("scan"), "tags")
        self.server.register(TAG_WRITE, self._tag_handler("write"), "tags")
        self.server.register(UID_PUT, self._tag_handler("uid_put"), "tags")
        self._selftest_flag = root + "/selftest.done"
        self._selftest_shown = 0
        self._start_flag = root + "/start.json"
        self.restart_requested = False  # main.py resets the board (no maintenance flag)
        self.link_read_ms = None  # ticks_ms of the last poll that read a request's bytes
        make = policy.warmer
        self.warmer = make(self) if make else None  # readies the menu's game at idle (runtime/warmup.py)
        self.collects_in_play = policy.collects_in_play  # not where collections come by bytes allocated (tiletable/heap.py)
        # the bytes between collections tiletable/heap.py's keep_packed set (copied .mpy files; a
        # frozen build and CPython set none): held off in scan steps, then its setting as it is
        # then (heap.EVERY: a row of uploads changes it) put back (App.scan)
        threshold = collector.threshold() if hasattr(collector, "threshold") else -1
        self._threshold = threshold if threshold > 0 else None
        self._collected_ms = ticks_ms()
        self._collected_after = 0  # the table's count of journalled actions at that collection
        self.running = True
        self.table.boot(ticks_ms(), self._restarted_for())

    # ----- link handlers

    def _game_start(self, fields):
        """GAME_START, in the table's steps (a generator: see LinkServer ``steps``)."""
        self._refuse_during_selftest()
        players = fields["players"]
        seats = self.table.ui.seats
        if not 2 <= len(players) <= seats:
            raise ProtocolError(E_BAD_VALUE, "%d players; the table seats 2 to %d" % (len(players), seats))
        try:
            for session in self.table.starter.start_steps(fields["ruleset"], players, self.ticks_ms()):
                if session is None:
                    yield None
        except KeyError:
            raise ProtocolError(E_BAD_VALUE, "no game %r on this table" % fields["ruleset"])
        except RulesetError:
            raise  # the server answers it with E_RULESET
        except JournalFull as exc:
            raise ProtocolError(E_JOURNAL_FULL, str(exc))
        except NoRoom as exc:
            if self.policy.restart_may_help and self.restart_into(fields["ruleset"], players):
                raise ProtocolError(E_NO_MEMORY, "%s: %s" % (exc, RESTARTS_INTO))
            raise ProtocolError(E_NO_MEMORY, str(exc))
        except ValueError as exc:
            raise ProtocolError(E_BAD_VALUE, str(exc))
        yield {"session": session}

    # ----- a restart into a game (copied .mpy files: games played leave the heap in pieces)

    def restart_into(self, ruleset, players):
        """Leave a note of the game to start and stop the services: main.py resets the board,
        and the next boot starts the game on a heap nothing has cut up yet. False when the
        note cannot be written (no restart then)."""
        import json
        import os

        self._restart_spare = None  # its room is the note's
        self.gc.collect()
        note = self._start_flag + ".tmp"
        try:
            with open(note, "w") as f:
                f.write(json.dumps({"ruleset": ruleset, "players": players}))
            os.rename(note, self._start_flag)
        except (OSError, MemoryError):
            return False
        self.restart_requested = True
        self.running = False
        return True

    def _restarted_for(self):
        """``(game, player count)`` of the game a restart is for (``restart_into``'s note), or
        None: the menu opens on it, and reads no other game's family for that."""
        import os

        try:
            os.stat(self._start_flag)
        except OSError:
            return None
        import json

        try:
            with open(self._start_flag) as f:
                pending = json.loads(f.read())
            return pending["ruleset"], len(pending["players"])
        except (OSError, ValueError, KeyError, TypeError, MemoryError):
            return None  # start_pending reports what it can

    def start_pending(self, now_ms):
        """Start the game a restart was for (once: the note goes first), when the services
        run (before the link answers anything): whether the game leaves room to be played is
        judged on the heap they hold (the link service's first run, ``services()``: the scan
        and the buttons have run once, as the link has not). A game the journal resumed comes
        first; a game that does not fit now is reported, not retried."""
        import json
        import os

        try:
            os.stat(self._start_flag)  # the usual boot: no note, and no file buffer taken for it
        except OSError:
            return
        try:
            with open(self._start_flag) as f:
                pending = json.loads(f.read())
        except (OSError, ValueError):
            pending = None  # unreadable (cut short as it was written): nothing to start
        except MemoryError:
            pending = None
            self.table.report(0, E_NO_MEMORY, "not enough memory on this table for the game it restarted for", now_ms)
        try:
            os.remove(self._start_flag)
        except OSError:
            pass
        if pending is None or self.journal.in_session:
            return
        try:
            self.table.starter.start(pending["ruleset"], pending["players"], now_ms)
        except NoRoom as exc:
            self.table.report(0, E_NO_MEMORY, str(exc), now_ms)
        except (RulesetError, ValueError, KeyError, TypeError) as exc:
            self.table.report(0, E_BAD_VALUE, "cannot start the game the table restarted for: %s" % exc, now_ms)

    def _game_stop(self, fields):
        self._refuse_during_selftest()
        self.table.stop()
        return {}

    def _state(self, fields):
        """The table's snapshot, with each service's longest step since the last STATE (µs)."""
        longest = self.longest_us
        snapshot = self.table.snapshot({"longest_us": dict(zip(SERVICES, longest)), "journal": self.journal.identity})
        for index in range(len(longest)):
            longest[index] = 0
        return {"snapshot": snapshot}

    def _set_clock(self, fields):
        """Set the wall clock; a session in progress notes it (its header had no time, or an old one)."""
        self.wall_clock.set(fields["unix"])
        if self.journal.in_session:
            self.journal.log_clock(fields["unix"])
        return {}

    # ----- the hardware self test (hardware/README.md "First-run self test")

    def start_selftest(self, now_ms):
        """Start the self test; returns why not (a sentence) when a game is in progress or a
        test runs already, else None. The table ignores zones and buttons until it is over."""
        if self.selftest is not None:
            return "the self test is running already"
        if self.journal.in_session:
            return "a game is in progress: stop it before the self test"
        from tiletable.runtime.selftest import SelfTest

        self.selftest = SelfTest(self.board)
        self._selftest_shown = 0
        self.table.selftest_status = "running"
        return None

    def selftest_on_first_boot(self, now_ms):
        """Start the self test if none ever completed on this table (no flag file) and no game
        is to be resumed; True when it started (main.py calls this once at boot)."""
        try:
            import os

            os.stat(self._selftest_flag)
            return False
        except OSError:
            pass
        return not self.journal.in_session and self.start_selftest(now_ms) is None

    def _selftest_step(self, now_ms):
        test = self.selftest
        buttons = self.board.buttons
        event = buttons.get()
        while event is not None:
            test.button_event(event)
            event = buttons.get()
        finished = test.step(now_ms)
        if test.shown != self._selftest_shown and not finished:
            self._selftest_shown = test.shown
            self.table.send(EV_SELF_TEST, {"done": 0, "shows": test.shows, "results": []})
        if finished:
            self._selftest_finish(test)
        self.send_events()

    def _selftest_finish(self, test):
        self.selftest = None
        self.selftest_report = (test.summary, test.results)
        self.table.selftest_status = test.summary
        try:
            with open(self._selftest_flag, "w") as flag:
                flag.write(test.summary)
        except OSError:
            pass  # the test runs again at the next boot
        self._send_selftest_report()
        self.table.ui.clear_messages()
        self.table.open_menu()
        self.policy.unload("tiletable.runtime.selftest")

    def _send_selftest_report(self):
        summary, rows = self.selftest_report
        results = [{"part": p, "item": i, "status": s, "detail": d} for p, i, s, d in rows]
        self.table.send(EV_SELF_TEST, {"done": 1, "shows": summary, "results": results})

    def _self_test(self, fields):
        """SELF_TEST: ``run`` 1 starts a test, 0 sends the last report again as an event."""
        if fields["run"]:
            refused = self.start_selftest(self.ticks_ms())
            if refused:
                raise ProtocolError(E_BAD_VALUE, refused)
        elif self.selftest_report is None:
            raise ProtocolError(E_NOT_FOUND, "no self test has completed since boot")
        else:
            self._send_selftest_report()
        return {}

    def _tag_handler(self, name):
        def handle(fields):
            if self._tags is None:
                from tiletable.runtime.tags import TagService

                self._tags = TagService(self.tray, self._uid_table, self._why_tags_are_locked)
            return getattr(self._tags, name)(fields)

        return handle

    def _why_tags_are_locked(self):
        """Enrolment changes what tiles are: never while a game or the self test runs."""
        if self.journal.in_session:
            return "a game is in progress: stop it before enrolling tags"
        if self.selftest is not None:
            return "the self test is running"
        return None

    def _refuse_during_selftest(self):
        if self.selftest is not None:
            raise ProtocolError(E_BAD_VALUE, "the self test is running")

    # ----- one step of each service

    def services(self):
        """The services, in ``SERVICES``' order, each as (step, period, first): ``step(now_ms)``
        runs it once and returns the ms until it is due again, or None for its ``period``;
        ``first(now_ms)``, where not None, runs once before the first step, in the same run
        (the link's: ``start_pending``). ``run()`` runs them as asyncio tasks; the simulated
        table on its own clock (sim/device.py)."""
        return (
            (self.scan_step, _BUTTON_MS, None),
            (self.buttons, _BUTTON_MS, None),
            (self.serve_wait, _LINK_MS, self.start_pending),
            (self.housekeeping, _HOUSEKEEPING_MS, None),
        )

    def scan_step(self, now_ms):
        """The scan service: a scan, then the ms until the tray has work again (as fast as the
        readers' fields settle); None while the self test has the readers."""
        if self.selftest is not None:
            return None
        self.scan(now_ms)
        if self.meter is not None:
            self.meter.scanned()
        wait = ticks_diff(self.tray.next_poll_ms(now_ms), now_ms)
        return wait if wait > 0 else 0

    def scan(self, now_ms):
        """Poll the tray once and hand its confirmed events to the table; what they change is
        shown at once (not at the next timer tick), and the tray is told which pad to watch.

        Where collections come every ``threshold`` bytes allocated (copied .mpy files), none
        starts in a scan step, nor while a tile previewed on the mover's pad awaits its
        confirmation: the steps that read a tile allocate most (its read, the verdict, the
        play), and on the chip one tile in ten met a collection there, 30 ms between the tile
        and its LEDs. The collection that came due goes at the next allocation of another
        service, once the play is shown. (A heap that is full still collects at once.)"""
        if self.selftest is not None:
            return  # the self test has the readers
        if self._threshold is not None:  # (no local here: this frame stays within 11 words)
            self.gc.threshold(-1)
        try:
            self._scan(now_ms)
        except MemoryError:
            self._out_of_heap()
        if self._threshold is not None and not self.tray.previews:
            self.gc.threshold(EVERY[0])

    def _scan(self, now_ms):
        # Apart from scan()'s try block: a call whose frame needs more than 11 words (locals,
        # stack, 3 per try block) has it allocated on the heap by MicroPython, every call.
        tray = self.tray
        table = self.table
        tray.poll(now_ms)
        event = self._next_zone_event()
        if event is not None:
            if self.meter is None:
                self._zone_events(event, now_ms)
            else:
                self.meter.run(self._zone_events, event, now_ms)
        tray.hot = table.hot_zone
        tray.active = table.zones_in_use

    def _zone_events(self, event, now_ms):
        table = self.table
        while event is not None:
            table.zone_event(event, now_ms)
            event = self._next_zone_event()
        table.tick(now_ms)

    # While the table deals by itself after OK (a few pieces a step: half a second on a stock
    # chip), what the players do waits in the tray's and the buttons' queues; from then on each
    # queue gives way to the other's older input, so the table takes it in the order it came: a
    # tile laid at once after OK is the mover's play, not a scan of a hand, and a press then is
    # the mover's draw, not one out of turn.

    def _next_zone_event(self):
        """The tray's next confirmed event for the table, or None (see above)."""
        events = self.tray.events
        event = events.peek()
        if event is None or self.table.dealing() or self.board.buttons.queued_before(event.time_ms):
            return None
        return events.get()

    def _next_button_event(self):
        """The buttons' next event for the table, or None (see above)."""
        buttons = self.board.buttons
        if self.table.dealing():
            return None
        zone_event = self.tray.events.peek()
        if zone_event is not None and not buttons.queued_before(zone_event.time_ms):
            return None  # the tray's is older (or as old): the scan's step takes it first
        return buttons.get()

    def buttons(self, now_ms):
        """Buttons, the table's timers and the display; queued link events go out; then what
        the table accepted since the last step goes to flash: a play shown is a play kept
        within 10 ms, and no flush sits between a tile and its LEDs (the scan's steps never
        flush). A step that flushed leaves a collection in play to the next."""
        self.board.buttons.poll(now_ms)
        if self.selftest is not None:
            self._selftest_step(now_ms)
            return
        try:
            self._table_step(now_ms)
        except MemoryError:
            self._out_of_heap()
        self.send_events()
        if self.journal.poll(now_ms, self.table.dealing()):
            return
        if self.collects_in_play:
            self._collect_in_play(now_ms)

    def _table_step(self, now_ms):
        # Apart from buttons()'s try block, to keep each frame off the heap (see _scan).
        table = self.table
        event = self._next_button_event()
        while event is not None:
            table.button_event(event, now_ms)
            event = self._next_button_event()  # OK may have set a deal going
        intents = table.intents
        while intents:
            self._carry_out(intents.pop(0), now_ms)
        table.tick(now_ms)

    def _carry_out(self, intent, now_ms):
        """Do what the table asked for (``Table.intents``)."""
        what = intent[0]
        if what == INTENT_SELF_TEST:
            refused = self.start_selftest(now_ms)
            if refused:
                self.table.report(0, E_BAD_VALUE, refused, now_ms, "GAME")
        elif what == INTENT_RESTART_INTO:
            if not self.restart_into(intent[1], intent[2]):
                self.table.report(0, E_NO_MEMORY, "not enough memory on this table for %s" % intent[1], now_ms)
        elif what == INTENT_MAINTENANCE:
            self.running = False

    def _out_of_heap(self):
        """The heap ran out in the middle of the table's work (a game needs more as it goes on,
        and a heap in pieces may not have it): the journal holds the game whole, so it is
        flushed and the board restarted, and the game resumes on a fresh heap. Only the move
        being made is lost, if it was not journalled yet: the table shows the game as it is."""
        self.journal.flush()
        self.restart_requested = True
        self.running = False

    def send_events(self):
        outbox = self.table.outbox
        while outbox:
            msg_type, fields = outbox.pop(0)
            self.link.send_event(msg_type, fields)

    def serve(self):
        """Answer the PC; leave protocol mode when maintenance was asked for. Returns the bytes
        read (``CHUNK``: more may be waiting). While a request is answered in steps, a serve is
        its next step; what the PC sends meanwhile waits in the USB buffer."""
        if self.server.stepping is None:
            read = self.link.poll()
        else:
            read = CHUNK  # served again at once
            reply = self.server.step()
            if reply is not None:
                self.link.write(reply)
        self.send_events()
        if self.server.maintenance_requested or self.link.closed:
            self.running = False
        return read

    def serve_wait(self, now_ms):
        """The link service's step: serve once; return the ms until the link should be served
        again (0: a full chunk came in and more may wait, or a journal stream frame went out
        and the next may fit; ``_LINK_BUSY_MS`` during a transfer; else ``_LINK_MS``). The
        time is read once served (a request may take a while): ``now_ms`` is not used."""
        read = self.serve()
        if read >= CHUNK or self.link.streamed:
            return 0
        now = self.ticks_ms()
        if read:
            self.link_read_ms = now
        if self.link_read_ms is not None and ticks_diff(now, self.link_read_ms) < _TRANSFER_MS:
            return _LINK_BUSY_MS
        return _LINK_MS

    def housekeeping(self, now_ms):
        forget_failed_imports()  # of a start from the menu that ran out of heap
        if self.wdt is not None:
            self.wdt.feed()
        if self.policy.kept_modules is not None:
            self._end_uploads(now_ms)
        if self.warmer is not None:
            self.warmer.step(now_ms)

    def _collect_in_play(self, now_ms):
        """A frozen build's heap is collected only when an allocation finds it full, in whatever
        step runs then: a scan step that met a collection (21 ms on the chip) held the loop
        43 ms. In play, a collection comes instead at the end of the first button step after a
        play (its feedback is out, and the next tile is the next player's), before the heap
        fills; not while the table has more to do by itself (a deal going out)."""
        session = self.table.session
        if session is None:
            return
        acted = len(session.seqs)
        if acted == self._collected_after or ticks_diff(now_ms, self._collected_ms) < _COLLECT_IN_PLAY_MS:
            return
        if self.table.has_timers():
            return
        self._collected_after = acted
        self._collected_ms = now_ms
        self.gc.collect()

    def _end_uploads(self, now_ms):
        """A row of uploads whose host has gone quiet is over: the modules it kept go."""
        read = self.link_read_ms
        if read is None or ticks_diff(now_ms, read) >= _UPLOADS_QUIET_MS:
            self.policy.end_uploads()

    def close(self):
        """Flush the journal and give the USB port back to the REPL."""
        self.journal.flush()
        self.link.close()

    # ----- asyncio services

    async def _service(self, index, step, period, first):
        """Run ``services()``'s ``index``-th service until the app stops, timing each run."""
        ticks_us = self._ticks_us
        longest = self.longest_us
        started = ticks_us()
        if first is not None:
            first(self.ticks_ms())
        while self.running:
            wait = step(self.ticks_ms())
            took = ticks_diff(ticks_us(), started)
            if took > longest[index]:
                longest[index] = took
            await _sleep_ms(period if wait is None else wait)
            started = ticks_us()

    async def run(self, *extra):
        """Run until maintenance is requested (or the simulated host goes away); ``close()``
        afterwards, also when this raises. ``extra``: more coroutines to gather."""
        self.link.open()
        tasks = [self._service(index, *service) for index, service in enumerate(self.services())]
        await asyncio.gather(*(tasks + list(extra)))
