"""The viper COBS encoder (proto/cobs_native.py) gives the bytes ``cobs_encode`` gives.

It runs only on MicroPython with a native emitter, so the check runs under the unix port with
the firmware's sources on the path (the unix port compiles the viper code for its own CPU; the
.mpy files in build/mpy are for the RP2040's and fall back to ``cobs_encode``)."""
from unix_port import needs_unix_port, run_on_unix_port

CHECK = r"""
import sys
sys.path.insert(0, "firmware")
import random
from tiletable.proto import frame
from tiletable.proto.frame import cobs_encode, cobs_decode_into, encode_frame
assert frame.cobs_encode_into is not None and frame.cobs_codes_in_place is not None, "the viper code did not load"

def native(data):
    out = bytearray(len(data) + len(data) // 254 + 2)
    return bytes(out[: frame.cobs_encode_into(data, len(data), out, 1)][1:])

def check(data):
    mine = native(data)
    assert mine == cobs_encode(data), (len(data), data[:8])
    buf = bytearray(mine)
    n = cobs_decode_into(buf, len(buf))
    assert bytes(buf[:n]) == data, len(data)
    wire = encode_frame(0x8A, 7, data[:1024])
    assert wire[0] == 0 and wire[-1] == 0 and 0 not in wire[1:-1]
    # in place: the same codes as the Python pass, or both refuse (a block over 254 bytes)
    native_buf = bytearray(b"\x00\x00" + data + b"\x00")
    python_buf = bytearray(native_buf)
    end = len(data) + 2
    got = frame.cobs_codes_in_place(2, native_buf, end)
    assert got == frame._codes_in_place(2, python_buf, end), len(data)
    if got == end:
        assert native_buf == python_buf and bytes(native_buf[1:end]) == mine, len(data)

count = 0
for data in (b"", b"\x00", b"\x00\x00", bytes(range(1, 255)), bytes(range(0, 255)), bytes(range(1, 256)),
             bytes(range(2, 256)) + b"\x00", bytes(254), b"\x01" * 508, b"\x01" * 509 + b"\x00"):
    check(data)
    count += 1
random.seed(14)
for trial in range(300):
    n = random.randrange(0, 1100)
    zeros = random.choice((0, 2, 5, 40, 1000))
    check(bytes(0 if random.randrange(1000) < zeros else random.randrange(1, 256) for _ in range(n)))
    count += 1
print("ok", count)
"""


@needs_unix_port
def test_viper_encoder_matches_cobs_encode():
    assert run_on_unix_port(CHECK) == "ok 310"


SEAL = r"""
import sys
sys.path.insert(0, "firmware")
sys.path.insert(0, "tests")
sys.path.insert(0, "tests/proto")
from tiletable.proto import frame
assert frame.cobs_codes_in_place is not None and frame.move_right is not None, "the viper code did not load"
import test_frame
test_frame.test_a_frame_sealed_in_place_is_the_frame_encode_frame_makes()
print("ok")
"""


@needs_unix_port
def test_frames_sealed_in_place_by_the_viper_pass_are_encode_frames():
    assert run_on_unix_port(SEAL) == "ok"
