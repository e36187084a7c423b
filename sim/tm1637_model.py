"""A TM1637 module at the wire: follows CLK/DIO level changes, acknowledges, decodes digits.

It watches both pins and answers like the chip (datasheet v2.4): start = DIO falls while
CLK is high, stop = DIO rises while CLK is high, bits are read on CLK rising edges LSB
first, and after the 8th bit it pulls DIO low from the 8th falling edge until the 9th
falling edge (ACK). Commands: data 0x40/0x44 (auto-increment/fixed address), address
0xC0..0xC5 followed by display bytes, display control 0x80 | on << 3 | brightness.
Setting ``connected = False`` makes it stop answering, like an unplugged module.
Anything the chip would not accept is appended to ``errors``.
"""
import sevenseg


class Tm1637Model:
    """A module with ``digits`` digits; ``shapes()``/``text()`` read it left to right."""

    def __init__(self, clk, dio, digits=4):
        self.ram = bytearray(6)
        self.digits = digits
        self.on = False
        self.brightness = 0
        self.connected = True
        self.transfers = 0
        self.acks = 0
        self.errors = []
        self._clk = clk
        self._dio = dio
        self._in_transfer = False
        self._acking = False
        self._bits = 0
        self._byte = 0
        self._command = None
        self._address = 0
        self._auto_increment = True
        clk.watch(self._on_clk)
        dio.watch(self._on_dio)

    def _on_dio(self, dio):
        if self._clk.value() == 0 or not self.connected:
            return  # data may change while the clock is low
        if self._acking:
            self.errors.append("dio changed during ack")
        elif dio.value() == 0:
            self._in_transfer = True
            self._bits = 0
            self._byte = 0
            self._command = None
        elif self._in_transfer:
            self._in_transfer = False
            self.transfers += 1
            # The clock rise that precedes every stop condition reads as one stray bit.
            if self._bits > 1:
                self.errors.append("stop after %d bits of a byte" % self._bits)

    def _on_clk(self, clk):
        if not self._in_transfer or not self.connected:
            return
        if clk.value():
            if self._bits < 8:
                self._byte |= self._dio.value() << self._bits
                self._bits += 1
        elif self._bits == 8 and not self._acking:
            self._acking = True
            self._dio.drive(0)
        elif self._acking:
            self._acking = False
            self._dio.drive(None)
            self.acks += 1
            byte = self._byte
            self._bits = 0
            self._byte = 0
            self._receive(byte)

    def _receive(self, byte):
        if self._command is None:
            self._command = byte
            kind = byte & 0xC0
            if kind == 0x40:
                if byte & 0x02:
                    self.errors.append("key scan read 0x%02x is not modelled" % byte)
                self._auto_increment = not byte & 0x04
            elif kind == 0xC0:
                self._address = byte & 0x07
            elif kind == 0x80:
                self.on = bool(byte & 0x08)
                self.brightness = byte & 0x07
            else:
                self.errors.append("unknown command 0x%02x" % byte)
        elif self._command & 0xC0 == 0xC0:
            if self._address < len(self.ram):
                self.ram[self._address] = byte
            else:
                self.errors.append("display byte beyond address 0xc5")
            if self._auto_increment:
                self._address += 1
        else:
            self.errors.append("byte 0x%02x after command 0x%02x" % (byte, self._command))

    def shapes(self):
        """The digits left to right as lit segment letters (bit 7 is the point or colon)."""
        if not self.on:
            return [""] * self.digits
        return [sevenseg.letters(self.ram[i]) for i in range(self.digits)]

    def text(self):
        """What a person reads, e.g. ``"-12"`` right-aligned as ``" -12"``."""
        return "".join(sevenseg.read(shape) for shape in self.shapes())

    def reads(self, text):
        return sevenseg.reads_as(self.shapes(), text)
