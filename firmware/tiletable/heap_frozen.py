"""The heap policy of a frozen build and of CPython: no packing, no recovery, and no module
unloaded but the schemas, on the chip.

On a UF2 with the package frozen in, the bytecode runs from flash: the heap (over 140 KB free
in play) holds data alone, so code is not unloaded (importing a module again would cost a
start about 100 ms of an RP2040's time), but the families' schema modules are, being mostly
data (``forget_schemas``), and the heap is collected only when it is full, or where the
app chooses (``collects_in_play``). CPython (the PC tool, the simulated table) has no such
heap, and there a module unloaded would be taken from under whatever else uses it. Only a
build with room to spare readies a game ahead (runtime/warmup.py), queues 4 KB journal stream
frames and reads the link with machine code. Imported only on such builds (heap.build_policy):
the stock build's heap holds ``heap.StockHeap`` alone.
"""
import sys

from tiletable.families import FAMILIES, module
from tiletable.heap import forget_module


def forget_schemas():
    """Forget every family's schema module (``engine/<family>_params.py``). Their documents
    are dicts built in the heap at import, bytecode in flash or not: let go, the lowest heap
    in play of a frozen build rose from 146.8 to 150.6 KB (the emulated chip), and a
    validation imports its family's again in about 3 ms of an RP2040's time. Only on the
    chip: on CPython a module taken out of ``sys.modules`` would be taken from under whatever
    else uses it."""
    for family in FAMILIES:
        name = module(family, "_params")
        if name in sys.modules:
            forget_module(name)


class FrozenHeap:
    """``heap.StockHeap``'s interface, doing none of its work but letting the schema modules
    go on the chip."""

    link_room = 5150  # the link's output queue: a 4 KB journal stream frame and a KB of replies and events
    collects_in_play = True  # App._collect_in_play: just after a play, not in whichever step fills the heap
    restart_may_help = False  # a restart into a game frees no code's room
    kept_modules = None  # a row of uploads keeps nothing

    def keep_packed(self):
        pass

    def warmer(self, app):
        """A ``Warmer`` that readies the menu's game while the table idles."""
        from tiletable.runtime.warmup import Warmer

        return Warmer(app)

    def __init__(self):
        self.forgets_schemas = sys.implementation.name == "micropython"  # see forget_schemas
        if not self.forgets_schemas:
            self.native_intake = None  # only MicroPython compiles viper

    def native_intake(self, link):
        """``link``'s intake as machine code (runtime/usb_native.py): UsbLink takes it where its
        stream can be polled."""
        from tiletable.runtime.usb_native import NativeIntake

        return NativeIntake(link)

    def release(self, loaded):
        pass

    def releasing(self, call, *args):
        """``call(*args)`` (a validation, the presets' list), then on the chip the families'
        schema modules forgotten again (``forget_schemas``)."""
        try:
            return call(*args)
        finally:
            if self.forgets_schemas:
                forget_schemas()

    def reading_ahead(self, call):
        """``call()`` (the menu's whole list at boot), as ``reading_every_family``."""
        self.releasing(call)
        return True

    def reading_every_family(self, call, *args):
        """``call(*args)`` (the menu's whole list), as ``releasing``."""
        return self.releasing(call, *args)

    def unload(self, name):
        pass

    def starting(self):
        return None

    def make_way(self, starter, family):
        """Before a start imports ``family``'s code: on the chip, the schema modules go (the
        ruleset is validated; something other than a validation may have imported them)."""
        if self.forgets_schemas:
            forget_schemas()

    def load(self, call, arg):
        return call(arg)

    def check_room(self, total, block):
        """Only the block is tried: ``gc.mem_free()`` walks the whole heap (8.6 ms of an
        RP2040's), and a frozen build's has over 140 KB free in play."""
        bytearray(block)

    def note_family(self, family, loaded):
        pass

    def keep_uploads(self):
        pass

    def end_uploads(self):
        pass
