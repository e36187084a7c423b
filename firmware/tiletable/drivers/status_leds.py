"""WS2812 status LEDs: whose turn, the candidate ends, results by zone, and a legal/illegal flash, within a current budget.

The driver receives an already-built ``neopixel.NeoPixel`` (built into the rp2 firmware;
``sim/neopixel.py`` in simulation) rather than a pin and a count: the board set-up owns
the pin and the strip length, the driver stays free of ``machine``, and a test hands
in the recording stand-in. It writes the strip's ``buf`` directly in the strip's
``ORDER`` (GRB) because ``strip[i] = (r, g, b)`` builds a tuple per LED and ``tick()``
must not allocate.

Current estimate (WS2812B): each colour channel draws about ``channel_ma`` = 20 mA at
255 and proportionally less below (PWM), so full white is about 60 mA per LED; every LED
also draws about ``idle_ma`` = 1 mA when dark. With ``budget_ma`` set, a frame whose
estimate exceeds the budget is scaled down as a whole (hues kept), so e.g. 30 LEDs (1.8 A
at full white) stay under a 500 mA USB budget. ``estimated_ma`` is the last frame's figure.

Example::

    leds = StatusLeds(NeoPixel(Pin(16), 12), seat_leds=(0, 1, 2, 3), end_leds=((4, 5), (6, 7)), budget_ma=400)
    leds.show_turn(2)
    leds.show_result(9, StatusLeds.WIN)  # the LED beside a zone: green (LOSS red, DRAW amber)
    leds.flash_illegal(now_ms)
    ... leds.tick(time.ticks_ms())  # in the main loop
"""
from micropython import const

from tiletable.drivers.clock import ticks_add, ticks_diff

_ROLE_OFF = const(0)
_ROLE_TURN = const(1)
_ROLE_END = const(2)
_ROLE_WIN = const(3)
_ROLE_LOSS = const(4)
_ROLE_DRAW = const(5)
_ROLE_FLASH = const(6)  # the flash's colour, in the palette after the roles'


class StatusLeds:
    """Seat and end-zone LEDs on one strip; changes appear at the next ``tick(now_ms)`` (or ``show()``)."""

    OFF = (0, 0, 0)
    # Results for show_result (a role each, so a frame is composed without building tuples).
    WIN = _ROLE_WIN
    LOSS = _ROLE_LOSS
    DRAW = _ROLE_DRAW
    turn_colour = (0, 90, 255)
    end_colour = (255, 110, 0)
    legal_colour = (0, 255, 0)
    illegal_colour = (255, 0, 0)
    win_colour = (0, 255, 0)
    loss_colour = (255, 0, 0)
    draw_colour = (255, 110, 0)
    # Flash patterns: lit and dark durations in ms, alternating, starting lit.
    legal_flash_ms = (300,)
    illegal_flash_ms = (150, 100, 150, 100, 150)
    blink_ms = 60  # the dark step a flash starts with over the same flash still lit
    channel_ma = 20
    idle_ma = 1

    def __init__(self, strip, seat_leds, end_leds=(), flash_leds=None, budget_ma=None):
        self._strip = strip
        self.count = strip.n
        self.seat_leds = seat_leds
        self.end_leds = end_leds
        for led in seat_leds:
            self._check_led(led)
        for zone in end_leds:
            for led in zone:
                self._check_led(led)
        self._roles = bytearray(self.count)
        self._flashed = bytearray(self.count)
        for led in range(self.count) if flash_leds is None else flash_leds:
            self._check_led(led)
            self._flashed[led] = 1
        self._palette = bytearray(3 * (_ROLE_FLASH + 1))
        self._sums = [0] * (_ROLE_FLASH + 1)
        self._palette_stale = True
        self._role_colours = (
            self.OFF, self.turn_colour, self.end_colour, self.win_colour, self.loss_colour, self.draw_colour
        )
        self.brightness = 255
        self.budget_ma = budget_ma
        self.estimated_ma = 0
        self._turn = None
        self._flash_pattern = None
        self._flash_colour = self.OFF
        self._flash_step = 0
        self._flash_due = 0
        self._dirty = True

    def show_turn(self, seat):
        """Light ``seat``'s LED (None: nobody's turn)."""
        if seat is not None and not 0 <= seat < len(self.seat_leds):
            raise ValueError("seat %r outside 0..%d" % (seat, len(self.seat_leds) - 1))
        if self._turn is not None:
            self._roles[self.seat_leds[self._turn]] = _ROLE_OFF
        if seat is not None:
            self._roles[self.seat_leds[seat]] = _ROLE_TURN
        self._turn = seat
        self._dirty = True

    def show_candidate_ends(self, mask):
        """Light the LEDs of every end zone whose bit is set in ``mask`` (bit 0 = end 0); 0 clears them."""
        if mask >> len(self.end_leds):
            raise ValueError("end mask 0x%x names ends beyond %d" % (mask, len(self.end_leds)))
        for end in range(len(self.end_leds)):
            role = _ROLE_END if mask & (1 << end) else _ROLE_OFF
            for led in self.end_leds[end]:
                self._roles[led] = role
        self._dirty = True

    def show_result(self, led, result):
        """Light ``led`` in a result's colour: ``WIN`` green, ``LOSS`` red, ``DRAW`` amber, None dark.

        For LEDs that are neither a seat's nor an end's (``show_turn`` and
        ``show_candidate_ends`` repaint those). Allocates nothing.
        """
        self._check_led(led)
        if result is None:
            role = _ROLE_OFF
        elif _ROLE_WIN <= result <= _ROLE_DRAW:
            role = result
        else:
            raise ValueError("result %r is not WIN, LOSS or DRAW" % (result,))
        if self._roles[led] != role:
            self._roles[led] = role
            self._dirty = True

    def clear_results(self):
        """Darken every LED ``show_result`` lit."""
        roles = self._roles
        for led in range(self.count):
            if roles[led] >= _ROLE_WIN:
                roles[led] = _ROLE_OFF
                self._dirty = True

    def flash_legal(self, now_ms):
        self._start_flash(self.legal_flash_ms, self.legal_colour, now_ms)

    def flash_illegal(self, now_ms):
        self._start_flash(self.illegal_flash_ms, self.illegal_colour, now_ms)

    def stop_flash(self):
        """End a running flash now: the steady view comes back at the next ``show``."""
        if self._flash_pattern is not None:
            self._flash_pattern = None
            self._dirty = True

    def set_brightness(self, level):
        """Scale every colour by ``level``/255 before the current cap applies."""
        if not 0 <= level <= 255:
            raise ValueError("led brightness %r outside 0..255" % (level,))
        self.brightness = level
        self._palette_stale = True
        self._dirty = True

    @property
    def is_flashing(self):
        return self._flash_pattern is not None

    def tick(self, now_ms):
        """Advance a running flash and write the strip if anything visible changed. Allocates nothing."""
        pattern = self._flash_pattern
        while pattern is not None and ticks_diff(now_ms, self._flash_due) >= 0:
            self._flash_step += 1
            self._dirty = True
            if self._flash_step >= len(pattern):
                pattern = self._flash_pattern = None
            else:
                self._flash_due = ticks_add(self._flash_due, pattern[self._flash_step])
        if self._dirty:
            self.show()

    def show(self):
        """Compose the frame (flash over roles) from the palette, cap it to the budget, write it.
        One pass over the LEDs: the accepted-play flash waits on this."""
        self._dirty = False
        if self._palette_stale:
            self._build_palette()
        strip = self._strip
        buf = strip.buf
        bpp = strip.bpp
        palette = self._palette
        sums = self._sums
        roles = self._roles
        flashed = self._flashed
        flashing = self._flash_pattern is not None
        flash_role = _ROLE_OFF if self._flash_step & 1 else _ROLE_FLASH
        total = 0
        at = 0
        for led in range(self.count):
            role = flash_role if flashing and flashed[led] else roles[led]
            source = 3 * role
            buf[at] = palette[source]
            buf[at + 1] = palette[source + 1]
            buf[at + 2] = palette[source + 2]
            total += sums[role]
            at += bpp
        if self.budget_ma is not None:
            allowed = max(0, (self.budget_ma - self.count * self.idle_ma) * 255 // self.channel_ma)
            if total > allowed:
                total = self._dim(buf, bpp, total, allowed)
        self.estimated_ma = self.count * self.idle_ma + total * self.channel_ma // 255
        strip.write()

    def _dim(self, buf, bpp, total, allowed):
        """Scale every channel by ``allowed``/``total`` (hues kept); the new total."""
        sent = 0
        at = 0
        for _ in range(self.count):
            for channel in range(3):
                value = buf[at + channel] * allowed // total
                buf[at + channel] = value
                sent += value
            at += bpp
        return sent

    def _build_palette(self):
        """Each role's colour at the brightness, in the strip's byte order, and its sum."""
        order = self._strip.ORDER
        level = self.brightness
        for role in range(_ROLE_FLASH + 1):
            colour = self._flash_colour if role == _ROLE_FLASH else self._role_colours[role]
            total = 0
            for channel in range(3):
                value = colour[channel] * level // 255
                self._palette[3 * role + order[channel]] = value
                total += value
            self._sums[role] = total
        self._palette_stale = False

    def _start_flash(self, pattern, colour, now_ms):
        """Start a flash; over a flash still lit in the same colour (a tile laid while the one
        before still flashes) it starts with a ``blink_ms`` dark step, so the new verdict shows
        at once instead of going unseen in the light of the old."""
        lit = self._flash_pattern is not None and not self._flash_step & 1 and colour is self._flash_colour
        self._flash_pattern = pattern
        if colour is not self._flash_colour:
            self._flash_colour = colour
            self._palette_stale = True
        if lit:
            self._flash_step = -1  # odd: dark; tick() steps to 0, the pattern's first lit step
            self._flash_due = ticks_add(now_ms, self.blink_ms)
        else:
            self._flash_step = 0
            self._flash_due = ticks_add(now_ms, pattern[0])
        self._dirty = True

    def _check_led(self, led):
        if not 0 <= led < self.count:
            raise ValueError("led %r outside a strip of %d" % (led, self.count))
