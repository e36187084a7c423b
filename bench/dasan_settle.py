"""Da San's settle time on the simulated table: how long after the cards on a pad stop
changing the table takes them as one combination, and how far apart cards laid one at a
time may come and still be taken together.

    .venv/bin/python bench/dasan_settle.py

Times are the simulated table's clock (``sim/device.py``: the firmware's loop with
wire-level MFRC522 models, time fast-forwarded), for seat 1's lead after the auction:

* **read**: from laying n cards at once until the tray has reported every one of them;
* **taken**: from that report until the combination is in the journal
  (``ClimbController.stable_ms`` plus the loop's granularity);
* **add read**: laying the same cards one at a time without a pause, the longest it took
  the tray to report a card added to the pad;
* **largest gap**: the longest pause between laying one card and the next (each read
  before the next comes) at which the n cards are still taken as one combination, found
  by bisection to 10 ms; with a longer pause the cards laid so far are taken alone.
"""
import os
import shutil
import sys
import tempfile

_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:0] = [_ROOT + "/tests", _ROOT + "/tests/sim", _ROOT + "/sim/cpython", _ROOT + "/sim", _ROOT + "/firmware"]

from test_table_flow import da_san_auction_won_by_seat_0  # noqa: E402
from test_table_rules import started  # noqa: E402
from tiletable.runtime.play_climb import ClimbController  # noqa: E402

# A combination of each size that seat 0 may lead: a single, a pair, then club sequences.
COMBINATIONS = [["C5"], ["C5", "D5"]] + [["C%s" % r for r in ("5", "6", "7", "8", "9", "10", "J", "Q")[:n]] for n in range(3, 9)]
STEP_MS = 10


def _lead_table():
    root = tempfile.mkdtemp(prefix="bench-settle-", dir="/dev/shm" if os.path.isdir("/dev/shm") else None)
    control = started(root, "dasan", 3)
    return root, control, da_san_auction_won_by_seat_0(control)


def _until_taken(control, before, limit_ms=3000):
    """Sim ms until the table has taken an action (None when nothing within ``limit_ms``)."""
    for waited in range(0, limit_ms, STEP_MS):
        if control.state()["actions"] > before:
            return waited
        control.command("wait %d" % STEP_MS)
    return None


def laid_at_once(cards):
    """(read ms, taken ms) for ``cards`` laid on seat 1's pad together."""
    root, control, before = _lead_table()
    try:
        clock = control.device.clock
        start = clock()
        control.place(0, *cards)
        read = clock() - start
        taken = _until_taken(control, before)
        return read, taken
    finally:
        shutil.rmtree(root, ignore_errors=True)


def slowest_add_read(cards):
    """The longest ms the tray took to report one more card on the pad (cards laid one by one)."""
    root, control, _ = _lead_table()
    try:
        clock = control.device.clock
        slowest = 0
        for card in cards:
            start = clock()
            control.place(0, card)
            slowest = max(slowest, clock() - start)
        return slowest
    finally:
        shutil.rmtree(root, ignore_errors=True)


def taken_whole(cards, gap_ms):
    """Whether ``cards`` laid one at a time, ``gap_ms`` apart (after each is read), are taken
    as one combination."""
    root, control, before = _lead_table()
    try:
        for i, card in enumerate(cards):
            if i:
                control.command("wait %d" % gap_ms)
            control.place(0, card)
            if control.state()["actions"] > before:
                return False  # the cards so far were taken (or refused) before this one came
        _until_taken(control, before)
        state = control.state()
        return state["actions"] == before + 1 and "last_error" not in state
    finally:
        shutil.rmtree(root, ignore_errors=True)


def largest_gap(cards):
    low, high = 0, ClimbController.stable_ms + 200  # taken whole at low, not at high
    if not taken_whole(cards, low):
        return None
    while high - low > STEP_MS:
        middle = (low + high) // 2
        if taken_whole(cards, middle):
            low = middle
        else:
            high = middle
    return low


def main():
    print("settle time (ClimbController.stable_ms): %d ms" % ClimbController.stable_ms)
    print("%5s %9s %10s %14s %15s" % ("cards", "read ms", "taken ms", "add read ms", "largest gap ms"))
    for cards in COMBINATIONS:
        read, taken = laid_at_once(cards)
        several = len(cards) > 1
        add = slowest_add_read(cards) if several else None
        gap = largest_gap(cards) if several else None
        print("%5d %9d %10s %14s %15s" % (len(cards), read, taken, "-" if add is None else add, "-" if gap is None else gap))
        sys.stdout.flush()


if __name__ == "__main__":
    main()
