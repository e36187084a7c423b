"""Link fuzz against the whole firmware App at scale.

    .venv/bin/python bench/app_link_fuzz.py [frames] [seed]

Sends ``frames`` (default 100,000) hostile frames of every request type to the App on the
simulated board (tests/sim/app_link_fuzz.py says how they are made and checked) and prints
every count, how many of each request type were taken and refused, and the time taken; the
exit status is 1 when a bug was found. The suite runs 2,500 (tests/sim/test_app_link_fuzz.py).
"""
import os
import shutil
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
for _path in ("tests", "sim", "firmware", os.path.join("sim", "cpython")):
    sys.path.insert(0, os.path.join(ROOT, _path))

from sim.app_link_fuzz import fuzz  # noqa: E402
from tiletable.proto.messages import message_name  # noqa: E402


def main(argv):
    frames = int(argv[1]) if len(argv) > 1 else 100000
    seed = int(argv[2]) if len(argv) > 2 else 100018
    base = "/dev/shm" if os.path.isdir("/dev/shm") else None
    root = tempfile.mkdtemp(prefix="app-fuzz-", dir=base)
    started = time.time()
    try:
        findings = fuzz(root, frames, seed)
    finally:
        shutil.rmtree(root, ignore_errors=True)
    print("%s (%.0f s)" % (findings.summary(), time.time() - started))
    for msg_type, (accepted, refused) in sorted(findings.by_type.items()):
        print("  %-22s taken %6d  refused %6d" % (message_name(msg_type), accepted, refused))
    for example in findings.examples:
        print("  ", example)
    return 1 if findings.bugs() else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
