"""The viper CRC_A (drivers/crc_a_native.py) is the one the MFRC522 driver uses on MicroPython,
and gives the values of CRC_A computed bit by bit.

It runs only on MicroPython with a native emitter, so the check runs under the unix port with
the firmware's sources on the path (the unix port compiles the viper code for its own CPU)."""
from unix_port import needs_unix_port, run_on_unix_port

CHECK = r"""
import sys
sys.path.insert(0, "firmware")
import random
from tiletable.drivers import crc_a_native, mfrc522
assert mfrc522.crc_a is crc_a_native.crc_a, "the driver did not take the viper CRC_A"

def bitwise(data):
    crc = 0x6363
    for b in data:
        crc ^= b
        for _ in range(8):
            crc = (crc >> 1) ^ 0x8408 if crc & 1 else crc >> 1
    return crc

assert mfrc522.crc_a(b"\x50\x00", 0, 2) == 0xCD57  # HLTA 50 00 57 CD
assert mfrc522.crc_a(b"\x30\x04", 0, 2) == 0xEE26  # READ page 4: 30 04 26 EE
random.seed(14)
count = 0
for trial in range(300):
    data = bytearray(random.randrange(256) for _ in range(random.randrange(0, 20)))
    start = random.randrange(0, len(data) + 1)
    n = len(data) - start
    assert mfrc522.crc_a(data, start, n) == bitwise(data[start:]), (data, start)
    count += 1
print("ok", count)
"""


@needs_unix_port
def test_the_driver_uses_the_viper_crc_a_and_it_matches_crc_a_bit_by_bit():
    assert run_on_unix_port(CHECK) == "ok 300"
