"""Debounced GPIO buttons polled from the main loop: press, release, long press, double press.

Timings follow peterhinch/micropython-async's ``EButton`` and are class attributes the
board set-up may change: a level counts once it has held for ``debounce_ms`` (contacts
bounce for up to about 10 ms, so no bounce ever becomes an event, at the cost of
``debounce_ms`` of latency); ``LONG`` comes once per hold after ``long_press_ms``; a press
within ``double_press_ms`` of the previous press also gives ``DOUBLE`` (after its
``PRESS``, as EButton does; a long press does not start a double). Times are measured
from when the contact settled, not from when a poll noticed, so the poll rate only
adds jitter.

``poll(now_ms)`` reads every pin and queues events in a bounded ring (``queue_size``;
when it is full the oldest event is dropped and counted in ``dropped``). An event is
one small int, ``button << 2 | kind``, so neither polling nor ``get()`` allocates;
``queued_before(time_ms)`` says whether the oldest waiting event happened before then
(a press or release at its contact's settling), for a user that takes buttons and
other input in the order they came.
``enable_irq(ticks_ms, flag)`` makes any edge set ``edge_pending`` (and ``flag.set()``,
e.g. an ``asyncio.ThreadSafeFlag``), so an idle loop can sleep until a button moves:
``needs_poll(now_ms)`` says whether anything is in progress. With the IRQs on, ``poll``
reads the pins only after an edge or while a contact settles or a long press may still
come: nothing else can make an event, and reading the seven pins every 10 ms was half of
an idle table's button step on the chip (314 of 650 us; 362 us with the IRQs).

The IRQs also time each contact (hard IRQs: at the edge itself, ``ticks_ms`` their
clock), so a press the loop never saw is not lost: a tap of 80 ms while one step held the
loop (a link reply, a collection: up to 90 ms on a stock build) has a press the polls see
down at most once. A release after the contact was down ``debounce_ms`` or more counts a
tap; a poll that finds taps it did not see queues them as PRESS and RELEASE.

Example::

    buttons = Buttons([Pin(10), Pin(11)])
    buttons.poll(time.ticks_ms())
    event = buttons.get()
    if event is not None and Buttons.kind_of(event) == Buttons.LONG: ...
"""
from tiletable.drivers.clock import ticks_diff


class Buttons:
    """Buttons on ``pins``; ``active_low`` = pressed pulls the pin to ground (with the internal pull-up if ``pull``)."""

    PRESS = 0
    RELEASE = 1
    LONG = 2
    DOUBLE = 3

    debounce_ms = 20
    long_press_ms = 1000
    double_press_ms = 400
    queue_size = 16

    def __init__(self, pins, active_low=True, pull=True):
        self._pins = pins
        self._active_low = active_low
        count = len(pins)
        for pin in pins:
            pin.init(pin.IN, (pin.PULL_UP if active_low else pin.PULL_DOWN) if pull else None)
        self._raw = bytearray(count)
        self._down = bytearray(count)
        self._long_sent = bytearray(count)
        self._double_armed = bytearray(count)
        self._settled_at = [0] * count
        self._pressed_at = [0] * count
        for button in range(count):
            level = self._read(button)
            self._raw[button] = self._down[button] = level
            self._long_sent[button] = level  # held since boot: no events until it is let go
        self._queue = [0] * self.queue_size
        self._times = [0] * self.queue_size  # ticks_ms of each queued event
        self._head = 0
        self._pending = 0
        self.dropped = 0
        self.edge_pending = False
        self._flag = None
        self._irq = False  # edges are flagged: a poll with none and nothing in progress reads no pin
        self._in_progress = True  # a contact settling or held short of a long press (as of the last reading)
        self._on_edge_handler = self._on_edge  # bound once: an IRQ must not allocate
        self._ticks_ms = None  # the IRQs' clock (enable_irq)
        self._edge_level = bytearray(self._raw)  # each contact's level at its last edge
        self._edge_ms = [0] * count  # ... and that edge's time
        self._taps = bytearray(count)  # presses of debounce_ms or more the IRQs saw end (mod 256)
        self._taps_seen = bytearray(count)  # ... that the polls have accounted for
        self._tap_ms = [0] * count  # when the latest of them began

    @staticmethod
    def button_of(event):
        return event >> 2

    @staticmethod
    def kind_of(event):
        return event & 3

    def is_down(self, button):
        """The debounced state of one button."""
        return bool(self._down[button])

    def poll(self, now_ms):
        """Read every button and queue what happened; returns how many events are waiting."""
        if self._irq and not self.edge_pending and not self._in_progress:
            return self._pending  # no edge since a reading that left nothing in progress
        self.edge_pending = False
        for button in range(len(self._pins)):
            self._poll_one(button, now_ms)
        self._in_progress = self._settling_or_held()
        return self._pending

    def _poll_one(self, button, now_ms):
        # A method of its own: MicroPython puts a call's frame on the heap when it needs more
        # than 11 words, and poll() with this inline did, at every call (a stock build
        # collects every 16 KB allocated, frames included).
        if self._taps[button] != self._taps_seen[button] and not self._down[button]:
            self._missed_tap(button)  # (a tap the IRQs counted ends a press: none is held now)
        level = self._read(button)
        if level != self._raw[button]:
            self._raw[button] = level
            self._settled_at[button] = now_ms
        elif level != self._down[button] and ticks_diff(now_ms, self._settled_at[button]) >= self.debounce_ms:
            self._settled(button, level)
        if self._down[button] and not self._long_sent[button] and ticks_diff(now_ms, self._pressed_at[button]) >= self.long_press_ms:
            self._long_sent[button] = 1
            self._double_armed[button] = 0
            self._put(button, self.LONG, now_ms)

    def _settled(self, button, level):
        """The contact has held ``level`` for ``debounce_ms``: it is the button's state now."""
        self._down[button] = level
        at = self._settled_at[button]
        if level:
            self._pressed(button, at)
        else:
            self._taps_seen[button] = self._taps[button]
            self._put(button, self.RELEASE, at)

    def _settling_or_held(self):
        """Whether a later poll may queue an event without another edge: a level not yet
        debounced, or a button down that has not sent its LONG. (A double press needs the
        next press's edges.)"""
        for button in range(len(self._pins)):
            if self._raw[button] != self._down[button] or (self._down[button] and not self._long_sent[button]):
                return True
        return False

    def queued_before(self, time_ms):
        """Whether the oldest queued event happened before ``time_ms`` (a ticks_ms)."""
        return self._pending > 0 and ticks_diff(time_ms, self._times[self._head]) > 0

    def get(self):
        """The oldest queued event, or None."""
        if not self._pending:
            return None
        event = self._queue[self._head]
        self._head = (self._head + 1) % self.queue_size
        self._pending -= 1
        return event

    def enable_irq(self, ticks_ms, flag=None):
        """Flag and time every edge from the pins' IRQs (``ticks_ms``: the clock the polls are
        given; the handler allocates nothing), and from then on poll only what an edge or a
        press in progress may change."""
        self._flag = flag
        self._ticks_ms = ticks_ms
        now = ticks_ms()
        for button in range(len(self._pins)):
            self._edge_level[button] = self._read(button)
            self._edge_ms[button] = now
        for pin in self._pins:
            pin.irq(self._on_edge_handler, pin.IRQ_FALLING | pin.IRQ_RISING, hard=True)
        self._irq = True
        self._in_progress = True  # the next poll reads every pin: a level may have changed unflagged

    def needs_poll(self, now_ms):
        """Whether polling can change anything now: an edge was flagged, a contact is settling or
        held, or a double press can still complete. When False the loop may wait for an edge."""
        if self.edge_pending:
            return True
        for button in range(len(self._pins)):
            if self._raw[button] or self._down[button]:
                return True
            if self._double_armed[button] and ticks_diff(now_ms, self._pressed_at[button]) < self.double_press_ms:
                return True
        return False

    def _missed_tap(self, button):
        """Queue the taps the IRQs saw end while no poll saw the contact down long enough:
        one PRESS and RELEASE (taps closer than a poll apart are one to the table anyway)."""
        self._taps_seen[button] = self._taps[button]
        self._pressed(button, self._tap_ms[button])
        self._put(button, self.RELEASE, self._edge_ms[button])

    def _pressed(self, button, settled):
        double = self._double_armed[button] and ticks_diff(settled, self._pressed_at[button]) <= self.double_press_ms
        self._pressed_at[button] = settled
        self._long_sent[button] = 0
        self._put(button, self.PRESS, settled)
        if double:
            self._double_armed[button] = 0
            self._put(button, self.DOUBLE, settled)
        else:
            self._double_armed[button] = 1

    def _read(self, button):
        level = self._pins[button].value()
        return 1 - level if self._active_low else level

    def _put(self, button, kind, at_ms):
        if self._pending == self.queue_size:
            self._head = (self._head + 1) % self.queue_size
            self._pending -= 1
            self.dropped += 1
        slot = (self._head + self._pending) % self.queue_size
        self._queue[slot] = button << 2 | kind
        self._times[slot] = at_ms
        self._pending += 1

    def _on_edge(self, pin):
        self.edge_pending = True
        if self._flag is not None:
            self._flag.set()
        pins = self._pins
        for button in range(len(pins)):
            if pins[button] is pin:
                level = self._read(button)
                if level != self._edge_level[button]:
                    now = self._ticks_ms()
                    if not level and ticks_diff(now, self._edge_ms[button]) >= self.debounce_ms:
                        self._tap_ms[button] = self._edge_ms[button]
                        self._taps[button] = (self._taps[button] + 1) & 0xFF
                    self._edge_level[button] = level
                    self._edge_ms[button] = now
                return
