"""Latency of the simulated table, in its device time: a tile laid -> first LED change, -> display.

    .venv/bin/python bench/table_latency.py [placements] [--flash] [--pace]

The simulated table (sim/device.py) runs the firmware's services on the schedule ``App.run()``
gives them, and its clock moves on by what each piece of work costs on the chip
(sim/chip_costs.py: bus accesses, fixed costs of the scan, firmware lines executed), so the
figures below are measured in the simulation's device time, the way bench/chip.py measures
the emulated RP2040. A scripted Muggins match (2 players) is played; before each tile is laid
the table runs on for a random time (seeded), so tiles land at random points of the scan cycle.
The chip's figures (frozen build) are printed beside for comparison; they are not measured here.
``--flash`` keeps the table's files on littlefs at the chip's costs (sim/flashfs.py), so the
journal's flushes after each play take their time in the schedule. ``--pace`` lays the tiles
instead 100-300, 300-800 and 800-3000 ms after the previous one (a match each), never waiting
for the LEDs, and prints each band's tile -> verdict on the LEDs (latency.measure_paced).
"""
import sys
import time

if sys.implementation.name == "cpython":
    import os

    _ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    sys.path[:0] = [_ROOT + "/sim/cpython", _ROOT + "/sim", _ROOT + "/firmware", _ROOT + "/tests/sim"]

import latency  # noqa: E402

CHIP = {"mover_led": (17, 23), "other_led": (47, 57), "scan_idle": 34}  # bench/chip.py on the emulated RP2040, frozen build at 877884d


def _pct(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(p * len(values) / 100))] if values else float("nan")


def _line(label, values, chip=None):
    if not values:
        print("%-44s (n 0)" % label)
        return
    text = "%-44s p50 %5.1f  p95 %5.1f  max %5.1f  (n %d)" % (label, _pct(values, 50), _pct(values, 95), max(values), len(values))
    if chip:
        text += "   chip p50 %d p95 %d" % chip
    print(text)


def paced(count, flash):
    print("simulated table, device time, tiles on the mover's pad laid at pace, never waiting for the LEDs")
    for band in ((100, 300), (300, 800), (800, 3000)):
        run = latency.measure_paced(placements=count, seed=14, intervals=band, flash=flash)
        verdicts = run.verdicts(*band)
        _line("%d-%d ms apart -> its verdict on the LEDs, ms" % band, [v for v in verdicts if v is not None])
        if None in verdicts:
            print("  %d without a verdict before the next tile" % verdicts.count(None))


def main(argv):
    flash = "--flash" in argv
    pace = "--pace" in argv
    argv = [arg for arg in argv if arg not in ("--flash", "--pace")]
    count = int(argv[0]) if argv else 40
    if pace:
        paced(count, flash)
        return
    started = time.time()
    run = latency.measure_match(placements=count, seed=14, flash=flash)
    where = "on littlefs at the chip's costs" if flash else "in a directory"
    print("simulated table, device time (sim/chip_costs.py), %d placements in a 2-player Muggins match, files %s" % (len(run.samples), where))
    _line("tile on the mover's pad -> first LED, ms", run.led("mover"), CHIP["mover_led"])
    unlit = sum(1 for sample in run.samples if sample[0] == "mover" and sample[1] is None)
    if unlit:
        print("  %d on the mover's pad without an LED change within the window" % unlit)
    _line("tile on the mover's pad -> display (any change), ms", run.display("mover"))
    if run.led("other"):
        _line("tile on another zone -> first LED, ms", run.led("other"), CHIP["other_led"])
    periods = run.idle_periods
    print("idle scan period per zone, mean ms: %s   chip %d" % (" ".join("%d:%.0f" % zp for zp in enumerate(periods)), CHIP["scan_idle"]))
    print("idle CPU busy: %.1f %% of device time" % run.idle_busy_pct)
    print("(%.0f s of wall time for %.1f s of device time)" % (time.time() - started, run.device_ms / 1000))


main(sys.argv[1:])
