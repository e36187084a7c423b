"""Bad-input soak for the tray scanner: many noisy placements on a virtual tray.

The readers sit on the reference board's one SPI bus (pin map: chip-selects, the display's LOAD)
and the MAX7219 display chain is written after every scan step, as the table does between
reads: its traffic crosses the readers' and each display write must read back whole.
Every zone runs its own sequence of episodes at the same time; each episode knows which
events it must produce, and any other event is a failure:

=========== ========================================================= ==========================
episode     what happens on the pad                                   events expected
=========== ========================================================= ==========================
clean       1-3 tiles laid together, held, lifted                     PLACED all, REMOVED all
hand        4-7 tiles (a hand scan)                                   PLACED all, REMOVED all
flicker     a tile put in and taken out between every two scans of    none
            its zone, 6-16 times (seen in every other scan)
mid-read    a tile that leaves after 0-8 answers (during its reads)   none
unknown     a blank, foreign or damaged tag                           UNKNOWN_TAG reason, REMOVED
duplicate   a tag claiming a tile another tag already claimed         UNKNOWN_TAG duplicate, REMOVED
weak        a tile failing 10-20 % of its answers                     PLACED+REMOVED, or none
swapped     a tile swapping two bytes in 5-15 % of its answers, the   PLACED+REMOVED, or none
            CRC_A of each made to match (damage CRC_A cannot see)
crosstalk   a tile the next zone's reader also hears (failing 0-30 %   PLACED+REMOVED, or none;
            of its answers there) from its own zone's first scan on   nothing on the next zone
            (a tag answering for another zone)
reader      the zone's reader drops off the bus, then comes back      READER_FAULT, READER_OK
=========== ========================================================= ==========================

A PLACED event naming a tile that was not lying on that pad (one only heard from the next
pad does not count as lying there), or naming a flicker or mid-read tile, is a phantom
placement.

On the hot pad the tray also previews first reads (SEEN); those are not an episode's events,
but each must be answered, before any other event of its zone, by UNSEEN or by PLACED naming
the previewed tile.
"""
from ntag213 import Ntag213, XorShift
from rfid_tray import VirtualTray
from tiletable import tagrecord
from tiletable.drivers.segments import glyph
from tiletable.runtime import identity
from tiletable.runtime.tray import PLACED, READER_FAULT, READER_OK, REMOVED, SEEN, UNKNOWN_TAG, UNSEEN, Tray

TILE = tagrecord.KIND_TILE
HOLD_SCANS = 3  # scans of the zone (plus 0-2) that a tile lies still before it is lifted ...
PATIENT_SCANS = 30  # ... or, while the table has not answered a tile it must answer, up to this many
HOLD_MS = 400  # how long a reader stays off the bus
GAP_MS = 100
LATE_MS = 3000
KINDS = (
    ("clean", 30),
    ("hand", 8),
    ("flicker", 20),
    ("mid-read", 12),
    ("unknown", 10),
    ("duplicate", 5),
    ("weak", 10),
    ("swapped", 10),
    ("crosstalk", 8),
    ("reader", 5),
)
TOTAL_WEIGHT = sum(w for _, w in KINDS)
FLICKER_SET = 65001  # fresh tiles use sets 2, 3, ... (55 tiles each), far below these
MID_READ_SET = 65002
CLAIMED = (TILE, 1, 0x00)  # claimed by a tag resolved before the soak starts: every copy is a duplicate


class Episode:
    def __init__(self, kind, zone, start_ms):
        self.kind = kind
        self.zone = zone
        self.start_ms = start_ms
        self.tags = []
        self.expected = []
        self.allowed = None  # a second acceptable outcome (a weak tile may never be confirmed)
        self.lift = None  # what ends the episode's hold, once the zone was scanned hold_scans times
        self.hold_scans = 0
        self.mark = 0  # the zone's field switches when the hold (or the last flicker swap) began
        self.flips = 0  # flicker: swaps still to do, one per scan of the zone
        self.end_ms = None  # set when the hold is over: the episode ends GAP_MS later, once settled
        self.lifted_ms = start_ms
        self.echo = None  # crosstalk: lays the tag's echo on the next pad, once its zone scanned it
        self.events = []


def waiting_for_table(ep):
    """Whether a player would still wait with the tile down: the episode must produce events
    and none came yet (a neighbour's echo or noise may take the tray a few more scans)."""
    return ep.allowed is None and bool(ep.expected) and not ep.events


class Soak:
    def __init__(self, zones=9, fields=1, hot=None, seed=1):
        self.table = VirtualTray(zones)
        resolver = identity.Resolver()
        resolver.resolve(b"\x04\xff\xff\xff\xff\xff\xff", tagrecord.encode(*CLAIMED))
        self.tray = Tray(self.table.openers, resolver, fields=fields, queue_size=32)
        self.tray.hot = hot
        self.rnd = XorShift(seed)
        self.serial = 0
        self.item = 0
        self.current = [None] * zones
        self.placements = 0
        self.counts = {}
        self.failures = []
        self.phantoms = 0
        self.faults_reported = 0
        self.confirmed = {}  # kind -> episodes confirmed, for the kinds that may not be
        self.events_seen = 0
        self.placed_latency = []  # ms from laying tiles to their PLACED event
        self.display_writes = 0
        self.display_errors = 0  # display writes that did not read back as written
        self.removed_latency = []  # ms from lifting them to their REMOVED event
        self.previews = 0  # SEEN events
        self.withdrawn = 0  # ... answered by UNSEEN
        self._previewed = {}  # zone -> the item its open SEEN named

    # --- tags ------------------------------------------------------------------------------
    def _uid(self):
        self.serial += 1
        n = self.serial
        return bytes((0x04, (n >> 16) & 0xFF, (n >> 8) & 0xFF, n & 0xFF, self.rnd.below(256), self.rnd.below(256), 0x5A))

    def _fresh_identity(self):
        """A tile identity used once: the 55 double-nine tiles of set 2, then set 3, ..."""
        self.item += 1
        pairs = [(a << 4) | b for a in range(10) for b in range(a, 10)]
        return (TILE, 2 + self.item // len(pairs), pairs[self.item % len(pairs)])

    def _tile(self, ident, **kwargs):
        return Ntag213(self._uid(), user=tagrecord.encode(*ident), seed=self.serial, **kwargs)

    # --- episodes ----------------------------------------------------------------------------
    def _pick(self):
        r = self.rnd.below(TOTAL_WEIGHT)
        for kind, weight in KINDS:
            if r < weight:
                return kind
            r -= weight
        return KINDS[0][0]

    def _new_episode(self, zone, now):
        kind = self._pick()
        ep = Episode(kind, zone, now)
        model = self.table.models[zone]
        ep.mark = model.field_switches
        ep.hold_scans = HOLD_SCANS + self.rnd.below(3)
        if kind in ("clean", "hand", "weak", "swapped"):
            n = 1 + self.rnd.below(3) if kind == "clean" else (4 + self.rnd.below(4) if kind == "hand" else 1)
            idents = sorted(self._fresh_identity() for _ in range(n))
            weak = 100 + self.rnd.below(101) if kind == "weak" else 0
            swaps = 50 + self.rnd.below(101) if kind == "swapped" else 0
            ep.tags = [self._tile(i, weak=weak, swaps=swaps) for i in idents]
            ep.expected = [(PLACED, idents, n), (REMOVED, idents, 0)]
            if kind in ("weak", "swapped"):
                ep.allowed = []
        elif kind == "crosstalk":
            ident = self._fresh_identity()
            tile = self._tile(ident)
            neighbour = self.table.models[(zone + 1) % len(self.current)]
            echo = Ntag213(tile.uid, user=tagrecord.encode(*ident), weak=self.rnd.below(301), seed=self.serial + 7)
            echo.echo = True  # the same tag, heard from the next pad: not lying there
            ep.echo = lambda: neighbour.place(echo)
            ep.tags = [tile]
            ep.expected = [(PLACED, [ident], 1), (REMOVED, [ident], 0)]
            ep.allowed = []  # heard by two zones all along: placed on neither
            model.place(tile)
            ep.lift = lambda: (model.lift(tile), neighbour.lift(echo))
            return ep
        elif kind == "flicker":
            ep.tags = [self._tile((TILE, FLICKER_SET, 0x99))]
            ep.flips = 2 * (3 + self.rnd.below(6))  # starts lifted: placed only between two scans
            return ep
        elif kind == "mid-read":
            ep.tags = [self._tile((TILE, MID_READ_SET, 0x88))]
            ep.tags[0].leave_after(self.rnd.below(9))  # never more than one full scan's answers
        elif kind == "duplicate":
            ep.tags = [self._tile(CLAIMED)]
            ep.expected = [(UNKNOWN_TAG, [CLAIMED], 1, tagrecord.DUPLICATE), (REMOVED, [], 0)]
        elif kind == "unknown":
            which = self.rnd.below(3)
            if which == 0:
                user, reason = None, tagrecord.BLANK
            elif which == 1:
                user, reason = b"\xe1\x10\x12\x00\x03\x0b\xd1", tagrecord.FOREIGN
            else:
                bad = bytearray(tagrecord.encode(*self._fresh_identity()))
                bad[5] ^= 0x10
                user, reason = bytes(bad), tagrecord.DAMAGED
            ep.tags = [Ntag213(self._uid(), user=user)]
            ep.expected = [(UNKNOWN_TAG, [], 1, reason), (REMOVED, [], 0)]
        else:  # reader
            model.drop_off_bus()
            ep.lift = model.reconnect
            ep.end_ms = now + HOLD_MS  # no scans while it is off the bus: hold by time
            ep.expected = [(READER_FAULT,), (READER_OK,)]
            return ep
        model.place(*ep.tags)
        ep.lift = lambda: model.lift(*ep.tags)
        return ep

    def _step(self, ep, now):
        """Advance an episode: swap a flicker tile, end a hold, or decide the episode is over."""
        model = self.table.models[ep.zone]
        scanned = model.field_switches - ep.mark
        if ep.echo is not None and scanned:
            ep.echo()
            ep.echo = None
        if ep.flips:
            if scanned and not model.field_on:
                if ep.tags[0] in model.tags:
                    model.lift(*ep.tags)
                else:
                    model.place(*ep.tags)
                ep.mark = model.field_switches
                ep.flips -= 1
                if not ep.flips:
                    model.lift(*ep.tags)
                    ep.end_ms = now + GAP_MS
            return False
        if ep.lift is not None:
            if ep.kind == "reader":
                if now < ep.end_ms:
                    return False
                ep.end_ms = now + self.tray.retry_ms + GAP_MS
            elif scanned < ep.hold_scans or model.field_on or (waiting_for_table(ep) and scanned < PATIENT_SCANS):
                return False
            else:
                ep.end_ms = now + GAP_MS
            ep.lift()
            ep.lift = None
            ep.lifted_ms = now
            return False
        if now < ep.end_ms:
            return False
        return ep.events == ep.expected or ep.events == ep.allowed or now >= ep.end_ms + LATE_MS

    # --- checks -------------------------------------------------------------------------------
    def _record(self, event, now):
        """Check ``event``, confirmed by the poll at ``now``."""
        if self._answer_preview(event):
            return
        self.events_seen += 1
        zone = event.zone
        ep = self.current[zone]
        model = self.table.models[zone]
        if event.kind == PLACED:
            on_pad = []
            for tag in model.tags:
                if not tag.gone and not getattr(tag, "echo", False):
                    try:
                        on_pad.append(tagrecord.decode(tag.memory[16:32]))
                    except tagrecord.TagRecordError:
                        pass
            for item in event.items:
                if item not in on_pad or item[1] in (FLICKER_SET, MID_READ_SET):
                    self.phantoms += 1
                    self.failures.append(("phantom", ep.kind, event.zone, item))
        if event.kind == READER_FAULT:
            self.faults_reported += 1
        if ep is not None and event.kind == PLACED and ep.kind in ("clean", "hand"):
            self.placed_latency.append(now - ep.start_ms)
        if ep is not None and event.kind == REMOVED and ep.kind in ("clean", "hand"):
            self.removed_latency.append(now - ep.lifted_ms)
        summary = (event.kind, sorted(event.items), event.count)
        if event.kind == UNKNOWN_TAG:
            summary = summary + (event.reason,)
        elif event.kind in (READER_FAULT, READER_OK):
            summary = (event.kind,)
        if ep is None:
            self.failures.append(("event outside an episode", summary))
        else:
            ep.events.append(summary)

    def _answer_preview(self, event):
        """Pair previews with their answers; True for SEEN and UNSEEN (no episode's events)."""
        zone = event.zone
        open_item = self._previewed.pop(zone, None)
        if event.kind == SEEN:
            self.previews += 1
            if open_item is not None:
                self.failures.append(("preview left open", zone, open_item))
            self._previewed[zone] = event.items[0]
            return True
        if event.kind == UNSEEN:
            self.withdrawn += 1
            if open_item is None:
                self.failures.append(("unseen without a preview", zone))
            return True
        if open_item is not None and not (event.kind == PLACED and open_item in event.items):
            self.failures.append(("preview answered by another event", zone, open_item, event.kind, event.items))
        return False

    def _finish(self, ep):
        self.placements += 1
        self.counts[ep.kind] = self.counts.get(ep.kind, 0) + 1
        if ep.events == ep.expected:
            if ep.allowed is not None:
                self.confirmed[ep.kind] = self.confirmed.get(ep.kind, 0) + 1
        elif ep.allowed is None or ep.events != ep.allowed:
            self.failures.append((ep.kind, ep.zone, ep.expected, ep.events))

    def _write_display(self):
        """Show the number of episodes finished on all 16 digits, then read the chain back."""
        text = "%016d" % (self.placements * 1000 + self.display_writes % 1000)
        display = self.table.display
        for i in range(len(text)):
            display.buffer[i] = glyph(text[i])
        display.show()
        self.display_writes += 1
        chain = self.table.chain
        if not (chain.reads(0, text[:8]) and chain.reads(1, text[8:])):
            self.display_errors += 1

    def run(self, placements):
        """Run until ``placements`` episodes finished; returns self with the counts."""
        clock = self.table.clock
        tray = self.tray
        started = 0
        while self.placements < placements:
            now = clock.now_ms()
            for zone in range(len(self.current)):
                ep = self.current[zone]
                if ep is not None and self._step(ep, now):
                    self._finish(ep)
                    self.current[zone] = ep = None
                if ep is None and started < placements:
                    started += 1
                    self.current[zone] = self._new_episode(zone, now)
            tray.poll(now)
            self._write_display()
            event = tray.events.get()
            while event is not None:
                self._record(event, now)
                event = tray.events.get()
            step = (tray.next_poll_ms(now) - clock.now_ms()) * 1000
            clock.advance_us(step if step > 0 else 1000 - clock.now_us % 1000)
        self.lost = tray.events.lost
        return self
