"""What a table that cannot see the hands learns from the play, and the check at the reveal.

When a hand holds tiles the table has not seen, a pass, a forced draw or a setter's
claim cannot be checked at once. Each becomes a *fact*: "seat 2 held none of these
tiles at action 17" (a bit mask over tile ids). The plays and draws that follow are
logged, so once the hands are revealed the hand each seat held at that moment can be
rebuilt: its final tiles plus what it played since, minus what it drew since. A draw
the table did not see (``D2:?``) leaves one tile of that rebuilt hand in doubt, so a
fact is broken only when more offending tiles turn up than unseen draws could explain.

>>> k = Knowledge(); k.add_fact(5, 1, 1 << 0x34, "renege", "passed on ends 3 and 4")
>>> [v.text() for v in k.check(0, [[], [0x34]], None)]
['hand 0, action 5, P1: renege: passed on ends 3 and 4, but held 3-4']
"""

from tiletable.engine.line_actions import SET_POINT
from tiletable.engine.tiles import tile_str

UNSEEN = 0xFF  # a draw whose tile the table did not see (the unseen-tile code of line actions)


class Violation:
    """A rule broken in a hand, found at the reveal: which hand, which action, whose, which rule."""

    def __init__(self, hand, index, seat, rule, text):
        self.hand = hand
        self.index = index
        self.seat = seat
        self.rule = rule
        self.text_ = text

    def __repr__(self):
        return "Violation(%d, %d, %d, %r, %r)" % (self.hand, self.index, self.seat, self.rule, self.text_)

    def text(self):
        return "hand %d, action %d, P%d: %s: %s" % (self.hand, self.index, self.seat, self.rule, self.text_)


class Knowledge:
    """Facts and the event log of one hand; made at the hand's first unseen tile (``?``)."""

    def __init__(self):
        self.facts = []
        self.log = []

    def add_fact(self, index, seat, mask, rule, text):
        """Seat held none of the tiles in ``mask`` just before action ``index``."""
        self.facts.append((index, seat, mask, rule, text))

    def add_setter_claim(self, index, seat, text):
        """Seat set at action ``index`` as the holder of the best-ranked tile (checked by ``rank``)."""
        self.facts.append((index, seat, None, "setter", text))

    def log_play(self, index, seat, t):
        self.log.append((index, seat, t, 0))

    # --- what a line game's moves imply (``line.State`` calls these while a hand has unseen tiles)
    def note_play(self, state, seat, t, point):
        """Log a play; a set from an unseen hand by the best-tile rule claims that tile."""
        index = len(state.history) - 1
        if point == SET_POINT and state.hidden[seat] and _set_by_rank(state, t):
            self.add_setter_claim(index, seat, "set %s as holder of the best setting tile" % tile_str(t))
            if state.p["set_constraint"] == "qualifying_tile":
                rank = state.rules.set_rank
                better = [u for u in state.tiles if rank(u) > rank(t)]
                self.add_fact(index, seat, mask_of(better), "setter", "set %s as its best setting tile" % tile_str(t))
        self.log_play(index, seat, t)

    def note_lacks(self, state, seat, verb):
        """Passing or a forced draw says: nothing in this hand fits now (checked at the reveal)."""
        points = state._points()
        first_double = state.layout.doubles == 0
        fitting = []
        for t in state.free:
            found = []
            state._tile_plays(t, points, first_double, found)
            if found:
                fitting.append(t)
        if fitting:
            text = "%s on %s: held nothing that fits" % (verb, state.layout.text())
            self.add_fact(len(state.history) - 1, seat, mask_of(fitting), "must play", text)

    def log_draw(self, index, seat, t):
        """``t`` is ``UNSEEN`` for a draw the table did not see."""
        self.log.append((index, seat, t, 1))

    def held_at(self, seat, index, final):
        """The tiles seat may have held just before action ``index``, and how many of them are in doubt.

        The log is walked back from the reveal, newest first: a tile drawn and then played
        since ``index`` is put back by its play before its draw takes it out again.
        """
        held = list(final)
        unseen = 0
        for when, who, t, drew in reversed(self.log):
            if who != seat or when < index:
                continue
            if not drew:
                held.append(t)
            elif t == UNSEEN:
                unseen += 1
            elif t in held:
                held.remove(t)
        return held, unseen

    def check(self, hand, final_hands, rank):
        """Every fact the revealed hands contradict, as ``Violation``s.

        ``final_hands``: the tiles each seat holds at the reveal; ``rank(t)`` orders tiles
        for setter claims (None when the game has no such claims).
        """
        found = []
        for index, seat, mask, rule, text in self.facts:
            if mask is None:
                found.extend(self._check_setter(hand, index, seat, text, final_hands, rank))
                continue
            held, unseen = self.held_at(seat, index, final_hands[seat])
            bad = [t for t in held if (mask >> t) & 1]
            if len(bad) > unseen:
                names = ", ".join(tile_str(t) for t in sorted(bad))
                found.append(Violation(hand, index, seat, rule, "%s, but held %s" % (text, names)))
        return found

    def _check_setter(self, hand, index, seat, text, final_hands, rank):
        best = []
        for s in range(len(final_hands)):
            held, unseen = self.held_at(s, index, final_hands[s])
            if unseen or not held:
                best.append(None)  # an unseen draw since: this seat's hand then is not known
                continue
            top = held[0]
            for t in held:
                if rank(t) > rank(top):
                    top = t
            best.append(top)
        mine = best[seat]
        if mine is None:
            return []
        out = []
        for s in range(len(best)):
            if s != seat and best[s] is not None and rank(best[s]) > rank(mine):
                out.append(
                    Violation(
                        hand,
                        index,
                        seat,
                        "setter",
                        "%s, but P%d held %s, better than %s" % (text, s, tile_str(best[s]), tile_str(mine)),
                    )
                )
        return out


def _set_by_rank(state, t):
    """Whether setting ``t`` claims the best-ranked tile (S3, Bergen, a fixed tile's S3
    fallback): not a setter by rotation, lots, the fixed tile itself, or the last winner."""
    p = state.p
    if state.hand_number > 0 and p["later_setter"] == "previous_winner":
        return False
    if p["setter"] == "fixed_tile":
        return t != state.rules.fixed
    return p["setter"] in ("highest_double", "lowest_double", "double_draw_equalized")


def mask_of(tiles):
    """The bit mask of some tile ids (a tile id is below 160, so this is one small int)."""
    mask = 0
    for t in tiles:
        mask |= 1 << t
    return mask
