"""A MAX7219 latch laid out as MicroPython viper code: machine code on an RP2040.

Reordering each digit's segment bits in bytecode took 1.7 ms of every 2.3 ms show on the
chip (about 110 us a digit), and a show stands between a scoring play and its digits.
Only MicroPython with a native emitter compiles this; ``max7219.py`` imports it where it
can and keeps its own ``fill_row`` elsewhere (CPython, the WebAssembly port, ``.mpy`` files
compiled for another architecture). Both lay out the same bytes
(tests/drivers/test_max7219_native.py).
"""
import micropython


@micropython.viper
def fill_row(frames, buffer, hidden, register: int):
    """``max7219.fill_row``: digit ``register`` for every chip, the furthest from the Pico
    first, segments in chip order (a = D6 .. g = D0, DP = D7; 0 where ``hidden``)."""
    out = ptr8(frames)
    digits = ptr8(buffer)
    dark = ptr8(hidden)
    index = 8 - register
    offset = int(len(frames))
    while offset:
        offset -= 2
        out[offset] = register
        chip = 0
        if not dark[index]:
            segments = digits[index]
            chip = segments & 0x80
            segment = 1
            bit = 0x40
            while segment < 0x80:
                if segments & segment:
                    chip |= bit
                segment <<= 1
                bit >>= 1
        out[offset + 1] = chip
        index += 8
