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
idle scan period per zone, 9 zones      34 ms       ``SCAN_WAKE_US`` 900, calibrated to 49 ms on
(all services running)                              the scanner before it powered the next field in
                                                    the same poll (the simulation now gives 31 ms):
                                                    the scan task's wake-up, ``App.scan`` and
                                                    ``poll``'s bookkeeping per run. Check: scanning
                                                    alone kept the chip 66 % busy, the simulation 59 %
App.buttons() / App.serve() idle        0.61 /      ``LINE_US`` 5: 131 and 26 firmware lines on
                                        0.14 ms     CPython, 4.7 and 5.4 us a line
tray event -> LED flash                 ~13 ms      2700-3300 lines: 4.0-4.8 us a line
``load_ruleset`` (Muggins, its hash    22.4 ms     ``VALIDATE_LINE_US`` 24: 943 lines of
known)                                              engine/rulesets.py (23.8 us a line; 276 lines of
                                                    other modules at ``LINE_US`` besides)
its canonical JSON (Muggins's content   14.8 ms     ``CANONICAL_LINE_US`` 16: 915 lines (16.2 us;
hash, at 62c8534)                                   24.5 ms and 1623 lines before 62c8534)
``deflate.DeflateIO`` inflating a       1.27 /      ``INFLATE_US`` 600 a stream and
ruleset of 246 / 1422 bytes (RAW,       4.42 ms     ``INFLATE_NS_PER_BYTE`` 2700 a byte asked of it:
window 1 KB; a stock build)                         the line through the two; the simulation's shim
                                                    (sim/cpython/deflate.py) is charged so, whole
``LinkServer.receive`` of a HELLO /     6.57 /      ``PROTO_LINE_US`` 19 a line of proto/*.py:
JOURNAL_STATUS / RULESET_LIST (empty    5.10 /      356 / 240 / 223 lines here (18.2, 21.1 and
store) frame, reply made                4.50 ms     19.7 us a line; their frames' COBS besides)
littlefs: 152 file operations on a      564 ms in   ``FLASH_READ_NS_PER_BYTE`` 392 a byte littlefs
fresh ``VfsLfs2(rp2.Flash(),            all; e.g.   reads, ``FLASH_PROG_US`` 365 a program,
progsize=256)``: files written,         8.1 ms a    ``FLASH_ERASE_US`` 1368 an erase: fitted to the
renamed, stat, listdir, a journal's     state file  chip's times over what the simulation's
appends and flushes, records read       rewritten,  littlefs (sim/flashfs.py) asks of its chip for
(12 rulesets, 8 session files)          3.7 ms a    the same operations (littlefs's own work is in
                                        journal     them: a raw 256-byte program is 0.22 ms, an
                                        flush       erase 0.14, a 4 KB read 0.05)
journal stream frame (1032 bytes,       166 us /    ``CODES_NS_PER_BYTE`` 150 a byte of
frozen build, 2026-11-26): COBS in       219-254 us  ``frame._codes_in_place`` (the viper pass's
place (``cobs_codes_in_place``); its                 stand-in), ``CRC_NS_PER_BYTE`` 220 a byte of
CRC-32 (``binascii.crc32``, 1028 B)                  ``frame.crc32`` (``charged_crc32``): each call
                                                     less its share of a line
a write to the USB CDC stream of 30 /   46 / 62 us  ``USB_WRITE_US`` 43 a write and
200 bytes; of 64 / 1024 / 4096 bytes    0.11 /      ``USB_WRITE_NS_PER_BYTE`` 464 (the bytes
until the stream can take more          0.62 /      moved: (1948 - 47) us / 4096): a reply is
(POLLOUT)                               1.95 ms     the PC's once USB has moved it
======================================  ==========  ============================================

Everything but the scan path (the table, the engine, the link, the buttons, the journal) is
charged per line of firmware code it executes, counted with ``sys.settrace``: a crude unit, but
the service calls and the table's work on a tile agree on 4-5.4 us a line; ruleset validation,
whose lines check types, look up schemas and build strings, costs five times that, and its
canonical JSON writer three times (both measured on the frozen build at 3b0e06b). The scan path
is not traced: it runs hundreds of times a device second, and its tight driver loops (CRC_A,
FIFO) would be overcharged at 5 us a line; its cost is the bus accesses plus the constants above.

The link's protocol code (frames, payload schemas, the server's dispatch) costs about 19 us a
line on the chip: its lines pack and unpack structs and format the field names they check.
Files cost what littlefs asks of the flash, where the simulation keeps them on a littlefs of the
Pico's geometry (sim/flashfs.py: the simulated table's link, tests/sim/linktime.py); in a plain
directory they cost nothing. Each write to the USB stream is charged as the chip's CDC write.

Not charged: the first import of a module after a boot (frozen bytecode on the chip: 3.2 and
3.9 ms for proto.stream and runtime.journal_read, which the first journal stream imports; 89 ms
for 34 modules in all, 2.6 ms a module). The simulation's modules are imported once per process,
and its firmware is not frozen, so its ``App`` has no ``Warmer`` to import a game's modules at
idle as the chip's does. MicroPython's unix port has no ``sys.settrace``: there the traced work
costs nothing (``LineMeter.counting`` says so), files included.
"""
import sys
from binascii import crc32

REGISTER_ACCESS_US = 64
LINE_US = 5
VALIDATE_LINE_US = 24
CANONICAL_LINE_US = 16
VISIT_US = 183
FIELD_ON_US = 14
NEXT_POLL_US = 40
SCAN_WAKE_US = 900
COBS_NS_PER_BYTE = 770
CODES_NS_PER_BYTE = 150
CRC_NS_PER_BYTE = 220
INFLATE_US = 600
INFLATE_NS_PER_BYTE = 2700
PROTO_LINE_US = 19
FLASH_READ_NS_PER_BYTE = 392
FLASH_PROG_US = 365
FLASH_ERASE_US = 1368
USB_WRITE_US = 43
USB_WRITE_NS_PER_BYTE = 464

_FIRMWARE = "/tiletable/"
_RULESETS = "/tiletable/engine/rulesets.py"
_CANONICAL = ("content_hash", "canonical_json", "_emit", "_emit_list", "_emit_object", "_escaped_json", "_is_plain", "_escaped")
_PROTO = "/tiletable/proto/"
_FRAME = "/tiletable/proto/frame.py"
_DEFLATE = "/sim/cpython/deflate.py"  # the shim standing in for MicroPython's C module


class LineMeter:
    """Counts the lines of firmware code a call executes (CPython's ``sys.settrace``)."""

    def __init__(self, counting=True):
        self.counting = counting and hasattr(sys, "settrace")
        self.lines = 0  # firmware lines, ``LINE_US`` each
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
        self.flash = None  # the littlefs chip the firmware's files are on (sim/flashfs.py), if any
        self._whole = (self._cobs, self._codes, self._inflation, self._inflate)  # charged at the call, their lines not traced
        self._tracers = {}  # code object -> its line counter, or None for code not the firmware's

    def cost_us(self):
        """What the lines counted so far cost on the chip; the counts start again from 0."""
        cost = self.lines * LINE_US + self.validate_lines * VALIDATE_LINE_US + self.canonical_lines * CANONICAL_LINE_US
        cost += self.proto_lines * PROTO_LINE_US + self.inflations * INFLATE_US + self.usb_writes * USB_WRITE_US
        ns = self.cobs_bytes * COBS_NS_PER_BYTE + self.inflated_bytes * INFLATE_NS_PER_BYTE + self.usb_bytes * USB_WRITE_NS_PER_BYTE
        ns += self.codes_bytes * CODES_NS_PER_BYTE + self.crc_bytes * CRC_NS_PER_BYTE
        if self.flash is not None:
            read, programs, erases = self.flash.take()
            cost += programs * FLASH_PROG_US + erases * FLASH_ERASE_US
            ns += read * FLASH_READ_NS_PER_BYTE
        cost += ns // 1000
        self.lines = self.validate_lines = self.canonical_lines = self.proto_lines = 0
        self.cobs_bytes = self.inflations = self.inflated_bytes = self.usb_writes = self.usb_bytes = 0
        self.codes_bytes = self.crc_bytes = 0
        return cost

    def usb_write(self, size):
        """A write of ``size`` bytes to the USB stream (the CDC's FIFO on the chip)."""
        self.usb_writes += 1
        self.usb_bytes += size

    def _line(self, frame, event, arg):
        if event == "line":
            self.lines += 1
        return self._line

    def _validate_line(self, frame, event, arg):
        if event == "line":
            self.validate_lines += 1
        return self._validate_line

    def _proto_line(self, frame, event, arg):
        if event == "line":
            self.proto_lines += 1
        return self._proto_line

    def _canonical_line(self, frame, event, arg):
        if event == "line":
            self.canonical_lines += 1
        return self._canonical_line

    def _cobs(self, frame, event, arg):
        self.cobs_bytes += len(frame.f_locals["data"])

    def _codes(self, frame, event, arg):
        self.codes_bytes += frame.f_locals["end"] - frame.f_locals["start"] + 1

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
        if path.endswith(_RULESETS):
            return self._canonical_line if code.co_name in _CANONICAL else self._validate_line
        if _PROTO in path:
            return self._proto_line
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
        LineMeter.running = self
        sys.settrace(self._global)
        try:
            return function(*args)
        finally:
            sys.settrace(None)
            LineMeter.running = None


LineMeter.running = None  # the meter of the service running now, if its lines are counted


def charged_crc32(data, value=0):
    """``binascii.crc32`` for the link's frames (proto/frame.py's ``crc32`` in the simulation):
    C on the chip, so no line of it is traced; its bytes are counted instead."""
    if LineMeter.running is not None:
        LineMeter.running.crc_bytes += len(data)
    return crc32(data, value)
