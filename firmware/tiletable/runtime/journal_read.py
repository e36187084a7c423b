"""Reading the journal back for the link: the records after a sequence number (JOURNAL_PULL)
and where a record lies on flash (JOURNAL_STREAM, proto/stream.py).

Imported on the first read, not at boot (``Journal.read_since`` imports it): the stock build
runs bytecode from the heap, and the first game start needs those bytes. These functions read
the session files through the ``Journal``'s public read API (``firsts``, ``sizes``,
``open_reader``); the journal hands them where the last read stopped (its cursor) and the
records still in its write buffer, and keeps the cursor they return.
"""
import struct
from binascii import crc32

from tiletable.record import HEAD_SIZE, MAX_PAYLOAD, MAX_RECORD, OVERHEAD, RECORD_NAMES


def read_since(journal, after_seq, out, cursor, pending):
    """``Journal.read_since``: see there. ``cursor`` is ``(file index, offset, next seq)``
    where the last read stopped, or None; ``pending`` the write buffer's records. Returns the
    bytes copied and the cursor to keep. The file read is closed at the end (an open one
    holds heap), unless ``out`` filled up."""
    if len(out) < MAX_RECORD:
        raise ValueError("read buffer of %d bytes is under one record (%d)" % (len(out), MAX_RECORD))
    firsts = journal.firsts
    if not firsts or after_seq + 1 >= journal.next_seq:
        return 0, cursor
    index, offset = position_of(journal, after_seq + 1, cursor)
    mv = memoryview(out)
    used = 0
    while index < len(firsts):
        size = journal.sizes[index]
        if offset < size:
            f = journal.open_reader(firsts[index])
            f.seek(offset)
            got = f.readinto(mv[used : used + min(len(out) - used, size - offset)])
            whole, last_seq, damaged = _whole_records(out, used, used + got)
            used += whole
            offset += whole
            if whole:
                cursor = (index, offset, last_seq + 1)
            if offset < size and not damaged:
                journal.end_read()
                return used, cursor  # out is full
        index += 1
        offset = 0
    journal.end_read()
    return _copy_pending(pending, after_seq, out, used), None


def _copy_pending(pending, after_seq, out, used):
    """Append the records of ``pending`` (the write buffer's) with sequence numbers above
    ``after_seq`` to ``out[:used]`` while they fit; return the bytes used then."""
    pos = 0
    while pos < len(pending):
        n, _, seq = struct.unpack_from("<HBI", pending, pos)
        size = OVERHEAD + n
        if seq > after_seq:
            if used + size > len(out):
                break
            out[used : used + size] = pending[pos : pos + size]
            used += size
        pos += size
    return used


def position_of(journal, seq, cursor):
    """(file index, offset) of record ``seq``, or of the first record after it is gone;
    ``cursor`` as ``read_since`` takes it. The file stays open for the read that follows."""
    if cursor is not None and cursor[2] == seq:
        return cursor[0], cursor[1]
    firsts = journal.firsts
    if seq > journal.durable_seq:  # still in the write buffer: after the newest file's end
        return len(firsts) - 1, journal.sizes[-1]
    index = 0
    for i in range(len(firsts)):
        if firsts[i] <= seq:
            index = i
    offset = 0
    current = firsts[index]
    size = journal.sizes[index]
    header = bytearray(HEAD_SIZE)
    f = journal.open_reader(current)
    while current < seq and offset < size:  # skip by lengths: verified at open
        f.seek(offset)
        f.readinto(header)
        offset += OVERHEAD + struct.unpack_from("<H", header, 0)[0]
        current += 1
    return index, offset


_CRC_RESIDUE = 0x2144DF1C  # CRC-32 of any bytes followed by their own CRC-32, little-endian


def _whole_records(data, start, end):
    """Check the records in ``data[start:end]``: (bytes of whole good records from ``start``,
    sequence number of the last, whether a complete record failed its check). The checks are
    ``decode_record``'s, in one loop: a pull reply walks about 60 records, and a call, a tuple
    and a big int per record took 8 ms of a 1 KB reply on the chip. A record followed by its
    own CRC-32 has the CRC-32 ``_CRC_RESIDUE``, a small int."""
    view = memoryview(data)
    pos = start
    last = -1
    while end - pos >= OVERHEAD:
        size = OVERHEAD + (data[pos] | data[pos + 1] << 8)
        if size > MAX_RECORD or data[pos + 2] not in RECORD_NAMES or end - pos < size or crc32(view[pos : pos + size]) != _CRC_RESIDUE:
            break
        last = pos
        pos += size
    left = end - pos
    damaged = False
    if left >= HEAD_SIZE:
        n = struct.unpack_from("<H", data, pos)[0]
        damaged = n > MAX_PAYLOAD or left >= OVERHEAD + n
    last_seq = struct.unpack_from("<I", data, last + 3)[0] if last >= 0 else 0
    return pos - start, last_seq, damaged
