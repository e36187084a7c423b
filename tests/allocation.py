"""Prove a loop allocates nothing, on MicroPython, with the heap locked.

``micropython.heap_lock()`` makes every heap allocation raise ``MemoryError``, so a loop
that runs to the end under the lock allocated 0 bytes. CPython has no such lock (and
allocates for every int anyway), so there the check reports ``None`` and tests keep
only their functional assertions.

The lock does not see the frames MicroPython puts on the heap (a call whose state needs more
than 11 words): a frame that finds the heap locked goes on the C stack instead. On a Pico with
a GC threshold every such frame counts toward the next collection; ``takes_heap`` sees them.
"""
import gc

try:
    from micropython import heap_lock, heap_unlock
except ImportError:
    heap_lock = heap_unlock = None


def bytes_allocated(loop):
    """Run ``loop()`` with the heap locked; 0 when it allocated nothing, None on CPython.

    :raises MemoryError: when ``loop`` allocates (the heap lock's doing).
    """
    if heap_lock is None:
        loop()
        return None
    gc.collect()
    before = gc.mem_alloc()
    heap_lock()
    try:
        loop()
    finally:
        heap_unlock()
    return gc.mem_alloc() - before


_LITTER = 4  # blocks of 256 bytes left as garbage for a collection to free


def _litter():
    for _ in range(_LITTER):
        bytearray(256)


def takes_heap(loop):
    """Whether ``loop()`` takes any block from the heap, heap frames included; None on CPython.

    With a GC threshold of one byte, any allocation collects: the garbage left just before goes,
    and ``gc.mem_alloc()`` falls below where it was.
    """
    if heap_lock is None or not hasattr(gc, "threshold"):
        loop()
        return None
    threshold = gc.threshold()
    gc.collect()
    _litter()
    before = gc.mem_alloc()
    gc.threshold(1)
    try:
        loop()
    finally:
        gc.threshold(threshold)
    return gc.mem_alloc() <= before - _LITTER * 128
