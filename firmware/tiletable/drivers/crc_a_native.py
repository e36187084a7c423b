"""CRC_A (ISO/IEC 14443-3 Annex B) as MicroPython viper code: machine code on an RP2040.

A new tile costs CRC_A over 30 bytes (two SELECTs sent, the READ sent and its 16 bytes
checked): 1.3 ms in ``mfrc522.crc_a``'s bytecode on the chip, on the path from the tile
landing to its LED. This loop takes 15 us for 2 bytes and 25 us for 16.

Only MicroPython with a native emitter compiles it (the rp2 port, the unix port from source);
``mfrc522.py`` imports it where it can and keeps its table version elsewhere (CPython, the
WebAssembly port, ``.mpy`` files compiled for another architecture). Both give the same
values (tests/drivers/test_crc_a_native.py).
"""
import micropython


@micropython.viper
def crc_a(buf, start: int, n: int) -> int:
    """CRC_A over ``buf[start:start + n]`` (preset 0x6363), a byte at a time (Annex B's C code)."""
    data = ptr8(buf)
    crc = 0x6363
    end = start + n
    while start < end:
        x = (data[start] ^ crc) & 0xFF
        x = (x ^ (x << 4)) & 0xFF
        crc = (crc >> 8) ^ (x << 8) ^ (x << 3) ^ (x >> 4)
        start += 1
    return crc
