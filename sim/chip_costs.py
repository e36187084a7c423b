"""What the firmware's work costs on the chip, in device time: the simulated table's CPU model.

The simulation (sim/device.py) runs the firmware on a PC, so the PC's own speed says nothing
about the Pico's. Device time moves on only by what is charged here, which keeps it
deterministic (no wall clock in it) and ties it to measurements on the emulated RP2040
(MicroPython v1.27 frozen build, rp2040js, ``time.ticks_us`` around the call, and bench/chip.py):

======================================  ==========  ============================================
measured on the chip                    cost        how it is used here
======================================  ==========  ============================================
MFRC522 register write / read           59 / 69 us  ``REGISTER_ACCESS_US`` 64 (their mean), charged
                                                    by the reader models' ``BusClock`` per access
empty-pad probe (WUPA, no answer)       1.13 ms     ``VISIT_US`` 183: less its 15 bus accesses
                                                    (960 us), plus half the antenna's remainder
antenna on + off (one write each)       0.155 ms    ``FIELD_ON_US`` 14: the other half of
                                                    0.155 ms less two accesses
``Tray.next_poll_ms``                   0.04 ms     ``NEXT_POLL_US``
idle scan period per zone, 9 zones      34 ms       ``SCAN_WAKE_US`` 620 and ``WAKE_US``: 900 in
(all services running)                              all, calibrated to 49 ms on the scanner before
                                                    it powered the next field in the same poll (the
                                                    simulation now gives 33 ms): the scan task's
                                                    wake-up, ``App.scan`` and ``poll``'s bookkeeping
                                                    per run. Check: scanning alone kept the chip 66 %
                                                    busy, the simulation 59 %
asyncio's pass to wake a task           0.28 ms     ``WAKE_US`` 280, charged at every run of a
(each service alone for 3 s, REPL)                  service: the link alone 9.8 % busy at 200 wakes
                                                    a second (App.serve_wait 0.213 ms), the buttons
                                                    9.4 % at 100 (App.buttons 0.65 ms)
App.buttons() / App.serve() idle        0.36 /      ``LINE_US`` 5: the firmware lines executed on
                                        0.14 ms     CPython, about 5 us a line
tray event -> LED flash                 ~13 ms      2700-3300 lines: 4.0-4.8 us a line
random playouts of 80 checked moves     87-204 ms   ``ENGINE_LINE_US`` 7: the lines of engine/*.py
(deals, draws, plays: Muggins, Block,   in all      (but rulesets.py), 191,830 here for 1,449 ms
Moon, Columns, Da San; two each,                    (7.55 us a line, 6.6-8.6 by game; the playout's
REPL, 2026-11-27)                                   own loop is in the chip's time, not counted)
a game start's objects, made alone      1.80 /      ``INIT_LINE_US`` 38 a line of an ``__init__``
after a collection (REPL,               1.24 /      (but the link's and the ruleset's): least squares
2026-11-27): ``status_leds``            0.88 /      over the four (65, 32, 19 and 49 such lines; 25,
(StatusLeds), a ``Profile``, a          3.42 ms     37, 40 and 62 us a line), their other lines at
``LineController``, a Muggins state                 ``LINE_US`` / ``ENGINE_LINE_US``: each store to a
of 2 (``new_state``)                                new object grows its member map (rehashed,
                                                    reallocated); 143 of a playout's 158,110 lines
``load_ruleset`` (Muggins, its hash    22.4 ms     ``VALIDATE_LINE_US`` 24: 943 lines of
known)                                              engine/rulesets.py (23.8 us a line; 276 lines of
                                                    other modules at ``LINE_US`` besides)
its canonical JSON (Muggins's content   19.9 ms     ``CANONICAL_LINE_US`` 22: 920 lines (21.6 us;
hash, 2026-11-26; 14.8 ms at 62c8534)               20.7 ms in the sync helper's run at 2b3e633)
``deflate.DeflateIO`` inflating a       1.27 /      ``INFLATE_US`` 600 a stream and
ruleset of 246 / 1422 bytes (RAW,       4.42 ms     ``INFLATE_NS_PER_BYTE`` 2700 a byte asked of it:
window 1 KB; a stock build)                         the line through the two; the simulation's shim
                                                    (sim/cpython/deflate.py) is charged so, whole
``LinkServer.receive`` of a HELLO /     6.57 /      ``PROTO_LINE_US`` 19 a line of proto/*.py:
JOURNAL_STATUS / RULESET_LIST (empty    5.10 /      356 / 240 / 223 lines here (18.2, 21.1 and
store) frame, reply made                4.50 ms     19.7 us a line; their frames' COBS besides);
                                                    25 / 25 / 36 of them decode COBS, now charged
                                                    ``LINE_US`` (below): the others 19.5, 23.1
                                                    and 23.1 us a line
``frame.cobs_decode_into`` of a         0.58 /      ``LINE_US``: 157 / 25 lines here (3.7 and
JOURNAL_STREAM / HELLO request          0.11 ms     4.3 us a line: a code group's slice a line);
(REPL, 2026-11-27)                                  at ``PROTO_LINE_US`` the stream's request was
                                                    charged 3.0 ms
littlefs on ``VfsLfs2(rp2.Flash(),     1.4-72 ms   ``FLASH_READ_US`` 19 a read littlefs asks of the
progsize=256)``, REPL, 2026-11-27:      an          chip and ``FLASH_READ_NS_PER_BYTE`` 202 a byte,
39 file operations (files of 16 B to    operation   ``FLASH_PROG_US`` 537 a program,
12 KB written, overwritten, read;                   ``FLASH_ERASE_US`` 1185 an erase: least squares
read in 1 KB and 4 KB pieces; stat,                 over 31 of them (a compaction falls on other
rename, listdir, remove; appends                    operations on the chip than here, and renames
flushed one by one)                                 are left out) of the chip's time against what
                                                    the simulation's littlefs (sim/flashfs.py) asks
                                                    of its chip: 0.91 ms rms off, where the earlier
                                                    fit (152 operations: 392 ns a byte, 365 and
                                                    1368 us, no charge a read) is 1.27 ms off and
                                                    charged a 4 KB piece of a session file 1.6 ms
                                                    (the chip: 72-135 us, 1.4 ms with its open)
journal stream frame (1032 bytes,       166 us /    ``CODES_NS_PER_BYTE`` 150 a byte of
frozen build, 2026-11-26): COBS in       219-254 us  ``frame._codes_in_place`` (the viper pass's
place (``cobs_codes_in_place``); its                 stand-in), ``CRC_NS_PER_BYTE`` 220 a byte of
CRC-32 (``binascii.crc32``, 1028 B)                  the link's CRC (``charged_crc32``): each call
                                                     less its share of a line
the link's intake (``UsbLink._take``,   54 us /     ``USB_TAKE_US`` 54 a call and
viper ``usb_native.take_into``, frozen  20.0 us     ``USB_TAKE_NS_PER_BYTE`` 19870 a byte read,
build, 2026-11-26): a call that finds   a byte      charged whole to ``UsbLink._take``
nothing; a byte read (400 waiting)                  (the simulation runs its bytecode: about
                                                    33 us a byte on the chip)
a write to the USB CDC stream of 30 /   46 / 62 us  ``USB_WRITE_US`` 43 a write and
200 bytes; of 64 / 1024 / 4096 bytes    0.11 /      ``USB_WRITE_NS_PER_BYTE`` 464 (the bytes
until the stream can take more          0.62 /      moved: (1948 - 47) us / 4096): a reply is
(POLLOUT)                               1.95 ms     the PC's once USB has moved it
======================================  ==========  ============================================

Everything but the scan path (the table, the engine, the link, the buttons, the journal) is
charged per line of firmware code it executes, counted with ``sys.settrace``: a crude unit, but
the service calls and the table's work on a tile agree on 4-5.4 us a line; the engine's lines,
which index, slice and look attributes up through its state classes' bases, 7; a constructor's,
whose stores make a new object's attributes one at a time, 38 (a game start builds a dozen
objects); ruleset validation, whose lines check types, look up schemas and build strings, costs
24 a line, and its canonical JSON writer 22 (measured on the frozen build). The scan path
is not traced: it runs hundreds of times a device second, and its tight driver loops (CRC_A,
FIFO) would be overcharged at 5 us a line; its cost is the bus accesses plus the constants above.

The link's protocol code (frames, payload schemas, the server's dispatch) costs about 19 us a
line on the chip: its lines pack and unpack structs and format the field names they check.
A walk of ``sys.modules`` (the firmware's ``[m for m in sys.modules if ...]``) is charged for
the firmware's modules only: the chip's ``sys.modules`` holds about 60, nearly all of them
``tiletable``'s, where the PC's process holds a thousand (the host's, the tests'). Files cost
what littlefs asks of the flash, where the simulation keeps them on a littlefs of the
Pico's geometry (sim/flashfs.py: the simulated table's link, tests/sim/linktime.py); in a plain
directory they cost nothing. Each write to the USB stream is charged as the chip's CDC write.

A ``gc.collect()`` the link server or the ``App`` makes (proto/server.py, runtime/app.py) is
charged as the chip's collection of the table's heap at idle, ``GC_COLLECT_US`` 17 ms. On the
frozen build at the REPL a collection took 10.8-13.2 ms with an ``App`` built (55-71 KB in
use), and about 0.13 ms more per KB of small live objects (5 us an object); the bench's table
holds about 88 KB at idle (157.6 KB free) and more in play, where a collection took 21 ms.
The collections of tiletable/heap.py are a copied-.mpy build's (its bytecode is heap): the
simulation's firmware is not frozen, so it makes them, but the chip's frozen build does not, so
they are not charged.

The first import of a firmware module after a boot is charged as the chip's import of it, with
every module its top level imports that the boot has not (``FirstImports``): on the frozen
build at the REPL, each of 26 modules imported alone after ``App`` took 1.2 to 6.2 ms, 3.06 ms
on average, not in proportion to its bytecode (0.5 to 11.8 KB; the three small schema modules
added since, 0.65 to 0.77 ms, are not in the mean). ``IMPORT_US`` holds those
measured (the pair a boot's first journal stream imports, proto.stream and
runtime.journal_read, 8.4 ms); another module is charged the mean, ``IMPORT_MEAN_US``. What the
boot imports (main.py's imports and what they import, and whatever the ``App``'s making
imports) is not charged, nor a module's body lines: the import is charged whole. Where its
work is charged, the simulated table's ``App`` runs as the frozen build (sim/device.py): its
``Warmer`` imports the menu's game and the journal stream's modules at idle, charged so, as the
chip's does. MicroPython's unix port has no ``sys.settrace``: there the traced work costs
nothing (``LineMeter.counting`` says so), files included.
"""
import builtins
import os
import sys
from binascii import crc32

REGISTER_ACCESS_US = 64
LINE_US = 5
ENGINE_LINE_US = 7
INIT_LINE_US = 38
VALIDATE_LINE_US = 24
CANONICAL_LINE_US = 22
VISIT_US = 183
FIELD_ON_US = 14
NEXT_POLL_US = 40
SCAN_WAKE_US = 620
WAKE_US = 280
COBS_NS_PER_BYTE = 770
CODES_NS_PER_BYTE = 150
CRC_NS_PER_BYTE = 220
INFLATE_US = 600
INFLATE_NS_PER_BYTE = 2700
PROTO_LINE_US = 19
FLASH_READ_US = 19
FLASH_READ_NS_PER_BYTE = 202
FLASH_PROG_US = 537
FLASH_ERASE_US = 1185
USB_WRITE_US = 43
USB_WRITE_NS_PER_BYTE = 464
USB_TAKE_US = 54
USB_TAKE_NS_PER_BYTE = 19870
GC_COLLECT_US = 17000
IMPORT_MEAN_US = 3060
IMPORT_US = {  # tiletable.<name>: its first import on the frozen build (REPL, 2026-11-26; the
    # three families whose schema went into a module of its own and those modules, 2026-11-27)
    "runtime.journal_read": 4790, "proto.stream": 3610, "engine.holdings": 1340,
    # engine.line_params: 2790 measured as one module of 8288 B (.mpy); its checks are a module of
    # their own now, the two charged that rate by their .mpy sizes (5896 and 4808 B)
    "engine.line_params": 1990, "engine.line_params_checks": 1620,
    "engine.cards": 2130, "engine.column": 5050,
    # engine.trick: 7300 measured as one module; its scoring, its suits and what it knows of
    # hands are modules of their own now (the suits and the hands shared with Texas 42), each
    # charged that rate (0.81 us a byte of .mpy) by its size (7641, 867, 579 and 854 B) until
    # measured on the chip; Texas 42's modules at the same rate (8006 and 796 B; its table
    # controller 681 B, at play_trick's 0.96)
    "engine.trick": 6190, "engine.trick_score": 700, "engine.suits": 470, "engine.trick_hands": 690,
    "engine.fortytwo": 6490, "engine.fortytwo_params": 650,
    # engine.climb: 5050 measured as one module; its combinations are a module of their own
    # now, the 5050 shared by their .mpy sizes (7851 and 1640 B) until measured on the chip
    "engine.climb": 4180, "engine.climb_combos": 870,
    "engine.trick_params": 680, "engine.column_params": 650, "engine.climb_params": 770,
    "engine.line_layout": 2520, "engine.line_actions": 2640, "runtime.controller": 3000,
    # engine.line: 11500 measured as one module of 18673 B (.mpy); it is six modules now and
    # betting grew from 1637 to 3958 B with Buki's part of it: each is charged that rate by its
    # .mpy size (0.616 us a byte) until measured on the chip
    "engine.line": 4010, "engine.line_rules": 940, "engine.line_checks": 3070, "engine.line_deal": 1590,
    "engine.line_award": 580, "engine.line_pips": 940, "engine.line_variants": 1240,
    "engine.line_score_threes_fives": 520,
    "engine.line_score_fives": 400, "engine.line_score_headers": 420, "runtime.play_line": 3830,
    "runtime.play_trick": 2120, "runtime.play_fortytwo": 650, "runtime.play_column": 2170, "runtime.play_climb": 2720, "engine.betting": 2440,
    "engine.knowledge": 1970, "runtime.tags": 5890, "runtime.selftest": 2520,
    "runtime.warmup": 1410, "drivers.tm1637": 3470,
}

_FIRMWARE = "/tiletable/"
_RULESETS = "/tiletable/engine/rulesets.py"
_CANONICAL = ("content_hash", "_hash_json", "canonical_json", "_emit", "_emit_list", "_emit_object", "_escaped_json", "_is_plain", "_escaped")
_PROTO = "/tiletable/proto/"
_ENGINE = "/tiletable/engine/"
_FRAME = "/tiletable/proto/frame.py"
_HEAP = "/tiletable/heap.py"  # StockHeap.release, at the rate measured when it was in rulesets.py
_USBLINK = "/tiletable/runtime/usblink.py"
_DEFLATE = "/sim/cpython/deflate.py"  # the shim standing in for MicroPython's C module


class LineMeter:
    """Counts the lines of firmware code a call executes (CPython's ``sys.settrace``)."""

    def __init__(self, counting=True):
        self.counting = counting and hasattr(sys, "settrace")
        self.lines = 0  # firmware lines, ``LINE_US`` each
        self.engine_lines = 0  # lines of the engine's other modules, ``ENGINE_LINE_US`` each
        self.init_lines = 0  # lines of constructors (``__init__``, but the link's and rulesets.py's), ``INIT_LINE_US`` each
        self.validate_lines = 0  # lines of engine/rulesets.py, ``VALIDATE_LINE_US`` each
        self.canonical_lines = 0  # of its canonical JSON writer, ``CANONICAL_LINE_US`` each
        self.cobs_bytes = 0  # bytes COBS-encoded, ``COBS_NS_PER_BYTE`` each (machine code on the chip)
        self.codes_bytes = 0  # bytes COBS-encoded in place, ``CODES_NS_PER_BYTE`` each (machine code too)
        self.crc_bytes = 0  # bytes of the link's frames through CRC-32, ``CRC_NS_PER_BYTE`` each
        self.inflations = 0  # DeflateIO streams made, ``INFLATE_US`` each
        self.inflated_bytes = 0  # bytes asked of them, ``INFLATE_NS_PER_BYTE`` each
        self.proto_lines = 0  # lines of the link's protocol code, ``PROTO_LINE_US`` each
        self.usb_writes = 0  # writes to the USB stream (``usb_write``)
        self.usb_bytes = 0
        self.takes = 0  # calls of the link's intake (``UsbLink._take``, machine code on the frozen build)
        self.taken_bytes = 0  # and the bytes they read
        self.collections = 0  # ``gc.collect()`` calls of the firmware's (``ChargedGc``), ``GC_COLLECT_US`` each
        self.import_us = 0  # what the firmware modules imported for the first time since the boot cost (``IMPORT_US``)
        self.first_imports = None  # the boot's ``FirstImports``, if imports are charged
        self.flash = None  # the littlefs chip the firmware's files are on (sim/flashfs.py), if any
        self._whole = (self._cobs, self._codes, self._inflation, self._inflate, self._walk_validate, self._take)  # charged at the call, their lines not traced
        self._tracers = {}  # code object -> its line counter, or None for code not the firmware's
        self._thread = None  # the thread ``run`` counts the lines of
        self._traced = None  # the trace function a collection suspended (``_collecting``)

    def cost_us(self):
        """What the lines counted so far cost on the chip; the counts start again from 0."""
        cost = self.lines * LINE_US + self.engine_lines * ENGINE_LINE_US + self.init_lines * INIT_LINE_US
        cost += self.validate_lines * VALIDATE_LINE_US + self.canonical_lines * CANONICAL_LINE_US
        cost += self.proto_lines * PROTO_LINE_US + self.inflations * INFLATE_US + self.usb_writes * USB_WRITE_US
        cost += self.collections * GC_COLLECT_US + self.import_us + self.takes * USB_TAKE_US
        ns = self.cobs_bytes * COBS_NS_PER_BYTE + self.inflated_bytes * INFLATE_NS_PER_BYTE + self.usb_bytes * USB_WRITE_NS_PER_BYTE
        ns += self.codes_bytes * CODES_NS_PER_BYTE + self.crc_bytes * CRC_NS_PER_BYTE + self.taken_bytes * USB_TAKE_NS_PER_BYTE
        if self.flash is not None:
            reads, read, programs, erases = self.flash.take()
            cost += reads * FLASH_READ_US + programs * FLASH_PROG_US + erases * FLASH_ERASE_US
            ns += read * FLASH_READ_NS_PER_BYTE
        cost += ns // 1000
        self.lines = self.engine_lines = self.init_lines = self.validate_lines = self.canonical_lines = self.proto_lines = 0
        self.cobs_bytes = self.inflations = self.inflated_bytes = self.usb_writes = self.usb_bytes = 0
        self.codes_bytes = self.crc_bytes = self.collections = self.import_us = self.takes = self.taken_bytes = 0
        return cost

    def usb_write(self, size):
        """A write of ``size`` bytes to the USB stream (the CDC's FIFO on the chip)."""
        self.usb_writes += 1
        self.usb_bytes += size

    def _line(self, frame, event, arg):
        if event == "line":
            self.lines += 1
        return self._line

    def _engine_line(self, frame, event, arg):
        if event == "line":
            self.engine_lines += 1
        return self._engine_line

    def _init_line(self, frame, event, arg):
        if event == "line":
            self.init_lines += 1
        return self._init_line

    def _validate_line(self, frame, event, arg):
        if event == "line":
            self.validate_lines += 1
        return self._validate_line

    def _proto_line(self, frame, event, arg):
        if event == "line":
            self.proto_lines += 1
        return self._proto_line

    def _walk_validate(self, frame, event, arg):
        self.validate_lines += _firmware_modules()  # a line a module, as the chip walks them

    def _canonical_line(self, frame, event, arg):
        if event == "line":
            self.canonical_lines += 1
        return self._canonical_line

    def _cobs(self, frame, event, arg):
        self.cobs_bytes += len(frame.f_locals["data"])

    def _codes(self, frame, event, arg):
        self.codes_bytes += frame.f_locals["end"] - frame.f_locals["start"] + 1

    def _take(self, frame, event, arg):
        self.takes += 1
        return self._taken  # its lines are not counted; its result is

    def _taken(self, frame, event, arg):
        if event == "return" and arg is not None:
            self.taken_bytes += arg
        return self._taken

    def _inflation(self, frame, event, arg):
        self.inflations += 1

    def _inflate(self, frame, event, arg):
        self.inflated_bytes += len(frame.f_locals["buf"])

    def _tracer(self, code):
        path = code.co_filename.replace("\\", "/")
        if path.endswith(_DEFLATE):
            return {"__init__": self._inflation, "readinto": self._inflate}.get(code.co_name)
        if _FIRMWARE not in path:
            return None
        if path.endswith(_FRAME) and code.co_name == "cobs_encode":
            return self._cobs
        if path.endswith(_FRAME) and code.co_name == "_codes_in_place":
            return self._codes
        if path.endswith(_FRAME) and code.co_name == "cobs_decode_into":
            return self._line  # slices a code group at a time: the chip's pace, not the codec's
        if code.co_name == "<listcomp>" and "m" in code.co_varnames and path.endswith(_HEAP):
            return self._walk_validate  # its [m for m in sys.modules ...]
        if path.endswith(_USBLINK) and code.co_name == "_take":
            return self._take
        if path.endswith(_RULESETS):
            return self._canonical_line if code.co_name in _CANONICAL else self._validate_line
        if _PROTO in path:
            return self._proto_line
        if code.co_name == "__init__":
            return self._init_line
        if _ENGINE in path:
            return self._engine_line
        return self._line

    def _global(self, frame, event, arg):
        code = frame.f_code
        if code not in self._tracers:
            self._tracers[code] = self._tracer(code)
        tracer = self._tracers[code]
        if tracer in self._whole:
            return tracer(frame, event, arg)  # charged whole, its lines not traced
        if tracer is not None:
            tracer(frame, "line", arg)  # the call itself
        return tracer

    def run(self, function, *args):
        """``function(*args)``'s result, the lines it ran added to ``lines``."""
        if not self.counting:
            return function(*args)
        import gc
        from _thread import get_ident

        LineMeter.running = self
        imported = builtins.__import__
        if self.first_imports is not None:
            builtins.__import__ = self._import
        self._thread = get_ident()
        gc.callbacks.append(self._collecting)
        sys.settrace(self._global)
        try:
            return function(*args)
        finally:
            sys.settrace(None)
            gc.callbacks.remove(self._collecting)
            builtins.__import__ = imported
            LineMeter.running = None

    def _collecting(self, phase, info):
        """``gc.callbacks``: no line runs traced while CPython collects. A collection finalizes
        whatever garbage earlier work left (a simulated table's suspended generators: closing
        one runs its lines), which is neither this work nor the chip's, and which depends on
        what ran before in the process; a collection of the firmware's own is charged whole
        (``ChargedGc``)."""
        from _thread import get_ident

        if get_ident() != self._thread:
            return  # another thread's collection: its tracing is not the meter's
        if phase == "start":
            self._traced = sys.gettrace()
            sys.settrace(None)
        else:
            sys.settrace(self._traced)

    def _import(self, name, globals=None, locals=None, fromlist=(), level=0):
        """``__import__`` while the firmware's lines are counted: an import is charged whole (its
        module's lines are not traced), a first one since the boot as the chip's (``IMPORT_US``).
        An import inside another's module leaves tracing off: the outer import's is not over."""
        traced = sys.gettrace()
        sys.settrace(None)
        try:
            module = _IMPORT(name, globals, locals, fromlist, level)
        finally:
            sys.settrace(traced)
        if level == 0:
            self.import_us += self.first_imports.note(name, fromlist)
        return module


LineMeter.running = None  # the meter of the service running now, if its lines are counted


def _firmware_modules():
    count = 0
    for name in sys.modules:
        if name.startswith("tiletable"):
            count += 1
    return count


def charged_crc32(data, value=0):
    """``binascii.crc32`` for the link's frames (the ``crc`` the simulated table gives its link
    server): C on the chip, so no line of it is traced; its bytes are counted instead."""
    if LineMeter.running is not None:
        LineMeter.running.crc_bytes += len(data)
    return crc32(data, value)


_IMPORT = builtins.__import__


class ChargedGc:
    """The ``gc`` module as the firmware's link server and ``App`` see it in the simulation
    (their ``collector``, sim/device.py): each ``collect()`` is charged as the chip's,
    ``GC_COLLECT_US``."""

    def __init__(self, gc):
        self._gc = gc

    def __getattr__(self, name):
        return getattr(self._gc, name)

    def collect(self):
        if LineMeter.running is not None:
            LineMeter.running.collections += 1
        return self._gc.collect()


class FirstImports:
    """The firmware modules one boot of the simulated table has imported, as the chip counts
    them: a module's first import brings in every module its top level imports (read from the
    firmware's sources, since the PC's process may have imported them for an earlier boot)."""

    def __init__(self, package_dir):
        """``package_dir``: the ``tiletable`` package's folder (the host's is a link to it)."""
        self.firmware_dir = os.path.dirname(os.path.realpath(package_dir))  # main.py's
        self.imported = set()
        self._top_level = {}  # module name -> the firmware modules its top level imports
        self._sources = {}  # module name -> its firmware source file, or None

    def at_boot(self, function, *args, **kwargs):
        """``function``'s result; the modules main.py imports, and any that ``function`` (the
        boot's making of the ``App``) imports, count as imported, uncharged."""
        self._add("main")
        builtins.__import__ = self._booting
        try:
            return function(*args, **kwargs)
        finally:
            builtins.__import__ = _IMPORT

    def _booting(self, name, globals=None, locals=None, fromlist=(), level=0):
        module = _IMPORT(name, globals, locals, fromlist, level)
        if level == 0:
            self.note(name, fromlist)
        return module

    def note(self, name, fromlist=()):
        """An import of ``name`` (and of ``fromlist``'s submodules): what the firmware modules it
        imported for the first time since the boot cost on the chip, in us."""
        if not name.startswith("tiletable"):
            return 0
        names = [name] + [name + "." + sub for sub in fromlist or () if self._source(name + "." + sub)]
        before = set(self.imported)
        for module in names:
            self._add(module)
        return sum(IMPORT_US.get(module[len("tiletable.") :], IMPORT_MEAN_US) for module in self.imported - before)

    def _add(self, name):
        if name in self.imported or self._source(name) is None:
            return
        self.imported.add(name)
        parent = name.rpartition(".")[0]
        if parent:
            self._add(parent)
        for module in self._imports_of(name):
            self._add(module)

    def _source(self, name):
        if name not in self._sources:
            base = os.path.join(self.firmware_dir, *name.split("."))
            found = [path for path in (base + ".py", os.path.join(base, "__init__.py")) if os.path.isfile(path)]
            self._sources[name] = found[0] if found else None
        return self._sources[name]

    def _imports_of(self, name):
        """The firmware modules ``name``'s top level imports (not its functions' imports)."""
        found = self._top_level.get(name)
        if found is None:
            import ast

            with open(self._source(name)) as f:
                tree = ast.parse(f.read())
            found = []
            todo = list(tree.body)
            while todo:
                node = todo.pop()
                if isinstance(node, ast.Import):
                    found.extend(alias.name for alias in node.names)
                elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                    found.append(node.module)
                    found.extend(node.module + "." + alias.name for alias in node.names)
                elif not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    todo.extend(ast.iter_child_nodes(node))
            found = [module for module in found if self._source(module) is not None]
            self._top_level[name] = found
        return found
