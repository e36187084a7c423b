# portable
"""Drawing numbers, blinking and sending digits allocate nothing (both backends).

The wire models allocate as they decode, so here the drivers talk to counting stubs;
what the digits look like is covered by test_display_max7219/test_display_tm1637.
``draw_text`` is left out: walking a str may allocate one-character strings (the
WebAssembly port does, depending on which strings happen to be interned).
"""
from allocation import bytes_allocated
from tiletable.drivers.max7219 import Max7219
from tiletable.drivers.segments import ScoreDisplay
from tiletable.drivers.tm1637 import TM1637


class CountingPin:
    OUT = 1
    IN = 0
    OPEN_DRAIN = 2
    PULL_UP = 1

    def __init__(self):
        self.changes = 0

    def init(self, *args, **kwargs):
        pass

    def __call__(self, level=None):
        if level is None:
            return 0  # reads as the TM1637's ACK
        self.changes += 1


class CountingSPI:
    def __init__(self):
        self.bytes = 0

    def write(self, buf):
        self.bytes += len(buf)


def test_number_updates_and_blink_ticks_allocate_nothing():
    spi = CountingSPI()
    chain = Max7219(spi, CountingPin(), modules=2)
    clk = CountingPin()
    module = TM1637(clk, CountingPin())
    module.bit_delay_us = 0
    scores = ScoreDisplay([(chain, 0), (chain, 4), (chain, 8), (module, 0)])
    scores.draw_text(2, "Err3")
    scores.blink(1)
    scores.blink(3)
    sent_before = spi.bytes
    clocks_before = clk.changes

    def loop():
        for now in range(0, 3000, 5):
            scores.draw_number(0, now - 1500)  # -1500..1495: overload (-OL) and in-range values
            scores.tick(now)
        scores.show()

    assert bytes_allocated(loop) in (0, None)
    # Lit 500 ms, dark 250 ms: 7 phase changes in 3 s, each sending 8 latches of 2 frames, then show().
    assert spi.bytes - sent_before == (7 + 1) * 8 * 2 * 2
    assert clk.changes > clocks_before
