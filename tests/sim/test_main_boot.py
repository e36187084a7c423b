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
# The RP2040 gives about 240 KB of heap (v1.26) on 32-bit objects. The running firmware with
# a Muggins match takes 182 KB on the 32-bit WebAssembly port against 269 KB on this 64-bit
# port (bench/table_heap.py), 1.47 times as much: 240 KB x 1.47 = 352 KB here.
PICO_SIZED_HEAP = "352K"
# The 192 KB the developers' guide names as "roughly what a Pico gives Python", likewise.
SMALL_PICO_HEAP = "282K"
FLASH_BYTES = 1408 * 1024  # the Pico's littlefs


def _boot(flash, options=(), heap=PICO_SIZED_HEAP):
    argv = [MICROPYTHON, "-X", "heapsize=" + heap, os.path.join(REPO, "tests", "sim", "boot_main.py"), flash, build_mpy_tree()]
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


def _blank_flash(tmp_path):
    flash = str(tmp_path / "flash.img")
    with open(flash, "wb") as f:
        f.write(b"\xff" * FLASH_BYTES)
    return flash


# A few KB either side of it: where the heap runs out moves with the firmware and even with
# the length of the paths it runs from (a clean checkout elsewhere ran out in journal and
# restart-note buffers that this one had found room for).
AROUND_PICO_SIZED_HEAP = ("344K", PICO_SIZED_HEAP, "360K")


@pytest.mark.skipif(not os.path.exists(MICROPYTHON), reason="the MicroPython unix port is not installed")
@pytest.mark.parametrize("heap", AROUND_PICO_SIZED_HEAP)
def test_every_game_starts_in_a_pico_sized_heap_by_a_restart_when_games_played_left_no_room(tmp_path, heap):
    """Copied .mpy files put every imported module's bytecode in the heap, and a family
    unloaded leaves it in pieces: a game that no longer fits is started by restarting the
    board into it (App.restart_into), on a heap nothing has cut up yet."""
    flash = _blank_flash(tmp_path)
    games = [("muggins", 4), ("moon", 3), ("columns", 2), ("dasan", 3), ("buki", 4), ("sebastopol", 4), ("moon", 3), ("muggins", 2)]
    restarts = 0
    bridge = _boot(flash, ["--self-test-done"], heap)
    try:
        link = SerialTransport(bridge.port, timeout=5)
        for name, players in games:
            try:
                link.game_start(name, ["P%d" % seat for seat in range(players)])
            except DeviceError as refused:
                assert refused.code == E_NO_MEMORY and "the table restarts and starts it" in refused.message, refused.message
                link.close()
                assert _wait_until_gone(bridge, 20), "the board did not reset"
                bridge.stop()
                restarts += 1
                bridge = _boot(flash, heap=heap)  # machine.reset(): the same flash, a fresh heap
                link = SerialTransport(bridge.port, timeout=5)
            snapshot = link.state()
            assert snapshot["ruleset"] == name and snapshot["players"] == players, snapshot
        # At this heap the families played leave too little room at least once (if the
        # firmware slims down enough for that to stop, this count and the README change).
        assert restarts >= 1
        link.close()
    finally:
        bridge.stop()


@pytest.mark.skipif(not os.path.exists(MICROPYTHON), reason="the MicroPython unix port is not installed")
def test_a_game_a_fresh_heap_cannot_hold_is_refused_by_name_and_the_table_carries_on(tmp_path):
    """In the guide's 192 KB (scaled) a line game does not fit beside the boot's bytecode even
    on a fresh heap: the PC is told so, the table does not restart (it would not help), and
    it answers on."""
    bridge = _boot(_blank_flash(tmp_path), ["--self-test-done"], heap=SMALL_PICO_HEAP)
    try:
        link = SerialTransport(bridge.port, timeout=5)
        link.hello()
        with pytest.raises(DeviceError) as refused:
            link.game_start("muggins", ["ann", "bob", "cid", "dee"])
        assert refused.value.code == E_NO_MEMORY
        assert "not enough memory on this table for muggins" in refused.value.message
        assert "restarts" not in refused.value.message
        assert link.hello()["device"] == "tiletable-545453494d000001"
        assert link.journal_status()["last"] == 0  # no session was opened
        link.close()
    finally:
        bridge.stop()


def test_device_name_from_the_unique_id():
    from tiletable.runtime.app import device_name

    assert device_name(b"\xe6\x61\x41\x03\xe7\x45\x2d\x2f") == "tiletable-e6614103e7452d2f"
    assert device_name(None) == "tiletable"
