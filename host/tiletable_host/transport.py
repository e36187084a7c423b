"""The link to a table, as high-level operations built on one primitive, ``request``.

After mpremote's Transport: this class knows the message catalogue (firmware/tiletable/proto,
shared with the device), numbers requests, matches replies by sequence number, retries what is
safe to retry, routes unsolicited events to a callback and turns ERROR replies into
``DeviceError``. How bytes move is a subclass's business (``SerialTransport`` for a Pico or a
pty, ``LocalTransport`` for an in-process device in tests): it provides ``_write``, ``_read``
and ``reconnect``.

Frames are logged on the ``tiletable.link`` logger at debug level: ``>>`` for what the host
sends, ``<<`` for what it receives (``tiletable --debug ...``).
"""
import json
import logging
import time
import zlib

from tiletable.proto.frame import MAX_PAYLOAD, STREAM_ENCODED, STREAM_PAYLOAD, FrameDecoder, encode_frame
from tiletable.proto.messages import (
    ERROR,
    ERROR_NAMES,
    GAME_START,
    GAME_STOP,
    HELLO,
    JOURNAL_ACK,
    JOURNAL_PULL,
    JOURNAL_SESSIONS,
    JOURNAL_STATUS,
    JOURNAL_STREAM,
    MAINTENANCE,
    REPLY,
    RULESET_LIST,
    RULESET_PUT_BEGIN,
    RULESET_PUT_CHUNK,
    RULESET_PUT_COMMIT,
    RULESET_PUT_DEFLATED,
    RULESET_REMOVE,
    RULESET_WBITS,
    REVISION,
    SET_CLOCK,
    SET_NAME,
    STATE,
    TAG_SCAN,
    TAG_WRITE,
    UID_PUT,
    ProtocolError,
    decode_payload,
    encode_payload,
    is_event,
    message_name,
)
from tiletable.record import HEAD_SIZE, OVERHEAD, decode_record, iter_records
from tiletable_host.errors import TransportError

log = logging.getLogger("tiletable.link")

DEFAULT_TIMEOUT = 2.0  # seconds to wait for one reply; a Pico answers in milliseconds
DEFAULT_RETRIES = 2  # extra attempts for requests that are safe to repeat

# Requests the device may receive twice without harm: a reply lost to a reset or noise is
# simply asked for again. Chunks are safe too (the store ignores a chunk it already has), and so
# is a deflated put (the same upload begun again with the same whole document).
# GAME_START, GAME_STOP, PUT_BEGIN, PUT_COMMIT and TAG_WRITE change state and are never repeated here;
# their callers recover at a higher level (sync restarts an upload, and verifies by hash).
IDEMPOTENT = frozenset(
    (
        HELLO,
        RULESET_LIST,
        RULESET_PUT_CHUNK,
        RULESET_PUT_DEFLATED,
        JOURNAL_STATUS,
        JOURNAL_SESSIONS,
        JOURNAL_PULL,
        JOURNAL_STREAM,
        JOURNAL_ACK,
        SET_CLOCK,
        SET_NAME,
        STATE,
        TAG_SCAN,
        UID_PUT,
    )
)

_CHUNK_OVERHEAD = 4  # a chunk request's offset (u16) and data length (u16)
_PULL_OVERHEAD = 6  # a pull reply's last (u32) and records length (u16)
_STREAM_OVERHEAD = 16  # a stream reply's part, last (u8), durable, first, offset (u32), data length (u16)
STREAM_FRAMES = 64  # frames one JOURNAL_STREAM request asks for: a round trip per 256 KB or so (64 KB from a device of 1 KB frames)


def _whole_records(data, into):
    """Append the whole records at the start of ``data`` to ``into`` as ``(seq, rtype, payload)``;
    return the bytes they take. :raises TransportError: for a complete record that fails its check."""
    pos = 0
    while len(data) - pos >= OVERHEAD:
        size = OVERHEAD + (data[pos] | data[pos + 1] << 8)
        if len(data) - pos < size:
            break
        found = decode_record(data, pos, pos + size)
        if found is None:
            raise TransportError("journal record at byte %d of a stream frame fails its check" % pos)
        seq, rtype, n = found
        into.append((seq, rtype, bytes(data[pos + HEAD_SIZE : pos + HEAD_SIZE + n])))
        pos += size
    return pos


def deflate(data):
    """``data`` as RULESET_PUT_DEFLATED carries it: a raw DEFLATE stream within the device's window."""
    packer = zlib.compressobj(9, zlib.DEFLATED, -RULESET_WBITS)
    return packer.compress(data) + packer.flush()


class ReplyTimeout(TransportError):
    """No reply arrived (after every allowed attempt)."""


class DeviceError(TransportError):
    """The device answered with ERROR: ``code`` (an ``E_*``), the ``request`` type, its sentence.

    Example: ``str(exc) == "ruleset remove: not found: no ruleset 'x' installed"``
    """

    def __init__(self, code, request, message):
        super().__init__("%s: %s: %s" % (message_name(request), ERROR_NAMES.get(code, "error %d" % code), message))
        self.code = code
        self.request = request
        self.message = message


def _loggable(fields):
    """Fields with bytes shown as their length, so a debug log of a pull stays readable."""
    return {k: ("<%d bytes>" % len(v) if isinstance(v, (bytes, bytearray, memoryview)) else v) for k, v in fields.items()}


class Transport:
    """High-level table operations on ``request``. Subclasses move the bytes.

    ``on_event(name, fields)`` receives every event (``"play event"``, ``"score event"``, ...)
    that arrives while the host waits for a reply or calls ``poll_events``.
    """

    def __init__(self, timeout=DEFAULT_TIMEOUT, retries=DEFAULT_RETRIES, on_event=None):
        self.timeout = timeout
        self.retries = retries
        self.on_event = on_event
        self.max_payload = MAX_PAYLOAD
        self.stream_max = STREAM_PAYLOAD - _STREAM_OVERHEAD  # journal bytes a stream frame may carry
        self.device_info = None
        self._seq = 0
        self._decoder = FrameDecoder(STREAM_ENCODED)  # a journal stream's frames are the longest
        self._frames = []  # decoded frames not yet consumed, oldest first

    # ----- bytes: provided by subclasses

    def _write(self, data):
        """Send bytes. :raises TransportError: when the link is gone."""
        raise NotImplementedError

    def _read(self, timeout):
        """Bytes received within ``timeout`` seconds (b"" if none). :raises TransportError: when the link is gone."""
        raise NotImplementedError

    def reconnect(self):
        """Re-open the link after the device went away (a reset). :raises TransportError: if it does not come back."""
        raise NotImplementedError

    def close(self):
        """Release the link."""

    # ----- the primitive

    def request(self, msg_type, fields=None, timeout=None, retries=None):
        """Send request ``msg_type`` with ``fields`` (a dict) and return the reply's fields.

        Requests in ``IDEMPOTENT`` are sent again, with the same sequence number, when no reply
        comes within ``timeout`` seconds or the link drops (then it is re-opened first).

        :raises DeviceError: when the device answers with ERROR.
        :raises ReplyTimeout: when no reply arrives after every attempt.
        :raises TransportError: when the link cannot be re-opened.
        """
        fields = fields or {}
        timeout = self.timeout if timeout is None else timeout
        attempts = 1 + (self.retries if retries is None else retries) if msg_type in IDEMPOTENT else 1
        self._seq = self._seq % 0xFFFF + 1
        seq = self._seq
        wire = encode_frame(msg_type, seq, encode_payload(msg_type, fields))
        name = message_name(msg_type)
        for attempt in range(attempts):
            try:
                log.debug(">> %s seq=%d %s%s", name, seq, _loggable(fields), " (again)" if attempt else "")
                self._write(wire)
                reply = self._await_reply(msg_type, seq, timeout)
            except DeviceError:
                raise
            except ReplyTimeout:
                continue
            except TransportError:
                if attempt + 1 == attempts:
                    raise
                self.reconnect()
                continue
            return reply
        raise ReplyTimeout(
            "no reply to %s after %d attempt%s of %.1f s" % (name, attempts, "" if attempts == 1 else "s", timeout)
        )

    def _await_reply(self, msg_type, seq, timeout):
        deadline = time.monotonic() + timeout
        while True:
            while self._frames:
                got_type, got_seq, fields = self._frames.pop(0)
                if is_event(got_type):
                    self._dispatch_event(got_type, fields)
                elif got_seq != seq:
                    log.debug("<< %s seq=%d dropped: not the reply to seq %d", message_name(got_type), got_seq, seq)
                elif got_type == ERROR:
                    raise DeviceError(fields["code"], fields["request"], fields["message"])
                elif got_type == msg_type | REPLY:
                    return fields
                else:
                    log.debug("<< %s seq=%d dropped: a reply of the wrong type", message_name(got_type), got_seq)
            left = deadline - time.monotonic()
            if left <= 0:
                raise ReplyTimeout("no reply to %s" % message_name(msg_type))
            self._receive(left)

    def _receive(self, timeout):
        """Read what arrives within ``timeout`` and decode it into ``_frames``."""
        data = self._read(timeout)
        for _version, got_type, got_seq, payload in self._decoder.feed(data):
            try:
                fields = decode_payload(got_type, payload)
            except ProtocolError as exc:
                log.debug("<< seq=%d undecodable: %s", got_seq, exc)
                continue
            log.debug("<< %s seq=%d %s", message_name(got_type), got_seq, _loggable(fields))
            self._frames.append((got_type, got_seq, fields))

    def _dispatch_event(self, msg_type, fields):
        if self.on_event is not None:
            self.on_event(message_name(msg_type), fields)

    def poll_events(self, duration):
        """Wait ``duration`` seconds, handing every event that arrives to ``on_event``."""
        deadline = time.monotonic() + duration
        while True:
            while self._frames:
                got_type, got_seq, fields = self._frames.pop(0)
                if is_event(got_type):
                    self._dispatch_event(got_type, fields)
            left = deadline - time.monotonic()
            if left <= 0:
                return
            self._receive(left)

    # ----- device

    def hello(self, host="tiletable-host"):
        """Introduce the host; returns (and keeps in ``device_info``) the device's answer:
        firmware, device, boot counter, max_payload, capabilities, its journal's identity, the
        table's name and the digest of its presets ("" from a table whose firmware reports none)."""
        info = self.request(HELLO, {"proto": REVISION, "host": host})
        info.setdefault("journal", "")
        info.setdefault("name", "")
        info.setdefault("presets", "")
        self.device_info = info
        self.max_payload = min(info["max_payload"], MAX_PAYLOAD)
        return info

    def has_capability(self, name):
        return self.device_info is not None and name in self.device_info["capabilities"]

    def set_name(self, name):
        """Have the table keep ``name`` as its name ("" for none)."""
        self.request(SET_NAME, {"name": name})

    def set_clock(self, unix_seconds):
        self.request(SET_CLOCK, {"unix": int(unix_seconds)})

    def maintenance(self):
        """Ask the device to leave protocol mode for the REPL (mpremote can then connect)."""
        self.request(MAINTENANCE)

    # ----- rulesets

    def ruleset_list(self):
        """Installed rulesets as ``{name: (version, hash)}`` (the device answers a page at a time)."""
        installed = {}
        after = ""
        while True:
            reply = self.request(RULESET_LIST, {"after": after})
            for row in reply["rulesets"]:
                installed[row["name"]] = (row["version"], row["hash"])
            if not reply["more"] or not reply["rulesets"]:
                return installed
            after = reply["rulesets"][-1]["name"]

    def ruleset_put(self, name, data, content_hash, on_chunk=None):
        """Upload a ruleset document and commit it; returns the device's ``{name, version,
        hash}``. ``on_chunk(sent, total)`` follows the progress. A device that can inflate
        (capability ``ruleset-deflate``) gets the document deflated in one request when that fits
        in a frame: about half the bytes, and one request instead of a begin and its chunks.

        :raises DeviceError: when the device rejects the document (E_RULESET names the field).
        """
        begin = {"name": name, "size": len(data), "hash": content_hash}
        deflated = dict(begin, data=deflate(data)) if self.has_capability("ruleset-deflate") else None
        if deflated is not None and len(encode_payload(RULESET_PUT_DEFLATED, deflated)) <= self.max_payload:
            self.request(RULESET_PUT_DEFLATED, deflated)
            if on_chunk is not None:
                on_chunk(len(data), len(data))
            return self.request(RULESET_PUT_COMMIT)
        chunk_size = self.max_payload - _CHUNK_OVERHEAD
        self.request(RULESET_PUT_BEGIN, begin)
        offset = 0
        while offset < len(data):
            chunk = data[offset : offset + chunk_size]
            offset = self.request(RULESET_PUT_CHUNK, {"offset": offset, "data": chunk})["received"]
            if on_chunk is not None:
                on_chunk(offset, len(data))
        return self.request(RULESET_PUT_COMMIT)

    def ruleset_remove(self, name):
        self.request(RULESET_REMOVE, {"name": name})

    # ----- journal

    def journal_status(self):
        """The journal's numbers and its identity (``journal``: "" when the table reports
        none, from a firmware before identities)."""
        status = self.request(JOURNAL_STATUS)
        status.setdefault("journal", "")
        return status

    def journal_sessions(self, after=0):
        """Every session the device holds with a first sequence number above ``after``
        (several requests when one reply cannot carry them all)."""
        sessions = []
        while True:
            rows = self.request(JOURNAL_SESSIONS, {"after": after})["sessions"]
            if not rows:
                return sessions
            sessions.extend(rows)
            after = rows[-1]["first"]

    def journal_pull(self, after):
        """The records after sequence number ``after`` that fit in one reply, as a list of
        ``(seq, rtype, payload bytes)``, and the last record on the device's flash: the
        records after it are still in its memory (store and acknowledge only up to it)."""
        reply = self.request(JOURNAL_PULL, {"after": after, "max": self.max_payload - _PULL_OVERHEAD})
        return list(iter_records(reply["records"])), reply["durable"]

    def journal_stream(self, after, position=(0, 0), frames=STREAM_FRAMES, on_records=None):
        """One JOURNAL_STREAM run: the records after ``after`` that arrived whole, as a list of
        ``(seq, rtype, payload bytes)``; the last record on the device's flash; where the last
        whole record ends on the device (``(file, offset)``, the hint for the next run, given
        as ``position``); and whether the run reached the end of the device's flash. A frame
        lost on the way (a gap in the parts or offsets, no frame in time, the link dropping)
        ends the run with the records that were whole before it: ask again from the last one.
        ``on_records(records, durable)``, when given, takes each frame's whole records as they
        arrive (the host stores them while the device sends on), and none are returned.

        :raises TransportError: when a record the device sent fails its check.
        """
        fields = {"after": after, "first": position[0], "offset": position[1], "frames": frames, "max": self.stream_max}
        reply = self.request(JOURNAL_STREAM, fields)
        seq = self._seq
        records = []
        last_seq = after
        pending = b""  # bytes after the last whole record
        file, offset = reply["first"], reply["offset"]  # where ``pending`` starts on the device
        durable = reply["durable"]
        part = 0
        while True:
            if reply["part"] != part:
                return records, durable, (file, offset), False  # a frame was lost
            if (reply["first"], reply["offset"]) != (file, offset + len(pending)):
                if pending or reply["offset"]:
                    return records, durable, (file, offset), False  # bytes were lost
                file, offset = reply["first"], 0  # the next file starts
            durable = reply["durable"]
            pending += bytes(reply["data"])
            whole = []
            used = _whole_records(pending, whole)
            if whole:
                last_seq = whole[-1][0]
                if on_records is None:
                    records.extend(whole)
                else:
                    on_records(whole, durable)
            pending = pending[used:]
            offset += used
            if reply["last"]:
                if reply["last"] == 2 and pending:
                    raise TransportError("journal record after %d from the device fails its check" % last_seq)
                return records, durable, (file, offset), reply["last"] == 2
            part += 1
            try:
                reply = self._await_reply(JOURNAL_STREAM, seq, self.timeout)
            except DeviceError:
                raise
            except TransportError:  # no frame in time, or the link dropped: the next request recovers
                return records, durable, (file, offset), False

    def journal_ack(self, seq):
        """Tell the device every record up to ``seq`` is stored on the host; returns its acked mark."""
        return self.request(JOURNAL_ACK, {"seq": seq})["acked"]

    # ----- game

    def game_start(self, ruleset, players):
        """Start a game of installed ruleset ``ruleset`` for ``players`` (names); returns the session number."""
        return self.request(GAME_START, {"ruleset": ruleset, "players": list(players)})["session"]

    def game_stop(self):
        self.request(GAME_STOP)

    def state(self):
        """The table's state snapshot (a dict; see the runtime for its fields)."""
        return json.loads(self.request(STATE)["snapshot"])

    # ----- tags (enrolment)

    def tag_scan(self, zone):
        """What the table last confirmed on ``zone``: ``[{uid, status, kind, set, item}]``
        (``status`` "" for a usable piece, else why not; ``kind`` 0 when it names none)."""
        return self.request(TAG_SCAN, {"zone": zone})["tags"]

    def tag_write(self, zone, uid, record):
        """Queue writing ``record`` (tagrecord.encode) into tag ``uid`` (hex) on ``zone``; the
        result arrives as a "tag write event" (zone, uid, failure)."""
        self.request(TAG_WRITE, {"zone": zone, "uid": uid, "record": record})

    def uid_put(self, uid, identity):
        """Enrol tag ``uid`` (hex) as ``identity`` (kind, set, item) in the table's UID table,
        or remove it when ``identity`` is None; returns the table's number of entries."""
        kind, set_id, item = identity if identity is not None else (0, 0, 0)
        return self.request(UID_PUT, {"uid": uid, "kind": kind, "set": set_id, "item": item})["entries"]
