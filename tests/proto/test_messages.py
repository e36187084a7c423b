# portable
"""The message catalogue: every type round-trips; bad payloads name the field."""
from portable import raises

from tiletable.proto.frame import PROTOCOL_VERSION, FrameDecoder
from tiletable.proto.messages import (
    E_MALFORMED,
    E_UNKNOWN_TYPE,
    ERROR,
    EV_SCORE,
    GAME_START,
    HELLO,
    JOURNAL_ACK,
    JOURNAL_PULL,
    MESSAGES,
    REPLY,
    RULESET_LIST,
    RULESET_PUT_BEGIN,
    RULESET_PUT_CHUNK,
    ProtocolError,
    decode_payload,
    encode_message,
    encode_payload,
    is_event,
    is_request,
    message_schema,
)

SAMPLES = {
    "u8": 200,
    "u16": 60000,
    "u32": 4000000000,
    "i32": -5,
    "str": "h\u00e9llo 5-6>L",
    "text": '{"hands":[' + "1," * 200 + "2]}",
    "bytes": b"\x00\x03\xff\x00",
    "strs": ["ann", "b\u00f6b", ""],
}


def _sample(schema):
    fields = {}
    for name, kind in schema:
        if kind is None:  # the optional fields follow: sent too
            continue
        if isinstance(kind, tuple):
            fields[name] = [_sample(kind), _sample(kind)]
        else:
            fields[name] = SAMPLES[kind]
    return fields


def test_every_message_type_round_trips_through_a_frame():
    decoder = FrameDecoder()
    for msg_type in sorted(MESSAGES):
        fields = _sample(message_schema(msg_type)[1])
        frames = list(decoder.feed(encode_message(msg_type, 300 + msg_type, fields)))
        assert len(frames) == 1, msg_type
        version, got_type, seq, payload = frames[0]
        assert (version, got_type, seq) == (PROTOCOL_VERSION, msg_type, 300 + msg_type)
        assert decode_payload(got_type, payload) == fields, msg_type


def test_type_ranges():
    for msg_type in MESSAGES:
        if is_request(msg_type):
            assert msg_type | REPLY in MESSAGES, msg_type
        else:
            assert msg_type == ERROR or msg_type & REPLY or is_event(msg_type), msg_type


def test_truncated_or_padded_payloads_are_malformed_and_name_the_field():
    payload = encode_payload(RULESET_PUT_BEGIN, {"name": "muggins", "size": 300, "hash": "0123456789abcdef"})
    for cut in range(len(payload)):
        err = raises(ProtocolError, decode_payload, RULESET_PUT_BEGIN, payload[:cut])
        assert err.code == E_MALFORMED and "ruleset put begin: field" in err.message, cut
    err = raises(ProtocolError, decode_payload, RULESET_PUT_BEGIN, payload + b"\x00")
    assert "1 unexpected bytes" in err.message
    err = raises(ProtocolError, decode_payload, JOURNAL_PULL, b"\x01\x00")
    assert "'after' is cut short" in err.message


def test_text_must_be_utf8():
    err = raises(ProtocolError, decode_payload, RULESET_PUT_BEGIN, b"\x02\xff\xfe\x00\x01\x00")
    assert err.code == E_MALFORMED and "'name' is not UTF-8" in err.message


def test_unknown_type_is_reported():
    err = raises(ProtocolError, decode_payload, 0x3E, b"")
    assert err.code == E_UNKNOWN_TYPE and "0x3e" in err.message


def test_encoding_checks_the_fields_it_is_given():
    cases = [
        (RULESET_PUT_BEGIN, {"name": "x", "size": 70000, "hash": "h"}, "'size' must be a whole number in 0..65535"),
        (RULESET_PUT_BEGIN, {"name": "x", "hash": "h"}, "missing field 'size'"),
        (RULESET_PUT_BEGIN, {"name": "x" * 256, "size": 1, "hash": "h"}, "'name' is 256 bytes"),
        (RULESET_PUT_BEGIN, {"name": 5, "size": 1, "hash": "h"}, "'name' must be text"),
        (JOURNAL_ACK, {"seq": True}, "'seq' must be a whole number"),
        (EV_SCORE, {"seat": 1, "points": 10, "rule": "r"}, "'points' must be text"),  # a decimal: Buki's "37.5" chips
        (RULESET_LIST | REPLY, {"rulesets": [{"name": "a", "version": 1}]}, "missing field 'hash'"),
        (GAME_START, {"ruleset": "r", "players": ["p"] * 256}, "game start: field 'players' has 256 items, over 255"),
        (RULESET_PUT_CHUNK, {"offset": 0, "data": "text"}, "ruleset put chunk: field 'data' must be bytes (got 'str')"),
    ]
    for msg_type, fields, words in cases:
        err = raises(ValueError, encode_payload, msg_type, fields)
        assert words in str(err), (words, str(err))
    raises(ValueError, encode_payload, 0x3E, {})


def test_a_payload_may_end_before_the_fields_after_the_semicolon():
    old = {"proto": 1, "firmware": "0.3.0", "device": "tiletable-x", "boot": 2, "max_payload": 1024, "capabilities": ["journal"]}
    payload = encode_payload(HELLO | REPLY, old)  # to a host from before them, or from a device from before them
    assert decode_payload(HELLO | REPLY, payload) == old
    new = dict(old, journal="0123456789abcdef", name="Table 3")
    full = encode_payload(HELLO | REPLY, new)
    assert full.startswith(payload) and decode_payload(HELLO | REPLY, full) == new
    err = raises(ProtocolError, decode_payload, HELLO | REPLY, full[:-3])
    assert err.code == E_MALFORMED and "'name' is cut short" in err.message
    newer = dict(new, presets="4fab3570d623373c")  # revision 3's field
    fuller = encode_payload(HELLO | REPLY, newer)
    assert fuller.startswith(full) and decode_payload(HELLO | REPLY, fuller) == newer
    err = raises(ProtocolError, decode_payload, HELLO | REPLY, fuller + b"\x00")
    assert "1 unexpected bytes" in err.message
