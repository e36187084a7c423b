"""A virtual tray: MFRC522 models on the reader bus of the reference board's pin map (one SPI
bus, one chip-select line each), with the MAX7219 display chain on the same SCK/MOSI, and a
shared clock.

Used by the tray tests, the soak and the scan benchmark::

    table = VirtualTray(zones=3)
    tray = Tray(table.openers, resolver)
    table.models[0].place(Ntag213(uid, user=record))
    events = table.run(tray, 200)   # 200 ms of virtual time: [(kind, zone, items, count, reason), ...]
    table.display.draw_text(0, "MUGG"); table.display.show()   # the firmware's driver, same bus
"""
import machine
from mfrc522_model import BusClock, MFRC522Model
from tiletable.board import pins


class ChipSelectLine:
    """A bare output line with what the drivers and ``SPI.attach`` use (init, value, watch),
    several times cheaper per byte than a full ``machine.Pin``."""

    OUT = 1

    def __init__(self, id):
        self.id = id
        self._level = 1
        self._watchers = []

    def init(self, mode=None, value=None, **kwargs):
        if value is not None:
            self.value(value)

    def value(self, level=None):
        if level is None:
            return self._level
        level = 1 if level else 0
        if level != self._level:
            self._level = level
            for callback in self._watchers:
                callback(self)

    __call__ = value

    def watch(self, callback):
        self._watchers.append(callback)

    def __repr__(self):
        return "Pin(%r)" % (self.id,)


class VirtualTray:
    """``zones`` readers (up to the pin map's nine) on the table's one reader bus, on the pin
    map's chip-select pins, and the display chain on its LOAD pin: ``chain`` is its model,
    ``display`` the firmware's driver for it (every ``show()`` puts display traffic on the bus
    the readers use, as the table does between scans); ``display=False`` leaves the chain off
    the bus, for tests that need the heap for more than the tray."""

    def __init__(self, zones, versions=None, access_us=70, display=True):
        if zones > len(pins.READER_CS):
            raise ValueError("%d zones; the pin map has chip-selects for %d" % (zones, len(pins.READER_CS)))
        machine.reset_pins()
        self.clock = BusClock(access_us)
        self.spi = machine.SPI(pins.READER_SPI, baudrate=pins.READER_BAUDRATE)
        self.models = []
        self.cs_pins = []
        self.openers = []
        self.most_fields_on = 0
        for i in range(zones):
            cs = ChipSelectLine(pins.READER_CS[i])
            model = MFRC522Model(self.clock, version=versions[i] if versions else 0x92)
            self.spi.attach(model, cs)
            self.models.append(model)
            self.cs_pins.append(cs)
            self.openers.append(self._opener(self.spi, cs))
        self.chain = self.display = None
        if display:
            from max7219_model import Max7219Chain
            from tiletable.drivers.max7219 import Max7219

            self.chain = Max7219Chain(pins.DISPLAY_MODULES)
            load = ChipSelectLine(pins.DISPLAY_LOAD)
            self.spi.attach(self.chain, load, shifts_always=True)
            self.display = Max7219(self.spi, load, modules=pins.DISPLAY_MODULES, max_brightness=pins.DISPLAY_MAX_INTENSITY)

    def _opener(self, spi, cs):
        from tiletable.drivers.mfrc522 import MFRC522

        return lambda: MFRC522(spi, cs)

    @property
    def early_frames(self):
        return sum(m.early_frames for m in self.models)

    def run(self, tray, ms, step_us=1000):
        """Call ``tray.poll`` for ``ms`` of virtual time; return the events as tuples."""
        end = self.clock.now_us + ms * 1000
        out = []
        while self.clock.now_us < end:
            tray.poll(self.clock.now_ms())
            on = 0
            for model in self.models:
                if model.field_on and model.miso_when_gone is None:
                    on += 1
            if on > self.most_fields_on:
                self.most_fields_on = on
            self.clock.advance_us(step_us)
            event = tray.events.get()
            while event is not None:
                out.append((event.kind, event.zone, event.items, event.count, event.reason))
                event = tray.events.get()
        return out


def inventory_trials(tags, trials, weak=0, seed=1):
    """Lay ``tags`` random NTAG213s on one pad ``trials`` times; run one inventory pass each.

    A pass is what the tray does on a change: WUPA + CL1 probe, then select every tag through
    its cascade levels, READ its record, HLTA, REQA for the next, until no tag answers (a
    failed select is retried by the next REQA, a failed READ leaves the record for later).
    Returns ``(passes that found every UID, passes that also read every record,
    mean SPI transactions, mean virtual ms)``.
    """
    from ntag213 import Ntag213, XorShift
    from tiletable.drivers.mfrc522 import MFRC522

    table = VirtualTray(1)
    model = table.models[0]
    reader = MFRC522(table.spi, table.cs_pins[0])
    rnd = XorShift(seed)
    uid = bytearray(10)
    record = bytearray(16)
    all_uids = all_records = transactions = elapsed = 0
    for trial in range(trials):
        pad = []
        for i in range(tags):
            serial = bytes([0x04] + [rnd.below(256) for _ in range(6)])
            pad.append(Ntag213(serial, user=bytes([i, trial & 0xFF]) * 8, weak=weak, seed=trial * 16 + i + 1))
        model.place(*pad)
        reader.antenna_on()
        table.clock.advance_us(5200)
        table.spi.stats.reset()
        start = table.clock.now_us
        found = {}
        if reader.probe():
            for _ in range(3 * tags + 3):
                n = reader.select_next(uid)
                if n == 0:
                    break
                if n > 0:
                    key = bytes(uid[:n])
                    if key not in found or found[key] is None:
                        found[key] = bytes(record) if reader.read(4, record) == 16 else None
                    reader.halt()
        transactions += table.spi.stats.transactions
        elapsed += table.clock.now_us - start
        reader.antenna_off()
        model.lift(*pad)
        if sorted(found) == sorted(t.uid for t in pad):
            all_uids += 1
            if all(found[t.uid] == bytes(t.memory[16:32]) for t in pad):
                all_records += 1
    return all_uids, all_records, transactions / trials, elapsed / trials / 1000
