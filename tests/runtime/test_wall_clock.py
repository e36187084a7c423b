# portable
"""The wall clock the host sets: unknown until SET_CLOCK, then kept by ticks across their wrap."""
from tiletable.drivers.clock import ticks_add
from tiletable.runtime.wallclock import WallClock


class Ticks:
    """A ``ticks_ms`` that wraps where this port's does (2**30 on the rp2 port)."""

    def __init__(self, start):
        self.now = start

    def __call__(self):
        return self.now

    def advance(self, ms):
        self.now = ticks_add(self.now, ms)


def test_unknown_until_set():
    assert WallClock(Ticks(0)).now_s() is None


def test_counts_whole_seconds_and_keeps_the_fraction():
    ticks = Ticks(5)
    clock = WallClock(ticks)
    clock.set(1800000000)
    ticks.advance(1999)
    assert clock.now_s() == 1800000001
    ticks.advance(1)
    assert clock.now_s() == 1800000002


def test_survives_many_tick_wraps_when_read_daily():
    ticks = Ticks(ticks_add(0, -10))  # just before a wrap
    clock = WallClock(ticks)
    clock.set(1800000000)
    day_ms = 86400 * 1000
    for day in range(30):  # 30 days is about 2.4 wraps of the rp2 port's 2**30 ms ticks
        for quarter in range(4):
            ticks.advance(day_ms // 4)
        assert clock.now_s() == 1800000000 + (day + 1) * 86400

