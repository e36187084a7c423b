"""The rules of the newer line games (Fives and Threes, All Fives rounded: MORE-GAMES §1, §2)
that the older ones never play. On a stock Pico imported bytecode is heap, and a Buki start
has none to spare, so these rules live here: ``LineRules`` builds a ``Variants`` only for a
ruleset that plays one of them, and the state, ``line_deal`` and ``line_award`` call it at a
few hooks (``rules.variants``; None for every other game).

* ``target_exact``: a score event that would pass the target is disregarded, whole;
* ``partnership_end`` both_out: a side's hand ends when both partners are out; a seat that is
  out is skipped, and the hand blocks when every seat still holding tiles has passed;
* ``setter`` highest_draw: a lot of the heaviest tile, from the whole set before the deal;
  ``later_setter`` rotate: the lead passes to the next seat;
* ``blocked_award`` none: a blocked hand pays nobody; a going-out award the per-move scoring
  rule paid with the last play (``pays_domino``: threes_fives' chip point) is not paid again;
* ``round5``: a pip award to the nearest 5 (after ``others_sum_minus_own``); ``units`` fives:
  the award counted one point per 5;
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
from tiletable.engine.line_actions import (
    K_PLAY, K_SHOW_DOUBLES, P_DEAL, P_DECLARE, P_LOT, P_PLAY, action_text, kind_of, point_of, seat_action, seat_of,
    tile_of,
)
from tiletable.engine.line_deal import best_holder
from tiletable.engine.tiles import is_double, pips


def _heaviest(t):
    """A lot tile's rank when the heaviest wins (the lot keeps the lowest rank)."""
    return -pips(t)


class Variants:
    """The rules above for one ruleset, worked out once (shared by its states, never changed)."""

    def __init__(self, p, scoring):
        self.target = p["target"] if p["target_exact"] else 0
        self.both_out = p["partnership_end"] == "both_out"
        self.side_lot = p["setter"] == "side_lot"
        self.lot_first = self.side_lot or p["setter"] == "highest_draw"
        self.lot_again = p["later_setter"] == "same_rule"
        self.rotate = p["later_setter"] == "rotate"
        self.side_chooses = p["later_setter"] == "winning_side_chooses"
        self.redeal = p.get("doubles_redeal", 0)  # resolved only for a game that throws a deal in
        self.lot_rank = _heaviest if self.lot_first else pips
        self.blocked_pays = p["blocked_award"] != "none"
        self.domino_paid = getattr(scoring, "pays_domino", False)
        self.round5 = p["round5"] and p["hand_award"] != "rounded5"
        self.fives = p["units"] == "fives"
        self.by_hand = p["blocked_compare"] != "side_totals"
        self.next_to_blocker = p["blocked_compare"] == "blocker_vs_next"
        self.capicua = p["capicua_bonus"] if p["capicua"] else 0
        self.same_ends = p["capicua_same_ends"]

    # --- the score and the match
    def disregards(self, state, seat, points):
        """Whether a score event of ``points`` to ``seat`` passes an exact target (it is lost)."""
        return self.target and state.scores[seat] + points > self.target

    # --- turns and the end of a hand
    def plays_on(self, state, seat):
        """Whether the hand goes on after ``seat`` laid its last tile (both_out: its partner holds tiles)."""
        if not self.both_out:
            return False
        partner = (seat + 2) % 4
        return bool(state.hands[partner] or state.hidden[partner])

    def skip_out(self, state, seat):
        """``seat``, or the first after it that still holds tiles (both_out, in play)."""
        if self.both_out and state.phase == P_PLAY:
            while not state.hands[seat] and not state.hidden[seat]:
                seat = (seat + state.step) % state.players
        return seat

    def holding(self, state):
        """The seats whose passes in a row block the hand: those still holding tiles (both_out)."""
        if not self.both_out:
            return state.players
        return sum(1 for s in range(state.players) if state.hands[s] or state.hidden[s])

    # --- who leads
    def new_hand(self, state):
        """highest_draw: the lot comes before the deal (the first hand's, or every hand's)."""
        if self.lot_first and (state.hand_number == 0 or self.lot_again):
            state.phase = P_LOT
            state.lot_seats = [0, 1] if self.side_lot else list(range(state.players))
            state.lots = [-1] * state.players

    def lot_drawn(self, state, seat):
        """``seat`` won the lot: it sets now, or (highest_draw) once the tiles are dealt."""
        if self.lot_first:
            state.setter = seat
            state.phase = P_DEAL
        else:
            state._start_play(seat)

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
    def ended_by(self, state, out):
        """Of the seats ``out`` of tiles, those whose going out ended the hand (both_out: a side
        both out; a hand blocked with one of each side out was ended by nobody)."""
        if not self.both_out:
            return out
        return [s for s in out if (s + 2) % 4 in out]

    def pays_nothing(self, out):
        """Whether the hand pays nothing more: the last play paid the going out, or a blocked
        hand pays nobody."""
        return self.domino_paid if out else not self.blocked_pays

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

    def points(self, points, detail):
        """A pip award rounded to the nearest 5 (``round5``) and counted in fives (``units``)."""
        if self.round5:
            points = (points + 2) // 5 * 5
            detail += ", to the nearest 5 = %d" % points
        if self.fives:
            points //= 5
            detail += ", in fives = %d" % points
        return points, detail
