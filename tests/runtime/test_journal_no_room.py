"""When the flash has no room to repair a torn session file, the journal seals it (CPython:
the failing rename is injected; on littlefs it is ENOSPC)."""
import errno
import os

from runtime.scratch import file_bytes, fresh_dir, write_bytes

from tiletable.record import MAX_RECORD, REC_HEADER, iter_records
from tiletable.runtime.journal import Journal


def _records(journal):
    out = bytearray(MAX_RECORD * 4)
    found = []
    while True:
        n = journal.read_since(found[-1][0] if found else 0, out)
        if not n:
            return found
        found.extend(iter_records(out[:n]))


def test_torn_file_that_cannot_be_repaired_is_sealed_then_repaired_later(monkeypatch):
    root = fresh_dir("journal-no-room")
    journal = Journal(root, flush_records=1)
    journal.start_session("muggins", "0123456789abcdef", ["a", "b"], "0.1")
    for i in range(20):
        journal.log_action("%d-%d" % (i % 7, i % 3))
    journal.close()
    (name,) = [n for n in os.listdir(root) if n.endswith(".tjs")]
    path = root + "/" + name
    good = file_bytes(path)
    write_bytes(path, good + b"\x05\x00\x02torn")

    real_rename = os.rename

    def rename_without_room(src, dst):
        if dst.endswith(".tjs"):
            raise OSError(errno.ENOSPC, "no space")
        real_rename(src, dst)

    monkeypatch.setattr(os, "rename", rename_without_room)
    sealed = Journal(root)
    assert not sealed.in_session and sealed.next_seq == 22  # read up to the last good record
    assert [r[0] for r in _records(sealed)] == list(range(1, 22))
    assert sealed.start_session("sniff", "0123456789abcdef", ["a"], "0.1") == 22  # a new file, not the torn one
    sealed.log_action("6-6")
    sealed.close()
    assert file_bytes(path) == good + b"\x05\x00\x02torn"  # never appended to
    assert not [n for n in os.listdir(root) if n.endswith(".tmp")]

    monkeypatch.setattr(os, "rename", real_rename)
    repaired = Journal(root)
    assert file_bytes(path) == good and repaired.repaired_bytes == 7
    records = _records(repaired)
    assert [r[0] for r in records] == list(range(1, 24)) and records[21][1] == REC_HEADER
