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

The Latin partnership rules (MORE-GAMES §3: the side lot, a thrown-in deal, a blocked hand
won by a hand, capicúa) are ``line_variants_latin``'s, a subclass imported only for the games
that play them, so that Fives and Threes does not carry their code.
"""

from tiletable.engine.errors import E_PHASE
from tiletable.engine.line_actions import P_DEAL, P_LOT, P_PLAY, action_text
from tiletable.engine.tiles import pips


def variants_for(p, scoring):
    """The rules of the resolved parameters ``p``: a ``Variants``, or where they play a Latin
    partnership rule a ``line_variants_latin.LatinVariants``."""
    if p["setter"] == "side_lot" or p["later_setter"] == "winning_side_chooses" or p.get("doubles_redeal", 0) or (
        p["blocked_compare"] != "side_totals" or p["capicua"]
    ):
        from tiletable.engine.line_variants_latin import LatinVariants

        return LatinVariants(p, scoring)
    return Variants(p, scoring)


def _heaviest(t):
    """A lot tile's rank when the heaviest wins (the lot keeps the lowest rank)."""
    return -pips(t)


class Variants:
    """The rules above for one ruleset, worked out once (shared by its states, never changed)."""

    by_hand = False  # a blocked hand is won by a hand, not by the sides' totals (the Latin rules')

    def __init__(self, p, scoring):
        self.target = p["target"] if p["target_exact"] else 0
        self.both_out = p["partnership_end"] == "both_out"
        self.lot_first = p["setter"] in ("highest_draw", "side_lot")
        self.lot_again = p["later_setter"] == "same_rule"
        self.rotate = p["later_setter"] == "rotate"
        self.lot_rank = _heaviest if self.lot_first else pips
        self.blocked_pays = p["blocked_award"] != "none"
        self.domino_paid = getattr(scoring, "pays_domino", False)
        self.round5 = p["round5"] and p["hand_award"] != "rounded5"
        self.fives = p["units"] == "fives"

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
            state.lot_seats = self.lot_seats(state)
            state.lots = [-1] * state.players

    def lot_seats(self, state):
        """The seats that draw the lot: every one."""
        return list(range(state.players))

    def lot_drawn(self, state, seat):
        """``seat`` won the lot: it sets now, or (highest_draw) once the tiles are dealt."""
        if self.lot_first:
            state.setter = seat
            state.phase = P_DEAL
        else:
            state._start_play(seat)

    def leads(self, state):
        """Name who leads once the deal is done when these rules do; whether they did."""
        if state.hand_number > 0 and self.rotate:
            state._start_play(state._next(state.setter))
        elif self.lot_first and (state.hand_number == 0 or self.lot_again):
            state._start_play(state.setter)
        else:
            return False
        return True

    def shows(self, state, out):
        """The shows of doubles that would throw the deal in: none (the Latin rules')."""

    def why_illegal(self, state, action):
        """Why an action of a kind after Buki's is illegal: these rules have none."""
        return (E_PHASE, "%s is not an action now" % action_text(action))

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

    def capicua_points(self, state):
        """The capicúa bonus of the last play: none (the Latin rules')."""
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
