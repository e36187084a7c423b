"""Figures for the journal and the link: heap, flash writes per event, open time, resync cost;
and what keeping every play costs the flash: bytes, programs and erases per flush, flushes per
hour of play, years to the flash's rated erase cycles.

    .venv/bin/micropython -X heapsize=4M bench/journal_flash.py    (the journal alone)
    .venv/bin/python bench/journal_flash.py [matches]              (the table's flushes, wear)

On the MicroPython unix port (it needs ``os.VfsLfs2``): the flash is a RAM model with the
Pico's geometry (4096-byte blocks, 1.4 MB, littlefs progsize 256 as in the rp2 port's
_boot.py), counting littlefs's program and erase operations. Times are this machine's, not an
RP2040's, except the flash busy times, modelled from the Pico's flash datasheet and the
counted operations.

On CPython: whole matches played on the simulated table (tests/sim/powercut.py: the firmware's
services in the chip's device time, its files on the same littlefs, sim/flashfs.py) give the
measured figures: flushes per play, bytes, programs and erases per flush, the pace of the
simulated players in device time. Then the journal alone, flushed as the table flushes it, on
a flash holding the presets as a deployed table's does, for every block's erase count: how
evenly littlefs levels the wear. Modelled: the flash's busy time (datasheet), a person's pace,
and the years to 100,000 erase cycles a sector (W25Q16JV, the Pico's flash) at 4 hours of play
a day. Prints one figure per line, each labelled measured or modelled.
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


# ----- CPython: the table's flushes and the flash's wear

CYCLES = 100000  # rated erase cycles of a sector (W25Q16JV datasheet)
HOURS_A_DAY = 4
PERSON_S = 5.0  # modelled: a person lays a tile or presses a button every 5 s (a brisk game)
WEAR_FLUSHES = 20000  # journal flushes for the wear distribution


def table_figures(matches):
    """Whole matches on the simulated table (device time charged as the chip's): the flush
    counts per play and per flush; returns (flushes per interaction, flushes per device hour)."""
    import tempfile

    from player import ClimbPlayer, LinePlayer, MoonPlayer
    from powercut import FlashTable

    games = [(LinePlayer, "muggins", 2, {}), (LinePlayer, "sebastopol", 4, {}), (MoonPlayer, "moon", 3, {}), (ClimbPlayer, "dasan", 3, {})]
    totals = [0] * 7  # interactions, records, flushes, erases, programs, bytes, device us
    for player_class, name, players, options in games[:matches]:
        table = FlashTable(tempfile.mkdtemp(prefix="bench-flush-"), fast=False)
        chip = table.flash.chip
        start = (chip.erased, chip.programs_made, chip.programmed)
        journal = table.device.app.journal
        flushes = journal.flush_count
        player_class(table, name, players, seed=7, **options).play_match(max_moves=400 if name == "dasan" else 3000)
        watch = table.watch
        latencies = sorted(watch.latencies_ms().values())
        row = (
            table.interactions,
            len(watch.records),
            journal.flush_count - flushes,
            chip.erased - start[0],
            chip.programs_made - start[1],
            chip.programmed - start[2],
            table.device.hardware.clock.now_us,
        )
        table.close()
        print(
            "measured: %s, %d players: %d records in %.0f s of device time, %d person's interactions (pieces laid,"
            " buttons pressed), %d flushes (%d in scan steps, all after the play's LEDs), record to flash p50 %.1f ms,"
            " max %.1f ms (n %d)"
            % (name, players, row[1], row[6] / 1e6, row[0], row[2], watch.scan_flushes, latencies[len(latencies) // 2], latencies[-1], len(latencies))
        )
        totals = [a + b for a, b in zip(totals, row)]
    interactions, records, flushes, erases, programs, programmed, device_us = totals
    print(
        "measured: per flush %.2f block erases, %.1f program operations, %.0f bytes programmed (%.1f pages of 256);"
        " %.2f records a flush, %.2f flushes a person's interaction"
        % (erases / flushes, programs / flushes, programmed / flushes, programmed / flushes / PAGE, records / flushes, flushes / interactions)
    )
    typical, most = [(programmed / PAGE * program + erases * erase) / flushes for program, erase in zip(PROGRAM_MS, ERASE_MS)]
    print("modelled: Pico flash busy per flush (W25Q16JV datasheet: 0.4/3 ms a page, 45/400 ms an erase) %.0f ms typical, %.0f ms at most" % (typical, most))
    per_hour = flushes / (device_us / 3.6e9)
    print("measured: %.0f flushes an hour at the simulated players' pace (%.2f s of device time an interaction): the ceiling" % (per_hour, device_us / 1e6 / interactions))
    return flushes / interactions, erases / flushes, per_hour


def wear_figures(flushes_per_interaction, erases_per_flush, ceiling_per_hour):
    """The journal alone on the Pico's file system holding the presets, flushed after every
    action as the table flushes it, the PC pulling and acknowledging after every session:
    each block's erases."""
    import tempfile

    import flashfs
    from tiletable_host.sync import collect_documents

    from tiletable.runtime.journal import Journal
    from tiletable.runtime.rulestore import RuleStore

    flashfs.install()
    root = tempfile.mkdtemp(prefix="bench-wear-")
    flash = flashfs.FlashFs(root).mount()
    store = RuleStore(root + "/rulesets")
    for document in collect_documents([], True):  # as a sync of the presets leaves them
        store.put(document.data, document.ruleset.hash)
    journal = Journal(root + "/journal")
    chip = flash.chip
    before = list(chip.block_erases)
    sessions = 0
    while journal.flush_count < WEAR_FLUSHES:
        journal.start_session("muggins", "0123456789abcdef", ["ann", "bob"], "bench")
        for i in range(200):
            journal.log_action("%d-%d>L" % (i % 7, (i * 3) % 7), i)
            if i % 5 == 4:
                journal.log_score(i % 2, 5, "fives")
            journal.poll(0)
        journal.end_session({"reason": "over"})
        journal.acknowledge(journal.durable_seq)
        sessions += 1
    erases = [after - was for after, was in zip(chip.block_erases, before)]
    worn = sorted(erases, reverse=True)
    used = sum(1 for count in erases if count)
    total = sum(erases)
    flash.unmount()
    print(
        "measured: %d journal flushes (%d sessions pulled and acknowledged) erased %d blocks %d times: the most worn"
        " %d times, %.0f%% above the mean of %.1f over the %d blocks written (of %d)"
        % (journal.flush_count, sessions, used, total, worn[0], 100.0 * (worn[0] * used / total - 1), total / used, used, flashfs.BLOCK_COUNT)
    )
    share = worn[0] / total  # the most worn block's share of the erases
    for label, per_hour in (("a person's interaction every %.0f s" % PERSON_S, 3600 / PERSON_S * flushes_per_interaction), ("the simulated players' pace", ceiling_per_hour)):
        per_day = per_hour * erases_per_flush * HOURS_A_DAY
        print(
            "modelled: at %s: %.0f flushes an hour, %.0f block erases a day at %d h of play; the most worn block"
            " reaches %d cycles in %.0f years (%.1f years if one block took every erase)"
            % (label, per_hour, per_day, HOURS_A_DAY, CYCLES, CYCLES / (per_day * share) / 365, CYCLES / per_day / 365)
        )


if sys.implementation.name == "micropython":
    heap_figures()
    for every in (1, 4, 16, 64):
        gc.collect()
        flash_figures(every)
    gc.collect()
    open_figures()
    gc.collect()
    pull_figures()
    resync_figures()
else:
    for _path in ("sim/cpython", "tests/sim", "host"):
        sys.path.insert(0, _path)
    wear_figures(*table_figures(int(sys.argv[1]) if len(sys.argv) > 1 else 4))
