"""Heap taken by the firmware's imported bytecode, module by module, on a 32-bit MicroPython.

    python tools/build_mpy.py build/mpy && cd build/mpy && \\
        node ../../tools/mpy-wasm.mjs -X heapsize=4M ../../bench/code_heap.py      (32-bit, as the RP2040)
        ../../.venv/bin/micropython -X heapsize=4M ../../bench/code_heap.py        (64-bit unix port)

The official rp2 firmware loads a copied ``.mpy`` into the heap (ROMFS, which runs bytecode
in place, is not enabled on RPI_PICO), so what the boot imports is heap the table cannot use
for data. What ``main.py`` imports is charged first, then each game family as the table
imports it when a game starts (one family at a time, unloaded again before the next): the
growth of ``gc.mem_alloc()`` after ``gc.collect()``. The WebAssembly port's ``binascii`` and
``collections`` are Python modules (the rp2 port's are built in), so they are imported first and
left out of the totals; the
rp2 port also freezes ``asyncio`` into flash, so it is not counted either. Compare each
total with the Pico's heap (about 240 KB at boot on v1.26, REFERENCE-NOTES).
"""
import gc
import sys

sys.path[:0] = ["firmware", "sim"]

BOOT = ("tiletable.runtime.app", "tiletable.board.setup")  # what main.py imports
FAMILIES = (  # imported when a game of that family starts (runtime/table.py)
    ("line games", ("tiletable.engine.line", "tiletable.runtime.play_line")),
    ("Moon", ("tiletable.engine.trick", "tiletable.runtime.play_trick")),
    ("Texas 42", ("tiletable.engine.fortytwo", "tiletable.runtime.play_fortytwo")),
    ("column game", ("tiletable.engine.column", "tiletable.runtime.play_column")),
    ("Da San", ("tiletable.engine.climb", "tiletable.runtime.play_climb")),
)


def used():
    gc.collect()
    return gc.mem_alloc()


def charge(entry_points):
    """Import ``entry_points``; return the heap growth and the modules that came with them."""
    before_modules = set(sys.modules)
    before = used()
    for name in entry_points:
        __import__(name)
    return used() - before, [m for m in sys.modules if m not in before_modules]


def unload(modules):
    """Forget ``modules`` (and their names in their packages) so the next family starts clean."""
    for name in modules:
        sys.modules.pop(name, None)
        package, _, attr = name.rpartition(".")
        parent = sys.modules.get(package)
        if parent is not None and attr in dir(parent):
            delattr(parent, attr)


for name in ("binascii", "collections", "asyncio"):  # built in / frozen on the rp2 port: not charged
    __import__(name)
bits = 64 if sys.maxsize > 2**32 else 32
print("bytecode in the heap, %d-bit %s port (gc.mem_alloc growth over the imports)" % (bits, sys.platform))
PLAN = (("boot", BOOT),) + FAMILIES
progress = {"next": 0, "before": None, "modules": None, "boot": 0}


def step():
    """One top-level chunk: finish the import under way (its growth, measured on a heap just
    collected), else start the next one."""
    now = used()
    label, entry_points = PLAN[progress["next"]]
    if progress["before"] is None:
        progress["before"], progress["modules"] = now, set(sys.modules)
        for name in entry_points:
            __import__(name)
        gc.collect()  # the WebAssembly port collects when this chunk returns
        return
    grown = now - progress["before"]
    modules = [m for m in sys.modules if m not in progress["modules"]]
    if label == "boot":
        progress["boot"] = grown
        print("  at boot (runtime, drivers, link, journal, shared engine): %7d bytes, %d modules" % (grown, len(modules)))
    else:
        total = progress["boot"] + grown
        print("  + %-12s (family and its controller):          %7d bytes, %d modules -> %d" % (label, grown, len(modules), total))
        unload(modules)
    progress["before"] = None
    progress["next"] += 1
    gc.collect()


# The WebAssembly port collects garbage only between top-level calls (tools/mpy-wasm.mjs runs
# each chunk below as one): every figure is taken on a heap collected just before.
gc.collect()
# ---- top level ----
step()
# ---- top level ----
step()
# ---- top level ----
step()
# ---- top level ----
step()
# ---- top level ----
step()
# ---- top level ----
step()
# ---- top level ----
step()
# ---- top level ----
step()
# ---- top level ----
step()
# ---- top level ----
step()
