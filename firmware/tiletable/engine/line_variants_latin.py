"""The rules of Latin partnership Double-Nine (MORE-GAMES §3) among the newer line games' rules
(engine/line_variants.py): ``LineRules`` builds a ``LatinVariants`` instead of a ``Variants``
only for a ruleset that plays one of these, so that no other game carries their code (on a
stock Pico imported bytecode is heap: a Fives and Threes start lacked 1.6 KB of its headroom
with them in ``line_variants``).

* ``blocked_compare`` (MORE-GAMES §3, partnerships): a blocked hand won by the lowest single
  hand, or by the lower of the blocker's (the last to play) and the next player's;
* ``capicua``: ``capicua_bonus`` more for a side that goes out with a tile that fitted both
  ends, the ends showing different numbers (``capicua_same_ends``: or the same);
* ``setter`` side_lot (MORE-GAMES §3): before the first deal seats 0 and 1 draw for their
  sides, the heavier tile wins (equal: both draw again); once the tiles are dealt the side
  names which of its players leads (``setter<seat>``, a seat of that side); ``later_setter``
  winning_side_chooses: the side that won the last hand names its leader, after a hand nobody
  won the side that led it;
* ``doubles_redeal``: before the first play, while the leader is named, a player holding that
  many doubles may show them (``show<seat>``): the deal is thrown in, unscored, and the hand
  starts again (its lot too).
"""

from tiletable.engine.errors import E_NOT_HELD, E_PHASE
from tiletable.engine.line_actions import K_PLAY, K_SHOW_DOUBLES, P_DECLARE, action_text, kind_of, point_of, seat_action, seat_of, tile_of
from tiletable.engine.line_deal import best_holder
from tiletable.engine.line_variants import Variants
from tiletable.engine.tiles import is_double


class LatinVariants(Variants):
    """``Variants`` with the rules above (shared by a ruleset's states, never changed)."""

    def __init__(self, p, scoring):
        Variants.__init__(self, p, scoring)
        self.side_lot = p["setter"] == "side_lot"
        self.side_chooses = p["later_setter"] == "winning_side_chooses"
        self.redeal = p.get("doubles_redeal", 0)  # resolved only for a game that throws a deal in
        self.by_hand = p["blocked_compare"] != "side_totals"
        self.next_to_blocker = p["blocked_compare"] == "blocker_vs_next"
        self.capicua = p["capicua_bonus"] if p["capicua"] else 0
        self.same_ends = p["capicua_same_ends"]

    def lot_seats(self, state):
        """The seats that draw the lot: one of each side (side_lot), else every one."""
        return [0, 1] if self.side_lot else Variants.lot_seats(self, state)

    def leads(self, state):
        """Name who leads once the deal is done when these rules do; whether they did. A side
        names its leader, and where a deal may be thrown in any leader first declares it sets
        (``setter<seat>``, ``line_deal.may_set`` of ``lot_seats``): doubles are shown before."""
        winner = state.setter if state.last_winner is None else state.last_winner  # after a tie, who led
        if state.hand_number > 0 and self.rotate:
            seats = [state._next(state.setter)]
        elif state.hand_number > 0 and self.side_chooses:
            seats = [winner % 2, winner % 2 + 2]
        elif self.lot_first and (state.hand_number == 0 or self.lot_again):
            seats = [state.setter % 2, state.setter % 2 + 2] if self.side_lot else [state.setter]
        elif self.redeal and state.hand_number > 0 and state.p["later_setter"] == "previous_winner":
            seats = [winner]
        elif self.redeal and best_holder(state, False) is not None:  # the highest (lowest) double
            seats = [best_holder(state, False)]
        else:
            return False
        if len(seats) > 1 or self.redeal:
            state.phase = P_DECLARE
            state.lot_seats = seats
        else:
            state._start_play(seats[0])
        return True

    # --- the thrown-in deal (``show<seat>``)
    def _doubles_shown(self, state, seat):
        """Whether ``seat`` may show ``doubles_redeal`` doubles (its unseen tiles may be doubles)."""
        doubles = sum(1 for t in state.hands[seat] if is_double(t))
        return doubles + state.hidden[seat] >= self.redeal

    def shows(self, state, out):
        """While the leader is named, before the first play: append the shows of doubles
        that would throw the deal in."""
        if self.redeal:
            for seat in range(state.players):
                if self._doubles_shown(state, seat):
                    out.append(seat_action(K_SHOW_DOUBLES, seat))

    def why_illegal(self, state, action):
        """Why a show of doubles is illegal now: it comes before the first play, while the
        leader is named (``line_checks.why_illegal`` for the kinds after Buki's)."""
        seat = seat_of(action)
        if kind_of(action) != K_SHOW_DOUBLES or not self.redeal:
            return (E_PHASE, "%s is not an action now" % action_text(action))
        if state.phase != P_DECLARE:
            return (E_PHASE, "doubles are shown before the first play, while the leader is named")
        if seat >= state.players or not self._doubles_shown(state, seat):
            return (E_NOT_HELD, "P%d holds fewer than %d doubles" % (seat, self.redeal))
        return None

    def throw_in(self, state):
        """Doubles were shown: the hand starts again, unscored (rotate: the lead passes on
        from the seat before, as it would have)."""
        if self.rotate:
            state.setter = (state.setter - state.step) % state.players
        state._new_hand()

    # --- the hand award
    def blocked_winner(self, state, totals):
        """The seat whose hand wins a blocked hand for its side by ``blocked_compare``
        (``totals``: each seat's pips), or None when the sides tie."""
        if self.next_to_blocker:  # the blocker passed last: the hand is still its turn
            blocker = state.turn
            after = state._next(blocker)
            return after if totals[after] < totals[blocker] else blocker
        least = min(totals)
        sides = set(s % 2 for s in range(4) if totals[s] == least)
        return totals.index(least) if len(sides) == 1 else None

    def capicua_points(self, state):
        """The capicúa bonus the last play earned: its tile fitted both ends, which showed
        different numbers (same_ends: or the same); 0 if not."""
        if not self.capicua:
            return 0
        for i in range(len(state.history) - 1, -1, -1):
            action = state.history[i]
            if kind_of(action) == K_PLAY:
                break
        t, point = tile_of(action), point_of(action)
        ends = state.layout.val
        outward, other = ends[point], ends[1 - point]
        matched = (t >> 4) + (t & 15) - outward  # the half that met the end it was laid on
        if (t >> 4 != t & 15 and outward == other) or (self.same_ends and matched == other):
            return self.capicua
        return 0
