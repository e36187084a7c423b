"""The simulated table's power cut at any instant of a match, in device time.

Shared by tests/sim/test_power_cut_table.py and bench/journal_flash.py. The table's files are
on littlefs over a NOR flash model that can lose power in the middle of a program or an erase
(sim/flashfs.py), and its services run in device time (sim/device.py). A ``Watch`` notes, step
by step, each record the table journals and when (the work of the step so far charged first),
when each becomes durable (the end of the flush that wrote it), the table's view after each step
that journalled (STATE's steady fields: what a person is shown), and the flushes in scan steps
(none but the one before a deal a play sets off, once the play's LEDs are lit).

A cut comes at a device instant ``cut_us``: before the first service step due at or after it,
or (``chip_steps`` set) inside the flash work that follows, the chip dying after that many
more steps (a programmed byte or a block erase); ``PowerCut`` then ends the play. The next
power-on finds the chip's image (``FlashTable.power_on_after_cut``).
"""
import io
import os

import device
import flashfs
from blockdev import PowerCut
from player import LocalControl

from tiletable.record import OVERHEAD, REC_ACTION, REC_END, REC_TIMED_ACTION, iter_records, payload_size
from tiletable.runtime.table import MODE_MENU

STEADY = ("mode", "ruleset", "players", "scores", "hand", "actions", "to_act", "prompt")
KEPT_WITHIN_MS = 100  # an accepted play is on flash this soon (issue 36)
SUMMARY = "hand over: OK for the next hand"


class Watch:
    """What one power-on of the table journals and flushes, in device time (see the module)."""

    def __init__(self, table):
        self.table = table
        self.journal = table.app.journal
        self.records = {}  # seq -> (raw record bytes, device us it was journalled, command number)
        self.step_end_us = {}  # seq -> device us when the step that journalled it ended
        self.durable_us = {}  # seq -> device us of the end of the step that made it durable
        self.views = {}  # the last seq a step journalled -> the steady view after that step
        self.scan_flushes = 0  # flushes in scan steps (only before a deal a play set off)
        self.flushes_before_play = 0  # flushes in a scan step before it accepted a play (none)
        self._scan_seq = None  # the journal's next seq when the scan step in progress began
        self.command = 0  # the control command in progress (a tile laid, a button pressed)
        self.durable_before = self.journal.durable_seq  # durable when the last whole step ended
        self.cut_us = None
        self.chip_steps = None  # None: the cut comes between steps; else inside the flash work
        self.cut = None  # (device us it came by at the latest, whether it fell between steps)
        self._hook()

    def _hook(self):
        journal = self.journal
        services = self.table.services
        app = self.table.app
        add, flush, run_next, scan = journal._add, journal.flush, services.run_next, app.scan

        def added(rtype, payload, tenths=-1):
            seq = add(rtype, payload, tenths)
            size = OVERHEAD + payload_size(payload if isinstance(payload, bytes) else payload.encode(), tenths)
            raw = bytes(journal._buf[journal._pending - size : journal._pending])
            self.records[seq] = (raw, self.now_us(), self.command)
            return seq

        def flushed():
            durable = journal.durable_seq
            flush()
            if self._scan_seq is not None and journal.durable_seq != durable:
                self.scan_flushes += 1
                if journal.next_seq == self._scan_seq:
                    self.flushes_before_play += 1
            now = self.now_us()
            for seq in range(durable + 1, journal.durable_seq + 1):
                self.durable_us[seq] = now

        def scanned(now_ms):
            self._scan_seq = journal.next_seq
            try:
                scan(now_ms)
            finally:
                self._scan_seq = None

        def stepped():
            bus = self.table.hardware.clock
            due = max(bus.now_us, services.next_due_us())
            chip = self.table.flash.chip
            if self.cut_us is not None and due >= self.cut_us and self.cut is None:
                if self.chip_steps is None:
                    self.cut = (due, True)
                    raise PowerCut("power cut at %d us, between steps" % due)
                if chip._budget < 0:
                    chip.cut_after(self.chip_steps)
            logged = journal.next_seq
            run_next()
            if chip.is_cut():
                self.cut = (bus.now_us, False)
                raise PowerCut("power cut at %d us, in a flash write" % bus.now_us)
            self.durable_before = journal.durable_seq
            for seq in range(logged, journal.next_seq):
                self.step_end_us[seq] = bus.now_us
            if journal.next_seq != logged:
                self.views[journal.next_seq - 1] = steady(self.table)

        journal._add = added
        journal.flush = flushed
        services.run_next = stepped
        app.scan = scanned

    def now_us(self):
        """The device time now, in the middle of a step: the work counted so far is charged
        first (as the simulation charges it before each LED write)."""
        services = self.table.services
        services.bus.advance_us(services.meter.cost_us())
        return services.bus.now_us

    def latencies_ms(self):
        """{seq: device ms from the record journalled to the end of the flush that wrote it};
        for the pieces of a deal the table makes itself (``D<seat>:``), from the end of the
        step that dealt them: a deal of a hand's unseen pieces holds its step for long (Moon
        0.4 s, Da San 1.1 s), the play that set it off being flushed before it."""
        out = {}
        for seq, (raw, logged, _) in self.records.items():
            if seq in self.durable_us:
                ((_, rtype, payload),) = iter_records(raw)
                since = self.step_end_us.get(seq, logged) if _is_deal(rtype, payload) else logged
                out[seq] = (self.durable_us[seq] - since) / 1000
        return out


def _is_deal(rtype, payload):
    """Whether a record is a piece the table dealt (``D0:5-6``, or unseen: ``D1:?``, ``K:?``)."""
    if rtype == REC_TIMED_ACTION:
        varint = 0
        while payload[varint] & 0x80:
            varint += 1
        payload = payload[varint + 1 :]
    deal = payload.endswith(b":?") or (payload[:1] == b"D" and payload[1:2].isdigit() and payload[2:3] == b":")
    return rtype in (REC_ACTION, REC_TIMED_ACTION) and deal


def steady(table):
    import json

    state = json.loads(table.app.table.snapshot())
    return {key: state.get(key) for key in STEADY}


class FlashTable(LocalControl):
    """``LocalControl`` of a simulated table whose files are on a ``flashfs.FlashFs`` (formatted,
    or ``image``), watched (``watch``) from power-on; ``fast`` as ``player.local_table``'s."""

    def __init__(self, root, fast=True, image=None):
        flashfs.install()
        self.root = str(root)
        self.fast = fast
        self.flash = flashfs.FlashFs(self.root, image=image).mount()
        self.pieces = device.Pieces()
        usb_in, self._usb_w = os.pipe()
        self._usb = os.fdopen(usb_in, "rb", buffering=0)
        self.watch = None
        self.commands = 0
        self.interactions = 0  # pieces laid and buttons pressed (not lifted, nor the table read)
        LocalControl.__init__(self, self._power_on)

    def _power_on(self):
        table = device.Device(self.root, None, self.pieces, self._usb, io.BytesIO(), fast=self.fast, flash=self.flash)
        table.flash = self.flash
        self.watch = Watch(table)
        self.watch.command = self.commands
        return table

    def command(self, line):
        self.commands += 1
        if line.startswith(("place", "press")):
            self.interactions += 1
        if self.watch is not None:
            self.watch.command = self.commands
        return LocalControl.command(self, line)

    def power_on_after_cut(self):
        """The next power-on: a new table on the flash as the cut left it."""
        self.flash.unmount()
        self.flash = flashfs.FlashFs(self.root, image=self.flash.chip.image).mount()
        self.device = self._boot()
        return self.device

    def close(self):
        self.flash.unmount()
        self._usb.close()
        os.close(self._usb_w)


def records_on_flash(journal):
    """``(seq, rtype, raw record)`` of every record on flash, oldest first."""
    out = bytearray(4096)
    after = 0
    found = []
    while True:
        n = journal.read_since(after, out)
        if not n:
            return found
        pos = 0
        for seq, rtype, payload in iter_records(out[:n]):
            size = OVERHEAD + len(payload)
            if seq <= journal.durable_seq:
                found.append((seq, rtype, bytes(out[pos : pos + size])))
            pos += size
            after = seq
        if after >= journal.durable_seq:
            return found


def check_cut(table, before):
    """After ``table.power_on_after_cut()``: what the table kept of what ``before`` (the Watch
    of the power-on the cut ended) saw, and how it resumed. Returns (records lost, whether the
    resumed view was compared with the one shown at that point of the match).

    * every record on flash is one the table journalled, as journalled, one after the other;
    * none that a whole step had made durable before the cut is lost;
    * what is lost was journalled by one command (the play in hand) and less than
      ``KEPT_WITHIN_MS`` of device time before the cut;
    * the table shows what it showed right after the last kept record was journalled (a
      match whose end was kept: the menu; between hands, the last hand's result first, as
      after any restart there).
    """
    journal = table.device.app.journal
    kept = records_on_flash(journal)
    seqs = [seq for seq, _, _ in kept]
    assert seqs == list(range(1, len(seqs) + 1)), seqs[:3] + seqs[-3:]
    for seq, _, raw in kept:
        assert raw == before.records[seq][0], (seq, raw, before.records[seq][0])
    last = seqs[-1] if seqs else 0
    assert last >= before.durable_before, "records made durable before the cut are lost: %d of %d" % (last, before.durable_before)
    lost = sorted(seq for seq in before.records if seq > last)
    cut_us = before.cut[0]
    if lost:
        commands = set(before.records[seq][2] for seq in lost)
        assert len(commands) == 1, "records of more than one command lost: %r" % [(s, before.records[s][2]) for s in lost]
        oldest = min(before.records[seq][1] for seq in lost)
        assert cut_us - oldest < KEPT_WITHIN_MS * 1000, "lost a record journalled %.1f ms before the cut" % ((cut_us - oldest) / 1000)
    shown = steady(table.device)
    if last and kept[-1][1] == REC_END:
        assert shown["mode"] == MODE_MENU, shown
        return len(lost), True
    if last not in before.views:  # a flush inside a step (a full buffer): no view was shown there
        return len(lost), False
    expected = dict(before.views[last])
    if shown["prompt"] == SUMMARY and expected["to_act"] == "chance":
        expected["prompt"] = SUMMARY  # resumed between hands: the last hand's result shows again first (OK goes on)
    assert shown == expected, "resumed at #%d showing\n%r\nwhere the match showed\n%r" % (last, shown, before.views[last])
    return len(lost), True
