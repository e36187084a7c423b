"""The MAX7219 chain's latches laid out as MicroPython viper code: machine code on an RP2040.

``max7219.fill_rows`` in bytecode took 1.7 ms of every 2.3 ms show on the chip (about
110 us a digit), and a show stands between a scoring play and its digits; this loop takes
a few microseconds. Only MicroPython with a native emitter compiles it; ``max7219.py``
imports it where it can and keeps its own version elsewhere (CPython, the WebAssembly
port, ``.mpy`` files compiled for another architecture). Both lay out the same bytes
(tests/drivers/test_max7219_native.py).
"""
import micropython


@micropython.viper
def fill_rows(rows, buffer, hidden, chip_order):
    """``max7219.fill_rows``: for each digit register 1..8 a latch of one frame per chip,
    the chip furthest from the Pico first, segments in chip order (0 where ``hidden``)."""
    out = ptr8(rows)
    digits = ptr8(buffer)
    dark = ptr8(hidden)
    order = ptr8(chip_order)
    width = int(len(rows)) >> 3
    offset = int(len(rows))
    while offset:
        offset -= 2
        index = ((width - (offset - (offset // width) * width)) // 2 - 1) * 8 + 7 - offset // width
        out[offset] = 1 + offset // width
        if dark[index]:
            out[offset + 1] = 0
        else:
            out[offset + 1] = order[digits[index]]
