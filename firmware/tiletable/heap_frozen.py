"""The heap policy of a frozen build and of CPython: no packing, no unloading, no recovery.

On a UF2 with the package frozen in, the bytecode runs from flash: the heap (over 140 KB free
in play) holds data alone, so nothing is unloaded (importing a module again would cost a start
about 100 ms of an RP2040's time) and the heap is collected only when it is full, or where the
app chooses (``collects_in_play``). CPython (the PC tool, the simulated table) has no such
heap, and there a module unloaded would be taken from under whatever else uses it. Only a
build with room to spare readies a game ahead (runtime/warmup.py), queues 4 KB journal stream
frames and reads the link with machine code. Imported only on such builds (heap.build_policy):
the stock build's heap holds ``heap.StockHeap`` alone.
"""
import sys


class FrozenHeap:
    """``heap.StockHeap``'s interface, doing none of its work."""

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
        if sys.implementation.name != "micropython":
            self.native_intake = None  # only MicroPython compiles viper

    def native_intake(self, link):
        """``link``'s intake as machine code (runtime/usb_native.py): UsbLink takes it where its
        stream can be polled."""
        from tiletable.runtime.usb_native import NativeIntake

        return NativeIntake(link)

    def release(self, loaded):
        pass

    def releasing(self, call, *args):
        return call(*args)

    def unload(self, name):
        pass

    def starting(self):
        return None

    def make_way(self, starter, family):
        pass

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
