"""The whole table simulated in one process: firmware runtime + wire-level peripheral models.

The firmware's ``App`` (runtime/app.py), assembled as main.py assembles it (``assemble``),
runs unchanged on ``board.setup.build`` wired to the virtual ``machine`` (sim/machine.py):
nine MFRC522 models with NTAG213 tags, a MAX7219 chain, a WS2812 strip, a PWM buzzer and
bouncing button contacts. The process's stdin/stdout are the USB serial port (the
firmware's own usblink code path), so run it behind ``host/tiletable_host/ptybridge.py``
(``simtable.SimulatedTable`` does) and talk to it like a Pico. It runs on CPython and on
the MicroPython unix port::

    python sim/device.py --control 7650 --root /tmp/table
    cd build/mpy && micropython -X heapsize=512K -c \\
        "import sys; sys.path[:0] = ['firmware', 'sim']; import device; device.main(['--control', '7650', '--root', '/tmp/table'])"

``--lfs IMAGE`` (MicroPython only) keeps the journal and rulesets on a real littlefs
(``os.VfsLfs2``) in a file-backed block device instead of a plain directory. ``--stepped 1``
moves device time only within the control commands, never at the wall clock's pace between
them, so a test's run is the same every time (how many service steps ran before a command
otherwise depends on how fast the PC sent it); the USB link is then served only while a
command runs the table.

**Control side** (for tests and demos): a loopback TCP port (``--control``), one command
per line, one reply line each, ``ok ...`` or ``err <reason>``. Commands that change the
table wait until the table has taken them in, running it ahead of the wall clock in its
device time (``Services``: the App's services on App.run()'s schedule, work charged at the
chip's costs, chip_costs.py; docs/SIMULATED_TABLE.md):

=========================  =====================================================================
``place <zone> <item>...``  lay pieces on a zone (``5-6`` a tile, ``H4`` or ``c29`` a card, ``blank`` a
                            new unenrolled tag, ``blank:7`` sticker 7 of a roll of new ones,
                            ``locked:7`` a sticker whose pages are locked); a piece lying
                            elsewhere is moved. Waits for the scan.
``remove <zone> [item...]`` lift those pieces (all of them when none is named). Waits for the scan.
``press <button> [long|double]``  button ``0``-``3`` (seats), ``menu``, ``ok``, ``undo``
``hold <button> down|up``   press (or let go) a button and leave it so; runs nothing (``wait``)
``display``                 ``ok MUGG| 4P|    |    ``: what a person reads on each 4-digit group
``leds``                    ``ok 000000 0018ff ...``: each LED's colour (rrggbb) as last written
``tones``                   ``ok 220/180 180/320``: tones (Hz/ms) sounded since the last ``tones``
                            (one still sounding is listed with its length so far)
``tag <item>``               ``ok <uid> <32 hex digits>``: a piece's UID and pages 4-7 (its record)
``state``                   ``ok {json}``: the table's snapshot (as the STATE request returns it)
``wait <ms>``               let ``ms`` of table time pass
``reset``                   power cut and restart: unflushed journal records are lost, the table
                            resumes the game in progress from the journal
``heap``                    ``ok <used> <free>`` after a collection (MicroPython: gc.mem_alloc)
``ballast <bytes>``         (MicroPython) leave the firmware only that much heap, in one piece
``threshold <bytes>|off``   (MicroPython) collect every that many bytes allocated, or only when
                            an allocation finds the heap full (as ``App.scan`` holds collections
                            off while a tile awaits its confirmation)
``quit``                    stop the device process
=========================  =====================================================================
"""
import gc
import sys

if sys.implementation.name == "cpython" and __name__ == "__main__":  # python sim/device.py
    import os

    _ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    sys.path[:0] = [_ROOT + "/sim/cpython", _ROOT + "/sim", _ROOT + "/firmware"]

import machine
import select
import time

import chip_costs
from blockdev import FileBlockDevice
from chip_costs import ChargedGc, FirstImports, LineMeter
from mfrc522_model import BusClock, MFRC522Model
from max7219_model import Max7219Chain
from ntag213 import Ntag213
from buttons import BouncyContact
from tiletable import tagrecord
from tiletable.board import pins
from tiletable.board.setup import build
from tiletable.drivers.clock import ticks_diff
from tiletable.engine.cards import parse_card
from tiletable.engine.tiles import parse_tile
from tiletable.runtime.app import SERVICES, assemble
from tiletable.heap import keep_packed

TILE_SET = 1  # the enrolled virtual domino set (up to double-twelve: every tile a preset uses)
CARD_SET = 2  # the enrolled virtual card deck
BUTTON_NAMES = {"menu": 4, "ok": 5, "undo": 6}
_SETTLE_MS = 3000  # the longest a placement may take to be confirmed before "err timeout"
_HOLD_MS = {"short": 80, "long": 1200}
_TONE_LOG = 32
_WATCHDOG_MS = 8000  # main.py's
_IDLE_SCAN_MS = 5  # fast mode: how often the scan service looks whether a zone changed
_CONTROL_POLL_MS = 5  # the longest the idle device sleeps before looking at the control port
_LAG_MS = 50  # device time this far behind the wall clock is not made up (the PC was slower)
_BALLAST_SHELVES, _BALLAST_SHELF = 64, 256  # room for every block ``ballast`` holds back
_QSTR_POOL_GREW = 4096  # bytes one new name took: the qstr pool grew (``_grow_qstr_pool``)
_QSTR_POOL_MOST = 8192  # names interned at the most to get there

try:
    _wall_ms = time.ticks_ms
    _sleep_ms = time.sleep_ms
except AttributeError:  # CPython: milliseconds since the process started
    _START = time.monotonic()

    def _wall_ms():
        return int((time.monotonic() - _START) * 1000)

    def _sleep_ms(ms):
        time.sleep(ms / 1000)


class DeviceClock:
    """The device's ``ticks_ms``/``ticks_us``: the readers' ``BusClock``, which moves on only by
    what the firmware's work costs on the chip (chip_costs.py) and by waits until a service is
    due. Every reading brings the peripheral models up to that time (``follower``), so whatever
    the firmware does next happens at the time it believes it is."""

    def __init__(self, bus_clock):
        self.bus = bus_clock
        self.follower = None
        self._following = False

    def __call__(self):
        now = self.bus.now_us // 1000
        if self.follower is not None and not self._following:
            self._following = True  # a reading the models make meanwhile (a button's IRQ) is the same time
            try:
                self.follower(now)
            finally:
                self._following = False
        return now

    def ticks_us(self):
        return self.bus.now_us


class Services:
    """The ``App``'s services (``App.services()``: a step and a period each) on the device's
    clock, as uasyncio runs them: each task runs when its sleep is over (in the order they fell
    due), and the clock moves on by what the run cost on the chip. The watchdog (started as
    main.py starts it, 8 s) resets the board when housekeeping has not fed it for that long: it
    is checked after every run (the chip would cut the run short; here it ends).

    The ``App``'s ``meter`` too (``start`` hands it over): the table's work on tray events is
    charged per line (``run``), the scan's own work by its bus accesses and fixed costs
    (``scanned``); every other step is charged per line."""

    def __init__(self, clock, readers, scan_when=None):
        self.app = None  # the App whose services run (``start``)
        self.readers = readers  # the MFRC522 models: they count the fields switched on
        self.scan_when = scan_when  # None, or a test's fast mode: scan only while this says so
        self.clock = clock
        self.bus = clock.bus
        self.meter = LineMeter(counting=scan_when is None)
        self.busy_us = 0  # device time spent running services (the rest the chip sleeps)
        self.watchdog_fired = False
        self._fed = (0, 0)  # (feeds counted, device us of the last)
        self._tasks = []  # [due us, order, how it runs, step, period, first, index in App.longest_us]
        self._seq = 0
        self._fields = 0  # the scan step in progress: fields on when it began
        self._switched = 0  # and fields switched on so far
        self.led_writes = []  # (device us, colours) of the latest strip writes

    def start(self, app):
        """Run ``app``'s services (made with this as its ``meter``), each due at once."""
        self.app = app
        runs = {"scan": self._scan, "link": self._link}
        for index, (step, period, first) in enumerate(app.services()):
            self._tasks.append([0, index, runs.get(SERVICES[index], self._metered), step, period, first, index])
        self._seq = len(self._tasks)
        self._time_led_writes(app.board.strip)

    def run(self, call, *args):
        """The ``App``'s meter: ``call(*args)``, its lines charged as the chip's."""
        return self.meter.run(call, *args)

    def _time_led_writes(self, strip):
        """Charge the work counted so far before each strip write, and note when it was: the
        table lights the LEDs in the middle of its work on a tile (the green flash comes before
        the journal and the display), as the chip does."""
        write = strip.write

        def charged_write():
            self.bus.advance_us(self.meter.cost_us())
            write()
            self.led_writes.append((self.bus.now_us, bytes(strip.buf)))
            del self.led_writes[:-8]

        strip.write = charged_write

    def next_due_us(self):
        return min(self._tasks)[0]

    def run_until(self, end_us, done=None):
        """Run the services until ``end_us`` of device time, or until ``done()``; whether it was done."""
        while self.app.running:
            if done is not None and done():
                return True
            task = min(self._tasks)
            if task[0] > end_us:
                break
            self.run_next()
        if self.bus.now_us < end_us and self.app.running:
            self.bus.now_us = end_us
        return done is not None and done()

    def run_next(self):
        """Run the service due first (waiting for it), then put it back to sleep."""
        task = min(self._tasks)
        bus = self.bus
        if bus.now_us < task[0]:
            bus.now_us = task[0]
        started = bus.now_us
        bus.advance_us(chip_costs.WAKE_US)  # asyncio's pass that wakes the task
        if task[5] is not None:  # the service's first run
            self.meter.run(task[5], self.clock())
            task[5] = None
        sleep_ms = task[2](task[3])
        if sleep_ms is None:
            sleep_ms = task[4]
        bus.advance_us(self.meter.cost_us())
        took = bus.now_us - started
        self.busy_us += took
        longest = self.app.longest_us
        if took > longest[task[6]]:
            longest[task[6]] = took
        task[0] = (bus.now_us // 1000 + sleep_ms) * 1000 if sleep_ms else bus.now_us
        task[1] = self._seq
        self._seq += 1
        self._watch()

    def _watch(self):
        wdt = self.app.wdt
        if wdt is None:
            return
        if wdt.fed != self._fed[0]:
            self._fed = (wdt.fed, self.bus.now_us)
        elif self.bus.now_us - self._fed[1] > wdt.timeout * 1000:
            self.watchdog_fired = True
            self.app.running = False

    def _metered(self, step):
        return self.meter.run(step, self.clock())

    def _link(self, step):
        """The link's step reads the time itself once it has served (App.serve_wait): the
        models are brought up to the device's time there, inside its metered work (a button's
        edge then runs its interrupt handler among the charged lines, as the chip runs it
        inside whatever step it interrupts)."""
        return self.meter.run(step, self.bus.now_us // 1000)

    def _scan(self, step):
        """The scan's step, not traced (its tight driver loops would be overcharged per line):
        its wake-up is charged here, its bus accesses by the reader models, its visits and
        fields switched on in ``scanned``. While the self test has the readers the step does
        nothing (App.scan_step) and costs nothing more than the wake-up."""
        if self.app.selftest is not None:
            return step(self.bus.now_us // 1000)
        if self.scan_when is not None and not self.scan_when():
            return _IDLE_SCAN_MS
        self.bus.advance_us(chip_costs.SCAN_WAKE_US)
        self._fields = _fields_on(self.app.tray.zones)
        self._switched = self._field_switches()
        return step(self.clock())

    def scanned(self):
        """The ``App``'s meter, once the tray has polled: a poll may visit a zone, switching its
        field off, and power the next in the field it freed, so the count of fields on stays:
        the switches are counted instead. Then the cost of working out the next poll."""
        on = self._field_switches() - self._switched
        off = on - (_fields_on(self.app.tray.zones) - self._fields)
        self.bus.advance_us(off * chip_costs.VISIT_US + on * chip_costs.FIELD_ON_US + chip_costs.NEXT_POLL_US)

    def _field_switches(self):
        """Fields switched on so far, every reader's together."""
        return sum(reader.field_switches for reader in self.readers)


def _fields_on(zones):
    count = 0
    for zone in zones:
        if zone.on:
            count += 1
    return count


class _UsbOut:
    """The USB serial stream as the firmware writes it: each write charged as the chip's CDC
    write (``LineMeter.usb_write``) once ``meter`` is set; polled and flushed as the stream is."""

    def __init__(self, stream):
        self.stream = stream
        self.meter = None
        self.flush = getattr(stream, "flush", None)

    def write(self, data):
        if self.meter is not None:
            self.meter.usb_write(len(data))
        return self.stream.write(data)

    def fileno(self):
        return self.stream.fileno()


def tag_uid(kind, set_id, item):
    """A 7-byte NXP-style UID that says which piece it is (easy to read in logs). The piece is
    in the first cascade level (bytes 1-2), as real serials differ there: the tray takes an
    unchanged CL1 answer for the same single tag."""
    return bytes((0x04, item, kind << 6 | set_id & 0x3F, set_id >> 8, 0x54, 0x54, 0x53))


def _hex(data):
    return "".join("%02x" % b for b in data)


class Pieces:
    """The physical pieces: one tagged tag per tile or card, made when first used."""

    def __init__(self):
        self._tags = {}
        self._blanks = 0

    def make_all(self):
        """Make the tag of every tile (double-eight) and card now, not when first laid."""
        for a in range(9):
            for b in range(a, 9):
                self.tag("%d-%d" % (a, b))
        for card in range(52):
            self.tag("c%d" % card)

    def tag(self, name):
        """The tag of ``5-6`` (a tile), ``H4`` or ``c29`` (a card, by name or id), ``blank``
        (a new unenrolled tag), ``blank:N`` or ``locked:N`` (sticker N of a roll: the same tag
        each time, blank when first used; a locked one refuses writes).

        :raises ValueError: for a name that is none of these.
        """
        if name == "blank":
            self._blanks += 1
            return Ntag213(bytes((0x04, 0xB1, self._blanks & 0xFF, 0x00, 0x00, 0x00, 0x01)))
        roll, _, number = name.partition(":")
        if roll in ("blank", "locked") and number.isdigit() and int(number) < 65536:
            tag = self._tags.get(name)
            if tag is None:
                n = int(number)
                locked = roll == "locked"
                uid = bytes((0x04, n & 0xFF, 0xC5 if locked else 0xC1, n >> 8, 0x10, 0x20, 0x30))
                tag = Ntag213(uid, read_only=locked)
                self._tags[name] = tag
            return tag
        if name.startswith("c") and name[1:].isdigit():
            kind, set_id, item = tagrecord.KIND_CARD, CARD_SET, int(name[1:])
        elif name[:1] in "CDHS" and "-" not in name:
            kind, set_id, item = tagrecord.KIND_CARD, CARD_SET, parse_card(name)
        else:
            kind, set_id, item = tagrecord.KIND_TILE, TILE_SET, parse_tile(name)
        tag = self._tags.get((kind, item))
        if tag is None:
            tag = Ntag213(tag_uid(kind, set_id, item), user=tagrecord.encode(kind, set_id, item))
            self._tags[(kind, item)] = tag
        return tag


class Hardware:
    """The simulated board: models on the virtual pins, then the firmware's own board set-up."""

    def __init__(self, with_board=True):
        self.attach_models()
        if with_board:
            self.build_board()

    def build_board(self):
        """The firmware's own board set-up, on the virtual machine the models sit on."""
        self.board = build(self.machine)
        self.pwm = self.machine.pwm
        self._last_ms = 0  # ``advance``'s last reading
        self.tones = []  # [hz, started, ended or None]: what the buzzer sounded, newest last
        self._tone = 0

    def attach_models(self):
        """The peripheral models on fresh virtual pins and bus (before the firmware builds its board)."""
        machine.reset_pins()
        self.clock = BusClock(chip_costs.REGISTER_ACCESS_US)
        spi = machine.SPI(pins.READER_SPI, baudrate=pins.READER_BAUDRATE)
        self.readers = []
        for cs in pins.READER_CS:
            model = MFRC522Model(self.clock)
            spi.attach(model, machine.Pin(cs, machine.Pin.OUT, value=1))
            self.readers.append(model)
        self.chain = Max7219Chain(pins.DISPLAY_MODULES)
        spi.attach(self.chain, machine.Pin(pins.DISPLAY_LOAD, machine.Pin.OUT, value=1), shifts_always=True)
        gpios = tuple(pins.BUTTON_SEAT) + (pins.BUTTON_MENU, pins.BUTTON_OK, pins.BUTTON_UNDO)
        self.button_pins = [machine.Pin(gpio) for gpio in gpios]
        self.contacts = [BouncyContact(pin, seed=i + 1) for i, pin in enumerate(self.button_pins)]
        self.presses = 0
        self.machine = machine.Wiring(spi)

    def new_contact(self, button):
        """A fresh contact for each press (another bounce pattern each time): a contact keeps
        every edge it was given, so one per press keeps a long session's memory flat."""
        self.presses += 1
        contact = BouncyContact(self.button_pins[button], seed=self.presses * 7 + button)
        self.contacts[button] = contact
        return contact

    def advance(self, now_ms):
        """For a test that keeps its own millisecond clock (tests/sim/app_link_fuzz.py): the
        readers' clock moves on by the time elapsed since the last call, on top of what bus
        traffic added, so a field never looks settled too early; then ``follow``."""
        elapsed = now_ms - self._last_ms
        self._last_ms = now_ms
        if elapsed > 0:
            self.clock.advance_us(elapsed * 1000)
        self.follow(now_ms)

    def follow(self, now_ms):
        """Keep the button contacts in step with the device's time; bound what the models record."""
        for contact in self.contacts:
            contact.advance(now_ms)
        frames = self.board.strip.frames
        if len(frames) > 1:
            del frames[:-1]
        changes = self.pwm.changes
        if changes:
            del changes[:]
            playing = self.pwm.freq() if self.pwm.duty_u16() else 0
            if playing != self._tone:
                if self._tone:
                    self.tones[-1][2] = now_ms
                if playing:
                    self.tones.append([playing, now_ms, None])
                    if len(self.tones) > _TONE_LOG:
                        self.tones.pop(0)
                self._tone = playing

    def display(self):
        """What a person reads on each seat's 4-digit group."""
        text = "".join(self.chain.text(m) for m in range(pins.DISPLAY_MODULES))
        width = pins.DISPLAY_DIGITS_PER_SEAT
        return [text[i : i + width] for i in range(0, len(text), width)]

    def leds(self):
        strip = self.board.strip
        out = []
        for led in range(strip.n):
            r, g, b = strip[led]
            out.append("%02x%02x%02x" % (r, g, b))
        return out


class Device:
    """One power-on of the simulated table: hardware, firmware ``App`` on ``Services``, control commands."""

    def __init__(self, root, control, pieces, instream, outstream, fast=False, flash=None, stepped=False, policy=None):
        """``fast``: for functional tests only, the tray is scanned only while a zone placed on or
        lifted from has not been confirmed yet, and firmware lines are not counted (bus accesses
        and the scan's fixed costs still are): device time is not the chip's then. ``flash``: a
        ``flashfs.FlashFs`` mounted over ``root`` (CPython), whose work is charged at the chip's
        costs; without one the files are the PC's and cost nothing. ``stepped``: device time moves
        only within control commands (``--stepped``). ``policy``: the class of the firmware's heap
        policy (tiletable/heap.py; one made for each power-on), by default the runtime's: on CPython, where the firmware's work is
        charged as the frozen chip's it was measured on, a frozen build's; on MicroPython's unix
        port, whose .mpy files put the bytecode in the heap, a stock build's."""
        self.hardware = Hardware()
        self.clock = DeviceClock(self.hardware.clock)
        self.clock.follower = self.hardware.follow
        self.pieces = pieces
        self.control = control
        charged = hasattr(sys, "settrace") and not fast  # the firmware's lines are counted and charged
        usb_out = _UsbOut(outstream) if charged else outstream
        first_imports = None  # where lines are charged, so are first imports
        if charged:
            first_imports = FirstImports(tagrecord.__file__.rpartition("/")[0])

        self.unsettled = []  # zones placed on or lifted from that the tray has not confirmed yet
        self.services = Services(self.clock, self.hardware.readers, (lambda: self.unsettled) if fast else None)
        # the link's CRC-32 is charged by its bytes; where the firmware's work is charged
        # (CPython), its collections are charged as the chip's
        collector = ChargedGc(gc) if hasattr(sys, "settrace") else gc

        def making():
            return assemble(
                self.hardware.board,
                instream,
                usb_out,
                self.clock,
                root=root,
                unique_id=machine.unique_id(),
                ticks_us=self.clock.ticks_us,
                policy=policy and policy(),
                collector=collector,
                crc=chip_costs.charged_crc32,
                meter=self.services,
            )

        self.app = making() if first_imports is None else first_imports.at_boot(making)
        self.app.wdt = machine.WDT(timeout=_WATCHDOG_MS)  # as main.py starts it, once the boot is over
        self.services.start(self.app)
        self.services.meter.first_imports = first_imports
        if charged:
            usb_out.meter = self.services.meter
        if flash is not None:
            flash.chip.take()  # the boot's reads are not the first service's
            self.services.meter.flash = flash.chip
        self.reset_requested = False
        self.quit_requested = False
        self.ballast = None  # heap held back from the firmware (``ballast``)
        self.stepped = stepped
        self._wall_offset = 0  # device ms - wall ms while the device keeps pace with the wall clock

    def run_for(self, ms):
        self.services.run_until(self.hardware.clock.now_us + ms * 1000)

    def settled(self, zone):
        """Whether the tray has confirmed exactly the tags lying on ``zone`` (and told the table)."""
        lying = set(tag.uid for tag in self.hardware.readers[zone].tags)
        return set(self.app.tray.zones[zone].present) == lying

    def wait_settled(self, zones):
        """Run until the tray has confirmed ``zones`` (and the table has taken the events in)."""
        pending = self.unsettled
        for zone in zones:
            if zone not in pending:
                pending.append(zone)

        def confirmed():
            pending[:] = [zone for zone in pending if not self.settled(zone)]
            return not pending

        end = self.hardware.clock.now_us + _SETTLE_MS * 1000
        if self.services.run_until(end, confirmed):
            self.run_for(20)  # the table's redraw and flash start
            return "ok"
        if self.services.watchdog_fired:
            return "err watchdog reset"
        return "err timeout: zones %r never settled" % [zone for zone in zones if not self.settled(zone)]

    def wait_idle(self):
        """Run while a button is still settling or a press may still become a double press,
        and while the table has a timer running (a press held back for a possible claim)."""
        buttons = self.hardware.board.buttons
        self.services.run_until(
            self.hardware.clock.now_us + _SETTLE_MS * 1000,
            lambda: not buttons.needs_poll(self.clock()) and not self.app.table.has_timers(),
        )

    # ----- control commands

    def command(self, line):
        words = line.split()
        if not words:
            return "err empty command"
        name = words[0]
        handler = getattr(self, "do_" + name, None)
        if handler is None:
            return "err unknown command %r" % name
        try:
            return handler(words[1:])
        except (ValueError, IndexError, KeyError, MemoryError) as exc:
            return "err %s: %r" % (name, exc)

    def do_place(self, args):
        zone = int(args[0])
        readers = self.hardware.readers
        changed = [zone]
        for name in args[1:]:
            tag = self.pieces.tag(name)
            for other in range(len(readers)):
                if tag in readers[other].tags:
                    readers[other].lift(tag)
                    changed.append(other)
            readers[zone].place(tag)
        return self.wait_settled(changed)

    def do_remove(self, args):
        zone = int(args[0])
        reader = self.hardware.readers[zone]
        tags = [self.pieces.tag(name) for name in args[1:]] if len(args) > 1 else list(reader.tags)
        reader.lift(*tags)
        return self.wait_settled([zone])

    def do_press(self, args):
        name = args[0]
        button = BUTTON_NAMES[name] if name in BUTTON_NAMES else int(name)
        how = args[1] if len(args) > 1 else "short"
        contact = self.hardware.new_contact(button)
        now = self.clock()
        short = _HOLD_MS["short"]
        if how == "double":
            contact.tap(now + 1, short)
            contact.tap(now + 1 + 2 * short, short)
            self.run_for(3 * short + 2)
        else:
            contact.tap(now + 1, _HOLD_MS[how])
            self.run_for(_HOLD_MS[how] + 2)
        self.wait_idle()
        return "ok"

    def do_hold(self, args):
        """``hold BUTTON down|up``, as table-emu's: the contact pressed (or let go) a millisecond
        from now and left so, the device not run; a test times what happens with ``wait``."""
        name = args[0]
        button = BUTTON_NAMES[name] if name in BUTTON_NAMES else int(name)
        contact = self.hardware.contacts[button]
        if args[1:] == ["up"]:
            contact.release(self.clock() + 1)
        else:
            contact.press(self.clock() + 1)
        return "ok"

    def do_display(self, args):
        return "ok " + "|".join(self.hardware.display())

    def do_leds(self, args):
        return "ok " + " ".join(self.hardware.leds())

    def do_tones(self, args):
        tones = self.hardware.tones
        now = self.clock()
        words = ["%d/%d" % (hz, ticks_diff(now if ended is None else ended, started)) for hz, started, ended in tones]
        del tones[: len(tones) - 1 if tones and tones[-1][2] is None else len(tones)]
        return "ok " + " ".join(words)

    def do_tag(self, args):
        tag = self.pieces.tag(args[0])
        return "ok %s %s" % (_hex(tag.uid), _hex(tag.memory[16:32]))

    def do_state(self, args):
        return "ok " + self.app.table.snapshot()

    def do_wait(self, args):
        self.run_for(int(args[0]))
        return "ok"

    def do_heap(self, args):
        gc.collect()
        used = gc.mem_alloc() if hasattr(gc, "mem_alloc") else 0
        free = gc.mem_free() if hasattr(gc, "mem_free") else 0
        return "ok %d %d" % (used, free)

    def do_ballast(self, args):
        """``ballast N``: hold back all the heap but an N-byte region right above what is in use
        (MicroPython), so the firmware runs on in what a Pico would have left, while the
        simulation's models and virtual tiles stay outside that budget; and collect as main.py
        has the Pico collect (tiletable/heap.py: not before, where the models' own allocations
        would only make the simulation slower). Answers the free heap left (the region, and
        crumbs too small to hold anything)."""
        region = int(args[0])
        if not hasattr(gc, "mem_free"):
            return "err ballast: not on this runtime"
        self.pieces.make_all()  # the virtual tiles' tags are the simulation's, not the Pico's
        self.ballast = None
        self._grow_qstr_pool()
        gc.collect()
        shelves = [[None] * _BALLAST_SHELF for _ in range(_BALLAST_SHELVES)]
        keeper = bytearray(region)  # first fit: the lowest region that large
        if not self._fill_heap(shelves):
            return "err ballast: more free blocks than %d shelves of %d" % (_BALLAST_SHELVES, _BALLAST_SHELF)
        self.ballast = shelves
        keeper = None
        keep_packed()
        gc.collect()
        return "ok %d" % gc.mem_free()

    def do_threshold(self, args):
        if not hasattr(gc, "threshold"):
            return "err threshold: not on this runtime"
        gc.threshold(-1 if args[0] == "off" else int(args[0]))
        return "ok"

    @staticmethod
    def _grow_qstr_pool():
        """Have MicroPython add its next pool of interned names (qstrs) now, outside the
        firmware's region. Each pool is twice the last (28 KB in one piece on this 64-bit port),
        and the simulation's own modules bring about 570 names the Pico does not have, so here
        the firmware's game imports met that growth inside the region, where on the chip they
        never do (a stock build, measured: 1459 names after the boot and 2075 with every
        family's modules imported, in pools with room for about 2200). New names are interned
        until one of them costs more than a name's few bytes. Done at boot (``main``) and again
        for a ballast: without the boot's, a match's first journal stream could not import its
        module, the pool's next 28 KB not found in one piece in a 1 MB heap with 600 KB free."""
        for number in range(_QSTR_POOL_MOST):
            free = gc.mem_free()
            hasattr(None, "ballast_name_%d" % number)  # interns it
            if free - gc.mem_free() > _QSTR_POOL_GREW:
                return

    @staticmethod
    def _fill_heap(shelves):
        """Take every free block, largest first, onto the shelves (lists made beforehand: a
        list grown now would want a block larger than the holes it is filling); False when
        the shelves are full first."""
        size = 65536
        shelf = slot = 0
        while size >= 16:
            if shelf == len(shelves):
                return False
            try:
                shelves[shelf][slot] = bytearray(size)
            except MemoryError:
                size //= 2
                continue
            slot += 1
            if slot == _BALLAST_SHELF:
                shelf, slot = shelf + 1, 0
        return True

    def do_reset(self, args):
        self.reset_requested = True
        self.app.running = False
        return None  # answered by the next power-on

    def do_quit(self, args):
        self.quit_requested = True
        self.app.running = False
        return "ok"

    def run(self):
        """``App.run()`` on the device's clock, kept at the wall clock's pace (a PC on the USB port
        sees a table that answers in time), and the control port's commands in between."""
        self.app.link.open()
        self._anchor()
        control = self.control
        services = self.services
        while self.app.running:
            # stepped: wait for the next command in the poller, not in a loop whose garbage (a
            # list a call) would depend on the wall clock and change what the heap holds
            line = control.poll(-1 if self.stepped else 0)
            if line is not None:
                reply = self.command(line)
                if reply is not None:
                    control.reply(reply)
                self._anchor()  # a command may have run the table ahead: the pace resumes from there
                continue
            if self.stepped:
                continue  # the table waits for the next command
            lead = services.next_due_us() // 1000 - (_wall_ms() + self._wall_offset)
            if lead > 0:
                _sleep_ms(min(lead, _CONTROL_POLL_MS))
                continue
            if lead < -_LAG_MS:
                self._anchor()
            services.run_next()
        if services.watchdog_fired:
            sys.stderr.write("device.py: watchdog reset at %d ms of device time\n" % self.clock())

    def _anchor(self):
        self._wall_offset = self.clock() - _wall_ms()


class Control:
    """The loopback control port: one client at a time, text lines in and out."""

    def __init__(self, port):
        import socket  # here, not at the top: the WebAssembly port (bench/table_heap.py) has none

        self.server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.server.bind(socket.getaddrinfo("127.0.0.1", port)[0][-1])
        self.server.listen(1)
        self.poller = select.poll()
        self.poller.register(self.server, select.POLLIN)
        self.client = None
        self.buffer = b""

    def poll(self, wait_ms=0):
        """The next complete command line, or None; with none buffered, waits up to ``wait_ms``
        (-1: until something arrives) for the client's bytes."""
        for obj, flags in self.poller.poll(0 if b"\n" in self.buffer else wait_ms):
            if obj is self.server or obj == self.server.fileno():
                client, _ = self.server.accept()
                if self.client is not None:
                    self._drop()
                self.client = client
                self.buffer = b""
                self.poller.register(client, select.POLLIN)
            elif self.client is not None:
                data = self.client.recv(512)
                if not data:
                    self._drop()
                else:
                    self.buffer += data
        if b"\n" in self.buffer:
            line, self.buffer = self.buffer.split(b"\n", 1)
            return line.decode().strip()
        return None

    def reply(self, text):
        if self.client is not None:
            try:
                self.client.send((text + "\n").encode())
            except OSError:
                self._drop()

    def _drop(self):
        self.poller.unregister(self.client)
        self.client.close()
        self.client = None


def _mount_littlefs(image, root):
    """Journal and rulesets on littlefs in a file-backed block device (MicroPython unix port)."""
    import os

    device = FileBlockDevice(image)
    try:
        vfs = os.VfsLfs2(device)
    except OSError:
        os.VfsLfs2.mkfs(device)
        vfs = os.VfsLfs2(device)
    os.mount(vfs, root)


def _flash_id(root):
    """The simulated chip's unique id (``machine.unique_id()``): 8 random bytes made with the
    table's storage and kept in it (in the littlefs image with ``--lfs``), so every simulated
    table has its own, and keeps it across its restarts, as a Pico's flash chip does."""
    import os

    path = root + "/unique-id"
    try:
        with open(path, "rb") as f:
            uid = f.read()
        if len(uid) == 8:
            return uid
    except OSError:
        pass
    uid = os.urandom(8)
    with open(path, "wb") as f:
        f.write(uid)
    return uid


def _options(argv):
    options = {"--control": "7650", "--root": "simtable", "--lfs": None, "--stepped": "0"}
    for i in range(0, len(argv) - 1, 2):
        if argv[i] not in options:
            raise SystemExit("device.py: unknown option %r (options: %s)" % (argv[i], ", ".join(sorted(options))))
        options[argv[i]] = argv[i + 1]
    return options


def main(argv):
    options = _options(argv)
    root = options["--root"]
    try:
        import os

        os.mkdir(root)
    except OSError:
        pass
    if options["--lfs"]:
        _mount_littlefs(options["--lfs"], root)
    machine.UNIQUE_ID = _flash_id(root)
    stdin = getattr(sys.stdin.buffer, "raw", sys.stdin.buffer)  # CPython: unbuffered, like the Pico's
    stdout = sys.stdout.buffer
    control = Control(int(options["--control"]))
    pieces = Pieces()
    if hasattr(gc, "mem_free"):  # MicroPython: room for the firmware's names, as a Pico has it
        Device._grow_qstr_pool()
    answer_reset = False
    while True:
        device = Device(root, control, pieces, stdin, stdout, stepped=options["--stepped"] == "1")
        if answer_reset:
            control.reply("ok")  # the answer to "reset": the table is back
        device.run()
        cut = device.reset_requested or device.services.watchdog_fired  # no finally: the power went
        if not cut:
            device.app.close()  # main.py's finally: the journal flushed, the REPL given back
        if not (cut or device.app.restart_requested):
            break
        answer_reset = device.reset_requested  # a restart into a game answered its own command
        device = None
        gc.collect()


if __name__ == "__main__":
    main(sys.argv[1:])
