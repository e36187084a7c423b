# portable
"""runtime/heap.py: the heap kept in large pieces, and the room a game must leave to be played."""
import gc
import time

from allocation import takes_heap
from portable import raises

from tiletable.runtime import heap
from tiletable.runtime.heap import COLLECT_EVERY, COLLECT_SOON, bytecode_on_heap, check_room, free_bytes, keep_packed

ON_MICROPYTHON = hasattr(gc, "mem_free")


class _Heap:
    """A stand-in for MicroPython's gc module: bytes in use, and the collections made."""

    def __init__(self):
        self.used = 50000
        self.live = 50000
        self.collections = 0
        self.limit = None

    def threshold(self, limit):
        self.limit = limit

    def mem_alloc(self):
        return self.used

    def collect(self):
        self.collections += 1
        self.used = self.live


def test_keep_packed_has_a_collection_made_between_steps_every_few_kb():
    real = heap.gc
    fake = heap.gc = _Heap()
    try:
        keep_packed()
        assert fake.limit == COLLECT_EVERY > COLLECT_SOON  # MicroPython's own comes later
        fake.used += COLLECT_SOON - 1024
        heap.collect_between_steps()
        assert fake.collections == 0  # not due yet
        fake.used += 1024
        heap.collect_between_steps()
        assert fake.collections == 1 and fake.used == fake.live
        fake.used += COLLECT_SOON // 2
        heap.collect_between_steps()
        fake.live = 30000
        fake.collect()  # MicroPython's own, in the middle of a step: less in use than before
        fake.used += 4096
        heap.collect_between_steps()
        assert fake.collections == 2  # counted again from where that one was seen ...
        fake.used += COLLECT_SOON - 1024
        heap.collect_between_steps()
        assert fake.collections == 2
        fake.used += 1024
        heap.collect_between_steps()
        assert fake.collections == 3  # ... so due COLLECT_SOON later (not after 50000 + COLLECT_SOON)
    finally:
        heap.gc = real
        heap._marks[0] = None


def test_a_frozen_package_is_not_bytecode_on_the_heap_but_one_loaded_from_files_is():
    loaded = heap.__file__  # a .py source here, or a compiled .mpy (the test suite's MicroPython runs)
    assert bytecode_on_heap()
    try:
        heap.__file__ = "tiletable/runtime/heap.py"  # a frozen module names a source on no file system
        assert not bytecode_on_heap()
    finally:
        heap.__file__ = loaded


def test_check_room_wants_the_block_and_the_total():
    check_room(0, 16)
    if ON_MICROPYTHON:
        free = free_bytes()
        assert free > 0
        raises(MemoryError, check_room, 0, free + 4096)  # no block larger than all that is free
        err = raises(MemoryError, check_room, free + 4096, 16)
        assert "wanted" in str(err)


def test_the_io_wait_given_to_asyncio_takes_no_heap_and_timers_still_run():
    try:
        import asyncio
        from asyncio import core
    except ImportError:
        return  # CPython's asyncio has another scheduler (the simulation on a PC)
    queue = getattr(core, "_io_queue", None)
    if queue is None:
        return  # the WebAssembly port's asyncio runs on the browser's event loop: no I/O queue
    library_wait = queue.wait_io_event
    heap.keep_io_wait_off_heap(core)
    try:
        wait = queue.wait_io_event
        wait(0)  # the poller's first ipoll makes the tuple it hands out ever after
        assert takes_heap(lambda: wait(0)) is False
        assert takes_heap(lambda: library_wait(0)) is True  # what it replaces: a 13-word frame

        async def nap():
            await asyncio.sleep_ms(20)

        start = time.ticks_ms()
        asyncio.run(nap())
        assert time.ticks_diff(time.ticks_ms(), start) >= 20
    finally:
        asyncio.new_event_loop()  # a fresh queue, with the library's wait
