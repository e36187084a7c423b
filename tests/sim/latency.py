"""Placement latency of the in-process simulated table, in its device time (sim/chip_costs.py).

Shared by tests/sim/test_device_time.py and bench/table_latency.py: a scripted Muggins match
on a local ``Device``, whose tile placements on the mover's pad are timed from the tag landing
on the reader to the first LED change and to the first display change.
"""
import random
import tempfile

from player import LinePlayer, LocalControl, local_table

from tiletable.engine.line_actions import P_PLAY
from tiletable.engine.tiles import tile_str

_IDLE_MS = 2000  # the idle window the scan periods are measured over
_WATCH_MS = 150  # as bench/chip.py: the window ends at the next action (the tile lifted, 126-182 ms there)
_WAIT_MS = 120  # a placement comes 0..this after the previous action (bench/chip.py's RANDOM_WAIT_MS)
_MESSAGE_CLEAR_MS = 1700  # an out-of-turn tile's Err message must be gone before the next placement
_FLASH_MS = 300  # the green flash of the last play (status_leds.py) is over first, as between bench/chip.py's actions
_OTHER_SHARE = 0.3  # about this share of turns also gets a tile laid out of turn first


class _Enough(Exception):
    """Raised by the control once enough placements are timed: the match stops there."""


class LatencyRun:
    def __init__(self):
        self.samples = []  # (kind, led ms or None, display ms or None)
        self.idle_periods = []
        self.idle_busy_pct = 0.0
        self.device_ms = 0

    def led(self, kind):
        return [s[1] for s in self.samples if s[0] == kind and s[1] is not None]

    def display(self, kind):
        return [s[2] for s in self.samples if s[0] == kind and s[2] is not None]


class TimedControl(LocalControl):
    """``LocalControl`` whose single-tile placements are timed; a random wait (seeded) comes
    before each, so tiles land at random points of the scan cycle."""

    def __init__(self, power_on, run, placements, seed):
        LocalControl.__init__(self, power_on)
        self.run = run
        self.placements = placements
        self.rng = random.Random(seed)
        self.player = None  # the LinePlayer, whose engine knows the other seats' hands

    def place(self, zone, *items):
        if len(items) != 1:
            return LocalControl.place(self, zone, *items)
        if len(self.run.samples) >= self.placements:
            raise _Enough()
        device = self.device
        if zone == device.app.table.hot_zone and self.rng.random() < _OTHER_SHARE:
            self._out_of_turn(zone)
        device.run_for(_FLASH_MS + self.rng.randrange(_WAIT_MS + 1))
        kind = "mover" if zone == device.app.table.hot_zone else "lot"
        self.run.samples.append((kind,) + lay(device, zone, items[0]))
        return LocalControl.place(self, zone, *items)  # the tile is there: this only waits for the scan

    def _out_of_turn(self, mover_zone):
        """A tile from another seat's hand laid on that seat's pad, lifted, its message let clear."""
        player = self.player
        seats = [s for s in range(player.players) if player.pad(s) != mover_zone]
        seat = self.rng.choice(seats)
        tiles = list(player.god.hands[seat])
        if not tiles:
            return
        zone = player.pad(seat)
        self.device.run_for(self.rng.randrange(_WAIT_MS + 1))
        self.run.samples.append(("other",) + lay(self.device, zone, tile_str(self.rng.choice(tiles))))
        LocalControl.place(self, zone)  # waits for the scan
        self.remove(zone)
        self.device.run_for(_MESSAGE_CLEAR_MS)


def lay(device, zone, item):
    """Lay ``item`` on ``zone``: device ms to the first LED change and to the first display
    change (None for one that did not come within ``_WATCH_MS``)."""
    hardware = device.hardware
    display = hardware.display()
    strip = hardware.board.strip
    lit = bytes(strip.buf)
    writes = device.services.led_writes
    hardware.readers[zone].place(device.pieces.tag(item))
    start = hardware.clock.now_us
    end = start + _WATCH_MS * 1000
    times = [None, None]

    def changed():
        now = hardware.clock.now_us
        if times[0] is None:  # the LEDs are timed by the write that changed them
            for written_us, colours in writes:
                if written_us >= start and colours != lit:
                    times[0] = (written_us - start) / 1000
                    break
        if times[1] is None and hardware.display() != display:
            times[1] = (now - start) / 1000
        return times[0] is not None and times[1] is not None

    device.services.run_until(end, changed)
    return times[0], times[1]


def idle_scan(device, run):
    """Scan periods per zone and CPU busy share over ``_IDLE_MS`` of an idle table."""
    readers = device.hardware.readers
    switches = [r.field_switches for r in readers]
    busy = device.services.busy_us
    device.run_for(_IDLE_MS)
    run.idle_periods = [_IDLE_MS / max(1, r.field_switches - s) for r, s in zip(readers, switches)]
    run.idle_busy_pct = 100.0 * (device.services.busy_us - busy) / (_IDLE_MS * 1000)


def measure_match(placements=40, seed=14, root=None, flash=False):
    """A ``LatencyRun``: the idle scan, then up to ``placements`` timed tiles of a Muggins match;
    with ``flash``, the table's files on littlefs at the chip's costs (sim/flashfs.py), so the
    journal's flushes take their time, else in a directory that costs nothing."""
    run = LatencyRun()
    root = root or tempfile.mkdtemp(prefix="latency-")
    control = local_table(root, lambda power_on: TimedControl(power_on, run, placements, seed), fast=False, flash=flash)
    idle_scan(control.device, run)
    try:
        control.player = LinePlayer(control, "muggins", 2, seed=seed)
        control.player.play_match()
    except _Enough:
        pass
    run.device_ms = control.device.clock()
    return run


# --------------------------------------------------------------------------- tiles at any pace

PACE_LIE_MS = 100  # as bench/chip.py: a tile lies this long at least before it is lifted into the line


class PacedRun:
    """What ``measure_paced`` saw: per tile on the mover's pad that is a play (not one that fits
    two ends, whose end the seat's buttons choose), the interval from the previous tile and the
    ms to its verdict on the LEDs."""

    def __init__(self):
        self.samples = []  # (interval ms or None, verdict ms or None, False)

    def verdicts(self, lo=0, hi=10**9):
        return [s[1] for s in self.samples if s[0] is not None and lo <= s[0] < hi]


class PacedControl(LocalControl):
    """``LocalControl`` that lays each tile on the mover's pad ``intervals`` ms (seeded, from
    the ``(lo, hi)`` given) after the previous tile, and never waits for the table's answer:
    the table runs on to the next tile, and the tile is lifted (without waiting for the scan)
    once it has lain ``PACE_LIE_MS`` or when its pad is wanted again."""

    def __init__(self, power_on, run, placements, seed, intervals):
        LocalControl.__init__(self, power_on)
        self.run = run
        self.placements = placements
        self.rng = random.Random(seed)
        self.intervals = intervals
        self.lying = {}  # zone -> device us its tile was laid
        self.last_us = None  # when the last tile at pace was laid
        self.frames = []  # (device us, strip bytes) of every LED write
        self.player = None
        self._hook(self.device)

    def _hook(self, device):
        strip = device.app.board.strip
        write = strip.write  # Services' charged write: it notes the time in led_writes

        def noted():
            write()
            self.frames.append(device.services.led_writes[-1])

        strip.write = noted

    def place(self, zone, *items):
        device = self.device
        if len(items) != 1 or zone != device.app.table.hot_zone or self.player.god.phase != P_PLAY:
            self._lift_all()
            self.last_us = None
            return LocalControl.place(self, zone, *items)
        if len(self.run.samples) >= self.placements:
            raise _Enough()
        clock = device.hardware.clock
        if zone in self.lying:
            self._lift(zone)
        interval = self.rng.randrange(*self.intervals)
        if self.last_us is not None:
            device.services.run_until(max(clock.now_us, self.last_us + interval * 1000))
        for other in list(self.lying):
            if clock.now_us - self.lying[other] >= PACE_LIE_MS * 1000:
                device.hardware.readers[other].lift(*device.hardware.readers[other].tags)
                del self.lying[other]
        since = (clock.now_us - self.last_us) / 1000 if self.last_us is not None else None
        start = clock.now_us
        device.hardware.readers[zone].place(device.pieces.tag(items[0]))
        self.lying[zone] = self.last_us = start
        # the table runs on until the tile is taken in (no longer: the next tile may come at once)
        taken = device.services.run_until(start + 2000 * 1000, lambda: device.settled(zone))
        assert taken, "the tile on zone %d was never confirmed" % zone
        choice = device.app.table.controller.choice is not None  # it fits two ends: the seat's buttons choose
        if choice:
            device.run_for(20)  # as LocalControl.place: the table has drawn the choice
        self.run.samples.append([None if choice else since, start, choice])
        return "ok"

    def remove(self, zone, *items):
        if zone in self.lying and not items:
            return "ok"  # lifted at the next tile, or before its pad is used again
        self._lift_all()
        return LocalControl.remove(self, zone, *items)

    def _lift(self, zone):
        device = self.device
        device.services.run_until(max(device.hardware.clock.now_us, self.lying[zone] + PACE_LIE_MS * 1000))
        del self.lying[zone]
        return LocalControl.remove(self, zone)

    def _lift_all(self):
        for zone in list(self.lying):
            self._lift(zone)

    def finish(self):
        """Each sample's verdict (the first frame after it that turns every LED green, or the
        dark blink that began that flash) and first display change, before the next tile."""
        self._lift_all()
        samples = self.run.samples
        ends = [s[1] for s in samples[1:]] + [None]
        for sample, end in zip(samples, ends):
            sample[1] = _verdict_ms(self.frames, sample[1], end)
        self.run.samples = [tuple(s) for s in samples if not s[2]]


def _is(frame, colour):
    """Whether every LED of a strip frame (GRB bytes) is ``colour``: green, or dark."""
    for at in range(0, len(frame), 3):
        g, r, b = frame[at], frame[at + 1], frame[at + 2]
        if colour == "dark" and (g or r or b):
            return False
        if colour == "green" and (r or b or not g):
            return False
    return True


def _verdict_ms(frames, start, end):
    for i, (written, frame) in enumerate(frames):
        if written < start or (end is not None and written >= end):
            continue
        if _is(frame, "green") and (i == 0 or frames[i - 1][1] != frame):
            while i and frames[i - 1][0] >= start and _is(frames[i - 1][1], "dark"):
                i -= 1
                written = frames[i][0]
            return (written - start) / 1000
    return None


def measure_paced(placements=20, seed=14, intervals=(100, 300), root=None, flash=False):
    """A ``PacedRun``: up to ``placements`` tiles of a 2-player Muggins match laid on the
    mover's pad at ``intervals`` after the previous one, never waiting for the LEDs."""
    run = PacedRun()
    root = root or tempfile.mkdtemp(prefix="paced-")
    control = local_table(root, lambda power_on: PacedControl(power_on, run, placements, seed, intervals), fast=False, flash=flash)
    try:
        control.player = LinePlayer(control, "muggins", 2, seed=seed)
        control.player.play_match()
    except _Enough:
        pass
    control.finish()
    return run
