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
``R2:5-6``         chance: seat 2 reveals 5-6 at the end of the hand
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
"""

from tiletable.engine.errors import E_TILE, IllegalAction
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
    P_DEAL,
    P_DRAWN,
    P_OVER,
    P_PLAY,
    SET_POINT,
    UNKNOWN_TILE,
    action_text,
    amount_of,
    kind_of,
    parse_action_text,
    play_fields,
    seat_of,
    spectator_bet_of,
    tile_of,
)
from tiletable.engine.line_layout import COUNT_MODES, Layout, SLOT_NAMES
from tiletable.engine.line_checks import LineChecks
from tiletable.engine.line_hand import LineHand
from tiletable.engine.line_moves import LineMoves
from tiletable.engine.state import CHANCE, GameState, TERMINAL
from tiletable.engine.tiles import high, is_double, low, parse_tile, pips, tile_set, tile_str


# The family contract (rulesets.py): PARAMS, PRESETS and check_params live in line_params,
# which rulesets imports to validate a ruleset and unloads afterwards (heap on the Pico).


def default_players(params):
    """The smallest player count the deal table allows."""
    return min(int(k) for k in params["deal"])


def check_players(params, players):
    if str(players) not in params["deal"]:
        return "%d players: the deal is given for %s" % (players, ", ".join(sorted(params["deal"])))
    return None


def setter_rank(t):
    """Who sets by §2.2 S3: doubles by number above every single, singles by pips then higher end."""
    if is_double(t):
        return 1000 + low(t)
    return pips(t) * 16 + high(t)


def lowest_setter_rank(t):
    """Who sets by ``lowest_double`` (Pagat's Bergen): the lowest double above every single,
    then the lightest single (by pips, then the lower higher end)."""
    if is_double(t):
        return 1000 + 15 - low(t)
    return (30 - pips(t)) * 16 + 15 - high(t)


_DERIVED = [None, None]  # the last ruleset's hash and what _derive gave it (shared by its states, never changed)


def _derive(p):
    """What a state reads from its parameters on every move, worked out once per ruleset
    (in the order ``State.__init__`` unpacks them)."""
    tiles = tile_set(p["max_pip"], p["doubles"], tuple(parse_tile(t) for t in p["exclude"]))
    unused_loc = bytearray(160)  # the location table of a fresh hand: LOC_NONE except the set
    for i in range(160):
        unused_loc[i] = LOC_NONE
    for t in tiles:
        unused_loc[t] = LOC_FREE
    return (
        tiles,
        unused_loc,
        COUNT_MODES.index(p["count_mode"]),
        [parse_tile(t) for t in p["matadors"]],
        parse_tile(p["fixed_tile"]) if p["fixed_tile"] else -1,
        p["match_rule"] == "sum_to_7",
        p["may_pass_when_able"] or not p["must_play_if_able"],
        p["draw_policy"],
        p["reserve"],
        p["spinner_fill_first"],
        p["spinner_arm_order"] == "sides_first",
        p["zero_end_only_matadors"],
        (1, 2) if p["first_double_orientation"] == "player_choice" else (0,),  # see _orients
        (1, 2) if p["other_doubles"] == "player_choice" else (0,),
        p["sniff_mode"] == "pagat_inline_stub",
        p["per_move_scoring"] != "none",
        lowest_setter_rank if p["setter"] == "lowest_double" else setter_rank,
    )


class State(LineHand, LineMoves, LineChecks, GameState):
    """A match of one line game. See the module docstring for actions and the hand flow."""

    family = "line"

    def __init__(self, ruleset, players, options=None):
        GameState.__init__(self, ruleset, players, options)
        p = ruleset.params
        self.p = p
        self.score_scale = 1  # Buki: 2, scores in half-chips
        if _DERIVED[0] != ruleset.hash:
            _DERIVED[0], _DERIVED[1] = ruleset.hash, _derive(p)
        (
            self.tiles,
            self.unused_loc,
            self.count_mode,
            self.matadors,
            self.fixed,
            self.sum7,
            self.may_pass,
            self.draw_policy,
            self.reserve,
            self.fill_first,
            self.sides_first,
            self.zero_only_matadors,
            self.first_orients,
            self.other_orients,
            self.stub,
            self.scoring,
            self.set_rank,
        ) = _DERIVED[1]
        self.per_hand = p["deal"][str(players)]
        self.step = 1 if p["direction"] == "clockwise" else players - 1
        self.betting = None
        if p["hand_award"] == "betting_settlement":  # imported only for Buki: RAM on the Pico
            from tiletable.engine.betting import HALF, Betting

            self.betting = Betting(p, players)
            self.score_scale = HALF
        self.layout = Layout()
        self.knowledge = None  # a Knowledge once a tile goes unseen in this hand
        self.loc = bytearray(160)
        self.violations = []
        self.setter = -1
        self.last_winner = None
        self.banker_changed = False
        self.stakes_set = False
        self._outcome = None
        self._new_hand()

    # --- hooks -----------------------------------------------------------------------
    def outcome(self):
        return self._outcome

    def current_player(self):
        phase = self.phase
        if phase == P_PLAY:
            if self.betting and self.betting.pending_spectator() is not None:
                return self.setter
            return self.turn
        if phase == P_OVER:
            return TERMINAL
        return CHANCE

    # --- applying ----------------------------------------------------------------------
    def apply(self, action):
        """Apply an action without checking it (``GameState.apply`` with the dispatch inlined:
        simulation spends its time here)."""
        history = self.history
        history.append(action)
        kind = kind_of(action)
        if kind == K_DEAL:
            self._receive(seat_of(action), tile_of(action), len(history) - 1)
        elif kind == K_PLAY:
            self.claim_points = 0  # any play, pass or draw closes the claim window
            self._lay(action, len(history) - 1)
        else:
            self._apply(action)

    def _apply(self, action):
        """Every kind but deals and plays, which ``apply`` handles itself."""
        kind = kind_of(action)
        index = len(self.history) - 1
        if kind == K_PASS:
            self.claim_points = 0
            self._pass(index)
        elif kind == K_DRAW:
            self.claim_points = 0
            self._draw(index)
        elif kind == K_CLAIM:
            self._claim(seat_of(action))
        elif kind == K_WAIVE:
            self.claim_waived = True
        elif kind == K_REVEAL:
            self._reveal(seat_of(action), tile_of(action))
        elif kind == K_LOT:
            self._lot(seat_of(action), tile_of(action))
        elif kind == K_SETTER:
            self._declare(seat_of(action))
        elif kind == K_BET:
            self.betting.bets[self.turn] = amount_of(action)
            self.betting.placed[self.turn] = True
        elif kind == K_STAKES:
            self.betting.low = amount_of(action)
            self.betting.high = self.betting.low * self.p["stake_ratio"]
            self.stakes_set = True
        elif kind == K_SPEC:
            self.betting.spectator_bets.append(list(spectator_bet_of(action)) + [None])
        elif kind == K_ACCEPT or kind == K_REFUSE:
            self.betting.pending_spectator()[3] = kind == K_ACCEPT

    def _receive(self, seat, t, index):
        if t == UNKNOWN_TILE:
            self.hidden[seat] += 1
            if not self.knowledge:
                from tiletable.engine.knowledge import Knowledge

                self.knowledge = Knowledge()
        else:
            self.hands[seat].append(t)
            self.loc[t] = seat + 1
            self.free.remove(t)
            base = self.outcomes_base  # a deal's base (tile 0) or -1
            if base >= 0 and seat_of(base) == seat:
                self.outcomes.remove(base | t)  # keep chance_outcomes' list current
            else:
                self.outcomes_base = -1
        self.stock -= 1
        phase = self.phase
        if phase == P_DEAL:
            self.dealt += 1
            if self.dealt == self.per_hand * self.players:
                self._deal_done()
        elif phase == P_DRAWN:
            if self.knowledge:
                self.knowledge.log_draw(index, seat, t)
            self.phase = P_PLAY
        else:  # Bergen's equal draws
            self.bergen_draws += 1
            self.bergen_next = self._next(self.bergen_next)
            if self.bergen_draws % self.players == 0 and self._all_known():
                best = self._best_holder(True)
                if best is None and not self.stock:
                    best = self._best_holder(False)
                if best is not None:
                    self._start_play(best)

    def _lay(self, action, index):
        seat = self.turn
        t, point, orient, out = play_fields(action)
        lay = self.layout
        first_double = lay.doubles == 0
        if self.knowledge:
            if point == SET_POINT and self.hidden[seat] and self._set_by_rank(t):
                self._note_set_claim(seat, t, index)
            self.knowledge.log_play(index, seat, t)
        hand = self.hands[seat]
        try:
            hand.remove(t)
        except ValueError:  # one of the seat's unseen tiles
            self.hidden[seat] -= 1
            self.free.remove(t)
            self.outcomes_base = -1
        self.loc[t] = LOC_PLAYED
        spinner = crosswise = False
        if t >> 4 == t & 15:
            p = self.p
            rule = p["first_double_orientation"] if first_double else p["other_doubles"]
            crosswise = orient == 1 or (orient == 0 and rule == "crosswise")
            spinner = (p["spinner"] == "first_double" and first_double) or (
                p["spinner"] == "fixed_set_tile" and point == SET_POINT
            )
        if point == SET_POINT:
            lay.set(t, crosswise or (spinner and self.p["spinner"] == "fixed_set_tile"), spinner)
        else:
            lay.attach(point, t, self._outward(t, point, out), crosswise, spinner, self.stub)
        self.passes = 0
        if self.betting and self.setter != seat:
            self.turns_taken[seat] += 1
        if self.scoring:
            self._score_move(seat, t, point)
        if self._outcome is not None:
            return
        if not hand and not self.hidden[seat]:
            if self.claim_points:  # a domino ends the hand at once: nobody is left to act before the award
                self._claim(seat)
                if self._outcome is not None:
                    return
            self._hand_over()
            return
        self.turn = (seat + self.step) % self.players

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

    def _set_by_rank(self, t):
        """Whether setting ``t`` claims the best-ranked tile (S3, Bergen, a fixed tile's S3
        fallback): not a setter by rotation, lots, the fixed tile itself, or the last winner."""
        p = self.p
        if self.hand_number > 0 and p["later_setter"] == "previous_winner":
            return False
        if p["setter"] == "fixed_tile":
            return t != self.fixed
        return p["setter"] in ("highest_double", "lowest_double", "double_draw_equalized")

    def _note_set_claim(self, seat, t, index):
        """A setter whose hand is unseen claims to hold the best tile; checked at the reveal."""
        self.knowledge.add_setter_claim(index, seat, "set %s as holder of the best setting tile" % tile_str(t))
        if self.p["set_constraint"] == "qualifying_tile":
            from tiletable.engine.knowledge import mask_of

            rank = self.set_rank
            better = [u for u in self.tiles if rank(u) > rank(t)]
            self.knowledge.add_fact(
                index, seat, mask_of(better), "setter", "set %s as its best setting tile" % tile_str(t)
            )

    def _score_move(self, seat, t, point):
        scoring = self.p["per_move_scoring"]
        if scoring == "fives":
            lay = self.layout
            count = lay.count(self.count_mode)
            if count and count % self.p["score_multiple"] == 0:
                terms = "ends %s = %d" % (lay.count_terms(self.count_mode), count)
                if self.p["muggins_claims"] == "auto":
                    self._award(seat, count, "fives", terms)
                else:
                    self.claim_points, self.claim_mover = count, seat
                    self.claim_waived, self.claim_terms = False, terms
        elif scoring == "headers":
            lay = self.layout
            if point == SET_POINT:
                if is_double(t):
                    self._award(seat, self.p["double_header_points"], "double-header", "set double %s: both ends %d" % (tile_str(t), low(t)))
                return
            n = lay.val[0]
            if n != lay.val[1]:
                return
            if self.p["triple_mode"] == "strict":
                triple = is_double(t)
            else:
                triple = lay.xd[0] or lay.xd[1]
            if triple:
                self._award(seat, self.p["triple_header_points"], "triple-header", "both ends %d with the double %d-%d at an end" % (n, n, n))
            else:
                self._award(seat, self.p["double_header_points"], "double-header", "both ends %d" % n)

    def _claim(self, seat):
        points, mover = self.claim_points, self.claim_mover
        self.claim_points = 0
        if seat == mover:
            self._award(seat, points, "fives", self.claim_terms)
        else:
            self._award(seat, points, "muggins", "%s, missed by P%d" % (self.claim_terms, mover))

    def _pass(self, index):
        seat = self.turn
        if self.knowledge and self.hidden[seat] and not self.may_pass:
            self._note_lacks(seat, index, "passed")
        if self.betting and self.setter != seat and self.p["bet_deadline_counts"] == "turns":
            self.turns_taken[seat] += 1
        self.passes += 1
        if self.passes >= self.players:
            self._hand_over()
            return
        self.turn = self._next(seat)

    def _draw(self, index):
        seat = self.turn
        if self.knowledge and self.hidden[seat] and self.p["draw_policy"] == "when_unable":
            self._note_lacks(seat, index, "drew")
        self.drawer = seat
        self.phase = P_DRAWN

    def _note_lacks(self, seat, index, verb):
        """Passing or a forced draw says: nothing in this hand fits now (unless hands are unseen, checked at once)."""
        points = self._points()
        first_double = self.layout.doubles == 0
        fitting = []
        for t in self.tiles:
            if self.loc[t] == LOC_FREE:
                found = []
                self._tile_plays(t, points, first_double, found)
                if found:
                    fitting.append(t)
        if fitting:
            from tiletable.engine.knowledge import mask_of

            self.knowledge.add_fact(
                index, seat, mask_of(fitting), "must play", "%s on %s: held nothing that fits" % (verb, self.layout.text())
            )

    def _reveal(self, seat, t):
        self.hidden[seat] -= 1
        self.hands[seat].append(t)
        self.loc[t] = seat + 1
        self.free.remove(t)
        self.outcomes_base = -1
        if self._all_known():
            self._finish_hand()

    def _lot(self, seat, t):
        self.lots[seat] = t
        self.loc[t] = LOC_LOT
        self.free.remove(t)
        self.outcomes_base = -1
        self.lot_seats.pop(0)
        if self.lot_seats:
            return
        drawn = [s for s in range(self.players) if self.lots[s] >= 0]
        least = min(pips(self.lots[s]) for s in drawn)
        tied = [s for s in drawn if pips(self.lots[s]) == least]
        left = self.stock - sum(1 for t in self.tiles if self.loc[t] == LOC_LOT)
        if len(tied) > 1:  # the tied draw again
            if left < len(tied):  # RULES.md §2 S2 (settled): everything back, start over with all
                self._lots_back()
                tied = list(range(self.players))
            self.lots = [-1] * self.players
            self.lot_seats = tied
            return
        self._lots_back()
        self._start_play(tied[0])

    def _lots_back(self):
        """The drawn lot tiles go back into the boneyard (reshuffled: draws stay chance)."""
        for t in self.tiles:
            if self.loc[t] == LOC_LOT:
                self.loc[t] = LOC_FREE
                self.free.append(t)
        self.free.sort()
        self.outcomes_base = -1

    def _declare(self, seat):
        self._start_play(seat)

    # --- text --------------------------------------------------------------------------
    def action_str(self, action):
        return action_text(action)

    def parse_action(self, text):
        try:
            return parse_action_text(text)
        except ValueError as exc:
            raise IllegalAction(text, E_TILE, "not an action: %s" % exc)

    def describe(self, action):
        """A sentence for people about ``action`` (not yet applied) that says what is true
        after it: the end's new value, the boneyard once the drawn tile has left it."""
        kind = kind_of(action)
        text = self.action_str(action)
        if kind == K_PLAY:
            t, point, _, out = play_fields(action)
            if point == SET_POINT:
                return "P%d sets %s" % (self.turn, tile_str(t))
            out = self._outward(t, point, out)
            return "P%d plays %s on %s (now showing %d)" % (self.turn, tile_str(t), SLOT_NAMES[point], out)
        if kind == K_DEAL:
            return "P%d receives %s" % (seat_of(action), text.split(":")[1])
        if kind == K_PASS:
            return "P%d passes (go)" % self.turn
        if kind == K_DRAW:
            return "P%d draws from the boneyard (%d left)" % (self.turn, self.stock - 1)
        seat = seat_of(action)
        if kind == K_CLAIM:
            return "P%d claims %d" % (seat, self.claim_points)
        if kind == K_WAIVE:
            return "P%d waives its %d" % (self.claim_mover, self.claim_points)
        if kind == K_REVEAL:
            return "P%d shows %s at the end of the hand" % (seat, text.split(":")[1])
        if kind == K_LOT:
            return "P%d draws %s to decide who sets" % (seat, text.split(":")[1])
        if kind == K_SETTER:
            return "P%d says it holds the setting tile" % seat
        if kind == K_BET:
            return "P%d stakes %d" % (self.turn, amount_of(action))
        if kind == K_STAKES:
            low_stake = amount_of(action)
            return "the banker P%d sets the stakes at %d to %d" % (self.setter, low_stake, low_stake * self.p["stake_ratio"])
        if kind == K_SPEC:
            spectator, seat, amount = spectator_bet_of(action)
            return "spectator %d bets %d on P%d" % (spectator, amount, seat)
        if kind == K_ACCEPT or kind == K_REFUSE:
            return "the banker P%d %s spectator %d's bet" % (self.setter, "accepts" if kind == K_ACCEPT else "refuses", seat)
        return text

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
