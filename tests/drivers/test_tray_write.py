# portable
"""Enrolment on the tray: a TagWrite job selects the named tag, writes, reads back, reports,
and the tag is then identified afresh; every way it can fail says so."""
from ntag213 import Ntag213
from portable import raises
from rfid_tray import VirtualTray
from tiletable import tagrecord
from tiletable.runtime import identity
from tiletable.runtime.tags import TagWrite
from tiletable.runtime.tray import PLACED, TAG_WRITTEN, UNKNOWN_TAG, Tray

TILE = tagrecord.KIND_TILE
RECORD_3_5 = tagrecord.encode(TILE, 9, 0x35)


def blank(n, **kwargs):
    return Ntag213(bytes((0x04, 0xB1, n, 0x10, 0x20, 0x30, 0x40)), **kwargs)


def laid(*tags):
    table = VirtualTray(1)
    tray = Tray(table.openers, identity.Resolver())
    table.models[0].place(*tags)
    table.run(tray, 100)
    return table, tray


class LiftedAfterWrites(Ntag213):
    """A tag lifted off the pad right after its ``writes``-th page was written."""

    def __init__(self, uid, writes):
        super().__init__(uid)
        self.lift_after = writes

    def _write(self, page, four):
        answer = super()._write(page, four)
        if self.writes == self.lift_after:
            self.leave_after(1)  # this ACK still reaches the reader, nothing after it
        return answer


def test_blank_tag_is_written_read_back_and_then_placed_as_its_piece():
    tag = blank(1)
    table, tray = laid(tag)
    assert tray.tags_on(0) == [(tag.uid, None, tagrecord.BLANK)]
    tray.job = TagWrite(0, tag.uid, RECORD_3_5)
    events = table.run(tray, 100)
    assert events[0] == (TAG_WRITTEN, 0, (), 1, None)
    assert events[1:] == [(PLACED, 0, ((TILE, 9, 0x35),), 1, None)]
    assert bytes(tag.memory[16:32]) == RECORD_3_5
    assert tag.writes == 4
    assert tray.tags_on(0) == [(tag.uid, (TILE, 9, 0x35), None)]


def test_only_the_named_tag_is_written_when_several_lie_on_the_pad():
    target = blank(2)
    other = blank(3)
    table, tray = laid(target, other)
    before = bytes(other.memory)
    tray.job = TagWrite(0, target.uid, RECORD_3_5)
    events = table.run(tray, 100)
    assert events[0] == (TAG_WRITTEN, 0, (), 2, None)
    assert bytes(other.memory) == before and other.writes == 0
    assert bytes(target.memory[16:32]) == RECORD_3_5


def test_locked_tag_refuses_and_stays_as_it_was():
    tag = blank(4, read_only=True)
    table, tray = laid(tag)
    tray.job = TagWrite(0, tag.uid, RECORD_3_5)
    events = table.run(tray, 100)
    kind, zone, items, count, reason = events[0]
    assert kind == TAG_WRITTEN and "refused page 4" in reason
    assert events[1:] == [(UNKNOWN_TAG, 0, (), 1, tagrecord.BLANK)]  # read afresh: still blank
    assert bytes(tag.memory[16:19]) == b"\x03\x00\xfe"
    assert tray.tags_on(0) == [(tag.uid, None, tagrecord.BLANK)]


def test_tag_lifted_mid_write_is_reported_and_reads_as_damaged_when_laid_again():
    tag = LiftedAfterWrites(bytes((0x04, 0xB1, 5, 1, 2, 3, 4)), writes=2)
    table, tray = laid(tag)
    tray.job = TagWrite(0, tag.uid, RECORD_3_5)
    events = table.run(tray, 100)
    assert events[0][0] == TAG_WRITTEN and "writing page 6" in events[0][4]
    table.models[0].lift(tag)
    table.run(tray, 100)
    tag.leave_after(-1)  # back on the pad, with pages 4-5 new and 6-7 old
    table.models[0].place(tag)
    events = table.run(tray, 100)
    assert events == [(UNKNOWN_TAG, 0, (), 1, tagrecord.DAMAGED)]


def test_write_for_a_tag_that_is_not_on_the_pad_fails_without_writing():
    tag = blank(6)
    table, tray = laid(tag)
    tray.job = TagWrite(0, b"\x04\x01\x02\x03\x04\x05\x06", RECORD_3_5)
    events = table.run(tray, 100)
    assert events[0][0] == TAG_WRITTEN and "no longer on the pad" in events[0][4]
    assert tag.writes == 0


def test_write_on_an_empty_pad_fails():
    table, tray = laid()
    tray.job = TagWrite(0, b"\x04\x01\x02\x03\x04\x05\x06", RECORD_3_5)
    events = table.run(tray, 100)
    assert events == [(TAG_WRITTEN, 0, (), 0, "no tag on the pad")]


def test_a_record_that_is_not_16_bytes_is_refused():
    assert "16 bytes" in str(raises(ValueError, TagWrite, 0, b"\x04\x0a\x0b\x0c\x0d\x0e\x0f", RECORD_3_5[:8]))


def test_rewriting_an_enrolled_tag_reports_it_as_its_new_piece():
    tag = Ntag213(bytes((0x04, 0xB1, 8, 1, 2, 3, 4)), user=tagrecord.encode(TILE, 9, 0x00))
    table, tray = laid(tag)
    assert tray.tags_on(0) == [(tag.uid, (TILE, 9, 0x00), None)]
    tray.job = TagWrite(0, tag.uid, RECORD_3_5)
    events = table.run(tray, 100)
    assert events == [(TAG_WRITTEN, 0, (), 1, None), (PLACED, 0, ((TILE, 9, 0x35),), 1, None)]
