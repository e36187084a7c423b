"""Prove a loop allocates nothing, on MicroPython, with the heap locked.

``micropython.heap_lock()`` makes every heap allocation raise ``MemoryError``, so a loop
that runs to the end under the lock allocated 0 bytes. CPython has no such lock (and
allocates for every int anyway), so there the check reports ``None`` and tests keep
only their functional assertions.
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
