"""What the table shows and sounds: seat displays, status LEDs and the buzzer, with timed messages.

The table redraws its steady view (scores, prompts) whenever the game changes; a *message*
(``Err4``, ``tAG?``) overrides one seat's group for a while and the steady view comes back by
itself: ``tick(now_ms)`` returns True when a message ran out, and the table redraws. Drawing
only fills buffers; ``show()`` sends them once per change, so a burst of updates costs one
SPI transfer.
"""
from tiletable.drivers.buzzer import Buzzer
from tiletable.drivers.clock import ticks_add, ticks_diff

MESSAGE_MS = 1500


def error_text(code):
    """What a seat's four digits show for reason ``code``: ``Err4``, or ``Er16`` for two digits."""
    return ("Err%d" if code < 10 else "Er%d") % code


def tiles_text(count):
    """What a seat's four digits show for ``count`` tiles on a pad that wants one: ``2tLS``, or
    ``11tL`` for two digits (a whole hand laid there: "11tLS" raised out of the scan, and the
    board restarted into the same tiles, again and again)."""
    return ("%dtLS" if count < 10 else "%dtL") % count


class TableUi:
    def __init__(self, display, buzzer):
        self.display = display
        self.buzzer = buzzer
        self.leds = None  # set per game: the LEDs depend on the tray profile
        self.seats = display.seats
        self._message_until = [None] * self.seats
        self._dirty = False

    def text(self, seat, text, blink=False):
        """Steady text on a seat's group (kept under a message until the message ends)."""
        if self._message_until[seat] is None:
            self.display.draw_text(seat, text, right_align=True)
            self.display.blink(seat, blink)
            self._dirty = True

    def number(self, seat, value, blink=False):
        if self._message_until[seat] is None:
            self.display.draw_number(seat, value)
            self.display.blink(seat, blink)
            self._dirty = True

    def blank(self, seat):
        self.text(seat, "")

    def message(self, seat, text, now_ms, hold_ms=MESSAGE_MS):
        """Show ``text`` on ``seat`` for ``hold_ms``, over the steady view."""
        self.display.draw_text(seat, text, right_align=True)
        self.display.blink(seat, False)
        self._message_until[seat] = ticks_add(now_ms, hold_ms)
        self._dirty = True

    def illegal(self, seat, code, now_ms, flash=True):
        """An illegal play: red flash (``flash`` False: the preview's goes on), the "no" buzz,
        ``Err<code>`` on the seat."""
        self.message(seat, error_text(code), now_ms)
        self.buzzer.play(Buzzer.ILLEGAL, now_ms)
        if flash and self.leds is not None:
            self.leds.flash_illegal(now_ms)
            self.leds.show()  # the verdict first: the strip now, the rest at the next tick

    def problem(self, seat, text, now_ms):
        """Something a person must fix (an unusable tag, two tiles on a pad): message and buzz."""
        self.message(seat, text, now_ms)
        self.buzzer.play(Buzzer.ERROR, now_ms)

    def legal(self, now_ms):
        """An accepted play: the green flash, on the strip at once."""
        if self.leds is not None:
            self.leds.flash_legal(now_ms)
            self.leds.show()

    def preview(self, verdict, now_ms):
        """The verdict on a tile read once and not yet confirmed: the flash alone, no buzz and
        no message (``legal`` or ``illegal`` follows once the tray confirms the read); None
        takes the flash back (the read was not confirmed)."""
        leds = self.leds
        if leds is not None:
            if verdict is None:
                leds.stop_flash()
            elif verdict:
                leds.flash_legal(now_ms)
            else:
                leds.flash_illegal(now_ms)
            leds.show()

    def chime(self, now_ms):
        self.buzzer.play(Buzzer.CONFIRM, now_ms)

    def turn(self, seat):
        """Light the LED of the seat to act (None: nobody)."""
        if self.leds is not None:
            self.leds.show_turn(seat)

    def candidate_ends(self, mask):
        if self.leds is not None:
            self.leds.show_candidate_ends(mask & ((1 << len(self.leds.end_leds)) - 1))

    def zone_result(self, zone, result):
        """The LED beside ``zone`` shows a result (``StatusLeds.WIN``/``LOSS``/``DRAW``, None: dark)."""
        if self.leds is not None:
            self.leds.show_result(zone, result)

    def clear_messages(self):
        for seat in range(self.seats):
            self._message_until[seat] = None

    def show(self):
        if self._dirty:
            self._dirty = False
            self.display.show()

    def tick(self, now_ms):
        """Run blinks, flashes and sounds; True when a message ended (the table redraws)."""
        ended = False
        for seat in range(self.seats):
            until = self._message_until[seat]
            if until is not None and ticks_diff(now_ms, until) >= 0:
                self._message_until[seat] = None
                ended = True
        self.display.tick(now_ms)
        if self.leds is not None:
            self.leds.tick(now_ms)
        self.buzzer.tick(now_ms)
        return ended
