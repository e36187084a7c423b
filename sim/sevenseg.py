"""How a person reads a lit 7-segment digit: shared by the display models.

Written in segment letters, independently of the firmware's byte-coded font, so a wrong
bit in ``tiletable.drivers.segments.FONT`` shows up as a wrong or unreadable character
instead of round-tripping unnoticed. A shape can read as several characters (``5``/``S``,
``0``/``O``); the first is what ``read`` returns.
"""

LETTERS = "abcdefg"

READINGS = {
    "": " ",
    "abcdef": "0OD",
    "bc": "1",
    "abdeg": "2Zz",
    "abcdg": "3",
    "bcfg": "4",
    "acdfg": "5Ss",
    "acdefg": "6",
    "abc": "7",
    "abcdefg": "8",
    "abcdfg": "9g",
    "abcefg": "Aa",
    "cdefg": "bB",
    "adef": "C[",
    "deg": "c",
    "bcdeg": "dD",
    "adefg": "Ee",
    "aefg": "Ff",
    "acdef": "G",
    "bcefg": "HXx",
    "cefg": "h",
    "ef": "Il",
    "e": "i",
    "bcde": "Jj",
    "acefg": "Kk",
    "def": "L",
    "ace": "Mm",
    "ceg": "n",
    "abcef": "N",
    "cdeg": "o",
    "abefg": "Pp",
    "abcfg": "Qq",
    "eg": "rR",
    "defg": "tT",
    "bcdef": "UV",
    "cde": "uv",
    "bdf": "Ww",
    "bcdfg": "Yy",
    "g": "-",
    "d": "_",
    "dg": "=",
    "abeg": "?",
    "abcd": "]",
    "b": "'",
    "bf": '"',
}


def letters(mask):
    """Segment letters lit by a bit mask (a = bit 0 .. g = bit 6, point = bit 7), e.g. ``"bc."``."""
    lit = "".join(LETTERS[i] for i in range(7) if mask & (1 << i))
    return lit + "." if mask & 0x80 else lit


def read(shape):
    """The character a person reads for a shape like ``"bc."`` (``1.``); ``~`` when unreadable."""
    point = shape.endswith(".")
    body = shape[:-1] if point else shape
    char = READINGS.get(body, "~")[0]
    if point:
        return "." if char == " " else char + "."
    return char


def can_read(shape, text):
    """Whether one digit's shape reads as ``text``: one character, optionally followed by ``.``."""
    point = shape.endswith(".")
    if text.endswith(".") != point or (text == "." and shape != "."):
        return False
    if text == ".":
        return True
    char = text[0]
    body = shape[:-1] if point else shape
    return char in READINGS.get(body, "")


def split_text(text):
    """Split what a person expects to read into per-digit pieces: ``"1.5"`` -> ``["1.", "5"]``."""
    pieces = []
    for char in text:
        if char == "." and pieces and not pieces[-1].endswith("."):
            pieces[-1] += "."
        else:
            pieces.append(char)
    return pieces


def reads_as(shapes, text):
    """Whether a row of digit shapes reads as ``text`` (dots attach to the digit before them)."""
    pieces = split_text(text)
    if len(pieces) != len(shapes):
        return False
    for shape, piece in zip(shapes, pieces):
        if not can_read(shape, piece):
            return False
    return True
