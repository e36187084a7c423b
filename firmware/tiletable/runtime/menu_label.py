"""The menu's label for a ruleset installed under a name of its own (a house ruleset): four
characters a 4-digit 7-segment group can draw, derived from its name, distinct on the display
from every game's before it in the menu. Imported by the menu only when it has one to show.
"""
from tiletable.drivers.segments import glyph

_LOWER_SHAPED = "bdqrt"  # letters a 7-segment digit draws in their lower-case shape


def house_label(name, shapes=()):
    """Four characters a 4-digit group can draw for a ruleset installed under a name of its
    own: its first letters and digits, a number at its end kept (``house-61`` -> ``HO61``),
    in the case the digit draws (``bErG``); one whose segments a game before it in the menu
    shows already (``shapes``, see ``shape``) ends in the first digit 2..9 that makes it
    distinct (``muggins-fast`` after Muggins' ``MUGG``: ``MUG2``)."""
    text = "".join([ch for ch in name if ch not in "-_"])
    tail = len(text)
    while tail > 1 and len(text) - tail < 3 and text[tail - 1].isdigit():
        tail -= 1
    text = text[: min(tail, 4 - (len(text) - tail))] + text[tail:]
    label = "".join([ch if ch in _LOWER_SHAPED else ch.upper() for ch in text])
    while len(label) < 4:
        label += " "
    if shape(label) in shapes:
        for digit in "23456789":
            if shape(label[:3] + digit) not in shapes:
                return label[:3] + digit
    return label


def shape(label):
    """A label's segments: two labels that read alike on the display (``S`` and ``5``) are one."""
    return bytes([glyph(ch) for ch in label])
