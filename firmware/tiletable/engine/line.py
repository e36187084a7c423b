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
Settled readings of the rule book are listed next to the parameters in ``PARAMS``.
"""

from tiletable.engine.betting import HALF, Betting, chips_text, stake_problem
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
    RulesetError,
)
from tiletable.engine.knowledge import UNSEEN, Knowledge, mask_of
from tiletable.engine.line_layout import (
    COUNT_ALL_FIVES,
    COUNT_LINE,
    COUNT_SNIFF_US,
    SIDE,
    SLOT_NAMES,
    TIP,
    Layout,
)
from tiletable.engine.state import CHANCE, TERMINAL, GameState, Outcome
from tiletable.engine.tiles import high, is_double, low, parse_tile, pips, tile_set, tile_str

# Parameter schema (see rulesets.py). Defaults are the Block game; comments give the
# rule-book section and, for readings the book leaves open, the choice made here.
PARAMS = {
    "max_pip": ("int", 6, 3, 9),  # D6; Buki 8
    "doubles": ("bool", True),  # Buki: D8 without doubles
    "deal": ("counts", {"2": 7, "3": 5, "4": 5}, 1, 20),  # tiles per player, by player count
    "stock_after_deal": ("choice", "unused", ("boneyard", "unused")),
    "direction": ("choice", "clockwise", ("clockwise", "counterclockwise")),
    # §2.2: S1 rotate, S2 lightest_draw, S3 highest_double, FIXED(tile), Bergen's equal draws
    "setter": ("choice", "highest_double", ("rotate", "lightest_draw", "highest_double", "fixed_tile", "double_draw_equalized")),
    "fixed_tile": ("tile", None),
    "set_constraint": ("choice", "any", ("any", "qualifying_tile")),
    "later_setter": ("choice", "same_rule", ("same_rule", "previous_winner")),  # Buki: the last winner banks
    "first_drawer": ("choice", "non_dealer", ("non_dealer", "dealer")),  # Bergen; dealer of hand h is seat h
    "spinner": ("choice", "none", ("none", "fixed_set_tile", "first_double")),
    "spinner_fill_first": ("bool", False),  # Sebastopol: all four points before any arm
    "spinner_arm_order": ("choice", "any", ("any", "sides_first")),
    "first_double_orientation": ("choice", "crosswise", ("crosswise", "inline", "player_choice")),
    "other_doubles": ("choice", "crosswise", ("crosswise", "inline", "player_choice")),
    "sniff_mode": ("choice", "us", ("us", "pagat_inline_stub")),
    "match_rule": ("choice", "equal", ("equal", "sum_to_7")),
    "matadors": ("tiles", []),
    "zero_end_only_matadors": ("bool", False),
    "must_play_if_able": ("bool", True),
    "may_pass_when_able": ("bool", False),  # Sniff U-000-8; the same switch as must_play_if_able=false
    "draw_policy": ("choice", "none", ("none", "when_unable", "anytime")),
    "reserve": ("int", 2, 0, 4),
    "per_move_scoring": ("choice", "none", ("none", "fives", "headers")),
    "score_multiple": ("int", 5, 2, 10),
    "count_mode": ("choice", "line", ("line", "all_fives_spinner", "sniff_us")),
    "double_header_points": ("int", 2, 0, 100),
    "triple_header_points": ("int", 3, 0, 100),
    "triple_mode": ("choice", "strict", ("strict", "state")),
    "muggins_claims": ("choice", "auto", ("manual", "auto")),
    "hand_award": ("choice", "others_sum", ("others_sum", "others_sum_minus_own", "rounded5", "fixed", "betting_settlement")),
    "fixed_award": ("int", 1, 0, 100),
    "blocked_winner": ("choice", "lowest_pips", ("lowest_pips", "hoyle_no_doubles_first")),
    "blocked_tie": ("choice", "no_score", ("no_score", "split", "lightest_tile", "draw_carry_over")),
    "match_end": ("choice", "target", ("target", "num_games")),
    "target": ("int", 100, 1, 100000),
    "target_immediate": ("bool", True),  # reaching the target at any score event ends the match
    "num_games": ("int", 4, 1, 1000),
    # Buki betting (§3.12)
    "min_stake": ("int", 10, 1, 4000),
    "max_stake": ("int", 30, 1, 4000),
    "banker_sets_stakes": ("bool", False),  # the banker names the minimum; max = stake_ratio x min, capped by max_stake
    "stake_ratio": ("int", 3, 1, 10),
    "stakes_reset_on_new_banker": ("bool", True),
    "bet_deadline": ("int", 3, 1, 8),  # bet before this turn of one's own
    "bet_deadline_counts": ("choice", "turns", ("turns", "plays")),  # U-004-2: passes count by default
    "new_banker_bet_deadline": ("int", 1, 1, 8),  # U-004-3: after a change of banker, before the 1st play
    "payout_numerator": ("int", 5, 1, 100),
    "payout_denominator": ("int", 2, 1, 100),
    "payout_rounding": ("choice", "exact", ("exact", "floor", "require_even_stakes")),
    "spectators": ("int", 0, 0, 4),
    "spectator_odds_numerator": ("int", 5, 1, 100),  # U-004-5: default 2.5x like the players
    "spectator_odds_denominator": ("int", 2, 1, 100),
}

_MATADORS = ["0-0", "1-6", "2-5", "3-4"]

PRESETS = {
    "block": {
        "version": 1,
        "aliases": ["block-game"],
        "description": "Block game: no drawing, winner scores the others' pips, 100 (§3.1)",
        "params": {},
    },
    "draw": {
        "version": 1,
        "aliases": ["draw-game"],
        "description": "Draw game: Block with drawing when unable, two tiles stay (§3.2)",
        "params": {"stock_after_deal": "boneyard", "draw_policy": "when_unable", "reserve": 2},
    },
    "sebastopol": {
        "version": 1,
        "description": "Sebastopol: 4 players, [6|6] spinner, four sixes before anything else, 60 (§3.3)",
        "params": {
            "deal": {"4": 7},
            "setter": "fixed_tile",
            "fixed_tile": "6-6",
            "spinner": "fixed_set_tile",
            "spinner_fill_first": True,
            "target": 60,
        },
    },
    "bergen": {
        "version": 1,
        "description": "Bergen: heavier doublet sets, double-headers 2, triple-headers 3, 1 per hand, 15 (§3.4)",
        "params": {
            "deal": {"2": 7},
            "stock_after_deal": "boneyard",
            "setter": "double_draw_equalized",
            "set_constraint": "qualifying_tile",
            "per_move_scoring": "headers",
            "hand_award": "fixed",
            "fixed_award": 1,
            "target": 15,
        },
    },
    "muggins": {
        "version": 1,
        "aliases": ["all-fives", "fives"],
        "description": "Muggins: ends totalling a multiple of 5 score, claimed or stolen, 200 (§3.5)",
        "params": {
            "deal": {"2": 7, "3": 7, "4": 5},
            "stock_after_deal": "boneyard",
            "draw_policy": "when_unable",
            "per_move_scoring": "fives",
            "muggins_claims": "manual",
            "target": 200,
        },
    },
    "sniff": {
        "version": 1,
        "description": "Sniff: lightest draw sets, the first double spins and keeps counting, draw any time, 200 (§3.6)",
        "params": {
            "deal": {"2": 7, "3": 6, "4": 5},
            "stock_after_deal": "boneyard",
            "setter": "lightest_draw",
            "spinner": "first_double",
            "first_double_orientation": "player_choice",
            "count_mode": "sniff_us",
            "draw_policy": "anytime",
            "per_move_scoring": "fives",
            "target": 200,
        },
    },
    "matador": {
        "version": 1,
        "description": "Matador: touching ends total 7, matadors go anywhere, a blank takes only matadors, 100 (§3.7)",
        "params": {
            "deal": {"2": 7, "3": 7, "4": 5},
            "stock_after_deal": "boneyard",
            "match_rule": "sum_to_7",
            "matadors": _MATADORS,
            "zero_end_only_matadors": True,
            "first_double_orientation": "inline",
            "other_doubles": "inline",
            "draw_policy": "when_unable",
        },
    },
    "buki": {
        "version": 1,
        "aliases": ["buki-domino", "bukidomino"],
        "description": "Buki-Domino: doubleless double-eight, banker, forced play, stakes paid 2.5 to 1 (§3.12)",
        "params": {
            "max_pip": 8,
            "doubles": False,
            "deal": {"4": 6},
            "later_setter": "previous_winner",
            "hand_award": "betting_settlement",
            "blocked_tie": "draw_carry_over",
            "match_end": "num_games",
            "num_games": 4,
        },
    },
}


def _set_size(params):
    n = params["max_pip"] + 1
    return n * (n + 1) // 2 if params["doubles"] else n * (n - 1) // 2


def check_params(name, params):
    """Rules that span several parameters. :raises RulesetError: naming the field and why."""
    size = _set_size(params)
    for count, per in params["deal"].items():
        players = int(count)
        if players < 2 or players > 4:
            raise RulesetError(name, "params.deal." + count, "line games seat 2 to 4 players")
        if players * per > size:
            raise RulesetError(name, "params.deal." + count, "%d x %d tiles is more than the %d-tile set" % (players, per, size))
        if params["setter"] == "lightest_draw" and size - players * per < players:
            raise RulesetError(name, "params.setter", "lightest_draw needs %d tiles left after the deal for %d players" % (players, players))
    if not params["deal"]:
        raise RulesetError(name, "params.deal", "give a deal for at least one player count")
    for field in ("fixed_tile",):
        if params[field] is not None and not _in_set(params, parse_tile(params[field])):
            raise RulesetError(name, "params." + field, "%s is not in the set" % params[field])
    for text in params["matadors"]:
        if not _in_set(params, parse_tile(text)):
            raise RulesetError(name, "params.matadors", "%s is not in the set" % text)
    if params["setter"] == "fixed_tile" and params["fixed_tile"] is None:
        raise RulesetError(name, "params.fixed_tile", "setter fixed_tile needs the tile")
    if params["setter"] in ("double_draw_equalized",) and not params["doubles"]:
        raise RulesetError(name, "params.setter", "double_draw_equalized needs doubles in the set")
    if params["setter"] in ("lightest_draw", "double_draw_equalized") and params["stock_after_deal"] != "boneyard":
        raise RulesetError(name, "params.stock_after_deal", "setter %s draws from the boneyard" % params["setter"])
    if params["set_constraint"] == "qualifying_tile" and params["setter"] not in ("highest_double", "double_draw_equalized"):
        raise RulesetError(name, "params.set_constraint", "only a setter chosen by a tile has a qualifying tile")
    spinner = params["spinner"]
    if spinner == "none":
        if params["spinner_fill_first"]:
            raise RulesetError(name, "params.spinner_fill_first", "needs a spinner")
        if params["spinner_arm_order"] != "any":
            raise RulesetError(name, "params.spinner_arm_order", "needs a spinner")
        if params["count_mode"] != "line":
            raise RulesetError(name, "params.count_mode", "%s counts a spinner: set spinner" % params["count_mode"])
        if params["sniff_mode"] != "us":
            raise RulesetError(name, "params.sniff_mode", "needs spinner first_double")
    else:
        if not params["doubles"]:
            raise RulesetError(name, "params.spinner", "a spinner is a double and the set has none")
        if params["per_move_scoring"] == "fives" and params["count_mode"] == "line":
            raise RulesetError(name, "params.count_mode", "a spinner needs all_fives_spinner or sniff_us counting")
        if params["per_move_scoring"] == "headers":
            raise RulesetError(name, "params.per_move_scoring", "headers look at two line ends: needs spinner none")
    if spinner == "fixed_set_tile":
        tile = params["fixed_tile"]
        if params["setter"] != "fixed_tile" or tile is None or not is_double(parse_tile(tile)):
            raise RulesetError(name, "params.spinner", "fixed_set_tile needs setter fixed_tile with a double")
    if params["sniff_mode"] == "pagat_inline_stub" and params["first_double_orientation"] != "inline":
        raise RulesetError(name, "params.first_double_orientation", "pagat_inline_stub lays the sniff inline")
    if params["must_play_if_able"] and params["may_pass_when_able"]:
        raise RulesetError(name, "params.may_pass_when_able", "contradicts must_play_if_able")
    if params["draw_policy"] != "none" and params["stock_after_deal"] != "boneyard":
        raise RulesetError(name, "params.draw_policy", "drawing needs stock_after_deal boneyard")
    if params["muggins_claims"] == "manual" and params["per_move_scoring"] != "fives":
        raise RulesetError(name, "params.muggins_claims", "claims need per_move_scoring fives")
    betting = params["hand_award"] == "betting_settlement"
    if (params["blocked_tie"] == "draw_carry_over") != betting:
        raise RulesetError(name, "params.blocked_tie", "draw_carry_over goes with hand_award betting_settlement")
    if betting:
        if params["min_stake"] > params["max_stake"]:
            raise RulesetError(name, "params.min_stake", "above max_stake")
        for field in ("payout", "spectator_odds"):
            den = params[field + "_denominator"]
            if params["payout_rounding"] == "exact" and den > 2:
                raise RulesetError(name, "params.%s_denominator" % field, "exact payouts are kept in half-chips: use 1 or 2")
        if params["payout_rounding"] == "require_even_stakes":
            den = params["payout_denominator"]
            if params["min_stake"] % den and params["min_stake"] + den - params["min_stake"] % den > params["max_stake"]:
                raise RulesetError(name, "params.max_stake", "no stake in range is a multiple of %d" % den)
        if params["match_end"] != "num_games":
            raise RulesetError(name, "params.match_end", "chips are played for a number of games")
    elif params["spectators"]:
        raise RulesetError(name, "params.spectators", "spectators bet only with betting_settlement")


def _in_set(params, t):
    a, b = low(t), high(t)
    return b <= params["max_pip"] and (params["doubles"] or a != b)


def default_players(params):
    """The smallest player count the deal table allows."""
    return min(int(k) for k in params["deal"])


def check_players(params, players):
    if str(players) not in params["deal"]:
        return "%d players: the deal is given for %s" % (players, ", ".join(sorted(params["deal"])))
    return None


# --- action encoding -------------------------------------------------------------------
_KIND = 24
K_PLAY = 0
K_DEAL = 1
K_REVEAL = 2
K_LOT = 3
K_SETTER = 4
K_DRAW = 5
K_PASS = 6
K_WAIVE = 7
K_CLAIM = 8
K_BET = 9
K_STAKES = 10
K_SPEC = 11
K_ACCEPT = 12
K_REFUSE = 13

SET_POINT = 4  # the point field of a set (no end yet)
UNKNOWN_TILE = 0xFF
ORIENT_TEXT = ("", "x", "i")

DRAW = K_DRAW << _KIND
PASS = K_PASS << _KIND
WAIVE = K_WAIVE << _KIND

# phases
P_DEAL = 0
P_LOT = 1
P_DECLARE = 2
P_BERGEN = 3
P_PLAY = 4
P_DRAWN = 5
P_REVEAL = 6
P_OVER = 7

LOC_FREE = 0  # not seen: in the stock or an unseen hand
LOC_PLAYED = 15
LOC_LOT = 14
LOC_NONE = 255  # not in this game's set


def play_action(t, point, orient=0, out=-1):
    """The action laying tile t at point (``SET_POINT`` for a set); ``out`` only for matadors."""
    return t | point << 8 | orient << 11 | (out + 1) << 13


def chance_action(kind, seat, t):
    return kind << _KIND | seat << 8 | t


def seat_action(kind, seat):
    return kind << _KIND | seat << 8


def _kind(a):
    return a >> _KIND


def setter_rank(t):
    """Who sets by §2.2 S3: doubles by number above every single, singles by pips then higher end."""
    if is_double(t):
        return 1000 + low(t)
    return pips(t) * 16 + high(t)


class State(GameState):
    """A match of one line game. See the module docstring for actions and the hand flow."""

    family = "line"

    def __init__(self, ruleset, players, options=None):
        GameState.__init__(self, ruleset, players, options)
        p = ruleset.params
        self.p = p
        self.tiles = tile_set(p["max_pip"], p["doubles"])
        self.per_hand = p["deal"][str(players)]
        self.step = 1 if p["direction"] == "clockwise" else players - 1
        self.count_mode = (COUNT_LINE, COUNT_ALL_FIVES, COUNT_SNIFF_US)[
            ("line", "all_fives_spinner", "sniff_us").index(p["count_mode"])
        ]
        self.matadors = [parse_tile(t) for t in p["matadors"]]
        self.fixed = parse_tile(p["fixed_tile"]) if p["fixed_tile"] else -1
        self.sum7 = p["match_rule"] == "sum_to_7"
        self.may_pass = p["may_pass_when_able"] or not p["must_play_if_able"]
        self.betting = Betting(p, players) if p["hand_award"] == "betting_settlement" else None
        self.score_scale = HALF if self.betting else 1
        self.layout = Layout()
        self.knowledge = Knowledge()
        self.loc = bytearray(160)
        self.violations = []
        self.setter = -1
        self.last_winner = None
        self.banker_changed = False
        self.stakes_set = False
        self._outcome = None
        self._new_hand()

    # --- hand lifecycle --------------------------------------------------------------
    def _new_hand(self):
        n = self.players
        for i in range(160):
            self.loc[i] = LOC_NONE
        for t in self.tiles:
            self.loc[t] = LOC_FREE
        self.hands = [[] for _ in range(n)]
        self.hidden = [0] * n
        self.stock = len(self.tiles)
        self.layout.reset()
        self.knowledge.reset()
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

    def _held(self, seat):
        return len(self.hands[seat]) + self.hidden[seat]

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
        elif rule == "fixed_tile" and not self._all_known():
            self.must_set = self.fixed
            self.phase = P_DECLARE
        elif rule == "fixed_tile" and self.loc[self.fixed] != LOC_FREE:
            self.must_set = self.fixed
            self._start_play(self.loc[self.fixed] - 1)
        else:  # highest_double, and fixed_tile when the tile was not dealt
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
                if best_tile < 0 or setter_rank(t) > setter_rank(best_tile):
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
        if self.knowledge.active:
            self.violations.extend(self.knowledge.check(self.hand_number, self.hands, setter_rank))
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
        n = self.players
        totals = [sum(pips(t) for t in self.hands[s]) for s in range(n)]
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
        award = self.p["hand_award"]
        for w in winners:
            if award == "fixed":
                points, detail = self.p["fixed_award"], "hand won (%s)" % how
            elif award == "others_sum_minus_own":
                points = summed - totals[w]
                detail = "opponents' pips %s = %d minus own %d = %d" % (terms, summed, totals[w], points)
            elif award == "rounded5":
                points = (summed + 2) // 5 * 5
                detail = "opponents' pips %s = %d, to the nearest 5 = %d" % (terms, summed, points)
            else:
                points, detail = summed, "opponents' pips %s = %d" % (terms, summed)
            if len(winners) > 1:
                points //= len(winners)
                detail += ", split %d ways = %d" % (len(winners), points)
            if points:
                self._award(w, points, how, detail)
            if self._outcome is not None:
                break
        return winners[0] if len(winners) == 1 else None

    def _award(self, seat, points, rule, detail):
        self.award(seat, points, rule, detail)
        self.hand_scores[seat] += points
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

    def _deal_seat(self):
        return self.dealt // self.per_hand

    def _reveal_seat(self):
        for s in range(self.players):
            if self.hidden[s]:
                return s
        return -1

    def _free_tiles(self):
        return [t for t in self.tiles if self.loc[t] == LOC_FREE]

    def chance_outcomes(self):
        phase = self.phase
        if phase == P_DEAL:
            return [chance_action(K_DEAL, self._deal_seat(), t) for t in self._free_tiles()]
        if phase == P_DRAWN:
            return [chance_action(K_DEAL, self.drawer, t) for t in self._free_tiles()]
        if phase == P_LOT:
            return [chance_action(K_LOT, self.lot_seats[0], t) for t in self._free_tiles()]
        if phase == P_REVEAL:
            return [chance_action(K_REVEAL, self._reveal_seat(), t) for t in self._free_tiles()]
        if phase == P_BERGEN:
            out = []
            if self.stock:
                out = [chance_action(K_DEAL, self.bergen_next, t) for t in self._free_tiles()]
            if self._may_declare():
                out.extend(seat_action(K_SETTER, s) for s in range(self.players))
            return out
        if phase == P_DECLARE:
            return [seat_action(K_SETTER, s) for s in range(self.players)]
        return []

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
                return [K_STAKES << _KIND | m for m in self._stake_choices()]
            if self._bet_due(seat):
                return self._bet_choices()
        if self.claim_points:
            for s in range(self.players):
                if s != self.claim_mover or not self.claim_waived:
                    out.append(seat_action(K_CLAIM, s))
            if not self.claim_waived:
                out.append(WAIVE)
        if self.layout.is_empty():
            self._gen_sets(seat, out)
            if b:
                self._gen_spectator_bets(out)
        else:
            self._gen_plays(seat, out)
            known_play = self._has_known_play(seat)
            if self._can_draw() and not (known_play and self.p["draw_policy"] == "when_unable"):
                out.append(DRAW)
            if self._pass_problem(seat, known_play) is None:
                out.append(PASS)
        if b and seat != self.setter and not b.placed[seat]:
            out.extend(self._bet_choices())
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
        if low(t) != high(t):
            return (0,)
        rule = self.p["first_double_orientation"] if first_double else self.p["other_doubles"]
        return (1, 2) if rule == "player_choice" else (0,)

    def _gen_sets(self, seat, out):
        if seat != self.setter:
            return
        for t in self._candidates(seat):
            if self._set_problem(t) is None:
                for o in self._orients(t, True):
                    out.append(play_action(t, SET_POINT, o))

    def _set_problem(self, t):
        """None when the setter may set t, else (code, reason)."""
        if self.must_set >= 0 and t != self.must_set:
            return (E_SET, "the setter must set the tile that made it setter, %s" % tile_str(self.must_set))
        return None

    def _points(self):
        """The attach slots open now, in order (Sebastopol: only the first free spinner point)."""
        lay = self.layout
        if self.p["spinner_fill_first"] and lay.has_empty_point():
            for i in range(4):
                if lay.role[i] == SIDE or lay.role[i] == TIP:
                    return (i,)
        slots = []
        tips_closed = self.p["spinner_arm_order"] == "sides_first" and not lay.sides_covered()
        for i in range(4):
            if lay.is_open(i) and not (tips_closed and lay.role[i] == TIP):
                slots.append(i)
        return slots

    def _gen_plays(self, seat, out):
        points = self._points()
        first_double = self.layout.doubles == 0
        for t in self._candidates(seat):
            self._tile_plays(t, points, first_double, out)

    def _tile_plays(self, t, points, first_double, out):
        lay = self.layout
        a, b = low(t), high(t)
        matador = t in self.matadors
        for slot in points:
            v = lay.val[slot]
            if matador:
                for o in self._orients(t, first_double):
                    out.append(play_action(t, slot, o, a))
                    if a != b:
                        out.append(play_action(t, slot, o, b))
                continue
            if v == 0 and self.p["zero_end_only_matadors"]:
                continue
            if self.sum7:
                if a + v != 7 and b + v != 7:
                    continue
            elif a != v and b != v:
                continue
            for o in self._orients(t, first_double):
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
        return self.p["draw_policy"] != "none" and self.stock > self.p["reserve"]

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
        b = self.betting
        out = []
        for amount in range(b.low, b.high + 1):
            if stake_problem(amount, b.low, b.high, self.p["payout_denominator"], self.p["payout_rounding"]) is None:
                out.append(K_BET << _KIND | amount)
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
                    out.append(K_SPEC << _KIND | spectator << 15 | seat << 12 | amount)

    # --- legality ----------------------------------------------------------------------
    def why_illegal(self, action):
        if self._outcome is not None:
            return (E_OVER, "the match is over")
        kind = _kind(action)
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
                if kind in (K_ACCEPT, K_REFUSE) and (action >> 8) & 7 == pending[0]:
                    return None
                return (E_PHASE, "the banker P%d must accept or refuse spectator %d's bet first" % (self.setter, pending[0]))
            if not self.stakes_set:
                if kind == K_STAKES and (action & 0xFFFFFF) in self._stake_choices():
                    return None
                return (E_BET, "the banker P%d sets the stakes first" % self.setter)
            if kind == K_BET:
                return self._why_bet(seat, action & 0xFFFFFF)
            if self._bet_due(seat):
                return (E_BET, "P%d must bet before turn %d" % (seat, self.turns_taken[seat] + 1))
            if kind == K_SPEC:
                return self._why_spectator(action)
        if kind == K_CLAIM or kind == K_WAIVE:
            return self._why_claim(kind, (action >> 8) & 7)
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
        seat = (action >> 8) & 7
        t = action & 0xFF
        if kind == K_SETTER:
            if phase == P_DECLARE or (phase == P_BERGEN and self._may_declare()):
                return None if seat < self.players else (E_TURN, "there is no seat %d" % seat)
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
        t = action & 0xFF
        point = (action >> 8) & 7
        orient = (action >> 11) & 3
        out = ((action >> 13) & 15) - 1
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
            rule = "a half making 7 with" if self.sum7 else "a half matching"
            return (E_NO_MATCH, "%s has no %s end %s (%d)" % (tile_str(t), rule, SLOT_NAMES[point], v))
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
        b = self.betting
        if seat == self.setter:
            return (E_BET, "the banker does not bet")
        if b.placed[seat]:
            return (E_BET, "P%d has already bet %d" % (seat, b.bets[seat]))
        problem = stake_problem(amount, b.low, b.high, self.p["payout_denominator"], self.p["payout_rounding"])
        return None if problem is None else (E_BET, problem)

    def _why_spectator(self, action):
        b = self.betting
        spectator, seat, amount = (action >> 15) & 7, (action >> 12) & 7, action & 0xFFF
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

    # --- applying ----------------------------------------------------------------------
    def _apply(self, action):
        kind = _kind(action)
        index = len(self.history) - 1
        if kind == K_DEAL:
            self._receive((action >> 8) & 7, action & 0xFF, index)
        elif kind == K_PLAY:
            self._close_claim()
            self._lay(action, index)
        elif kind == K_PASS:
            self._close_claim()
            self._pass(index)
        elif kind == K_DRAW:
            self._close_claim()
            self._draw(index)
        elif kind == K_CLAIM:
            self._claim((action >> 8) & 7)
        elif kind == K_WAIVE:
            self.claim_waived = True
        elif kind == K_REVEAL:
            self._reveal((action >> 8) & 7, action & 0xFF)
        elif kind == K_LOT:
            self._lot((action >> 8) & 7, action & 0xFF)
        elif kind == K_SETTER:
            self._declare((action >> 8) & 7)
        elif kind == K_BET:
            self.betting.bets[self.turn] = action & 0xFFFFFF
            self.betting.placed[self.turn] = True
        elif kind == K_STAKES:
            self.betting.low = action & 0xFFFFFF
            self.betting.high = self.betting.low * self.p["stake_ratio"]
            self.stakes_set = True
        elif kind == K_SPEC:
            self.betting.spectator_bets.append([(action >> 15) & 7, (action >> 12) & 7, action & 0xFFF, None])
        elif kind == K_ACCEPT or kind == K_REFUSE:
            self.betting.pending_spectator()[3] = kind == K_ACCEPT

    def _receive(self, seat, t, index):
        if t == UNKNOWN_TILE:
            self.hidden[seat] += 1
            self.knowledge.start()
        else:
            self.hands[seat].append(t)
            self.loc[t] = seat + 1
        self.stock -= 1
        phase = self.phase
        if phase == P_DEAL:
            self.dealt += 1
            if self.dealt == self.per_hand * self.players:
                self._deal_done()
        elif phase == P_DRAWN:
            self.knowledge.log_draw(index, seat, UNSEEN if t == UNKNOWN_TILE else t)
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

    def _take(self, seat, t):
        if t in self.hands[seat]:
            self.hands[seat].remove(t)
        else:
            self.hidden[seat] -= 1
        self.loc[t] = LOC_PLAYED

    def _lay(self, action, index):
        seat = self.turn
        t = action & 0xFF
        point = (action >> 8) & 7
        orient = (action >> 11) & 3
        out = ((action >> 13) & 15) - 1
        lay = self.layout
        first_double = lay.doubles == 0
        if self.knowledge.active:
            if point == SET_POINT and self.hidden[seat] and self.p["setter"] != "rotate":
                self._note_set_claim(seat, t, index)
            self.knowledge.log_play(index, seat, t)
        self._take(seat, t)
        double = low(t) == high(t)
        rule = self.p["first_double_orientation"] if first_double else self.p["other_doubles"]
        crosswise = orient == 1 or (orient == 0 and rule == "crosswise")
        spinner = double and (
            (self.p["spinner"] == "first_double" and first_double)
            or (self.p["spinner"] == "fixed_set_tile" and point == SET_POINT)
        )
        if point == SET_POINT:
            lay.set(t, crosswise or (spinner and self.p["spinner"] == "fixed_set_tile"), spinner)
        else:
            v = lay.val[point]
            if out < 0:
                if self.sum7:
                    out = high(t) if low(t) + v == 7 else low(t)
                else:
                    out = high(t) if low(t) == v else low(t)
            lay.attach(point, t, out, crosswise, spinner, self.p["sniff_mode"] == "pagat_inline_stub")
        self.passes = 0
        if self.betting and self.setter != seat:
            self.turns_taken[seat] += 1
        self._score_move(seat, t, point)
        if self._outcome is not None:
            return
        if self._held(seat) == 0:
            if self.claim_points:  # a domino ends the hand at once: nobody is left to act before the award
                self._claim(seat)
                if self._outcome is not None:
                    return
            self._hand_over()
            return
        self.turn = self._next(seat)

    def _note_set_claim(self, seat, t, index):
        """A setter whose hand is unseen claims to hold the best tile; checked at the reveal."""
        self.knowledge.add_setter_claim(index, seat, "set %s as holder of the best setting tile" % tile_str(t))
        if self.p["set_constraint"] == "qualifying_tile":
            better = [u for u in self.tiles if setter_rank(u) > setter_rank(t)]
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

    def _close_claim(self):
        self.claim_points = 0

    def _pass(self, index):
        seat = self.turn
        if self.knowledge.active and self.hidden[seat] and not self.may_pass:
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
        if self.knowledge.active and self.hidden[seat] and self.p["draw_policy"] == "when_unable":
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
            self.knowledge.add_fact(
                index, seat, mask_of(fitting), "must play", "%s on %s: held nothing that fits" % (verb, self.layout.text())
            )

    def _reveal(self, seat, t):
        self.hidden[seat] -= 1
        self.hands[seat].append(t)
        self.loc[t] = seat + 1
        if self._all_known():
            self._finish_hand()

    def _lot(self, seat, t):
        self.lots[seat] = t
        self.loc[t] = LOC_LOT
        self.lot_seats.pop(0)
        if self.lot_seats:
            return
        drawn = [s for s in range(self.players) if self.lots[s] >= 0]
        least = min(pips(self.lots[s]) for s in drawn)
        tied = [s for s in drawn if pips(self.lots[s]) == least]
        left = self.stock - sum(1 for t in self.tiles if self.loc[t] == LOC_LOT)
        if len(tied) > 1 and left >= len(tied):
            for s in drawn:
                if s not in tied:
                    self.lots[s] = -1
            for s in tied:
                self.lots[s] = -1
            self.lot_seats = tied
            return
        for t in self.tiles:  # the lot tiles go back into the boneyard
            if self.loc[t] == LOC_LOT:
                self.loc[t] = LOC_FREE
        self._start_play(tied[0])

    def _declare(self, seat):
        self._start_play(seat)

    # --- text --------------------------------------------------------------------------
    def action_str(self, action):
        kind = _kind(action)
        seat = (action >> 8) & 7
        t = action & 0xFF
        if kind == K_PLAY:
            point = (action >> 8) & 7
            orient = ORIENT_TEXT[(action >> 11) & 3]
            out = ((action >> 13) & 15) - 1
            if point == SET_POINT:
                return tile_str(t) + orient
            text = "%s>%s%s" % (tile_str(t), SLOT_NAMES[point], orient)
            return text + ("^%d" % out if out >= 0 else "")
        if kind in (K_DEAL, K_REVEAL, K_LOT):
            prefix = ("D", "R", "lot")[kind - 1]
            return "%s%d:%s" % (prefix, seat, "?" if t == UNKNOWN_TILE else tile_str(t))
        if kind == K_SETTER:
            return "setter%d" % seat
        if kind == K_CLAIM:
            return "claim%d" % seat
        if kind == K_DRAW:
            return "draw"
        if kind == K_PASS:
            return "pass"
        if kind == K_WAIVE:
            return "waive"
        if kind == K_BET:
            return "bet%d" % (action & 0xFFFFFF)
        if kind == K_STAKES:
            return "stakes%d" % (action & 0xFFFFFF)
        if kind == K_SPEC:
            return "spec%d>%d=%d" % ((action >> 15) & 7, (action >> 12) & 7, action & 0xFFF)
        if kind == K_ACCEPT:
            return "accept%d" % seat
        if kind == K_REFUSE:
            return "refuse%d" % seat
        return "?%d" % action

    def parse_action(self, text):
        try:
            return _parse(text.strip())
        except ValueError as exc:
            raise IllegalAction(text, E_TILE, "not an action: %s" % exc)

    def describe(self, action):
        kind = _kind(action)
        text = self.action_str(action)
        if kind == K_PLAY:
            point = (action >> 8) & 7
            t = tile_str(action & 0xFF)
            if point == SET_POINT:
                return "P%d sets %s" % (self.turn, t)
            return "P%d plays %s on %s (showing %d)" % (self.turn, t, SLOT_NAMES[point], self.layout.val[point])
        if kind == K_DEAL:
            return "P%d receives %s" % ((action >> 8) & 7, text.split(":")[1])
        if kind == K_PASS:
            return "P%d passes (go)" % self.turn
        if kind == K_DRAW:
            return "P%d draws from the boneyard (%d left)" % (self.turn, self.stock)
        if kind == K_CLAIM:
            return "P%d claims %d" % ((action >> 8) & 7, self.claim_points)
        return text

    def chips(self, seat):
        """Buki: a seat's chips as text (``"-37.5"``)."""
        return chips_text(self.scores[seat])

    def __repr__(self):
        return "<line %s hand %d %s P%d layout %s>" % (
            self.ruleset.name,
            self.hand_number,
            self._phase_name(),
            self.turn,
            self.layout.text(),
        )


_SIMPLE = {"draw": DRAW, "pass": PASS, "waive": WAIVE}
_SEATED = (("claim", K_CLAIM), ("setter", K_SETTER), ("accept", K_ACCEPT), ("refuse", K_REFUSE))


def _parse(text):
    if text in _SIMPLE:
        return _SIMPLE[text]
    for word, kind in _SEATED:
        if text.startswith(word):
            return seat_action(kind, _small(text[len(word):], 7))
    for word, kind in (("bet", K_BET), ("stakes", K_STAKES)):
        if text.startswith(word):
            return kind << _KIND | _small(text[len(word):], 4000)
    if text.startswith("spec"):
        head, _, amount = text[4:].partition("=")
        spectator, _, seat = head.partition(">")
        return K_SPEC << _KIND | _small(spectator, 7) << 15 | _small(seat, 7) << 12 | _small(amount, 4000)
    for word, kind in (("lot", K_LOT), ("D", K_DEAL), ("R", K_REVEAL)):
        if text.startswith(word) and ":" in text:
            seat, _, t = text[len(word):].partition(":")
            return chance_action(kind, _small(seat, 7), UNKNOWN_TILE if t == "?" else _tile(t))
    if ">" in text:
        t, _, rest = text.partition(">")
        out = -1
        if "^" in rest:
            rest, _, half = rest.partition("^")
            out = _small(half, 14)
        orient = 0
        if rest[-1:] in ("x", "i"):
            orient = 1 if rest[-1] == "x" else 2
            rest = rest[:-1]
        if rest not in SLOT_NAMES:
            raise ValueError("unknown end %r (ends: %s)" % (rest, ", ".join(SLOT_NAMES)))
        return play_action(_tile(t), SLOT_NAMES.index(rest), orient, out)
    orient = 0
    if text[-1:] in ("x", "i"):
        orient = 1 if text[-1] == "x" else 2
        text = text[:-1]
    return play_action(_tile(text), SET_POINT, orient)


def _tile(text):
    t = parse_tile(text)
    if high(t) > 9:
        raise ValueError("not a tile: %r" % text)
    return t


def _small(text, most):
    if not text.isdigit() or int(text) > most:
        raise ValueError("expected a number up to %d, got %r" % (most, text))
    return int(text)
