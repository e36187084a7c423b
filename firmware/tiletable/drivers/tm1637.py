"""TM1637 4-digit 7-segment module on two GPIOs (CLK, DIO), bit-banged with open-drain pins.

The wire protocol (Titan Micro TM1637 datasheet v2.4, "Interface interpretation"):
start = DIO falls while CLK is high, stop = DIO rises while CLK is high; data changes
while CLK is low and is read on CLK's rising edge, least significant bit first. After
the 8th bit the chip pulls DIO low from the 8th falling edge to the end of the 9th clock
(ACK). One update is three transfers: data command 0x40 (auto-increment address), then
address command 0xC0 followed by the digits, then display control 0x88 | brightness
(0x80 switches the display off).

Both lines are driven open-drain (low, or released to the pull-up) so the chip's ACK
never fights the Pico. There is no addressing: several seats use several ``TM1637``
objects, each with its own DIO; they may share one CLK (the reference board does), since
a module whose DIO stays released never sees a start condition. A module that does not
acknowledge raises ``OSError`` naming its pins, at construction and on every transfer.
"""
from micropython import const

from tiletable.drivers.segments import SegmentDisplay

try:
    from time import sleep_us
except ImportError:  # CPython runs the simulation, where the wire has no timing

    def sleep_us(us):
        pass


_DATA_AUTO_INCREMENT = const(0x40)
_ADDRESS_0 = const(0xC0)
_DISPLAY_ON = const(0x88)
_DISPLAY_OFF = const(0x80)
_MAX_DIGITS = const(6)


class TM1637(SegmentDisplay):
    """One TM1637 module; buffer index 0 is address 0xC0, the leftmost digit on 4-digit modules.

    ``bit_delay_us`` stretches each clock phase: the datasheet's 250 kHz limit and the
    slow edges of the modules' pull-ups and filter capacitors want a few microseconds.

    Example: ``seat0 = TM1637(Pin(2), Pin(3)); seat0.buffer[3] = glyph("7"); seat0.show()``
    """

    BRIGHTNESS_LEVELS = 8  # the chip's pulse-width steps
    bit_delay_us = 5

    def __init__(self, clk, dio, digits=4, max_brightness=7, brightness=None):
        if not 1 <= digits <= _MAX_DIGITS:
            raise ValueError("tm1637 with %r digits; expected 1..6" % (digits,))
        if not 0 <= max_brightness < self.BRIGHTNESS_LEVELS:
            raise ValueError("tm1637 brightness cap %r outside 0..7" % (max_brightness,))
        super().__init__(digits)
        self.max_brightness = max_brightness
        self._clk = clk
        self._dio = dio
        self._brightness = 0
        self._on = True
        dio.init(dio.OPEN_DRAIN, dio.PULL_UP, value=1)
        clk.init(clk.OPEN_DRAIN, clk.PULL_UP, value=1)
        self.set_brightness(max_brightness if brightness is None else brightness)
        self.show()

    def set_brightness(self, level):
        """Pulse width 0..``max_brightness`` (1/16 .. 14/16 of the time)."""
        if not 0 <= level <= self.max_brightness:
            raise ValueError("tm1637 brightness %r outside 0..%d" % (level, self.max_brightness))
        self._brightness = level
        self._send_control()

    def set_power(self, on):
        """Switch the display on or off; the digit registers keep their contents."""
        self._on = bool(on)
        self._send_control()

    def show(self):
        """Send the buffer (blinking digits blanked in their off phase), then the display control."""
        self._start()
        self._write_byte(_DATA_AUTO_INCREMENT)
        self._stop()
        self._start()
        self._write_byte(_ADDRESS_0)
        for index in range(self.digits):
            self._write_byte(self.visible(index))
        self._stop()
        self._send_control()

    def _send_control(self):
        self._start()
        self._write_byte(_DISPLAY_ON | self._brightness if self._on else _DISPLAY_OFF)
        self._stop()

    def _start(self):
        # Both lines are released (high) between transfers: DIO falling is the start.
        self._dio(0)
        sleep_us(self.bit_delay_us)
        self._clk(0)

    def _stop(self):
        self._dio(0)
        sleep_us(self.bit_delay_us)
        self._clk(1)
        sleep_us(self.bit_delay_us)
        self._dio(1)

    def _write_byte(self, byte):
        clk = self._clk
        dio = self._dio
        delay = self.bit_delay_us
        for bit in range(8):
            dio((byte >> bit) & 1)
            sleep_us(delay)
            clk(1)
            sleep_us(delay)
            clk(0)
        dio(1)  # release DIO so the chip can pull it low
        sleep_us(delay)
        clk(1)
        sleep_us(delay)
        acknowledged = dio() == 0
        clk(0)
        if not acknowledged:
            self._stop()
            raise OSError("no tm1637 answered on clk %r dio %r (no ack for byte 0x%02x)" % (clk, dio, byte))
