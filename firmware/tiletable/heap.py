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
engine and controller when a game of another family starts, the self test.

Which of these a build does is its *heap policy*, one object the app hands to the table, the
game starter, the link server and the rule store (``build_policy()`` picks it): ``StockHeap``
(here) where the bytecode is in the heap, ``heap_frozen.FrozenHeap`` on a frozen build (where
only the families' schema modules, mostly data, are let go) and on CPython, where no module is
ever unloaded. Nothing else asks which build it runs on.
"""
import gc
import sys

from tiletable import frozen

COLLECT_EVERY = 16 * 1024  # bytes allocated between collections
# Bytes allocated between collections while a row of uploads lasts (StockHeap.keep_uploads): on
# the chip a stock build's sync of the presets spent about 0.45 s of its 3 s in collections of
# 20 ms each at keep_packed's 16 KB, and the code a row keeps goes at its end
UPLOADS_COLLECT_EVERY = 48 * 1024


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


def forget_module(name):
    """Take module ``name`` out of ``sys.modules`` and its name out of its package, so that
    what it holds goes to the collector once nothing else refers to it."""
    del sys.modules[name]
    package, _, attr = name.rpartition(".")
    parent = sys.modules.get(package)
    if parent is not None:
        try:  # no dir(parent): a start that ran out of heap unloads through here
            delattr(parent, attr)
        except (AttributeError, TypeError):
            pass


def build_policy():
    """The heap policy of the build this runs on: ``StockHeap`` where MicroPython has this
    package's bytecode in its heap (loaded from files: the ``.mpy`` files ``tiletable deploy``
    copies to a stock UF2, or ``.py`` sources compiled at import), else
    ``heap_frozen.FrozenHeap`` (imported only then). Asked once, by main.py (an ``os.stat``:
    1.75 ms of an RP2040's time)."""
    if sys.implementation.name == "micropython" and not frozen(sys.modules[__name__]):
        return StockHeap()
    from tiletable.heap_frozen import FrozenHeap

    return FrozenHeap()


# Heap the app keeps free for the note of a restart into a game (App.restart_into): on a heap
# games have cut up, opening a file (1.2 KB on the 64-bit unix port: its littlefs file, a
# 256-byte cache, and the structures, smaller with 32-bit words) may find no other room. On a
# Pico 1 KB: a Fives and Threes start there lacked 464 of the 24 KB it keeps with 2 KB aside.
RESTART_SPARE = 2048 if getattr(sys, "maxsize", 0) > 1 << 32 else 1024
READ_AHEAD_ROOM = 48 * 1024  # see StockHeap.reading_ahead: twice runtime/starter.py's PLAY_HEADROOM


class StockHeap:
    """The heap policy where the bytecode is in the heap (copied ``.mpy`` files on a stock
    UF2): the heap kept packed, every module a task imported unloaded once it is over, and a
    game's start made where its code finds room (a game of another family set aside first, the
    families no game holds unloaded, imports on a cut-up heap collected as they go, a restart
    into the game when games played since boot are what is in the way).

    Its users: ``App`` (link queue, self test, housekeeping), ``GameStarter`` (runtime/starter.py),
    ``LinkServer`` (a row of uploads), ``RuleStore`` (validations)."""

    link_room = 2048  # the link's output queue (runtime/usblink.py's OUT_ROOM says why)
    collects_in_play = False  # collections come by bytes allocated (keep_packed)
    warmer = None  # no readying of games ahead (runtime/warmup.py): their code would hold the heap
    native_intake = None  # no machine code for the link (runtime/usb_native.py): it would be heap
    keep_packed = staticmethod(keep_packed)  # main.py, before its imports

    def __init__(self):
        self.restart_may_help = False  # the last start came on a heap games had used before
        self._fresh = True  # no game prepared, sync nor whole menu read since boot: a restart would not give more room
        self._families = {}  # family -> the modules its first start (or resume) imported
        self.kept_modules = None  # set(sys.modules) before a row of uploads kept a schema module
        self._kept_every = -1  # collect_every()'s setting before that row

    # ----- modules

    def release(self, loaded):
        """Unload every module imported since ``loaded`` (``set(sys.modules)`` then; None:
        nothing to do): a sync or a ruleset list validates every family's rulesets, and the
        modules that took would otherwise hold their bytecode in the heap until reset."""
        if loaded is not None:
            for name in [m for m in sys.modules if m not in loaded]:
                self.unload(name)

    def releasing(self, call, *args):
        """``call(*args)``, then every module it imported unloaded again: validating a ruleset
        imports its family's schema module."""
        loaded = set(sys.modules)
        try:
            return call(*args)
        finally:
            self.release(loaded)

    def unload(self, name):
        """Forget module ``name`` (and its name in its package), so the garbage collector can
        take its bytecode back once nothing else refers to it. A module frozen into the firmware
        is kept: its bytecode is in flash, so forgetting it frees little and the next import of
        it (a validation, a game start) costs again, about 100 ms on an RP2040."""
        module = sys.modules.get(name)
        if module is not None and not frozen(module):
            forget_module(name)

    def reading_ahead(self, call):
        """``call()``, which reads every family's schema module (the menu's whole list at
        boot), as ``reading_every_family``, where the heap has twice the room a game is to keep
        in play (``READ_AHEAD_ROOM``), else not at all (False): in the guide's 192 KB (scaled)
        the names it interns left the link 3.6 KB, too little to answer HELLO. Where it read
        them, a game that finds no room is restarted into (on the emulated chip, Muggins as
        the first game had 23,568 bytes, short of the 24 KB it is to keep), on a boot that
        reads none of them (runtime/table.py)."""
        if free_bytes() < READ_AHEAD_ROOM:
            return False
        self.reading_every_family(call)
        return True

    def reading_every_family(self, call, *args):
        """``call(*args)``, which reads every family's schema module (the menu's whole list,
        runtime/menu.py), unloaded again as by ``releasing``. The names they interned stay until
        a reset (a boot that read them all kept 12.7 KB of a 64-bit unix port's heap, one that
        read line_params alone 4.8 KB), so a game that then finds no room is restarted into, as
        after games played (``restart_may_help``)."""
        try:
            return self.releasing(call, *args)
        finally:
            self._fresh = False

    # ----- a game's start (runtime/starter.py)

    def starting(self):
        """A start or a resume begins: whether a restart could give it more room is known now.
        Returns what ``release`` compares with to unload what the start imports."""
        self.restart_may_help = not self._fresh
        self._fresh = False
        return set(sys.modules)

    def make_way(self, starter, family):
        """Before a start imports ``family``'s code (None: after one that found no room): a game
        of another family in progress is set aside (an attempt beside it ran out of heap and
        left its pieces, interned names and the partial import, where the next attempt needed
        room), the families no game holds are unloaded, and the heap is collected so that the
        code finds room in few pieces."""
        session = starter.table.session
        if session is not None and family is not None and session.ruleset.family != family:
            starter.set_aside()
        if starter.table.session is None:
            for other in [f for f in self._families if f != family]:
                for module in self._families.pop(other):
                    self.unload(module)
        gc.collect()

    def load(self, call, arg):
        """``call(arg)``, which imports a family's code: on a heap games have cut up with a
        collection every ``COLLECT_EVERY`` bytes allocated, whatever the threshold was
        (``App.scan`` holds collections off while a tile awaits its confirmation), then the
        threshold as it was. Imported with collections held off, Moon's code and garbage spread
        over the holes of a 124 KB region (the 64-bit unix port) and left 60 KB free, no 4 KB in
        one piece. On a fresh heap the import is laid out as it comes: that left Buki 2 KB more
        room (tests/sim/test_main_boot.py, 352K)."""
        if not (self.restart_may_help and hasattr(gc, "threshold")):
            return call(arg)
        was = gc.threshold()
        gc.threshold(COLLECT_EVERY)
        try:
            return call(arg)
        finally:
            gc.threshold(was)

    def check_room(self, total, block):
        """Raise MemoryError unless ``total`` bytes are free, ``block`` of them in one piece. It
        collects only when what is free before collecting is not enough (garbage counts as
        used, so that is a lower bound): a collection takes 22-30 ms of a stock build's start."""
        bytearray(block)
        if hasattr(gc, "mem_free") and gc.mem_free() < total:
            free = free_bytes()
            if free < total:
                raise MemoryError("%d bytes free, %d wanted" % (free, total))

    def note_family(self, family, loaded):
        """Remember the modules the first game of ``family`` imported (those not in ``loaded``)."""
        if family not in self._families:
            self._families[family] = [m for m in sys.modules if m not in loaded]

    # ----- a row of uploads (proto/server.py)

    def keep_uploads(self):
        """A row of uploads keeps the schema modules its validations import until it ends
        (``end_uploads``): importing one again at each upload took about 130 ms of a put; and
        collections come every ``UPLOADS_COLLECT_EVERY`` bytes meanwhile."""
        if self.kept_modules is None:
            self.kept_modules = set(sys.modules)
            self._kept_every = collect_every(UPLOADS_COLLECT_EVERY)

    def end_uploads(self):
        """Unload what a row of uploads kept imported. The names its validations interned stay
        until a reset (in pools that grow in pieces of several KB: after a sync of the 15
        presets a 358 KB unix port had 2.8 KB too little for Muggins), so a game that then
        finds no room is restarted into, as after games played (``restart_may_help``)."""
        if self.kept_modules is not None:
            self.release(self.kept_modules)
            self.kept_modules = None
            collect_every(self._kept_every)
            self._fresh = False
