"""Heap of the running table firmware on the MicroPython unix port, code and data apart.

    python tools/build_mpy.py build/mpy && cd build/mpy && \\
        ../../.venv/bin/micropython -X heapsize=4M ../../bench/table_heap.py

Imported .mpy bytecode lives in the heap on the official firmware (nothing is frozen), so
"code" is the growth of ``gc.mem_alloc()`` (after ``gc.collect()``) across the imports and
"data" the growth across building the objects. The simulated peripherals (wire-level models
of nine readers, the display chain, the buttons) share the heap in simulation; they are
measured separately and subtracted, as the Pico does not have them. The unix port is 64-bit:
objects are made of 8-byte words, where the RP2040 uses 4-byte ones, so the Pico needs less.
"""
import gc
import sys

sys.path[:0] = ["firmware", "sim"]


def used():
    gc.collect()
    return gc.mem_alloc()


def show(label, amount):
    print("%-58s %7d bytes" % (label, amount))


start = used()
import machine  # noqa: E402  (the simulated one)
import mfrc522_model  # noqa: E402,F401
import max7219_model  # noqa: E402,F401
import ntag213  # noqa: E402,F401
import buttons  # noqa: E402,F401
import neopixel  # noqa: E402,F401

sim_code = used() - start

mark = used()
from tiletable.runtime import app, table  # noqa: E402
from tiletable.board import setup  # noqa: E402,F401
from tiletable.runtime import play_line  # noqa: E402,F401
from tiletable.engine import line  # noqa: E402,F401

runtime_and_line = used() - mark
mark = used()
from tiletable.runtime import play_trick, play_column, play_climb  # noqa: E402,F401
from tiletable.engine import trick, column, climb  # noqa: E402,F401

other_families = used() - mark
mark = used()
import device  # noqa: E402

sim_code += used() - mark

mark = used()
hardware = device.Hardware(with_board=False)
models = used() - mark
mark = used()
hardware.build_board()
board = used() - mark

import os  # noqa: E402

root = "/tmp/table-heap"
for sub in ("", "/journal", "/rulesets"):
    try:
        os.mkdir(root + sub)
    except OSError:
        pass
mark = used()
clock = device.SimClock()
clock.follower = hardware.advance
application = app.App(hardware.board, sys.stdin.buffer, sys.stdout.buffer, clock, root=root)
runtime = used() - mark

show("code: table runtime, drivers, link, journal + line family", runtime_and_line)
show("code: trick, column, climb families (+ controllers)", other_families)
show("data: board (drivers, display/LED/button buffers)", board)
show("data: runtime (tray, journal buffers, link server, table)", runtime)
for name in ("muggins", "buki", "moon", "columns", "dasan"):
    mark = used()
    players = {"moon": 3, "columns": 2, "dasan": 3}.get(name, 4)
    application.table.start(name, ["P%d" % s for s in range(players)], clock())
    show("data: a match of %s in progress (state, controller, LEDs)" % name, used() - mark)
    application.table.stop()
code = runtime_and_line + other_families
data = board + runtime
show("firmware total with every family imported (code + data)", code + data)
show("(simulation only) peripheral models: code", sim_code)
show("(simulation only) peripheral models: data", models)
show("heap in use now (gc.mem_alloc)", used())
