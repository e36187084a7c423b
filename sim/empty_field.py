"""An MFRC522 with nothing in its field, cheaper than the wire-level model (mfrc522_model.py):
every register reads back what an idle chip shows (VersionReg 0x92, ComIrqReg TimerIRq), so
each wait for a tag ends at once. For the scan path's allocation tests and its Python-cost
bench, which measure the driver and the tray, not the reader."""


class EmptyFieldBus:
    """The SPI bus of one such chip; counts the transactions the driver makes."""

    def __init__(self):
        self.regs = bytearray(64)
        self.regs[0x37] = 0x92  # VersionReg: an MFRC522 v2.0
        self.regs[0x04] = 0x01  # ComIrqReg: TimerIRq, the wait timed out
        self.transactions = 0

    def write(self, buf):
        self.transactions += 1

    def write_readinto(self, out, into):
        self.transactions += 1
        into[0] = 0
        for i in range(1, len(out)):
            into[i] = self.regs[(out[i - 1] >> 1) & 0x3F]


class ChipSelect:
    """A chip-select pin that keeps its level and does nothing else."""

    OUT = 1

    def init(self, mode, value=1):
        self.level = value

    def __call__(self, level):
        self.level = level
