"""7-segment font, the digit buffer both display chips share, and the per-seat score display.

Segments are one byte per digit in the usual order, bit 0 = a ... bit 6 = g, bit 7 = the
decimal point (TM1637 wiring; the MAX7219 driver reorders the bits for its chip)::

     aaa
    f   b
     ggg
    e   c
     ddd  .

``SegmentDisplay`` is the chip-independent part of a display driver (after
micropython-lib's ``SSD1306``/``FrameBuffer`` split): a buffer of ``digits`` bytes,
index 0 the leftmost digit, that callers draw into before ``show()`` sends it, and a blink
that ``tick(now_ms)`` runs without timers. ``Max7219`` and ``TM1637`` subclass it and add
``show()``, ``set_brightness(level)`` (0 .. ``max_brightness``, the chip's top step unless a
power budget caps it lower) and ``set_power(on)``.

``ScoreDisplay`` is what the runtime uses: one group of ``width`` digits per seat, placed
anywhere on one or more displays, so a chain of MAX7219 modules and a row of TM1637
modules look the same to it.
"""
from micropython import const

from tiletable.drivers.clock import ticks_add, ticks_diff

SEGMENT_DP = const(0x80)
_FIRST_CHAR = const(32)
_NO_GLYPH = const(0xFF)

# One glyph per ASCII character from space to DEL; 0xFF marks characters no 7-segment
# digit can show. Letters without an upper-case shape use the lower-case one (B -> b,
# D -> d, R -> r, T -> t) and the other way round (a -> A, g -> 9); M is drawn as the
# usual "top bar and three legs" (a, c, e). '.' is only the decimal point.
FONT = (
    #   ! " # $ % & ' ( ) * + , - . /
    b"\x00\xff\x22\xff\xff\xff\xff\x02\xff\xff\xff\xff\xff\x40\x80\xff"
    # 0 1 2 3 4 5 6 7 8 9 : ; < = > ?
    b"\x3f\x06\x5b\x4f\x66\x6d\x7d\x07\x7f\x6f\xff\xff\xff\x48\xff\x53"
    # @ A B C D E F G H I J K L M N O
    b"\xff\x77\x7c\x39\x5e\x79\x71\x3d\x76\x30\x1e\x75\x38\x15\x37\x3f"
    # P Q R S T U V W X Y Z [ \ ] ^ _
    b"\x73\x67\x50\x6d\x78\x3e\x3e\x2a\x76\x6e\x5b\x39\xff\x0f\xff\x08"
    # ` a b c d e f g h i j k l m n o
    b"\xff\x77\x7c\x58\x5e\x79\x71\x6f\x74\x10\x1e\x75\x30\x15\x54\x5c"
    # p q r s t u v w x y z { | } ~ DEL
    b"\x73\x67\x50\x6d\x78\x1c\x1c\x2a\x76\x6e\x5b\xff\xff\xff\xff\xff"
)
_DIGIT_GLYPHS = FONT[16:26]
_MINUS = const(0x40)
_LETTER_O = const(0x3F)
_LETTER_L = const(0x38)


def glyph(char):
    """The segment byte for one character.

    :raises ValueError: when no 7-segment digit can show ``char``.
    Example: ``glyph("P") == 0x73``.
    """
    code = ord(char) - _FIRST_CHAR
    segments = FONT[code] if 0 <= code < len(FONT) else _NO_GLYPH
    if segments == _NO_GLYPH:
        raise ValueError("no 7-segment glyph for %r" % (char,))
    return segments


class SegmentDisplay:
    """Digit buffer plus blink; subclasses send it to their chip in ``show()``.

    Blinking digits are blanked during the off part of each period; ``tick(now_ms)``
    flips the phase when it is due and calls ``show()`` only then, so calling it every
    loop costs a comparison.
    """

    blink_on_ms = 500
    blink_off_ms = 250

    def __init__(self, digits):
        self.digits = digits
        self.buffer = bytearray(digits)
        self._blinking = bytearray(digits)
        self._blink_count = 0
        self._blink_hidden = False
        self._blink_due = None
        self._unblinked_while_hidden = False

    def set_blink(self, first, count, on):
        """Blink (or stop blinking) ``count`` digits from ``first``; takes effect at the next tick."""
        self._check_range(first, count)
        on = 1 if on else 0
        for index in range(first, first + count):
            if self._blinking[index] != on:
                self._blinking[index] = on
                self._blink_count += 1 if on else -1
                if not on and self._blink_hidden:
                    self._unblinked_while_hidden = True  # blank on the display until sent again
        if not self._blink_count:
            self._blink_hidden = False
            self._blink_due = None

    def tick(self, now_ms):
        """Advance the blink; sends the buffer when the visible phase changes."""
        if self._unblinked_while_hidden:
            self._unblinked_while_hidden = False
            self.show()
        if not self._blink_count:
            return
        if self._blink_due is None:
            self._blink_due = ticks_add(now_ms, self.blink_on_ms)
            return
        if ticks_diff(now_ms, self._blink_due) < 0:
            return
        self._blink_hidden = not self._blink_hidden
        self._blink_due = ticks_add(now_ms, self.blink_off_ms if self._blink_hidden else self.blink_on_ms)
        self.show()

    def visible(self, index):
        """The segments digit ``index`` should light now (blank in a blink's off phase)."""
        if self._blink_hidden and self._blinking[index]:
            return 0
        return self.buffer[index]

    def _check_range(self, first, count):
        if first < 0 or count < 0 or first + count > self.digits:
            raise ValueError("digits %r..%r outside a %d-digit display" % (first, first + count - 1, self.digits))


class DisplayRow(SegmentDisplay):
    """Several displays side by side as one: ``buffer`` runs across all their digits and
    ``show()`` hands each display its part. The self test writes across the four TM1637
    modules of that build this way, as it writes across a MAX7219 chain."""

    def __init__(self, displays):
        super().__init__(sum(d.digits for d in displays))
        self.displays = displays

    def show(self):
        i = 0
        for display in self.displays:
            for j in range(display.digits):
                display.buffer[j] = self.visible(i)
                i += 1
            display.show()


class ScoreDisplay:
    """One ``width``-digit group per seat over one or more ``SegmentDisplay``\\ s.

    ``groups`` lists, per seat, ``(display, first_digit)``: e.g. two chained MAX7219
    modules for four seats are ``[(chain, 0), (chain, 4), (chain, 8), (chain, 12)]``,
    and four TM1637 modules are ``[(tm0, 0), (tm1, 0), (tm2, 0), (tm3, 0)]``. Drawing
    only changes buffers; ``show()`` sends every display once.

    Example::

        scores = ScoreDisplay([(chain, 0), (chain, 4)])
        scores.draw_number(0, -12)
        scores.draw_text(1, "PASS")
        scores.show()
    """

    def __init__(self, groups, width=4):
        if width < 3:
            raise ValueError("a %r-digit group cannot show -OL; seats need at least 3 digits" % (width,))
        self.width = width
        self._groups = groups
        self._displays = []
        for display, first in groups:
            display._check_range(first, width)
            if display not in self._displays:
                self._displays.append(display)
        self.largest = 10**width - 1
        self.smallest = -(10 ** (width - 1) - 1)

    @property
    def seats(self):
        return len(self._groups)

    def draw_number(self, seat, value):
        """Draw ``value`` right-aligned with a leading minus when negative.

        A value outside ``smallest..largest`` (-999..9999 for four digits) is drawn as
        ``OL`` or ``-OL`` (the multimeter's "overload") instead of a wrong number.
        Returns whether the value fitted. Allocates nothing.
        """
        display, first = self._group(seat)
        buffer = display.buffer
        position = first + self.width - 1
        fits = self.smallest <= value <= self.largest
        if fits:
            remaining = -value if value < 0 else value
            while True:
                buffer[position] = _DIGIT_GLYPHS[remaining % 10]
                remaining //= 10
                position -= 1
                if not remaining:
                    break
        else:
            buffer[position] = _LETTER_L
            buffer[position - 1] = _LETTER_O
            position -= 2
        if value < 0:
            buffer[position] = _MINUS
            position -= 1
        while position >= first:
            buffer[position] = 0
            position -= 1
        return fits

    def draw_text(self, seat, text, right_align=False):
        """Draw a short word (``MUGG``, ``Err3``, ``bid5``); a ``.`` lights the previous digit's point.

        Walking a str makes one-character strings, which MicroPython allocates unless it
        has interned them, so this may allocate a few bytes: call it on game events, not
        in the polling loop (``draw_number``, ``tick`` and ``show`` allocate nothing).

        :raises ValueError: for a character without a glyph or text wider than the group.
        """
        display, first = self._group(seat)
        used = 0
        previous_has_point = True
        for char in text:
            if char == "." and not previous_has_point:
                previous_has_point = True
                continue
            glyph(char)
            used += 1
            previous_has_point = char == "."
        if used > self.width:
            raise ValueError("text %r needs %d digits, a seat has %d" % (text, used, self.width))
        buffer = display.buffer
        position = first
        end = first + self.width
        if right_align:
            while position < end - used:
                buffer[position] = 0
                position += 1
        previous_has_point = True
        for char in text:
            if char == "." and not previous_has_point:
                buffer[position - 1] |= SEGMENT_DP
                previous_has_point = True
                continue
            buffer[position] = glyph(char)
            position += 1
            previous_has_point = char == "."
        while position < end:
            buffer[position] = 0
            position += 1

    def draw_segments(self, seat, digit, segments):
        """Set one digit of a seat's group to raw segment bits (for custom symbols)."""
        if not 0 <= digit < self.width:
            raise ValueError("digit %r outside a %d-digit group" % (digit, self.width))
        display, first = self._group(seat)
        display.buffer[first + digit] = segments

    def clear(self, seat=None):
        """Blank one seat's group, or every group."""
        for index in range(len(self._groups)) if seat is None else (seat,):
            display, first = self._group(index)
            for position in range(first, first + self.width):
                display.buffer[position] = 0

    def blink(self, seat, on=True):
        """Blink a seat's group (e.g. whose turn it is, or a score awaiting confirmation)."""
        display, first = self._group(seat)
        display.set_blink(first, self.width, on)

    def brightness(self, percent):
        """Set every display to ``percent`` of its allowed brightness; 0 switches them off.

        Each chip has few steps (MAX7219 16, TM1637 8, fewer under a power cap), so
        1..100 % maps evenly onto 0..``max_brightness``; 100 % is the cap.
        """
        if not 0 <= percent <= 100:
            raise ValueError("brightness %r%% outside 0..100" % (percent,))
        for display in self._displays:
            if percent:
                display.set_brightness((percent - 1) * (display.max_brightness + 1) // 100)
            display.set_power(percent > 0)

    def show(self):
        """Send every display's buffer."""
        for display in self._displays:
            display.show()

    def tick(self, now_ms):
        """Run the displays' blink; call it from the main loop."""
        for display in self._displays:
            display.tick(now_ms)

    def _group(self, seat):
        if not 0 <= seat < len(self._groups):
            raise ValueError("seat %r outside 0..%d" % (seat, len(self._groups) - 1))
        return self._groups[seat]
