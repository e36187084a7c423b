"""firmware/main.py as a Pico runs it, with nothing attached: the compiled tree on the
MicroPython unix port, littlefs on a flash image at ``/`` (tests/sim/boot_main.py), a heap the
size a Pico gives (on 64-bit objects, which are larger), its USB serial on a pty."""
import os
import sys
import time

import pytest

from tiletable_host.ptybridge import PtyBridge
from tiletable_host.simtable import REPO, build_mpy_tree
from tiletable.proto.messages import E_NO_MEMORY
from tiletable_host.transport import DeviceError
from tiletable_host.transport_serial import SerialTransport

MICROPYTHON = os.path.join(os.path.dirname(sys.executable), "micropython")
# The RP2040 gives about 240 KB of heap on 32-bit objects; the boot's bytecode takes 149 KB
# on this 64-bit port against 125 KB on a 32-bit one (bench/code_heap.py): 240 x 1.19 = 286.
PICO_SIZED_HEAP = "288K"
FLASH_BYTES = 1408 * 1024  # the Pico's littlefs


def _boot(flash, options=()):
    argv = [MICROPYTHON, "-X", "heapsize=" + PICO_SIZED_HEAP, os.path.join(REPO, "tests", "sim", "boot_main.py"), flash, build_mpy_tree()]
    bridge = PtyBridge(argv + list(options), cwd=os.path.dirname(flash))
    bridge.start()
    return bridge


def _wait_until_gone(bridge, seconds):
    deadline = time.monotonic() + seconds
    while bridge.alive() and time.monotonic() < deadline:
        time.sleep(0.05)
    return not bridge.alive()


@pytest.mark.skipif(not os.path.exists(MICROPYTHON), reason="the MicroPython unix port is not installed")
def test_main_boots_with_nothing_attached_answers_the_pc_and_goes_to_the_repl_on_request(tmp_path):
    flash = str(tmp_path / "flash.img")
    with open(flash, "wb") as f:
        f.write(b"\xff" * FLASH_BYTES)
    bridge = _boot(flash)
    try:
        link = SerialTransport(bridge.port, timeout=5)
        info = link.hello()
        assert info["device"] == "tiletable-545453494d000001"  # machine.unique_id() of the simulated board
        assert {"game", "journal", "rulesets", "selftest", "tags"} <= set(info["capabilities"])
        assert link.state()["selftest"] == "running"  # first boot: the self test starts, the link still answers
        assert link.ruleset_list() == {}
        assert link.journal_status()["last"] == 0
        link.maintenance()
        link.close()
        assert _wait_until_gone(bridge, 20), "main.py did not return after MAINTENANCE"
    finally:
        bridge.stop()

    # the next boot finds the maintenance flag and stays at the REPL: no table on the port
    bridge = _boot(flash)
    try:
        assert _wait_until_gone(bridge, 20), "main.py did not return to the REPL"
    finally:
        bridge.stop()

    # and the one after is the table again (the flag is used once)
    bridge = _boot(flash)
    try:
        link = SerialTransport(bridge.port, timeout=5)
        assert link.hello()["device"] == "tiletable-545453494d000001"
        link.close()
    finally:
        bridge.stop()


@pytest.mark.skipif(not os.path.exists(MICROPYTHON), reason="the MicroPython unix port is not installed")
def test_a_line_game_the_heap_cannot_hold_is_refused_by_name_and_the_table_carries_on(tmp_path):
    """In this Pico-sized heap a line game does not fit while its bytecode is copied, not
    frozen (hardware/README.md, "Heap"): the PC is told so and the table answers on. (The
    half-done import leaves the heap fragmented, so a request that needs a new block of any
    size may be refused too, until the board restarts.) Should the firmware slim down enough
    for Muggins to fit, this test and the README change together."""
    flash = str(tmp_path / "flash.img")
    with open(flash, "wb") as f:
        f.write(b"\xff" * FLASH_BYTES)
    bridge = _boot(flash, ["--self-test-done"])
    try:
        link = SerialTransport(bridge.port, timeout=5)
        link.hello()
        with pytest.raises(DeviceError) as refused:
            link.game_start("muggins", ["ann", "bob", "cid", "dee"])
        assert refused.value.code == E_NO_MEMORY
        assert "not enough memory on this table for muggins" in refused.value.message
        assert link.hello()["device"] == "tiletable-545453494d000001"
        assert link.journal_status()["last"] == 0  # no session was opened
        link.close()
    finally:
        bridge.stop()


def test_device_name_from_the_unique_id():
    from tiletable.runtime.app import device_name

    assert device_name(b"\xe6\x61\x41\x03\xe7\x45\x2d\x2f") == "tiletable-e6614103e7452d2f"
    assert device_name(None) == "tiletable"
