"""The wall clock the PC sets (SET_CLOCK): a Pico has no battery clock, so session headers
get their time from the PC and ``ticks_ms`` keeps it until the next reset."""
from tiletable.drivers.clock import ticks_add, ticks_diff


class WallClock:
    """Unix seconds from the host's SET_CLOCK, kept by ``ticks_ms`` (the Pico has no battery
    clock): None until set. Every reading moves the anchor on by whole seconds, so the
    ticks' wrap (2**30 ms) never bites while the clock is read at least once in 6 days."""

    def __init__(self, ticks_ms):
        self.ticks_ms = ticks_ms
        self._unix = None
        self._at = 0

    def set(self, unix_seconds):
        self._unix = unix_seconds
        self._at = self.ticks_ms()

    def now_s(self):
        if self._unix is None:
            return None
        whole = ticks_diff(self.ticks_ms(), self._at) // 1000
        self._unix += whole
        self._at = ticks_add(self._at, whole * 1000)
        return self._unix
