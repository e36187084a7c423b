"""The heap, kept usable on a Pico that runs copied .mpy files (their bytecode is heap).

MicroPython collects garbage only when an allocation fails, so allocations run through the
whole heap before the first collection: an import leaves its modules' code spread over all
of it, and a game leaves its moves spread over what is free, with small holes between. In the
tests (hardware/README.md) a boot left 99 KB free and no 2 KB block, and a match in progress
could not find 2 KB for its growing move list with 50 KB free. ``keep_packed()``
has a collection made every 16 KB allocated instead, so what stays lies together and the
free heap stays in large pieces; ``check_room()`` is what a game must leave free to be
played. CPython (the simulation on a PC) has no such heap: there these do nothing.
"""
import gc

COLLECT_EVERY = 16 * 1024  # bytes allocated between collections


def keep_packed():
    """From now on, collect every ``COLLECT_EVERY`` bytes allocated (main.py: before its imports)."""
    if hasattr(gc, "threshold"):
        gc.threshold(COLLECT_EVERY)


def free_bytes():
    """Free heap after a collection (0 where the runtime does not say: CPython)."""
    gc.collect()
    return gc.mem_free() if hasattr(gc, "mem_free") else 0


def check_room(total, block):
    """Raise MemoryError unless ``total`` bytes are free, ``block`` of them in one piece."""
    bytearray(block)
    if hasattr(gc, "mem_free"):
        free = free_bytes()
        if free < total:
            raise MemoryError("%d bytes free, %d wanted" % (free, total))
