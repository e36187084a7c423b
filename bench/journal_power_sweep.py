"""Power cut at every N-th step (programmed byte or block erase) of a 1,000-event session on
real littlefs over the NOR flash model (sim/blockdev.py: 4 KB blocks, torn bytes, part erases).

    .venv/bin/micropython -X heapsize=192K bench/journal_power_sweep.py [step]

The test suite samples 200 cut points (tests/runtime/test_littlefs_power_cut.py); this runs
the same check at every ``step``-th byte (default 1: every byte) and prints how many cut
points were checked and how many records a cut lost at most (the unflushed batch).
"""
import gc
import sys
import time

for _path in ("tests", "sim", "firmware"):
    if _path not in sys.path:
        sys.path.insert(0, _path)

from blockdev import RamBlockDevice  # noqa: E402
from runtime.test_littlefs_power_cut import EVENTS, _check_recovery, _play  # noqa: E402

try:  # the WebAssembly port has no sys.argv
    step = int(sys.argv[1])
except (AttributeError, IndexError):
    step = 1
dev = RamBlockDevice()
_play(dev, None)
total = dev.steps
del dev
checked = 0
worst = 0
t0 = time.time()
for cut in range(1, total, step):
    gc.collect()
    dev = RamBlockDevice()
    durable, assigned = _play(dev, cut)
    image = dev.image
    del dev
    _check_recovery(image, durable, assigned, cut)
    del image
    worst = max(worst, assigned - durable)
    checked += 1
    if checked % 2000 == 0:
        print("... %d cuts checked, up to byte %d of %d" % (checked, cut, total))
print("power cuts checked: %d of %d steps (step %d), %d events; at most %d records not yet flushed at a cut; %d s" % (checked, total, step, EVENTS, worst, time.time() - t0))
