# portable
"""Tag identity: the record first, the enrolment table second, a reason for everything else."""
import binascii

from portable import raises

from tiletable import tagrecord
from tiletable.runtime.identity import Resolver, UidTable
from tiletable.tagrecord import BLANK, DAMAGED, DUPLICATE, FOREIGN, NEWER, UNKNOWN_UID

TILE = tagrecord.KIND_TILE
CARD = tagrecord.KIND_CARD
UID_A = b"\x04\x01\x02\x03\x04\x05\x06"
UID_B = b"\x04\x01\x02\x03\x04\x05\x07"
UID_C = b"\x11\x22\x33\x44"


def test_record_names_the_tag():
    assert Resolver().resolve(UID_A, tagrecord.encode(TILE, 2, 0x35)) == ((TILE, 2, 0x35), None)


def test_tags_without_a_usable_record_get_the_record_reason():
    newer = bytearray(tagrecord.encode(TILE, 1, 0x11))
    newer[2] = 2
    crc = binascii.crc32(bytes(newer[0:12])) & 0xFFFFFFFF
    newer[12:16] = bytes((crc >> 24, (crc >> 16) & 0xFF, (crc >> 8) & 0xFF, crc & 0xFF))
    damaged = bytearray(tagrecord.encode(TILE, 1, 0x11))
    damaged[4] ^= 0x40
    resolver = Resolver()
    assert resolver.resolve(UID_A, bytes(16)) == (None, BLANK)
    assert resolver.resolve(UID_A, b"\xe1\x10\x12\x00" + bytes(12)) == (None, FOREIGN)
    assert resolver.resolve(UID_A, damaged) == (None, DAMAGED)
    assert resolver.resolve(UID_A, newer) == (None, NEWER)
    assert resolver.resolve(UID_C, None) == (None, UNKNOWN_UID)


def test_table_names_tags_without_a_record_and_the_record_wins_otherwise():
    table = UidTable()
    table.add(UID_A, (CARD, 9, 51))
    table.add(UID_C, (TILE, 9, 0x00))
    resolver = Resolver(table)
    assert resolver.resolve(UID_A, bytes(16)) == ((CARD, 9, 51), None)
    assert resolver.resolve(UID_C, None) == ((TILE, 9, 0x00), None)
    assert resolver.resolve(UID_B, bytes(16)) == (None, BLANK)
    table.add(UID_B, (TILE, 9, 0x11))
    assert resolver.resolve(UID_B, tagrecord.encode(TILE, 9, 0x22)) == ((TILE, 9, 0x22), None)


def test_second_tag_claiming_the_same_tile_is_a_duplicate():
    resolver = Resolver()
    record = tagrecord.encode(TILE, 3, 0x55)
    assert resolver.resolve(UID_A, record) == ((TILE, 3, 0x55), None)
    assert resolver.resolve(UID_B, record) == ((TILE, 3, 0x55), DUPLICATE)
    assert resolver.resolve(UID_A, record) == ((TILE, 3, 0x55), None)
    resolver.forget(UID_A)
    assert resolver.resolve(UID_B, record) == ((TILE, 3, 0x55), None)


def test_table_and_record_claiming_the_same_tile_are_duplicates():
    table = UidTable()
    table.add(UID_C, (TILE, 3, 0x66))
    resolver = Resolver(table)
    assert resolver.resolve(UID_C, None) == ((TILE, 3, 0x66), None)
    assert resolver.resolve(UID_A, tagrecord.encode(TILE, 3, 0x66)) == ((TILE, 3, 0x66), DUPLICATE)


def test_table_text_round_trips_in_uid_order():
    table = UidTable()
    table.add(UID_B, (TILE, 1, 0x12))
    table.add(UID_C, (CARD, 2, 7))
    table.add(UID_A, (TILE, 65535, 0x99))
    text = table.dumps()
    assert text.index("04010203040506") < text.index("04010203040507") < text.index("11223344")
    again = UidTable.loads(text)
    assert len(again) == 3 and again.dumps() == text
    assert again.get(UID_C) == (CARD, 2, 7)
    assert UidTable.loads(UidTable().dumps()).dumps() == "{}\n"


def test_bad_table_text_says_what_is_wrong():
    assert "json" in str(raises(ValueError, UidTable.loads, "{nope"))
    assert "object" in str(raises(ValueError, UidTable.loads, "[1, 2]"))
    assert "'0401'" in str(raises(ValueError, UidTable.loads, '{"0401": [1, 1, 17]}'))
    assert "not hex" in str(raises(ValueError, UidTable.loads, '{"zz010203": [1, 1, 17]}'))
    assert "[1, 0, 17]" in str(raises(ValueError, UidTable.loads, '{"11223344": [1, 0, 17]}'))
    assert "identity" in str(raises(ValueError, UidTable().add, UID_A, (TILE, 1, 0xA0)))
