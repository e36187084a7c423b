"""The ruleset fuzzer at scale: mutated presets through every validator and an upload.

    .venv/bin/python bench/ruleset_fuzz.py [documents] [on_table] [seed]

Runs ``documents`` (default 10,000) mutations of every preset through the PC validator
(``tiletable sync``'s), the firmware validator on CPython and on the MicroPython unix port,
and an upload of each to the firmware's LinkServer and RuleStore in this process; then
``on_table`` of them (default 500) to the simulated table (the firmware in its own process,
through pyserial on a pty). Prints every count (tests/engine/ruleset_fuzz.py says which are
bugs) and the time taken; the exit status is 1 when a bug was found.
The suite runs 1,000 and 40 (tests/host/test_ruleset_fuzz.py).
"""
import os
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
for _path in ("tests", "sim", "firmware", os.path.join("sim", "cpython")):
    sys.path.insert(0, os.path.join(ROOT, _path))

from engine.ruleset_fuzz import TableUploader, fuzz, with_presets  # noqa: E402
from tiletable_host.simtable import SimulatedTable  # noqa: E402
from tiletable_host.transport_local import LocalTransport  # noqa: E402
from tiletable_host.transport_serial import SerialTransport  # noqa: E402


def report(where, count, seed, link):
    started = time.time()
    findings = fuzz(count, seed, TableUploader(link))
    print("%s: %s (%.0f s)" % (where, findings.summary(), time.time() - started))
    for example in findings.examples:
        print("  ", example)
    return findings.bugs()


def main(argv):
    documents = int(argv[1]) if len(argv) > 1 else 10000
    on_table = int(argv[2]) if len(argv) > 2 else 500
    seed = int(argv[3]) if len(argv) > 3 else 10018
    bugs = report("in-process LinkServer", documents, seed, with_presets(LocalTransport(tempfile.mkdtemp(prefix="fuzz-"))))
    if on_table:
        table = SimulatedTable.start(root=tempfile.mkdtemp(prefix="fuzz-table-"))
        try:
            link = with_presets(SerialTransport(table.port, timeout=2.0))
            bugs += report("simulated table over a pty", on_table, seed + 1, link)
            link.close()
        finally:
            table.stop()
    print("bugs found: %d" % bugs)
    return 1 if bugs else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
