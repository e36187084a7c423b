"""Heap taken by the firmware's imported bytecode, module by module, on a 32-bit MicroPython.

    python tools/build_mpy.py build/mpy && cd build/mpy && \\
        node ../../tools/mpy-wasm.mjs -X heapsize=4M ../../bench/code_heap.py      (32-bit, as the RP2040)
        ../../.venv/bin/micropython -X heapsize=4M ../../bench/code_heap.py        (64-bit unix port)

The official rp2 firmware loads a copied ``.mpy`` into the heap (ROMFS, which runs bytecode
in place, is not enabled on RPI_PICO), so what the boot imports is heap the table cannot use
for data. Each module is imported in turn, in dependency order, and charged with the growth
of ``gc.mem_alloc()`` after ``gc.collect()``. The WebAssembly port's ``binascii`` is a Python
module (the rp2 port's is built in), so it is imported first and left out of the totals; the
rp2 port also freezes ``asyncio`` into flash, so it is not counted either. Compare the boot
total with the Pico's heap (about 240 KB at boot on v1.26, REFERENCE-NOTES).
"""
import gc
import sys

sys.path[:0] = ["firmware", "sim"]

BOOT = (
    "tiletable.engine.errors",
    "tiletable.engine.tiles",
    "tiletable.engine.cards",
    "tiletable.engine.state",
    "tiletable.engine.record",
    "tiletable.engine.knowledge",
    "tiletable.engine.holdings",
    "tiletable.engine.rulesets",
    "tiletable.engine.line_params",
    "tiletable.engine.line_layout",
    "tiletable.engine.line_moves",
    "tiletable.engine.line_checks",
    "tiletable.engine.line_hand",
    "tiletable.engine.line_actions",
    "tiletable.engine.betting",
    "tiletable.engine.line",
    "tiletable.tagrecord",
    "tiletable.proto.frame",
    "tiletable.proto.messages",
    "tiletable.runtime.journal",
    "tiletable.proto.server",
    "tiletable.drivers.clock",
    "tiletable.drivers.mfrc522",
    "tiletable.drivers.max7219",
    "tiletable.drivers.segments",
    "tiletable.drivers.buttons",
    "tiletable.drivers.buzzer",
    "tiletable.drivers.status_leds",
    "tiletable.board.pins",
    "tiletable.board.setup",
    "tiletable.runtime.identity",
    "tiletable.runtime.tray",
    "tiletable.runtime.rulestore",
    "tiletable.runtime.ui",
    "tiletable.runtime.profiles",
    "tiletable.runtime.controller",
    "tiletable.runtime.play_line",
    "tiletable.runtime.tags",
    "tiletable.runtime.usblink",
    "tiletable.runtime.table",
    "tiletable.runtime.app",
)
OTHER_FAMILIES = (
    "tiletable.engine.trick",
    "tiletable.runtime.play_trick",
    "tiletable.engine.column",
    "tiletable.runtime.play_column",
    "tiletable.engine.climb",
    "tiletable.runtime.play_climb",
)


def used():
    gc.collect()
    return gc.mem_alloc()


def charge(modules):
    total = 0
    for name in modules:
        before = used()
        __import__(name)
        grown = used() - before
        total += grown
        print("  %-36s %7d" % (name, grown))
    return total


for name in ("binascii", "asyncio"):  # built in / frozen on the rp2 port: not charged
    __import__(name)
bits = 64 if sys.maxsize > 2**32 else 32
print("bytecode in the heap, %d-bit %s port (bytes; gc.mem_alloc growth per import)" % (bits, sys.platform))
boot = charge(BOOT)
print("boot set (runtime, drivers, link, journal, line family): %d bytes" % boot)
other = charge(OTHER_FAMILIES)
print("trick, column and climbing families with their controllers: %d bytes" % other)
print("everything: %d bytes" % (boot + other))
