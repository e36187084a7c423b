"""The physical sets that carry tags, and how the PC names a tag's identity.

An identity is the tag record's ``(kind, set id, item)`` (firmware/tiletable/tagrecord.py):
a tile as the engine's tile int, a card as its id 0..51.
"""
from tiletable import tagrecord
from tiletable.engine.cards import DECK, parse_card
from tiletable.engine.tiles import named_set, parse_tile

# name -> (tag kind, what a person calls it); the tile sets are the engine's named sets
PIECE_SETS = {
    "d6": (tagrecord.KIND_TILE, "double-six dominoes"),
    "d8-nodoubles": (tagrecord.KIND_TILE, "double-eight dominoes without doubles (Buki)"),
    "d6-moon": (tagrecord.KIND_TILE, "Moon's 22 dominoes"),
    "d12": (tagrecord.KIND_TILE, "double-twelve dominoes (Mexican Train)"),
    "cards": (tagrecord.KIND_CARD, "52 playing cards"),
}


def set_items(name):
    """``(kind, items)`` of a piece set by name. :raises ValueError: for an unknown name."""
    if name not in PIECE_SETS:
        raise ValueError("unknown piece set %r (one of %s)" % (name, ", ".join(PIECE_SETS)))
    kind = PIECE_SETS[name][0]
    return kind, (DECK if kind == tagrecord.KIND_CARD else named_set(name))


def parse_item(kind, text):
    """A tile (``3-5``) or card (``H4``) of ``kind``. :raises ValueError: naming the text."""
    return parse_card(text) if kind == tagrecord.KIND_CARD else parse_tile(text)


def identity_text(identity):
    """``3-5 of set 7``: what a person reads for a tag's identity."""
    kind, set_id, item = identity
    return "%s of set %d" % (tagrecord.item_text(kind, item), set_id)


def row_identity(row):
    """The identity a TAG_SCAN row names, or None (kind 0)."""
    return (row["kind"], row["set"], row["item"]) if row["kind"] else None
