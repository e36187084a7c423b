"""The heap, kept usable on a Pico that runs copied .mpy files (their bytecode is heap).

MicroPython collects garbage only when an allocation fails, so allocations run through the
whole heap before the first collection: an import leaves its modules' code spread over all
of it, and a game leaves its moves spread over what is free, with small holes between. In the
tests (hardware/README.md) a boot left 99 KB free and no 2 KB block, and a match in progress
could not find 2 KB for its growing move list with 50 KB free. ``keep_packed()``
has a collection made every 16 KB allocated instead, so what stays lies together and the
free heap stays in large pieces; ``check_room()`` is what a game must leave free to be
played. CPython (the simulation on a PC) has no such heap: there these do nothing.

Only where the bytecode is on the heap: a collection is counted by bytes allocated, and
MicroPython allocates the frame of every call that needs more than 11 words on the heap and
frees it on return. On a UF2 with the package frozen in, the idle table made a collection every
16 KB of such frames: 92 % of the CPU busy, 43 % of it in ``gc_alloc``, where without it 3 %.
So the loops that run all the time keep their frames within 11 words (the tray's visit, the
scheduler's wait: ``keep_io_wait_off_heap``; tests/allocation.py's ``takes_heap`` checks it).
Each such frame also cost a search of the allocation table past the small holes the code's
pieces leave: on the stock build the idle table spent 42 % of its time in ``gc_alloc``.

Where the bytecode is in the heap, the modules a task imported are unloaded once it is over
(``release_modules``): a family's schema module after its rulesets are validated, a family's
engine and controller when a game of another family starts (runtime/table.py), the self test.
"""
import gc
import sys

from tiletable import frozen

COLLECT_EVERY = 16 * 1024  # bytes allocated between collections


_ON_HEAP = ["", None]  # the ``__file__`` bytecode_on_heap() last looked at, and its answer


def bytecode_on_heap():
    """Whether this package's bytecode is in the heap: loaded from files (the ``.mpy`` files
    ``tiletable deploy`` copies to a stock UF2, or ``.py`` sources compiled at import), not
    frozen into the UF2. Worked out once: its ``os.stat`` took 1.75 ms of an RP2040's time, and
    a game start asked four times."""
    module = sys.modules[__name__]
    path = getattr(module, "__file__", None)
    if _ON_HEAP[0] != path:
        _ON_HEAP[0], _ON_HEAP[1] = path, not frozen(module)
    return _ON_HEAP[1]


def collect_for_code():
    """Collect now where the bytecode is in the heap, so that the modules a game imports find
    room in few pieces; on a frozen build it would only cost time (14 ms on an RP2040)."""
    if bytecode_on_heap():
        gc.collect()


# The bytes between collections set last (collect_every), which a step that held collections
# off puts back (App.scan); -1: none set
EVERY = [-1]


def keep_packed():
    """From now on, collect every ``COLLECT_EVERY`` bytes allocated (main.py: before its imports)."""
    collect_every(COLLECT_EVERY)


def collects_when_full():
    """Whether the heap is collected only when an allocation finds it full (no collect_every
    setting: a frozen build, CPython), so that a long task had better collect where it chooses."""
    return EVERY[0] < 0


def collect_every(size):
    """Collect every ``size`` bytes allocated from now on; returns the setting it replaces.
    Nothing where the runtime has no such setting (CPython)."""
    was = EVERY[0]
    if hasattr(gc, "threshold"):
        EVERY[0] = size
        gc.threshold(size)
    return was


def keep_io_wait_off_heap(core):
    """Give asyncio's scheduler (``core``: the ``asyncio.core`` module) a wait for I/O whose
    frame fits MicroPython's 11 words. Its own ``wait_io_event`` needs 13 and runs at every pass
    of the scheduler, so each pass put a frame on the heap and counted toward ``keep_packed``'s
    threshold (most of the stock build's collections at idle). The table's
    services wait on timers only; while a task waits on a stream, the original runs."""
    queue = core._io_queue
    wait = queue.wait_io_event
    ipoll = queue.poller.ipoll

    def wait_io_event(dt):
        if queue.map:
            return wait(dt)
        for _ in ipoll(dt):
            pass

    queue.wait_io_event = wait_io_event


def free_bytes():
    """Free heap after a collection (0 where the runtime does not say: CPython)."""
    gc.collect()
    return gc.mem_free() if hasattr(gc, "mem_free") else 0


def check_room(total, block):
    """Raise MemoryError unless ``total`` bytes are free, ``block`` of them in one piece. It
    collects only when what is free before collecting is not enough (garbage counts as used,
    so that is a lower bound): a collection takes 22-30 ms of a stock build's game start.
    Where the bytecode is not in the heap only the block is tried: a frozen build's heap has
    over 140 KB free in play, and ``gc.mem_free()`` walks all of it (8.6 ms of an RP2040's)."""
    bytearray(block)
    if bytecode_on_heap() and hasattr(gc, "mem_free") and gc.mem_free() < total:
        free = free_bytes()
        if free < total:
            raise MemoryError("%d bytes free, %d wanted" % (free, total))


def loaded_modules():
    """The names of the modules imported so far (for ``release_modules``)."""
    return set(sys.modules)


def releasing_modules(call, *args):
    """``call(*args)``, then every module it imported unloaded again (``release_modules``):
    validating a ruleset imports its family's schema module."""
    loaded = loaded_modules()
    try:
        return call(*args)
    finally:
        release_modules(loaded)


def release_modules(loaded):
    """Unload every module imported since ``loaded`` (``loaded_modules()``): a sync or a
    ruleset list validates every family's rulesets, and on a Pico running copied .mpy files
    the modules that took would otherwise hold their bytecode in its heap until reset."""
    for name in [m for m in sys.modules if m not in loaded]:
        unload_module(name)


# Whether the heap ran out since forget_failed_imports() last did its work
_RAN_OUT = [False]


def note_heap_ran_out():
    """Where a MemoryError is caught: an import may have failed, and forget_failed_imports()
    has work once the frames of what failed, which still refer to what it made, are gone."""
    _RAN_OUT[0] = True


def forget_failed_imports():
    """Let the collector have the code of an import that ran out of heap (see
    note_heap_ran_out). MicroPython (1.27) takes the failed module out of ``sys.modules`` but
    leaves it in the dict's table, where the collector finds it until another module takes
    its slot: a game start refused for room kept 18-23 KB of a 282 KB heap so (the unix port,
    tests/sim/test_main_boot.py), and the table then could not answer a HELLO. Every free slot
    of the table is filled with a placeholder, with the heap locked: the table stops taking
    them when it is full and would have to grow, which needs the heap; the placeholders then
    go again. Nothing is allocated: refilling the table from a copy needed a new one, and
    did not find one in a heap in pieces, with ``sys.modules`` cleared."""
    if not _RAN_OUT[0] or sys.implementation.name != "micropython":
        return
    import micropython

    _RAN_OUT[0] = False
    modules = sys.modules
    placed = 0
    micropython.heap_lock()
    try:
        while True:
            modules[placed] = None
            placed += 1
    except MemoryError:  # full: every slot that held a failed module holds a placeholder now
        pass
    finally:
        micropython.heap_unlock()
    while placed:
        placed -= 1
        del modules[placed]


def unload_module(name):
    """Forget module ``name`` (and its name in its package), so the garbage collector can
    take its bytecode back once nothing else refers to it. A module frozen into the firmware
    is kept: its bytecode is in flash, so forgetting it frees little and the next import of
    it (a validation, a game start) costs again, about 100 ms on an RP2040."""
    module = sys.modules.get(name)
    if module is None or frozen(module):
        return
    del sys.modules[name]
    package, _, attr = name.rpartition(".")
    parent = sys.modules.get(package)
    if parent is not None:
        try:  # no dir(parent): a start that ran out of heap unloads through here
            delattr(parent, attr)
        except (AttributeError, TypeError):
            pass
