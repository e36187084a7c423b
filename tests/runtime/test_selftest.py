# portable
"""The hardware self test (runtime/selftest.py) on the simulated board: wire-level MFRC522 models
(genuine, clone, dead, unstable), the MAX7219 chain model, the recording LED strip, the PWM
buzzer and bouncing button contacts, all on the firmware's own board set-up."""
import machine
from buttons import BouncyContact
from buzzer_model import BuzzerModel
from max7219_model import Max7219Chain
from mfrc522_model import BusClock, MFRC522Model

from tiletable.board import pins
from tiletable.board.setup import BUTTON_MENU, BUTTON_OK, BUTTON_UNDO, build
from tiletable.drivers.segments import glyph
from tiletable.runtime.selftest import BEEPS, BUTTON_TIMEOUT_MS, CHECK, FAIL, OK, WARN, SelfTest

SEAT_BUTTONS = len(pins.BUTTON_SEAT)
ALL_BUTTONS = tuple(range(BUTTON_UNDO + 1))
LEVEL = pins.LED_MAX_LEVEL


class UnstableReader(MFRC522Model):
    """A reader whose VersionReg answers change from read to read (a disturbed MISO)."""

    def __init__(self, clock):
        super().__init__(clock)
        self.version_reads = 0

    def _read(self, reg):
        if reg == 0x37:
            self.version_reads += 1
            return (0x92, 0x12, 0x92)[self.version_reads % 3]
        return super()._read(reg)


class Rig:
    """The board, its models and a ``SelfTest``, stepped every 10 ms of simulated time.

    ``lines`` is what the display showed, in order: the text a person reads (trailing blanks
    cut), or ``all:<segments>`` when every digit shows the same shape (``all:a``)."""

    def __init__(self, versions=None, readers=None, held=()):
        machine.reset_pins()
        self.clock = BusClock()
        spi = machine.SPI(pins.READER_SPI, baudrate=pins.READER_BAUDRATE)
        self.readers = []
        for zone, cs in enumerate(pins.READER_CS):
            if readers is not None and zone in readers:
                model = readers[zone](self.clock)
            else:
                model = MFRC522Model(self.clock, version=(versions or {}).get(zone, 0x92))
            spi.attach(model, machine.Pin(cs, machine.Pin.OUT, value=1))
            self.readers.append(model)
        self.chain = Max7219Chain(pins.DISPLAY_MODULES)
        spi.attach(self.chain, machine.Pin(pins.DISPLAY_LOAD, machine.Pin.OUT, value=1), shifts_always=True)
        gpios = tuple(pins.BUTTON_SEAT) + (pins.BUTTON_MENU, pins.BUTTON_OK, pins.BUTTON_UNDO)
        self.contacts = [BouncyContact(machine.Pin(gpio), seed=i + 1) for i, gpio in enumerate(gpios)]
        for button in held:
            self.contacts[button].press(0)
            self.contacts[button].advance(100)
        virtual = machine.Wiring(spi)
        self.board = build(virtual)
        self.strip = self.board.strip
        self.buzzer = BuzzerModel(virtual.pwm)
        self.now = 1000
        self.test = SelfTest(self.board)
        self.lines = []
        self.times = []  # when each line appeared
        self.most_fields = 0
        self._latches = -1
        self._frames = len(self.strip.frames)
        self.lit = []  # each change of the strip: ((led, r, g, b), ...) of the LEDs lit

    def step(self, ms=10):
        self.now += ms
        self.clock.advance_us(ms * 1000)
        for contact in self.contacts:
            contact.advance(self.now)
        buttons = self.board.buttons
        buttons.poll(self.now)
        event = buttons.get()
        while event is not None:
            self.test.button_event(event)
            event = buttons.get()
        done = self.test.step(self.now)
        self.buzzer.at(self.now)
        self._look()
        return done

    def _look(self):
        fields = 0
        for model in self.readers:
            if model.field_on:
                fields += 1
        self.most_fields = max(self.most_fields, fields)
        frames = self.strip.frames
        while self._frames < len(frames):
            colours = self.strip.colours(self._frames)
            lit = tuple((led,) + colours[led] for led in range(len(colours)) if colours[led] != (0, 0, 0))
            if not self.lit or self.lit[-1] != lit:
                self.lit.append(lit)
            self._frames += 1
        if len(frames) > 1:
            del frames[:-1]  # the stand-in keeps every write: a 192 KB heap keeps the last
            self._frames = 1
        if self.chain.latches == self._latches:
            return
        self._latches = self.chain.latches
        shapes = self.chain.shapes(0) + self.chain.shapes(1)
        if all(shape == shapes[0] for shape in shapes):
            line = "all:" + shapes[0]
        else:
            line = (self.chain.text(0) + self.chain.text(1)).rstrip()
        if not self.lines or self.lines[-1] != line:
            self.lines.append(line)
            self.times.append(self.now)

    def shows(self):
        return self.lines[-1] if self.lines else ""

    def run_until(self, text, limit_ms=60000):
        """Step until the display reads ``text``; the time it appeared."""
        for _ in range(limit_ms // 10):
            if reads(self.shows(), text):
                return self.times[-1]
            if self.step():
                break
        raise AssertionError("the display never read %r; it showed %r" % (text, self.lines[-12:]))

    def press(self, button):
        self.contacts[button].tap(self.now + 1, 80)
        for _ in range(12):
            self.step()

    def finish(self, limit_ms=120000):
        for _ in range(limit_ms // 10):
            if self.step():
                return self.test
        raise AssertionError("the self test did not end; the display shows %r" % self.shows())

    def answer_prompts(self, order=ALL_BUTTONS):
        """Press the buttons as the display asks (``order[i]`` answers the i-th prompt)."""
        for i, button in enumerate(order):
            self.run_until("PUSH " + NAMES[ALL_BUTTONS[i]])
            if button is not None:
                self.press(button)
        return self.finish()


NAMES = ("S1", "S2", "S3", "S4", "MENU", "OK", "UNDO")


def reads(shown, text):
    """Whether ``shown`` reads as ``text`` on 7-segment digits (5 and S look alike, ...)."""
    if shown.startswith("all:") or text.startswith("all:"):
        return shown == text
    return len(shown) == len(text) and all(glyph(a) == glyph(b) for a, b in zip(shown, text))


def rows(test, part):
    return [row for row in test.results if row[0] == part]


def test_all_genuine_and_every_button_pressed_in_order_is_test_ok():
    rig = Rig()
    test = rig.answer_prompts()
    assert test.summary == "TEST OK" and test.failure is None
    assert [row[2] for row in rows(test, "reader")] == [OK] * 9
    assert [row[3] for row in rows(test, "reader")] == ["0x92"] * 9
    assert [(row[1], row[2]) for row in rows(test, "button")] == [(name, OK) for name in NAMES]
    assert [row[2] for row in test.results if row[0] in ("display", "leds", "buzzer")] == [CHECK] * 3
    assert reads(rig.shows(), "TEST OK")


def test_the_display_shows_each_step_in_order():
    rig = Rig()
    rig.answer_prompts()
    expected = ["r%d 92" % zone for zone in range(9)] + ["Ant %d" % zone for zone in range(9)]
    expected += ["all:abcdefg."] + ["all:" + s for s in "abcdefg."]
    expected += ["S1  S2  S3  S4", "LEd r", "LEd G", "LEd b", "LEd W", "bEEP"]
    expected += ["PUSH " + name for name in NAMES] + ["TEST OK"]
    got = [line for line in rig.lines if line not in ("", "all:")]  # "all:": every digit dark
    assert len(got) == len(expected), got
    for shown, text in zip(got, expected):
        assert reads(shown, text), (shown, text, got)


def test_each_antenna_is_switched_on_alone_once_and_left_off():
    rig = Rig()
    rig.run_until("all:abcdefg.")
    assert rig.most_fields == 1
    assert [model.field_switches for model in rig.readers] == [1] * 9
    assert not any(model.field_on for model in rig.readers)


def test_the_buzzer_plays_three_rising_beeps():
    rig = Rig()
    rig.run_until("PUSH S1")
    tones = rig.buzzer.tones()
    assert [hz for hz, _ in tones] == [BEEPS[0], BEEPS[4], BEEPS[8]]
    assert tones[0][0] < tones[1][0] < tones[2][0]
    assert all(140 <= ms <= 160 for _, ms in tones)


def test_the_leds_light_red_green_blue_one_at_a_time_then_all_white_at_the_cap():
    rig = Rig()
    rig.run_until("bEEP")
    expected = []
    for colour in ((LEVEL, 0, 0), (0, LEVEL, 0), (0, 0, LEVEL)):
        expected += [((led,) + colour,) for led in range(10)]
    expected.append(tuple((led, LEVEL, LEVEL, LEVEL) for led in range(10)))
    assert [lit for lit in rig.lit if lit] == expected
    assert rig.lit[-1] == ()  # all dark again


def test_each_button_prompt_lights_its_seat_led_or_the_status_led():
    rig = Rig()
    for button in ALL_BUTTONS:
        rig.run_until("PUSH " + NAMES[button])
        colours = rig.strip.colours()
        led = button if button < SEAT_BUTTONS else 9
        assert colours[led] == (LEVEL, LEVEL, LEVEL) and colours.count((0, 0, 0)) == 9, (button, colours)
        rig.press(button)


def test_a_clone_reader_passes_with_a_warning():
    rig = Rig(versions={4: 0x12})
    test = rig.answer_prompts()
    row = rows(test, "reader")[4]
    assert row[2] == WARN and row[3].startswith("0x12 clone")
    assert "r4 12" in rig.lines
    assert test.summary == "TEST OK"


def test_a_dead_reader_shows_dashes_and_is_the_first_failure():
    dead = {3: lambda clock: _dead(clock, 0xFF), 6: lambda clock: _dead(clock, 0x00)}
    rig = Rig(readers=dead)
    test = rig.answer_prompts()
    readers = rows(test, "reader")
    assert readers[3][2] == FAIL and readers[3][3] == "no answer 0xff"
    assert readers[6][2] == FAIL and readers[6][3] == "no answer 0x00"
    assert "r3 --" in rig.lines and "r6 --" in rig.lines
    assert test.summary == "r3 --" and reads(rig.shows(), "r3 --")
    assert rig.readers[3].field_switches == 0  # a reader that does not answer gets no antenna step
    assert rig.readers[0].field_switches == 1


def _dead(clock, miso):
    model = MFRC522Model(clock)
    model.drop_off_bus(miso)
    return model


def test_reads_that_disagree_are_an_unstable_bus():
    rig = Rig(readers={2: UnstableReader})
    test = rig.answer_prompts()
    row = rows(test, "reader")[2]
    assert row[2] == FAIL and row[3].startswith("unstable ")
    assert "r2 ??" in rig.lines
    assert test.summary == "r2 ??"


def test_a_button_held_at_the_start_is_stuck_and_not_asked_for():
    rig = Rig(held=(BUTTON_OK,))
    order = [b for b in ALL_BUTTONS if b != BUTTON_OK]
    for button in order:
        rig.run_until("PUSH " + NAMES[button])
        rig.press(button)
    test = rig.finish()
    buttons = rows(test, "button")
    assert ("button", "OK", FAIL, "stuck: held at start") in buttons
    assert not any(reads(line, "PUSH OK") for line in rig.lines)
    assert [row[1] for row in buttons if row[2] == OK] == [NAMES[b] for b in order]
    assert test.summary == "bUt OK"


def test_the_wrong_button_is_reported_swapped():
    rig = Rig()
    order = list(ALL_BUTTONS)
    order[1], order[2] = order[2], order[1]  # seats 2 and 3 (S2, S3) wired the other way round
    test = rig.answer_prompts(order)
    buttons = rows(test, "button")
    assert buttons[1] == ("button", "S2", FAIL, "swapped: got S3")
    assert buttons[2] == ("button", "S3", FAIL, "swapped: got S2")
    assert test.summary == "bUt S2"


def test_no_press_within_ten_seconds_is_missing():
    rig = Rig()
    for button in ALL_BUTTONS[:BUTTON_MENU]:
        rig.run_until("PUSH " + NAMES[button])
        rig.press(button)
    asked = rig.run_until("PUSH MENU")
    asked_next = rig.run_until("PUSH OK")
    assert BUTTON_TIMEOUT_MS <= asked_next - asked <= BUTTON_TIMEOUT_MS + 20
    rig.press(BUTTON_OK)
    rig.run_until("PUSH UNDO")
    rig.press(BUTTON_UNDO)
    test = rig.finish()
    assert ("button", "MENU", FAIL, "missing: none in 10 s") in test.results
    assert test.summary == "bUt MENU"


def test_a_report_fits_one_link_frame():
    rig = Rig(readers={z: UnstableReader for z in range(9)})
    test = rig.answer_prompts([None] * 7)
    size = 1 + len(test.summary) + 1
    for row in test.results:
        size += sum(1 + len(field) for field in row)
    assert len(test.results) == 19 and size < 1024, size
