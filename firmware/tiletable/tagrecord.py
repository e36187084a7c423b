"""The identity record in a tag's user memory (NTAG213 pages 4-7), shared by Pico and PC.

One NTAG READ returns 16 bytes (four 4-byte pages), so the whole record is exactly 16
bytes starting at page 4 and costs a single command to read:

====== ====== ===================================================================
offset bytes  meaning
====== ====== ===================================================================
0      2      magic ``b"TT"``
2      1      format version (1)
3      1      kind: 1 = domino tile, 2 = playing card
4      2      set id, big-endian, 1..65535 (which physical set the piece belongs to)
6      1      item: a tile as ``low << 4 | high`` (tiles.tile; up to 12-12, Mexican
              Train's double-twelve set), or a card id 0..51
              (suit * 13 + rank - 1, suits clubs, diamonds, hearts, spades)
7      5      reserved, written as zero, ignored by version-1 readers
12     4      CRC-32 (binascii.crc32) of bytes 0..11, big-endian
====== ====== ===================================================================

``decode`` tells apart why a tag cannot be used, so the table can say so: a blank tag
(factory-fresh, never enrolled), a foreign one (someone else's data), a newer format,
a damaged record (checksum), or an item that is no tile or card.
"""
import binascii

MAGIC = b"TT"
VERSION = 1
KIND_TILE = 1
KIND_CARD = 2
MAX_PIP = 12  # the largest set a tag names: double-twelve (91 tiles)
RECORD_SIZE = 16
FIRST_PAGE = 4

BLANK = "blank"
FOREIGN = "foreign"
NEWER = "newer format"
DAMAGED = "damaged"
BAD_ITEM = "bad item"
# Why a tag on a pad names no piece, besides its record's reasons above (the tray reports them in
# UNKNOWN_TAG events and tag scans; the PC's enrol and inventory read them):
UNKNOWN_UID = "unknown uid"  # no record could be read and the UID is not enrolled
DUPLICATE = "duplicate"  # another tag already claimed the same set and item
UNREADABLE = "unreadable"  # selected every time, but its record never read cleanly (the tray gave up)
NO_RECORD = (UNKNOWN_UID, UNREADABLE)  # tags that cannot carry a record: enrolled by UID instead
WRITE_REFUSED = "the tag refused page"  # how a NAK'd record write is reported: enrol by UID then


class TagRecordError(ValueError):
    """A tag whose record cannot be used; ``reason`` is one of the constants above."""

    def __init__(self, reason, detail):
        super().__init__("%s tag: %s" % (reason, detail))
        self.reason = reason


def _valid_item(kind, item):
    if kind == KIND_TILE:
        return (item >> 4) <= (item & 15) <= MAX_PIP
    if kind == KIND_CARD:
        return item < 52
    return False


def encode(kind, set_id, item):
    """The 16 bytes to write at page 4. :raises ValueError: for an impossible kind, set or item."""
    if kind not in (KIND_TILE, KIND_CARD):
        raise ValueError("unknown tag kind %r" % (kind,))
    if not 1 <= set_id <= 0xFFFF:
        raise ValueError("set id %r out of range 1..65535" % (set_id,))
    if not (0 <= item <= 0xFF and _valid_item(kind, item)):
        raise ValueError("item %r is not a %s" % (item, "tile" if kind == KIND_TILE else "card"))
    body = bytearray(RECORD_SIZE)
    body[0:2] = MAGIC
    body[2] = VERSION
    body[3] = kind
    body[4] = set_id >> 8
    body[5] = set_id & 0xFF
    body[6] = item
    crc = binascii.crc32(bytes(body[0:12])) & 0xFFFFFFFF
    body[12] = crc >> 24
    body[13] = (crc >> 16) & 0xFF
    body[14] = (crc >> 8) & 0xFF
    body[15] = crc & 0xFF
    return bytes(body)


def decode(data):
    """``(kind, set_id, item)`` from the 16 bytes read at page 4.

    :raises TagRecordError: with reason BLANK, FOREIGN, NEWER, DAMAGED or BAD_ITEM.
    """
    if len(data) < RECORD_SIZE:
        raise TagRecordError(DAMAGED, "record is %d bytes, not %d" % (len(data), RECORD_SIZE))
    if data[0] != MAGIC[0] or data[1] != MAGIC[1]:
        if _is_blank(data):
            raise TagRecordError(BLANK, "no record written")
        raise TagRecordError(FOREIGN, "starts with %s" % binascii.hexlify(bytes(data[0:4])).decode())
    crc = binascii.crc32(bytes(data[0:12])) & 0xFFFFFFFF
    stored = (data[12] << 24) | (data[13] << 16) | (data[14] << 8) | data[15]
    if crc != stored:
        raise TagRecordError(DAMAGED, "checksum %08x, expected %08x" % (stored, crc))
    if data[2] != VERSION:
        raise TagRecordError(NEWER, "format version %d" % data[2])
    kind = data[3]
    set_id = (data[4] << 8) | data[5]
    item = data[6]
    if set_id == 0 or not _valid_item(kind, item):
        raise TagRecordError(BAD_ITEM, "kind %d set %d item %d" % (kind, set_id, item))
    return kind, set_id, item


def _is_blank(data):
    """Factory-fresh NTAG213 user memory: zeros, or an empty NDEF TLV (03 00 FE) then zeros."""
    start = 3 if (data[0] == 0x03 and data[1] == 0x00 and data[2] == 0xFE) else 0
    for i in range(start, RECORD_SIZE):
        if data[i] not in (0x00, 0xFF):
            return False
    return True


def item_text(kind, item):
    """The engine's text of a tag's item: a tile ``3-5``, a card ``H4``."""
    if kind == KIND_TILE:
        from tiletable.engine.tiles import tile_str

        return tile_str(item)
    from tiletable.engine.cards import card_str  # card games only: not in a tile game's heap

    return card_str(item)
