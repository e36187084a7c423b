"""Figures for the output/input drivers: RAM per object, heap allocated per loop call, time per call.

    .venv/bin/micropython -X heapsize=192K bench/drivers.py     (or: python3 bench/drivers.py)

The drivers talk to do-nothing stubs here, so the times are the drivers' own Python cost
on this machine (an RP2040 is far slower: read them as relative costs), and the wire time
is computed from the bus figures. Prints one figure per line.
"""
import gc
import sys
import time

for _path in ("sim", "firmware") + (() if sys.implementation.name == "micropython" else ("sim/cpython",)):
    if _path not in sys.path:
        sys.path.insert(0, _path)

from neopixel import NeoPixel  # noqa: E402  (sim stand-in; same buffer layout as the rp2 built-in)
from tiletable.drivers.buttons import Buttons  # noqa: E402
from tiletable.drivers.buzzer import Buzzer  # noqa: E402
from tiletable.drivers.max7219 import Max7219  # noqa: E402
from tiletable.drivers.segments import ScoreDisplay  # noqa: E402
from tiletable.drivers.status_leds import StatusLeds  # noqa: E402
from tiletable.drivers.tm1637 import TM1637  # noqa: E402


class StubPin:
    """Reads ``level`` (0: a TM1637 ACK; 1: a released active-low button), ignores writes."""

    OUT = IN = OPEN_DRAIN = PULL_UP = PULL_DOWN = IRQ_FALLING = IRQ_RISING = 0

    def __init__(self, level=0):
        self.level = level

    def init(self, *args, **kwargs):
        pass

    def __call__(self, level=None):
        return self.level if level is None else None

    value = __call__


class StubSPI:
    def write(self, buf):
        pass


class StubPWM:
    def freq(self, hz=None):
        pass

    def duty_u16(self, duty=None):
        pass


def us_per_call(fn, calls):
    """Mean microseconds per ``fn(i)`` call."""
    clock = getattr(time, "ticks_us", None) or (lambda: time.perf_counter_ns() // 1000)
    start = clock()
    for i in range(calls):
        fn(i)
    return (clock() - start) / calls


def ram(build):
    gc.collect()
    before = gc.mem_alloc() if hasattr(gc, "mem_alloc") else 0
    obj = build()
    gc.collect()
    after = gc.mem_alloc() if hasattr(gc, "mem_alloc") else 0
    return obj, after - before


def allocated(step, calls):
    """Heap bytes allocated by ``calls`` calls of ``step(i)`` (None on CPython)."""
    if not hasattr(gc, "mem_alloc"):
        return None
    gc.collect()
    gc.disable()
    before = gc.mem_alloc()
    for i in range(calls):
        step(i)
    after = gc.mem_alloc()
    gc.enable()
    return after - before


def main():
    print("runtime:", sys.implementation.name, sys.platform)
    chain, chain_ram = ram(lambda: Max7219(StubSPI(), StubPin(), modules=2))
    tm, tm_ram = ram(lambda: TM1637(StubPin(), StubPin()))
    scores, scores_ram = ram(lambda: ScoreDisplay([(chain, 0), (chain, 4), (chain, 8), (chain, 12)]))
    strip = NeoPixel(StubPin(), 10)
    strip.write = lambda: None
    leds, leds_ram = ram(lambda: StatusLeds(strip, (0, 1, 2, 3), ((4, 5), (6, 7)), budget_ma=66))
    buzzer, buzzer_ram = ram(lambda: Buzzer(StubPWM()))
    buttons, buttons_ram = ram(lambda: Buttons([StubPin(1) for _ in range(7)]))
    if hasattr(gc, "mem_alloc"):
        print("ram bytes: max7219 chain of 2 = %d, tm1637 = %d, score display (4 seats) = %d" % (chain_ram, tm_ram, scores_ram))
        print("ram bytes: status leds (10) = %d, buzzer = %d, buttons (7) = %d" % (leds_ram, buzzer_ram, buttons_ram))

    tm.bit_delay_us = 0
    scores.blink(0)
    buzzer.play(Buzzer.ERROR, 0)

    def loop(now):
        buttons.poll(now)
        scores.tick(now)
        leds.tick(now)
        buzzer.tick(now)

    print("heap bytes allocated by 1000 loop steps (poll + 3 ticks):", allocated(loop, 1000))
    print("us per buttons.poll (7 buttons): %.1f" % us_per_call(buttons.poll, 2000))
    print("us per idle loop step (poll + 3 ticks): %.1f" % us_per_call(loop, 2000))
    print("us per max7219 show (2 modules): %.1f" % us_per_call(lambda i: chain.show(), 500))
    print("us per tm1637 show (4 digits, no bit delay): %.1f" % us_per_call(lambda i: tm.show(), 500))
    print("us per draw_number: %.1f" % us_per_call(lambda i: scores.draw_number(1, i - 999), 2000))
    print("us per status leds show (10 LEDs): %.1f" % us_per_call(lambda i: leds.show(), 500))
    print("wire us per max7219 show at 4 MHz (2 modules): %.0f" % (8 * 2 * 2 * 8 / 4.0))
    print("wire us per ws2812 write (10 LEDs at 800 kHz, interrupts off): %.0f" % (10 * 24 * 1.25))


main()
