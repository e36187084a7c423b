"""A line-game hand from deal to award: who sets, the end of the hand, the award, the match end.

``LineHand`` is a mixin of ``line.State`` (kept apart so each module compiles in a small
heap on the Pico). The setter rules are §2.2 and §3.4; the award is §2.5; Buki's chips
are settled by ``betting``.
"""

from tiletable.engine.line_actions import (
    LOC_FREE,
    P_BERGEN,
    P_DEAL,
    P_DECLARE,
    P_LOT,
    P_OVER,
    P_PLAY,
    P_REVEAL,
)
from tiletable.engine.state import Outcome
from tiletable.engine.tiles import is_double, pips


class LineHand:
    """Hand flow of ``line.State`` (a mixin)."""

    def _new_hand(self):
        n = self.players
        self.loc[:] = self.unused_loc
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
        elif rule == "fixed_tile" and self.loc[self.fixed] != LOC_FREE:
            self.must_set = self.fixed
            self._start_play(self.loc[self.fixed] - 1)
        elif rule == "fixed_tile" and not self._all_known():
            self.must_set = self.fixed  # an unseen hand holds it: its owner declares
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
                if best_tile < 0 or self.set_rank(t) > self.set_rank(best_tile):
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
            self.violations.extend(self.knowledge.check(self.hand_number, self.hands, self.set_rank))
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
