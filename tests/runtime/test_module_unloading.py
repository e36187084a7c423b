# portable
"""tiletable/heap.py's module unloading: StockHeap.unload forgets a module whose bytecode is in the
heap and keeps a frozen one, whose bytecode is in the firmware's flash (importing it again would
cost a start 100 ms on a Pico); the stock policy's ``releasing`` unloads what a validation imported;
forget_failed_imports lets the collector have a module whose import failed."""
import gc
import sys

from runtime.scratch import fresh_dir

from tiletable import frozen
from tiletable.engine.rulesets import find_ruleset
from tiletable.heap import StockHeap, forget_failed_imports, note_heap_ran_out

HELD_KB = 24  # what the failing module below holds when its import fails


class _Module:
    def __init__(self, path):
        self.__file__ = path


def test_a_module_loaded_from_a_file_is_forgotten():
    sys.modules["tiletable_probe_loaded"] = _Module(__file__)
    StockHeap().unload("tiletable_probe_loaded")
    assert "tiletable_probe_loaded" not in sys.modules


def test_a_frozen_module_whose_source_is_on_no_file_system_is_kept():
    frozen = _Module("tiletable/engine/no_such_module_anywhere.py")
    sys.modules["tiletable_probe_frozen"] = frozen
    try:
        StockHeap().unload("tiletable_probe_frozen")
        assert sys.modules["tiletable_probe_frozen"] is frozen
    finally:
        del sys.modules["tiletable_probe_frozen"]


def test_a_preset_found_by_alias_leaves_no_family_imported():
    """Its lookup imports each family's schema module in turn (engine/rulesets.py). What stays
    is frozen into the port (the WebAssembly port's ``binascii`` and ``os``)."""
    before = set(sys.modules)
    assert StockHeap().releasing(find_ruleset, "All-Fives").name == "muggins"
    assert [name for name in sys.modules if name not in before and not frozen(sys.modules[name])] == []


def test_what_a_module_held_when_its_import_failed_goes_back_to_the_heap():
    """MicroPython takes such a module out of ``sys.modules`` but the dict's table still holds
    it, until forget_failed_imports (on CPython the module is simply gone)."""
    folder = fresh_dir("failed_import")
    with open(folder + "/tiletable_probe_bulky.py", "w") as f:
        f.write("HELD = [bytearray(1024) for _ in range(%d)]\n" % HELD_KB)
        f.write("raise MemoryError('as if the heap ran out here')\n")
    sys.path.insert(0, folder)
    try:
        gc.collect()
        free = gc.mem_free() if hasattr(gc, "mem_free") else 0
        try:
            import tiletable_probe_bulky  # noqa: F401

            failed = False
        except MemoryError:
            failed = True
        assert failed and "tiletable_probe_bulky" not in sys.modules
        note_heap_ran_out()
        forget_failed_imports()
        gc.collect()
        if hasattr(gc, "mem_free") and sys.platform != "webassembly":  # that port's collector
            # keeps even a module unloaded the usual way (24 KB of 24 KB, measured)
            assert free - gc.mem_free() < HELD_KB * 1024 // 3
    finally:
        sys.path.remove(folder)
