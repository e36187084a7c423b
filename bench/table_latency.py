"""Latency of the simulated table: a tile laid on a pad -> the seat's display shows the result.

    python bench/table_latency.py                                  (CPython)
    python tools/build_mpy.py build/mpy && cd build/mpy && \\
        ../../.venv/bin/micropython -X heapsize=1M ../../bench/table_latency.py   (unix port)

The device's clock advances 1 ms per step, so "table ms" is what a person at a real table
would wait with the same scan schedule (nine zones in turn, each field settling 7 ms, a change
confirmed by two identical scans); "cpu ms" is what the simulation spent per placement.
"""
import io
import sys
import time

if sys.implementation.name == "cpython":
    import os

    _ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    sys.path[:0] = [_ROOT + "/sim/cpython", _ROOT + "/sim", _ROOT + "/firmware"]
    cpu_ms = lambda: time.perf_counter() * 1000  # noqa: E731
else:
    sys.path[:0] = ["firmware", "sim"]
    cpu_ms = time.ticks_ms

import device  # noqa: E402


class _NoControl:
    def poll(self):
        return None

    def reply(self, text):
        pass


def placement(table, zone, tile):
    """Lay ``tile`` on ``zone``; the table ms and cpu ms until the display changed."""
    before = table.hardware.display()
    tag = table.pieces.tag(tile)
    table.hardware.readers[zone].place(tag)
    table.unsettled.append(zone)
    started_at = table.clock()
    started_cpu = cpu_ms()
    for _ in range(2000):
        table.step()
        if table.hardware.display() != before:
            return table.clock() - started_at, cpu_ms() - started_cpu
    raise SystemExit("the display never changed")


def main():
    import os

    root = "/tmp/table-latency-%s" % sys.implementation.name
    try:
        os.mkdir(root)
    except OSError:
        pass  # a journal left by an earlier run: the table resumes it, the menu is skipped
    table = device.Device(root, _NoControl(), device.Pieces(), sys.stdin.buffer, io.BytesIO())
    if table.app.table.state is not None:
        table.app.table.stop()
    table.command("press 0 long")  # muggins, 2 players
    table.command("press ok")
    table.command("press ok")
    samples = []
    for zone, tile in ((0, "5-5"), (2, "5-6"), (0, "6-6"), (2, "1-2")):  # set, play, play, illegal
        samples.append(placement(table, zone, tile))
        table.command("remove %d" % zone)
    table_ms = sorted(s[0] for s in samples)
    cpu = sorted(s[1] for s in samples)
    print("%s: tile laid -> display updated: table %d..%d ms (median %d), simulation cpu %d..%d ms per placement"
          % (sys.implementation.name, table_ms[0], table_ms[-1], table_ms[len(table_ms) // 2], cpu[0], cpu[-1]))


main()
