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

from tiletable.engine.errors import (
    E_BET,
    E_CHANCE,
    E_CLAIM,
    E_MUST_PLAY,
    E_NO_DRAW,
    E_NO_MATCH,
    E_NOT_HELD,
    E_ORDER,
    E_OVER,
    E_PHASE,
    E_SET,
    E_TILE,
    E_TURN,
    IllegalAction,
)
from tiletable.engine.line_actions import (
    DRAW,
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
    action_text,
    amount_action,
    amount_of,
    chance_action,
    kind_of,
    parse_action_text,
    play_action,
    play_fields,
    seat_action,
    seat_of,
    spectator_bet_action,
    spectator_bet_of,
    tile_of,
)
from tiletable.engine.line_layout import COUNT_MODES, Layout, SIDE, SLOT_NAMES, TIP
from tiletable.engine.state import CHANCE, GameState, Outcome, TERMINAL
from tiletable.engine.tiles import high, is_double, low, parse_tile, pips, tile_set, tile_str


# The family contract (rulesets.py): PARAMS, PRESETS and check_params live in line_params,
# which rulesets imports to validate a ruleset and unloads afterwards (heap on the Pico).

_RULED = (0,)  # the rules decide how a tile lies (a choice is (1, 2): crosswise, inline)
_LINE_ENDS = (0, 1)


def player_counts(params):
    """The player counts the deal table gives a deal for."""
    return sorted(int(k) for k in params["deal"])


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


class LineRules:
    """What a state reads from its parameters on every move, worked out once per ruleset and
    shared by its states (never changed): ``rules_of`` keeps the last ruleset's."""

    def __init__(self, p):
        tiles = tile_set(p["max_pip"], p["doubles"], tuple(parse_tile(t) for t in p["exclude"]))
        unused_loc = bytearray(160)  # the location table of a fresh hand: LOC_NONE except the set
        for i in range(160):
            unused_loc[i] = LOC_NONE
        for t in tiles:
            unused_loc[t] = LOC_FREE
        self.tiles = tiles
        self.unused_loc = unused_loc
        self.count_mode = COUNT_MODES.index(p["count_mode"])
        self.matadors = [parse_tile(t) for t in p["matadors"]]
        self.fixed = parse_tile(p["fixed_tile"]) if p["fixed_tile"] else -1
        self.sum7 = p["match_rule"] == "sum_to_7"
        self.may_pass = p["may_pass_when_able"] or not p["must_play_if_able"]
        self.draw_policy = p["draw_policy"]
        self.reserve = p["reserve"]
        self.fill_first = p["spinner_fill_first"]
        self.sides_first = p["spinner_arm_order"] == "sides_first"
        self.zero_only_matadors = p["zero_end_only_matadors"]
        # how a double may lie (see _orients): (0,) as the rules say, (1, 2) crosswise or inline by choice
        self.first_orients = (1, 2) if p["first_double_orientation"] == "player_choice" else (0,)
        self.other_orients = (1, 2) if p["other_doubles"] == "player_choice" else (0,)
        self.stub = p["sniff_mode"] == "pagat_inline_stub"
        self.scoring = p["per_move_scoring"] != "none"
        self.set_rank = lowest_setter_rank if p["setter"] == "lowest_double" else setter_rank


_LAST_RULES = [None, None]  # the last ruleset's hash and its LineRules


def rules_of(ruleset):
    """The ``LineRules`` of ``ruleset`` (built again only when the ruleset changes)."""
    if _LAST_RULES[0] != ruleset.hash:
        _LAST_RULES[0], _LAST_RULES[1] = ruleset.hash, LineRules(ruleset.params)
    return _LAST_RULES[1]


class State(GameState):
    """A match of one line game. See the module docstring for actions and the hand flow."""

    family = "line"

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
        self.draw_policy = rules.draw_policy
        self.reserve = rules.reserve
        self.fill_first = rules.fill_first
        self.sides_first = rules.sides_first
        self.zero_only_matadors = rules.zero_only_matadors
        self.first_orients = rules.first_orients
        self.other_orients = rules.other_orients
        self.stub = rules.stub
        self.scoring = rules.scoring
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
        """Apply an action without checking it: ``GameState.apply`` whole rather than its
        ``_apply`` hook, one call less for every action (simulation spends its time here);
        deals and plays, the most frequent, are tried first."""
        history = self.history
        history.append(action)
        kind = kind_of(action)
        if kind == K_DEAL:
            self._receive(seat_of(action), tile_of(action), len(history) - 1)
        elif kind == K_PLAY:
            self.claim_points = 0  # any play, pass or draw closes the claim window
            self._lay(action, len(history) - 1)
        elif kind == K_PASS:
            self.claim_points = 0
            self._pass(len(history) - 1)
        elif kind == K_DRAW:
            self.claim_points = 0
            self._draw(len(history) - 1)
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
            return t != self.rules.fixed
        return p["setter"] in ("highest_double", "lowest_double", "double_draw_equalized")

    def _note_set_claim(self, seat, t, index):
        """A setter whose hand is unseen claims to hold the best tile; checked at the reveal."""
        self.knowledge.add_setter_claim(index, seat, "set %s as holder of the best setting tile" % tile_str(t))
        if self.p["set_constraint"] == "qualifying_tile":
            from tiletable.engine.knowledge import mask_of

            rank = self.rules.set_rank
            better = [u for u in self.tiles if rank(u) > rank(t)]
            self.knowledge.add_fact(
                index, seat, mask_of(better), "setter", "set %s as its best setting tile" % tile_str(t)
            )

    def _score_move(self, seat, t, point):
        scoring = self.p["per_move_scoring"]
        if scoring == "fives":
            lay = self.layout
            count = lay.count(self.rules.count_mode)
            if count and count % self.p["score_multiple"] == 0:
                terms = "ends %s = %d" % (lay.count_terms(self.rules.count_mode), count)
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

    # --- the hand: who sets, the end of the hand, the award (§2.2, §3.4, §2.5), the match end
    def _new_hand(self):
        n = self.players
        self.loc[:] = self.rules.unused_loc
        self.free = list(self.tiles)  # the unseen tiles, sorted: the stock and the unseen hands
        self.outcomes_base = -1  # chance_outcomes' last deal/draw list and its action base (-1: stale)
        self.outcomes = None
        self.hands = [[] for _ in range(n)]
        self.hidden = [0] * n
        self.stock = len(self.tiles)
        self.layout.reset()
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
        self.lots = [-1] * n
        self.lot_seats = []
        self.bergen_next = 0
        self.bergen_draws = 0
        self.drawer = -1
        self.turns_taken = [0] * n
        self.must_set = -1
        if self.betting:
            self.betting.new_game()

    def _next(self, seat):
        return (seat + self.step) % self.players

    def _all_known(self):
        for h in self.hidden:
            if h:
                return False
        return True

    def _deal_done(self):
        p = self.p
        self.phase = P_PLAY
        rule = p["setter"]
        if self.hand_number > 0 and p["later_setter"] == "previous_winner":
            self._start_play(self.setter if self.last_winner is None else self.last_winner)
        elif rule == "rotate":
            self._start_play(0 if self.hand_number == 0 else self._next(self.setter))
        elif rule == "lightest_draw":
            self.phase = P_LOT
            self.lot_seats = list(range(self.players))
            self.lots = [-1] * self.players
        elif rule == "double_draw_equalized":
            best = self._best_holder(True)
            if best is not None:
                self._start_play(best)
            else:
                self.phase = P_BERGEN
                dealer = self.hand_number % self.players
                self.bergen_next = dealer if self.p["first_drawer"] == "dealer" else self._next(dealer)
        elif rule == "fixed_tile" and self.loc[self.rules.fixed] != LOC_FREE:
            self.must_set = self.rules.fixed
            self._start_play(self.loc[self.rules.fixed] - 1)
        elif rule == "fixed_tile" and not self._all_known():
            self.must_set = self.rules.fixed  # an unseen hand holds it: its owner declares
            self.phase = P_DECLARE
        else:  # highest_double, lowest_double, and fixed_tile when the tile was not dealt
            best = self._best_holder(False)
            if best is None:
                self.phase = P_DECLARE
            else:
                self._start_play(best)

    def _best_holder(self, doubles_only):
        """The seat holding the best-ranked tile when every hand is seen, else None."""
        if not self._all_known():
            return None
        best_seat, best_tile = None, -1
        for seat in range(self.players):
            for t in self.hands[seat]:
                if doubles_only and not is_double(t):
                    continue
                if best_tile < 0 or self.rules.set_rank(t) > self.rules.set_rank(best_tile):
                    best_seat, best_tile = seat, t
        if best_seat is not None and self.p["set_constraint"] == "qualifying_tile":
            self.must_set = best_tile
        return best_seat

    def _start_play(self, setter):
        if self.betting:
            self.banker_changed = self.hand_number > 0 and setter != self.setter
            if self.hand_number == 0 or (self.banker_changed and self.p["stakes_reset_on_new_banker"]):
                self.stakes_set = not self.p["banker_sets_stakes"]
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
        winner = self._award_hand()
        if self._outcome is not None:
            return
        if self.p["match_end"] == "num_games" and self.hand_number + 1 >= self.p["num_games"]:
            self._end_match("games")
            return
        if self.p["match_end"] == "target" and not self.p["target_immediate"] and self._target_reached():
            self._end_match("target")
            return
        self.last_winner = winner
        self.hand_number += 1
        self._new_hand()

    def _award_hand(self):
        """Score the hand; the winning seat, or None when nobody won it."""
        if self.p["partnerships"]:
            return self._award_sides()
        n = self.players
        totals = self._pip_totals()
        domino = -1
        for s in range(n):
            if not self.hands[s]:
                domino = s
        if domino >= 0:
            winners = [domino]
            how = "domino"
        else:
            how = "blocked"
            if self.p["blocked_winner"] == "hoyle_no_doubles_first":
                keys = [(1 if any(is_double(t) for t in self.hands[s]) else 0, totals[s]) for s in range(n)]
            else:
                keys = [(0, totals[s]) for s in range(n)]
            least = min(keys)
            winners = [s for s in range(n) if keys[s] == least]
            if len(winners) > 1 and self.p["blocked_tie"] == "lightest_tile":
                winners = [min(winners, key=lambda s: min((pips(t), t) for t in self.hands[s]))]
        if self.betting:
            winner = winners[0] if len(winners) == 1 else None
            for seat, points, rule, detail in self.betting.settle(winner, self.setter):
                self._award(seat, points, rule, detail)
            return winner
        if len(winners) > 1 and self.p["blocked_tie"] != "split":
            return None
        others = [s for s in range(n) if s not in winners]
        summed = sum(totals[s] for s in others)
        terms = " + ".join(str(totals[s]) for s in others)
        for w in winners:
            points, detail = self._hand_points(how, summed, terms, totals[w], "own")
            if len(winners) > 1:
                points //= len(winners)
                detail += ", split %d ways = %d" % (len(winners), points)
            if points:
                self._award(w, points, how, detail)
            if self._outcome is not None:
                break
        return winners[0] if len(winners) == 1 else None

    def _award_sides(self):
        """The hand of a partnership game: the side that went out, or holds fewer pips when
        blocked, scores the opponents' pips (per ``hand_award``); returns the seat that went
        out or the lighter hand of the winning side, or None for a tie between the sides."""
        totals = self._pip_totals()
        side_pips = [totals[0] + totals[2], totals[1] + totals[3]]
        out = [s for s in range(4) if not self.hands[s]]
        if out:
            side, how = out[0] % 2, "domino"
        elif side_pips[0] != side_pips[1]:
            side, how = (0 if side_pips[0] < side_pips[1] else 1), "blocked"
        elif self.p["blocked_tie"] == "lightest_tile":
            lightest = min((pips(t), t, s) for s in range(4) for t in self.hands[s])
            side, how = lightest[2] % 2, "blocked"
        else:
            return None
        seat = out[0] if out else min((side, side + 2), key=lambda s: totals[s])
        a, b = 1 - side, 3 - side
        summed = side_pips[1 - side]
        terms = "P%d %d + P%d %d" % (a, totals[a], b, totals[b])
        points, detail = self._hand_points(how, summed, terms, side_pips[side], "the side's own")
        if points:
            self._award(seat, points, how, detail)
        return seat

    def _pip_totals(self):
        """Each seat's pips in hand (a double counts both halves)."""
        totals = [0] * self.players
        for s in range(self.players):
            for t in self.hands[s]:
                totals[s] += (t >> 4) + (t & 15)
        return totals

    def _hand_points(self, how, summed, terms, own, own_label):
        """Points and explanation of a won hand by ``hand_award``: the opponents' pips ``summed``
        (``terms``), less ``own`` (never below 0: a partner's tiles may outweigh the
        opponents'), to the nearest 5, or the fixed award."""
        award = self.p["hand_award"]
        if award == "fixed":
            return self.p["fixed_award"], "hand won (%s)" % how
        if award == "others_sum_minus_own":
            points = max(0, summed - own)
            return points, "opponents' pips %s = %d minus %s %d = %d" % (terms, summed, own_label, own, points)
        if award == "rounded5":
            points = (summed + 2) // 5 * 5
            return points, "opponents' pips %s = %d, to the nearest 5 = %d" % (terms, summed, points)
        return summed, "opponents' pips %s = %d" % (terms, summed)

    def _award(self, seat, points, rule, detail):
        self.award(seat, points, rule, detail)
        self.hand_scores[seat] += points
        if self.p["partnerships"]:  # one score per side: the partner's display shows it too
            partner = (seat + 2) % 4
            self.award(partner, points, rule, "partner P%d: %s" % (seat, detail))
            self.hand_scores[partner] += points
        if self.p["match_end"] == "target" and self.p["target_immediate"] and self._outcome is None:
            if self.scores[seat] >= self.p["target"]:
                self._end_match("target")

    def _target_reached(self):
        for score in self.scores:
            if score >= self.p["target"]:
                return True
        return False

    def _end_match(self, how):
        top = max(self.scores)
        winners = [s for s in range(self.players) if self.scores[s] == top]
        self._outcome = Outcome(how, winners, self.scores)
        self.phase = P_OVER

    # --- legal actions: these read the state and never change it, so generation and checks
    # have no side effects; plays from a hand the table cannot see are checked against what is known
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

    # --- why an action is illegal: a reason code and a sentence naming the specifics (a play
    # from an unseen hand: the right seat, a tile not seen elsewhere, an end it fits)
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
                    return (E_TURN, "P%d cannot hold %s: its hand is seen" % (seat, tile_str(self.rules.fixed)))
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
