"""Frames on the USB serial link: COBS-encoded, CRC-checked, delimited by 0x00.

A frame before encoding (little-endian)::

    offset  size  field
    0       1     protocol version (PROTOCOL_VERSION)
    1       1     message type (see messages.py)
    2       2     sequence number: a request's is echoed by its reply; events count on their own
    4       n     payload (0..MAX_PAYLOAD bytes, laid out per message type; a journal
                  stream reply's up to STREAM_PAYLOAD)
    4+n     4     CRC-32 (binascii.crc32) of bytes 0 .. 4+n

On the wire: ``00 COBS(frame) 00``. COBS (Cheshire & Baker, 1999) removes every 0x00 from the
frame, so a 0x00 always ends a frame: after garbage, REPL output, half a frame or a stray byte
the decoder is back in step at the next delimiter. The leading 0x00 ends whatever noise came
before, so a frame that follows garbage is not lost with it. Empty frames (two delimiters in a
row) are ignored.

Frames carry arbitrary bytes, 0x03 included, so the device must run the link with
``micropython.kbd_intr(-1)`` (otherwise 0x03 raises KeyboardInterrupt); the REPL stays
reachable through the MAINTENANCE request, which tells the main loop to restore Ctrl-C and
return to the REPL.
"""

import struct
import sys
from binascii import crc32

cobs_encode_into = None  # the viper encoder, where MicroPython can run it (proto/cobs_native.py)
cobs_codes_in_place = None  # and its in-place twin
move_right = None  # and the move that makes room for an encoding in place
if sys.implementation.name == "micropython":
    try:
        from tiletable.proto.cobs_native import cobs_codes_in_place, cobs_encode_into, move_right
    except (ImportError, SyntaxError, ValueError):  # no native emitter, or .mpy of another architecture
        pass

PROTOCOL_VERSION = 1
HEADER_SIZE = 4
CRC_SIZE = 4
MAX_PAYLOAD = 1024
MAX_FRAME = HEADER_SIZE + MAX_PAYLOAD + CRC_SIZE
MAX_ENCODED = MAX_FRAME + MAX_FRAME // 254 + 1  # COBS adds one byte per 254
# A journal stream reply (JOURNAL_STREAM) may carry up to STREAM_PAYLOAD: its frames are made
# in the link's queue and sealed in place, and besides 0.49 us a byte each costs the chip a
# fixed part (0.47 ms to make it, then its write and the loop's turn), so 4 KB frames streamed
# 330 KB/s on the chip where 1 KB ones streamed 168
STREAM_PAYLOAD = 4096
STREAM_FRAME = HEADER_SIZE + STREAM_PAYLOAD + CRC_SIZE
STREAM_ENCODED = STREAM_FRAME + STREAM_FRAME // 254 + 1


def cobs_encode(data):
    """COBS-encode ``data`` (bytes or bytearray): the result has no 0x00 byte and is at most
    len/254 + 1 longer. Runs between zeros are copied as slices, not byte by byte, which
    matters on an RP2040 (a 1 KB journal frame).

    Example: ``cobs_encode(b"\x11\x22\x00\x33") == b"\x03\x11\x22\x02\x33"``
    """
    n = len(data)
    out = bytearray(n + n // 254 + 1)
    w = 0
    pos = 0
    while True:
        zero = data.find(b"\x00", pos)
        stop = n if zero < 0 else zero
        full_block = False
        while stop - pos >= 254:  # a full block: code 0xFF, no zero implied after it
            out[w] = 0xFF
            out[w + 1 : w + 255] = data[pos : pos + 254]
            w += 255
            pos += 254
            full_block = True
        if zero < 0 and pos == n and full_block:
            break  # the data ended with a full block: no empty block follows
        size = stop - pos
        out[w] = size + 1
        out[w + 1 : w + 1 + size] = data[pos:stop]
        w += size + 1
        if zero < 0:
            break
        pos = zero + 1
    return bytes(out[:w])


def cobs_decode_into(buf, n):
    """Decode the COBS bytes ``buf[:n]`` in place; return the decoded length, or -1 when the
    bytes are not valid COBS (a zero code byte, or one pointing past the end)."""
    r = 0
    w = 0
    while r < n:
        code = buf[r]
        if code == 0:
            return -1
        end = r + code
        if end > n:
            return -1
        buf[w : w + code - 1] = buf[r + 1 : end]
        w += code - 1
        r = end
        if code != 0xFF and r < n:
            buf[w] = 0
            w += 1
    return w


def encode_frame(msg_type, seq, payload=b"", version=PROTOCOL_VERSION, crc=crc32):
    """The wire bytes of one frame, delimiters included; ``crc`` computes its CRC-32 (the
    simulated table passes one that charges the chip's time for it).

    :raises ValueError: for a payload over MAX_PAYLOAD bytes.
    """
    if len(payload) > MAX_PAYLOAD:
        raise ValueError("frame payload of %d bytes is over %d" % (len(payload), MAX_PAYLOAD))
    frame = bytearray(HEADER_SIZE + len(payload) + CRC_SIZE)
    struct.pack_into("<BBH", frame, 0, version, msg_type, seq & 0xFFFF)
    frame[HEADER_SIZE : HEADER_SIZE + len(payload)] = payload
    size = len(frame)
    wire = bytearray(size + size // 254 + 3)
    return bytes(memoryview(wire)[: seal_frame_into(frame, HEADER_SIZE + len(payload), wire, 0, crc)])


def seal_frame_into(frame, end, out, at, crc):
    """Finish the frame whose header and payload are ``frame[:end]`` and put it on the wire
    into ``out`` from ``at``: its CRC-32 goes after them (``frame`` has room for it), then it
    is COBS-encoded between two delimiters. ``out`` needs room for ``size + size // 254 + 3``
    bytes (``size`` = ``end`` + CRC). Returns the index after the closing delimiter."""
    struct.pack_into("<I", frame, end, crc(memoryview(frame)[:end]) & 0xFFFFFFFF)
    return _encode_into(frame, end + CRC_SIZE, out, at)


def seal_frame_in_place(out, at, end, crc=crc32):
    """Finish a frame made where it goes on the wire: its header and payload are
    ``out[at + 2 : end]`` (``out[at]`` will be the opening delimiter, ``out[at + 1]`` COBS's
    first code byte), its CRC-32 goes at ``end``. Returns the index after the closing
    delimiter. COBS stays in place, each zero turned into the distance to the next (4.5 times
    faster than ``cobs_encode_into`` on the chip: no byte moves), unless the frame has a run of
    254 bytes without a zero, whose encoding is longer: then the frame moves right by the most
    COBS can add (``out`` has room for ``size + size // 254 + 3`` bytes from ``at``, ``size``
    the frame's with its CRC) and is encoded forward over itself, each byte written at or
    before where it was read. No scratch buffer: the journal stream reads flash straight into
    the link's output queue and seals it there."""
    body = memoryview(out)[at + 2 : end + CRC_SIZE]
    struct.pack_into("<I", out, end, crc(body[: end - at - 2]) & 0xFFFFFFFF)
    out[at] = 0
    out[at + 1] = 0  # no code yet: where _undo_codes stops
    stop = end + CRC_SIZE
    out[stop] = 0
    if (cobs_codes_in_place or _codes_in_place)(at + 2, out, stop) == stop:
        return stop + 1
    _undo_codes(out, at + 1)
    size = stop - at - 2
    room = size // 254 + 1
    (move_right or _move_right)(out, at + 2, stop, room)
    return _encode_into(memoryview(out)[at + 2 + room :], size, out, at)


def _move_right(buf, start, end, by):
    """``cobs_native.move_right`` where there is no viper: the slice is copied first."""
    buf[start + by : end + by] = buf[start:end]


def _undo_codes(buf, code_at):
    """Turn the codes a failed in-place pass wrote from ``code_at`` back into the zeros they
    replaced: each names the next, up to the zero the pass stopped at."""
    step = buf[code_at]
    while step:
        code_at += step
        step = buf[code_at]
        buf[code_at] = 0


def _codes_in_place(start, buf, end):
    """COBS in place (as ``cobs_native.cobs_codes_in_place``): the code byte before
    ``buf[start:end]`` and every zero in them become the distance to the next zero or to
    ``end``; -1 (``buf`` left part done) when that distance is over 254."""
    code_at = start - 1
    while True:
        zero = buf.find(b"\x00", code_at + 1, end)
        if zero < 0:
            zero = end
        if zero - code_at > 254:
            return -1
        buf[code_at] = zero - code_at
        if zero == end:
            return end
        code_at = zero


def _encode_into(frame, size, out, at):
    """``frame[:size]`` COBS-encoded into ``out`` from ``at``, between two delimiters; the index after them."""
    out[at] = 0
    if cobs_encode_into is None:
        encoded = cobs_encode(bytes(frame[:size]))
        stop = at + 1 + len(encoded)
        out[at + 1 : stop] = encoded
    else:
        stop = cobs_encode_into(frame, size, out, at + 1)
    out[stop] = 0
    return stop + 1


class FrameDecoder:
    """Turns a byte stream cut into arbitrary chunks back into frames.

    ``feed(chunk)`` (bytes or bytearray) yields ``(version, msg_type, seq, payload)`` for each
    good frame that the chunk completes; ``payload`` is a memoryview into the decoder's buffer,
    valid until the generator resumes. Run the generator to its end: the bytes after an
    abandoned frame are not kept. Bad frames are dropped and counted: ``bad`` (COBS, length or CRC
    failure: noise, a torn frame) and ``oversized`` (over MAX_ENCODED bytes before a
    delimiter; the rest up to the next delimiter is skipped). ``good`` counts frames returned.
    ``crc`` computes the CRC-32 checked (``binascii.crc32``; see ``encode_frame``).
    """

    def __init__(self, max_encoded=MAX_ENCODED, crc=crc32):
        self._buf = bytearray(max_encoded)
        self._crc = crc
        self._used = 0
        self._skipping = False
        self.good = 0
        self.bad = 0
        self.oversized = 0

    def feed(self, data):
        pos = 0
        end = len(data)
        buf = self._buf
        while pos < end:
            stop = data.find(b"\x00", pos)
            last = stop < 0
            if last:
                stop = end
            count = stop - pos
            if not self._skipping:
                if self._used + count > len(buf):
                    self._skipping = True
                else:
                    buf[self._used : self._used + count] = data[pos:stop]
                    self._used += count
            if last:
                return
            pos = stop + 1
            if self._skipping:
                self.oversized += 1
            elif self._used:
                frame = self._finish()
                if frame is not None:
                    self._used = 0
                    yield frame
            self._used = 0
            self._skipping = False

    def _finish(self):
        n = cobs_decode_into(self._buf, self._used)
        if n < HEADER_SIZE + CRC_SIZE:
            self.bad += 1
            return None
        body = n - CRC_SIZE
        mv = memoryview(self._buf)
        if self._crc(mv[:body]) & 0xFFFFFFFF != struct.unpack_from("<I", self._buf, body)[0]:
            self.bad += 1
            return None
        version, msg_type, seq = struct.unpack_from("<BBH", self._buf, 0)
        self.good += 1
        return version, msg_type, seq, mv[HEADER_SIZE:body]
