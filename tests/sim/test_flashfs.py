"""sim/flashfs.py: the simulated link's files on littlefs, routed by path and counted for their chip cost."""
import os

import pytest

import flashfs
from chip_costs import FLASH_PROG_US
from linktime import DeviceTimeTransport, fill_journal


def test_a_path_under_the_mount_is_on_littlefs_and_counted_and_any_other_is_the_pcs(tmp_path):
    root = tmp_path / "device"
    (root / "rulesets").mkdir(parents=True)
    (root / "rulesets" / "a.json").write_bytes(b"{}")
    flash = flashfs.FlashFs(str(root))
    flash.copy_in()
    flash.mount()
    try:
        assert flash.chip.take() == (0, 0, 0, 0)  # the copy is the flash as found at power-on
        assert flashfs.os.listdir(str(root / "rulesets")) == ["a.json"]
        with flashfs.open(str(root / "rulesets" / "b.tmp"), "wb") as f:
            f.write(b"x" * 300)
            f.flush()
        flashfs.os.rename(str(root / "rulesets" / "b.tmp"), str(root / "rulesets" / "b.json"))
        reads, read, programs, erases = flash.chip.take()
        assert programs > 0 and read > 0
        assert flashfs.os.stat(str(root / "rulesets" / "b.json"))[6] == 300
        assert sorted(os.listdir(root / "rulesets")) == ["a.json"]  # the PC's directory is not the flash
        flash.chip.take()
        with flashfs.open(str(tmp_path / "elsewhere"), "w") as f:
            f.write("pc")
        assert (tmp_path / "elsewhere").read_text() == "pc" and flash.chip.take() == (0, 0, 0, 0)
    finally:
        flash.unmount()


def test_littlefs_refusals_are_os_errors_as_on_the_pico(tmp_path):
    flash = flashfs.FlashFs(str(tmp_path)).mount()
    try:
        for refused in (
            lambda: flashfs.open(str(tmp_path / "missing"), "rb"),
            lambda: flashfs.os.stat(str(tmp_path / "missing")),
            lambda: flashfs.os.rename(str(tmp_path / "missing"), str(tmp_path / "other")),
            lambda: flashfs.os.listdir(str(tmp_path / "missing")),
        ):
            with pytest.raises(OSError):
                refused()
        flashfs.os.mkdir(str(tmp_path / "journal"))
        with pytest.raises(OSError):
            flashfs.os.mkdir(str(tmp_path / "journal"))
    finally:
        flash.unmount()


def test_a_journal_ack_on_the_simulated_link_waits_for_the_flash_it_writes(tmp_path):
    """The acknowledgement is saved by rewriting the journal's state file on the flash (a
    program for the file and one for littlefs's commit at least): its reply comes after that
    work, and the PC's copy of the directory is left as it was."""
    fill_journal(str(tmp_path / "journal"), 1)
    pc_state = (tmp_path / "journal" / "state").read_bytes()
    link = DeviceTimeTransport(str(tmp_path))
    status = link.journal_status()
    assert link.journal_ack(status["last"]) == status["last"]
    assert link.replies["journal ack"][-1] * 1000 >= 2 * FLASH_PROG_US
    with link.flash.fs.open("/journal/state", "rb") as f:
        assert f.read() != pc_state
    assert (tmp_path / "journal" / "state").read_bytes() == pc_state


def test_a_chip_cut_mid_write_keeps_what_littlefs_last_synced(tmp_path):
    """A cut at any step of an append's sync (its programs, and the erase littlefs#374 makes):
    the flash as the next power-on finds it mounts, with the file as last synced or as now
    synced; the dead chip refuses the rest of the write with an OSError."""
    path = str(tmp_path / "log")
    flash = flashfs.FlashFs(str(tmp_path)).mount()
    try:
        with flashfs.open(path, "wb") as f:
            f.write(b"a" * 700)
        before = flash.chip.steps
        with flashfs.open(path, "ab") as f:
            f.write(b"b" * 300)
        sync_steps = flash.chip.steps - before
        assert sum(flash.chip.block_erases) >= 1 and sync_steps > 300
        image = bytes(flash.chip.image)
        synced, appended = b"a" * 700 + b"b" * 300, b"a" * 700 + b"b" * 600
        kept = []
        for cut in range(1, sync_steps + 1, 37):
            flash.unmount()
            flash = flashfs.FlashFs(str(tmp_path), image=image).mount()
            flash.chip.cut_after(cut)
            with pytest.raises(OSError):
                with flashfs.open(path, "ab") as f:
                    f.write(b"b" * 300)
            assert flash.chip.is_cut()
            flash.unmount()
            flash = flashfs.FlashFs(str(tmp_path), image=flash.chip.image).mount()
            with flashfs.open(path, "rb") as f:
                kept.append(f.read())
        assert set(kept) <= {synced, appended} and kept[0] == synced
    finally:
        flash.unmount()
