"""The tray scanner: RFID zones in, confirmed zone events out.

Each zone has one MFRC522. ``Tray.poll(now_ms)`` does one short step and returns, so the
runtime can call it from a loop or an ``async def run()`` without threads.

**Fields.** A tag answers only after 5.1 ms in a field (ISO/IEC 14443-3 §6.1), so what a
zone costs is mostly that wait. Up to ``fields`` antennas are on at once (the USB power
budget, hardware/POWER.md), never two that ``conflicts`` pairs (antennas close enough to
disturb each other, miguelbalboa/rfid#536); the scanner waits by returning, never by sleeping.

Every visit of a zone is the same: field on, settle, scan, field off, which also resets every
tag in it (no halted tag left to ignore the next REQA); only an inventory pass keeps its field
on from one visit to the next (below). While one field settles, the scanner
scans another, so with two fields a zone costs about half the settle.

* **The hot zone** (``tray.hot``: the pad of the seat to move, or a trick zone, which the table
  sets) is *watched*: with a second field left for the others, its field stays on and it is
  probed again every ``_WATCH_US`` (for up to ``_WATCH_MAX_US``, then it is cycled), so a tile
  laid there is first read as soon as it has power (5.1 ms). While it holds several tiles (a
  trick so far), each visit in a fresh field reads them all (an inventory, which halts each)
  and the watch then sends REQA alone, which a halted tag does not answer: only a tag laid
  since does (several tags answer a probe with the same collision whether or not one more has
  come, so a probe would not tell; one tile's whole UID is the probe's, and the pad holding it
  has visits: a tile lifted and laid again there is seen gone in between). What the watch hears
  is read whole at once (WUPA wakes the halted tags), and confirmed in a fresh field, a visit
  that goes before any other zone's. Without a second field (or beside a zone its field would
  disturb) it has every other visit instead.
* **A change to confirm** (a zone whose last scan differed from what it holds) has the next
  free field, before any other zone: its second look comes one settle later, in a fresh field.
* **Every other zone** in ``tray.active`` (default: all) takes its turn in what is left.

**A scan** is cheap unless something changed: ``probe()`` sends WUPA and walks the UID's
cascade levels while no collision shows (CL1, and CL2 for a 7-byte UID, without reading
anything). No answer means an empty pad; the same collision-free signature as last time means
the same single tag. Only a new signature, a pending change, or a pad with several tags
(re-checked every ``recheck_ms``, since one more tag may not change the first collision) runs
the full **inventory**: select a tag through its cascade levels, read its record if its UID is
new (one NTAG READ of pages 4-7), HLTA, REQA for the next, until no tag answers. A visit
selects at most ``_PASS_TAGS`` tags and the pass goes on at the zone's next visit, its field
left on and its tags halted: a hand of seven laid on a pad (100 ms of radio on the Pico) is
read in steps that give the loop back.

**Debounce.** A scan gives an observation: the set of UIDs on the pad, or nothing when the
radio kept failing (a pass cut short never counts). A change is committed only after
``confirm_polls`` identical observations in a row (``removal_polls`` when tags only left), each
from a visit of its own (a fresh field, every tag reset in between), and only once every new tag
has an identity or a definite reason. A tile seen in one visit and gone in the next, or a single
read in a burst of noise, never gets that far; a tile that stays is confirmed one settle after
it was first read instead of a whole round of the tray later. A record that does not check out
counts only once read the same twice (two bytes swapped in the air pass CRC_A but never twice
alike), and a tag another zone holds or heard in its latest scan is left out of this zone's
observation (a tile heard from the next pad is no play there).

**Events** (``ZoneEvent``) go into a preallocated ring (``events.get()``): PLACED with the
identities that arrived, REMOVED with those that left, UNKNOWN_TAG with a reason per tag that
cannot be used, READER_FAULT / READER_OK, TAG_WRITTEN when an enrolment job ended. Every
event carries ``count``, the number of tags on the pad after the change, so a consumer
expecting exactly one tile can refuse two instead of guessing.

**Previews.** On the hot zone, the first read of one more tile whose identity is known gives
SEEN at once (its ``items``: that tile), one settle before the read that confirms it, so the
table can show its verdict while the tray makes sure. SEEN is never a placement: PLACED with
that tile follows when it is confirmed, and UNSEEN when the change fell through (the tile was
not there in the fresh field, or something else was); ``previews`` counts the SEENs still
awaiting theirs.

**Jobs.** ``tray.job``, an object with a ``zone`` and ``run(tray, zone, now_ms)``, runs once
the next time that zone's field is on and settled, before its scan: enrolment writes a tag's
record this way (runtime/tags.py's ``TagWrite``, which reports with a TAG_WRITTEN event), and
the tray carries none of that code during a game. Scanning an idle tray allocates nothing
(tests run it with the heap locked); allocation happens when something changes (new UIDs,
observations, events' item tuples).

**Time.** ``ticks_us`` (``time.ticks_us`` on the Pico) times the settle; without
it the scanner counts in the milliseconds ``poll`` is given, and waits 7 ms for a field (both
stamps may be truncated by up to 1 ms).
"""
from micropython import const

from tiletable import tagrecord
from tiletable.drivers.clock import ticks_add, ticks_diff
from tiletable.drivers.mfrc522 import NAK
from tiletable.runtime.identity import Resolver
from tiletable.tagrecord import UNREADABLE


PLACED = "placed"
REMOVED = "removed"
UNKNOWN_TAG = "unknown tag"
READER_FAULT = "reader fault"
READER_OK = "reader ok"
TAG_WRITTEN = "tag written"
SEEN = "seen"
UNSEEN = "unseen"

_SETTLE_US = const(5200)  # > 5.1 ms of field before the first command (ISO/IEC 14443-3 §6.1)
_SETTLE_MS_COARSE = const(7)  # the same from millisecond stamps, each truncated by up to 1 ms
_WATCH_US = const(2000)  # how soon a watched field (the hot zone's) is probed again
_WATCH_MAX_US = const(100000)  # a watched field is cycled after this long
_SPIN_US = const(1500)  # the hot zone's confirmation is polled for, not slept for, this close to it
_RECORD_PAGE = const(4)
_PASS_TAGS = const(2)  # tags an inventory selects per visit: a pad holding a hand answers in steps
_CACHE_MAX = const(128)  # UIDs whose identity is kept: a double-nine set is 55 tiles, a deck 52 cards
_EMPTY = frozenset()
_PASSING = object()  # an inventory pass that goes on at the zone's next visit
_QUIET = object()  # the watch of a zone holding halted tags heard none laid since


class ZoneEvent:
    """One confirmed change on one zone. The ring reuses these objects: copy what you keep.

    ``time_ms`` (ticks_ms) is when the change was first observed, a few scans before it was
    confirmed: the order of what people did (App takes the tray's and the buttons' in it).
    ``items`` are identities ``(kind, set_id, item)``; ``uid`` and ``reason`` are set for
    UNKNOWN_TAG (``items`` then holds the identity a duplicate claims, if any) and ``reason``
    for READER_FAULT.
    """

    def __init__(self):
        self.set(None, 0, 0, (), 0, None, None)

    def set(self, kind, zone, time_ms, items, count, reason, uid):
        self.kind = kind
        self.zone = zone
        self.time_ms = time_ms
        self.items = items
        self.count = count
        self.reason = reason
        self.uid = uid


class EventQueue:
    """A fixed ring of ZoneEvents; when full the oldest is overwritten and ``lost`` counts it."""

    def __init__(self, size):
        self._ring = [ZoneEvent() for _ in range(size)]
        self._head = 0
        self._len = 0
        self.lost = 0

    def __len__(self):
        return self._len

    def put(self, kind, zone, time_ms, items=(), count=0, reason=None, uid=None):
        size = len(self._ring)
        if self._len == size:
            self._head = (self._head + 1) % size
            self._len -= 1
            self.lost += 1
        self._ring[(self._head + self._len) % size].set(kind, zone, time_ms, items, count, reason, uid)
        self._len += 1

    def peek(self):
        """The oldest event, left in the queue, or None."""
        return self._ring[self._head] if self._len else None

    def get(self):
        """The oldest event, or None. Valid until ``size`` more events are put."""
        if not self._len:
            return None
        event = self._ring[self._head]
        self._head = (self._head + 1) % len(self._ring)
        self._len -= 1
        return event


class _Zone:
    def __init__(self, index, open_reader):
        self.index = index
        self.open_reader = open_reader
        self.reader = None
        self.faulted = False
        self.retry_at = None
        self.present = {}  # confirmed: uid -> (identity, reason)
        self.present_set = _EMPTY
        self.candidate = None  # the observation being voted on
        self.candidate_ms = 0  # when it was first observed: the time of the events it confirms
        self.votes = 0
        self.signature = bytearray(10)
        self.signature_bits = -1
        self.last_seen = _EMPTY  # the latest full observation, reused while the signature holds
        self.heard = _EMPTY  # the latest observation, whichever way it was made
        self.inventory_ms = 0  # when the last full inventory ran
        self.conflicts = 0  # bit mask of the zones whose fields must not be on with this one's
        self.on = False  # its field is on (the scanner's view; the driver keeps its own)
        self.due_us = 0  # when it is next scanned, once settled
        self.on_us = 0  # when its field went on
        self.again = False  # a change to confirm: its field goes on again before any other
        self.rushed = 0  # visits in a row it had that way (bounded: a zone that never settles waits its turn)
        self.previewed = False  # SEEN went out for its candidate: PLACED or UNSEEN must follow
        self.passing = None  # the UIDs an inventory pass found so far, while it goes on (its field stays on)
        self.pass_single = False  # the probe that began the pass saw one tag
        self.pass_tries = 0  # selects the pass may still make
        self.halted = False  # a pass in the field still on halted every tag it holds (Tray._heard)


def _reader_error(zone):
    """The OSError the zone's reader raised (its driver keeps it in ``error``)."""
    return zone.reader.error or OSError("the reader of zone %d stopped answering" % zone.index)


class Tray:
    """Zones ``0..n-1``, one per entry of ``readers``: callables that open the zone's MFRC522.

    A callable (e.g. ``lambda: MFRC522(spi, Pin(17))``) lets the tray reopen a reader that
    dropped off the bus; it is retried every ``retry_ms``. ``fields`` antennas may be on at
    once; ``conflicts`` lists the pairs of zones whose fields must never be on together.
    ``hot`` and ``active`` may be changed at any time (see the module docstring).
    """

    def __init__(
        self,
        readers,
        resolver=None,
        fields=1,
        conflicts=(),
        queue_size=16,
        confirm_polls=2,
        removal_polls=3,
        recheck_ms=120,
        unreadable_after=4,
        max_tags=12,
        retry_ms=1000,
        ticks_us=None,
    ):
        self.zones = [_Zone(i, opener) for i, opener in enumerate(readers)]
        for a, b in conflicts:
            self.zones[a].conflicts |= 1 << b
            self.zones[b].conflicts |= 1 << a
        self.resolver = resolver if resolver is not None else Resolver()
        self.fields = fields
        self.events = EventQueue(queue_size)
        self.confirm_polls = confirm_polls
        self.removal_polls = removal_polls
        self.recheck_ms = recheck_ms
        self.unreadable_after = unreadable_after
        self.max_tags = max_tags
        self.retry_ms = retry_ms
        self._ticks_us = ticks_us
        self.settle_us = _SETTLE_US if ticks_us is not None else _SETTLE_MS_COARSE * 1000
        self.hot = None  # the zone of the pad to move from: watched, or every other visit
        self.active = None  # the zones to scan (a sequence), or None for every zone
        self._next = 0  # where the round of the other zones goes on
        self._hot_turn = True  # the hot zone's turn comes next
        self._on_mask = 0  # zones whose fields are on
        self._lit = []  # the same zones (at most ``fields``): what poll looks through
        self._rushes = 0  # zones with a change to confirm (``again``)
        self._powered = True  # the last poll switched a field on or off: there may be room for another
        self.previews = 0  # zones whose SEEN awaits its PLACED or UNSEEN (the app holds collections meanwhile)
        self._uid = bytearray(10)
        self._record = bytearray(16)
        self._known = {}  # uid -> (identity, reason), shared by every zone
        self._failures = {}  # uid -> reads failed in a row
        self._unusable = {}  # uid -> the record last read from it that does not check out
        self._scan_ms = 0  # the time of the visit in progress (_scan_or_error)
        self.job = None  # runs once when its zone's field is on and settled (runtime/tags.py's TagWrite)

    def _now_us(self, now_ms):
        return self._ticks_us() if self._ticks_us is not None else now_ms * 1000

    # The scan's steps are small methods: MicroPython puts the frame of a call that needs more
    # than 11 words (arguments, locals, stack, 3 per try block) on the heap, and at idle the
    # scanner makes a thousand calls a second.
    def next_poll_ms(self, now_ms):
        """When ``poll`` next has work to do (``now_ms`` if at once): the async wrapper sleeps till then."""
        if len(self._lit) < self.fields and self._powered:
            return now_ms  # perhaps one more field to switch on
        zone = self._soonest()
        if zone is None:
            return ticks_add(now_ms, 1)  # nothing could be powered (readers awaiting a retry)
        wait = ticks_diff(zone.due_us, self._now_us(now_ms))
        if wait <= 0 or (wait < _SPIN_US and zone.candidate is not None and zone.index == self.hot):
            return now_ms  # (a confirmation on the hot pad is not left to a millisecond timer)
        return ticks_add(now_ms, (wait + 999) // 1000)

    def poll(self, now_ms):
        """One step: scan one zone whose field is on and settled; else power one more. With a
        microsecond clock, which knows how long the scan took, a visit is followed at once by
        powering the next zone in the field it freed."""
        now_us = self._now_us(now_ms)
        zone = self._soonest()
        if zone is not None and ticks_diff(now_us, zone.due_us) >= 0:
            self._visit(zone, now_ms)
            self._powered = True  # its field is free again
            if self._ticks_us is None:
                return
            now_us = self._ticks_us()
        self._powered = False
        if len(self._lit) < self.fields:
            zone = self._pick()
            if zone is not None:
                self._field_on(zone, now_ms, now_us)
                self._powered = zone.on

    def _soonest(self):
        """The zone whose field is on and settles first, or None. The hot zone confirming a
        change goes before every other: a scan of another zone would hold up its answer."""
        lit = self._lit
        best = None
        i = len(lit)
        while i:
            i -= 1
            zone = lit[i]
            if zone.index == self.hot and zone.candidate is not None:
                return zone
            if best is None or ticks_diff(zone.due_us, best.due_us) < 0:
                best = zone
        return best

    # --- fields ------------------------------------------------------------------------------
    def _pick(self):
        """The next zone to power: a change to confirm, else the hot zone every other time, else
        the next of the round."""
        if self._rushes:
            zone = self._rushed()
            if zone is not None:
                return zone
        hot = self._hot_zone()
        if hot is not None and self._hot_turn:
            self._hot_turn = False
            return hot
        zone = self._round()
        if zone is not None:
            self._hot_turn = True
            return zone
        return hot  # nothing else to scan

    def _rushed(self):
        """A zone with a change to confirm whose field may go on now, or None."""
        zones = self.zones
        i = 0
        while i < len(zones):
            zone = zones[i]
            if zone.again and not zone.on and self._may_power(zone):
                return zone
            i += 1
        return None

    def _hot_zone(self):
        """The hot zone when its field may go on now, or None."""
        hot = self.hot
        zones = self.zones
        if hot is None or not 0 <= hot < len(zones):
            return None
        zone = zones[hot]
        return None if zone.on or not self._may_power(zone) else zone

    def _round(self):
        """The next zone of the round whose field may go on now, or None."""
        count = len(self.active) if self.active is not None else len(self.zones)
        tries = count
        while tries:
            tries -= 1
            zone = self._round_zone(count)
            if zone is not None and not self._may_power(zone):
                return None  # its turn waits for the field that would disturb it (no zone starves)
            self._next = (self._next + 1) % count
            if zone is not None:
                return zone
        return None

    def _round_zone(self, count):
        """The zone at the round's place, or None when it is not one to power there (the hot
        zone, one the tray does not have, or one whose field is on)."""
        active = self.active
        index = active[self._next % count] if active is not None else self._next % count
        zones = self.zones
        if index == self.hot or not 0 <= index < len(zones) or zones[index].on:
            return None
        return zones[index]

    def _may_power(self, zone):
        return not self._on_mask & zone.conflicts

    def _field_on(self, zone, now_ms, now_us):
        if zone.reader is None:
            self._open(zone, now_ms)
            if zone.reader is None:
                return  # not due for a retry yet, or the retry failed (a fault was reported)
        zone.on = True
        zone.halted = False
        zone.on_us = now_us
        zone.due_us = ticks_add(now_us, self.settle_us)
        self._mark_rush(zone, False)
        self._on_mask |= 1 << zone.index
        self._lit.append(zone)
        zone.reader.antenna_on()  # a register write: a reader gone from the bus shows at the scan

    def _field_off(self, zone):
        zone.on = False
        zone.halted = False
        self._on_mask &= ~(1 << zone.index)
        self._lit.remove(zone)
        if zone.reader is not None:
            zone.reader.antenna_off()

    def _visit(self, zone, now_ms):
        """Run the zone's job if it has one, scan it, switch its field off. A change still to be
        confirmed gets the next free field (``again``), up to ``removal_polls`` visits in a row."""
        job = self.job
        if job is not None and job.zone == zone.index and zone.reader is not None:
            self.job = None
            job.run(self, zone, now_ms)
        if zone.reader is not None:
            err = self._scan_or_error(zone, now_ms)
            if err is not None:
                self._fault(zone, now_ms, err)
        now_us = self._now_us(now_ms)
        if zone.passing is not None:
            zone.due_us = now_us  # the pass goes on at the next poll, its tags still halted in the field
            return
        if self._watches(zone, now_us):
            zone.due_us = ticks_add(now_us, _WATCH_US)
            zone.rushed = 0
            return
        self._field_off(zone)
        self._mark_rush(zone, zone.candidate is not None and zone.reader is not None and zone.rushed < self.removal_polls)
        zone.rushed = zone.rushed + 1 if zone.again else 0

    def _watches(self, zone, now_us):
        """Whether the zone's field stays on to be probed again soon: the hot zone's, while its
        pad is empty or the several tags it holds are halted (a probe that finds tags costs several
        frames, REQA to halted tags one), and nothing there waits for confirmation (that needs a fresh
        field), another field is left for the round (not held by a pass), and no zone must wait for it to go off.
        After ``_WATCH_MAX_US`` the field is cycled all the same, which resets whatever tag
        lies there."""
        return (
            zone.index == self.hot
            and ticks_diff(now_us, zone.on_us) < _WATCH_MAX_US
            and zone.candidate is None
            and (zone.halted or not zone.present)
            and zone.reader is not None
            and not zone.conflicts
            and self._round_has_a_field(zone)
        )

    def _round_has_a_field(self, zone):
        """Whether a field other than the zone's is left for the round: not one held by an
        inventory pass that goes on (a hand being read on another pad)."""
        free = self.fields - 1
        for other in self._lit:
            if other is not zone and other.passing is not None:
                free -= 1
        return free > 0

    def _mark_rush(self, zone, again):
        if again != zone.again:
            zone.again = again
            self._rushes += 1 if again else -1

    def _scan_or_error(self, zone, now_ms):
        """Scan the zone; the OSError of a reader that stopped answering, else None."""
        self._scan_ms = now_ms
        return self._guarded_scan(zone)

    def _guarded_scan(self, zone):
        # No ``except OSError as err``: its hidden handler (and now_ms, passed in _scan_ms) would
        # take this frame over 11 words, onto the heap at every visit. The driver keeps the error.
        try:
            self._scan(zone, self._scan_ms)
        except OSError:
            return _reader_error(zone)

    def forget(self, uid):
        """Identify ``uid`` afresh (its record was just written, or the UID table changed): the
        next scans of a pad holding it read its record again and report what it is now."""
        uid = bytes(uid)
        self._known.pop(uid, None)
        self._failures.pop(uid, None)
        self._unusable.pop(uid, None)
        self.resolver.forget(uid)
        for zone in self.zones:
            if uid in zone.present:
                del zone.present[uid]
                zone.present_set = frozenset(zone.present)
                zone.signature_bits = -1

    def tags_on(self, zone):
        """What the tray last confirmed on ``zone``: ``[(uid, identity or None, reason or None)]``.

        :raises IndexError: for a zone the tray does not have.
        """
        return [(uid, found[0], found[1]) for uid, found in self.zones[zone].present.items()]

    # --- readers ---------------------------------------------------------------------------
    def _open(self, zone, now_ms):
        """Try to open the zone's reader when a retry is due; true if an attempt was made."""
        if zone.retry_at is not None and ticks_diff(now_ms, zone.retry_at) < 0:
            return False
        try:
            reader = zone.open_reader()
        except OSError as err:
            self._fault(zone, now_ms, err)
            return True
        except MemoryError:  # no room for its driver now (a start that found none): not the reader's fault
            zone.retry_at = ticks_add(now_ms, self.retry_ms)
            return True
        zone.reader = reader
        zone.retry_at = None
        zone.signature_bits = -1
        if reader.is_clone:
            self.events.put(READER_FAULT, zone.index, now_ms, reason="clone version 0x%02x in use" % reader.version)
        elif zone.faulted:
            self.events.put(READER_OK, zone.index, now_ms, count=len(zone.present))
        zone.faulted = False
        return True

    def _fault(self, zone, now_ms, err):
        if not zone.faulted:
            self.events.put(READER_FAULT, zone.index, now_ms, count=len(zone.present), reason=str(err))
        zone.faulted = True
        zone.reader = None
        zone.retry_at = ticks_add(now_ms, self.retry_ms)
        zone.passing = None
        self._drop_candidate(zone, now_ms)
        zone.heard = _EMPTY

    # --- one zone ------------------------------------------------------------------------------
    def _scan(self, zone, now_ms):
        """Probe the zone, or go on with its inventory pass, and vote on what it holds."""
        reader = zone.reader
        if zone.passing is not None:
            observed = self._pass(zone, reader)  # no probe: its WUPA would wake the pass's halted tags
        elif zone.halted:
            observed = self._heard(zone, reader)
            if observed is _QUIET:
                return  # its tags keep quiet in the field still on, and no other came
        else:
            bits = reader.probe()
            if bits == 0 and zone.present:
                bits = reader.probe()  # one more WUPA before believing a tile left: weak tags miss one
            if bits == 0:
                zone.signature_bits = 0
                observed = _EMPTY
            elif bits > 0 and self._same_signature(zone, reader) and self._resolved(zone.last_seen) and (
                reader.is_single() or (zone.candidate is None and zone.index != self.hot and ticks_diff(now_ms, zone.inventory_ms) < self.recheck_ms)
            ):
                # the very tags the last inventory read: one (its whole UID), or several (their
                # first collision) for recheck_ms, as one more may not change it; but not on the
                # hot zone, whose tags an inventory halts for its watch (_heard)
                observed = zone.last_seen
            else:
                zone.inventory_ms = now_ms
                observed = self._inventory(zone, reader)
        if observed is _PASSING:
            return
        if observed is not None:
            zone.heard = observed
        if observed is not zone.present_set or zone.votes:  # else nothing to vote on (the idle case)
            self._vote(zone, observed, now_ms)

    def _heard(self, zone, reader):
        """The watch of a zone whose every tag a pass halted in the field still on: ``_QUIET``
        while no tag answers REQA. A tag that does was laid since (or lifted and laid again):
        it is selected (its record read if new) and halted, and a probe's WUPA wakes them all.
        Several answer: the tiles it held and that one (what REQA cannot hear, a tile that left
        meanwhile, the confirming inventory will); one: that tile alone (the others were
        lifted). None: no telling. The zone's next scan reads it whole (``signature_bits``)."""
        if not reader.request():
            return _QUIET
        n = reader.select_next(self._uid)
        zone.halted = False
        zone.signature_bits = -1
        if n <= 0:
            return None
        key = bytes(self._uid[:n])
        if key not in self._known:
            self._identify(reader, key)
        reader.halt()
        if reader.probe() <= 0:
            return None
        if not reader.is_single():
            return zone.last_seen | {key}
        n = reader.probed_uid(self._uid)
        return frozenset((bytes(self._uid[:n]),)) if n else None

    def _same_signature(self, zone, reader):
        if reader.signature_bits != zone.signature_bits:
            return False
        a = reader.signature
        b = zone.signature
        for i in range(10):
            if a[i] != b[i]:
                return False
        return True

    def _inventory(self, zone, reader):
        """Every tag on the pad as a frozenset of UIDs, None when the radio kept failing, or
        ``_PASSING`` when the pass goes on at the zone's next visit (``_pass``).

        When the probe saw one tag and no collision, its UID is the probe's and there is no
        other: the pass selects it only to read a record it does not know yet, and asks no more.
        """
        zone.signature_bits = -1
        single = reader.is_single()
        if single:
            uid = self._uid
            key = bytes(uid[: reader.probed_uid(uid)])
            if key in self._known:
                return self._observed(zone, reader, {key})
        zone.passing = set()
        zone.pass_single = single
        zone.pass_tries = 3 * self.max_tags + 3  # each tag once, plus a retry or a NAK'd READ each
        return self._pass(zone, reader)

    def _pass(self, zone, reader):
        """Select up to ``_PASS_TAGS`` more tags of the zone's pass, reading the records not known
        yet, and halt each; the pass's result once no tag is left (as ``_inventory``), else
        ``_PASSING``: the field stays on and the halted tags keep quiet until the next visit, so
        a pad holding a hand of seven is read in steps that give the loop back.

        A failed select does not spoil the pass: the tag falls back to IDLE and answers a later
        REQA (the driver sends a second REQA after an error). The pass ends when no tag
        answers; a read that fails leaves the UID in the set and the record for the next scan.
        The probe's signature is kept only for a pass that agrees with it (found a tag, and
        exactly one when the probe saw no collision), so a later scan may reuse the pass.
        """
        seen = zone.passing
        uid = self._uid
        budget = _PASS_TAGS
        while zone.pass_tries:
            zone.pass_tries -= 1
            n = reader.select_next(uid)
            if n == 0:
                zone.passing = None
                if not seen or (zone.pass_single and len(seen) != 1):
                    return None  # the probe heard tags that the pass did not find: look again
                zone.halted = True  # every tag it found was halted, and no other answers
                return self._observed(zone, reader, seen)
            if n < 0:
                continue
            key = bytes(uid[:n])
            if key not in seen and key not in self._known:
                self._identify(reader, key)
            seen.add(key)
            if zone.pass_single:
                zone.passing = None
                return self._observed(zone, reader, seen)
            reader.halt()
            budget -= 1
            if not budget:
                return _PASSING
        zone.passing = None
        return None

    def _observed(self, zone, reader, seen):
        """The pass's result, kept with the probe's signature for the scans that reuse it."""
        signature = reader.signature
        for i in range(10):
            zone.signature[i] = signature[i]
        zone.signature_bits = reader.signature_bits
        observed = frozenset(seen)
        zone.last_seen = observed
        return observed

    def _identify(self, reader, uid):
        r = reader.read(_RECORD_PAGE, self._record)
        if r == NAK or (r == 16 and self._believable(uid)):
            if len(self._known) >= _CACHE_MAX:
                self._known.clear()
            self._known[uid] = self.resolver.resolve(uid, self._record if r == 16 else None)
            self._failures.pop(uid, None)
        else:
            self._failures[uid] = self._failures.get(uid, 0) + 1

    def _resolved(self, uids):
        """Whether every UID has an identity or a definite reason (no record still to read)."""
        for uid in uids:
            if self._resolution(uid) is None:
                return False
        return True

    def _believable(self, uid):
        """Whether the record just read may be taken as the tag's: one whose own checksum holds,
        or the same bytes that do not check out read twice in a row. Damage in the air that
        CRC_A cannot see (two bytes swapped, the CRC matching) spoils one read, never the same
        way twice; a tag that is blank, foreign or damaged reads the same every time."""
        record = self._record
        try:
            tagrecord.decode(record)
            self._unusable.pop(uid, None)
            return True
        except tagrecord.TagRecordError:
            pass
        if self._unusable.get(uid) == record:
            del self._unusable[uid]
            return True
        if len(self._unusable) >= _CACHE_MAX:
            self._unusable.clear()
        self._unusable[uid] = bytes(record)
        return False

    def _resolution(self, uid):
        """(identity, reason) of a UID, or None while its record may still be read."""
        known = self._known.get(uid)
        if known is not None:
            return known
        if self._failures.get(uid, 0) >= self.unreadable_after:
            return None, UNREADABLE
        return None

    # --- debounce -------------------------------------------------------------------------------
    def _vote(self, zone, observed, now_ms):
        if observed is None:  # no telling what lay there: the observations around it are not in a row
            self._drop_candidate(zone, now_ms)
            return
        if observed != zone.present_set:
            observed = self._own(zone, observed)
        if observed == zone.present_set:
            self._drop_candidate(zone, now_ms)
            return
        if observed == zone.candidate:
            zone.votes += 1
        else:
            self._drop_candidate(zone, now_ms)
            zone.candidate = observed
            zone.candidate_ms = now_ms
            zone.votes = 1
            if zone.index == self.hot:
                self._preview(zone, observed, now_ms)
        only_removals = observed.issubset(zone.present_set)
        if zone.votes < (self.removal_polls if only_removals else self.confirm_polls):
            return
        for uid in observed:
            if uid not in zone.present and self._resolution(uid) is None:
                return  # a new tag whose record is still being read
        self._commit(zone, observed)

    def _drop_candidate(self, zone, now_ms):
        """Forget the change being voted on; UNSEEN if it had been previewed."""
        if zone.previewed:
            zone.previewed = False
            self.previews -= 1
            self.events.put(UNSEEN, zone.index, now_ms, (), len(zone.present))
        zone.candidate = None
        zone.votes = 0

    def _preview(self, zone, observed, now_ms):
        """SEEN for a first read that adds one tile of known identity to the pad, nothing else."""
        if len(observed) != len(zone.present) + 1:
            return
        for uid in observed:
            if uid not in zone.present:
                found = self._resolution(uid)
                if found is None or found[1] is not None:
                    return
                arrived = found[0]
        for uid in zone.present:
            if uid not in observed:
                return
        zone.previewed = True
        self.previews += 1
        self.events.put(SEEN, zone.index, now_ms, (arrived,), len(observed))

    def _own(self, zone, observed):
        """``observed`` without the new tags another zone holds or heard in its latest scan: a
        tag that answers two readers (lying between pads, or heard from the next pad) is not
        placed on a second zone, and on none until only one zone hears it."""
        for uid in observed:
            if uid not in zone.present and self._held_elsewhere(zone, uid):
                return frozenset(u for u in observed if u in zone.present or not self._held_elsewhere(zone, u))
        return observed

    def _held_elsewhere(self, zone, uid):
        for other in self.zones:
            if other is not zone and (uid in other.present or uid in other.heard):
                return True
        return False

    def _commit(self, zone, observed):
        """Confirm ``observed`` on ``zone``: its events carry the time it was first seen."""
        since = zone.candidate_ms
        old = zone.present
        new = {}
        for uid in observed:
            new[uid] = old[uid] if uid in old else self._resolution(uid)
        count = len(new)
        left = tuple(old[uid][0] for uid in old if uid not in new and old[uid][1] is None)
        if any(uid not in new for uid in old):
            self.events.put(REMOVED, zone.index, since, left, count)
        arrived = tuple(new[uid][0] for uid in new if uid not in old and new[uid][1] is None)
        if arrived:
            self.events.put(PLACED, zone.index, since, arrived, count)
        for uid in new:
            if uid not in old and new[uid][1] is not None:
                identity, reason = new[uid]
                items = (identity,) if identity is not None else ()
                self.events.put(UNKNOWN_TAG, zone.index, since, items, count, reason, uid)
        zone.present = new
        zone.present_set = observed
        if zone.previewed:
            zone.previewed = False  # PLACED answers the SEEN
            self.previews -= 1
        zone.candidate = None
        zone.votes = 0
