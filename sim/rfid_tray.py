"""A virtual tray: MFRC522 models on one SPI bus with one CS pin each, and a shared clock.

Used by the tray tests, the soak and the scan benchmark::

    table = VirtualTray(zones=3)
    tray = Tray(table.openers, resolver)
    table.models[0].place(Ntag213(uid, user=record))
    events = table.run(tray, 200)   # 200 ms of virtual time: [(kind, zone, items, count, reason), ...]
"""
import machine
from mfrc522_model import BusClock, MFRC522Model

FIRST_CS = 17


class VirtualTray:
    def __init__(self, zones, versions=None, access_us=70):
        machine.reset_pins()
        self.clock = BusClock(access_us)
        self.spi = machine.SPI(0, baudrate=10000000)
        self.models = []
        self.cs_pins = []
        self.openers = []
        self.most_fields_on = 0
        for i in range(zones):
            cs = machine.Pin(FIRST_CS + i, machine.Pin.OUT, value=1)
            version = versions[i] if versions else 0x92
            model = MFRC522Model(self.clock, version=version)
            self.spi.attach(model, cs)
            self.models.append(model)
            self.cs_pins.append(cs)
            self.openers.append(self._opener(cs))

    def _opener(self, cs):
        from tiletable.drivers.mfrc522 import MFRC522

        spi = self.spi
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
