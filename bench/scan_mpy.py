"""The RFID scan path's own Python cost under MicroPython (run by bench/scan.py; prints ``name value``).

    .venv/bin/micropython -X heapsize=192K bench/scan_mpy.py

The driver and the tray talk to a do-nothing register file here (sim/empty_field.py) (every chip reads as an
empty field: each wait ends at once with TimerIRq), so the times are pure MicroPython work
on this machine: per register access, per CRC_A, per empty probe, per idle zone scan.
bench/scan.py turns them into RP2040 figures.
"""
import sys
import time

for _path in ("sim", "firmware"):
    if _path not in sys.path:
        sys.path.insert(0, _path)

from tiletable.drivers.mfrc522 import MFRC522, crc_a  # noqa: E402
from tiletable.runtime.tray import Tray  # noqa: E402
from empty_field import ChipSelect, EmptyFieldBus  # noqa: E402


def paired_overhead_us(reader, work, transactions, repeats=15):
    """Median over ``repeats`` of (``work()`` us - ``transactions`` x one register access us),
    the two timed back to back each time: the Python work besides the bus accesses. Timed
    apart, a slow moment on a shared machine lands on one side only, and the difference can
    even come out negative. An access is the driver's own ``_read``/``_write`` call, half of
    each, as the scan path makes them."""
    read = reader._read
    write = reader._write
    diffs = []
    for _ in range(repeats):
        start = time.ticks_us()
        for _ in range(250):
            read(0x04)
            write(0x01, 0)
        access_us = time.ticks_diff(time.ticks_us(), start) / 500
        start = time.ticks_us()
        work()
        diffs.append(time.ticks_diff(time.ticks_us(), start) - transactions * access_us)
    diffs.sort()
    return diffs[repeats // 2]


def per_call_us(fn, calls, repeats=15):
    """Mean us per call, best of ``repeats`` runs (other processes only ever add time)."""
    best = None
    for _ in range(repeats):
        start = time.ticks_us()
        for _ in range(calls):
            fn()
        us = time.ticks_diff(time.ticks_us(), start) / calls
        best = us if best is None or us < best else best
    return best


def main():
    bus = EmptyFieldBus()
    reader = MFRC522(bus, ChipSelect())
    print("read_us %.3f" % per_call_us(lambda: reader._read(0x04), 1000))
    print("write_us %.3f" % per_call_us(lambda: reader._write(0x01, 0), 1000))
    frame = bytearray(18)
    print("crc18_us %.3f" % per_call_us(lambda: crc_a(frame, 0, 18), 500))
    before = bus.transactions
    print("probe_us %.3f" % per_call_us(reader.probe, 200))
    probe_transactions = (bus.transactions - before) / 3000
    print("probe_transactions %.1f" % probe_transactions)

    def probes():
        for _ in range(200):
            reader.probe()

    print("probe_overhead_us %.3f" % (paired_overhead_us(reader, probes, 200 * probe_transactions) / 200))

    zones = 9
    tray = Tray([lambda: MFRC522(bus, ChipSelect()) for _ in range(zones)])
    t = 0
    for _ in range(4 * zones):  # opens the readers
        tray.poll(t)
        t += 8
    cycles = 20
    state = [t]

    def cycle():
        for _ in range(2 * zones * cycles):  # power step, then scan step, per zone
            tray.poll(state[0])
            state[0] += 8

    before = bus.transactions
    us = per_call_us(cycle, 1)
    print("idle_zone_us %.3f" % (us / (zones * cycles)))
    zone_transactions = (bus.transactions - before) / (15 * zones * cycles)
    print("idle_zone_transactions %.1f" % zone_transactions)
    overhead = paired_overhead_us(reader, cycle, zones * cycles * zone_transactions)
    print("idle_zone_overhead_us %.3f" % (overhead / (zones * cycles)))

main()
