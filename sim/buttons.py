"""Push-button contacts that bounce, driving a virtual ``machine.Pin`` over simulated ms.

``press(at_ms)``/``release(at_ms)`` schedule a contact change; the contact then chatters
between open and closed for up to ``bounce_ms`` (a seeded pseudo-random sequence, so a
failing seed can be replayed) before settling. ``advance(now_ms)`` applies every level
change due by ``now_ms``; call it before each poll. Scheduling computes the whole edge
list, so ``advance`` itself allocates nothing (tests may run it with the heap locked).
"""


class BouncyContact:
    def __init__(self, pin, seed=1, active_low=True, bounce_ms=10):
        self.pin = pin
        self.active_low = active_low
        self.bounce_ms = bounce_ms
        self._state = seed & 0x7FFFFFFF or 1
        self._edges = []  # (at_ms, pressed) in time order
        self._next = 0
        self._last_at = None
        pin.drive(self._level(False))

    def press(self, at_ms):
        self._schedule(at_ms, True)

    def release(self, at_ms):
        self._schedule(at_ms, False)

    def tap(self, at_ms, hold_ms):
        self.press(at_ms)
        self.release(at_ms + hold_ms)

    def advance(self, now_ms):
        edges = self._edges
        while self._next < len(edges) and edges[self._next][0] <= now_ms:
            self.pin.drive(self._level(edges[self._next][1]))
            self._next += 1

    def _schedule(self, at_ms, pressed):
        if self._last_at is not None and at_ms < self._last_at:
            raise ValueError("contact changes must be scheduled in time order: %r after %r" % (at_ms, self._last_at))
        del self._edges[: self._next]  # applied already: a long simulated session keeps only what is due
        self._next = 0
        # Chatter: the contact flips at random 0..3 ms intervals while the bounce lasts,
        # and always ends in the new state no later than at_ms + bounce_ms.
        now = at_ms
        level = pressed
        self._edges.append((now, level))
        while True:
            now += self._random(4)
            if now - at_ms >= self.bounce_ms:
                break
            level = not level
            self._edges.append((now, level))
        if level != pressed:
            self._edges.append((at_ms + self.bounce_ms, pressed))
        self._last_at = self._edges[-1][0]

    def _random(self, limit):
        # Park-Miller minimal standard generator: the same sequence on every port.
        self._state = self._state * 48271 % 0x7FFFFFFF
        return self._state % limit

    def _level(self, pressed):
        return (0 if pressed else 1) if self.active_low else (1 if pressed else 0)
