"""The line-game family (rule book §2, §3.1-§3.7, §3.12, §4.1): Block, Draw, Sebastopol,
Bergen, Muggins/All Fives, Sniff, Matador and Buki-Domino, one ``State`` driven by parameters.

A hand runs: deal (chance) -> who sets (rule, lot draws, or a declaration when the hands
are unseen) -> set and plays, draws, passes, claims, bets -> reveal of unseen tiles
(chance) -> hand award -> next hand, until the target or the number of games.

Actions are small ints; their canonical text (``action_str``/``parse_action``):

=================  ===========================================================
``5-6``            set 5-6 as the first tile (``4-4x``/``4-4i``: crosswise/inline when the player chooses)
``5-6>L``          play 5-6 on end L (``R``; ``S1``/``S2`` are a spinner's tips or an inline sniff's sides)
``3-3>S1x``        a double laid crosswise (``i``: inline) where the player chooses
``2-5>L^5``        a matador with the half facing outward
``draw``, ``pass`` draw from the boneyard; pass ("go")
``claim2``         seat 2 claims the pending Muggins count (its mover, or a steal)
``waive``          the mover gives up the pending count (others may still steal it)
``bet20``          the seat to act stakes 20 chips (Buki)
``stakes10``       the banker sets the minimum stake 10 (the maximum follows by ``stake_ratio``)
``spec1>2=20``     spectator 1 bets 20 on seat 2; ``accept1``/``refuse1`` is the banker's answer
``D2:5-6``         chance: seat 2 receives 5-6 (deal or draw); ``D2:?`` an unseen tile
``lot2:2-3``       chance: seat 2 draws 2-3 to decide who sets (the tile goes back)
``setter2``        chance: seat 2 declares it holds the setting tile (hands unseen)
``R2:5-6``         chance: seat 2 reveals 5-6 at the end of the hand; ``setter1`` also names the
                   side's leader where a side chooses it (Latin Double-Nine, ``line_variants``)
``show2``          seat 2 shows its doubles before the first play: the deal is thrown in
=================  ===========================================================

Scores are points, or for Buki half-chips (``score_scale`` 2; see ``betting``).

Readings this engine settles where the rule book is open (each is a parameter or noted):

* deals go seat by seat (``D0`` first); the plain set ``a-b`` lies with L = a, R = b;
* S2 lightest draw: the lot tiles stay out while tied seats redraw, then all go back; if
  the boneyard runs short, the first tied seat sets; Bergen's draws stop at the first
  equal round holding a double (or when the boneyard is empty: then the heaviest tile);
* a fixed set tile that was not dealt falls back to S3; Bergen's setter sets its heaviest
  doublet (``set_constraint=qualifying_tile`` in the preset);
* Sebastopol's four free points are one action per tile, at the first free point (L, R, S1, S2);
* Muggins claims: any non-mover may steal until the next player's action; a play that ends
  the hand credits its count to the mover at once (nobody is left to act);
* ``may_pass_when_able`` and ``must_play_if_able=false`` are the same switch; setting
  both to say opposite things is rejected;
* Buki spectators bet before the lead, against the banker, on a non-banker seat; on a
  drawn game their stakes are returned; a seat that never bet has a stake of 0;
* hands the table cannot see: a seat with unseen tiles may pass, draw or play any unseen
  tile; the implied facts are checked at the reveal (``knowledge``).

The family's rules are parts picked once per ruleset by ``LineRules`` (``line_rules``): a
per-move scoring rule (``line_score_<name>.py``, registered in ``line_params.SCORING_RULES``),
Buki's ``betting.Betting``, the hand award (``line_award``) and the checks and text for people
(``line_checks``); this module holds the hand flow and the legal moves.
"""

from tiletable.engine import line_award, line_checks, line_deal
from tiletable.engine.line_actions import (
    DRAW, K_CLAIM, K_DEAL, K_DRAW, K_LOT, K_PASS, K_PLAY, K_REVEAL, K_SETTER, K_WAIVE, LOC_PLAYED,
    PASS, P_BERGEN, P_DEAL, P_DRAWN, P_LOT, P_OVER, P_PLAY, P_REVEAL, SET_POINT, UNKNOWN_TILE, WAIVE,
    action_text, parse_action_text, play_action, seat_action,
)
from tiletable.engine.errors import E_TILE, IllegalAction
from tiletable.engine.line_layout import Layout, SIDE, TIP
from tiletable.engine.line_rules import RULED, rules_of
from tiletable.engine.state import CHANCE, GameState, Outcome, TERMINAL


# The family contract (rulesets.py): PARAMS, PRESETS and check_params live in line_params,
# which rulesets imports to validate a ruleset and unloads afterwards (heap on the Pico).

_LINE_ENDS = (0, 1)


def player_counts(params):
    """The player counts the deal table gives a deal for."""
    return sorted(map(int, params["deal"]))


class State(GameState):
    """A match of one line game. See the module docstring for actions and the hand flow."""

    family = "line"
    shared = ("ruleset", "p", "rules", "tiles", "matadors", "scoring")  # fixed by the ruleset

    def __init__(self, ruleset, players):
        GameState.__init__(self, ruleset, players)
        p = ruleset.params
        self.p = p
        self.score_scale = 1  # Buki: 2, scores in half-chips
        rules = rules_of(ruleset)
        self.rules = rules  # the rest is read from it
        # copied by name: moves read them, and the state's own attribute is the quickest read
        self.tiles = rules.tiles
        self.matadors = rules.matadors
        self.sum7 = rules.sum7
        self.may_pass = rules.may_pass
        self.first_orients = rules.first_orients
        self.other_orients = rules.other_orients
        self.scoring = rules.scoring
        self.per_hand = p["deal"][str(players)]
        self.deal_size = self.per_hand * players
        self.step = 1 if p["direction"] == "clockwise" else players - 1
        self.betting = None  # Buki's Betting: its module is imported for Buki alone (RAM on the Pico)
        if p["hand_award"] == "betting_settlement":
            from tiletable.engine.betting import HALF, Betting

            self.betting = Betting(p, players)
            self.score_scale = HALF
        self.layout = Layout()
        self.knowledge = None  # a Knowledge once a tile goes unseen in this hand
        self.loc = bytearray(160)
        self.violations = []
        self.setter = -1
        self.last_winner = None
        self._outcome = None
        self._new_hand()

    # --- hooks -----------------------------------------------------------------------
    def outcome(self):
        return self._outcome

    def current_player(self):
        phase = self.phase
        if phase == P_PLAY:
            b = self.betting
            if b is not None and b.pending_spectator() is not None:
                return self.setter
            return self.turn
        if phase == P_OVER:
            return TERMINAL
        return CHANCE

    chance_outcomes = line_deal.chance_outcomes
    why_illegal = line_checks.why_illegal
    describe = line_checks.describe

    # --- applying ----------------------------------------------------------------------
    def _apply(self, action):
        """Deals and plays, most of a match, first, their fields read inline (line_actions'
        layout): simulation spends its time here."""
        kind = action >> 24
        if kind == K_DEAL:  # a deal, a draw, or one of Bergen's equal draws
            seat = (action >> 8) & 7
            t = action & 0xFF
            if t == UNKNOWN_TILE:
                self.hidden[seat] += 1
                if not self.knowledge:
                    from tiletable.engine.knowledge import Knowledge

                    self.knowledge = Knowledge()
            else:
                self.hands[seat].append(t)
                self.loc[t] = seat + 1
                self.free.remove(t)
                if self.outcomes_base == action - t:  # chance_outcomes' list is this seat's: keep it current
                    self.outcomes.remove(action)
                else:
                    self.outcomes_base = -1
            self.stock -= 1
            phase = self.phase
            if phase == P_DEAL:
                self.dealt += 1
                if self.dealt == self.deal_size:
                    line_deal.deal_done(self)
            elif phase == P_DRAWN:
                if self.knowledge:
                    self.knowledge.log_draw(len(self.history) - 1, seat, t)
                self.phase = P_PLAY
            else:
                line_deal.bergen_drew(self)
        elif kind == K_PLAY:
            self.claim_points = 0  # any play, pass or draw closes the claim window
            seat = self.turn
            t = action & 0xFF
            point = (action >> 8) & 7
            if self.knowledge:
                self.knowledge.note_play(self, seat, t, point)
            hand = self.hands[seat]
            try:
                hand.remove(t)
            except ValueError:  # one of the seat's unseen tiles
                self.hidden[seat] -= 1
                self.free.remove(t)
                self.outcomes_base = -1
            self.loc[t] = LOC_PLAYED
            if t >> 4 != t & 15 and point != SET_POINT and action < 0x2000 and not self.sum7:
                lay = self.layout  # a single on an end, matching: the half that does not match faces out
                lay.attach(point, t, t & 15 if t >> 4 == lay.val[point] else t >> 4, False, False, self.rules.stub)
            else:
                self._lay_special(action, t, point)
            if self.betting:
                self.betting.took_turn(seat, self.setter, False)
            if self.scoring:
                self.scoring.score(self, seat, t, point)  # reads the knocks before this play
                if self._outcome is not None:
                    return
            self.passes = 0
            if not hand and not self.hidden[seat]:
                variants = self.rules.variants
                if variants and variants.plays_on(self, seat):  # both_out: the hand goes on without the seat
                    self.turn = self._next(seat)
                    return
                if self.claim_points:  # a domino ends the hand at once: nobody is left to act before the award
                    self.scoring.claim(self, seat)
                    if self._outcome is not None:
                        return
                self._hand_over()
                return
            turn = (seat + self.step) % self.players
            if not self.hands[turn] and not self.hidden[turn]:  # both_out: that seat is out, skipped
                turn = self._next(turn)
            self.turn = turn
        elif kind == K_PASS:
            self.claim_points = 0
            self._pass()
        elif kind == K_DRAW:
            self.claim_points = 0
            seat = self.turn
            if self.knowledge and self.hidden[seat] and self.rules.draw_when_unable:
                self.knowledge.note_lacks(self, seat, "drew")
            self.drawer = seat
            self.phase = P_DRAWN
        elif kind == K_CLAIM:
            self.scoring.claim(self, (action >> 8) & 7)
        elif kind == K_WAIVE:
            self.claim_waived = True
        elif kind == K_REVEAL:
            self._reveal((action >> 8) & 7, action & 0xFF)
        elif kind == K_LOT:
            line_deal.lot(self, (action >> 8) & 7, action & 0xFF)
        elif kind == K_SETTER:
            self._start_play((action >> 8) & 7)
        elif self.betting:  # a bet, the stakes, a spectator's bet, the banker's answer
            self.betting.act(kind, action, self.turn)
        else:  # doubles shown: the deal is thrown in (line_variants)
            self.rules.variants.throw_in(self)

    def _lay_special(self, action, t, point):
        """Lay a set, a double, a matador or a tile whose halves make 7 with the end: how it
        lies, which half faces out and whether it spins."""
        lay = self.layout
        orient = (action >> 11) & 3
        spinner = crosswise = False
        if t >> 4 == t & 15:
            p = self.p
            first_double = lay.doubles == 0
            rule = p["first_double_orientation"] if first_double else p["other_doubles"]
            crosswise = orient == 1 or (orient == 0 and rule == "crosswise")
            spinner = (p["spinner"] == "first_double" and first_double) or (
                p["spinner"] == "fixed_set_tile" and point == SET_POINT
            )
        if point == SET_POINT:
            lay.set(t, crosswise or (spinner and self.p["spinner"] == "fixed_set_tile"), spinner)
        else:
            lay.attach(point, t, self._outward(t, point, ((action >> 13) & 15) - 1), crosswise, spinner, self.rules.stub)

    def _outward(self, t, point, out):
        """The half of tile ``t`` that faces out once it is laid at ``point``: the one a
        matador names (``out`` >= 0), else the half that does not match (or make 7 with) the
        end's value."""
        if out >= 0:
            return out
        v = self.layout.val[point]
        if self.sum7:
            return t & 15 if (t >> 4) + v == 7 else t >> 4
        return t & 15 if t >> 4 == v else t >> 4

    def _pass(self):
        seat = self.turn
        if self.knowledge and self.hidden[seat] and not self.may_pass:
            self.knowledge.note_lacks(self, seat, "passed")
        if self.betting:
            self.betting.took_turn(seat, self.setter, True)
        self.passes += 1
        variants = self.rules.variants
        if self.passes >= (variants.holding(self) if variants else self.players):
            self._hand_over()
            return
        self.turn = self._next(seat)

    def _reveal(self, seat, t):
        self.hidden[seat] -= 1
        self.hands[seat].append(t)
        self.loc[t] = seat + 1
        self.free.remove(t)
        self.outcomes_base = -1
        if self._all_known():
            self._finish_hand()

    # --- the hand: who sets, the end of the hand, the award (§2.2, §3.4, §2.5), the match end
    def _new_hand(self):
        """Everything a hand starts from but the layout (new with the state, reset after a hand)."""
        n = self.players
        self.loc[:] = self.rules.unused_loc
        self.free = list(self.tiles)  # the unseen tiles, sorted: the stock and the unseen hands
        self.outcomes_base = -1  # chance_outcomes' last deal/draw list and its actions' base (tile 0; -1: stale)
        self.outcomes = None
        self.hands = [[] for _ in range(n)]
        self.hidden = [0] * n
        self.stock = len(self.tiles)
        self.knowledge = None
        self.hand_scores = [0] * n
        self.phase = P_DEAL
        self.dealt = 0
        self.turn = -1
        self.passes = 0
        self.claim_points = 0
        self.claim_mover = -1
        self.claim_waived = False
        self.claim_terms = ""
        self.lot_seats = []  # and lots, once a lightest draw is due (line_deal)
        self.bergen_next = 0
        self.bergen_draws = 0
        self.drawer = -1
        self.must_set = -1
        if self.betting:
            self.betting.new_game()
        if self.rules.variants:
            self.rules.variants.new_hand(self)

    def _next(self, seat):
        seat = (seat + self.step) % self.players
        variants = self.rules.variants
        return variants.skip_out(self, seat) if variants else seat

    def _all_known(self):
        for h in self.hidden:
            if h:
                return False
        return True

    def _start_play(self, setter):
        if self.betting:
            self.betting.start_play(self.hand_number, self.setter, setter)
        self.setter = setter
        self.turn = setter
        self.phase = P_PLAY

    def _hand_over(self):
        """Domino or blocked: reveal what is unseen, then award."""
        if self._all_known():
            self._finish_hand()
        else:
            self.phase = P_REVEAL

    def _finish_hand(self):
        if self.knowledge:
            self.violations.extend(self.knowledge.check(self.hand_number, self.hands, self.rules.set_rank))
        winner = line_award.award_hand(self)
        if self._outcome is not None:
            return
        p = self.p
        if p["match_end"] == "num_games" and self.hand_number + 1 >= p["num_games"]:
            self._end_match("games")
            return
        if p["match_end"] == "target" and not p["target_immediate"] and max(self.scores) >= p["target"]:
            self._end_match("target")
            return
        self.last_winner = winner
        self.hand_number += 1
        self.layout.reset()
        self._new_hand()

    def _award(self, seat, points, rule, detail):
        """Credit a seat (and its partner) in the match and the hand; an immediate target ends the match."""
        variants = self.rules.variants
        if variants and variants.disregards(self, seat, points):
            return
        self.award(seat, points, rule, detail)
        self.hand_scores[seat] += points
        p = self.p
        if p["partnerships"]:  # one score per side: the partner's display shows it too
            partner = (seat + 2) % 4
            self.award(partner, points, rule, "partner P%d: %s" % (seat, detail))
            self.hand_scores[partner] += points
        if p["match_end"] == "target" and p["target_immediate"] and self._outcome is None:
            if self.scores[seat] >= p["target"]:
                self._end_match("target")

    def _end_match(self, how):
        top = max(self.scores)
        winners = [s for s in range(self.players) if self.scores[s] == top]
        self._outcome = Outcome(how, winners, self.scores)
        self.phase = P_OVER

    # --- legal actions: these read the state and never change it, so generation and checks
    # have no side effects; plays from a hand the table cannot see are checked against what is known
    def generate_legal_actions(self):
        if self.phase != P_PLAY:
            return line_deal.chance_actions(self)
        seat = self.turn
        b = self.betting
        if b is not None:
            forced = b.forced(seat, self.setter)
            if forced is not None:
                return forced
        out = []
        lay = self.layout
        if not lay.tiles:
            if seat == self.setter:
                self._gen_sets(seat, out)
        else:
            rules = self.rules
            if rules.quick:
                # _tile_plays inlined for a plain line whose doubles lie as the rules say: the hot loop of simulation
                v0 = lay.val[0]
                v1 = lay.val[1]
                for t in self.hands[seat]:
                    lo = t >> 4
                    hi = t & 15
                    if lo == v0 or hi == v0:
                        out.append(t)  # play_action(t, 0)
                    if lo == v1 or hi == v1:
                        out.append(t | 0x100)  # play_action(t, 1)
            else:
                points = self._points()
                first_double = lay.doubles == 0
                for t in self.hands[seat]:
                    self._tile_plays(t, points, first_double, out)
            # line_checks' rules for a draw and a pass, without building their reasons
            can_draw = rules.draws and self.stock > rules.reserve
            if out:  # a known tile fits
                if self.may_pass:
                    out.append(PASS)
                if can_draw and not rules.draw_when_unable:
                    out.append(DRAW)
            else:
                out.append(DRAW if can_draw else PASS)
            if self.hidden[seat]:  # and whatever unseen tile fits, from a hand the table cannot see
                points = self._points()
                first_double = lay.doubles == 0
                for t in self.free:
                    self._tile_plays(t, points, first_double, out)
        if self.claim_points:
            for s in range(self.players):
                if s != self.claim_mover or not self.claim_waived:
                    out.append(seat_action(K_CLAIM, s))
            if not self.claim_waived:
                out.append(WAIVE)
        if b is not None:
            b.options(seat, self.setter, not lay.tiles, out)
        out.sort()
        return out

    # --- generation helpers ------------------------------------------------------------
    def _orients(self, t, first_double):
        """Orientation codes for laying t: (0,) when the rules decide, (1, 2) for the player's choice."""
        if t >> 4 != t & 15:
            return RULED
        return self.first_orients if first_double else self.other_orients

    def _gen_sets(self, seat, out):
        must = self.must_set
        tiles = self.hands[seat] + self.free if self.hidden[seat] else self.hands[seat]
        for t in tiles:
            if must < 0 or t == must:  # line_checks' rule for a set, without building its reason
                for o in RULED if t >> 4 != t & 15 else self.first_orients:
                    out.append(t | 0x400 | o << 11)  # play_action(t, SET_POINT, o), once a hand

    def _points(self):
        """The attach slots open now, in order (Sebastopol: only the first free spinner point)."""
        lay = self.layout
        role = lay.role
        if lay.spinner < 0:  # a plain line: L and R
            return _LINE_ENDS
        if self.rules.fill_first and lay.has_empty_point():
            for i in range(4):
                if role[i] == SIDE or role[i] == TIP:
                    return (i,)
        slots = []
        tips_closed = self.rules.sides_first and not lay.sides_covered()
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
            orients = RULED
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
        zero_only = self.rules.zero_only_matadors
        for slot in points:
            v = val[slot]
            if sum7:
                if a + v != 7 and b + v != 7:
                    continue
            elif a != v and b != v:
                continue
            if v == 0 and zero_only:
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
        return self.rules.draws and self.stock > self.rules.reserve

    # --- text --------------------------------------------------------------------------
    def action_str(self, action):
        return action_text(action)

    def parse_action(self, text):
        try:
            return parse_action_text(text)
        except ValueError as exc:
            raise IllegalAction(text, E_TILE, "not an action: %s" % exc)

    def _phase_name(self):
        return ("deal", "lot draw", "setter declaration", "setter draw", "play", "draw", "reveal", "over")[self.phase]

    def chips(self, seat):
        """Buki: a seat's chips as text (``"-37.5"``)."""
        from tiletable.engine.betting import chips_text

        return chips_text(self.scores[seat])

    def __repr__(self):
        return "<line %s hand %d %s P%d layout %s>" % (
            self.ruleset.name,
            self.hand_number,
            self._phase_name(),
            self.turn,
            self.layout.text(),
        )

    # --- what the table asks (runtime/play_line.py): named questions, never the attributes
    def current_phase(self):
        """Where the hand stands: ``P_DEAL``, ``P_LOT``, ``P_DECLARE``, ``P_BERGEN``, ``P_PLAY``,
        ``P_DRAWN``, ``P_REVEAL`` or ``P_OVER`` (line_actions)."""
        return self.phase

    def waits_for(self, seat):
        """Whether the hand waits for ``seat``: to play (its turn), to lay its drawn tile, to
        draw (Bergen), to lay its lot tile or its tiles to reveal, or for its next tile of the
        deal. Several seats are waited for at a lot draw or a reveal, lowest seat first."""
        phase = self.phase
        if phase == P_LOT:
            return seat in self.lot_seats
        if phase == P_REVEAL:
            return self.hidden[seat] > 0
        if phase == P_BERGEN:
            return seat == self.bergen_next and self.stock > 0
        if phase == P_DEAL:
            return seat == line_deal.deal_seat(self)
        return seat == self.turn and (phase == P_PLAY or phase == P_DRAWN)

    def holds_unseen(self, seat):
        """Whether ``seat`` holds tiles the table has not seen (a hand that was not scanned)."""
        return self.hidden[seat] > 0

    def open_claim(self):
        """``(mover, points)`` of a Muggins count waiting to be claimed, or None."""
        return (self.claim_mover, self.claim_points) if self.claim_points else None

    def is_betting(self):
        """Whether seats bet chips (Buki): scores are then half-chips (``chips``)."""
        return self.betting is not None

    lay_problem = line_checks.lay_problem
