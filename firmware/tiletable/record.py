"""Journal records: the one format the table's journal (runtime/journal.py), the link
(proto/) and the PC (tiletable_host) write and read. Below the runtime: pure, no files.

Record format (little-endian, 11 bytes of overhead)::

    offset  size  field
    0       2     payload length n (0..MAX_PAYLOAD)
    2       1     record type (REC_*)
    3       4     sequence number: +1 per record over the whole journal, never reused
    7       n     payload
    7+n     4     CRC-32 (binascii.crc32) of bytes 0 .. 7+n

Payloads: ``REC_HEADER`` and ``REC_END`` are canonical JSON objects (``rulesets.canonical_json``);
the header holds ``ruleset``, ``hash``, ``players``, ``boot``, ``firmware`` and ``time`` (Unix
seconds or null). ``REC_ACTION`` is an action's canonical text (``5-6>L``); ``REC_SCORE`` is
``"<seat> <points> <rule>"``, whole numbers in the engine's unit (Buki: half-chips, as in
``REC_END``'s ``scores``: ``75`` is 37.5 chips; the link and the PC show chips); ``REC_UNDO``
is the decimal sequence number of the record it takes back (an amendment: nothing is ever
deleted); ``REC_RESUME`` the boot counter of a restart that
continued the session; ``REC_GAP`` how many records were lost while the journal was full;
``REC_CLOCK`` Unix seconds set during the session. ``REC_TIMED_ACTION`` is an action with its
time: tenths of a second since the session started as an unsigned LEB128 varint (two bytes for
the first 27 minutes, three up to 58 hours), then the action's text; journals written before
actions had times hold ``REC_ACTION`` and still read (``record_read.action_parts``).

Reading records back (``action_parts``, ``visit``) is ``record_read.py``'s: the table needs it
only to resume a session, and the stock build runs bytecode from the heap.
"""
import struct
from binascii import crc32

REC_HEADER = 1
REC_ACTION = 2
REC_SCORE = 3
REC_UNDO = 4
REC_END = 5
REC_RESUME = 6
REC_GAP = 7
REC_CLOCK = 8
REC_TIMED_ACTION = 9

RECORD_NAMES = {
    REC_HEADER: "header",
    REC_ACTION: "action",
    REC_SCORE: "score",
    REC_UNDO: "undo",
    REC_END: "end",
    REC_RESUME: "resume",
    REC_GAP: "gap",
    REC_CLOCK: "clock",
    REC_TIMED_ACTION: "action",
}

HEAD_SIZE = 7
CRC_SIZE = 4
OVERHEAD = HEAD_SIZE + CRC_SIZE
MAX_PAYLOAD = 500
MAX_RECORD = OVERHEAD + MAX_PAYLOAD


def varint_size(value):
    """Bytes of ``value`` (>= 0) as an unsigned LEB128 varint."""
    size = 1
    while value >= 0x80:
        value >>= 7
        size += 1
    return size


def write_varint(buf, pos, value):
    """Write ``value`` (>= 0) into ``buf`` at ``pos`` as an unsigned LEB128 varint, in place
    (no allocation); return the position after it."""
    while value >= 0x80:
        buf[pos] = (value & 0x7F) | 0x80
        value >>= 7
        pos += 1
    buf[pos] = value
    return pos + 1


def payload_size(payload, tenths):
    """Bytes of a record's payload with its time (``encode_record``)."""
    return len(payload) + (varint_size(tenths) if tenths >= 0 else 0)


def encode_record(buf, pos, rtype, seq, payload, tenths=-1):
    """Write one record into ``buf`` at ``pos``; return the position after it. A ``tenths`` of
    0 or more goes before the payload as a varint (``REC_TIMED_ACTION``), written in place so
    the time costs no allocation."""
    body = pos + HEAD_SIZE
    if tenths >= 0:
        body = write_varint(buf, body, tenths)
    end = body + len(payload)
    struct.pack_into("<HBI", buf, pos, end - pos - HEAD_SIZE, rtype, seq)
    buf[body:end] = payload
    struct.pack_into("<I", buf, end, crc32(memoryview(buf)[pos:end]) & 0xFFFFFFFF)
    return end + CRC_SIZE


def decode_record(data, pos, end):
    """The record at ``data[pos:end]`` as ``(seq, rtype, payload_len)``, or None if it is
    incomplete or fails its check. The payload starts at ``pos + HEAD_SIZE``."""
    if end - pos < OVERHEAD:
        return None
    n, rtype, seq = struct.unpack_from("<HBI", data, pos)
    if n > MAX_PAYLOAD or rtype not in RECORD_NAMES or end - pos < OVERHEAD + n:
        return None
    if not crc_matches(data, pos, pos + HEAD_SIZE + n):
        return None
    return seq, rtype, n


def crc_matches(data, start, body_end):
    return crc32(memoryview(data)[start:body_end]) & 0xFFFFFFFF == struct.unpack_from("<I", data, body_end)[0]


def parse_json_payload(payload):
    import json

    return json.loads(bytes(payload).decode())


def iter_records(data):
    """Yield ``(seq, rtype, payload bytes)`` for the valid records at the start of ``data``
    (a journal pull reply, a file image); stops at the first bad one."""
    pos = 0
    end = len(data)
    while True:
        found = decode_record(data, pos, end)
        if found is None:
            return
        seq, rtype, n = found
        yield seq, rtype, bytes(data[pos + HEAD_SIZE : pos + HEAD_SIZE + n])
        pos += OVERHEAD + n
