"""Damaged frames into the link dispatcher, 10,000 (100,000 under ``make soak``) (CPython;
test_frame.py has a portable version).

Every damaged frame is a copy of a request that would change the device (remove a ruleset,
acknowledge the journal, enter maintenance) after a bit flip, a cut, or replaced by noise. Each
is followed by one good read-only request, which must be answered: the link is back in step
within one frame. At the end nothing on the device has changed.
"""
import os
import random

from runtime import toy_family
from runtime.scratch import fresh_dir
from soak import size

from tiletable.proto.frame import MAX_ENCODED, FrameDecoder, encode_frame
from tiletable.proto.messages import (
    ERROR,
    JOURNAL_ACK,
    JOURNAL_STATUS,
    MAINTENANCE,
    MESSAGES,
    REPLY,
    RULESET_PUT_BEGIN,
    RULESET_REMOVE,
    decode_payload,
    encode_message,
    is_request,
)
from tiletable.proto.server import LinkServer
from tiletable.runtime.journal import Journal
from tiletable.runtime.rulestore import RuleStore

TRIALS = size(10_000, 100_000)
NONSENSE = size(5_000, 20_000)


def _server():
    root = fresh_dir("fuzz")
    store = RuleStore(root + "/rulesets")
    data, content_hash = toy_family.document()
    store.put(data, content_hash)
    journal = Journal(root + "/journal")
    journal.start_session("toy", content_hash, ["ann", "bob"], "0.3.0")
    for i in range(50):
        journal.log_action("%d-%d" % (i % 7, i % 5))
    journal.end_session({"reason": "over"})
    return root, LinkServer(store, journal, "0.3.0", "fuzz")


def _device_state(root, server):
    journal = server.journal
    rulesets = server.rulestore.list()  # first: a list writes the index a change left pending
    files = sorted(os.listdir(root + "/rulesets")) + sorted(os.listdir(root + "/journal"))
    return (
        rulesets,
        files,
        journal.next_seq,
        journal.acked,
        journal.durable_seq,
        journal.total_bytes(),
        server.maintenance_requested,
        server._upload is None,
    )


def _damage(rng, frame):
    kind = rng.randrange(5)
    if kind == 0:  # one to three different bits flipped
        data = bytearray(frame)
        for bit in rng.sample(range((len(data) - 2) * 8), rng.randrange(1, 4)):
            data[1 + bit // 8] ^= 1 << (bit % 8)
        return bytes(data)
    if kind == 1:  # cut short: the rest never arrives
        return frame[: rng.randrange(1, len(frame) - 1)]
    if kind == 2:  # line noise, stray Ctrl-C included
        return bytes(rng.choice((3, 0, rng.randrange(256))) for _ in range(rng.randrange(1, 50)))
    if kind == 3:  # REPL chatter
        return rng.choice((b"\r\n>>> ", b"MicroPython v1.26 on 2025-08-09; Raspberry Pi Pico\r\n", b"\x03\x03\r\x01raw REPL; CTRL-B to exit\r\n>"))
    return bytes(rng.randrange(1, 256) for _ in range(MAX_ENCODED + rng.randrange(1, 300)))  # oversized


@toy_family.with_toy_family
def test_damaged_frames_change_nothing_and_the_next_frame_is_answered():
    rng = random.Random(2026)
    root, server = _server()
    before = _device_state(root, server)
    dangerous = [
        encode_message(RULESET_REMOVE, 1, {"name": "toy"}),
        encode_message(JOURNAL_ACK, 2, {"seq": 40}),
        encode_message(MAINTENANCE, 3),
        encode_message(RULESET_PUT_BEGIN, 4, {"name": "toy", "size": 10, "hash": "0" * 16}),
    ]
    replies = FrameDecoder()
    for trial in range(TRIALS):
        damaged = _damage(rng, rng.choice(dangerous))
        marker = encode_message(JOURNAL_STATUS, trial & 0xFFFF)
        answers = [f for out in server.receive(damaged + marker) for f in replies.feed(out)]
        assert len(answers) == 1, (trial, damaged)
        _, msg_type, seq, payload = answers[0]
        assert (msg_type, seq) == (JOURNAL_STATUS | REPLY, trial & 0xFFFF), (trial, damaged)
    assert _device_state(root, server) == before
    decoder = server.decoder
    assert decoder.good == TRIALS and decoder.bad + decoder.oversized > TRIALS // 2
    assert server.errors_sent == 0


@toy_family.with_toy_family
def test_well_framed_nonsense_always_gets_one_reply():
    rng = random.Random(7)
    root, server = _server()
    requests = [t for t in MESSAGES if is_request(t)] + [0x00, 0x3E, 0x40, 0x80, 0xFF]
    replies = FrameDecoder()
    for trial in range(NONSENSE):
        msg_type = rng.choice(requests)
        payload = bytes(rng.randrange(256) for _ in range(rng.randrange(0, 12)))
        answers = [f for out in server.receive(encode_frame(msg_type, trial, payload)) for f in replies.feed(out)]
        assert len(answers) == 1, (trial, msg_type, payload)
        _, reply_type, seq, reply = answers[0]
        assert seq == trial & 0xFFFF and reply_type in (msg_type | REPLY, ERROR), (trial, msg_type, payload)
        decode_payload(reply_type, reply)
    assert server.errors_sent > NONSENSE // 2
