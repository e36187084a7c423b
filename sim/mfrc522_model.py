"""A wire-level MFRC522 (NXP data sheet rev 3.9) for ``machine.SPI.attach(model, cs)``.

What the model does, with the data sheet section it follows:

* SPI framing (§8.1.2): the first byte is ``R/W << 7 | address << 1``. A read transaction
  sends one address per byte and a final 0x00; MISO returns the register named by the
  previous byte, so one transaction may read several registers (and drains the FIFO
  when it repeats the FIFODataReg address). A write transaction writes every following
  byte to the same register (a burst into the FIFO).
* FIFO (§8.3): 64 bytes, FIFOLevelReg, FlushBuffer, BufferOvfl on overflow.
* Commands (§10.3): Idle, CalcCRC (CRC_A of the FIFO into CRCResultReg, DivIrqReg.CRCIRq),
  Transceive (sent when BitFramingReg.StartSend is set; TxLastBits and RxAlign honoured),
  SoftReset (registers to their reset values, field off, PowerDown reads 1 while the
  oscillator restarts). TxModeReg/RxModeReg CRC generation is not modelled: the driver
  computes CRC_A itself, and the tags reject frames whose CRC is wrong.
* Interrupts and errors (§9.3.1.5-7): ComIrqReg with Set1 semantics, ErrIRq following
  ErrorReg (CollErr, ParityErr, BufferOvfl), RxIRq at the end of a reception, TimerIRq.
* Timer (§8.5): with TModeReg.TAuto it starts at the end of a transmission and expires
  after TReload ticks of (2·TPrescaler+1)/13.56 MHz unless an answer starts first.
* Collisions (§9.3.1.15 CollReg): several tags answering in one field are superposed bit
  by bit; the first bit where they differ is a collision. CollPos numbers bits from 1 at
  the first bit of the first FIFO byte (RxAlign included, as NXP documents for the
  RxColl register of its newer readers), 0 meaning bit 32; CollPosNotValid beyond that.
  With CollReg.ValuesAfterColl = 0 every bit from the collision on reads 0.
* RF field (§9.3.2.5 TxControlReg Tx1RFEn/Tx2RFEn): tags are unpowered while the field is
  off (losing their HALT state) and need 5.1 ms of field before the first command
  (ISO/IEC 14443-3 §6.1); frames sent earlier get no answer and are counted in
  ``early_frames``.

Time is virtual: a shared ``BusClock`` advances by ``access_us`` per SPI transaction (the
host's cost of one register access) and radio events happen at their air times
(106 kbit/s, one etu = 128/13.56 MHz). Faults: ``version`` (a clone's VersionReg),
``drop_off_bus(miso)`` (the chip stops answering: MISO floats high, or is stuck low),
tags' own faults (see ntag213). The model counts nothing about the bus; ``spi.stats`` does.
"""

_COMMAND = 0x01
_COM_IRQ = 0x04
_DIV_IRQ = 0x05
_ERROR = 0x06
_STATUS2 = 0x08
_FIFO_DATA = 0x09
_FIFO_LEVEL = 0x0A
_CONTROL = 0x0C
_BIT_FRAMING = 0x0D
_COLL = 0x0E
_MODE = 0x11
_TX_CONTROL = 0x14
_CRC_RESULT_H = 0x21
_CRC_RESULT_L = 0x22
_T_MODE = 0x2A
_T_PRESCALER = 0x2B
_T_RELOAD_H = 0x2C
_T_RELOAD_L = 0x2D
_VERSION = 0x37

CALC_CRC = 0x03
TRANSCEIVE = 0x0C
SOFT_RESET = 0x0F
_POWER_DOWN = 0x10

_IRQ_TX = 0x40
_IRQ_RX = 0x20
_IRQ_ERR = 0x02
_IRQ_TIMER = 0x01
_ERR_BUFFER_OVFL = 0x10
_ERR_COLL = 0x08
_ERR_PARITY = 0x02

# Reset values (data sheet table 20 and §9.3): only registers the model interprets.
_RESET = {
    _COMMAND: 0x20,
    _COM_IRQ: 0x14,
    _CONTROL: 0x10,
    _COLL: 0xA0,
    _MODE: 0x3F,
    _TX_CONTROL: 0x80,
    _CRC_RESULT_H: 0xFF,
    _CRC_RESULT_L: 0xFF,
}

ETU_NS = 9440  # one bit at 106 kbit/s
FDT_US = 91  # ISO 14443-3 §6.2.1.1: (9·128 + 84)/fc before the tag answers
FIELD_POWER_UP_US = 5100  # ISO 14443-3 §6.1: field on at least 5.1 ms before a command
OSCILLATOR_START_US = 200  # PowerDown reads 1 this long after SoftReset


def _air_us(nbits):
    """Frame time: data bits, one parity bit per byte, start and end of communication."""
    return ((nbits + nbits // 8 + 2) * ETU_NS) // 1000


class BusClock:
    """Virtual time shared by the readers on one bus and by the test driving the scanner."""

    def __init__(self, access_us=70):
        self.now_us = 0
        self.access_us = access_us

    def advance_us(self, us):
        self.now_us += us

    def now_ms(self):
        return self.now_us // 1000


class MFRC522Model:
    """One reader chip and the tags in its field (``place``/``lift``)."""

    def __init__(self, clock=None, version=0x92, rst=None):
        self.clock = clock or BusClock()
        self.version = version
        self.tags = []
        self.miso_when_gone = None
        self.held_in_reset = False
        self.early_frames = 0
        self.frames = 0
        self.field_switches = 0  # off -> on transitions: one per scan when the scanner cycles the field
        self._reset()
        if rst is not None:
            rst.watch(self._on_rst)

    # --- the test's side -----------------------------------------------------------
    def place(self, *tags):
        for tag in tags:
            tag.power_off()
            tag.placed_us = self.clock.now_us
            self.tags.append(tag)

    def lift(self, *tags):
        for tag in tags:
            if tag in self.tags:
                self.tags.remove(tag)
                tag.power_off()

    def drop_off_bus(self, miso=0xFF):
        """The chip stops answering (loose wire, brown-out): MISO floats high or sticks low."""
        self.miso_when_gone = miso

    def reconnect(self):
        """Back on the bus after a power cycle: registers at their reset values."""
        self.miso_when_gone = None
        self._reset()

    @property
    def field_on(self):
        return bool(self.regs[_TX_CONTROL] & 0x03)

    # --- SPI device protocol ---------------------------------------------------------
    def select(self):
        self.clock.advance_us(self.clock.access_us)
        self._catch_up()
        self._first = True
        self._read_addr = None
        self._write_addr = None

    def deselect(self):
        self._read_addr = None
        self._write_addr = None

    def exchange(self, byte):
        if self.miso_when_gone is not None:
            return self.miso_when_gone
        if self.held_in_reset:
            return 0x00
        if self._first:
            self._first = False
            if byte & 0x80:
                self._read_addr = (byte >> 1) & 0x3F
            else:
                self._write_addr = (byte >> 1) & 0x3F
            return 0x00
        if self._write_addr is not None:
            self._write(self._write_addr, byte)
            return 0x00
        value = self._read(self._read_addr) if self._read_addr is not None else 0x00
        self._read_addr = (byte >> 1) & 0x3F if byte & 0x80 else None
        return value

    # --- registers ---------------------------------------------------------------------
    def _reset(self):
        self.regs = bytearray(64)
        for reg, value in _RESET.items():
            self.regs[reg] = value
        self._flush()
        self.errors = 0
        self.irq = _RESET[_COM_IRQ]
        self.div_irq = 0
        self.rx_last_bits = 0
        self.pending = []  # (time_us, action, argument) of radio events in flight
        self.awake_at = 0
        self.field_on_at = None
        for tag in self.tags:
            tag.power_off()

    def _fifo_level(self):
        return len(self.fifo) - self.fifo_head

    def _flush(self):
        self.fifo = bytearray()
        self.fifo_head = 0  # bytes before it were read out already

    def _on_rst(self, pin):
        """NRSTPD (§8.6.1): low is hard power-down, the rising edge a reset."""
        self.held_in_reset = not pin.value()
        if not self.held_in_reset:
            self._reset()
            self.awake_at = self.clock.now_us + OSCILLATOR_START_US

    def _read(self, reg):
        self._catch_up()
        if reg == _COMMAND:
            return self.regs[_COMMAND] | (_POWER_DOWN if self.clock.now_us < self.awake_at else 0)
        if reg == _COM_IRQ:
            return self.irq | (_IRQ_ERR if self.errors else 0)
        if reg == _DIV_IRQ:
            return self.div_irq
        if reg == _ERROR:
            return self.errors
        if reg == _FIFO_DATA:
            if not self._fifo_level():
                return 0x00
            value = self.fifo[self.fifo_head]
            self.fifo_head += 1
            return value
        if reg == _FIFO_LEVEL:
            return self._fifo_level()
        if reg == _CONTROL:
            return (self.regs[_CONTROL] & 0xF8) | self.rx_last_bits
        if reg == _VERSION:
            return self.version
        return self.regs[reg]

    def _write(self, reg, value):
        self._catch_up()
        if reg == _COMMAND:
            self._command(value)
        elif reg == _COM_IRQ:
            marked = value & 0x7F
            self.irq = self.irq | marked if value & 0x80 else self.irq & ~marked
        elif reg == _DIV_IRQ:
            marked = value & 0x7F
            self.div_irq = self.div_irq | marked if value & 0x80 else self.div_irq & ~marked
        elif reg == _FIFO_DATA:
            if self._fifo_level() >= 64:
                self.errors |= _ERR_BUFFER_OVFL
            else:
                self.fifo.append(value)
                if self.regs[_COMMAND] & 0x0F == CALC_CRC:
                    self._calc_crc()
        elif reg == _FIFO_LEVEL:
            if value & 0x80:
                self._flush()
                self.errors &= ~_ERR_BUFFER_OVFL
        elif reg == _BIT_FRAMING:
            self.regs[reg] = value
            if value & 0x80 and self.regs[_COMMAND] & 0x0F == TRANSCEIVE:
                self._transmit()
        elif reg == _COLL:
            self.regs[reg] = (self.regs[reg] & 0x7F) | (value & 0x80)
        elif reg == _TX_CONTROL:
            was_on = self.field_on
            self.regs[reg] = value
            if self.field_on and not was_on:
                self.field_on_at = self.clock.now_us
                self.field_switches += 1
            elif was_on and not self.field_on:
                self.field_on_at = None
                for tag in self.tags:
                    tag.power_off()
        elif reg != _VERSION and reg != _ERROR and reg != _STATUS2:
            self.regs[reg] = value

    def _command(self, value):
        command = value & 0x0F
        if command == SOFT_RESET:
            self._reset()
            self.awake_at = self.clock.now_us + OSCILLATOR_START_US
            return
        self.regs[_COMMAND] = value & 0x3F
        self.pending = []  # a new command aborts a transmission or reception in flight
        if command == CALC_CRC:
            self._calc_crc()

    def _calc_crc(self):
        preset = (0x0000, 0x6363, 0xA671, 0xFFFF)[self.regs[_MODE] & 0x03]
        crc = preset
        for i in range(self.fifo_head, len(self.fifo)):
            crc ^= self.fifo[i]
            for _ in range(8):
                crc = (crc >> 1) ^ 0x8408 if crc & 1 else crc >> 1
        self._flush()
        self.regs[_CRC_RESULT_L] = crc & 0xFF
        self.regs[_CRC_RESULT_H] = crc >> 8
        self.div_irq |= 0x04

    # --- radio -------------------------------------------------------------------------
    def _timer_us(self):
        if not self.regs[_T_MODE] & 0x80:
            return None
        prescaler = ((self.regs[_T_MODE] & 0x0F) << 8) | self.regs[_T_PRESCALER]
        reload = (self.regs[_T_RELOAD_H] << 8) | self.regs[_T_RELOAD_L]
        return reload * (2 * prescaler + 1) * 100 // 1356

    def _transmit(self):
        framing = self.regs[_BIT_FRAMING]
        last_bits = framing & 0x07
        rx_align = (framing >> 4) & 0x07
        data = bytes(self.fifo[self.fifo_head :])
        self._flush()
        if not data:
            return
        self.errors &= _ERR_BUFFER_OVFL  # the other error bits clear at receiver start-up (§9.3.1.7)
        nbits = (len(data) - 1) * 8 + (last_bits or 8)
        now = self.clock.now_us
        tx_end = now + _air_us(nbits)
        self.frames += 1
        answers = []
        delay = 0
        if self.field_on:
            if now - self.field_on_at < FIELD_POWER_UP_US:
                self.early_frames += 1
            else:
                for tag in list(self.tags):
                    if tag.gone:
                        self.tags.remove(tag)
                        continue
                    if now - tag.placed_us < FIELD_POWER_UP_US:
                        continue
                    answer = tag.receive(data, nbits)
                    if answer is not None:
                        answers.append(answer)
                        delay = max(delay, answer[2])
        self.pending = [(tx_end, self._tx_done, None)]
        timer = self._timer_us()
        rx_start = tx_end + FDT_US + delay
        if answers and (timer is None or rx_start < tx_end + timer):
            rx_bits = max(a[1] for a in answers)
            self.pending.append((rx_start + _air_us(rx_bits), self._rx_done, (answers, rx_align)))
        elif timer is not None:
            self.pending.append((tx_end + timer, self._timer_done, None))

    def _catch_up(self):
        now = self.clock.now_us
        while self.pending and self.pending[0][0] <= now:
            _, action, argument = self.pending.pop(0)
            action(argument)

    def _tx_done(self, _):
        self.irq |= _IRQ_TX

    def _timer_done(self, _):
        self.irq |= _IRQ_TIMER

    def _rx_done(self, arguments):
        answers, rx_align = arguments
        total = 0
        for answer in answers:
            total = max(total, answer[1])
        keep_after_collision = self.regs[_COLL] & 0x80
        out = bytearray((rx_align + total + 7) // 8)
        first_collision = None
        for i in range(total):
            index = i >> 3
            mask = 1 << (i & 7)
            ones = zeros = 0
            for data, nbits, _ in answers:
                if i < nbits:
                    if data[index] & mask:
                        ones += 1
                    else:
                        zeros += 1
            if first_collision is None and ones and zeros:
                first_collision = i
            if ones and (first_collision is None or keep_after_collision):
                p = rx_align + i
                out[p >> 3] |= 1 << (p & 7)
        space = 64 - self._fifo_level()
        if len(out) > space:
            self.errors |= _ERR_BUFFER_OVFL
            out = out[:space]
        self.fifo.extend(out)
        self.rx_last_bits = (rx_align + total) % 8
        coll = keep_after_collision
        if first_collision is None:
            coll |= 0x20
        else:
            self.errors |= _ERR_COLL | _ERR_PARITY
            position = rx_align + first_collision + 1
            coll |= (position & 0x1F) if position <= 32 else 0x20
        self.regs[_COLL] = coll
        self.irq |= _IRQ_RX
