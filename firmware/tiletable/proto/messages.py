"""The link's message catalogue: types, payload layouts, error codes, encode/decode.

A payload is a fixed sequence of fields per message type (no tags: the type byte and the
protocol version fix the layout). Field kinds, little-endian::

    u8 u16 u32 i32   integers
    str              u8 length + UTF-8 (names, hashes, short texts)
    text             u16 length + UTF-8 (JSON snapshots)
    bytes            u16 length + raw bytes (ruleset chunks, journal records)
    strs             u8 count + that many ``str``
    (schema)         a list: u8 count + that many groups laid out by the inner schema

Type numbers: requests 0x01-0x3F (host to device); the reply to request T is T | 0x80;
events 0x40-0x5F (device to host, unprompted); ERROR (0xFF) answers any request that failed.
Messages are dicts keyed by field name; lists are lists of dicts.

Requests and their replies (``MESSAGES[T]`` and ``MESSAGES[T | REPLY]``):

=====  ====================  ==================================  ================================
type   name                  request fields                      reply fields
=====  ====================  ==================================  ================================
0x01   HELLO                 proto, host                         proto, firmware, device, boot,
                                                                 max_payload, capabilities;
                                                                 journal, name; presets
0x02   RULESET_LIST          after                               rulesets [name, version, hash],
                                                                 more
0x03   RULESET_PUT_BEGIN     name, size, hash                    -
0x04   RULESET_PUT_CHUNK     offset, data                        received
0x05   RULESET_PUT_COMMIT    -                                   name, version, hash
0x06   RULESET_REMOVE        name                                -
0x07   JOURNAL_STATUS        -                                   first, last, acked, boot, bytes,
                                                                 max_bytes, full, dropped; journal
0x08   JOURNAL_SESSIONS      after                               sessions [first, last, ruleset,
                                                                 hash, boot, ended, acked]
0x09   JOURNAL_PULL          after, max                          durable, records (journal records)
0x0A   JOURNAL_ACK           seq                                 acked
0x0B   SET_CLOCK             unix                                -
0x0C   GAME_START            ruleset, players                    session
0x0D   GAME_STOP             -                                   -
0x0E   STATE                 -                                   snapshot (JSON text)
0x0F   MAINTENANCE           -                                   -
0x12   SELF_TEST             run                                 -
0x13   TAG_SCAN              zone                                tags [uid, status, kind, set,
                                                                 item]
0x14   TAG_WRITE             zone, uid, record                   -
0x15   UID_PUT               uid, kind, set, item                entries
0x16   JOURNAL_STREAM        after, first, offset, frames, max   a run of frames: part, last,
                                                                 durable, first, offset, data
0x17   RULESET_PUT_DEFLATED  name, size, hash, data              received
0x18   SET_NAME              name                                -
=====  ====================  ==================================  ================================

Fields after a ``;`` came with a later revision of this catalogue, and a payload may end before
them: a device sends those of revision 2 (after the first ``;``) only to a host whose HELLO gave
``proto`` 2 or more, those of revision 3 (after the second) only to one that gave 3 or more
(``REVISION``), so a host from before them still decodes every reply, and a host reads a reply
without them (a device from before them) as a dict without those keys. HELLO's ``presets``
(revision 3) is the digest of the presets the table carries (``LinkServer._hello``, as
``tiletable_host.sync.presets_digest`` makes it): a PC whose engine has the same digest knows
each of them by its content hash and sends none of them in a sync. HELLO's and JOURNAL_STATUS's
``journal`` is the identity of the table's journal (16 hex digits, random, made with the
journal: runtime/journal.py): a wiped, replaced or re-deployed journal has a new one, so the PC
files records under the table, this identity and the sequence number. HELLO's ``name`` is the
table's name as a person set it with SET_NAME (``tiletable name "Table 3"``; "" for none), kept
on the table's flash; STATE's snapshot carries ``journal`` too.

RULESET_LIST answers a page: the rulesets named after ``after`` ("" for the first page), as
many as fit in a frame, and ``more`` 1 when others follow (ask again after the last name).

JOURNAL_PULL answers the records after ``after`` that fit in ``max`` bytes, flushing
nothing: the records still in the table's write buffer follow those on flash. ``durable`` is
the last record on flash; a host stores and acknowledges only up to it, and reads the records
after it again (a failed flush would number other records with them).

JOURNAL_STREAM (capability ``journal-stream``) answers one request with up to ``frames`` reply
frames, sent back to back as the USB output drains, each carrying up to ``max`` bytes of the
journal files on flash as they lie there (at most ``frame.STREAM_PAYLOAD`` less the reply's 16
bytes of fields: these frames may be longer than any other, and a device sends no more than it
can hold, so a host that asks for more than an older device's 1 KB gets 1 KB frames): the
records after ``after`` in order, cut wherever a frame is full (a record may straddle two
frames; each keeps its own CRC-32 and the host checks it). Each frame says where its ``data``
lies (``first``: the session file's first sequence number, ``offset``: bytes into that file; a
file's bytes never share a frame with the next file's), numbers itself (``part`` from 0) and
says what follows: ``last`` 0 more frames of this run, 1 the run ends here (``frames`` sent, or
the file read went away under a rotation) though the journal goes on, 2 nothing more is on
flash. Only flash is sent, so every record in a stream is durable (``durable`` is there for the
host's check). The host keeps the whole records, and asks again after the last one it stored,
passing where that record ended (``first``, ``offset``) so the device resumes without a search;
a hint that does not match is ignored and the record found by sequence number. A frame lost on
the way shows as a gap in ``part`` or ``offset``: the host drops the rest of the run and asks
again from what it stored. A new request ends a run in progress; the stream request sent again
(a host's retry) starts it again. A device without the capability answers ``E_UNKNOWN_TYPE``;
the host then uses JOURNAL_PULL.

RULESET_PUT_DEFLATED (capability ``ruleset-deflate``) is RULESET_PUT_BEGIN and every chunk in
one request: ``data`` is the whole ``size``-byte document as a raw DEFLATE stream whose
back-references reach at most ``2**RULESET_WBITS`` bytes (1 KB: zlib's wbits). It is about half
the bytes of the plain document, and the device reads its link a byte at a time. The device
inflates and validates it as it does a last chunk; RULESET_PUT_COMMIT follows as usual. Data
that does not inflate to exactly ``size`` bytes is refused (E_BAD_VALUE) and the upload dropped.
A document whose stream does not fit in one frame goes in plain chunks, as it does to a device
without the capability (which answers the request with E_UNKNOWN_TYPE).

SET_NAME (capability ``name``) keeps ``name`` (at most 32 bytes of UTF-8; "" removes it) as the
table's name; a device without it answers E_UNKNOWN_TYPE.

SET_CLOCK sets the device's wall clock (Unix seconds; the Pico keeps it with ``ticks_ms``
until the next reset): session headers carry it, and a session in progress journals it as a
``clock`` record. HELLO's ``device`` is ``tiletable-<machine.unique_id() in hex>``.

Events: ZONE (zone, tag, present), PLAY (seat, action, journal_seq), SCORE (seat, points,
rule), ERROR_EVENT (code, message). ERROR: code (E_*), request (the failed type), message.

Scores are in the unit people read, the same on the table's displays, in STATE's ``scores``
(JSON numbers) and in SCORE's ``points`` (a decimal as text: ``"10"``, ``"-5"``): points, and
for Buki chips, where an exact 5/2 payout of an odd stake gives a half chip (``37.5``, ``"-37.5"``;
rule book §3.12, TV-BUKI-7). Only the journal keeps Buki's amounts in half-chips (whole numbers:
``REC_SCORE`` ``"0 75 payout"`` is 37.5 chips; ``tiletable.record``).

Tags (enrolment, ``tiletable enrol`` and ``inventory``): TAG_SCAN lists what the tray last
confirmed on a zone, a row per tag: its UID in hex, ``status`` "" for a usable piece or the
reason it is not (blank, foreign, damaged, duplicate, unknown uid, ...), and the identity it
names (kind 0 when none). TAG_WRITE queues writing the 16-byte tag record into the tag with
that UID on that zone; the TAG_WRITE event (zone, uid, failure) follows once it was written
and read back (``failure`` "") or not (why not). UID_PUT enrols a tag by its UID in the
table's UID table (kind 0 removes the UID; ``entries`` is the table's size after it). Both
writes are refused (E_BAD_VALUE) while a game is in progress or the self test runs.

SELF_TEST with ``run`` 1 starts the hardware self test (hardware/README.md; E_BAD_VALUE while a
game is in progress or a test runs); ``run`` 0 asks for the last report again (E_NOT_FOUND when
none ran since boot). The device reports with SELF_TEST events (done, shows, results [part,
item, status, detail]): ``done`` 0 while it runs, each time the display shows something new
(``shows``, e.g. ``PUSH S1``; no results), then ``done`` 1 with the result (``TEST OK`` or the
first failure) and every row; a row's status is ok, warn, fail or check (seen or heard by a
person).
"""

import struct

from tiletable.proto.frame import crc32, encode_frame

REPLY = 0x80

HELLO = 0x01
RULESET_LIST = 0x02
RULESET_PUT_BEGIN = 0x03
RULESET_PUT_CHUNK = 0x04
RULESET_PUT_COMMIT = 0x05
RULESET_REMOVE = 0x06
JOURNAL_STATUS = 0x07
JOURNAL_SESSIONS = 0x08
JOURNAL_PULL = 0x09
JOURNAL_ACK = 0x0A
SET_CLOCK = 0x0B
GAME_START = 0x0C
GAME_STOP = 0x0D
STATE = 0x0E
MAINTENANCE = 0x0F
SELF_TEST = 0x12
TAG_SCAN = 0x13
TAG_WRITE = 0x14
UID_PUT = 0x15
JOURNAL_STREAM = 0x16
RULESET_PUT_DEFLATED = 0x17
SET_NAME = 0x18

REVISION = 3  # HELLO's ``proto`` from a host that reads every field after a ";" (module doc)

RULESET_WBITS = 10  # RULESET_PUT_DEFLATED's window: 2**10 bytes, what the device allocates to inflate

EV_ZONE = 0x40
EV_PLAY = 0x41
EV_SCORE = 0x42
EV_ERROR = 0x43
EV_SELF_TEST = 0x44
EV_TAG_WRITE = 0x45

ERROR = 0xFF

# Error codes carried by ERROR replies (and EV_ERROR events for table-side problems).
E_MALFORMED = 1  # the payload does not match the message's layout
E_UNKNOWN_TYPE = 2  # no such request type
E_VERSION = 3  # the frame's protocol version is not ours
E_UNSUPPORTED = 4  # a known request this device does not handle
E_BAD_VALUE = 5  # a field out of range or not allowed now
E_RULESET = 6  # the ruleset document is invalid, or its hash is not the announced one
E_NOT_FOUND = 7  # no such ruleset
E_SEQUENCE = 8  # a step out of order (chunk without begin, commit before the last chunk)
E_STORAGE = 9  # the filesystem failed (full, I/O error)
E_JOURNAL_FULL = 10  # the journal is full and nothing is acknowledged
E_INTERNAL = 11  # a bug on the device; the message says where
E_NO_MEMORY = 12  # the device's heap could not hold what the request needed
# An E_NO_MEMORY message for GAME_START ending so: the table restarts and starts the game at
# its next boot (runtime/app.py, App.restart_into), on a heap nothing has cut up yet.
RESTARTS_INTO = "the table restarts and starts it"

ERROR_NAMES = {
    E_MALFORMED: "malformed",
    E_UNKNOWN_TYPE: "unknown type",
    E_VERSION: "protocol version",
    E_UNSUPPORTED: "unsupported",
    E_BAD_VALUE: "bad value",
    E_RULESET: "bad ruleset",
    E_NOT_FOUND: "not found",
    E_SEQUENCE: "out of sequence",
    E_STORAGE: "storage",
    E_JOURNAL_FULL: "journal full",
    E_INTERNAL: "internal error",
    E_NO_MEMORY: "out of memory",
}

# Each row of a list field, by the name its kind gives after "*".
ROWS = {
    "ruleset": "name str, version u16, hash str",
    "tag": "uid str, status str, kind u8, set u16, item u8",
    "self_test": "part str, item str, status str, detail str",
    "session": "first u32, last u32, ruleset str, hash str, boot u32, ended u8, acked u8",
}

# type -> "name: field kind, ...": the layout as text, read into tuples only for the types
# a table uses (message_schema). A tuple per field, built at import, took 12 KB of the heap
# of a stock build (the unix port's, 64-bit).
MESSAGES = {
    HELLO: "hello: proto u8, host str",
    HELLO | REPLY: "hello reply: proto u8, firmware str, device str, boot u32, max_payload u16, capabilities strs; journal str, name str; presets str",
    RULESET_LIST: "ruleset list: after str",
    RULESET_LIST | REPLY: "ruleset list reply: rulesets *ruleset, more u8",
    RULESET_PUT_BEGIN: "ruleset put begin: name str, size u16, hash str",
    RULESET_PUT_BEGIN | REPLY: "ruleset put begin reply:",
    RULESET_PUT_CHUNK: "ruleset put chunk: offset u16, data bytes",
    RULESET_PUT_CHUNK | REPLY: "ruleset put chunk reply: received u16",
    RULESET_PUT_COMMIT: "ruleset put commit:",
    RULESET_PUT_COMMIT | REPLY: "ruleset put commit reply: name str, version u16, hash str",
    RULESET_PUT_DEFLATED: "ruleset put deflated: name str, size u16, hash str, data bytes",
    RULESET_PUT_DEFLATED | REPLY: "ruleset put deflated reply: received u16",
    RULESET_REMOVE: "ruleset remove: name str",
    RULESET_REMOVE | REPLY: "ruleset remove reply:",
    JOURNAL_STATUS: "journal status:",
    JOURNAL_STATUS | REPLY: "journal status reply: first u32, last u32, acked u32, boot u32, bytes u32, max_bytes u32, full u8, dropped u32; journal str",
    JOURNAL_SESSIONS: "journal sessions: after u32",
    JOURNAL_SESSIONS | REPLY: "journal sessions reply: sessions *session",
    JOURNAL_PULL: "journal pull: after u32, max u16",
    JOURNAL_PULL | REPLY: "journal pull reply: durable u32, records bytes",
    JOURNAL_STREAM: "journal stream: after u32, first u32, offset u32, frames u8, max u16",
    JOURNAL_STREAM | REPLY: "journal stream reply: part u8, last u8, durable u32, first u32, offset u32, data bytes",
    JOURNAL_ACK: "journal ack: seq u32",
    JOURNAL_ACK | REPLY: "journal ack reply: acked u32",
    SET_NAME: "set name: name str",
    SET_NAME | REPLY: "set name reply:",
    SET_CLOCK: "set clock: unix u32",
    SET_CLOCK | REPLY: "set clock reply:",
    GAME_START: "game start: ruleset str, players strs",
    GAME_START | REPLY: "game start reply: session u32",
    GAME_STOP: "game stop:",
    GAME_STOP | REPLY: "game stop reply:",
    STATE: "state:",
    STATE | REPLY: "state reply: snapshot text",
    MAINTENANCE: "maintenance:",
    MAINTENANCE | REPLY: "maintenance reply:",
    EV_ZONE: "zone event: zone u8, tag str, present u8",
    EV_PLAY: "play event: seat u8, action str, journal_seq u32",
    EV_SCORE: "score event: seat u8, points str, rule str",
    EV_ERROR: "error event: code u8, message str",
    SELF_TEST: "self test: run u8",
    SELF_TEST | REPLY: "self test reply:",
    EV_SELF_TEST: "self test event: done u8, shows str, results *self_test",
    TAG_SCAN: "tag scan: zone u8",
    TAG_SCAN | REPLY: "tag scan reply: tags *tag",
    TAG_WRITE: "tag write: zone u8, uid str, record bytes",
    TAG_WRITE | REPLY: "tag write reply:",
    UID_PUT: "uid put: uid str, kind u8, set u16, item u8",
    UID_PUT | REPLY: "uid put reply: entries u16",
    EV_TAG_WRITE: "tag write event: zone u8, uid str, failure str",
    ERROR: "error: code u8, request u8, message str",
}
_SCHEMAS = {}  # type -> (name, ((field, kind), ...)), read from MESSAGES on first use

_INT_FORMATS = {"u8": ("<B", 1, 0, 0xFF), "u16": ("<H", 2, 0, 0xFFFF), "u32": ("<I", 4, 0, 0xFFFFFFFF)}
_INT_FORMATS["i32"] = ("<i", 4, -0x80000000, 0x7FFFFFFF)


def is_request(msg_type):
    return 0x01 <= msg_type <= 0x3F


def is_event(msg_type):
    return 0x40 <= msg_type <= 0x5F


class ProtocolError(ValueError):
    """A message that cannot be honoured; ``code`` is an E_* constant, the text says why.

    Example: ``ProtocolError(E_MALFORMED, "journal pull: field 'max' is cut short")``.
    """

    def __init__(self, code, message):
        super().__init__(message)
        self.code = code
        self.message = message


def message_name(msg_type):
    text = MESSAGES.get(msg_type)
    return text.split(":", 1)[0] if text else "type 0x%02x" % msg_type


def message_schema(msg_type):
    """``(name, ((field, kind), ...))`` of a message type, or None for none; a list field's
    kind is its row's own ``((field, kind), ...)``, and ``(";", None)`` marks where the
    fields a payload may end before begin (module doc)."""
    found = _SCHEMAS.get(msg_type)
    if found is None:
        text = MESSAGES.get(msg_type)
        if text is None:
            return None
        name, layout = text.split(":", 1)
        found = _SCHEMAS[msg_type] = (name, _layout(layout))
    return found


def _layout(text):
    fields = []
    for item in text.replace(";", ",;,").split(","):
        words = item.split()
        if words == [";"]:
            fields.append((";", None))
        elif words:
            kind = words[1]
            fields.append((words[0], _layout(ROWS[kind[1:]]) if kind[0] == "*" else kind))
    return tuple(fields)


def encode_payload(msg_type, fields):
    """The payload bytes of message ``msg_type`` with ``fields`` (a dict).

    :raises ValueError: naming the field that is missing, of the wrong kind or out of range.
    """
    entry = message_schema(msg_type)
    if entry is None:
        raise ValueError("no message type 0x%02x" % msg_type)
    out = bytearray()
    _encode_fields(out, entry[0], entry[1], fields)
    return bytes(out)


def _encode_fields(out, label, schema, fields):
    for index, (name, kind) in enumerate(schema):
        if kind is None:  # the later fields go only when given (module doc)
            if schema[index + 1][0] not in fields:
                return
            continue
        if name not in fields:
            raise ValueError("%s: missing field %r" % (label, name))
        value = fields[name]
        # the field's place for an error message, spelled out only for an error: formatted
        # for every field, its new strings took most of a small reply's coding on a stock UF2
        where = (label, name)
        if isinstance(kind, tuple):
            _check_count(where, len(value), 0xFF)
            out.append(len(value))
            for row in value:
                _encode_fields(out, label, kind, row)
        elif kind in _INT_FORMATS:
            fmt, _, lo, hi = _INT_FORMATS[kind]
            if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
                raise ValueError("%s: field %r must be a whole number in %d..%d (got %r)" % (where + (lo, hi, value)))
            out.extend(struct.pack(fmt, value))
        elif kind == "strs":
            _check_count(where, len(value), 0xFF)
            out.append(len(value))
            for item in value:
                _encode_sized(out, where, _text_bytes(where, item), 1)
        elif kind == "str":
            _encode_sized(out, where, _text_bytes(where, value), 1)
        elif kind == "text":
            _encode_sized(out, where, _text_bytes(where, value), 2)
        else:  # bytes
            if not isinstance(value, (bytes, bytearray, memoryview)):
                raise ValueError("%s: field %r must be bytes (got %r)" % (where + (type(value).__name__,)))
            _encode_sized(out, where, value, 2)


def _text_bytes(where, value):
    if not isinstance(value, str):
        raise ValueError("%s: field %r must be text (got %r)" % (where + (value,)))
    return value.encode()


def _check_count(where, count, limit):
    if count > limit:
        raise ValueError("%s: field %r has %d items, over %d" % (where + (count, limit)))


def _encode_sized(out, where, data, width):
    limit = 0xFF if width == 1 else 0xFFFF
    if len(data) > limit:
        raise ValueError("%s: field %r is %d bytes, over %d" % (where + (len(data), limit)))
    out.extend(struct.pack("<B" if width == 1 else "<H", len(data)))
    out.extend(data)


def decode_payload(msg_type, payload):
    """The fields of a received payload as a dict.

    :raises ProtocolError: E_UNKNOWN_TYPE for a type not in the catalogue; E_MALFORMED naming
        the field for a payload that is cut short, too long, or not UTF-8 where text is due.
    """
    entry = message_schema(msg_type)
    if entry is None:
        raise ProtocolError(E_UNKNOWN_TYPE, "unknown message type 0x%02x" % msg_type)
    fields, pos = _decode_fields(entry[0], entry[1], payload, 0)
    if pos != len(payload):
        raise ProtocolError(E_MALFORMED, "%s: %d unexpected bytes after the last field" % (entry[0], len(payload) - pos))
    return fields


def _decode_fields(label, schema, data, pos):
    fields = {}
    for name, kind in schema:
        if kind is None:  # a payload may end here (module doc)
            if pos == len(data):
                break
            continue
        where = (label, name)  # as in _encode_fields
        if isinstance(kind, tuple):
            count, pos = _take_int(where, data, pos, "u8")
            rows = []
            for _ in range(count):
                row, pos = _decode_fields(label, kind, data, pos)
                rows.append(row)
            fields[name] = rows
        elif kind in _INT_FORMATS:
            fields[name], pos = _take_int(where, data, pos, kind)
        elif kind == "strs":
            count, pos = _take_int(where, data, pos, "u8")
            items = []
            for _ in range(count):
                raw, pos = _take_sized(where, data, pos, "u8")
                items.append(_text(where, raw))
            fields[name] = items
        elif kind == "bytes":
            raw, pos = _take_sized(where, data, pos, "u16")
            fields[name] = bytes(raw)
        else:  # str, text
            raw, pos = _take_sized(where, data, pos, "u8" if kind == "str" else "u16")
            fields[name] = _text(where, raw)
    return fields, pos


def _take_int(where, data, pos, kind):
    fmt, size, _, _ = _INT_FORMATS[kind]
    if pos + size > len(data):
        raise ProtocolError(E_MALFORMED, "%s: field %r is cut short" % where)
    return struct.unpack_from(fmt, data, pos)[0], pos + size


def _take_sized(where, data, pos, width):
    size, pos = _take_int(where, data, pos, width)
    if pos + size > len(data):
        raise ProtocolError(E_MALFORMED, "%s: field %r is cut short (%d of %d bytes)" % (where + (len(data) - pos, size)))
    return data[pos : pos + size], pos + size


def _text(where, raw):
    try:
        return bytes(raw).decode()
    except UnicodeError:
        raise ProtocolError(E_MALFORMED, "%s: field %r is not UTF-8 text" % where)


def encode_message(msg_type, seq, fields=None, crc=crc32):
    """The wire bytes of a whole message: its payload in a frame (see frame.py; ``crc`` as
    ``encode_frame`` takes it).

    Example: ``encode_message(JOURNAL_ACK, 7, {"seq": 1200})``
    """
    return encode_frame(msg_type, seq, encode_payload(msg_type, fields or {}), crc=crc)
