"""Every game's start on an emulated RP2040: the heap it leaves, in emulated device time.

On a stock UF2 every imported module's bytecode is in the heap, so whether a game fits is
a fact of the chip, not of the PC: the unix port's 64-bit objects are larger, and not by one
ratio for every kind of object (tests/sim/test_main_boot.py sizes its heap from this bench's
figure). Boots the UF2 in the rp2emu harness as ``bench/chip.py`` does (deploy, first-boot self
test), then starts each game over the link as a PC would, families in turn and some twice,
following the table's restarts into a game when the families played before left no room. For
each start it prints how the game started (at once, after a restart, or refused) and the
heap after the start's last collection: free bytes and the largest free block.

Usage (the checkout's venv python; nothing is written in the repo)::

    TILETABLE_UF2=/path/to/stock/firmware.uf2 .venv/bin/python bench/chip_starts.py --stock

Environment and options as ``bench/chip.py`` (``TILETABLE_UF2``, ``TILETABLE_ELF``,
``RP2EMU``); without a firmware it says so and exits 0. A run takes about 10 minutes.
"""
import argparse
import json
import os
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import chip  # noqa: E402  (puts this checkout's host and firmware on the path)

from tiletable.engine.rulesets import find_ruleset  # noqa: E402
from tiletable.proto.messages import E_NO_MEMORY, RESTARTS_INTO  # noqa: E402
from tiletable_host.transport import DeviceError  # noqa: E402
from tiletable_host.transport_serial import SerialTransport  # noqa: E402

# families in turn (each start of a new family unloads the last one's code), then back again
GAMES = ["muggins", "moon", "columns", "dasan", "buki", "sebastopol", "matador", "bergen", "block", "draw", "sniff", "buki", "muggins", "texas-42", "cuban", "mexican-train"]
RESTART_WAIT_MS = 6000  # device time for machine.reset(), the boot and the start it was for


def players_of(name):
    return find_ruleset(name).player_counts()[0]


def heap_after_start(control):
    """The heap after the last collection since ``heapreset``, and the lowest one seen."""
    heap = control.json("heap")
    after, low = heap["afterLastCollect"], heap.get("minAfterCollect") or heap["afterLastCollect"]
    return {"free": after["free"], "largest": after["largestFree"], "low_free": low["free"], "total": after["total"]}


def start_each(bench, games):
    """Start each game in turn; one row per game: (name, players, how, heap figures)."""
    rows = []
    control = bench.control
    for name in games:
        players = players_of(name)
        link = SerialTransport(bench.emu.tty, timeout=chip.LINK_TIMEOUT_S)
        control.command("heapreset")
        how = "at once"
        try:
            link.game_start(name, ["P%d" % seat for seat in range(players)])
        except DeviceError as refusal:
            if refusal.code != E_NO_MEMORY:
                raise
            how = "refused: %s" % refusal.message
            if RESTARTS_INTO in refusal.message:
                link.close()
                control.command("wait %d" % RESTART_WAIT_MS)
                link = SerialTransport(bench.emu.tty, timeout=chip.LINK_TIMEOUT_S)
                how = "after a restart" if link.state().get("ruleset") == name else "refused after a restart"
        heap = heap_after_start(control)
        link.close()
        rows.append((name, players, how, heap))
        chip.note("%-10s %d players  %-16s free %6d B, largest block %6d B" % (name, players, how[:16], heap["free"], heap["largest"]))
    return rows


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    chip.add_chip_arguments(parser)
    parser.add_argument("--games", default=",".join(GAMES), help="games to start in turn (default: %(default)s)")
    args = parser.parse_args(argv)
    args.seed, args.step_wall, args.fill_sessions = 0, 1200.0, 0  # what chip.Bench's steps read

    harness = chip.find_harness("bench/chip_starts.py", args.frozen)
    if not isinstance(harness, tuple):
        return harness
    uf2, rp2emu, elf, frozen = harness
    workdir = tempfile.mkdtemp(prefix="tiletable-starts-")
    bench = chip.Bench(args, os.path.abspath(uf2), elf, frozen, rp2emu, workdir)
    try:
        bench.emu = chip.Emulator(rp2emu, bench.uf2, elf, os.path.join(chip.ROOT, "hardware", "pinmap.json"), workdir)
        bench.emu.wait_ready()
        bench.control = chip.Control(bench.emu.control_port)
        bench.deploy()
        bench.selftest()
        rows = start_each(bench, args.games.split(","))
    finally:
        if bench.control is not None:
            bench.control.close()
        if bench.emu is not None:
            bench.emu.stop()
        shutil.rmtree(workdir, ignore_errors=True)
    print("\n%s build: each game's start, heap after its last collection (of %d B)" % ("frozen" if frozen else "stock", rows[0][3]["total"]))
    print("%-10s %7s  %-24s %8s %8s %8s" % ("game", "players", "started", "free", "largest", "lowest"))
    for name, players, how, heap in rows:
        print("%-10s %7d  %-24s %8d %8d %8d" % (name, players, how[:24], heap["free"], heap["largest"], heap["low_free"]))
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"build": "frozen" if frozen else "stock", "starts": [{"game": n, "players": p, "how": h, "heap": x} for n, p, h, x in rows]}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
