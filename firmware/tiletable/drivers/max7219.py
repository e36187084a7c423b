"""MAX7219 8-digit 7-segment modules, several chained on one SPI bus with one chip-select.

Every write is a 16-bit frame, register address then data, MSB first, latched by all
chips on the rising edge of CS (LOAD). Chained chips pass bits on from DOUT to the next
DIN, so a chain of N chips takes N frames per latch: the frame sent first ends in the
chip furthest from the Pico. This driver always sends the same register to every chip in
one latch, so no-op frames (register 0) are never needed.

The chips run in no-decode mode with ``segments.FONT`` (code B has no letters). Digit
register 1 (DIG0) is the *rightmost* digit on the common 8-digit modules, so digit
index 0 of the buffer (leftmost) is register 8. Module 0 is the one wired to the Pico.

Sending one frame per chip on every latch also makes the chain immune to other devices'
traffic on a shared SCK/MOSI (the reference board shares the readers' bus): the chips
shift in every clock but latch only on LOAD, and a full latch pushes the stray bits out.

The bus is created by the board set-up: SPI mode 0, MSB first, up to 10 MHz; a 74AHCT125
(or similar) lifts 3.3 V logic to the ≥3.5 V the chip wants. ``max_brightness`` caps the
intensity register where the power budget requires it (``board.pins.DISPLAY_MAX_INTENSITY``).
"""
import sys

from micropython import const

from tiletable.drivers.segments import SegmentDisplay

_DIGIT_0 = const(0x01)
_DECODE_MODE = const(0x09)
_INTENSITY = const(0x0A)
_SCAN_LIMIT = const(0x0B)
_SHUTDOWN = const(0x0C)
_DISPLAY_TEST = const(0x0F)
_DIGITS_PER_CHIP = const(8)


def _to_chip_order(segments):
    """Standard segment bits (a = bit 0 .. g = bit 6) to the MAX7219's (a = D6 .. g = D0, DP = D7)."""
    result = segments & 0x80
    bit = 0x40
    for segment in range(7):
        if segments & (1 << segment):
            result |= bit
        bit >>= 1
    return result


# Every segment byte in chip order, looked up at each ``show()``.
_CHIP_ORDER = bytes(_to_chip_order(segments) for segments in range(256))


def fill_row(frames, buffer, hidden, register):
    """Lay out one latch of a show: digit ``register`` and its segments (in chip order) for
    every chip, the chip furthest from the Pico first; a digit whose ``hidden`` byte is set is
    sent dark. Where MicroPython compiles viper code, ``max7219_native.fill_row`` replaces it:
    reordering the bits digit by digit took 1.7 ms of the 2.3 ms a show took on the chip, and
    a show stands between a play and its score digits."""
    index = _DIGITS_PER_CHIP - register  # the register's digit on module 0, whose frame goes last
    offset = len(frames)
    while offset:
        offset -= 2
        frames[offset] = register
        frames[offset + 1] = 0 if hidden[index] else _CHIP_ORDER[buffer[index]]
        index += _DIGITS_PER_CHIP


if sys.implementation.name == "micropython":
    try:
        from tiletable.drivers.max7219_native import fill_row
    except (ImportError, SyntaxError, ValueError):  # no native emitter, or .mpy of another architecture
        pass


class Max7219(SegmentDisplay):
    """A chain of ``modules`` MAX7219 chips, 8 digits each, as one ``8 * modules``-digit display.

    Example: ``chain = Max7219(spi, Pin(17), modules=2); chain.buffer[0] = glyph("P"); chain.show()``
    """

    BRIGHTNESS_LEVELS = 16  # the chip's intensity steps

    def __init__(self, spi, cs, modules=1, max_brightness=15, brightness=None):
        if not 1 <= modules <= 16:
            raise ValueError("a chain of %r MAX7219 modules; expected 1..16" % (modules,))
        if not 0 <= max_brightness < self.BRIGHTNESS_LEVELS:
            raise ValueError("max7219 brightness cap %r outside 0..15" % (max_brightness,))
        super().__init__(modules * _DIGITS_PER_CHIP)
        self.max_brightness = max_brightness
        self.modules = modules
        self._spi = spi
        self._cs = cs
        self._frames = bytearray(2 * modules)
        self._none_hidden = bytearray(modules * _DIGITS_PER_CHIP)  # ``fill_row``'s mask outside a blink's off phase
        cs.init(cs.OUT, value=1)
        # Power-up state: shutdown, scan digit 0 only, decode off, intensity minimum; test
        # mode may be left on by a previous run. Set every register the display depends on.
        self._write_all(_DISPLAY_TEST, 0)
        self._write_all(_SCAN_LIMIT, _DIGITS_PER_CHIP - 1)
        self._write_all(_DECODE_MODE, 0)
        self.set_brightness(max_brightness if brightness is None else brightness)
        self.show()
        self.set_power(True)

    def set_brightness(self, level):
        """Intensity 0..``max_brightness`` (duty (2 * level + 1)/32 of the segment current set by RSET)."""
        if not 0 <= level <= self.max_brightness:
            raise ValueError("max7219 brightness %r outside 0..%d" % (level, self.max_brightness))
        self._write_all(_INTENSITY, level)

    def set_power(self, on):
        """Leave (or enter) shutdown; the digit registers keep their contents either way."""
        self._write_all(_SHUTDOWN, 1 if on else 0)

    def show(self):
        """Send the buffer (with blinking digits blanked in their off phase): 8 latches."""
        hidden = self._blinking if self._blink_hidden else self._none_hidden
        for register in range(_DIGIT_0, _DIGIT_0 + _DIGITS_PER_CHIP):
            fill_row(self._frames, self.buffer, hidden, register)
            self._latch()

    def _write_all(self, register, value):
        frames = self._frames
        for offset in range(0, len(frames), 2):
            frames[offset] = register
            frames[offset + 1] = value
        self._latch()

    def _latch(self):
        self._cs(0)
        self._spi.write(self._frames)
        self._cs(1)
