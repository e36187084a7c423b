"""A power cut at every 7th byte of a 1,000-event session, every byte under ``make soak``
(CPython; the file system is the host's).

The session file is cut at each of those offsets, then cut and followed by garbage (erased flash, random
bytes, a stale copy of earlier records); each time the journal must recover exactly the
complete records before the cut, leave them byte for byte as they were, and append after them.
The same on real littlefs, at sampled offsets, is in test_littlefs_power_cut.py.
"""
import os
import random
import shutil
import tempfile

from soak import size
from tiletable.record import OVERHEAD, REC_ACTION, REC_RESUME, REC_SCORE, iter_records
from tiletable.runtime.journal import Journal

EVENTS = 1000
CUT_STEP = size(7, 1)  # every record (11 bytes and more) is cut at least once


def _session_image(root):
    journal = Journal(root, flush_records=16)
    journal.start_session("muggins", "0123456789abcdef", ["ann", "bob", "cy", "di"], "0.3.0", 1700000000)
    for i in range(EVENTS):
        if i % 5 == 4:
            journal.log(REC_SCORE, "%d 5 fives" % (i % 4))
        else:
            journal.log_action("%d-%d>L" % (i % 7, (i * 3) % 7))
    journal.close()
    (name,) = [n for n in os.listdir(root) if n.endswith(".tjs")]
    path = os.path.join(root, name)
    with open(path, "rb") as f:
        return path, f.read()


def _record_ends(image):
    ends = []
    pos = 0
    for _, _, payload in iter_records(image):
        pos += OVERHEAD + len(payload)
        ends.append(pos)
    return ends


def _recover_and_append(root, path, image, cut, whole):
    """Recover after a cut that left ``whole`` complete records; garbage that happens to repeat
    the torn record's missing bytes completes it, so one more record may come back intact."""
    journal = Journal(root)
    recovered = journal.next_seq - 1
    if recovered == 0:
        assert whole == 0 and not journal.in_session and not os.path.exists(path), cut
        return
    assert recovered in (whole, whole + 1), (cut, whole, recovered)
    whole = recovered
    end = _ends_cache[whole - 1]
    with open(path, "rb") as f:
        assert f.read() == image[:end], cut  # the torn tail is gone, nothing before it changed
    journal.resume()
    journal.log_action("6-6>R")
    journal.close()
    with open(path, "rb") as f:
        data = f.read()
    assert data[:end] == image[:end], cut
    tail = [(seq, rtype) for seq, rtype, _ in iter_records(data[end:])]
    assert tail == [(whole + 1, REC_RESUME), (whole + 2, REC_ACTION)], cut


_ends_cache = []


def _sweep(tmp_path, monkeypatch, make_tail):
    # the cut is simulated in the file's bytes; syncing them to a disk would only cost minutes
    monkeypatch.setattr(os, "fsync", lambda fd: None)
    root = tempfile.mkdtemp(dir="/dev/shm") if os.path.isdir("/dev/shm") else str(tmp_path)
    path, image = _session_image(root)
    ends = _record_ends(image)
    assert len(ends) == EVENTS + 1 and ends[-1] == len(image)
    _ends_cache[:] = ends
    whole = 0
    for cut in range(0, len(image) + 1, CUT_STEP):
        while whole < len(ends) and ends[whole] <= cut:
            whole += 1
        with open(path, "wb") as f:
            f.write(image[:cut] + make_tail(image, cut))
        _recover_and_append(root, path, image, cut, whole)
    shutil.rmtree(root, ignore_errors=True)
    return len(image)


def test_cuts_across_the_session_recover_every_complete_record(tmp_path, monkeypatch):
    size = _sweep(tmp_path, monkeypatch, lambda image, cut: b"")
    assert size > 15000


def test_cuts_across_the_session_followed_by_garbage(tmp_path, monkeypatch):
    rng = random.Random(1)
    tails = [
        lambda image, cut: b"\xff" * rng.randrange(1, 64),  # erased flash
        lambda image, cut: bytes(rng.randrange(256) for _ in range(rng.randrange(1, 40))),
        lambda image, cut: image[rng.randrange(cut or 1) :][: rng.randrange(1, 80)],  # older records again
    ]
    _sweep(tmp_path, monkeypatch, lambda image, cut: tails[cut % 3](image, cut))
