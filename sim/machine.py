"""A virtual ``machine`` module: the Pico's buses and pins, for simulated peripherals.

The firmware's drivers receive ``Pin``/``SPI``/``PWM`` objects and never import this
module; the board set-up does ``import machine``, and in simulation (CPython or the
MicroPython unix port) this file is found first. Peripheral models sit on the other
side of the wire:

* a model that listens to a pin registers ``pin.watch(callback)``; the callback gets
  the pin after every level change the firmware makes;
* a model that drives a pin (a button, an open-drain data line) calls ``pin.drive(level)``;
  ``drive(None)`` releases it, so the pull resistor (or the firmware's output) decides;
* an SPI device model is attached with ``spi.attach(model, cs_pin)`` and implements
  ``select()``, ``deselect()`` and ``exchange(byte) -> byte``. Bytes go to the device
  whose chip-select is low; with none selected MISO floats high (0xFF), and when two are
  selected at once the open bus returns the AND of their replies (contention).

``SPI.stats`` counts transactions (CS low periods) and bytes for the scan benchmark.
"""

_pins = {}


class Pin:
    IN = 0
    OUT = 1
    OPEN_DRAIN = 2
    ALT = 3
    PULL_UP = 1
    PULL_DOWN = 2
    IRQ_FALLING = 4
    IRQ_RISING = 8

    def __new__(cls, id, *args, **kwargs):
        pin = _pins.get(id)
        if pin is None:
            pin = object.__new__(cls)
            pin.id = id
            pin.mode = Pin.IN
            pin.pull = None
            pin._out = 0
            pin._driven = None
            pin._watchers = []
            pin._irq = None
            pin._irq_trigger = 0
            _pins[id] = pin
        return pin

    def __init__(self, id, mode=-1, pull=-1, value=None, **kwargs):
        self.init(mode, pull, value)

    def init(self, mode=-1, pull=-1, value=None, **kwargs):
        before = self.value()
        if mode != -1:
            self.mode = mode
        if pull != -1:
            self.pull = pull
        if value is not None:
            self._out = 1 if value else 0
        self._changed(before)

    def value(self, level=None):
        if level is None:
            if self._driven is not None:
                if self.mode == Pin.OPEN_DRAIN and self._out == 0:
                    return 0
                return self._driven
            if self.mode in (Pin.OUT, Pin.OPEN_DRAIN):
                if self.mode == Pin.OPEN_DRAIN and self._out:
                    return 1 if self.pull != Pin.PULL_DOWN else 0
                return self._out
            return 1 if self.pull == Pin.PULL_UP else 0
        before = self.value()
        self._out = 1 if level else 0
        self._changed(before)

    __call__ = value

    def on(self):
        self.value(1)

    def off(self):
        self.value(0)

    def high(self):
        self.value(1)

    def low(self):
        self.value(0)

    def irq(self, handler=None, trigger=IRQ_FALLING | IRQ_RISING, **kwargs):
        self._irq = handler
        self._irq_trigger = trigger

    # --- the other side of the wire -------------------------------------------------
    def drive(self, level):
        """Drive the pin from outside (a button contact, a device's output); None releases it."""
        before = self.value()
        self._driven = None if level is None else (1 if level else 0)
        self._changed(before)

    def watch(self, callback):
        self._watchers.append(callback)

    def _changed(self, before):
        after = self.value()
        if after == before:
            return
        for callback in self._watchers:
            callback(self)
        if self._irq is not None:
            edge = Pin.IRQ_RISING if after else Pin.IRQ_FALLING
            if self._irq_trigger & edge:
                self._irq(self)

    def __repr__(self):
        return "Pin(%r)" % (self.id,)


class Wiring:
    """``machine`` as ``board.setup.build`` sees it on the simulated board: the one SPI bus with
    every peripheral model attached, and the PWM the buzzer gets (kept, so the device or a test
    can listen to it)."""

    def __init__(self, spi):
        self.Pin = Pin
        self.spi = spi
        self.pwm = None

    def SPI(self, *args, **kwargs):
        return self.spi

    def PWM(self, pin, **kwargs):
        self.pwm = PWM(pin, **kwargs)
        return self.pwm


def reset_pins():
    """Forget every pin (between simulated boots or tests)."""
    _pins.clear()


class SPIStats:
    def __init__(self):
        self.transactions = 0
        self.bytes = 0

    def reset(self):
        self.transactions = 0
        self.bytes = 0


class SPI:
    MSB = 0
    LSB = 1

    def __init__(self, id, baudrate=1000000, polarity=0, phase=0, bits=8, firstbit=0, sck=None, mosi=None, miso=None):
        self.id = id
        self.baudrate = baudrate
        self.polarity = polarity
        self.phase = phase
        self.stats = SPIStats()
        self._devices = []
        self._listening = []  # devices that see the next byte: those selected, and shift registers

    def init(self, baudrate=None, **kwargs):
        if baudrate:
            self.baudrate = baudrate

    def deinit(self):
        pass

    def attach(self, device, cs, shifts_always=False):
        """Wire a device model to this bus with its chip-select pin (active low). A device that
        ``shifts_always`` (a MAX7219, whose LOAD only latches) sees every byte on the bus and
        answers none (it does not drive MISO)."""
        self._devices.append((device, cs))
        selected = [False]
        if shifts_always:
            self._listening.append(device)

        def on_cs(pin):
            low = pin.value() == 0
            if low and not selected[0]:
                selected[0] = True
                self.stats.transactions += 1
                if not shifts_always:
                    self._listening.append(device)
                device.select()
            elif not low and selected[0]:
                selected[0] = False
                if not shifts_always:
                    self._listening.remove(device)
                device.deselect()

        cs.watch(on_cs)

    def _exchange(self, byte):
        self.stats.bytes += 1
        result = 0xFF
        for device in self._listening:
            result &= device.exchange(byte)
        return result

    def write(self, buf):
        for b in buf:
            self._exchange(b)

    def read(self, nbytes, write=0x00):
        return bytes(self._exchange(write) for _ in range(nbytes))

    def readinto(self, buf, write=0x00):
        for i in range(len(buf)):
            buf[i] = self._exchange(write)

    def write_readinto(self, write_buf, read_buf):
        for i in range(len(write_buf)):
            read_buf[i] = self._exchange(write_buf[i])


class PWM:
    """A PWM output; models read ``freq()``/``duty_u16()`` or watch ``changes``."""

    def __init__(self, pin, freq=0, duty_u16=0, **kwargs):
        self.pin = pin
        self._freq = freq
        self._duty = duty_u16
        self.changes = []  # (freq, duty_u16) after each change, for models and tests

    def freq(self, value=None):
        if value is None:
            return self._freq
        self._freq = value
        self.changes.append((self._freq, self._duty))

    def duty_u16(self, value=None):
        if value is None:
            return self._duty
        self._duty = value
        self.changes.append((self._freq, self._duty))

    def deinit(self):
        self._duty = 0
        self.changes.append((self._freq, 0))


class WDT:
    """The watchdog: the simulated device checks ``expired(now_ms)`` to emulate a reset."""

    def __init__(self, id=0, timeout=5000):
        if timeout > 8388:
            raise ValueError("timeout too long")
        self.timeout = timeout
        self.fed = 0

    def feed(self):
        self.fed += 1


# The chip's unique id (on a Pico, its flash chip's): sim/device.py gives each simulated table
# its own, kept with its storage; a table built in a test's own process keeps this one.
UNIQUE_ID = b"TTSIM\x00\x00\x01"


def unique_id():
    return UNIQUE_ID


def freq():
    return 125000000


def reset():
    raise SystemExit("machine.reset()")


def soft_reset():
    raise SystemExit("machine.soft_reset()")
