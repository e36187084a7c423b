"""Why a line-game action is illegal: a reason code and a sentence naming the specifics.

``LineChecks`` is a mixin of ``line.State``; like ``LineMoves`` it only reads the state.
A play from a hand the table cannot see is checked as far as the table knows: the right
seat, a tile not seen elsewhere, an end it fits.
"""

from tiletable.engine.errors import (
    E_BET,
    E_CHANCE,
    E_CLAIM,
    E_MUST_PLAY,
    E_NOT_HELD,
    E_NO_DRAW,
    E_NO_MATCH,
    E_ORDER,
    E_OVER,
    E_PHASE,
    E_TILE,
    E_TURN,
)
from tiletable.engine.line_actions import (
    K_ACCEPT,
    K_BET,
    K_CLAIM,
    K_DEAL,
    K_DRAW,
    K_LOT,
    K_PASS,
    K_PLAY,
    K_REFUSE,
    K_REVEAL,
    K_SETTER,
    K_SPEC,
    K_STAKES,
    K_WAIVE,
    LOC_FREE,
    LOC_LOT,
    LOC_NONE,
    LOC_PLAYED,
    P_BERGEN,
    P_DEAL,
    P_DECLARE,
    P_DRAWN,
    P_LOT,
    P_PLAY,
    P_REVEAL,
    SET_POINT,
    UNKNOWN_TILE,
    amount_of,
    kind_of,
    play_fields,
    seat_of,
    spectator_bet_of,
    tile_of,
)
from tiletable.engine.line_layout import SLOT_NAMES
from tiletable.engine.tiles import high, low, tile_str


class LineChecks:
    """Legality of ``line.State`` (a mixin)."""

    def why_illegal(self, action):
        if self._outcome is not None:
            return (E_OVER, "the match is over")
        kind = kind_of(action)
        phase = self.phase
        if kind in (K_DEAL, K_REVEAL, K_LOT, K_SETTER):
            return self._why_chance(action, kind)
        if phase != P_PLAY:
            return (E_PHASE, "waiting for a chance event (%s), not a player action" % self._phase_name())
        seat = self.turn
        b = self.betting
        if b:
            pending = b.pending_spectator()
            if pending is not None:
                if kind in (K_ACCEPT, K_REFUSE) and seat_of(action) == pending[0]:
                    return None
                return (E_PHASE, "the banker P%d must accept or refuse spectator %d's bet first" % (self.setter, pending[0]))
            if not self.stakes_set:
                if kind == K_STAKES and amount_of(action) in self._stake_choices():
                    return None
                return (E_BET, "the banker P%d sets the stakes first" % self.setter)
            if kind == K_BET:
                return self._why_bet(seat, amount_of(action))
            if self._bet_due(seat):
                return (E_BET, "P%d must bet before turn %d" % (seat, self.turns_taken[seat] + 1))
            if kind == K_SPEC:
                return self._why_spectator(action)
        if kind == K_CLAIM or kind == K_WAIVE:
            return self._why_claim(kind, seat_of(action))
        if kind == K_PLAY:
            return self._why_play(seat, action)
        if self.layout.is_empty() and kind in (K_DRAW, K_PASS):
            return (E_PHASE, "P%d must set the first tile" % seat)
        if kind == K_DRAW:
            if self.p["draw_policy"] == "none":
                return (E_NO_DRAW, "this game has no drawing")
            if self.stock <= self.p["reserve"]:
                return (E_NO_DRAW, "the last %d tiles stay in the boneyard (it has %d)" % (self.p["reserve"], self.stock))
            if self.p["draw_policy"] == "when_unable" and self._has_known_play(seat):
                return (E_MUST_PLAY, "P%d holds a tile that fits: play it" % seat)
            return None
        if kind == K_PASS:
            return self._pass_problem(seat, self._has_known_play(seat))
        return (E_PHASE, "%s is not an action now" % self.action_str(action))

    def _phase_name(self):
        return ("deal", "lot draw", "setter declaration", "setter draw", "play", "draw", "reveal", "over")[self.phase]

    def _why_chance(self, action, kind):
        phase = self.phase
        seat = seat_of(action)
        t = tile_of(action)
        if kind == K_SETTER:
            if phase == P_DECLARE or (phase == P_BERGEN and self._may_declare()):
                if seat >= self.players or not self._may_set(seat):
                    return (E_TURN, "P%d cannot hold %s: its hand is seen" % (seat, tile_str(self.fixed)))
                return None
            return (E_PHASE, "no setter declaration is due")
        want = {K_DEAL: (P_DEAL, P_DRAWN, P_BERGEN), K_LOT: (P_LOT,), K_REVEAL: (P_REVEAL,)}[kind]
        if phase not in want:
            return (E_PHASE, "no %s is due now (%s)" % (("deal or draw", "reveal", "lot draw")[kind - 1], self._phase_name()))
        if kind == K_DEAL:
            expect = self._deal_seat() if phase == P_DEAL else (self.drawer if phase == P_DRAWN else self.bergen_next)
            if phase == P_BERGEN and not self.stock:
                return (E_CHANCE, "the boneyard is empty")
        elif kind == K_LOT:
            expect = self.lot_seats[0]
        else:
            expect = self._reveal_seat()
        if seat != expect:
            return (E_TURN, "P%d is next, not P%d" % (expect, seat))
        if t == UNKNOWN_TILE:
            if kind != K_DEAL:
                return (E_CHANCE, "a %s must show the tile" % ("reveal" if kind == K_REVEAL else "lot draw"))
            return None
        return self._where_problem(t, E_CHANCE)

    def _where_problem(self, t, code):
        """None when t is unseen (could be anywhere hidden), else why it cannot come from there."""
        where = self.loc[t]
        if where == LOC_FREE:
            return None
        if where == LOC_NONE:
            return (E_TILE, "%s is not in this game's set" % tile_str(t))
        if where == LOC_PLAYED:
            return (code, "%s is already on the table" % tile_str(t))
        if where == LOC_LOT:
            return (code, "%s is out for the lot draw" % tile_str(t))
        return (code, "%s is known to be in P%d's hand" % (tile_str(t), where - 1))

    def _why_play(self, seat, action):
        t, point, orient, out = play_fields(action)
        if self.loc[t] == LOC_NONE or t == UNKNOWN_TILE:
            return (E_TILE, "%s is not in this game's set" % tile_str(t))
        if t not in self.hands[seat]:
            problem = self._where_problem(t, E_NOT_HELD)
            if problem is not None:
                return problem
            if not self.hidden[seat]:
                return (E_NOT_HELD, "P%d does not hold %s" % (seat, tile_str(t)))
        first_double = self.layout.doubles == 0
        if self.layout.is_empty():
            if point != SET_POINT:
                return (E_PHASE, "the first tile is set, not played on an end: write %s" % tile_str(t))
            if seat != self.setter:
                return (E_TURN, "P%d sets, not P%d" % (self.setter, seat))
            problem = self._set_problem(t)
            if problem is not None:
                return problem
            if orient not in self._orients(t, True) or out >= 0:
                return (E_TILE, self._orient_hint(t, True))
            return None
        if point == SET_POINT:
            return (E_PHASE, "the set is on the table: name an end, e.g. %s>L" % tile_str(t))
        lay = self.layout
        if not lay.is_open(point):
            return (E_NO_MATCH, "there is no open end %s (%s)" % (SLOT_NAMES[point], lay.text()))
        points = self._points()
        if point not in points:
            if self.p["spinner_fill_first"] and lay.has_empty_point():
                return (E_ORDER, "the spinner's points fill first, in order: play at %s" % SLOT_NAMES[points[0]])
            return (E_ORDER, "the spinner's sides are covered before its tips")
        matador = t in self.matadors
        if matador and out < 0:
            return (E_TILE, "a matador names its outward half, e.g. %s>%s^%d" % (tile_str(t), SLOT_NAMES[point], high(t)))
        if not matador and out >= 0:
            return (E_TILE, "only matadors name an outward half: write %s>%s" % (tile_str(t), SLOT_NAMES[point]))
        found = []
        self._tile_plays(t, (point,), first_double, found)
        if not found:
            v = lay.val[point]
            if v == 0 and self.p["zero_end_only_matadors"]:
                return (E_NO_MATCH, "a blank end takes only matadors")
            if self.sum7:
                return (E_NO_MATCH, "%s has no half making 7 with end %s (%d)" % (tile_str(t), SLOT_NAMES[point], v))
            return (E_NO_MATCH, "%s does not match end %s (%d)" % (tile_str(t), SLOT_NAMES[point], v))
        if action not in found:
            if matador and out not in (low(t), high(t)):
                return (E_TILE, "%s has no half %d" % (tile_str(t), out))
            return (E_TILE, self._orient_hint(t, first_double))
        return None

    def _orient_hint(self, t, first_double):
        if self._orients(t, first_double) == (0,):
            return "%s takes no orientation here: leave off x/i" % tile_str(t)
        return "say how %s lies: x (crosswise) or i (inline)" % tile_str(t)

    def _why_claim(self, kind, seat):
        if not self.claim_points:
            return (E_CLAIM, "nothing to claim")
        if kind == K_WAIVE:
            return (E_CLAIM, "P%d already waived" % self.claim_mover) if self.claim_waived else None
        if seat >= self.players:
            return (E_CLAIM, "there is no seat %d" % seat)
        if seat == self.claim_mover and self.claim_waived:
            return (E_CLAIM, "P%d waived its %d" % (seat, self.claim_points))
        return None

    def _why_bet(self, seat, amount):
        from tiletable.engine.betting import stake_problem  # only Buki bets: not in a Muggins heap
        b = self.betting
        if seat == self.setter:
            return (E_BET, "the banker does not bet")
        if b.placed[seat]:
            return (E_BET, "P%d has already bet %d" % (seat, b.bets[seat]))
        problem = stake_problem(amount, b.low, b.high, self.p["payout_denominator"], self.p["payout_rounding"])
        return None if problem is None else (E_BET, problem)

    def _why_spectator(self, action):
        b = self.betting
        spectator, seat, amount = spectator_bet_of(action)
        if spectator >= self.p["spectators"]:
            return (E_BET, "there is no spectator %d" % spectator)
        if not self.layout.is_empty():
            return (E_BET, "spectators bet before the lead")
        if b.has_spectator_bet(spectator):
            return (E_BET, "spectator %d has already bet" % spectator)
        if seat >= self.players or seat == self.setter:
            return (E_BET, "spectators bet against the banker, on another seat")
        if amount < b.low or amount > b.high:
            return (E_BET, "a stake must be between %d and %d (got %d)" % (b.low, b.high, amount))
        return None
