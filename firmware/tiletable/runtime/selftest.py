"""The hardware self test (hardware/README.md, "First-run self test"): every part of the pin map
in turn, each result on the display and in a report for the PC.

``SelfTest(board)`` is a service like the others: ``step(now_ms)`` does one short piece and
returns (the sequence is a generator that yields how long to wait), so the asyncio loop, the
USB link and the watchdog keep running through the button phase's 10 s timeouts.
``button_event(event)`` takes the button driver's events while it runs (the table gets none).

Order: readers (VersionReg three times per zone, every other chip-select high; then each
antenna on alone for a moment), display (every segment, then each segment alone on all
digits, then ``S0``..``S3`` on the seats' groups), LEDs (red, green, blue one LED at a time
at the level cap, then all white), buzzer (three rising beeps), buttons (stuck at the start,
then ``PUSH S1``..``PUSH UNDO`` one at a time), then the result: ``TEST OK`` or the first
failure. ``results`` lists ``(part, item, status, detail)`` rows; ``shows`` is what the
display shows now and ``shown`` counts its changes (the runtime forwards each to the PC).

The display's test register is not used: it drives every segment at 31/32 duty whatever the
intensity register says (about 318 mA per module, two modules over USB's 500 mA); lighting
every segment through the digit registers keeps the capped intensity (hardware/POWER.md).

The runtime imports this module only when a test runs, and drops it afterwards (RAM).
"""
from micropython import const

from tiletable.board import pins
from tiletable.drivers.buttons import Buttons
from tiletable.drivers.buzzer import Buzzer
from tiletable.drivers.clock import ticks_add, ticks_diff
from tiletable.drivers.mfrc522 import CLONE_VERSIONS, GENUINE_VERSIONS, field_at, version_at
from tiletable.drivers.segments import glyph

OK = "ok"
WARN = "warn"
FAIL = "fail"
CHECK = "check"  # shown or sounded: a person judges it

READS = const(3)
READER_SHOW_MS = const(500)
ANTENNA_MS = const(100)
ALL_SEGMENTS_MS = const(1000)
SEGMENT_MS = const(400)
SEATS_MS = const(1500)
LED_STEP_MS = const(80)
WHITE_MS = const(1000)
BEEPS = (1047, 150, 0, 100, 1319, 150, 0, 100, 1568, 150)  # C6 E6 G6: three rising beeps
BEEPS_MS = const(800)
BUTTON_TIMEOUT_MS = const(10000)
RESULT_MS = const(3000)
_FIELD_BITS = const(0x03)  # TxControlReg Tx1RFEn | Tx2RFEn
_DETAIL_MAX = const(24)  # a report row stays small: 20 rows fit one frame


def button_names(seats):
    """What the display and the report call each button: ``S1``..``S4`` (seats from 1, as their
    labels), ``MENU``, ``OK``, ``UNDO``."""
    return ["S%d" % (seat + 1) for seat in range(seats)] + ["MENU", "OK", "UNDO"]


class SelfTest:
    """One run of the self test on ``board`` (board/setup.py ``Board``)."""

    def __init__(self, board):
        self.board = board
        self.results = []
        self.failure = None  # the first failure's display text
        self.summary = None  # TEST OK or the first failure, once done
        self.shows = ""
        self.shown = 0
        self.done = False
        self._now = 0
        self._due = None
        self._pressed = -1
        self._steps = self._run()

    # ----- the service

    def step(self, now_ms):
        """Do what is due; True once the test is over (``summary`` and ``results`` are final)."""
        self.board.buzzer.tick(now_ms)
        if self.done:
            return True
        if self._due is not None and ticks_diff(now_ms, self._due) < 0:
            return False
        self._now = now_ms
        try:
            wait = next(self._steps)
        except StopIteration:
            self.done = True
            return True
        self._due = ticks_add(now_ms, wait)
        return False

    def button_event(self, event):
        """A button driver event; only presses count."""
        if Buttons.kind_of(event) == Buttons.PRESS:
            self._pressed = Buttons.button_of(event)

    # ----- the sequence

    def _run(self):
        display = self.board.display
        for seat in range(display.seats):
            display.blink(seat, False)
        self.board.chain.tick(self._now)  # a blink's hidden phase ends now
        yield from self._readers()
        yield from self._display()
        yield from self._leds()
        yield from self._buzzer()
        yield from self._buttons()
        self.summary = self.failure or "TEST OK"
        self._show(self.summary)
        self.board.buzzer.play(Buzzer.CONFIRM if self.failure is None else Buzzer.ERROR, self._now)
        yield RESULT_MS

    def _readers(self):
        board = self.board
        spi = board.spi
        cs_pins = board.reader_cs
        for cs in cs_pins:
            cs(1)  # every chip-select high: only the zone read may answer
        reads = bytearray(READS)
        answered = []
        for zone in range(len(cs_pins)):
            for i in range(READS):
                reads[i] = version_at(spi, cs_pins[zone])
            version = reads[0]
            if reads[1] != version or reads[2] != version:
                status, detail, text = FAIL, "unstable %02x %02x %02x" % (reads[0], reads[1], reads[2]), "??"
            elif version in (0x00, 0xFF):
                status, detail, text = FAIL, "no answer 0x%02x" % version, "--"
            elif version in GENUINE_VERSIONS:
                status, detail, text = OK, "0x%02x" % version, "%02x" % version
            elif version in CLONE_VERSIONS:
                status, detail, text = WARN, "0x%02x clone, not used" % version, "%02x" % version
            else:
                status, detail, text = FAIL, "0x%02x not an mfrc522" % version, "%02x" % version
            self._result("reader", str(zone), status, detail, "r%d %s" % (zone, text))
            if status != FAIL:
                answered.append(zone)
            self._show("r%d %s" % (zone, text))
            yield READER_SHOW_MS
        self._all_fields_off()
        first_row = len(self.results) - len(cs_pins)
        for zone in answered:
            self._show("Ant %d" % zone)
            on = field_at(spi, cs_pins[zone], True)
            yield ANTENNA_MS
            off = field_at(spi, cs_pins[zone], False)
            if on & _FIELD_BITS != _FIELD_BITS or off & _FIELD_BITS:
                part, item, status, detail = self.results[first_row + zone]
                detail = "%s; field %02x/%02x" % (detail, on, off)
                self.results[first_row + zone] = (part, item, FAIL, detail[:_DETAIL_MAX])
                self._fail("r%d Ant" % zone)

    def _display(self):
        board = self.board
        chain = board.chain
        display = board.display
        buffer = chain.buffer
        self.shows = "all on"
        self.shown += 1
        for i in range(chain.digits):
            buffer[i] = 0xFF
        chain.show()
        yield ALL_SEGMENTS_MS
        for segment in range(8):
            self.shows = "seg " + "abcdefgP"[segment]
            self.shown += 1
            for i in range(chain.digits):
                buffer[i] = 1 << segment
            chain.show()
            yield SEGMENT_MS
        self.shows = ""
        for seat in range(display.seats):
            display.draw_text(seat, "S%d" % (seat + 1))
            self.shows += "S%d " % (seat + 1)
        self.shows = self.shows.strip()
        self.shown += 1
        display.show()
        yield SEATS_MS
        self._result("display", "-", CHECK, "by eye")

    def _leds(self):
        strip = self.board.strip
        level = pins.LED_MAX_LEVEL
        for channel in range(3):
            self._show("LEd " + "rGb"[channel])
            colour = [0, 0, 0]
            colour[channel] = level
            colour = tuple(colour)
            for led in range(strip.n):
                strip.fill((0, 0, 0))
                strip[led] = colour
                strip.write()
                yield LED_STEP_MS
        self._show("LEd W")
        strip.fill((level, level, level))
        strip.write()
        yield WHITE_MS
        self._leds_off()
        self._result("leds", "-", CHECK, "by eye")

    def _buzzer(self):
        self._show("bEEP")
        self.board.buzzer.play(BEEPS, self._now)
        yield BEEPS_MS
        self._result("buzzer", "-", CHECK, "by ear")

    def _buttons(self):
        board = self.board
        buttons = board.buttons
        count = len(board.button_pins)
        names = button_names(count - 3)
        stuck = bytearray(count)
        for button in range(count):
            if buttons.is_down(button):
                stuck[button] = 1
                self._result("button", names[button], FAIL, "stuck: held at start", "bUt " + names[button])
        strip = board.strip
        status_led = strip.n - 1
        level = pins.LED_MAX_LEVEL
        for button in range(count):
            if stuck[button]:
                continue
            self._show("PUSH " + names[button])
            strip.fill((0, 0, 0))
            strip[button if button < count - 3 and button < status_led else status_led] = (level, level, level)
            strip.write()
            self._pressed = -1
            deadline = ticks_add(self._now, BUTTON_TIMEOUT_MS)
            while True:
                pressed = self._pressed
                if pressed >= 0 and stuck[pressed]:
                    self._pressed = pressed = -1  # a stuck button let go and caught again
                if pressed >= 0 or ticks_diff(self._now, deadline) >= 0:
                    break
                yield 0
            if pressed == button:
                self._result("button", names[button], OK, "")
                board.buzzer.play(Buzzer.CONFIRM, self._now)
            elif pressed >= 0:
                self._result("button", names[button], FAIL, "swapped: got " + names[pressed], "bUt " + names[button])
                board.buzzer.play(Buzzer.ILLEGAL, self._now)
            else:
                self._result("button", names[button], FAIL, "missing: none in 10 s", "bUt " + names[button])
                board.buzzer.play(Buzzer.ILLEGAL, self._now)
        self._leds_off()

    # ----- helpers

    def _result(self, part, item, status, detail, failure=None):
        self.results.append((part, item, status, detail[:_DETAIL_MAX]))
        if status == FAIL:
            self._fail(failure)

    def _fail(self, text):
        if self.failure is None:
            self.failure = text

    def _show(self, text):
        """``text`` across the whole chain from its leftmost digit (``PUSH MENU`` needs nine)."""
        chain = self.board.chain
        buffer = chain.buffer
        i = 0
        for char in text:
            if i < chain.digits:
                buffer[i] = glyph(char)
                i += 1
        while i < chain.digits:
            buffer[i] = 0
            i += 1
        chain.show()
        self.shows = text
        self.shown += 1

    def _all_fields_off(self):
        spi = self.board.spi
        for cs in self.board.reader_cs:
            field_at(spi, cs, False)

    def _leds_off(self):
        strip = self.board.strip
        strip.fill((0, 0, 0))
        strip.write()
