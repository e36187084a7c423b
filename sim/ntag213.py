"""A virtual NTAG213 (or any ISO/IEC 14443-3 type A tag) for the MFRC522 model's field.

The tag sees what a real one sees: a frame of bits from the reader (a 7-bit short frame,
a bit-oriented anticollision frame, or a standard frame ending in CRC_A) and answers
with bits, or stays silent. Its state machine follows ISO/IEC 14443-3 §6.2 and the NTAG213
data sheet §8.3 (IDLE, READY1..3, ACTIVE, HALT, with the READY*/ACTIVE* variants of a tag woken
from HALT returning to HALT on an error instead of IDLE).

Memory follows the NTAG213 map (data sheet §8.5): 45 pages of 4 bytes, UID and BCCs in
pages 0-2, the capability container in page 3, user memory in pages 4-39 (factory content:
an empty NDEF TLV ``03 00 FE``), configuration in 40-44. READ 0x30 returns 4 pages with
roll-over past the last page; WRITE 0xA2 accepts pages 4-39 only (the model does not
emulate lock bits, OTP or configuration pages) and answers ACK 0xA after the programming time.
A ``read_only`` tag answers every WRITE with NAK, as a tag whose user pages are locked does.

Faults for tests: ``weak`` (per-mille chance per answer of silence or a corrupted answer, from
a seeded xorshift so CPython and MicroPython see the same sequence), ``swaps`` (per-mille chance
per answer that two whole bytes of it trade places: the BCC of a UID answer still holds, and an
answer with CRC_A gets the CRC of what it now says, so the reader sees nothing wrong) and
``leave_after(n)`` (the tag is lifted off the pad after n more answers, e.g. in the middle of a
read).
"""

IDLE = 0
READY = 1
ACTIVE = 2
HALT = 3

REQA = 0x26
WUPA = 0x52
SEL_CODES = (0x93, 0x95, 0x97)
CASCADE_TAG = 0x88
SAK_CASCADE = 0x04
SAK_NTAG = 0x00
ACK = 0x0A
NAK = 0x00

PAGES = 45
USER_FIRST = 4
USER_LAST = 39
WRITE_TIME_US = 4100  # NTAG213 data sheet §10.4: EEPROM programming before the ACK


def crc_a(data, n=None):
    """CRC_A of ISO/IEC 14443-3 Annex B (init 0x6363, reflected polynomial 0x8408)."""
    crc = 0x6363
    for i in range(len(data) if n is None else n):
        crc ^= data[i]
        for _ in range(8):
            crc = (crc >> 1) ^ 0x8408 if crc & 1 else crc >> 1
    return crc


def with_crc(payload):
    crc = crc_a(payload)
    return bytes(payload) + bytes((crc & 0xFF, crc >> 8))


class XorShift:
    """A tiny deterministic generator (xorshift32): the same faults on every port."""

    def __init__(self, seed):
        self.state = (seed * 2654435761 + 1) & 0xFFFFFFFF or 1

    def next(self):
        x = self.state
        x ^= (x << 13) & 0xFFFFFFFF
        x ^= x >> 17
        x ^= (x << 5) & 0xFFFFFFFF
        self.state = x
        return x

    def below(self, n):
        return self.next() % n


def cascade_levels(uid):
    """The 5-byte UID CLn frames (4 bytes + BCC) for a 4-, 7- or 10-byte UID (ISO 14443-3 §6.4.4)."""
    if len(uid) == 4:
        parts = [bytes(uid)]
    elif len(uid) == 7:
        parts = [bytes((CASCADE_TAG,)) + uid[0:3], bytes(uid[3:7])]
    elif len(uid) == 10:
        parts = [bytes((CASCADE_TAG,)) + uid[0:3], bytes((CASCADE_TAG,)) + uid[3:6], bytes(uid[6:10])]
    else:
        raise ValueError("uid of %d bytes; ISO 14443-3 allows 4, 7 or 10" % len(uid))
    out = []
    for p in parts:
        out.append(p + bytes((p[0] ^ p[1] ^ p[2] ^ p[3],)))
    return out


class Ntag213:
    """One tag. ``uid`` is 7 bytes for a real NTAG213; 4 or 10 are accepted for tests."""

    def __init__(self, uid, user=None, weak=0, seed=1, read_only=False, swaps=0):
        self.uid = bytes(uid)
        self.levels = cascade_levels(self.uid)
        self.memory = bytearray(PAGES * 4)
        if len(self.uid) == 7:
            cl1, cl2 = self.levels
            self.memory[0:4] = self.uid[0:3] + bytes((cl1[4],))
            self.memory[4:8] = self.uid[3:7]
            self.memory[8] = cl2[4]
            self.memory[9] = 0x48
        self.memory[12:16] = b"\xe1\x10\x12\x00"
        self.memory[16:19] = b"\x03\x00\xfe"
        if user is not None:
            self.memory[16 : 16 + len(user)] = user
        self.weak = weak
        self.swaps = swaps
        self.swapped = 0  # answers sent with two bytes swapped
        self.read_only = read_only
        self.random = XorShift(seed)
        self.answers_left = -1
        self.state = IDLE
        self.level = 0
        self.from_halt = False
        self.reads = 0
        self.writes = 0

    def __repr__(self):
        return "Ntag213(%s)" % "".join("%02x" % b for b in self.uid)

    def atqa(self):
        size = {4: 0x00, 7: 0x40, 10: 0x80}[len(self.uid)]
        return bytes((size | 0x04, 0x00))

    def leave_after(self, answers):
        """Lift the tag off the pad after ``answers`` more answers (0: silent from now on)."""
        self.answers_left = answers

    @property
    def gone(self):
        return self.answers_left == 0

    def power_off(self):
        self.state = IDLE
        self.level = 0
        self.from_halt = False

    def _error(self):
        self.state = HALT if self.from_halt else IDLE
        self.level = 0

    def receive(self, data, nbits):
        """Handle one reader frame; return ``(bytes, nbits, delay_us)`` to answer, or None."""
        answer = self._receive(data, nbits)
        if answer is None or self.gone:
            return None
        if self.answers_left > 0:
            self.answers_left -= 1
        if self.weak and self.random.below(1000) < self.weak:
            if self.random.below(2):
                return None
            garbled = bytearray(answer[0])
            i = self.random.below(len(garbled))
            garbled[i] ^= 0x03 if answer[1] >= 8 * (i + 1) else 0x01
            return bytes(garbled), answer[1], answer[2]
        if self.swaps and self.random.below(1000) < self.swaps:
            return self._swap_bytes(answer)
        return answer

    def _swap_bytes(self, answer):
        """The answer with two bytes of different value swapped and its CRC_A, if it has one,
        made to match: damage no check of the air interface catches."""
        data, nbits, delay = answer
        size = nbits // 8
        if nbits % 8:
            return answer
        crc = size >= 3 and crc_a(data, size - 2) == data[size - 2] | data[size - 1] << 8
        body = size - 2 if crc else size
        if body < 2:
            return answer
        out = bytearray(data)
        i = self.random.below(body)
        j = (i + 1 + self.random.below(body - 1)) % body
        if out[i] == out[j]:
            return answer
        out[i], out[j] = out[j], out[i]
        self.swapped += 1
        return (with_crc(out[:body]) if crc else bytes(out)), nbits, delay

    def _receive(self, data, nbits):
        if nbits == 7:
            cmd = data[0] & 0x7F
            if cmd == WUPA and self.state in (IDLE, HALT) or cmd == REQA and self.state == IDLE:
                self.from_halt = self.state == HALT
                self.state = READY
                self.level = 0
                return self.atqa(), 16, 0
            if self.state in (READY, ACTIVE):
                self._error()
            return None
        if self.state in (IDLE, HALT):
            return None
        if nbits >= 16 and data[0] in SEL_CODES:
            return self._select(data, nbits)
        if nbits % 8 or nbits < 24 or crc_a(data, nbits // 8 - 2) != data[nbits // 8 - 2] | data[nbits // 8 - 1] << 8:
            self._error()
            return None
        if self.state == ACTIVE:
            cmd = data[0]
            if cmd == 0x50 and data[1] == 0x00 and nbits == 32:
                self.state = HALT
                self.level = 0
                return None
            if cmd == 0x30 and nbits == 32:
                return self._read(data[1])
            if cmd == 0xA2 and nbits == 64:
                return self._write(data[1], data[2:6])
        self._error()
        return None

    def _select(self, data, nbits):
        sel = SEL_CODES.index(data[0])
        if self.state != READY or sel != self.level:
            self._error()
            return None
        cl = self.levels[sel]
        nvb = data[1]
        if nvb == 0x70:
            if nbits != 72 or crc_a(data, 7) != data[7] | data[8] << 8:
                self._error()
                return None
            if bytes(data[2:7]) != cl:
                return None  # addressed to another tag: stay READY, stay silent
            if sel + 1 < len(self.levels):
                self.level += 1
                return with_crc(bytes((SAK_CASCADE,))), 24, 0
            self.state = ACTIVE
            return with_crc(bytes((SAK_NTAG,))), 24, 0
        known = (nvb >> 4) * 8 + (nvb & 0x0F) - 16
        if nvb & 0x0F > 7 or not 0 <= known < 40 or nbits != 16 + known:
            self._error()
            return None
        for bit in range(known):
            if (data[2 + bit // 8] >> (bit % 8)) & 1 != (cl[bit // 8] >> (bit % 8)) & 1:
                return None  # its UID does not match the bits the reader chose
        out = bytearray(5)
        for k in range(40 - known):
            bit = known + k
            if (cl[bit // 8] >> (bit % 8)) & 1:
                out[k // 8] |= 1 << (k % 8)
        return bytes(out[: (40 - known + 7) // 8]), 40 - known, 0

    def _read(self, page):
        if page >= PAGES:
            self._error()
            return bytes((NAK,)), 4, 0
        self.reads += 1
        out = bytearray(16)
        for i in range(16):
            out[i] = self.memory[(page * 4 + i) % (PAGES * 4)]
        return with_crc(out), 18 * 8, 0

    def _write(self, page, four):
        if self.read_only or not USER_FIRST <= page <= USER_LAST:
            self._error()
            return bytes((NAK,)), 4, 0
        self.memory[page * 4 : page * 4 + 4] = four
        self.writes += 1
        return bytes((ACK,)), 4, WRITE_TIME_US
