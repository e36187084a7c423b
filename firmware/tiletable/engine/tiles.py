"""Dominoes as small integers, and the tile sets the games use.

A tile [a|b] with a <= b is the int ``a << 4 | b``: no heap allocation on the Pico,
hashable, ordered by (low, high). The text form is ``"a-b"`` (``"3-5"``).

>>> t = tile(5, 3); tile_str(t), pips(t), other(t, 5)
('3-5', 8, 3)
"""


def tile(a, b):
    """The tile with halves a and b, in either order."""
    if a > b:
        a, b = b, a
    return (a << 4) | b


def low(t):
    return t >> 4


def high(t):
    return t & 15


def pips(t):
    return (t >> 4) + (t & 15)


def is_double(t):
    return (t >> 4) == (t & 15)


def has(t, v):
    """True when either half of t shows v."""
    return (t >> 4) == v or (t & 15) == v


def other(t, v):
    """The half of t opposite a half showing v (v itself for a double)."""
    return t & 15 if (t >> 4) == v else t >> 4


def tile_str(t):
    return "%d-%d" % (t >> 4, t & 15)


def parse_tile(text):
    """Parse ``"3-5"``, ``"5-3"``, ``"[3|5]"`` or ``"35"``.

    :raises ValueError: ``not a tile: 'x'``
    """
    s = text.strip()
    if s.startswith("[") and s.endswith("]"):
        s = s[1:-1]
    for sep in "-|":
        if sep in s:
            parts = s.split(sep)
            break
    else:
        parts = [s[:1], s[1:]] if len(s) == 2 else []
    if len(parts) != 2 or not parts[0].strip().isdigit() or not parts[1].strip().isdigit():
        raise ValueError("not a tile: %r" % text)
    a, b = int(parts[0]), int(parts[1])
    if a > 15 or b > 15:
        raise ValueError("not a tile: %r" % text)
    return tile(a, b)


def tile_set(max_pip=6, doubles=True, exclude=()):
    """All tiles up to [max_pip|max_pip], sorted, optionally without doubles or listed tiles."""
    out = []
    for a in range(max_pip + 1):
        for b in range(a if doubles else a + 1, max_pip + 1):
            t = (a << 4) | b
            if t not in exclude:
                out.append(t)
    return tuple(out)


def named_set(name):
    """The tile sets of the rule books by name: ``d6`` (28), ``d8-nodoubles`` (36), ``d6-moon`` (22),
    ``d12`` (91, Mexican Train's).

    :raises ValueError: ``unknown tile set: 'x'``
    """
    if name == "d6":
        return tile_set(6)
    if name == "d12":
        return tile_set(12)
    if name == "d8-nodoubles":
        return tile_set(8, doubles=False)
    if name == "d6-moon":
        return tile_set(6, exclude=tuple(tile(0, b) for b in range(1, 7)))
    raise ValueError("unknown tile set: %r" % name)


TILE_SETS = ("d6", "d8-nodoubles", "d6-moon", "d12")
