"""Power cut at every N-th step (programmed byte or block erase) of a 1,000-event journal on
real littlefs over the NOR flash model (sim/blockdev.py: 4 KB blocks, torn bytes, part
erases), played as four sessions while the host pulls, acknowledges and the journal rotates
acknowledged sessions away; every 5th cut is followed by a second one during the recovery.

    python tools/build_mpy.py build/mpy
    cd build/mpy && ../../.venv/bin/micropython -X heapsize=192K ../../bench/journal_power_sweep.py [step]

It runs on the mpy-cross output, as the test suite does: compiled from source on the heap, the
modules it imports leave the 192 KB heap too broken up for the 48 KB flash image.

The test suite samples 200 cut points (tests/runtime/test_littlefs_power_cut.py, which has
the checks: nothing flushed or acknowledged lost, nothing corrupted, only acknowledged
sessions rotated away); this runs them at every ``step``-th step (default 1: every one) and
prints how many cut points were checked and how many records a cut lost at most (the
unflushed batch).
"""
import gc
import sys
import time

for _path in ("tests", "sim", "firmware"):
    if _path not in sys.path:
        sys.path.insert(0, _path)

from runtime.test_littlefs_power_cut import EVENTS, RECOVERY_CUTS, check_cut, played_steps  # noqa: E402

try:  # the WebAssembly port has no sys.argv
    step = int(sys.argv[1])
except (AttributeError, IndexError):
    step = 1
total, erase_steps = played_steps()
checked = worst = second_cuts = 0
t0 = time.time()
for cut in range(1, total, step):
    gc.collect()
    unflushed, cut_again = check_cut(cut, checked % RECOVERY_CUTS == 0)
    worst = max(worst, unflushed)
    second_cuts += cut_again
    checked += 1
    if checked % 2000 == 0:
        print("... %d cuts checked, up to step %d of %d" % (checked, cut, total))
print(
    "power cuts checked: %d of %d steps (step %d; %d of the steps are block erases), %d events in 4 sessions pulled, acknowledged"
    " and rotated; %d recoveries cut again; at most %d records not yet flushed at a cut; %d s"
    % (checked, total, step, len(erase_steps), EVENTS, second_cuts, worst, time.time() - t0)
)
