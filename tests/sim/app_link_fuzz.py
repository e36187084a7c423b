"""Link fuzz against the whole firmware App (issue 18): its LinkServer with every handler the
App registers (game, clock, self test, tags), on the simulated board and a real rule store,
journal and UID table in a directory. ``tests/sim/test_app_link_fuzz.py`` runs a few thousand
frames, ``bench/app_link_fuzz.py`` a hundred thousand.

Each trial sends one frame: a request of any type (and some that are not requests) whose
payload is laid out right but holds hostile values, whose payload is random bytes, or a frame
damaged after encoding. Then: exactly one reply when the frame was whole, never an internal
error, and the App's state unchanged unless the reply said yes.
"""
import os
import random

from device import Hardware, Pieces
from tiletable import tagrecord
from tiletable.engine.rulesets import find_ruleset, preset_names
from tiletable.engine.tiles import parse_tile
from tiletable.proto.frame import MAX_ENCODED, MAX_PAYLOAD, FrameDecoder, encode_frame
from tiletable.proto.messages import (
    E_INTERNAL,
    ERROR,
    GAME_STOP,
    HELLO,
    JOURNAL_PULL,
    JOURNAL_STREAM,
    JOURNAL_SESSIONS,
    JOURNAL_STATUS,
    MESSAGES,
    RULESET_LIST,
    STATE,
    TAG_SCAN,
    decode_payload,
    encode_payload,
    is_request,
    message_schema,
)
from tiletable.runtime.app import assemble
from tiletable.runtime.rulestore import INDEX_FILE

STRS = [
    "", "muggins", "moon", "dasan", "columns", "toy", "x" * 24, "x" * 255, "Muggins", "../journal", "/", "\x00",
    "\u00e9t\u00e9", "\U0001f3b2", "ann", "04a1b2c3d4e5f6", "04A1B2C3D4E5F6", "04b10100000001", "04b10100000001" * 2, "zz", "0" * 16, "1-2", "\r\n>>> ",
]
INTS = {
    "u8": (0, 1, 2, 3, 4, 5, 8, 9, 0x7F, 0xFF),
    "u16": (0, 1, 2, 16, 255, 1020, 1024, 4096, 4097, 0xFFFF),
    "u32": (0, 1, 2, 5, 10, 40, 49, 50, 51, 1000, 1700000000, 0x7FFFFFFF, 0xFFFFFFFF),
    "i32": (0, 1, -1, -0x80000000, 0x7FFFFFFF),
}
# Values that make a request of that field likely to be valid half the time (the rest are hostile).
LIKELY = {
    "zone": (0,),
    "uid": ("04b10100000001",),
    "ruleset": ("muggins", "moon", "dasan", "columns"),
    "players": (["ann", "bob"], ["ann", "bob", "cy"], ["a", "b", "c", "d"]),
    "kind": (1, 2),
    "set": (1, 2),
    "item": (0, 5, 27),
    "run": (0, 1),
    "name": ("Table 3",),
    "record": (tagrecord.encode(tagrecord.KIND_TILE, 1, parse_tile("3-4")),),
}
READS = (HELLO, RULESET_LIST, JOURNAL_STATUS, JOURNAL_SESSIONS, JOURNAL_PULL, JOURNAL_STREAM, STATE, TAG_SCAN)
ALL_TYPES = [t for t in MESSAGES if is_request(t)] + [0x00, 0x10, 0x11, 0x3F, 0x40, 0x80, 0xFF]


class StoppedClock:
    """The App's ``ticks_ms``, standing still: nothing a request leaves alone may change on its
    own between two requests (the wall clock, the table's timers)."""

    def __init__(self, hardware):
        self.hardware = hardware
        self.now = 1000

    def __call__(self):
        self.hardware.advance(self.now)
        return self.now


class Sink:
    """The USB output: the fuzz reads replies from the server, not from here."""

    def write(self, data):
        return len(data)


def build_app(root):
    """The App on the simulated board, every preset installed and one game journalled."""
    os.makedirs(root + "/rulesets", exist_ok=True)
    for name in preset_names():
        with open(root + "/rulesets/%s.json" % name, "w") as f:
            f.write(find_ruleset(name).to_json())
    hardware = Hardware()
    clock = StoppedClock(hardware)
    instream = open(os.devnull, "rb")
    app = assemble(hardware.board, instream, Sink(), clock, root=root, unique_id=b"FUZZ\x00\x00\x00\x01")
    app.table.starter.start("muggins", ["ann", "bob"], clock())
    app.table.stop()
    app.journal.flush()
    blank = Pieces().tag("blank")  # a tag on zone 0 for TAG_SCAN, TAG_WRITE and UID_PUT to find
    hardware.readers[0].place(blank)
    while not app.tray.zones[0].present:
        clock.now += 1
        app.scan(clock())
    return app


def app_state(app, root):
    """Everything a request could change: files (rulesets, journal, UID table; not the rule
    store's index, which a list may write), the journal's counters, the table's snapshot, the wall clock, the self test, the
    maintenance flag, a tag write waiting. Not an upload in progress: one runs at a time, and
    any begin or commit ends the one before, refused or not (the host starts it again)."""
    journal = app.journal
    files = []
    for folder, _, names in os.walk(root):
        for name in names:
            if name.endswith(".tmp") or name == INDEX_FILE:
                continue  # an upload in progress (see fuzz()), or the rule store's cache of its validations
            path = os.path.join(folder, name)
            with open(path, "rb") as f:
                files.append((os.path.relpath(path, root), f.read()))
    files.sort()
    return (
        files,
        (journal.next_seq, journal.acked, journal.in_session, journal.total_bytes()),
        app.table.snapshot(),
        app.wall_clock.now_s(),
        app.selftest is None,
        app.server.maintenance_requested,
        app.tray.job is None,
    )


class Fuzzer:
    """Hostile frames for ``app``, the same ones for the same seed."""

    def __init__(self, seed):
        self.rng = random.Random(seed)

    def frame(self, seq):
        """``(wire bytes, whole, type)``: ``whole`` when the frame reaches the server intact."""
        rng = self.rng
        msg_type = rng.choice(ALL_TYPES)
        how = rng.random()
        if how < 0.6 and msg_type in MESSAGES:
            payload = encode_payload(msg_type, self._fields(message_schema(msg_type)[1]))
        elif how < 0.8:
            payload = bytes(rng.randrange(256) for _ in range(rng.choice((0, 1, 2, 4, 8, 40, 300))))
        else:
            wire = bytearray(encode_frame(msg_type, seq, self._payload(msg_type)))
            for _ in range(rng.randint(1, 3)):
                wire[rng.randrange(1, len(wire) - 1)] ^= 1 << rng.randrange(8)
            return bytes(wire), False, msg_type
        return encode_frame(msg_type, seq, payload[:MAX_PAYLOAD]), True, msg_type

    def _payload(self, msg_type):
        entry = message_schema(msg_type)
        return encode_payload(msg_type, self._fields(entry[1]))[:MAX_PAYLOAD] if entry else b""

    def _fields(self, schema):
        rng = self.rng
        fields = {}
        for name, kind in schema:
            if name in LIKELY and rng.random() < 0.5:
                fields[name] = rng.choice(LIKELY[name])
            elif isinstance(kind, tuple):
                fields[name] = [self._fields(kind) for _ in range(rng.choice((0, 1, 3)))]
            elif kind in INTS:
                fields[name] = rng.choice(INTS[kind]) if rng.random() < 0.8 else rng.randrange(1 << (8 * {"u8": 1, "u16": 2}.get(kind, 4)))
            elif kind == "strs":
                fields[name] = [rng.choice(STRS) for _ in range(rng.choice((0, 1, 2, 3, 5, 9)))]
            elif kind == "bytes":
                fields[name] = self._bytes()
            elif kind == "text":
                fields[name] = rng.choice(STRS) * rng.choice((1, 10))
            else:
                fields[name] = rng.choice(STRS)
        return fields

    def _bytes(self):
        rng = self.rng
        choice = rng.random()
        if choice < 0.15:  # a tag record's size
            return bytes(rng.randrange(256) for _ in range(16))
        if choice < 0.3:  # a tag record
            if rng.random() < 0.5:
                return tagrecord.encode(tagrecord.KIND_TILE, rng.randrange(1, 4), parse_tile(rng.choice(("0-0", "3-4", "9-9"))))
            return tagrecord.encode(tagrecord.KIND_CARD, rng.randrange(1, 4), rng.randrange(52))
        if choice < 0.6:  # a ruleset document, whole or a piece
            text = find_ruleset(rng.choice(preset_names())).to_json().encode()
            return text[: rng.choice((len(text), 10, 1020))]
        return bytes(rng.randrange(256) for _ in range(rng.choice((0, 1, 100, 1020))))


class Findings:
    COUNTS = (
        "frames", "accepted", "refused",
        "no_reply", "extra_replies", "internal_errors", "changed_on_error", "changed_by_a_read", "bad_reply",
    )

    def __init__(self):
        for name in self.COUNTS:
            setattr(self, name, 0)
        self.examples = []
        self.by_type = {}  # request type -> [accepted, refused]

    def bug(self, count, detail):
        setattr(self, count, getattr(self, count) + 1)
        if len(self.examples) < 10:
            self.examples.append((count, detail))

    def answered(self, msg_type, accepted):
        counts = self.by_type.setdefault(msg_type, [0, 0])
        counts[0 if accepted else 1] += 1
        if accepted:
            self.accepted += 1
        else:
            self.refused += 1

    def bugs(self):
        return sum(getattr(self, name) for name in self.COUNTS[3:])

    def summary(self):
        return ", ".join("%s %d" % (name, getattr(self, name)) for name in self.COUNTS)


def served(server, wire):
    """The reply frames to ``wire``, a commit's steps taken (as App.serve takes them)."""
    frames = server.receive(wire)
    while server.stepping is not None:
        reply = server.step()
        if reply is not None:
            frames.append(reply)
    return frames


def fuzz(root, count, seed):
    """Send ``count`` hostile frames to a fresh App in ``root``; returns the Findings."""
    app = build_app(root)
    fuzzer = Fuzzer(seed)
    replies = FrameDecoder()
    findings = Findings()
    before = app_state(app, root)
    idle_selftest = app.table.selftest_status
    for trial in range(count):
        seq = trial & 0xFFFF
        wire, whole, msg_type = fuzzer.frame(seq)
        findings.frames += 1
        out = served(app.server, wire)
        if app.server.stream is not None:  # a journal stream: its first frame answers, as the link makes it
            room = bytearray(MAX_ENCODED + 2)
            out.append(bytes(room[: app.server.stream.frame_into(room, 0)]))
        answers = [f for frame in out for f in replies.feed(frame)]
        after = app_state(app, root)
        if whole and len(answers) != 1:
            findings.bug("no_reply" if not answers else "extra_replies", (wire[:80], answers))
            continue
        if not answers:  # a damaged frame the decoder dropped
            if after != before:
                findings.bug("changed_on_error", ("dropped frame", wire[:80]))
            continue
        _, reply_type, reply_seq, payload = answers[0]
        try:
            fields = decode_payload(reply_type, payload)
        except ValueError as exc:
            findings.bug("bad_reply", (wire[:80], str(exc)))
            continue
        findings.answered(msg_type, reply_type != ERROR)
        if reply_type == ERROR:
            if fields["code"] == E_INTERNAL:
                findings.bug("internal_errors", fields["message"])
            if after != before:
                findings.bug("changed_on_error", (wire[:80], fields["message"]))
        elif msg_type in READS and after != before:
            findings.bug("changed_by_a_read", wire[:80])
        if app.server.maintenance_requested or app.journal.in_session or app.tray.job or app.selftest:  # undo a yes
            app.server.maintenance_requested = False
            app.tray.job = None
            app.selftest = None
            app.table.selftest_status = idle_selftest
            served(app.server, encode_frame(GAME_STOP, 0, b""))
            after = app_state(app, root)
        before = after
    app.journal.close()
    return findings

