"""Figures for the journal and the link: heap, flash writes per event, open time, resync cost.

    .venv/bin/micropython -X heapsize=4M bench/journal_flash.py

Runs on the MicroPython unix port (it needs ``os.VfsLfs2``). The flash is a RAM model with the
Pico's geometry (4096-byte blocks, 1.4 MB, littlefs progsize 256 as in the rp2 port's _boot.py),
counting littlefs's program and erase operations. Times are this machine's, not an RP2040's,
except the flash busy times, modelled from the Pico's flash datasheet and the counted
operations. Prints one figure per line.
"""
import gc
import os
import sys
import time

for _path in ("tests", "sim", "firmware"):
    if _path not in sys.path:
        sys.path.insert(0, _path)

from blockdev import RamBlockDevice  # noqa: E402

MOUNT = "/bench"
EVENTS = 1000
HASH = "0123456789abcdef"
# The Pico's flash (Winbond W25Q16JV datasheet): page program (256 bytes) 0.4 ms typical,
# 3 ms at most; 4 KB sector erase 45 ms typical, 400 ms at most. The RP2040 runs nothing
# from flash meanwhile and MicroPython turns interrupts off: the scan loop stands still.
PAGE = 256
PROGRAM_MS = (0.4, 3.0)
ERASE_MS = (45.0, 400.0)


def _event_text(i):
    return "%d-%d>L" % (i % 7, (i * 3) % 7)


def heap_figures():
    gc.collect()
    start = gc.mem_alloc()
    from tiletable.proto.frame import FrameDecoder  # noqa: F401
    from tiletable.proto.server import LinkServer
    from tiletable.runtime.journal import Journal
    from tiletable.runtime.rulestore import RuleStore

    gc.collect()
    code = gc.mem_alloc() - start
    dev = RamBlockDevice(4096, 64)
    os.VfsLfs2.mkfs(dev, progsize=256)
    os.mount(os.VfsLfs2(dev, progsize=256), MOUNT)
    try:
        gc.collect()
        before = gc.mem_alloc()
        journal = Journal(MOUNT + "/j")
        gc.collect()
        journal_bytes = gc.mem_alloc() - before
        before = gc.mem_alloc()
        server = LinkServer(RuleStore(MOUNT + "/r"), journal, "0.3.0", "tiletable")
        gc.collect()
        server_bytes = gc.mem_alloc() - before
        journal.start_session("muggins", HASH, ["ann", "bob", "cy", "di"], "0.3.0")
        texts = [_event_text(i) for i in range(200)]
        gc.collect()
        before = gc.mem_alloc()
        gc.disable()
        for text in texts:
            journal.log_action(text)
        transient = (gc.mem_alloc() - before) / 200
        gc.enable()
        gc.collect()
        per_event = (gc.mem_alloc() - before) / 200
        journal.close()
    finally:
        os.umount(MOUNT)
    print("heap: journal/rulestore/proto modules compiled from source: %d bytes" % code)
    print("heap: Journal object with its buffers (1024-byte write buffer): %d bytes" % journal_bytes)
    print("heap: LinkServer + RuleStore + FrameDecoder (1041-byte receive, 1018-byte pull buffer): %d bytes" % server_bytes)
    print("heap: per logged event: %.0f bytes allocated (short-lived), %.1f retained" % (transient, per_event))
    del server


def flash_figures(flush_records):
    dev = RamBlockDevice(4096, 352)
    os.VfsLfs2.mkfs(dev, progsize=256)
    os.mount(os.VfsLfs2(dev, progsize=256), MOUNT)
    try:
        from tiletable.runtime.journal import Journal

        journal = Journal(MOUNT + "/j", flush_records=flush_records)
        calls, programmed, erases = dev.program_calls, dev.programmed, dev.erases
        t0 = time.ticks_us()
        journal.start_session("muggins", HASH, ["ann", "bob", "cy", "di"], "0.3.0")
        for i in range(EVENTS):
            journal.log_action(_event_text(i))
        journal.end_session({"reason": "over"})
        elapsed = time.ticks_diff(time.ticks_us(), t0)
        pages = (dev.programmed - programmed) / PAGE
        erased = dev.erases - erases
        print(
            "flash: flush every %2d records: %.2f program ops, %.0f bytes programmed, %.3f block erases, %d us"
            " per event; %d flushes; journal %d bytes"
            % (
                flush_records,
                (dev.program_calls - calls) / EVENTS,
                (dev.programmed - programmed) / EVENTS,
                erased / EVENTS,
                elapsed // EVENTS,
                journal.flush_count,
                journal.total_bytes(),
            )
        )
        typical, most = [(pages * program + erased * erase) / journal.flush_count for program, erase in zip(PROGRAM_MS, ERASE_MS)]
        print(
            "flash: flush every %2d records: modelled Pico flash busy (W25Q16JV datasheet) %.1f ms typical, %.0f ms at most"
            " per flush (%.1f erases, %.1f pages); %.1f ms typical per event" % (
                flush_records, typical, most, erased / journal.flush_count, pages / journal.flush_count, typical * journal.flush_count / EVENTS
            )
        )
    finally:
        os.umount(MOUNT)


def open_figures():
    """Time to open (verify every record of) a journal near its 256 KB budget."""
    dev = RamBlockDevice(4096, 352)
    os.VfsLfs2.mkfs(dev, progsize=256)
    os.mount(os.VfsLfs2(dev, progsize=256), MOUNT)
    try:
        from tiletable.runtime.journal import Journal

        journal = Journal(MOUNT + "/j")
        while journal.total_bytes() < 250 * 1024:
            journal.start_session("muggins", HASH, ["ann", "bob"], "0.3.0")
            for i in range(EVENTS):
                journal.log_action(_event_text(i))
            journal.end_session({"reason": "over"})
        records = journal.next_seq - 1
        size = journal.total_bytes()
        journal.close()
        t0 = time.ticks_ms()
        Journal(MOUNT + "/j")
        print("open: %d records, %d bytes verified in %d ms" % (records, size, time.ticks_diff(time.ticks_ms(), t0)))
    finally:
        os.umount(MOUNT)


def pull_figures():
    """Frames and bytes to pull a 1,000-event session through the LinkServer."""
    from tiletable.proto.frame import FrameDecoder
    from tiletable.proto.messages import JOURNAL_PULL, decode_payload, encode_message
    from tiletable.proto.server import LinkServer
    from tiletable.record import iter_records
    from tiletable.runtime.journal import Journal
    from tiletable.runtime.rulestore import RuleStore

    dev = RamBlockDevice(4096, 352)
    os.VfsLfs2.mkfs(dev, progsize=256)
    os.mount(os.VfsLfs2(dev, progsize=256), MOUNT)
    try:
        journal = Journal(MOUNT + "/j")
        journal.start_session("muggins", HASH, ["ann", "bob", "cy", "di"], "0.3.0")
        for i in range(EVENTS):
            journal.log_action(_event_text(i))
        journal.end_session({"reason": "over"})
        server = LinkServer(RuleStore(MOUNT + "/r"), journal, "0.3.0", "tiletable")
        replies = FrameDecoder()
        after = frames = wire = 0
        t0 = time.ticks_us()
        while True:
            for out in server.receive(encode_message(JOURNAL_PULL, frames, {"after": after, "max": 1018})):
                wire += len(out)
                for _, msg_type, _, payload in replies.feed(out):
                    records = decode_payload(msg_type, payload)["records"]
            frames += 1
            last = None
            for seq, _, _ in iter_records(records):
                last = seq
            if last is None:
                break
            after = last
        elapsed = time.ticks_diff(time.ticks_us(), t0)
        print(
            "pull: %d records (%d journal bytes) in %d requests, %d bytes on the wire, %d us per request here"
            % (after, journal.total_bytes(), frames, wire, elapsed // frames)
        )
    finally:
        os.umount(MOUNT)


def resync_figures():
    from tiletable.proto.frame import FrameDecoder
    from tiletable.proto.messages import JOURNAL_STATUS, encode_message

    decoder = FrameDecoder()
    good = encode_message(JOURNAL_STATUS, 1)
    noise = b"\x03garbage\r\n>>> " * 20
    got = list(decoder.feed(noise + good))
    print("resync: %d noise bytes, next frame (%d bytes) decoded: %s; bad frames counted: %d" % (len(noise), len(good), len(got) == 1, decoder.bad))
    t0 = time.ticks_us()
    for _ in range(1000):
        for _frame in decoder.feed(good):
            pass
    print("decode: %d us per %d-byte frame" % (time.ticks_diff(time.ticks_us(), t0) // 1000, len(good)))


heap_figures()
for every in (1, 4, 16, 64):
    gc.collect()
    flash_figures(every)
gc.collect()
open_figures()
gc.collect()
pull_figures()
resync_figures()
