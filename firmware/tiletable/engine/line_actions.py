"""Line-game actions as small ints, their canonical text, and the phase and location codes.

An action packs its kind in bits 24+ (so every action is a small int on the Pico, where
ints above 2**30 would be heap objects). Plays pack tile (bits 0-7), point (8-10),
orientation (11-12) and a matador's outward half plus one (13-16); chance actions pack
tile (0-7, 0xFF unseen) and seat (8-10).

>>> action_text(parse_action_text("3-3>S1x"))
'3-3>S1x'
"""

from tiletable.engine.line_layout import SLOT_NAMES
from tiletable.engine.tiles import high, parse_tile, tile_str

_KIND = 24
K_PLAY = 0
K_DEAL = 1
K_REVEAL = 2
K_LOT = 3
K_SETTER = 4
K_DRAW = 5
K_PASS = 6
K_WAIVE = 7
K_CLAIM = 8
K_BET = 9
K_STAKES = 10
K_SPEC = 11
K_ACCEPT = 12
K_REFUSE = 13
K_SHOW_DOUBLES = 14  # Latin Double-Nine (line_variants): a player's doubles throw the deal in

SET_POINT = 4  # the point field of a set (no end yet)
UNKNOWN_TILE = 0xFF
ORIENT_TEXT = ("", "x", "i")

DRAW = K_DRAW << _KIND
PASS = K_PASS << _KIND
WAIVE = K_WAIVE << _KIND

# phases
P_DEAL = 0
P_LOT = 1
P_DECLARE = 2
P_BERGEN = 3
P_PLAY = 4
P_DRAWN = 5
P_REVEAL = 6
P_OVER = 7

LOC_FREE = 0  # not seen: in the stock or an unseen hand
LOC_PLAYED = 15
LOC_LOT = 14
LOC_NONE = 255  # not in this game's set


# The layout lives here alone: the rest of the engine, the runtime, the host and the tests
# build and read actions with these functions, never with shifts and masks of their own.
def play_action(t, point, orient=0, out=-1):
    """The action laying tile t at point (``SET_POINT`` for a set); ``out`` only for matadors."""
    return t | point << 8 | orient << 11 | (out + 1) << 13


def chance_action(kind, seat, t=0):
    return kind << _KIND | seat << 8 | t


seat_action = chance_action  # kind and seat alone: setter, claim, accept, refuse, show


def amount_action(kind, amount):
    """A bet (``K_BET``) or the banker's stakes (``K_STAKES``) of ``amount``."""
    return kind << _KIND | amount


def spectator_bet_action(spectator, seat, amount):
    return K_SPEC << _KIND | spectator << 15 | seat << 12 | amount


def kind_of(a):
    return a >> _KIND


def tile_of(a):
    """The tile of a play or a chance action (``UNKNOWN_TILE`` for an unseen one)."""
    return a & 0xFF


def seat_of(a):
    """The seat of a chance or seat action (deal, reveal, lot, setter, claim, accept, refuse)."""
    return (a >> 8) & 7


point_of = seat_of  # a play's point (SET_POINT for a set) sits where the seat of the others does


def play_fields(a):
    """A play as (tile, point, orientation, matador's outward half or -1): one call where a
    play is checked, laid or written needs them all."""
    return a & 0xFF, (a >> 8) & 7, (a >> 11) & 3, ((a >> 13) & 15) - 1


def amount_of(a):
    """The amount of a bet or of the stakes."""
    return a & 0xFFFFFF


def spectator_bet_of(a):
    """A spectator bet as (spectator, seat bet on, amount)."""
    return (a >> 15) & 7, (a >> 12) & 7, a & 0xFFF


def action_text(action):
    """The canonical text of an action (see ``line``'s docstring for the forms)."""
    kind = kind_of(action)
    if kind == K_PLAY:
        t, point, orient, out = play_fields(action)
        orient = ORIENT_TEXT[orient]
        if point == SET_POINT:
            return tile_str(t) + orient
        text = "%s>%s%s" % (tile_str(t), SLOT_NAMES[point], orient)
        return text + ("^%d" % out if out >= 0 else "")
    seat = seat_of(action)
    t = tile_of(action)
    if kind in (K_DEAL, K_REVEAL, K_LOT):
        prefix = ("D", "R", "lot")[kind - 1]
        return "%s%d:%s" % (prefix, seat, "?" if t == UNKNOWN_TILE else tile_str(t))
    if kind == K_SPEC:
        return "spec%d>%d=%d" % spectator_bet_of(action)
    for word, k in _SEATED:
        if k == kind:
            return "%s%d" % (word, seat)
    for word, k in (("bet", K_BET), ("stakes", K_STAKES)):
        if k == kind:
            return "%s%d" % (word, amount_of(action))
    for word in _SIMPLE:
        if kind_of(_SIMPLE[word]) == kind:
            return word
    return "?%d" % action


_SIMPLE = {"draw": DRAW, "pass": PASS, "waive": WAIVE}
_SEATED = (("claim", K_CLAIM), ("setter", K_SETTER), ("accept", K_ACCEPT), ("refuse", K_REFUSE), ("show", K_SHOW_DOUBLES))


def parse_action_text(text):
    """Inverse of ``action_text``. :raises ValueError: naming what is wrong."""
    text = text.strip()
    if text in _SIMPLE:
        return _SIMPLE[text]
    for word, kind in _SEATED:
        if text.startswith(word):
            return seat_action(kind, _small(text[len(word):], 7))
    for word, kind in (("bet", K_BET), ("stakes", K_STAKES)):
        if text.startswith(word):
            return amount_action(kind, _small(text[len(word):], 4000))
    if text.startswith("spec"):
        head, _, amount = text[4:].partition("=")
        spectator, _, seat = head.partition(">")
        return spectator_bet_action(_small(spectator, 7), _small(seat, 7), _small(amount, 4000))
    for word, kind in (("lot", K_LOT), ("D", K_DEAL), ("R", K_REVEAL)):
        if text.startswith(word) and ":" in text:
            seat, _, t = text[len(word):].partition(":")
            return chance_action(kind, _small(seat, 7), UNKNOWN_TILE if t == "?" else _tile(t))
    if ">" in text:
        t, _, rest = text.partition(">")
        out = -1
        if "^" in rest:
            rest, _, half = rest.partition("^")
            out = _small(half, 14)
        orient = 0
        if rest[-1:] in ("x", "i"):
            orient = 1 if rest[-1] == "x" else 2
            rest = rest[:-1]
        if rest not in SLOT_NAMES:
            raise ValueError("unknown end %r (ends: %s)" % (rest, ", ".join(SLOT_NAMES)))
        return play_action(_tile(t), SLOT_NAMES.index(rest), orient, out)
    orient = 0
    if text[-1:] in ("x", "i"):
        orient = 1 if text[-1] == "x" else 2
        text = text[:-1]
    return play_action(_tile(text), SET_POINT, orient)


def _tile(text):
    t = parse_tile(text)
    if high(t) > 9:
        raise ValueError("not a tile: %r" % text)
    return t


def _small(text, most):
    if not text.isdigit() or int(text) > most:
        raise ValueError("expected a number up to %d, got %r" % (most, text))
    return int(text)
