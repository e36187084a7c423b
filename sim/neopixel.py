"""Stand-in for MicroPython's built-in ``neopixel`` module that records every ``write()``.

Same API and byte layout as micropython-lib's ``neopixel.py`` (frozen into the rp2
firmware): ``NeoPixel(pin, n, bpp=3, timing=1)``, ``buf`` in GRB(W) order (``ORDER``),
``n``, ``len()``, ``[i]`` get/set, ``fill``, ``write``. Instead of clocking ``buf`` out
with ``machine.bitstream`` it keeps a copy per write, so tests read the colours the LEDs
received: ``frames[-1]``, ``colours()``.
"""


class NeoPixel:
    ORDER = (1, 0, 2, 3)

    def __init__(self, pin, n, bpp=3, timing=1):
        self.pin = pin
        self.n = n
        self.bpp = bpp
        self.timing = timing
        self.buf = bytearray(n * bpp)
        self.frames = []
        pin.init(pin.OUT)

    def __len__(self):
        return self.n

    def __setitem__(self, index, value):
        offset = index * self.bpp
        for i in range(self.bpp):
            self.buf[offset + self.ORDER[i]] = value[i]

    def __getitem__(self, index):
        offset = index * self.bpp
        return tuple(self.buf[offset + self.ORDER[i]] for i in range(self.bpp))

    def fill(self, value):
        for index in range(self.n):
            self[index] = value

    def write(self):
        self.frames.append(bytes(self.buf))

    def colours(self, frame=-1):
        """The (r, g, b[, w]) each LED received in a recorded write (the last by default)."""
        data = self.frames[frame]
        bpp = self.bpp
        return [tuple(data[index * bpp + self.ORDER[i]] for i in range(bpp)) for index in range(self.n)]
