"""What the firmware's work costs on the chip, in device time: the simulated table's CPU model.

The simulation (sim/device.py) runs the firmware on a PC, so the PC's own speed says nothing
about the Pico's. Device time moves on only by what is charged here, which keeps it
deterministic (no wall clock in it) and ties it to measurements on the emulated RP2040
(MicroPython v1.27 frozen build, rp2040js, ``time.ticks_us`` around the call):

=====================================  ==========  =============================================
measured on the chip                    cost        used for
=====================================  ==========  =============================================
MFRC522 register write / read           59 / 69 us  ``REGISTER_ACCESS_US`` (their mean), charged
                                                    by the reader models' ``BusClock`` per access
empty-pad probe (REQA, no answer)       1.13 ms     ``VISIT_US`` = 1.13 ms less the probe's bus
                                                    accesses, plus the visit's field off
antenna on + off                        0.155 ms    ``FIELD_ON_US`` (its share beyond the access)
``Tray.next_poll_ms``                   0.04 ms     ``NEXT_POLL_US``
scanning alone at idle                  66 % busy   ``SCAN_WAKE_US``: the scan task's wake-up and
                                                    ``poll``'s bookkeeping, what is left of the
                                                    66 % once the above are counted
``load_ruleset`` (Muggins)              63 ms       3609 firmware lines on CPython: 17.5 us/line
Muggins content hash                    24 ms       1547 lines: 15.5 us/line
=====================================  ==========  =============================================

Everything else the firmware does (the table, the engine, the link, the buttons, the journal)
is charged per line of firmware code it executes, counted with ``sys.settrace`` (``LINE_US``,
the two line-costs above). A line is a crude unit, but the ruleset validation and the hash do
very different work and agree within 12 %; the other chip figures (App.buttons() 0.61 ms,
App.serve() 0.14 ms, App.housekeeping() 0.056 ms, tray event -> LED flash about 13 ms) are the
check, made by tests/sim/test_device_time.py and printed by bench/table_latency.py.

The scan path is not traced (it runs a thousand times a device second, and tracing it would
make the simulation several times slower): its cost is the bus accesses plus the constants.
MicroPython's unix port has no ``sys.settrace``: there the traced work costs nothing and the
simulated table is faster than the chip (``LineMeter.counting`` says which).
"""
import sys

REGISTER_ACCESS_US = 64
LINE_US = 5
RULESET_LINE_US = 16
VISIT_US = 600
FIELD_ON_US = 90
NEXT_POLL_US = 40
SCAN_WAKE_US = 400

_FIRMWARE = "/tiletable/"
_RULESETS = "/tiletable/engine/rulesets.py"


class LineMeter:
    """Counts the lines of firmware code a call executes (CPython's ``sys.settrace``)."""

    def __init__(self, counting=True):
        self.counting = counting and hasattr(sys, "settrace")
        self.lines = 0  # firmware lines, ``LINE_US`` each
        self.ruleset_lines = 0  # lines of engine/rulesets.py, ``RULESET_LINE_US`` each
        self._tracers = {}  # code object -> its line counter, or None for code not the firmware's

    def cost_us(self):
        """What the lines counted so far cost on the chip; the counts start again from 0."""
        cost = self.lines * LINE_US + self.ruleset_lines * RULESET_LINE_US
        self.lines = self.ruleset_lines = 0
        return cost

    def _line(self, frame, event, arg):
        if event == "line":
            self.lines += 1
        return self._line

    def _ruleset_line(self, frame, event, arg):
        if event == "line":
            self.ruleset_lines += 1
        return self._ruleset_line

    def _global(self, frame, event, arg):
        code = frame.f_code
        if code not in self._tracers:
            path = code.co_filename.replace("\\", "/")
            self._tracers[code] = None if _FIRMWARE not in path else self._ruleset_line if path.endswith(_RULESETS) else self._line
        tracer = self._tracers[code]
        if tracer is not None:
            tracer(frame, "line", arg)  # the call itself
        return tracer

    def run(self, function, *args):
        """``function(*args)``'s result, the lines it ran added to ``lines``."""
        if not self.counting:
            return function(*args)
        sys.settrace(self._global)
        try:
            return function(*args)
        finally:
            sys.settrace(None)
