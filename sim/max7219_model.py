"""A chain of MAX7219 chips at the wire: decodes SPI frames into what each module shows.

Attach with ``spi.attach(chain, load, shifts_always=True)``. Bytes shift through the chain
like the chips' 16-bit shift registers (DIN -> DOUT, the first frame sent ends in the furthest
chip) on every clock, LOAD high or low, as on the chips (the reference board shares SCK and MOSI
with the readers); on LOAD rising every chip latches the frame it holds, whatever it is, so a
driver that sends too few or too many frames shows the garbage real modules would. Each chip
starts as at power-up (shutdown, scan limit 0, no decode, intensity 0, test off).

``shapes(module)`` gives the 8 digits left to right as lit segment letters (``"bc."``),
``text(module)`` the characters a person reads (``"  12MUGG"``), honouring shutdown,
scan limit, decode mode and display test.
"""
import sevenseg

# MAX7219 datasheet table 5, code B font: 0-9, '-', E, H, L, P, blank.
_CODE_B = ("abcdef", "bc", "abdeg", "abcdg", "bcfg", "acdfg", "acdefg", "abc",
           "abcdefg", "abcdfg", "g", "adefg", "bcefg", "def", "abefg", "")


class Max7219Chip:
    """One chip's registers (datasheet table 2); ``digit[0]`` is DIG0 (register 1)."""

    def __init__(self):
        self.digit = bytearray(8)
        self.decode = 0
        self.intensity = 0
        self.scan_limit = 0
        self.shutdown = True
        self.test = False
        self.frames = 0

    def latch(self, address, data):
        self.frames += 1
        if 1 <= address <= 8:
            self.digit[address - 1] = data
        elif address == 0x09:
            self.decode = data
        elif address == 0x0A:
            self.intensity = data & 0x0F
        elif address == 0x0B:
            self.scan_limit = data & 0x07
        elif address == 0x0C:
            self.shutdown = not data & 0x01
        elif address == 0x0F:
            self.test = bool(data & 0x01)

    def shape(self, n):
        """Lit segment letters of DIG``n`` as a person sees it."""
        if self.test:
            return "abcdefg."
        if self.shutdown or n > self.scan_limit:
            return ""
        data = self.digit[n]
        if self.decode & (1 << n):
            body = _CODE_B[data & 0x0F]
        else:
            body = "".join(sevenseg.LETTERS[i] for i in range(7) if data & (0x40 >> i))
        return body + "." if data & 0x80 else body


class Max7219Chain:
    """``modules`` chained chips; ``chips[0]`` is the one whose DIN is wired to the Pico."""

    def __init__(self, modules=1):
        self.chips = [Max7219Chip() for _ in range(modules)]
        self._shift = bytearray(2 * modules)  # [0] is the byte that entered chip 0 last
        self.latches = 0

    def select(self):
        pass

    def exchange(self, byte):
        shift = self._shift
        for i in range(len(shift) - 1, 0, -1):
            shift[i] = shift[i - 1]
        shift[0] = byte
        return 0xFF  # DOUT of the last chip is not wired back: MISO floats high

    def deselect(self):
        self.latches += 1
        for k, chip in enumerate(self.chips):
            chip.latch(self._shift[2 * k + 1] & 0x0F, self._shift[2 * k])

    def shapes(self, module):
        """The module's 8 digits, left to right (DIG7 .. DIG0), as lit segment letters."""
        chip = self.chips[module]
        return [chip.shape(n) for n in range(7, -1, -1)]

    def text(self, module):
        """What a person reads on the module, e.g. ``"  12MUGG"``."""
        return "".join(sevenseg.read(shape) for shape in self.shapes(module))

    def reads(self, module, text):
        """Whether the module reads as ``text`` (``5`` and ``S`` look alike, and so on)."""
        return sevenseg.reads_as(self.shapes(module), text)
