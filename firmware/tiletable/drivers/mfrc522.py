"""MFRC522 reader (NXP data sheet rev 3.9) on a shared SPI bus: ISO/IEC 14443-3 A and NTAG213.

One instance per tray zone; the readers share SCK/MOSI/MISO and each has its own CS pin.
The driver never sleeps and never allocates in its polling primitives: every frame is built
in preallocated buffers, every burst goes through ``write_readinto`` on a preallocated
memoryview, and every wait for the radio is a bounded number of ComIrqReg reads while the
chip's own timer (TModeReg.TAuto) measures the timeout. Radio results are small ints
(the number of bits received, or one of the negative codes below), so a busy tray raises
nothing; ``OSError`` is kept for a reader that stops answering on the bus.

What it avoids from the widely copied MicroPython drivers:

* their wait loop writes ``~(n & 0x01)`` where ``not`` is meant (``~x`` is never 0), so an
  empty poll spins through all 2000 iterations (≈220 ms, pimylifeup/MFRC522-python#42); here
  the loop ends on RxIRq or TimerIRq, after about 9 reads for an empty field;
* their ``anticoll()`` returns the cascade tag 0x88 as a UID byte; here the SAK cascade bit
  (0x04) decides, the cascade tag is stripped, and the BCC is checked at every level;
* a tag left on the pad failing every other REQA (a selected tag ignores REQA): presence
  polls use WUPA, and an inventory ends each tag with HLTA before the next REQA.

Example::

    reader = MFRC522(spi, Pin(17))
    reader.antenna_on()                 # then let the field settle >= 5.1 ms (the scanner schedules it)
    if reader.probe():
        n = reader.select_next(uid)     # 4, 7 or 10; 0 if nobody answered; < 0 on a radio error
        if n > 0 and reader.read(4, record) == 16:
            ...
        reader.halt()
    reader.antenna_off()
"""
import sys

from micropython import const

# Registers (§9.2)
_COMMAND = const(0x01)
_COM_IRQ = const(0x04)
_ERROR = const(0x06)
_FIFO_DATA = const(0x09)
_FIFO_LEVEL = const(0x0A)
_CONTROL = const(0x0C)
_BIT_FRAMING = const(0x0D)
_COLL = const(0x0E)
_MODE = const(0x11)
_TX_CONTROL = const(0x14)
_TX_ASK = const(0x15)
_T_MODE = const(0x2A)
_T_PRESCALER = const(0x2B)
_T_RELOAD_H = const(0x2C)
_T_RELOAD_L = const(0x2D)
_VERSION = const(0x37)

# Commands (§10.3) and register bits
_CMD_IDLE = const(0x00)
_CMD_TRANSCEIVE = const(0x0C)
_CMD_SOFT_RESET = const(0x0F)
_POWER_DOWN = const(0x10)
_IRQ_RX = const(0x20)
_IRQ_TIMER = const(0x01)
_ERR_BUFFER_OVFL = const(0x10)
_ERR_COLL = const(0x08)
_ERR_PARITY = const(0x02)
_ERR_PROTOCOL = const(0x01)
_COLL_POS_NOT_VALID = const(0x20)
_START_SEND = const(0x80)
_FIELD_OFF = const(0x80)  # TxControlReg reset value: Tx1RFEn = Tx2RFEn = 0
_FIELD_ON = const(0x83)

# Timer: TPrescaler 67 gives ticks of 135 / 13.56 MHz = 9.96 us (§8.5)
_PRESCALER = const(67)
# 0.25 ms: ISO 14443-3 answers start 91 us after the frame (FDT), and with TAuto the timer stops
# at the answer's fifth bit (data sheet, TModeReg.TAuto), 47 us later: 0.11 ms to spare, and an
# empty pad's WUPA waits only that long.
_TICKS_ISO = const(25)
_TICKS_READ = const(500)  # 5 ms: NTAG213 READ time-out (data sheet §10.2)
_TICKS_WRITE = const(1000)  # 10 ms: WRITE answers after 4.1 ms of EEPROM programming

# Bounds on ComIrqReg reads: the chip's timer ends every wait long before these, even at
# 20 us per read; reaching one means the chip is gone or its timer is not running.
_WAIT_READS_SHORT = const(80)
_WAIT_READS_LONG = const(600)
_RESET_READS = const(200)

# ISO/IEC 14443-3 type A and NTAG213 commands
_REQA = const(0x26)
_WUPA = const(0x52)
_HLTA = const(0x50)
_READ = const(0x30)
_WRITE = const(0xA2)
_SEL_CL1 = const(0x93)
_SEL_CL2 = const(0x95)  # CL3 is 0x97: SEL codes step by 2
_CASCADE_TAG = const(0x88)
_SAK_CASCADE = const(0x04)
_ACK = const(0x0A)

_TX_MAX = const(9)  # SELECT: SEL NVB UID0..3 BCC CRC CRC
_RX_MAX = const(18)  # NTAG READ: 16 data bytes + CRC_A

# Radio results: >= 0 is a count of bits (or of UID bytes for select_next)
NO_ANSWER = const(-1)
BAD_FRAME = const(-2)  # parity, CRC_A, BCC or length wrong: noise, a weak tag, a tag leaving
COLLISION = const(-3)  # tags answered together and the collision could not be resolved
NAK = const(-4)  # the tag refused (NTAG NAK): wrong page, or not an NTAG

GENUINE_VERSIONS = (0x91, 0x92)  # MFRC522 v1.0 and v2.0 (§9.3.4.8)
CLONE_VERSIONS = (0x12, 0x15, 0x88, 0xB2)  # seen on clone modules (miguelbalboa/rfid#428, #290)

# CRC_A (ISO/IEC 14443-3 Annex B) four bits at a time: reflected polynomial 0x8408
_CRC_NIBBLE = (
    0x0000, 0x1081, 0x2102, 0x3183, 0x4204, 0x5285, 0x6306, 0x7387,
    0x8408, 0x9489, 0xA50A, 0xB58B, 0xC60C, 0xD68D, 0xE70E, 0xF78F,
)  # fmt: skip


def crc_a(buf, start, n):
    """CRC_A over ``buf[start:start + n]`` (preset 0x6363), sent low byte first. Where
    MicroPython compiles viper code, ``crc_a_native.crc_a`` replaces it (20 times faster)."""
    crc = 0x6363
    n += start
    while start < n:  # (no more locals, no range(): the frame stays off the heap)
        crc = (crc >> 4) ^ _CRC_NIBBLE[(crc ^ buf[start]) & 15]
        crc = (crc >> 4) ^ _CRC_NIBBLE[(crc ^ (buf[start] >> 4)) & 15]
        start += 1
    return crc


if sys.implementation.name == "micropython":
    try:
        from tiletable.drivers.crc_a_native import crc_a
    except (ImportError, SyntaxError, ValueError):  # no native emitter, or .mpy of another architecture
        pass


class _BusBuffers:
    """Frame and burst buffers with a memoryview per length, shared by every reader: the
    readers on a bus take turns, and nine zones would otherwise hold nine copies (~2 KB each)."""

    def __init__(self):
        self.reg = bytearray(2)
        self.reply = bytearray(2)
        # FIFO burst write: the address byte, then the frame (built in place at index 1)
        self.tx = bytearray(1 + _TX_MAX)
        self.tx[0] = _FIFO_DATA << 1
        txv = memoryview(self.tx)
        self.tx_views = [txv[:n] for n in range(2 + _TX_MAX)]
        # FIFO burst read: n FIFO addresses then 0x00, replies land at index 1..n
        self.rx_cmd = bytearray([0x80 | _FIFO_DATA << 1] * (_RX_MAX + 1))
        self.rx_buf = bytearray(_RX_MAX + 1)
        cmdv = memoryview(self.rx_cmd)
        bufv = memoryview(self.rx_buf)
        self.rx_cmd_views = [cmdv[:n] for n in range(2 + _RX_MAX)]
        self.rx_buf_views = [bufv[:n] for n in range(2 + _RX_MAX)]
        self.rx = bufv[1:]
        # ErrorReg, FIFOLevelReg, ControlReg and CollReg in one read transaction (§8.1.2.1)
        self.status_cmd = bytes((0x80 | _ERROR << 1, 0x80 | _FIFO_LEVEL << 1, 0x80 | _CONTROL << 1, 0x80 | _COLL << 1, 0))
        self.status = bytearray(5)


_buffers = []


def _bus_buffers():
    if not _buffers:
        _buffers.append(_BusBuffers())
    return _buffers[0]


def read_register_at(spi, cs, reg):
    """One register of the chip at ``cs`` without opening it: no reset, no exception, no
    allocation. The self test reads VersionReg this way (0x00/0xFF: nobody answers; a clone
    is read, not refused) while every other chip-select stays high."""
    bus = _bus_buffers()
    buf = bus.reg
    buf[0] = 0x80 | reg << 1
    buf[1] = 0
    cs(0)
    spi.write_readinto(buf, bus.reply)
    cs(1)
    return bus.reply[1]


def version_at(spi, cs):
    """VersionReg (0x37) of the chip at ``cs``: 0x91/0x92 genuine, ``CLONE_VERSIONS``, 0x00/0xFF none."""
    return read_register_at(spi, cs, _VERSION)


def field_at(spi, cs, on):
    """Switch the field of the chip at ``cs`` on or off (TxControlReg) without opening it;
    returns TxControlReg read back (0x83 on, 0x80 off, when the chip took the write)."""
    bus = _bus_buffers()
    buf = bus.reg
    buf[0] = _TX_CONTROL << 1
    buf[1] = _FIELD_ON if on else _FIELD_OFF
    cs(0)
    spi.write(buf)
    cs(1)
    return read_register_at(spi, cs, _TX_CONTROL)


class UnexpectedChip(OSError):
    """VersionReg names a clone: clones corrupt MISO on shared buses (miguelbalboa/rfid#428)."""

    def __init__(self, cs, version):
        what = "a known clone" if version in CLONE_VERSIONS else "not an NXP MFRC522 (0x91/0x92)"
        super().__init__("reader at cs %r reports version 0x%02x, %s" % (cs, version, what))
        self.version = version
        self.cs = cs


class MFRC522:
    """One reader. ``spi`` is shared; ``cs`` (and optional ``rst``, NRSTPD) belong to this chip.

    :raises OSError: no chip answers at ``cs`` (VersionReg reads 0x00 or 0xFF).
    :raises UnexpectedChip: VersionReg is not 0x91/0x92, unless ``accept_clone`` is true; an
        accepted clone works with ``is_clone`` set so the tray reports it.
    """

    def __init__(self, spi, cs, rst=None, accept_clone=False):
        self._spi = spi
        self._cs = cs
        cs.init(cs.OUT, value=1)
        bus = _bus_buffers()
        self._reg = bus.reg
        self._reply = bus.reply
        self._tx = bus.tx
        self._tx_views = bus.tx_views
        self._rx_cmd = bus.rx_cmd
        self._rx_buf = bus.rx_buf
        self._rx_cmd_views = bus.rx_cmd_views
        self._rx_buf_views = bus.rx_buf_views
        self._status_cmd = bus.status_cmd
        self._status = bus.status
        self._cl = bytearray(5)  # the UID CLn being resolved
        self.signature = bytearray(10)  # UID CL1 and CL2 bits from the last probe(): "same tags?"
        self.signature_bits = 0
        self._resume_level = -1  # probe() left the tags READY at this cascade level (0 or 1)...
        self._resume_bits = 0  # ...with this many bits of its UID CLn known
        self._prefix = bytearray(3)  # UID bytes of CL1 when probe() selected it
        self._recover = False
        self._awake = False  # tags may sit in READY/ACTIVE from earlier commands in this field
        self._reload = -1
        self._kept = False  # CommandReg still holds Transceive, waiting for StartSend (``_send``)
        self._rx_len = 0
        self._coll = 0
        self.rx = bus.rx  # bytes of the last answer (until any reader's next exchange)
        self.field = False
        self.error = None  # the OSError an exchange raised last (_stopped)

        self.version = self._read(_VERSION)
        if self.version in (0x00, 0xFF):
            raise OSError("no mfrc522 answering at cs %r (version 0x%02x)" % (cs, self.version))
        self.is_clone = self.version not in GENUINE_VERSIONS
        if self.is_clone and not accept_clone:
            raise UnexpectedChip(cs, self.version)
        self._reset(rst)

    def __repr__(self):
        return "MFRC522(cs=%r, version=0x%02x)" % (self._cs, self.version)

    # --- bus access ------------------------------------------------------------------
    def _write(self, reg, value):
        buf = self._reg
        buf[0] = reg << 1
        buf[1] = value
        self._cs(0)
        self._spi.write(buf)
        self._cs(1)

    def _read(self, reg):
        buf = self._reg
        buf[0] = 0x80 | reg << 1
        buf[1] = 0
        self._cs(0)
        self._spi.write_readinto(buf, self._reply)
        self._cs(1)
        return self._reply[1]

    def _check_alive(self, what):
        """Tell a radio error from a dead bus: VersionReg must still read what it read at start."""
        version = self._read(_VERSION)
        if version != self.version:
            raise self._stopped("mfrc522 at cs %r stopped answering (%s; version 0x%02x)" % (self._cs, what, version))

    def _reset(self, rst):
        self._kept = False
        if rst is not None:
            rst.init(rst.OUT, value=0)  # NRSTPD low: hard power-down; the rising edge resets (§8.6.1)
            rst(1)
        else:
            self._write(_COMMAND, _CMD_SOFT_RESET)
        for _ in range(_RESET_READS):
            if not self._read(_COMMAND) & _POWER_DOWN:
                break
        else:
            raise OSError("mfrc522 at cs %r did not wake up after reset" % (self._cs,))
        self._write(_T_MODE, 0x80 | _PRESCALER >> 8)  # TAuto: timer starts when a frame ends
        self._write(_T_PRESCALER, _PRESCALER & 0xFF)
        self._set_timer(_TICKS_ISO)
        self._write(_TX_ASK, 0x40)  # Force100ASK: ISO 14443 A modulation
        self._write(_MODE, 0x3D)  # CRC preset 0x6363 (CRC_A)
        self._write(_COLL, 0x00)  # ValuesAfterColl = 0: bits after a collision read 0
        self.antenna_off()

    def _set_timer(self, ticks):
        if ticks == self._reload:
            return
        if ticks >> 8 != self._reload >> 8:
            self._write(_T_RELOAD_H, ticks >> 8)
        self._write(_T_RELOAD_L, ticks & 0xFF)
        self._reload = ticks

    # --- field -------------------------------------------------------------------------
    def antenna_on(self):
        """Switch the field on. Tags need 5.1 ms of field before the first command (ISO 14443-3 §6.1)."""
        self._write(_TX_CONTROL, _FIELD_ON)
        self.field = True

    def antenna_off(self):
        """Switch the field off: no crosstalk with neighbouring zones, and every tag loses power (resets)."""
        self._write(_TX_CONTROL, _FIELD_OFF)
        self.field = False
        self._resume_level = -1
        self._awake = False

    # --- one exchange --------------------------------------------------------------------
    # Each step of an exchange is a method of its own: MicroPython puts the frame of a call that
    # needs more than 11 words (arguments, locals, stack) on the heap, and the scan makes
    # hundreds of exchanges a second.
    def _transceive(self, n, tx_last_bits=0, rx_align=0, long_wait=False):
        """Send ``self._tx[1:1 + n]`` and receive the answer into ``self.rx``.

        Returns the number of bits received (counting the RxAlign offset), ``NO_ANSWER`` when
        the timer expired first, ``COLLISION`` (CollReg kept in ``self._coll``) or ``BAD_FRAME``.
        :raises OSError: the chip stopped answering on the bus.
        """
        self._send(n, rx_align << 4 | tx_last_bits)
        if not self._wait_rx(long_wait):
            self._kept = False  # the receiver may still be listening: Idle stops it first
            return NO_ANSWER
        return self._receive()

    def _send(self, n, framing):
        """Start a frame. Transceive stays the chip's command after an answer (§10.3.1.8: only
        writing another command ends it), so a frame after a clean answer needs no Idle,
        FlushBuffer or command write: 150 us less per frame on the Pico, six frames a new tile."""
        if self._kept:
            self._write(_COM_IRQ, 0x7F)  # Set1 = 0: clear every interrupt request
            self._fill_fifo(n)
        else:
            self._write(_COMMAND, _CMD_IDLE)
            self._write(_COM_IRQ, 0x7F)
            self._write(_FIFO_LEVEL, 0x80)  # FlushBuffer
            self._fill_fifo(n)
            self._write(_COMMAND, _CMD_TRANSCEIVE)
            self._kept = True
        self._write(_BIT_FRAMING, _START_SEND | framing)

    def _fill_fifo(self, n):
        self._cs(0)
        self._spi.write(self._tx_views[n + 1])
        self._cs(1)

    def _wait_rx(self, long_wait):
        """True when a frame came in, False when the timer expired first."""
        cs = self._cs
        spi = self._spi
        self._reg[0] = 0x80 | _COM_IRQ << 1
        self._reg[1] = 0
        for _ in range(_WAIT_READS_LONG if long_wait else _WAIT_READS_SHORT):
            cs(0)
            spi.write_readinto(self._reg, self._reply)
            cs(1)
            if self._reply[1] & (_IRQ_RX | _IRQ_TIMER):
                return bool(self._reply[1] & _IRQ_RX)
        self._check_alive("no interrupt")
        raise self._stopped("mfrc522 at cs %r: timer did not expire" % (self._cs,))

    def _stopped(self, why):
        """The OSError to raise, kept in ``error`` too: the tray takes it from there, because an
        ``except ... as`` clause would put the frame of its every scan on the heap."""
        self._kept = False
        self.error = OSError(why)
        return self.error

    def _receive(self):
        status = self._status
        self._cs(0)
        self._spi.write_readinto(self._status_cmd, status)
        self._cs(1)
        errors = status[1]
        level = status[2]
        self._coll = status[4]
        if level > 64 or errors & 0x20:  # impossible FIFO level or reserved bit: look at the bus
            self._kept = False
            self._check_alive("impossible status")
            return BAD_FRAME
        if level > _RX_MAX:
            self._kept = False  # bytes left in the FIFO: the next frame flushes it
        n = self._read_fifo(level if level < _RX_MAX else _RX_MAX)
        if errors & _ERR_COLL:
            return COLLISION
        if errors & (_ERR_BUFFER_OVFL | _ERR_PARITY | _ERR_PROTOCOL) or level > _RX_MAX:
            return BAD_FRAME
        last_bits = status[3] & 0x07
        return n * 8 if last_bits == 0 else (n - 1) * 8 + last_bits

    def _read_fifo(self, n):
        """Read ``n`` bytes of the FIFO into ``self.rx`` in one transfer; returns ``n``."""
        self._rx_len = n
        if n:
            cmd = self._rx_cmd
            cmd[n] = 0x00
            self._cs(0)
            self._spi.write_readinto(self._rx_cmd_views[n + 1], self._rx_buf_views[n + 1])
            self._cs(1)
            cmd[n] = 0x80 | _FIFO_DATA << 1
        return n

    def _crc_ok(self, n):
        crc = crc_a(self._rx_buf, 1, n - 2)
        return self._rx_buf[n - 1] == crc & 0xFF and self._rx_buf[n] == crc >> 8

    def _append_crc(self, n):
        crc = crc_a(self._tx, 1, n)
        self._tx[n + 1] = crc & 0xFF
        self._tx[n + 2] = crc >> 8
        return n + 2

    # --- ISO/IEC 14443-3 ----------------------------------------------------------------
    def _short_frame(self, command):
        self._set_timer(_TICKS_ISO)
        self._tx[1] = command
        return self._transceive(1, 7)

    def request(self):
        """REQA: true if a tag in IDLE answers (ATQA). Halted and selected tags keep quiet; one
        that answers is left READY, and the next ``select_next`` sends REQA twice (the first
        only sends it back to IDLE)."""
        r = self._short_frame(_REQA)
        if r == 16 or r == COLLISION:
            self._recover = True
            return True
        return False

    def wake(self):
        """WUPA: true if any tag answers, halted ones included (ISO 14443-3 §6.3)."""
        r = self._short_frame(_WUPA)
        return r == 16 or r == COLLISION

    def probe(self):
        """The cheap presence poll: WUPA, one CL1 anticollision frame, and when CL1 is clean
        and starts with the cascade tag, SELECT CL1 and one CL2 anticollision frame.

        Returns 0 when no tag answers, else the number of UID bits known along the way (80 for
        one 7-byte tag; 40 for one 4-byte tag; fewer, up to the first collision, for several),
        kept with the bits in ``signature``. Tags of one batch often share their first UID
        bytes, so CL1 alone cannot tell them apart; CL2 can. The same clean signature on the
        next poll means the same single tag. ``select_next`` continues from where this stops.
        Negative: a radio error (something answered, garbled).
        """
        if not self._wake_for_probe():
            return 0
        for level in range(2):
            known = self._probe_level(level)
            if known < 0:
                self._recover = True
                return known
            if level or known < 40 or self._cl[0] != _CASCADE_TAG:
                break
            sak = self._select_level(_SEL_CL1)
            if sak < 0 or not sak & _SAK_CASCADE:
                self._resume_level = -1
                self._recover = True
                return sak if sak < 0 else BAD_FRAME
            self._keep_prefix()
        return self.signature_bits

    def _wake_for_probe(self):
        """Forget the last probe and send WUPA; whether any tag answered."""
        self._resume_level = -1
        self.signature_bits = 0
        sig = self.signature
        for i in range(10):
            sig[i] = 0
        found = self.wake()
        if not found and self._awake:
            found = self.wake()  # the first WUPA only sent tags left READY or ACTIVE back to IDLE/HALT
        self._awake = found
        return found

    def _keep_prefix(self):
        """The UID's first three bytes, from CL1 (after the cascade tag), for ``select_next``."""
        cl = self._cl
        for i in range(3):
            self._prefix[i] = cl[1 + i]

    def _probe_level(self, level):
        """One cascade level of ``probe``: its anticollision frame, kept in ``signature``."""
        cl = self._cl
        for i in range(5):
            cl[i] = 0
        known = self._anticollide(_SEL_CL1 if level == 0 else _SEL_CL2, 0)
        if known < 0:
            return known
        sig = self.signature
        for i in range(5):
            sig[5 * level + i] = cl[i]
        self.signature_bits = 40 * level + known
        self._resume_level = level
        self._resume_bits = known
        return known

    def is_single(self):
        """Whether the last probe saw exactly one tag: every level it walked was collision-free."""
        bits = self.signature_bits
        return bits == 80 or (bits == 40 and self.signature[0] != _CASCADE_TAG)

    def probed_uid(self, uid):
        """Write the UID of the single tag the last probe walked (``is_single``) into ``uid``;
        return its length (7, or 4), or 0 when the probe did not see exactly one tag or the UID
        goes on beyond what the probe walks (10 bytes)."""
        sig = self.signature
        if self.signature_bits == 80 and sig[0] == _CASCADE_TAG and sig[5] != _CASCADE_TAG:
            for i in range(3):
                uid[i] = sig[1 + i]
            for i in range(4):
                uid[3 + i] = sig[5 + i]
            return 7
        if self.signature_bits == 40 and sig[0] != _CASCADE_TAG:
            for i in range(4):
                uid[i] = sig[i]
            return 4
        return 0

    def _anticollide(self, sel, known):
        """One ANTICOLLISION frame (ISO 14443-3 §6.4.3): send the ``known`` bits of the UID CLn,
        receive the rest. Returns the new count of known bits (40: complete, BCC checked), or
        a negative result. On a collision the bit is resolved to 1, as §6.4.3.1 step 7 suggests,
        so the tags with a 1 there stay in the round."""
        r = self._anticollision_frame(sel, known)
        if r == NO_ANSWER or r == BAD_FRAME:
            return r
        if (known >> 3) + self._rx_len > 5:
            return BAD_FRAME
        self._merge_answer(known)
        if r == COLLISION:
            return self._collision_bit(known)
        cl = self._cl
        if (known >> 3) * 8 + r != 40 or cl[4] != cl[0] ^ cl[1] ^ cl[2] ^ cl[3]:
            return BAD_FRAME
        return 40

    # _anticollide's steps are apart so that no frame needs more than 11 words (off the heap):
    # every probe of a pad holding a tile runs two anticollision frames.
    def _anticollision_frame(self, sel, known):
        """Send SEL, NVB and the ``known`` bits of CLn; the transceive's result."""
        extra = known & 7
        self._tx[1] = sel
        self._tx[2] = (2 + (known >> 3)) << 4 | extra  # NVB: bytes and bits sent, SEL and NVB included
        n = self._put_known(known)
        self._set_timer(_TICKS_ISO)
        return self._transceive(2 + n, extra, extra)

    def _put_known(self, known):
        """The ``known`` bits of CLn after SEL and NVB; the bytes they take."""
        tx = self._tx
        n = (known + 7) >> 3  # the partial byte included
        for i in range(n):
            tx[3 + i] = self._cl[i]
        if known & 7:
            tx[2 + n] &= (1 << (known & 7)) - 1
        return n

    def _merge_answer(self, known):
        """The answer's bytes into CLn after the ``known`` bits (its first byte completes a
        partial one)."""
        if not self._rx_len:
            return
        cl = self._cl
        whole = known >> 3
        keep = (1 << (known & 7)) - 1
        cl[whole] = (cl[whole] & keep) | (self.rx[0] & ~keep & 0xFF)
        self._copy_rx(whole)

    def _copy_rx(self, whole):
        """The answer's bytes after its first into CLn from byte ``whole + 1`` on."""
        for i in range(1, self._rx_len):
            self._cl[whole + i] = self.rx[i]

    def _collision_bit(self, known):
        """After a collision: the bit set to 1 in CLn, and the new count of known bits."""
        coll = self._coll
        if coll & _COLL_POS_NOT_VALID:
            return BAD_FRAME
        # CollPos counts from 1 at the first bit of the first FIFO byte, RxAlign included
        bit = (known >> 3) * 8 + ((coll & 0x1F) or 32) - 1
        if bit < known or bit >= 32:
            return BAD_FRAME
        byte = bit >> 3
        self._cl[byte] = (self._cl[byte] | 1 << (bit & 7)) & ((2 << (bit & 7)) - 1)
        return bit + 1

    def _select_level(self, sel):
        """SELECT (ISO 14443-3 §6.4.3.2): SEL 0x70 UID-CLn BCC CRC_A; returns the SAK or < 0."""
        tx = self._tx
        cl = self._cl
        tx[1] = sel
        tx[2] = 0x70
        for i in range(5):
            tx[3 + i] = cl[i]
        self._set_timer(_TICKS_ISO)
        r = self._transceive(self._append_crc(7))
        if r < 0:
            return r
        if r != 24 or not self._crc_ok(3):
            return BAD_FRAME
        return self.rx[0]

    def select_next(self, uid):
        """Select one more tag; write its UID into ``uid`` (10 bytes) and return its length.

        Returns 0 when no tag is left to select (the others are halted, or the pad is empty),
        or a negative result on a radio error (the inventory goes on with the next call).
        Cascade levels (§6.4.4): when the SAK has the cascade bit, the CLn starts with the
        cascade tag 0x88, which is stripped; a 4-, 7- or 10-byte UID takes 1, 2 or 3 levels.
        """
        cl = self._cl
        size = 0
        start = 0
        if self._resume_level >= 0:
            start = self._resume_level
            known = self._resume_bits
            self._resume_level = -1
            for i in range(5):
                cl[i] = self.signature[5 * start + i]
            if start:
                for i in range(3):
                    uid[i] = self._prefix[i]
                size = 3
        else:
            found = self.request()
            if not found and self._recover:
                found = self.request()  # the first REQA only sent tags stuck in READY back to IDLE
            self._recover = False
            if not found:
                return 0
            known = 0
            for i in range(5):
                cl[i] = 0
        for level in range(start, 3):
            sel = _SEL_CL1 + 2 * level  # 0x93, 0x95, 0x97
            while known < 40:
                known = self._anticollide(sel, known)
                if known < 0:
                    self._recover = True
                    return known
            sak = self._select_level(sel)
            if sak < 0:
                self._recover = True
                return sak
            if not sak & _SAK_CASCADE:
                for i in range(4):
                    uid[size + i] = cl[i]
                return size + 4
            if cl[0] != _CASCADE_TAG:
                break
            for i in range(3):
                uid[size + i] = cl[1 + i]
            size += 3
            known = 0
            for i in range(5):
                cl[i] = 0
        self._recover = True
        return BAD_FRAME

    def halt(self):
        """HLTA 50 00 + CRC_A: the selected tag goes to HALT and answers only WUPA from now on."""
        tx = self._tx
        tx[1] = _HLTA
        tx[2] = 0x00
        self._set_timer(_TICKS_ISO)
        self._transceive(self._append_crc(2))

    # --- NTAG213 --------------------------------------------------------------------------
    def read(self, page, out):
        """NTAG READ (data sheet §10.2): 16 bytes from ``page`` of the selected tag into ``out``.

        Returns 16, or NO_ANSWER / BAD_FRAME / NAK.
        """
        tx = self._tx
        tx[1] = _READ
        tx[2] = page
        self._set_timer(_TICKS_READ)
        r = self._transceive(self._append_crc(2), long_wait=True)
        if r == 4:
            return NAK
        if r < 0:
            return r
        if r != 144 or not self._crc_ok(18):
            return BAD_FRAME
        rx = self.rx
        for i in range(16):
            out[i] = rx[i]
        return 16

    def write(self, page, data):
        """NTAG WRITE (data sheet §10.3): 4 bytes to ``page``; 0 on ACK, else a negative result."""
        tx = self._tx
        tx[1] = _WRITE
        tx[2] = page
        for i in range(4):
            tx[3 + i] = data[i]
        self._set_timer(_TICKS_WRITE)
        r = self._transceive(self._append_crc(6), long_wait=True)
        if r == 4:
            return 0 if self.rx[0] & 0x0F == _ACK else NAK
        return r if r < 0 else BAD_FRAME
