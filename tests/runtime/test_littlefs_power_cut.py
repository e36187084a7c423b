# portable
"""Power cuts on real littlefs: the journal and the ruleset store on ``os.VfsLfs2`` over a RAM
NOR flash of 4 KB blocks (sim/blockdev.py) that stops dead after N steps (programmed bytes and
block erases), leaving a torn byte or a part-erased block.

Only the MicroPython unix port has ``os.VfsLfs2`` here (CPython and the WebAssembly port do
not): there these tests return early, and the first test makes sure the unix port does run them.
"""
import gc
import os
import sys

from blockdev import PowerCut, RamBlockDevice
from runtime import toy_family

from tiletable.runtime.journal import (
    MAX_RECORD,
    REC_ACTION,
    REC_END,
    REC_HEADER,
    REC_RESUME,
    REC_SCORE,
    Journal,
    iter_records,
)
from tiletable.runtime.rulestore import INDEX_FILE, RuleStore

HAVE_LFS = hasattr(os, "VfsLfs2")
MOUNT = "/tt-lfs"
EVENTS = 1000
SAMPLES = 200
ERASE_SAMPLE = 4  # and a cut in every 4th block erase (a byte sweep hardly meets one)
RECOVERY_CUTS = 5  # every 5th cut is followed by a second one during the recovery ...
RECOVERY_STEPS = 1500  # ... within its first steps (a recovery takes 1,700 and more: repair, ack, resume, log)
HASH = "0123456789abcdef"

toy_family.register()


def test_littlefs_runs_on_the_unix_port():
    if sys.implementation.name == "micropython" and sys.platform == "linux":
        assert HAVE_LFS, "the unix port lost os.VfsLfs2: the power-cut tests below would not run"


def _event(i):
    return "%d-%d>L" % (i % 7, (i * 3) % 7) if i % 5 else "%d 5 fives" % (i % 4)


def _mount(dev, fresh=False):
    if fresh:
        os.VfsLfs2.mkfs(dev)
    os.mount(os.VfsLfs2(dev), MOUNT)


def _play(dev, cut):
    """Play a 1000-event session on ``dev``, losing power after ``cut`` steps (None:
    never); return (records known flushed, records handed to the journal) at the cut."""
    _mount(dev, fresh=True)
    durable = assigned = 0
    try:
        journal = Journal(MOUNT + "/j")
        if cut is not None:
            dev.cut_after(cut)
        assigned = journal.next_seq
        journal.start_session("muggins", HASH, ["ann", "bob"], "0.1")
        for i in range(EVENTS):
            durable, assigned = journal.durable_seq, journal.next_seq
            if i % 5:
                journal.log_action(_event(i))
            else:
                journal.log(REC_SCORE, _event(i))
        durable, assigned = journal.durable_seq, journal.next_seq
        journal.end_session({"reason": "over"})
        durable = journal.durable_seq
    except PowerCut:
        try:  # close the file now rather than from a finaliser, which would report errors
            journal.close()
        except Exception:
            pass
    finally:
        os.umount(MOUNT)
    return durable, assigned


def _records(journal):
    """Yield the journal's records, pulled in link-sized chunks."""
    out = bytearray(MAX_RECORD * 2)
    after = 0
    while True:
        n = journal.read_since(after, out)
        if not n:
            return
        for record in iter_records(out[:n]):
            yield record
            after = record[0]


def _check_records(journal, label, played=EVENTS + 2):
    """Check that the records are numbered 1, 2, ... and that the first ``played`` match the
    session that was played; return (count, last record)."""
    count = 0
    last = None
    for seq, rtype, payload in _records(journal):
        count += 1
        assert seq == count, (label, seq)
        if seq > played:
            pass
        elif seq == 1:
            assert rtype == REC_HEADER, label
        elif seq <= EVENTS + 1:
            assert payload == _event(seq - 2).encode(), (label, seq)
        elif seq == EVENTS + 2:
            assert rtype == REC_END, label
        last = (rtype, payload)
    return count, last


def _check_recovery(image, durable, assigned, label):
    _mount(RamBlockDevice(image=image))
    try:
        journal = Journal(MOUNT + "/j")
        count, _ = _check_records(journal, label)
        assert durable <= count <= assigned, (label, durable, count, assigned)
        if count:
            journal.acknowledge(count)
        if journal.in_session:
            journal.resume()
        else:
            journal.start_session("muggins", HASH, ["ann"], "0.1")
        journal.log_action("6-6>R")
        journal.close()
        again = Journal(MOUNT + "/j")
        assert again.acked == count, label
        if count == EVENTS + 2:  # the session had ended: the new record follows a new header
            assert again.next_seq == count + 3, label
        else:
            again_count, last = _check_records(again, label, count)
            assert again_count == (count + 2 if count else 2) and last == (REC_ACTION, b"6-6>R"), label
            types = [REC_HEADER, REC_HEADER]
            for _, rtype, _ in again.session_records():
                types = [types[1], rtype]
            assert types[0] == (REC_RESUME if count else REC_HEADER), label
    finally:
        os.umount(MOUNT)


def test_power_cut_during_a_1000_event_session_loses_only_unflushed_records():
    if not HAVE_LFS:
        return
    dev = RamBlockDevice()
    durable, assigned = _play(dev, None)
    assert durable == assigned == EVENTS + 2
    total = dev.steps
    erases = dev.erase_steps[::ERASE_SAMPLE]
    del dev
    step = total // SAMPLES | 1
    second_cuts = 0
    for n, cut in enumerate([1, 2, 3] + list(range(step, total, step)) + [total - 1] + erases):
        gc.collect()
        dev = RamBlockDevice()
        durable, assigned = _play(dev, cut)
        assert assigned - durable <= 16, cut  # at most one unflushed batch (flush_records) at risk
        image = dev.image
        del dev
        if n % RECOVERY_CUTS == 0:  # the power goes again while the table recovers
            second_cuts += _recover(image, 1 + (cut * 7919) % RECOVERY_STEPS)
            _check_durable(image, durable, cut)
        else:
            _check_recovery(image, durable, assigned, cut)
        del image
    assert second_cuts > SAMPLES // RECOVERY_CUTS // 2, second_cuts  # most recoveries were cut


def _recover(image, cut):
    """Boot on ``image`` as the table does after a cut (open the journal, which repairs a torn
    tail, acknowledge, resume, log an action) and lose power again after ``cut`` steps; whether
    it did (a recovery shorter than that is not cut)."""
    dev = RamBlockDevice(image=image)
    _mount(dev)
    try:
        dev.cut_after(cut)
        journal = Journal(MOUNT + "/j")
        if journal.next_seq > 1:
            journal.acknowledge(journal.next_seq - 1)
        if journal.in_session:
            journal.resume()
            journal.log_action("6-6>R")
        journal.close()
    except PowerCut:
        try:
            journal.close()
        except Exception:
            pass
    finally:
        os.umount(MOUNT)
    return dev.is_cut()


def _check_durable(image, durable, label):
    """After two cuts: every record the first cut left durable is there and whole, and every
    record after them is a valid one in sequence (a resume, the action, a new header)."""
    _mount(RamBlockDevice(image=image))
    try:
        count = 0
        for seq, rtype, payload in _records(Journal(MOUNT + "/j")):
            count += 1
            assert seq == count, (label, seq)
            if 1 < seq <= min(durable, EVENTS + 1):
                assert payload == _event(seq - 2).encode(), (label, seq)
        assert count >= durable, (label, count, durable)
    finally:
        os.umount(MOUNT)


def test_interrupted_ruleset_install_on_littlefs_keeps_old_or_new_never_neither():
    if not HAVE_LFS:
        return
    old, old_hash = toy_family.document("toy", 1, 100)
    new, new_hash = toy_family.document("toy", 2, 150)
    outcomes = {}
    cut = 1
    while True:
        gc.collect()
        dev = RamBlockDevice(block_size=512, block_count=16)  # the rename under test, not the geometry: small blocks fit the heap
        _mount(dev, fresh=True)
        finished = False
        try:  # after the cut the code may still fail on the dead flash: only the cut counts
            RuleStore(MOUNT + "/r").put(old, old_hash)
            dev.cut_after(cut)
            upload = RuleStore(MOUNT + "/r").begin_put("toy", len(new), new_hash)
            upload.write(0, new[:40])
            upload.write(40, new[40:])
            upload.commit()
            finished = True
        except Exception:
            assert dev.is_cut(), cut
        finally:
            os.umount(MOUNT)
        _mount(RamBlockDevice(block_size=512, block_count=16, image=dev.image))
        try:
            store = RuleStore(MOUNT + "/r")
            listed = store.list()
            assert listed in ([("toy", 1, old_hash)], [("toy", 2, new_hash)]), (cut, listed)
            assert [name for name in os.listdir(MOUNT + "/r") if name != INDEX_FILE] == ["toy.json"], cut
        finally:
            os.umount(MOUNT)
        outcomes[listed[0][1]] = outcomes.get(listed[0][1], 0) + 1
        if finished:
            break
        cut += 3
    assert outcomes.get(1) and outcomes.get(2)  # the sweep saw both sides of the rename


def test_filesystem_full_drops_records_but_the_journal_stays_consistent():
    if not HAVE_LFS:
        return
    dev = RamBlockDevice(block_count=6)
    _mount(dev, fresh=True)
    try:
        journal = Journal(MOUNT + "/j", max_bytes=1 << 20)  # the budget says yes, the flash says no
        journal.start_session("muggins", HASH, ["ann", "bob"], "0.1")
        for i in range(600):
            journal.log_action(_event(i))
        journal.flush()
        assert journal.dropped > 0 and journal.is_full
        durable = journal.durable_seq
        journal.close()
        again = Journal(MOUNT + "/j")
        seqs = [r[0] for r in _records(again)]
        assert seqs == list(range(1, durable + 1))
    finally:
        os.umount(MOUNT)
