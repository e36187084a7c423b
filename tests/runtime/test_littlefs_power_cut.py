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

from tiletable.record import MAX_RECORD, REC_ACTION, REC_END, REC_HEADER, REC_RESUME, REC_SCORE, iter_records
from tiletable.runtime.journal import Journal
from tiletable.runtime.rulestore import INDEX_FILE, RuleStore

HAVE_LFS = hasattr(os, "VfsLfs2")
MOUNT = "/tt-lfs"
EVENTS = 1000
SESSIONS = 4  # the events are played as 4 sessions (a header, 250 events, an end each) ...
PER_SESSION = EVENTS // SESSIONS
SESSION_RECORDS = PER_SESSION + 2
MAX_BYTES = 4608  # ... into a journal that holds about one: acknowledged ones rotate away
PULL_EVERY = 100  # the host pulls and acknowledges what is on flash every 100 events (the journal
# is full, in its reserve, from the time a session outgrows the budget until then)
BLOCKS = 12
SAMPLES = 200
ERASE_SAMPLE = 4  # and a cut in every 4th block erase (a byte sweep hardly meets one)
RECOVERY_CUTS = 5  # every 5th cut is followed by a second one during the recovery ...
RECOVERY_STEPS = 1500  # ... within its first steps (a recovery takes 1,700 and more: repair, ack, resume, log)
HASH = "0123456789abcdef"


def test_littlefs_runs_on_the_unix_port():
    if sys.implementation.name == "micropython" and sys.platform == "linux":
        assert HAVE_LFS, "the unix port lost os.VfsLfs2: the power-cut tests below would not run"


def _event(i):
    return "%d-%d>L" % (i % 7, (i * 3) % 7) if i % 5 else "%d 5 fives" % (i % 4)


def _expected(seq):
    """(type, payload or None for a header) of record ``seq`` of the played sessions."""
    session, index = divmod(seq - 1, SESSION_RECORDS)
    if index == 0:
        return REC_HEADER, None
    if index == SESSION_RECORDS - 1:
        return REC_END, b'{"reason":"over"}'
    i = session * PER_SESSION + index - 1
    return (REC_ACTION if i % 5 else REC_SCORE), _event(i).encode()


def _mount(dev, fresh=False):
    if fresh:
        os.VfsLfs2.mkfs(dev)
    os.mount(os.VfsLfs2(dev), MOUNT)


# the one image all the cuts reuse, taken at import while the heap is whole: a new one each time,
# or one taken after the first tests, could find MicroPython's 192 KB test heap in pieces
_chip = [bytearray(BLOCKS * 4096)]


def _flash(image=None):
    """The table's flash holding ``image``, or erased: 4 KB blocks as on the Pico, 48 KB of
    them to fit the unix port's 192 KB heap."""
    if image is not None:
        return RamBlockDevice(block_count=BLOCKS, image=image)
    dev = RamBlockDevice(block_count=BLOCKS, image=_chip[0])
    for block in range(BLOCKS):
        dev.erase(block)
    dev.erases = 0
    dev.erase_steps = []
    return dev


def _open():
    """Flushed every 16 records: the journal's littlefs work in batches, as a tool logging
    without the table's poll may (the table flushes every play: tests/sim/test_power_cut_table.py)."""
    return Journal(MOUNT + "/j", max_bytes=MAX_BYTES, flush_records=16)


class Host:
    """The PC, as ``tiletable pull`` and ``watch`` use the journal: it reads every record after
    the last it stored (the unflushed ones too), checks it, stores those on flash and
    acknowledges them. What it knows at a cut is what the check after it relies on."""

    def __init__(self):
        self.dev = None  # the flash of the table it talks to
        self.stored = 0  # the last record stored (every one before it checked and kept)
        self.acked = 0  # the last acknowledgement the table confirmed
        self.asking = 0  # the acknowledgement asked for (the table may have been cut answering)

    def pull(self, journal, label):
        for seq, rtype, payload in _records(journal, self.stored):
            if seq > journal.durable_seq:
                break  # still in the table's memory: read again next time
            assert seq == self.stored + 1 and _same(seq, rtype, payload), (label, seq)
            self.stored = seq
        if self.stored > self.acked:
            self.asking = self.stored
            journal.acknowledge(self.stored)
            if not self.dev.is_cut():  # littlefs turns a cut into an OSError: no reply then
                self.acked = self.stored


def _same(seq, rtype, payload):
    want_type, want_payload = _expected(seq)
    return rtype == want_type and want_payload in (None, payload)


def _play(dev, cut, host):
    """Play the sessions on ``dev`` while ``host`` pulls and acknowledges, losing power after
    ``cut`` steps (None: never); return (the last record known flushed, the last record
    handed to the journal, the one being written included) at the cut."""
    _mount(dev, fresh=True)
    host.dev = dev
    at_cut = [0, 0]
    journal = None

    def step(handed, action, *args):
        at_cut[0], at_cut[1] = journal.durable_seq, handed
        action(*args)
        if dev.is_cut():  # a cut that littlefs reported as an OSError, and the journal handled
            raise PowerCut("power cut")

    try:
        if cut is not None:
            dev.cut_after(cut)
        journal = _open()
        for session in range(SESSIONS):
            step(journal.next_seq, journal.start_session, "muggins", HASH, ["ann", "bob"], "0.1")
            for n in range(PER_SESSION):
                i = session * PER_SESSION + n
                step(journal.next_seq, journal.log, REC_ACTION if i % 5 else REC_SCORE, _event(i))
                if i % PULL_EVERY == PULL_EVERY - 1:
                    step(journal.next_seq - 1, host.pull, journal, cut)
            step(journal.next_seq, journal.end_session, {"reason": "over"})
        at_cut[0] = at_cut[1] = journal.durable_seq
    except Exception:
        if not dev.is_cut():
            raise
        try:  # close the file now rather than from a finaliser, which would report errors
            journal.close()
        except Exception:
            pass
    finally:
        os.umount(MOUNT)
    return at_cut[0], at_cut[1]


def _records(journal, after=0):
    """Yield the journal's records after ``after``, pulled in link-sized chunks."""
    out = bytearray(MAX_RECORD * 2)
    while True:
        n = journal.read_since(after, out)
        if not n:
            return
        for record in iter_records(out[:n]):
            yield record
            after = record[0]


def _check_kept(journal, host, durable, played, label):
    """The records on flash after a cut: numbered one after the other, the played ones as
    played, none of those flushed before the cut lost, and none missing at the start that
    was not acknowledged (rotated away: the host stored it). Returns the last one's number."""
    first = last = None
    for seq, rtype, payload in _records(journal):
        if first is None:
            first = last = seq
        else:
            assert seq == last + 1, (label, last, seq)
            last = seq
        assert seq > played or _same(seq, rtype, payload), (label, seq)
    if first is None:  # nothing on flash (or all of it rotated away)
        last = journal.next_seq - 1
        first = last + 1
    assert host.acked <= journal.acked <= host.asking, (label, host.acked, journal.acked, host.asking)
    assert first - 1 <= journal.acked and first - 1 <= host.stored, (label, first, journal.acked)
    assert last >= durable and last >= host.stored, (label, last, durable, host.stored)
    return last


def _check_recovery(image, durable, assigned, host, label):
    host.dev = _flash(image)
    _mount(host.dev)
    try:
        journal = _open()
        last = _check_kept(journal, host, durable, assigned, label)
        assert last <= assigned, (label, last, assigned)
        host.pull(journal, label)  # the host reads the rest and acknowledges it
        assert host.stored == last == journal.acked, label
        if journal.in_session:
            journal.resume()
        else:
            journal.start_session("muggins", HASH, ["ann"], "0.1")
        journal.log_action("6-6>R")
        journal.close()
        again = _open()
        assert again.acked == last, label
        tail = [(seq, rtype) for seq, rtype, _ in _records(again, last)]
        opened = REC_HEADER if tail[0][1] == REC_HEADER else REC_RESUME
        assert tail == [(last + 1, opened), (last + 2, REC_ACTION)], (label, tail)
    finally:
        os.umount(MOUNT)


def check_cut(cut, second_cut=False):
    """Cut the power after ``cut`` steps of the played sessions, then check the recovery, or
    with ``second_cut`` cut it again during the recovery and check what is left; return the
    records not yet flushed at the first cut, and whether the second cut fell in the recovery."""
    dev = _flash()
    host = Host()
    durable, assigned = _play(dev, cut, host)
    image = dev.image
    del dev
    host.dev = None
    gc.collect()
    cut_again = False
    if second_cut:  # the power goes again while the table recovers
        cut_again = _recover(image, 1 + (cut * 7919) % RECOVERY_STEPS, host)
        host.dev = None
        gc.collect()
        _check_durable(image, durable, host, cut)
    else:
        _check_recovery(image, durable, assigned, host, cut)
    return assigned - durable, cut_again


def played_steps():
    """Steps of the whole uncut play, and the steps where it erased a block."""
    dev = _flash()
    durable, assigned = _play(dev, None, Host())
    assert durable == assigned == SESSIONS * SESSION_RECORDS
    return dev.steps, dev.erase_steps


def test_power_cut_while_playing_pulling_and_rotating_loses_only_unflushed_records():
    if not HAVE_LFS:
        return
    total, erase_steps = played_steps()
    step = total // SAMPLES | 1
    second_cuts = 0
    for n, cut in enumerate([1, 2, 3] + list(range(step, total, step)) + [total - 1] + erase_steps[::ERASE_SAMPLE]):
        gc.collect()
        unflushed, cut_again = check_cut(cut, n % RECOVERY_CUTS == 0)
        assert unflushed <= 16, cut  # at most one unflushed batch (flush_records) at risk
        second_cuts += cut_again
    assert second_cuts > SAMPLES // RECOVERY_CUTS // 2, second_cuts  # most recoveries were cut


def _recover(image, cut, host):
    """Boot on ``image`` as the table does after a cut (open the journal, which repairs a torn
    tail; the host pulls and acknowledges; resume, log an action) and lose power again after
    ``cut`` steps; whether it did (a recovery shorter than that is not cut)."""
    dev = _flash(image)
    _mount(dev)
    host.dev = dev
    journal = None
    try:
        dev.cut_after(cut)
        journal = _open()
        host.pull(journal, cut)
        if journal.in_session:
            journal.resume()
            journal.log_action("6-6>R")
        journal.close()
    except Exception:  # after the cut the code may still fail on the dead flash: only the cut counts
        if not dev.is_cut():
            raise
        try:
            journal.close()
        except Exception:
            pass
    finally:
        os.umount(MOUNT)
    return dev.is_cut()


def _check_durable(image, durable, host, label):
    """After two cuts: every record the first cut left durable is there or was acknowledged,
    the played ones are as played, every one after them is in sequence."""
    _mount(_flash(image))
    try:
        _check_kept(_open(), host, durable, durable, label)  # after it: what the recovery logged
    finally:
        os.umount(MOUNT)


@toy_family.with_toy_family
def test_interrupted_ruleset_install_on_littlefs_keeps_old_or_new_never_neither():
    if not HAVE_LFS:
        return
    old, old_hash = toy_family.document("toy", 1, 100)
    new, new_hash = toy_family.document("toy", 2, 150)
    outcomes = {}
    cut = 1
    # the rename under test, not the geometry: small blocks fit the heap; one flash erased for
    # each cut, as 8 KB made anew each time came to find no block in the 192 KB heap (67 KB free)
    image = bytearray(512 * 16)
    while True:
        gc.collect()
        dev = RamBlockDevice(block_size=512, block_count=16, image=image)
        for block in range(16):
            dev.erase(block)
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
