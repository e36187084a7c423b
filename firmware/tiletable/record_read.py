"""Reading journal records back (the format and ``iter_records``: ``record.py``): an action's
time and text (``action_parts``), and ``visit``, the one walk over a session's records: the
table's resume and the PC's session log (``show``, ``replay``, ``watch``, ``export``) go through
it, so that an undo means the same everywhere.

An undo (``REC_UNDO``) names the sequence number of the action it takes back. The table takes
back the last action in effect, one record at a time (``Table.undo``; an action that brought
automatic ones with it is taken back with them, each by an undo of its own), so an undo takes
back the last action in effect when it names that action, and nothing otherwise: an undo that
names another record (a journal that is damaged or was not written by a table) changes no game,
and the visitor hears it with ``taken`` False.

Not imported at boot on the table: its resume imports it (the stock build runs bytecode from
the heap, and the first game start needs those bytes).
"""
from tiletable.record import (
    REC_ACTION,
    REC_HEADER,
    REC_SCORE,
    REC_TIMED_ACTION,
    REC_UNDO,
    parse_json_payload,
)


def read_varint(data, pos):
    """The unsigned LEB128 varint at ``data[pos:]`` and the position after it.

    :raises ValueError: when the data ends inside it.
    """
    value = 0
    shift = 0
    while pos < len(data):
        byte = data[pos]
        pos += 1
        value |= (byte & 0x7F) << shift
        if byte < 0x80:
            return value, pos
        shift += 7
    raise ValueError("varint cut short")


def action_parts(rtype, payload):
    """An action record's ``(tenths of a second since the session started, or None when the
    journal kept no time, the action's text as bytes)``.

    :raises ValueError: for a timed action whose time is cut short.
    """
    if rtype == REC_ACTION:
        return None, payload
    tenths, pos = read_varint(payload, 0)
    return tenths, payload[pos:]


def action_text(rtype, payload):
    """An action record's ``(tenths or None, text)``; a time cut short or text that is not
    UTF-8 (a damaged record) reads as no time and no text, which a replay reports."""
    try:
        tenths, text = action_parts(rtype, payload)
        return tenths, bytes(text).decode()
    except ValueError:  # UnicodeError is one
        return None, ""


class RecordVisitor:
    """What ``visit`` tells as it walks a session's records; every method does nothing here,
    a reader overrides those it needs."""

    def header(self, seq, header):
        """The session's header (a dict: ruleset, hash, players, boot, firmware, time)."""

    def action(self, seq, text, tenths):
        """An action's canonical text, played ``tenths`` of a second after the session started
        (None: the journal kept no time)."""

    def undo(self, seq, target, taken):
        """An undo naming record ``target``; ``taken``: it took back the last action in effect
        (see the module doc), else it changes nothing."""

    def score(self, seq, seat, points, rule):
        """Points the table awarded, after the action that caused them."""

    def other(self, seq, rtype, text):
        """Any other record (end, resume, gap, clock) as its text."""


class InEffect(RecordVisitor):
    """A session as it stands (what the table resumes): ``start``, its header (None when the
    records hold none), ``actions``, the ``(seq, text)`` of the actions in effect, and
    ``tenths``, the time of the last action journalled with one (0 when none was)."""

    def __init__(self):
        self.start = None
        self.actions = []
        self.tenths = 0

    def header(self, seq, header):
        self.start = header

    def action(self, seq, text, tenths):
        if tenths is not None:
            self.tenths = tenths
        self.actions.append((seq, text))

    def undo(self, seq, target, taken):
        if taken:
            self.actions.pop()


def visit(records, visitor):
    """Walk ``records`` (``(seq, rtype, payload)``, as ``iter_records`` yields them) and tell
    ``visitor`` (a ``RecordVisitor``) each one in order; undo is decided here, once."""
    in_effect = []  # sequence numbers of the actions in effect
    for seq, rtype, payload in records:
        if rtype == REC_ACTION or rtype == REC_TIMED_ACTION:
            tenths, text = action_text(rtype, payload)
            in_effect.append(seq)
            visitor.action(seq, text, tenths)
        elif rtype == REC_UNDO:
            target = int(payload)
            taken = bool(in_effect) and in_effect[-1] == target
            if taken:
                in_effect.pop()
            visitor.undo(seq, target, taken)
        elif rtype == REC_HEADER:
            visitor.header(seq, parse_json_payload(payload))
        elif rtype == REC_SCORE:
            seat, points, rule = _text(payload).split(" ", 2)
            visitor.score(seq, int(seat), int(points), rule)
        else:
            visitor.other(seq, rtype, _text(payload))


def _text(payload):
    try:
        return bytes(payload).decode()
    except ValueError:  # not UTF-8: a damaged record
        return ""
