# portable
"""Framing: COBS vectors, frame round trips, and a decoder that resynchronises after anything."""
import struct

from portable import raises

from tiletable.proto.frame import (
    CRC_SIZE,
    HEADER_SIZE,
    MAX_ENCODED,
    MAX_PAYLOAD,
    PROTOCOL_VERSION,
    FrameDecoder,
    cobs_decode_into,
    cobs_encode,
    encode_frame,
    seal_frame_in_place,
)


def _seq(first, last):
    return bytes(range(first, last + 1))


# Wikipedia's "Consistent Overhead Byte Stuffing" examples 1-11.
COBS_VECTORS = [
    (b"\x00", b"\x01\x01"),
    (b"\x00\x00", b"\x01\x01\x01"),
    (b"\x00\x11\x00", b"\x01\x02\x11\x01"),
    (b"\x11\x22\x00\x33", b"\x03\x11\x22\x02\x33"),
    (b"\x11\x22\x33\x44", b"\x05\x11\x22\x33\x44"),
    (b"\x11\x00\x00\x00", b"\x02\x11\x01\x01\x01"),
    (_seq(1, 254), b"\xff" + _seq(1, 254)),
    (_seq(0, 254), b"\x01\xff" + _seq(1, 254)),
    (_seq(1, 255), b"\xff" + _seq(1, 254) + b"\x02\xff"),
    (_seq(2, 255) + b"\x00", b"\xff" + _seq(2, 255) + b"\x01\x01"),
    (_seq(3, 255) + b"\x00\x01", b"\xfe" + _seq(3, 255) + b"\x02\x01"),
]


def test_cobs_vectors_encode_and_decode():
    for plain, encoded in COBS_VECTORS:
        assert cobs_encode(plain) == encoded, plain[:4]
        buf = bytearray(encoded)
        n = cobs_decode_into(buf, len(buf))
        assert bytes(buf[:n]) == plain, plain[:4]


def test_cobs_rejects_bad_input():
    assert cobs_decode_into(bytearray(b"\x05\x11\x22"), 3) == -1  # block runs past the end
    assert cobs_decode_into(bytearray(b"\x01\x00\x01"), 3) == -1  # a zero code byte


def _frames(decoder, data):
    return [(v, t, s, bytes(p)) for v, t, s, p in decoder.feed(data)]


def test_frame_round_trip_in_any_chunking():
    payloads = [b"", b"\x00", b"\x03\x03\x00\xff" * 50, bytes(range(256)) * 4]
    wire = b"".join(encode_frame(0x10 + i, 65535 - i, p) for i, p in enumerate(payloads))
    expected = [(PROTOCOL_VERSION, 0x10 + i, 65535 - i, p) for i, p in enumerate(payloads)]
    for size in (1, 2, 7, 64, len(wire)):
        decoder = FrameDecoder()
        got = []
        for i in range(0, len(wire), size):
            got.extend(_frames(decoder, wire[i : i + size]))
        assert got == expected, size
        assert decoder.good == len(payloads) and decoder.bad == 0


def test_frame_size_limit():
    encode_frame(1, 1, bytes(MAX_PAYLOAD))
    err = raises(ValueError, encode_frame, 1, 1, bytes(MAX_PAYLOAD + 1))
    assert str(MAX_PAYLOAD) in str(err)
    assert len(encode_frame(1, 1, b"\xff" * MAX_PAYLOAD)) <= MAX_ENCODED + 2


def _sealed_in_place(payload, msg_type=0x96, seq=300):
    """The wire bytes ``seal_frame_in_place`` makes of a frame written into a buffer of junk,
    which it may use up to the room it asks for (the frame's size with its CRC, its longest
    COBS encoding and two delimiters) and no further."""
    at = 5
    out = bytearray(b"\xee" * (at + MAX_ENCODED + 8))
    body = at + 2
    struct.pack_into("<BBH", out, body, PROTOCOL_VERSION, msg_type, seq)
    end = body + HEADER_SIZE + len(payload)
    out[body + HEADER_SIZE : end] = payload
    size = HEADER_SIZE + len(payload) + CRC_SIZE
    room = at + size + size // 254 + 3
    stop = seal_frame_in_place(out, at, end)
    assert stop <= room and out[:at] == b"\xee" * at and out[room:] == b"\xee" * (len(out) - room), "bytes outside the frame's room changed"
    return bytes(out[at:stop])


def test_a_frame_sealed_in_place_is_the_frame_encode_frame_makes():
    journal_like = bytes((0 if i % 5 == 3 else 1 + (i * 37) % 255) for i in range(MAX_PAYLOAD))
    payloads = [b"", b"\x00", b"\x00" * 40, journal_like, bytes(range(256)) * 4, b"\xff" * MAX_PAYLOAD]
    # runs without a zero around COBS's longest block (254 bytes), at the start, middle and end
    for run in (250, 251, 252, 253, 254, 255, 256, 600):
        payloads += [b"\x07" * run, b"\x00" + b"\x07" * run + b"\x00" + journal_like[:100], journal_like[:300] + b"\x07" * run]
    state = 99
    for trial in range(40):
        size = state % (MAX_PAYLOAD + 1)
        state = _lcg(state)
        zeros = (1, 3, 40, 300, 1000)[trial % 5]
        payload = bytearray(size)
        for i in range(size):
            state = _lcg(state)
            payload[i] = 0 if state % 1000 < zeros else 1 + state % 255
        payloads.append(bytes(payload))
    for payload in payloads:
        assert _sealed_in_place(payload) == encode_frame(0x96, 300, payload), (len(payload), payload[:6])
    assert len(_sealed_in_place(b"\xff" * MAX_PAYLOAD)) <= MAX_ENCODED + 2  # the room the link keeps for a frame


def test_decoder_resynchronises_after_noise():
    good = encode_frame(0x01, 7, b"hello")
    noises = [
        b"Traceback (most recent call last):\r\n>>> ",  # REPL output
        b"\x03",  # a stray Ctrl-C
        good[: len(good) // 2],  # half a frame
        good[2:-1],  # the end of a frame whose start was lost
        b"\x00\x00\x00",  # empty frames are not errors
        bytes(range(1, 256)) * 5,  # over the size limit
    ]
    for noise in noises:
        decoder = FrameDecoder()
        assert _frames(decoder, noise + good) == [(PROTOCOL_VERSION, 1, 7, b"hello")], noise[:8]


def test_bad_and_oversized_frames_are_counted():
    good = encode_frame(0x02, 1, b"x")
    flipped = bytearray(good)
    flipped[3] ^= 0x10
    decoder = FrameDecoder()
    frames = _frames(decoder, bytes(flipped) + b"\x00" + b"\x01" * (MAX_ENCODED + 1) + b"\x00" + good)
    assert len(frames) == 1 and decoder.bad == 1 and decoder.oversized == 1 and decoder.good == 1


def _lcg(state):
    return (state * 1103515245 + 12345) & 0x7FFFFFFF


def test_portable_fuzz_every_corruption_is_dropped_and_the_next_frame_decodes():
    decoder = FrameDecoder()
    state = 12345
    for trial in range(1500):
        state = _lcg(state)
        payload = bytes((state >> k) & 0xFF for k in range(state % 24))
        frame = bytearray(encode_frame(0x05, trial, payload))
        kind = trial % 3
        if kind == 0:  # bit flip anywhere inside the frame
            bit = state % ((len(frame) - 2) * 8)
            frame[1 + bit // 8] ^= 1 << (bit % 8)
        elif kind == 1:  # truncated: at least the last encoded byte is missing
            frame = frame[: 1 + state % (len(frame) - 2)]
        else:  # garbage
            frame = bytearray((state >> (i % 23)) & 0xFF for i in range(state % 60))
        marker = encode_frame(0x06, trial, b"ok")
        got = _frames(decoder, bytes(frame) + marker)
        assert got == [(PROTOCOL_VERSION, 0x06, trial, b"ok")], trial
