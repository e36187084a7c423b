"""firmware/main.py as the Pico runs it, with nothing attached: the compiled tree on the
MicroPython unix port, in a heap the size a Pico gives (on 64-bit objects, which are larger),
its USB serial on a pty. It must answer the PC, and go back to the REPL on MAINTENANCE."""
import os
import sys
import time

import pytest

from tiletable_host.ptybridge import PtyBridge
from tiletable_host.simtable import REPO, build_mpy_tree
from tiletable_host.transport_serial import SerialTransport

MICROPYTHON = os.path.join(os.path.dirname(sys.executable), "micropython")
# The RP2040 gives about 240 KB of heap on 32-bit objects; the boot's bytecode takes 149 KB
# on this 64-bit port against 125 KB on a 32-bit one (bench/code_heap.py): 240 x 1.19 = 286.
PICO_SIZED_HEAP = "288K"


@pytest.mark.skipif(not os.path.exists(MICROPYTHON), reason="the MicroPython unix port is not installed")
def test_main_boots_with_nothing_attached_answers_the_pc_and_returns_to_the_repl(tmp_path):
    build = build_mpy_tree()
    sandbox = tmp_path / "pico"
    sandbox.mkdir()
    os.symlink(os.path.join(build, "firmware"), str(sandbox / "lib"))
    os.symlink(os.path.join(build, "sim"), str(sandbox / "sim"))
    argv = [MICROPYTHON, "-X", "heapsize=" + PICO_SIZED_HEAP, os.path.join(REPO, "tests", "sim", "boot_main.py"), str(sandbox)]
    bridge = PtyBridge(argv, cwd=str(tmp_path))
    bridge.start()
    try:
        link = SerialTransport(bridge.port, timeout=5)
        info = link.hello()
        assert info["device"] == "tiletable-545453494d000001"  # machine.unique_id() of the simulated board
        assert {"game", "journal", "rulesets", "selftest", "tags"} <= set(info["capabilities"])
        state = link.state()
        assert state["selftest"] == "running"  # first boot: the self test starts, the link still answers
        assert link.ruleset_list() == {}
        assert (sandbox / "journal").is_dir() and not (tmp_path / "journal").exists()
        link.maintenance()
        link.close()
        deadline = time.monotonic() + 20
        while bridge.alive() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not bridge.alive(), "main.py did not return after MAINTENANCE"
        assert (sandbox / "maintenance").read_text() == "1"  # the next boot stays at the REPL
    finally:
        bridge.stop()
