"""The device end of the link, without I/O: bytes in, reply frames out.

``LinkServer`` decodes frames, answers the ruleset and journal requests itself and hands the
game requests (GAME_START, GAME_STOP, STATE, SET_CLOCK) to handlers the runtime registers,
so it runs and is tested without the engine, the USB port or a Pico. Every failure becomes
an ERROR reply carrying an ``E_*`` code and a sentence; nothing a host sends can raise out of
``receive``. Garbage is dropped by the frame decoder (see frame.py) and counted there.

A host that hears no reply in time sends the same request again (same type, sequence number
and payload), and on a slow link the retry may arrive while the first is still queued: the
repeat is answered with the reply the first one had, never run a second time. A HELLO starts a
host's session (its numbers start again), so it forgets that reply.

JOURNAL_STREAM is answered by a run of frames, not one: the request starts the run and the link
makes each frame (``stream.frame_into``) as its output queue has room for it. Any request ends
a run in progress; a repeated stream request starts it again from its own position.

A row of uploads (a sync) may keep the schema module its validations import (a line family's
parameters) until the row ends: the heap policy (tiletable/heap.py) decides, and is told the row
ended at the next request of another kind (or by the runtime's housekeeping when the link has
gone quiet), so that a game finds the heap as it was.

A request whose work is long (a ruleset upload's last chunk or deflated put, and its commit:
50-120 ms of an RP2040's time; a game start) is answered in steps when ``steps`` is on (the table's runtime):
its handler is a generator that yields None between pieces, then the reply's fields, and
``step()`` takes one piece at a time, so the table's loop runs in between. Frames that came in
the same read behind it are dropped (the host asks again); the runtime reads nothing more until
the reply is out.
"""

import gc
from binascii import crc32

from tiletable.engine.errors import RulesetError
from tiletable.proto.frame import MAX_FRAME, MAX_PAYLOAD, PROTOCOL_VERSION, FrameDecoder
from tiletable.proto.messages import (
    E_BAD_VALUE,
    E_INTERNAL,
    E_NO_MEMORY,
    E_NOT_FOUND,
    E_RULESET,
    E_SEQUENCE,
    E_STORAGE,
    E_UNKNOWN_TYPE,
    E_UNSUPPORTED,
    E_VERSION,
    ERROR,
    HELLO,
    JOURNAL_ACK,
    JOURNAL_PULL,
    JOURNAL_SESSIONS,
    JOURNAL_STATUS,
    JOURNAL_STREAM,
    MAINTENANCE,
    MESSAGES,
    REPLY,
    RULESET_LIST,
    RULESET_PUT_BEGIN,
    RULESET_PUT_CHUNK,
    RULESET_PUT_COMMIT,
    RULESET_PUT_DEFLATED,
    RULESET_REMOVE,
    RULESET_WBITS,
    SET_NAME,
    ProtocolError,
    decode_payload,
    encode_message,
    is_request,
    message_name,
)
from tiletable.heap import collects_when_full, forget_failed_imports, free_bytes, note_heap_ran_out
from tiletable.record import MAX_RECORD

_PULL_OVERHEAD = 6  # the pull reply's "last" (u32) and the records' length (u16)
_SESSION_ROW_MAX = 4 + 4 + 25 + 17 + 4 + 1 + 1  # a session row with a 24-character name
_RULESET_ROW_MAX = 25 + 2 + 17  # name (24 characters), version, hash (16 hex digits)
_UPLOADS = (RULESET_PUT_BEGIN, RULESET_PUT_CHUNK, RULESET_PUT_DEFLATED, RULESET_PUT_COMMIT)  # a row of them keeps modules
_COLLECT_UPLOADS = 4  # uploads validated between collections (one leaves about 15 KB of garbage)


class LinkServer:
    """Answers link requests for one device. ``collector`` makes its garbage collections
    (``gc``) and ``crc`` its frames' CRC-32 (``binascii.crc32``): the simulated table passes
    ones that charge the chip's time for them.

    Example::

        server = LinkServer(RuleStore("/rulesets"), Journal("/journal"), "0.3.0", "tiletable")
        server.register(GAME_START, start_game, "game")
        for frame in server.receive(usb_bytes):
            usb.write(frame)
    """

    def __init__(self, rulestore, journal, firmware, device, policy=None, collector=gc, crc=crc32):
        if policy is None:
            from tiletable.heap import build_policy

            policy = build_policy()
        self.policy = policy  # the heap policy (tiletable/heap.py): a row of uploads tells it
        self.rulestore = rulestore
        self.journal = journal
        self.firmware = firmware
        self.device = device
        self.gc = collector
        self.crc = crc
        self.decoder = FrameDecoder(crc=crc)
        self.maintenance_requested = False
        self.errors_sent = 0
        self.repeats_answered = 0
        self._last = None  # (type, seq, payload, reply) of the last request answered
        self.steps = False  # answer the requests in _stepped over several step() calls (module doc)
        self.stepping = None  # (type, seq, payload, generator) of the request in progress
        self._stepped = [RULESET_LIST, RULESET_PUT_CHUNK, RULESET_PUT_COMMIT, RULESET_PUT_DEFLATED]  # their handlers are generators
        self._upload = None
        self._validations = 0  # uploads validated (see _validate)
        self._event_seq = 0
        self._pull_buf = None  # a pull reply's records: one request is answered at a time
        self.stream = None  # the journal stream in progress (proto/stream.py), or None
        self._request_seq = 0
        self._host_revision = 1  # HELLO's proto: 2 reads the fields after ";" (messages.py)
        self._capabilities = ["journal", "journal-stream", "maintenance", "name", "rulesets"]
        self._handlers = {
            HELLO: self._hello,
            RULESET_LIST: self._ruleset_list,
            RULESET_PUT_BEGIN: self._ruleset_put_begin,
            RULESET_PUT_CHUNK: self._ruleset_put_chunk,
            RULESET_PUT_COMMIT: self._ruleset_put_commit,
            RULESET_REMOVE: self._ruleset_remove,
            JOURNAL_STATUS: self._journal_status,
            JOURNAL_SESSIONS: self._journal_sessions,
            JOURNAL_PULL: self._journal_pull,
            JOURNAL_STREAM: self._journal_stream,
            JOURNAL_ACK: self._journal_ack,
            MAINTENANCE: self._maintenance,
            SET_NAME: self._set_name,
        }
        if rulestore.inflates:  # MicroPython's deflate module (or the simulation's shim) is there
            self._handlers[RULESET_PUT_DEFLATED] = self._ruleset_put_deflated
            self._capabilities.append("ruleset-deflate")
            self._capabilities.sort()

    def register(self, msg_type, handler, capability, stepped=False):
        """Have ``handler(fields) -> reply fields`` answer request ``msg_type``; ``capability``
        is announced in the HELLO reply. A handler reports refusals by raising ProtocolError.
        ``stepped``: the handler is a generator (see the module doc)."""
        if not is_request(msg_type) or msg_type not in MESSAGES:
            raise ValueError("0x%02x is not a request type" % msg_type)
        self._handlers[msg_type] = handler
        if stepped:
            self._stepped.append(msg_type)
        if capability not in self._capabilities:
            self._capabilities.append(capability)
            self._capabilities.sort()

    def receive(self, chunk):
        """Feed bytes from the host (any cut); return the reply frames to send, in order."""
        replies = []
        for version, msg_type, seq, payload in self.decoder.feed(chunk):
            if self.stepping is None:
                reply = self._answer(version, msg_type, seq, bytes(payload))
                if reply is not None:  # None: a stream started (the link makes its frames), or steps
                    replies.append(reply)
        return replies

    def step(self):
        """The next piece of the request answered in steps: its reply frame once done, else None."""
        msg_type, seq, payload, _ = self.stepping
        reply = self.handle(PROTOCOL_VERSION, msg_type, seq, payload)
        if reply is not None:
            self.stepping = None
            self._last = (msg_type, seq, payload, reply)
        return reply

    def _answer(self, version, msg_type, seq, payload):
        forget_failed_imports()  # of a request that ran out of heap: its frames are gone now
        self._end_stream()  # any request ends a stream in progress
        last = self._last
        if msg_type != HELLO and last is not None and last[0] == msg_type and last[1] == seq and last[2] == payload:
            self.repeats_answered += 1
            return last[3]
        # A host repeats only the request it heard no reply to: once another comes, the reply
        # kept for a repeat is garbage, and a request answered in steps (a game start) has its
        # room (a sync's last page held a stock build's Muggins start 192 bytes short)
        self._last = last = None
        reply = self.handle(version, msg_type, seq, payload)
        if reply is not None:
            self._last = None if msg_type == HELLO else (msg_type, seq, payload, reply)
        return reply

    def handle(self, version, msg_type, seq, payload):
        """The reply frame to one decoded request frame (never raises); None when it started a
        journal stream (the link makes its frames), or while it is answered in steps
        (``stepping``: ``step()`` goes on with it)."""
        try:
            if self.stepping is not None:
                return self._reply(msg_type, seq, next(self.stepping[3]))
            self._end_stream()
            if msg_type not in _UPLOADS:
                self.policy.end_uploads()
            self._request_seq = seq
            if version != PROTOCOL_VERSION:
                raise ProtocolError(E_VERSION, "protocol version %d, this device speaks %d" % (version, PROTOCOL_VERSION))
            if not is_request(msg_type) or msg_type not in MESSAGES:
                raise ProtocolError(E_UNKNOWN_TYPE, "0x%02x is not a request" % msg_type)
            handler = self._handlers.get(msg_type)
            if handler is None:
                raise ProtocolError(E_UNSUPPORTED, "%s is not available on this device" % message_name(msg_type))
            fields = handler(decode_payload(msg_type, payload))
            if msg_type in self._stepped:  # a generator (see the module doc)
                work = fields
                for fields in work:
                    if fields is not None or self.steps:
                        break
                if fields is None:
                    self.stepping = (msg_type, seq, payload, work)
            return self._reply(msg_type, seq, fields)
        except ProtocolError as exc:
            return self._error(exc.code, msg_type, seq, exc.message)
        except RulesetError as exc:
            return self._error(E_RULESET, msg_type, seq, str(exc))
        except OSError as exc:
            return self._error(E_STORAGE, msg_type, seq, "%s: %r" % (message_name(msg_type), exc))
        except MemoryError:  # not a bug: the heap is full; the table carries on
            note_heap_ran_out()
            free = free_bytes()
            return self._error(E_NO_MEMORY, msg_type, seq, "%s: not enough memory (%d bytes free)" % (message_name(msg_type), free))
        except Exception as exc:  # a bug must not stop the table: report it and carry on
            return self._error(E_INTERNAL, msg_type, seq, "%s: %r" % (message_name(msg_type), exc))

    def _reply(self, msg_type, seq, fields):
        return None if fields is None else encode_message(msg_type | REPLY, seq, fields, self.crc)

    def _error(self, code, msg_type, seq, message):
        self.errors_sent += 1
        while len(message.encode()) > 255:  # a "str" field holds 255 bytes of UTF-8
            message = message[:-16]
        return encode_message(ERROR, seq, {"code": code, "request": msg_type & 0xFF, "message": message}, self.crc)

    def event(self, msg_type, fields):
        """The frame of an unsolicited event (EV_*), numbered by the server's own counter."""
        self._event_seq = (self._event_seq + 1) & 0xFFFF
        return encode_message(msg_type, self._event_seq, fields, self.crc)

    # ----- requests

    def _hello(self, fields):
        self._host_revision = fields["proto"]
        reply = {
            "proto": PROTOCOL_VERSION,
            "firmware": self.firmware,
            "device": self.device,
            "boot": self.journal.boot,
            "max_payload": MAX_PAYLOAD,
            "capabilities": self._capabilities,
        }
        if self._host_revision > 1:  # a host from before them would not decode the reply
            reply["journal"] = self.journal.identity
            reply["name"] = self.journal.name
        if self._host_revision > 2:
            # the digest of every preset the firmware carries, as tiletable_host.sync's
            # presets_digest makes it (a test holds them equal): a literal, as a global took a
            # stock build's Buki start past what its heap has room for
            reply["presets"] = "4fab3570d623373c"
        return reply

    def _set_name(self, fields):
        try:
            self.journal.set_name(fields["name"])
        except ValueError as exc:
            raise ProtocolError(E_BAD_VALUE, str(exc))
        return {}

    def _ruleset_list(self, fields):
        """One page: the rulesets after ``after`` (by name) that fit in a frame. The first page
        begins a sync: the heap is collected first, in a step of its own (see ``_validate``;
        not where collections come by bytes allocated: tiletable/heap.py), then the ruleset
        store's index is brought up to date in another (saving it after a sync's uploads took
        46 ms on the chip)."""
        after = fields["after"]
        if not after:
            self._validations = 0
            if collects_when_full():
                self.gc.collect()
            yield None
            self.rulestore.refresh()
            yield None
        rows = []
        more = 0
        for name, version, content_hash in self.rulestore.list():
            if name <= after:
                continue
            if len(rows) == 255 or 2 + (len(rows) + 1) * _RULESET_ROW_MAX > MAX_PAYLOAD:
                more = 1
                break
            rows.append({"name": name, "version": version, "hash": content_hash})
        yield {"rulesets": rows, "more": more}

    def _ruleset_put_begin(self, fields):
        self._abort_upload()
        try:
            self._upload = self.rulestore.begin_put(fields["name"], fields["size"], fields["hash"])
        except ValueError as exc:
            raise ProtocolError(E_BAD_VALUE, str(exc))
        return {}

    def _ruleset_put_chunk(self, fields):
        upload = self._upload
        if upload is None:
            raise ProtocolError(E_SEQUENCE, "ruleset chunk without a put begin")
        try:
            received = upload.write(fields["offset"], fields["data"])
        except ValueError as exc:
            raise ProtocolError(E_SEQUENCE, str(exc))
        if received == upload.size:
            yield from self._validate(upload)
        yield {"received": received}

    def _ruleset_put_deflated(self, fields):
        """A put begin and all its chunks in one request (messages.py): the document deflated."""
        self._ruleset_put_begin(fields)
        upload = self._upload
        try:
            received = upload.inflate(fields["data"], RULESET_WBITS)
        except ValueError as exc:
            self._abort_upload()
            raise ProtocolError(E_BAD_VALUE, str(exc))
        yield from self._validate(upload)
        yield {"received": received}

    def _validate(self, upload):
        """The validation of a complete upload (Upload.check), a step of its own, and every
        ``_COLLECT_UPLOADS`` uploads since a sync's first list a garbage collection before it:
        on a frozen build the heap is collected only when it is full, and a sync of the presets
        filled it about once, in whichever reply ran then (a validation held the loop 50 ms;
        the first put, after a heap the table had filled, took 101 ms to answer). A collection
        at every upload cost the sync 0.3 s. Where collections come by bytes allocated (copied
        .mpy files: the heap policy's ``keep_uploads``), they would only add to those."""
        yield None
        self._validations += 1
        if self._validations % _COLLECT_UPLOADS == 0 and collects_when_full():
            self.gc.collect()
            yield None
        self.policy.keep_uploads()
        upload.check(keep_schema=True)

    def _ruleset_put_commit(self, fields):
        upload = self._upload
        if upload is None:
            raise ProtocolError(E_SEQUENCE, "ruleset commit without a put begin")
        self._upload = None
        try:
            for ruleset in upload.commit_steps():
                if ruleset is None:
                    yield None
        except RulesetError:  # a ValueError too, but it gets its own code in handle()
            raise
        except ValueError as exc:
            raise ProtocolError(E_SEQUENCE, str(exc))
        yield {"name": ruleset.name, "version": ruleset.version, "hash": ruleset.hash}

    def _abort_upload(self):
        if self._upload is not None:
            self._upload.abort()
            self._upload = None

    def _ruleset_remove(self, fields):
        try:
            self.rulestore.remove(fields["name"])
        except KeyError:
            raise ProtocolError(E_NOT_FOUND, "no ruleset %r installed" % fields["name"])
        return {}

    def _journal_status(self, fields):
        journal = self.journal
        reply = {
            "first": journal.first_seq(),
            "last": journal.next_seq - 1,
            "acked": journal.acked,
            "boot": journal.boot,
            "bytes": journal.total_bytes(),
            "max_bytes": journal.max_bytes,
            "full": 1 if journal.is_full else 0,
            "dropped": journal.dropped,
        }
        if self._host_revision > 1:  # a host from before it would not decode the reply (messages.py)
            reply["journal"] = journal.identity
        return reply

    def _journal_sessions(self, fields):
        rows = []
        for session in self.journal.sessions(fields["after"]):
            if len(rows) == 255 or 1 + (len(rows) + 1) * _SESSION_ROW_MAX > MAX_PAYLOAD:
                break
            header = session["header"] or {}
            rows.append(
                {
                    "first": session["first"],
                    "last": session["last"],
                    "ruleset": str(header.get("ruleset", "?"))[:24],
                    "hash": str(header.get("hash", ""))[:16],
                    "boot": header.get("boot", 0),
                    "ended": 1 if session["ended"] else 0,
                    "acked": 1 if session["acked"] else 0,
                }
            )
        return {"sessions": rows}

    def _journal_pull(self, fields):
        limit = min(fields["max"], MAX_PAYLOAD - _PULL_OVERHEAD)
        if limit < MAX_RECORD:
            raise ProtocolError(E_BAD_VALUE, "pull max %d is under one record (%d)" % (fields["max"], MAX_RECORD))
        if self._pull_buf is None:  # made on the first pull: the boot's heap is the first game's
            self._pull_buf = memoryview(bytearray(MAX_FRAME))
        used = self.journal.read_since(fields["after"], self._pull_buf[:limit])
        return {"durable": self.journal.durable_seq, "records": self._pull_buf[:used]}

    def _journal_stream(self, fields):
        """Start a run of journal frames (see messages.py); the link makes them with
        ``stream.frame_into`` as its queue has room, and drops the stream once ``done``."""
        from tiletable.proto.stream import JournalStream  # on the first stream: not in the boot's heap

        self.stream = JournalStream(self.journal, self._request_seq, fields, self.crc)
        return None

    def _end_stream(self):
        if self.stream is not None:
            self.stream.close()
            self.stream = None

    def _journal_ack(self, fields):
        try:
            return {"acked": self.journal.acknowledge(fields["seq"])}
        except ValueError as exc:  # the journal's JournalError: a record not yet on flash
            raise ProtocolError(E_BAD_VALUE, str(exc))

    def _maintenance(self, fields):
        self.maintenance_requested = True
        return {}
