# portable
"""Tiles and tile sets (rule book §0, §2.1)."""
from portable import raises

from tiletable.engine.tiles import (
    has,
    is_double,
    named_set,
    other,
    parse_tile,
    pips,
    tile,
    tile_set,
    tile_str,
)


def test_tile_is_order_free_and_compact():
    assert tile(5, 3) == tile(3, 5)
    assert tile_str(tile(5, 3)) == "3-5"
    assert pips(tile(6, 6)) == 12
    assert is_double(tile(4, 4)) and not is_double(tile(4, 5))
    assert has(tile(2, 5), 5) and not has(tile(2, 5), 4)
    assert other(tile(2, 5), 5) == 2 and other(tile(3, 3), 3) == 3


def test_parse_tile_accepts_the_book_spellings():
    for text in ("3-5", "5-3", "[3|5]", "35", " 3-5 "):
        assert parse_tile(text) == tile(3, 5), text


def test_parse_tile_rejects_garbage():
    for text in ("", "x", "3-", "3-5-6", "[a|b]", "99-1"):
        err = raises(ValueError, parse_tile, text)
        assert "not a tile" in str(err)


def test_tile_sets_of_the_rule_book():
    d6 = named_set("d6")
    assert len(d6) == 28 and sum(pips(t) for t in d6) == 168
    buki = named_set("d8-nodoubles")
    assert len(buki) == 36 and sum(pips(t) for t in buki) == 288
    assert not any(is_double(t) for t in buki)
    moon = named_set("d6-moon")
    assert len(moon) == 22 and tile(0, 0) in moon and tile(0, 1) not in moon
    assert list(d6) == sorted(d6)
    assert len(set(tile_set(9))) == 55
    d12 = named_set("d12")
    assert len(d12) == 91 and sum(pips(t) for t in d12) == 1092 and max(d12) == tile(12, 12)
    raises(ValueError, named_set, "d15")
