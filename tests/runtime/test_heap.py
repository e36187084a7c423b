# portable
"""tiletable/heap.py: the heap kept in large pieces, the room a game must leave to be played,
and the heap policy each build gets."""
import gc
import sys
import time

from allocation import takes_heap
from portable import raises

from tiletable import heap
from tiletable.engine.rulesets import find_ruleset, schema_module
from tiletable.heap import COLLECT_EVERY, StockHeap, build_policy, free_bytes, keep_packed
from tiletable.heap_frozen import FrozenHeap

ON_MICROPYTHON = hasattr(gc, "mem_free")


def test_keep_packed_has_a_collection_made_every_few_kb():
    keep_packed()
    if ON_MICROPYTHON:
        assert gc.threshold() == COLLECT_EVERY


def test_check_room_wants_the_block_and_the_total():
    check_room = StockHeap().check_room
    check_room(0, 16)
    if ON_MICROPYTHON:
        free = free_bytes()
        assert free > 0
        raises(MemoryError, check_room, 0, free + 4096)  # no block larger than all that is free
        err = raises(MemoryError, check_room, free + 4096, 16)
        assert "wanted" in str(err)


def test_check_room_on_a_frozen_build_tries_only_the_block():
    check_room = FrozenHeap().check_room
    check_room(1 << 30, 16)  # the total is not walked for (a gc.mem_free() took 8.6 ms on the chip)
    if ON_MICROPYTHON:
        raises(MemoryError, check_room, 0, free_bytes() + 4096)


def test_a_frozen_chip_lets_the_schemas_go_and_cpython_keeps_every_module():
    """A schema module's documents are heap even where its bytecode is in flash. On the chip
    the frozen policy forgets the schemas after a validation and when a game starts; on
    CPython a module taken out of ``sys.modules`` would be taken from under whatever else uses
    it, so nothing goes."""
    schema = "tiletable.engine.line_params"
    policy = FrozenHeap()
    before = set(sys.modules)
    ruleset = policy.releasing(find_ruleset, "muggins")
    assert ruleset.name == "muggins" and (schema in sys.modules) == (not ON_MICROPYTHON)
    schema_module("trick")  # imported outside a validation (the presets' list, say)
    policy.make_way(None, "line")
    loaded = [name for name in sys.modules if name.endswith("_params")]
    if ON_MICROPYTHON:
        assert loaded == []
    if ON_MICROPYTHON and sys.platform != "webassembly":  # that port's collector runs only between top-level calls
        gc.collect()
        free = gc.mem_free()
        schema_module("line")
        gc.collect()
        taken = free - gc.mem_free()
        policy.make_way(None, "line")
        gc.collect()
        assert gc.mem_free() >= free - 256 and taken > 2048, taken  # its documents went with it
    if not ON_MICROPYTHON:
        assert before <= set(sys.modules) and "tiletable.engine.trick_params" in loaded


def test_only_micropython_with_the_bytecode_in_its_heap_gets_the_stock_policy():
    """The stock policy unloads modules: on CPython (the PC tool, the simulated table) that
    would take them from under whatever else uses them; on a frozen build their bytecode is in
    flash. Here the package is loaded from files (a .py source, or a compiled .mpy as the test
    suite's MicroPython runs it), where a frozen module names a source on no file system."""
    loaded = heap.__file__
    try:
        policy = build_policy()
        assert isinstance(policy, StockHeap if ON_MICROPYTHON else FrozenHeap)
        heap.__file__ = "tiletable/heap.py"  # as a frozen module names itself
        assert isinstance(build_policy(), FrozenHeap)
    finally:
        heap.__file__ = loaded


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
