"""Legal actions of the line family and the specific reason an action is illegal.

``LineMoves`` is a mixin of ``line.State``: it reads the state's fields (layout, hands,
``loc``, phase, betting) and never changes them, so generation and checks have no side
effects. Plays from a hand the table cannot see are checked against what is known.
"""

from tiletable.engine.errors import E_MUST_PLAY, E_SET
from tiletable.engine.line_actions import (
    DRAW,
    K_ACCEPT,
    K_BET,
    K_CLAIM,
    K_DEAL,
    K_LOT,
    K_REFUSE,
    K_REVEAL,
    K_SETTER,
    K_STAKES,
    PASS,
    P_BERGEN,
    P_DEAL,
    P_DECLARE,
    P_DRAWN,
    P_LOT,
    P_OVER,
    P_PLAY,
    P_REVEAL,
    SET_POINT,
    UNKNOWN_TILE,
    WAIVE,
    amount_action,
    chance_action,
    play_action,
    seat_action,
    spectator_bet_action,
)
from tiletable.engine.line_layout import SIDE, TIP
from tiletable.engine.tiles import tile_str


_RULED = (0,)  # the rules decide how a tile lies (a choice is (1, 2): crosswise, inline)
_LINE_ENDS = (0, 1)


class LineMoves:
    """Generation and legality for ``line.State`` (a mixin: see the module docstring)."""

    def _deal_seat(self):
        return self.dealt // self.per_hand

    def _reveal_seat(self):
        for s in range(self.players):
            if self.hidden[s]:
                return s
        return -1

    def _free_tiles(self):
        return self.free

    def chance_outcomes(self):
        phase = self.phase
        if phase == P_DEAL or phase == P_DRAWN:  # the hot path of simulation: one list, no calls
            base = seat_action(K_DEAL, self.dealt // self.per_hand if phase == P_DEAL else self.drawer)
            if base != self.outcomes_base:
                self.outcomes = [base | t for t in self.free]
                self.outcomes_base = base
            return self.outcomes[:]
        if phase == P_LOT:
            return [chance_action(K_LOT, self.lot_seats[0], t) for t in self._free_tiles()]
        if phase == P_REVEAL:
            return [chance_action(K_REVEAL, self._reveal_seat(), t) for t in self._free_tiles()]
        if phase == P_BERGEN:
            out = []
            if self.stock:
                out = [chance_action(K_DEAL, self.bergen_next, t) for t in self._free_tiles()]
            if self._may_declare():
                out.extend(seat_action(K_SETTER, s) for s in range(self.players) if self._may_set(s))
            return out
        if phase == P_DECLARE:
            return [seat_action(K_SETTER, s) for s in range(self.players) if self._may_set(s)]
        return []

    def _may_set(self, seat):
        """Whether seat may declare it sets: for a fixed tile, only a hand with unseen tiles could hold it."""
        return seat < self.players and (self.p["setter"] != "fixed_tile" or self.hidden[seat] > 0)

    def _may_declare(self):
        """Bergen with unseen hands: after each equal round of draws a seat may declare it sets."""
        return self.bergen_draws % self.players == 0 and (not self._all_known() or self.stock == 0)

    def generate_legal_actions(self):
        phase = self.phase
        if phase == P_OVER:
            return []
        if phase != P_PLAY:
            out = self.chance_outcomes()
            if phase == P_DEAL:
                out.append(chance_action(K_DEAL, self._deal_seat(), UNKNOWN_TILE))
            elif phase == P_DRAWN or (phase == P_BERGEN and self.stock):
                seat = self.drawer if phase == P_DRAWN else self.bergen_next
                out.append(chance_action(K_DEAL, seat, UNKNOWN_TILE))
            out.sort()
            return out
        out = []
        seat = self.turn
        b = self.betting
        if b:
            pending = b.pending_spectator()
            if pending is not None:
                return [seat_action(K_ACCEPT, pending[0]), seat_action(K_REFUSE, pending[0])]
            if not self.stakes_set:
                return [amount_action(K_STAKES, m) for m in self._stake_choices()]
            if self._bet_due(seat):
                return self._bet_choices()
        if self.claim_points:
            for s in range(self.players):
                if s != self.claim_mover or not self.claim_waived:
                    out.append(seat_action(K_CLAIM, s))
            if not self.claim_waived:
                out.append(WAIVE)
        lay = self.layout
        if not lay.tiles:
            self._gen_sets(seat, out)
            if b:
                self._gen_spectator_bets(out)
        else:
            points = _LINE_ENDS if lay.spinner < 0 else self._points()
            first_double = lay.doubles == 0
            before = len(out)
            if points is _LINE_ENDS and not (self.matadors or self.sum7 or self.zero_only_matadors):
                # _tile_plays inlined for equal matching on a plain line: the hot loop of simulation
                v0 = lay.val[0]
                v1 = lay.val[1]
                doubles = self.first_orients if first_double else self.other_orients
                for t in self.hands[seat]:
                    lo = t >> 4
                    hi = t & 15
                    if lo != hi:
                        if lo == v0 or hi == v0:
                            out.append(play_action(t, 0))
                        if lo == v1 or hi == v1:
                            out.append(play_action(t, 1))
                    else:
                        for o in doubles:
                            if lo == v0:
                                out.append(play_action(t, 0, o))
                            if lo == v1:
                                out.append(play_action(t, 1, o))
            else:
                for t in self.hands[seat]:
                    self._tile_plays(t, points, first_double, out)
            known_play = len(out) > before
            if self.hidden[seat]:
                for t in self._free_tiles():
                    self._tile_plays(t, points, first_double, out)
            can_draw = self._can_draw()
            if can_draw and not (known_play and self.draw_policy == "when_unable"):
                out.append(DRAW)
            if not (can_draw and not known_play) and not (known_play and not self.may_pass):
                out.append(PASS)  # the same rule as _pass_problem, without building its reasons
        if b and seat != self.setter and not b.placed[seat]:
            out.extend(self._bet_choices())
        if len(out) > 1:
            out.sort()
        return out

    # --- generation helpers ------------------------------------------------------------
    def _candidates(self, seat):
        """Tiles seat might lay: its known tiles, and every unseen tile while it holds unseen ones."""
        if not self.hidden[seat]:
            return self.hands[seat]
        return self.hands[seat] + self._free_tiles()

    def _orients(self, t, first_double):
        """Orientation codes for laying t: (0,) when the rules decide, (1, 2) for the player's choice."""
        if t >> 4 != t & 15:
            return _RULED
        return self.first_orients if first_double else self.other_orients

    def _gen_sets(self, seat, out):
        if seat != self.setter:
            return
        must = self.must_set
        for t in self._candidates(seat):
            if must < 0 or t == must:  # _set_problem, without building its reason
                for o in _RULED if t >> 4 != t & 15 else self.first_orients:
                    out.append(play_action(t, SET_POINT, o))

    def _set_problem(self, t):
        """None when the setter may set t, else (code, reason)."""
        if self.must_set >= 0 and t != self.must_set:
            return (E_SET, "the setter must set the tile that made it setter, %s" % tile_str(self.must_set))
        return None

    def _points(self):
        """The attach slots open now, in order (Sebastopol: only the first free spinner point)."""
        lay = self.layout
        role = lay.role
        if lay.spinner < 0:  # a plain line: L and R
            return _LINE_ENDS
        if self.fill_first and lay.has_empty_point():
            for i in range(4):
                if role[i] == SIDE or role[i] == TIP:
                    return (i,)
        slots = []
        tips_closed = self.sides_first and not lay.sides_covered()
        for i in range(4):
            if lay.is_open(i) and not (tips_closed and role[i] == TIP):
                slots.append(i)
        return slots

    def _tile_plays(self, t, points, first_double, out):
        """Append every way to lay t at one of ``points`` (the hot loop of move generation)."""
        val = self.layout.val
        a = t >> 4
        b = t & 15
        if a != b:
            orients = _RULED
        else:
            orients = self.first_orients if first_double else self.other_orients
        if self.matadors and t in self.matadors:
            for slot in points:
                for o in orients:
                    out.append(play_action(t, slot, o, a))
                    if a != b:
                        out.append(play_action(t, slot, o, b))
            return
        sum7 = self.sum7
        for slot in points:
            v = val[slot]
            if sum7:
                if a + v != 7 and b + v != 7:
                    continue
            elif a != v and b != v:
                continue
            if v == 0 and self.zero_only_matadors:
                continue
            for o in orients:
                out.append(play_action(t, slot, o))

    def _has_known_play(self, seat):
        points = self._points()
        first_double = self.layout.doubles == 0
        found = []
        for t in self.hands[seat]:
            self._tile_plays(t, points, first_double, found)
            if found:
                return True
        return False

    def _can_draw(self):
        return self.draw_policy != "none" and self.stock > self.reserve

    def _pass_problem(self, seat, known_play):
        if self._can_draw() and not known_play:
            return (E_MUST_PLAY, "draw first: the boneyard has %d tiles" % self.stock)
        if known_play and not self.may_pass:
            return (E_MUST_PLAY, "P%d must play: it holds a tile that fits" % seat)
        return None

    def _stake_choices(self):
        cap = self.p["max_stake"]
        return [m for m in range(1, cap + 1) if m * self.p["stake_ratio"] <= cap]

    def _bet_choices(self):
        from tiletable.engine.betting import stake_problem  # only Buki bets: not in a Muggins heap
        b = self.betting
        out = []
        for amount in range(b.low, b.high + 1):
            if stake_problem(amount, b.low, b.high, self.p["payout_denominator"], self.p["payout_rounding"]) is None:
                out.append(amount_action(K_BET, amount))
        return out

    def _bet_due(self, seat):
        b = self.betting
        if seat == self.setter or b.placed[seat]:
            return False
        deadline = self.p["new_banker_bet_deadline"] if self.banker_changed else self.p["bet_deadline"]
        return self.turns_taken[seat] + 1 >= deadline

    def _gen_spectator_bets(self, out):
        b = self.betting
        for spectator in range(self.p["spectators"]):
            if b.has_spectator_bet(spectator):
                continue
            for seat in range(self.players):
                if seat == self.setter:
                    continue
                for amount in range(b.low, b.high + 1):
                    out.append(spectator_bet_action(spectator, seat, amount))
