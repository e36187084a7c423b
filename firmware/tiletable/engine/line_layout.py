"""The layout of a line game (rule book §2.3, §2.6): open ends, a spinner, and the end count.

The layout keeps only what the rules look at: four attach slots, each with the value it
shows, its *role* and whether its end tile is a crosswise double. Slots ``L`` and ``R``
are the two line ends (or a spinner's sides); ``S1`` and ``S2`` exist once a spinner is
on the table: a crosswise spinner's tips, or an inline sniff's sides.

Roles:

* ``END``   an open end of an arm; counts ``v`` (``2v`` when its end tile is a crosswise double)
* ``SIDE``  an empty spinner side (a sniff side, a Sebastopol point): open, counts 0
* ``TIP``   an empty crosswise-spinner tip: open, counts ``v`` by the counting mode
* ``STUB``  Pagat's stubby-spinner side with its one tile: closed, counts its value
* ``SHUT``  no attach point here

>>> lay = Layout(); lay.set(0x55, True, False); lay.count(COUNT_LINE)
10
"""

from tiletable.engine.tiles import high, low

L = 0
R = 1
S1 = 2
S2 = 3
SLOT_NAMES = ("L", "R", "S1", "S2")

SHUT = 0
END = 1
SIDE = 2
TIP = 3
STUB = 4

# ``xd``: the end tile is a double, laid crosswise (counts 2v) or inline
CROSS = 1
INLINE = 2

COUNT_LINE = 0
COUNT_ALL_FIVES = 1
COUNT_SNIFF_US = 2
COUNT_MODES = ("line", "all_fives_spinner", "sniff_us")  # the count_mode parameter's values, by code



class Layout:
    """Open ends, spinner and counting; mutated only through ``set`` and ``attach``."""

    def __init__(self):
        self.reset()

    def reset(self):
        """Empty the table for a new hand (new containers: a hand's end, not the scan loop)."""
        self.val = [0, 0, 0, 0]
        self.role = bytearray(4)  # SHUT
        self.xd = bytearray(4)
        self.tiles = 0
        self.lone_double = False  # a crosswise double set alone: both ends at once, counted once
        self.spinner = -1  # the spinner's value, once there is one
        self.doubles = 0  # doubles on the table (the first one may become the spinner/sniff)

    def is_empty(self):
        return self.tiles == 0

    def is_open(self, slot):
        role = self.role[slot]
        return role == END or role == SIDE or role == TIP

    def has_empty_point(self):
        """True while a spinner side or tip is still free (Sebastopol's phase 1)."""
        for i in range(4):
            if self.role[i] == SIDE or self.role[i] == TIP:
                return True
        return False

    def sides_covered(self):
        """True when neither L nor R is an empty spinner side."""
        return self.role[L] != SIDE and self.role[R] != SIDE

    def set(self, t, crosswise, spinner):
        """Lay the first tile. A double ``spinner`` opens its sides and tips (or an inline sniff's sides)."""
        a, b = low(t), high(t)
        self.tiles = 1
        if a != b:
            self._slot(L, a, END, 0)
            self._slot(R, b, END, 0)
            return
        self.doubles = 1
        if spinner:
            self.spinner = a
            if crosswise:
                self._slot(L, a, SIDE, 0)
                self._slot(R, a, SIDE, 0)
                self._slot(S1, a, TIP, 0)
                self._slot(S2, a, TIP, 0)
            else:
                self._slot(L, a, END, 0)
                self._slot(R, a, END, 0)
                self._slot(S1, a, SIDE, 0)
                self._slot(S2, a, SIDE, 0)
            return
        self._slot(L, a, END, CROSS if crosswise else INLINE)
        self._slot(R, a, END, CROSS if crosswise else INLINE)
        self.lone_double = crosswise

    def attach(self, slot, t, out, crosswise, spinner, stub):
        """Attach tile t at ``slot`` with ``out`` facing outward.

        ``spinner``: this double becomes the spinner (sniff); ``stub``: Pagat's stubby
        sniff, whose sides take exactly one tile each.
        """
        self.tiles += 1
        self.lone_double = False
        if stub and self.role[slot] == SIDE and slot >= S1:
            self._slot(slot, out, STUB, 0)
            return
        if t >> 4 == t & 15:
            self.doubles += 1
            if spinner:
                self.spinner = out
                if crosswise:
                    self._slot(slot, out, SIDE, 0)
                    self._slot(S1, out, TIP, 0)
                    self._slot(S2, out, TIP, 0)
                else:
                    self._slot(slot, out, END, 0)
                    self._slot(S1, out, SIDE, 0)
                    self._slot(S2, out, SIDE, 0)
                return
            self._slot(slot, out, END, CROSS if crosswise else INLINE)
            return
        self.val[slot] = out  # _slot(slot, out, END, 0), inlined for the common case
        self.role[slot] = END
        self.xd[slot] = 0

    def _slot(self, i, value, role, xd):
        self.val[i] = value
        self.role[i] = role
        self.xd[i] = xd

    def count(self, mode):
        """The end count of §2.6 under a counting mode (``COUNT_*``)."""
        if self.lone_double:
            return 2 * self.val[L]
        total = 0
        tips_count = mode == COUNT_SNIFF_US or (mode == COUNT_ALL_FIVES and not self.sides_covered())
        for i in range(4):
            role = self.role[i]
            if role == END:
                total += self.val[i] * 2 if self.xd[i] == CROSS else self.val[i]
            elif role == STUB or (role == TIP and tips_count):
                total += self.val[i]
        return total

    def count_terms(self, mode):
        """The count's terms as text, e.g. ``5x2 + 0``; the same sum as ``count``."""
        if self.lone_double:
            return "%dx2" % self.val[L]
        terms = []
        tips_count = mode == COUNT_SNIFF_US or (mode == COUNT_ALL_FIVES and not self.sides_covered())
        for i in range(4):
            role = self.role[i]
            if role == END:
                terms.append("%dx2" % self.val[i] if self.xd[i] == CROSS else str(self.val[i]))
            elif role == STUB or (role == TIP and tips_count):
                terms.append(str(self.val[i]))
        return " + ".join(terms) if terms else "0"

    def text(self):
        """The open ends for people, e.g. ``L=3 R=5x S1=4*``: ``x`` crosswise double, ``*`` empty spinner point."""
        out = []
        for i in range(4):
            role = self.role[i]
            if role == SHUT:
                continue
            mark = "x" if self.xd[i] == CROSS else ("*" if role == SIDE or role == TIP else ("|" if role == STUB else ""))
            out.append("%s=%d%s" % (SLOT_NAMES[i], self.val[i], mark))
        return " ".join(out) if out else "empty"
