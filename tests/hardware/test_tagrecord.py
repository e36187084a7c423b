# portable
"""The NTAG213 identity record: round trip, and a specific reason for every unusable tag."""
from portable import raises

from tiletable import tagrecord
from tiletable.tagrecord import KIND_CARD, KIND_TILE, TagRecordError, decode, encode


def test_record_round_trips_for_every_tile_and_card():
    for a in range(13):  # up to the double-twelve set's 12-12
        for b in range(a, 13):
            item = a << 4 | b
            assert decode(encode(KIND_TILE, 7, item)) == (KIND_TILE, 7, item)
    for card in range(52):
        assert decode(encode(KIND_CARD, 65535, card)) == (KIND_CARD, 65535, card)


def test_record_is_one_ntag_read_long():
    assert len(encode(KIND_TILE, 1, 0x66)) == 16 == tagrecord.RECORD_SIZE


def test_every_unusable_tag_says_why():
    good = bytearray(encode(KIND_TILE, 3, 0x35))
    cases = [
        (bytes(16), tagrecord.BLANK),
        (b"\x03\x00\xfe" + bytes(13), tagrecord.BLANK),
        (b"\xe1\x10\x12\x00" + bytes(12), tagrecord.FOREIGN),
        (bytes(good[:10]), tagrecord.DAMAGED),
    ]
    flipped = bytearray(good)
    flipped[6] ^= 0x01
    cases.append((bytes(flipped), tagrecord.DAMAGED))
    for bit in range(8 * 12):
        damaged = bytearray(good)
        damaged[bit // 8] ^= 1 << (bit % 8)
        err = raises(TagRecordError, decode, bytes(damaged))
        assert err.reason in (tagrecord.DAMAGED, tagrecord.FOREIGN, tagrecord.BLANK), (bit, err.reason)
    for data, reason in cases:
        err = raises(TagRecordError, decode, data)
        assert err.reason == reason, (data, err.reason, reason)


def test_newer_format_and_bad_items_are_named():
    import binascii

    def sealed(body):
        crc = binascii.crc32(bytes(body[0:12])) & 0xFFFFFFFF
        body[12:16] = bytes([crc >> 24, (crc >> 16) & 255, (crc >> 8) & 255, crc & 255])
        return bytes(body)

    newer = bytearray(encode(KIND_TILE, 3, 0x35))
    newer[2] = 2
    assert raises(TagRecordError, decode, sealed(newer)).reason == tagrecord.NEWER
    reversed_tile = bytearray(encode(KIND_TILE, 3, 0x35))
    reversed_tile[6] = 0x53
    assert raises(TagRecordError, decode, sealed(reversed_tile)).reason == tagrecord.BAD_ITEM
    card = bytearray(encode(KIND_CARD, 3, 51))
    card[6] = 52
    assert raises(TagRecordError, decode, sealed(card)).reason == tagrecord.BAD_ITEM


def test_encode_refuses_impossible_records():
    raises(ValueError, encode, 3, 1, 0)
    raises(ValueError, encode, KIND_TILE, 0, 0x11)
    raises(ValueError, encode, KIND_TILE, 70000, 0x11)
    raises(ValueError, encode, KIND_TILE, 1, 0x21)
    raises(ValueError, encode, KIND_TILE, 1, 0xCD)  # 12-13: beyond double-twelve
    raises(ValueError, encode, KIND_CARD, 1, 52)
