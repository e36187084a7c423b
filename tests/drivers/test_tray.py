# portable
"""The tray scanner on a virtual tray: confirmed events, no phantom placements, reader faults."""
from allocation import bytes_allocated, takes_heap
from empty_field import ChipSelect, EmptyFieldBus
from ntag213 import Ntag213, XorShift
from rfid_tray import VirtualTray
from tiletable import tagrecord
from tiletable.drivers.mfrc522 import MFRC522
from tiletable.runtime import identity
from tiletable.runtime.tray import PLACED, READER_FAULT, READER_OK, REMOVED, SEEN, UNKNOWN_TAG, UNSEEN, Tray

TILE = tagrecord.KIND_TILE


def tile(n, set_id=1, item=0x12, uid=None):
    """A tagged tile: an NTAG213 with a record; ``n`` picks its UID."""
    rnd = XorShift(n)
    uid = uid or bytes([0x04] + [rnd.below(256) for _ in range(6)])
    return Ntag213(uid, user=tagrecord.encode(TILE, set_id, item))


def make(zones=1, **kwargs):
    table = VirtualTray(zones)
    resolver = kwargs.pop("resolver", None) or identity.Resolver()
    return table, Tray(table.openers, resolver, **kwargs)


def kinds(events):
    return [e[0] for e in events]


def test_placed_tile_is_reported_once_with_its_identity():
    table, tray = make()
    table.run(tray, 50)
    table.models[0].place(tile(1, 7, 0x35))
    events = table.run(tray, 100)
    assert events == [(PLACED, 0, ((TILE, 7, 0x35),), 1, None)]
    assert table.run(tray, 200) == []
    assert table.early_frames == 0


def test_removed_tile_is_reported_after_the_removal_is_confirmed():
    table, tray = make()
    a = tile(2, 1, 0x00)
    table.models[0].place(a)
    table.run(tray, 100)
    table.models[0].lift(a)
    events = table.run(tray, 100)
    assert events == [(REMOVED, 0, ((TILE, 1, 0x00),), 0, None)]


def test_flickering_tile_never_becomes_a_placement():
    table, tray = make()
    a = tile(3)
    events = []
    for _ in range(30):
        table.models[0].place(a)
        events += table.run(tray, 9)  # in the field for one scan
        table.models[0].lift(a)
        events += table.run(tray, 9)
    assert events == []


def test_one_read_in_a_burst_of_noise_is_not_a_placement():
    table, tray = make()
    table.run(tray, 20)
    a = tile(4)
    a.leave_after(9)  # answers one probe and one inventory, then is gone
    table.models[0].place(a)
    assert table.run(tray, 300) == []


def test_hand_scan_of_seven_tiles_is_one_placement_of_seven():
    table, tray = make()
    hand = [tile(10 + i, 2, (i << 4) | 6) for i in range(7)]
    table.models[0].place(*hand)
    events = table.run(tray, 250)
    assert len(events) == 1
    kind, zone, items, count, reason = events[0]
    assert kind == PLACED and count == 7 and reason is None
    assert sorted(items) == sorted((TILE, 2, (i << 4) | 6) for i in range(7))


def test_a_hand_is_read_in_steps_that_give_the_loop_back_while_the_others_are_scanned():
    table = VirtualTray(3)
    tray = Tray(table.openers, identity.Resolver(), fields=2, ticks_us=lambda: table.clock.now_us)
    tray.hot = 1
    table.run(tray, 50)
    table.models[0].place(*[tile(30 + i, 2, i) for i in range(7)])
    longest_us = 0
    scanned_between = set()  # other zones visited while the hand's pass was going on
    events = []
    while not events:
        passing = tray.zones[0].passing is not None
        before = [table.models[z].frames for z in (1, 2)]
        started = table.clock.now_us
        events = table.run(tray, 1)
        longest_us = max(longest_us, table.clock.now_us - started)
        if passing:
            scanned_between.update(z for z, n in zip((1, 2), before) if table.models[z].frames != n)
    assert [e[:2] for e in events] == [(PLACED, 0)] and events[0][3] == 7
    assert longest_us < 30000  # two tags a visit at most (all seven at once took 90 ms)
    assert scanned_between == {1, 2}
    assert tray.zones[0].passing is None and not tray.zones[0].on


def test_second_tile_on_a_pad_is_reported_with_the_count_of_two():
    table, tray = make()
    table.models[0].place(tile(20, 1, 0x11))
    table.run(tray, 100)
    table.models[0].place(tile(21, 1, 0x22))
    events = table.run(tray, 100)
    assert events == [(PLACED, 0, ((TILE, 1, 0x22),), 2, None)]


def test_one_of_two_tiles_lifted_is_reported_by_the_periodic_recheck():
    table, tray = make()
    a, b = tile(22, 1, 0x13), tile(23, 1, 0x24)
    table.models[0].place(a, b)
    table.run(tray, 100)
    table.models[0].lift(b)
    events = table.run(tray, 200)
    assert events == [(REMOVED, 0, ((TILE, 1, 0x24),), 1, None)]


def test_zones_report_independently():
    table, tray = make(zones=3)
    table.models[0].place(tile(30, 1, 0x01))
    table.models[2].place(tile(31, 1, 0x02))
    events = table.run(tray, 200)
    assert sorted(events) == [(PLACED, 0, ((TILE, 1, 0x01),), 1, None), (PLACED, 2, ((TILE, 1, 0x02),), 1, None)]
    assert table.most_fields_on == 1 and table.early_frames == 0


def test_two_fields_scan_every_zone_and_never_more_than_two_are_on():
    table, tray = make(zones=4, fields=2)
    for z in range(4):
        table.models[z].place(tile(40 + z, 1, z))
    events = table.run(tray, 200)
    assert sorted(e[1] for e in events) == [0, 1, 2, 3]
    assert table.most_fields_on == 2 and table.early_frames == 0


def test_zones_that_would_disturb_each_other_are_never_on_together():
    table, tray = make(zones=3, fields=2, conflicts=[(0, 1), (1, 2)])
    on_together = []
    for _ in range(300):
        table.run(tray, 1)
        on = [z for z, model in enumerate(table.models) if model.field_on]
        if 1 in on and len(on) > 1:
            on_together.append(on)
    assert on_together == []
    table.models[1].place(tile(45, 1, 0x45))
    assert table.run(tray, 100) == [(PLACED, 1, ((TILE, 1, 0x45),), 1, None)]


def test_a_tile_on_the_hot_pad_is_previewed_then_placed_within_a_few_ms_of_its_power_up():
    table = VirtualTray(9)
    tray = Tray(table.openers, identity.Resolver(), fields=2, ticks_us=lambda: table.clock.now_us)
    tray.hot = 4
    table.run(tray, 100)
    seen_after = []
    placed_after = []
    for n in range(12):
        table.run(tray, 1 + n * 3)  # a different point of the scan cycle each time
        item = (TILE, 1, (n // 4) * 0x10 + 4 + n % 4)
        a = tile(50 + n, 1, item[2])
        table.models[4].place(a)
        start = table.clock.now_us
        events = []
        while not events or events[-1][0] != PLACED:
            new = table.run(tray, 1)
            if new and not events:
                seen_after.append((table.clock.now_us - start) / 1000)
                assert tray.previews == 1  # its SEEN awaits the PLACED (the app holds collections)
            events += new
        placed_after.append((table.clock.now_us - start) / 1000)
        assert events == [(SEEN, 4, (item,), 1, None), (PLACED, 4, (item,), 1, None)]
        assert tray.previews == 0
        table.models[4].lift(a)
        assert table.run(tray, 60) == [(REMOVED, 4, (item,), 0, None)]
    # The preview: 5.1 ms before the tag answers, the probe, the inventory with its READ; then a
    # second read in a fresh field (each register access costs 70 us of virtual time, as on the chip)
    assert max(seen_after) < 20, seen_after
    assert max(placed_after) < 36, placed_after
    assert table.early_frames == 0


TILES = [(a << 4) | b for a in range(7) for b in range(a, 7)]  # the double-six set's items


def _lay_on_hot_zone(table, tray, zone, a):
    """Lay ``a`` on ``zone`` and run until its PLACED: (events, ms to the first event, ms to PLACED)."""
    table.models[zone].place(a)
    start = table.clock.now_us
    events = []
    first = None
    while not events or events[-1][0] != PLACED:
        new = table.run(tray, 1)
        if new and first is None:
            first = (table.clock.now_us - start) / 1000
        events += new
        assert table.clock.now_us - start < 2000000, events
    return events, first, (table.clock.now_us - start) / 1000


def test_a_tile_laid_beside_others_on_the_hot_zone_is_previewed_as_soon_as_on_an_empty_one():
    """A trick zone: the tiles of the trick so far lie there, the next one is laid beside them.
    Several tags answer a probe with the same collision whether or not one more has come, so
    the zone is watched with its tiles halted: only a tag laid since answers REQA. (Beside one
    tile the probe's collision is new: that pad has visits.)"""
    table = VirtualTray(9)
    tray = Tray(table.openers, identity.Resolver(), fields=2, ticks_us=lambda: table.clock.now_us)
    tray.hot = 4
    table.run(tray, 100)
    seen_after, placed_after, second_seen = [], [], []
    for n in range(12):
        lying = []
        for k in range(4):
            table.run(tray, 1 + (n * 7 + k * 13) % 40)  # another point of the scan cycle each time
            item = TILES[4 * (n % 7) + k]
            a = tile(100 + 4 * n + k, 1 + n, item)  # a set of its own each time: no tile twice
            events, seen, placed = _lay_on_hot_zone(table, tray, 4, a)
            assert events == [(SEEN, 4, ((TILE, 1 + n, item),), k + 1, None), (PLACED, 4, ((TILE, 1 + n, item),), k + 1, None)]
            lying.append(a)
            if k == 1:
                second_seen.append(seen)  # beside one tile: the probe's collision is new
            elif k:
                seen_after.append(seen)
                placed_after.append(placed)
        table.models[4].lift(*lying)
        events = table.run(tray, 300)
        assert kinds(events) == [REMOVED] and events[0][3] == 0
    assert max(seen_after) < 25, seen_after
    assert max(placed_after) < 70, placed_after  # confirmed by a fresh inventory of every tile there
    assert max(second_seen) < 40, second_seen
    assert table.early_frames == 0


def test_a_trick_cleared_and_the_next_lead_laid_at_once_is_one_change_without_a_preview():
    """The watch hears only the tag laid since: the lead laid just after the trick was cleared
    is no fifth tile beside four (no SEEN that an UNSEEN must take back)."""
    table = VirtualTray(9)
    tray = Tray(table.openers, identity.Resolver(), fields=2, ticks_us=lambda: table.clock.now_us)
    tray.hot = 4
    table.run(tray, 100)
    trick = [tile(160 + k, 1, TILES[k]) for k in range(4)]
    for a in trick:
        _lay_on_hot_zone(table, tray, 4, a)
    for wait in (1, 9, 23, 47, 71, 95):
        table.run(tray, wait)
        table.models[4].lift(*trick)
        lead = tile(170 + wait, 1 + wait, TILES[10])
        table.models[4].place(lead)
        events = table.run(tray, 300)
        assert kinds(events) == [REMOVED, PLACED], events
        assert sorted(events[0][2]) == [(TILE, 1, TILES[k]) for k in range(4)]
        assert events[1][2:4] == (((TILE, 1 + wait, TILES[10]),), 1)
        table.models[4].lift(lead)
        table.run(tray, 300)
        for a in trick:
            _lay_on_hot_zone(table, tray, 4, a)


def test_a_preview_the_fresh_field_does_not_confirm_is_taken_back():
    table = VirtualTray(3)
    tray = Tray(table.openers, identity.Resolver(), fields=2, ticks_us=lambda: table.clock.now_us)
    tray.hot = 0
    table.run(tray, 50)
    a = tile(70, 1, 0x25)
    table.models[0].place(a)
    events = []
    while not events:
        events = table.run(tray, 1)
    assert events == [(SEEN, 0, ((TILE, 1, 0x25),), 1, None)]
    assert tray.previews == 1
    table.models[0].lift(a)  # gone before the confirming read
    assert table.run(tray, 100) == [(UNSEEN, 0, (), 0, None)]
    assert tray.previews == 0


def test_only_the_hot_pad_is_previewed():
    table = VirtualTray(3)
    tray = Tray(table.openers, identity.Resolver(), fields=2, ticks_us=lambda: table.clock.now_us)
    tray.hot = 0
    table.models[1].place(tile(71, 1, 0x26))
    assert table.run(tray, 200) == [(PLACED, 1, ((TILE, 1, 0x26),), 1, None)]


def test_the_tray_scans_only_the_active_zones():
    table, tray = make(zones=4, fields=2)
    tray.active = (1, 3)
    table.models[0].place(tile(60, 1, 0x06))
    table.models[3].place(tile(61, 1, 0x16))
    assert table.run(tray, 200) == [(PLACED, 3, ((TILE, 1, 0x16),), 1, None)]
    assert table.models[0].field_switches == 0


def test_unusable_tags_are_reported_with_their_reason():
    table, tray = make(zones=4)
    table.models[0].place(Ntag213(b"\x04\x01\x02\x03\x04\x05\x06"))
    table.models[1].place(Ntag213(b"\x04\x01\x02\x03\x04\x05\x07", user=b"\xe1\x10\x12\x00\x99"))
    damaged = bytearray(tagrecord.encode(TILE, 1, 0x33))
    damaged[6] ^= 0x01
    table.models[2].place(Ntag213(b"\x04\x01\x02\x03\x04\x05\x08", user=damaged))
    table.models[3].place(tile(50, 1, 0x44), tile(51, 1, 0x44))
    events = sorted(table.run(tray, 200))
    assert (UNKNOWN_TAG, 0, (), 1, tagrecord.BLANK) in events
    assert (UNKNOWN_TAG, 1, (), 1, tagrecord.FOREIGN) in events
    assert (UNKNOWN_TAG, 2, (), 1, tagrecord.DAMAGED) in events
    assert (PLACED, 3, ((TILE, 1, 0x44),), 2, None) in events
    assert (UNKNOWN_TAG, 3, ((TILE, 1, 0x44),), 2, tagrecord.DUPLICATE) in events
    assert len(events) == 5


def test_enrolled_uid_names_a_tag_without_a_record():
    table = identity.UidTable()
    table.add(b"\x04\x01\x02\x03\x04\x05\x06", (TILE, 4, 0x55))
    virtual, tray = make(resolver=identity.Resolver(table))
    virtual.models[0].place(Ntag213(b"\x04\x01\x02\x03\x04\x05\x06"))
    assert virtual.run(tray, 100) == [(PLACED, 0, ((TILE, 4, 0x55),), 1, None)]


def test_weak_tile_is_placed_with_the_right_identity_and_stays_placed():
    table, tray = make()
    a = tile(60, 3, 0x45)
    a.weak = 120
    table.models[0].place(a)
    events = table.run(tray, 1500)
    assert events == [(PLACED, 0, ((TILE, 3, 0x45),), 1, None)]


def test_tile_lifted_during_its_first_read_is_placed_only_when_it_comes_back():
    table, tray = make()
    a = tile(61, 1, 0x66)
    a.leave_after(4)  # ATQA, CL1, SAK1... gone before the record is read
    table.models[0].place(a)
    assert table.run(tray, 200) == []
    table.models[0].lift(a)
    a.leave_after(-1)
    table.models[0].place(a)
    assert table.run(tray, 100) == [(PLACED, 0, ((TILE, 1, 0x66),), 1, None)]


def test_reader_dropping_off_the_bus_is_a_fault_and_the_others_keep_scanning():
    table, tray = make(zones=2, retry_ms=300)
    table.models[0].place(tile(70, 1, 0x01))
    table.run(tray, 100)
    table.models[0].drop_off_bus()
    events = table.run(tray, 100)
    assert kinds(events) == [READER_FAULT] and events[0][1] == 0 and "stopped answering" in events[0][4]
    table.models[1].place(tile(71, 1, 0x02))
    assert table.run(tray, 100) == [(PLACED, 1, ((TILE, 1, 0x02),), 1, None)]
    table.models[0].reconnect()
    assert table.run(tray, 400) == [(READER_OK, 0, (), 1, None)]


def test_clone_and_absent_readers_are_reported_at_start():
    table = VirtualTray(2, versions=[0x92, 0x12])
    table.models[0].drop_off_bus()
    tray = Tray(table.openers)
    events = table.run(tray, 50)
    assert [(e[0], e[1]) for e in events] == [(READER_FAULT, 0), (READER_FAULT, 1)]
    assert "0xff" in events[0][4] and "0x12" in events[1][4]


def test_a_reader_with_no_room_for_its_driver_is_opened_later_and_is_no_fault():
    """Just after a game start that found the heap full, opening a reader's driver may find no
    room either: that is no fault of the reader (nor a reason to restart the board); the tray
    tries again later and then reads the zone."""
    table = VirtualTray(1)
    spi, cs = table.spi, table.cs_pins[0]
    room = [False]

    def opener():
        if not room[0]:
            raise MemoryError("memory allocation failed, allocating 368 bytes")
        return MFRC522(spi, cs)

    tray = Tray([opener], retry_ms=300)
    table.models[0].place(tile(81, 1, 0x04))
    assert table.run(tray, 100) == []
    room[0] = True
    assert kinds(table.run(tray, 400)) == [PLACED]


def test_accepted_clone_is_used_but_reported():
    table = VirtualTray(1, versions=[0xB2])
    spi, cs = table.spi, table.cs_pins[0]
    tray = Tray([lambda: MFRC522(spi, cs, accept_clone=True)])
    table.models[0].place(tile(80, 1, 0x03))
    events = table.run(tray, 100)
    assert kinds(events) == [READER_FAULT, PLACED] and "0xb2" in events[0][4]


def test_queue_overflow_keeps_the_newest_events_and_counts_the_lost():
    table, tray = make(zones=4, queue_size=2)
    for z in range(4):
        table.models[z].place(tile(90 + z, 1, z))
    clock = table.clock
    end = clock.now_us + 300000
    while clock.now_us < end:
        tray.poll(clock.now_ms())
        clock.advance_us(1000)
    assert tray.events.lost == 2
    assert [tray.events.get().zone, tray.events.get().zone, tray.events.get()] == [2, 3, None]


def test_idle_scanning_allocates_nothing():
    bus = EmptyFieldBus()
    tray = Tray([lambda: MFRC522(bus, ChipSelect()) for _ in range(9)])
    for t in range(100):
        tray.poll(t)  # opens the nine readers, one slot every 8 ms

    now = [100]

    def loop():
        for _ in range(400):
            tray.poll(now[0])
            now[0] += 1

    assert bytes_allocated(loop) in (0, None)
    assert takes_heap(loop) in (False, None)  # no heap frame either: each would count toward a GC threshold
    assert len(tray.events) == 0


def test_watching_halted_tiles_allocates_nothing():
    """The hot zone's watch over tiles it halted sends REQA every 2 ms, which none answers."""
    bus = EmptyFieldBus()
    tray = Tray([lambda: MFRC522(bus, ChipSelect()) for _ in range(9)], fields=2)
    tray.hot = 0
    for t in range(100):
        tray.poll(t)
    zone = tray.zones[0]
    now = [100]
    heard = [0]

    def loop():
        for _ in range(400):
            zone.halted = zone.on  # as after an inventory of its tiles in the field now on
            tray.poll(now[0])
            if zone.on and zone.halted:
                heard[0] += 1
            now[0] += 1

    assert bytes_allocated(loop) in (0, None)
    assert takes_heap(loop) in (False, None)
    assert heard[0] > 100 and len(tray.events) == 0  # the watch ran, and heard nothing


def test_a_change_is_confirmed_by_a_second_visit_in_a_fresh_field():
    table, tray = make(zones=9, fields=2)
    table.run(tray, 50)
    table.models[4].place(tile(70, 1, 0x07))
    switches = table.models[4].field_switches
    events = []
    while not events:
        events = table.run(tray, 1)
    assert events == [(PLACED, 4, ((TILE, 1, 0x07),), 1, None)]
    # the field went on for the visit that saw the tile first, and again for the one that confirmed it
    assert table.models[4].field_switches - switches >= 2


def test_the_hot_pad_keeps_its_field_on_until_it_sees_a_change_then_confirms_in_a_fresh_one():
    table, tray = make(zones=9, fields=2)
    tray.hot = 4
    table.run(tray, 50)
    model = table.models[4]
    switches = model.field_switches
    table.run(tray, 300)
    assert model.field_on and model.field_switches - switches == 3  # watched, cycled every 100 ms
    switches = model.field_switches
    model.place(tile(74, 1, 0x17))
    events = []
    while not events:
        events = table.run(tray, 1)
    assert events == [(SEEN, 4, ((TILE, 1, 0x17),), 1, None)]
    assert model.field_switches == switches  # seen by the watch, in the field that was on
    events = []
    while not events:
        events = table.run(tray, 1)
    assert events == [(PLACED, 4, ((TILE, 1, 0x17),), 1, None)]
    assert model.field_switches - switches == 1  # off once the watch saw it, on again to confirm it
    table.run(tray, 100)
    assert model.field_switches - switches > 3  # a pad holding one tile has visits, not a watch
    model.lift(*model.tags)
    assert table.run(tray, 100) == [(REMOVED, 4, ((TILE, 1, 0x17),), 0, None)]
    switches = model.field_switches
    table.run(tray, 90)
    assert model.field_on and model.field_switches - switches <= 1  # empty again: watched again
    tray.hot = 5
    table.run(tray, 10)
    assert not model.field_on  # no longer hot: back to one visit per round


def test_a_pad_that_never_settles_does_not_starve_the_others():
    table, tray = make(zones=3)  # one field: every rushed visit is a visit the others miss
    a, b = tile(71, 1, 0x08), tile(73, 1, 0x18)
    model = table.models[0]
    model.place(a)
    table.models[2].place(tile(72, 1, 0x09))
    placed = []
    switches = model.field_switches
    for step in range(400):
        if not model.field_on and model.field_switches != switches:  # each look at zone 0 sees another tile
            switches = model.field_switches
            model.lift(*model.tags)
            model.place(b if switches % 2 else a)
        placed += [e for e in table.run(tray, 1) if e[0] == PLACED]
    assert (PLACED, 2, ((TILE, 1, 0x09),), 1, None) in placed
    assert all(e[1] != 0 for e in placed)


def test_a_tag_whose_every_answer_has_bytes_swapped_is_never_placed():
    table, tray = make()
    a = tile(40, 3, 0x24)
    a.swaps = 1000  # every answer two bytes swapped, CRC_A recomputed: the READ says something else
    table.models[0].place(a)
    assert table.run(tray, 100) == []  # the anticollision answers are spoilt too: nothing selected
    a.swaps = 0
    assert table.run(tray, 150) == [(PLACED, 0, ((TILE, 3, 0x24),), 1, None)]


def test_a_swapped_read_once_then_good_reads_names_the_tile():
    table, tray = make()
    a = tile(41, 3, 0x25)
    reads_before_swap = [0]
    original = a._read

    def read_swapped_once(page):
        answer = original(page)
        reads_before_swap[0] += 1
        return a._swap_bytes(answer) if reads_before_swap[0] == 1 else answer

    a._read = read_swapped_once
    table.models[0].place(a)
    events = table.run(tray, 200)
    assert a.swapped == 1 and events == [(PLACED, 0, ((TILE, 3, 0x25),), 1, None)]


def test_a_damaged_tag_is_reported_once_it_read_the_same_twice():
    table, tray = make()
    bad = bytearray(tagrecord.encode(TILE, 3, 0x26))
    bad[6] ^= 0x01
    table.models[0].place(Ntag213(b"\x04\x01\x02\x03\x04\x05\x06", user=bytes(bad)))
    events = table.run(tray, 200)
    assert [(e[0], e[4]) for e in events] == [(UNKNOWN_TAG, tagrecord.DAMAGED)]


def test_a_tile_heard_from_the_next_pad_is_placed_only_where_it_lies():
    table, tray = make(2)
    a = tile(42, 3, 0x27)
    echo = Ntag213(a.uid, user=bytes(a.memory[16:32]))  # the same tag, answering zone 1's reader too
    table.models[0].place(a)
    assert table.run(tray, 100) == [(PLACED, 0, ((TILE, 3, 0x27),), 1, None)]
    table.models[1].place(echo)
    assert table.run(tray, 300) == []
    table.models[0].lift(a)
    table.models[1].lift(echo)
    assert table.run(tray, 200) == [(REMOVED, 0, ((TILE, 3, 0x27),), 0, None)]


def test_a_tile_two_zones_hear_at_once_is_placed_on_one_zone_at_most():
    # A change is confirmed by a second look right after the first, which may come before the
    # other zone's scan: the zone that confirms first takes the tile, and the other never does.
    table, tray = make(2)
    a = tile(43, 3, 0x28)
    table.models[0].place(a)
    table.models[1].place(Ntag213(a.uid, user=bytes(a.memory[16:32])))
    placed = [e for e in table.run(tray, 400) if e[0] == PLACED]
    assert len(placed) <= 1


def test_an_event_carries_the_time_its_change_was_first_seen_not_confirmed():
    """People's tiles and presses are taken in the order they came (App): a change's time is
    its first observation, a few scans before the confirmation that sends it."""
    table, tray = make()
    table.run(tray, 50)
    table.models[0].place(tile(1, 7, 0x35))
    first_seen = confirmed = None
    for _ in range(100):
        now = table.clock.now_ms()
        tray.poll(now)
        table.clock.advance_us(1000)
        if first_seen is None and tray.zones[0].candidate is not None:
            first_seen = now
        event = tray.events.get()
        if event is not None:
            confirmed, time_ms = now, event.time_ms
            break
    assert event.kind == PLACED and time_ms == first_seen < confirmed
