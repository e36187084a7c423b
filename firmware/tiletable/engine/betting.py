"""Buki-Domino's chips (rule book §3.12): stakes, the 2.5x payout, carry-over, spectators.

A ``Betting`` is a Buki line state's collaborator (``line.State.betting``; None in the other
line games, which never import this module): it takes the bets, stakes and spectators'
actions, says which are legal and when a bet is due, and settles a game.

Chip amounts are kept in **half-chips** so the 5/2 payout of an odd stake stays exact
without floats (a stake of 15 pays 37.5 chips = 75 half-chips). The payout factor is a
fraction ``numerator/denominator`` from the ruleset. Settlement is a list of transfers
``(seat, half_chips, rule, detail)`` that always sums to zero with the spectators' side.

>>> payout(15, 5, 2, "exact")
(75, 'stake 15 x 5/2 = 37.5')
"""

from tiletable.engine.errors import E_BET, E_PHASE
from tiletable.engine.line_actions import (
    K_ACCEPT, K_BET, K_REFUSE, K_SPEC, K_STAKES, amount_action, amount_of, seat_action, seat_of,
    spectator_bet_action, spectator_bet_of,
)

HALF = 2  # half-chips per chip
GO_ON = ()  # ``Betting.why``: not a betting matter, the state's own checks decide


def chips_text(half_chips):
    """``75`` -> ``"37.5"``, ``100`` -> ``"50"``."""
    sign = "-" if half_chips < 0 else ""
    n = -half_chips if half_chips < 0 else half_chips
    return "%s%d.5" % (sign, n // 2) if n % 2 else "%s%d" % (sign, n // 2)


def payout(stake, numerator, denominator, rounding):
    """What a stake wins at ``numerator/denominator``, in half-chips, with the arithmetic.

    ``floor`` drops a fraction of a chip; ``exact`` keeps half-chips (rulesets allow only
    denominators 1 and 2 with it); ``require_even_stakes`` never meets a fraction because
    stakes are multiples of the denominator.
    """
    exact_half = stake * numerator * HALF // denominator
    text = "stake %d x %d/%d = %s" % (stake, numerator, denominator, chips_text(exact_half))
    if rounding == "floor" and exact_half % HALF:
        floored = exact_half - exact_half % HALF
        return floored, "%s, floored to %s" % (text, chips_text(floored))
    return exact_half, text


def stake_problem(amount, low, high, denominator, rounding):
    """None when ``amount`` is a valid stake, else the reason."""
    if amount < low or amount > high:
        return "a stake must be between %d and %d (got %d)" % (low, high, amount)
    if rounding == "require_even_stakes" and amount % denominator:
        return "stakes must be multiples of %d so the payout is whole (got %d)" % (denominator, amount)
    return None


class Betting:
    """The bets of the current game, stakes carried over from drawn games, and the spectators."""

    def __init__(self, params, players):
        self.params = params
        self.players = players
        self.low = params["min_stake"]
        self.high = params["max_stake"]
        self.bets = [0] * players
        self.placed = [False] * players
        self.carry = [0] * players
        self.spectator_chips = [0] * params["spectators"]
        self.spectator_bets = []  # [spectator, seat, amount, accepted: None until the banker answers]
        self.turns = [0] * players  # turns each seat took this game: a bet is due before a deadline
        self.banker_changed = False
        self.stakes_set = False

    def new_game(self):
        self.bets = [0] * self.players
        self.placed = [False] * self.players
        self.spectator_bets = []
        self.turns = [0] * self.players

    def start_play(self, hand_number, banker, setter):
        """The game's setter (its banker) is known: stakes are named again when the bank changes hands."""
        p = self.params
        self.banker_changed = hand_number > 0 and setter != banker
        if hand_number == 0 or (self.banker_changed and p["stakes_reset_on_new_banker"]):
            self.stakes_set = not p["banker_sets_stakes"]

    def took_turn(self, seat, banker, passed):
        """Count a seat's turn towards its bet deadline (a pass only when ``bet_deadline_counts`` is turns)."""
        if seat != banker and (not passed or self.params["bet_deadline_counts"] == "turns"):
            self.turns[seat] += 1

    def act(self, kind, action, seat):
        """Apply a bet (by ``seat``, the seat to act), the stakes, a spectator's bet or the banker's answer."""
        if kind == K_BET:
            self.bets[seat] = amount_of(action)
            self.placed[seat] = True
        elif kind == K_STAKES:
            self.low = amount_of(action)
            self.high = self.low * self.params["stake_ratio"]
            self.stakes_set = True
        elif kind == K_SPEC:
            self.spectator_bets.append(list(spectator_bet_of(action)) + [None])
        else:
            self.pending_spectator()[3] = kind == K_ACCEPT

    def forced(self, seat, banker):
        """The only actions open while a betting step is due (the banker's answer, the stakes,
        a bet before its deadline), or None."""
        pending = self.pending_spectator()
        if pending is not None:
            return [seat_action(K_ACCEPT, pending[0]), seat_action(K_REFUSE, pending[0])]
        if not self.stakes_set:
            return [amount_action(K_STAKES, m) for m in self.stake_choices()]
        if self.bet_due(seat, banker):
            return self.bet_choices()
        return None

    def options(self, seat, banker, before_lead, out):
        """Append the bets open beside the play: spectators' before the lead, the seat's own."""
        if before_lead:
            for spectator in range(self.params["spectators"]):
                if self.has_spectator_bet(spectator):
                    continue
                for on in range(self.players):
                    if on != banker:
                        for amount in range(self.low, self.high + 1):
                            out.append(spectator_bet_action(spectator, on, amount))
        if seat != banker and not self.placed[seat]:
            out.extend(self.bet_choices())

    def stake_choices(self):
        cap = self.params["max_stake"]
        return [m for m in range(1, cap + 1) if m * self.params["stake_ratio"] <= cap]

    def bet_choices(self):
        p = self.params
        out = []
        for amount in range(self.low, self.high + 1):
            if stake_problem(amount, self.low, self.high, p["payout_denominator"], p["payout_rounding"]) is None:
                out.append(amount_action(K_BET, amount))
        return out

    def bet_due(self, seat, banker):
        if seat == banker or self.placed[seat]:
            return False
        p = self.params
        deadline = p["new_banker_bet_deadline"] if self.banker_changed else p["bet_deadline"]
        return self.turns[seat] + 1 >= deadline

    def why(self, kind, action, seat, banker, before_lead):
        """None when ``action`` is legal, ``(code, reason)`` when betting forbids it, or ``GO_ON``."""
        pending = self.pending_spectator()
        if pending is not None:
            if (kind == K_ACCEPT or kind == K_REFUSE) and seat_of(action) == pending[0]:
                return None
            return (E_PHASE, "the banker P%d must accept or refuse spectator %d's bet first" % (banker, pending[0]))
        if not self.stakes_set:
            if kind == K_STAKES and amount_of(action) in self.stake_choices():
                return None
            return (E_BET, "the banker P%d sets the stakes first" % banker)
        if kind == K_BET:
            return self._why_bet(seat, banker, amount_of(action))
        if self.bet_due(seat, banker):
            return (E_BET, "P%d must bet before turn %d" % (seat, self.turns[seat] + 1))
        if kind == K_SPEC:
            return self._why_spectator(action, banker, before_lead)
        return GO_ON

    def _why_bet(self, seat, banker, amount):
        if seat == banker:
            return (E_BET, "the banker does not bet")
        if self.placed[seat]:
            return (E_BET, "P%d has already bet %d" % (seat, self.bets[seat]))
        p = self.params
        problem = stake_problem(amount, self.low, self.high, p["payout_denominator"], p["payout_rounding"])
        return None if problem is None else (E_BET, problem)

    def _why_spectator(self, action, banker, before_lead):
        spectator, seat, amount = spectator_bet_of(action)
        if spectator >= self.params["spectators"]:
            return (E_BET, "there is no spectator %d" % spectator)
        if not before_lead:
            return (E_BET, "spectators bet before the lead")
        if self.has_spectator_bet(spectator):
            return (E_BET, "spectator %d has already bet" % spectator)
        if seat >= self.players or seat == banker:
            return (E_BET, "spectators bet against the banker, on another seat")
        if amount < self.low or amount > self.high:
            return (E_BET, "a stake must be between %d and %d (got %d)" % (self.low, self.high, amount))
        return None

    def stake(self, seat):
        """This game's bet plus what drawn games carried over."""
        return self.bets[seat] + self.carry[seat]

    def pending_spectator(self):
        """The spectator bet waiting for the banker's answer, or None."""
        for bet in self.spectator_bets:
            if bet[3] is None:
                return bet
        return None

    def has_spectator_bet(self, spectator):
        for bet in self.spectator_bets:
            if bet[0] == spectator:
                return True
        return False

    def settle(self, winner, banker):
        """Transfers for a game won by ``winner`` (None: a drawn game, stakes carry over)."""
        p = self.params
        out = []
        if winner is None:
            for seat in range(self.players):
                self.carry[seat] = self.stake(seat)
            return out
        for seat in range(self.players):
            stake = self.stake(seat)
            if seat == banker or stake == 0:
                continue
            if seat == winner:
                won, text = payout(stake, p["payout_numerator"], p["payout_denominator"], p["payout_rounding"])
                out.append((seat, won, "payout", "%s from the banker P%d (own stake returned)" % (text, banker)))
                out.append((banker, -won, "payout", "pays P%d's %s" % (seat, text)))
            else:
                out.append((seat, -stake * HALF, "stake", "stake %d lost to the banker P%d" % (stake, banker)))
                out.append((banker, stake * HALF, "stake", "collects P%d's stake %d" % (seat, stake)))
        for spectator, seat, amount, accepted in self.spectator_bets:
            if not accepted:
                continue
            if seat == winner:
                won, text = payout(
                    amount, p["spectator_odds_numerator"], p["spectator_odds_denominator"], p["payout_rounding"]
                )
                self.spectator_chips[spectator] += won
                out.append((banker, -won, "spectator", "pays spectator %d's bet on P%d: %s" % (spectator, seat, text)))
            else:
                self.spectator_chips[spectator] -= amount * HALF
                out.append(
                    (banker, amount * HALF, "spectator", "collects spectator %d's bet %d on P%d" % (spectator, amount, seat))
                )
        self.carry = [0] * self.players
        return out


def describe(kind, action, seat, banker, stake_ratio):
    """A sentence for people about a betting action of ``seat`` (the seat to act)."""
    if kind == K_BET:
        return "P%d stakes %d" % (seat, amount_of(action))
    if kind == K_STAKES:
        low_stake = amount_of(action)
        return "the banker P%d sets the stakes at %d to %d" % (banker, low_stake, low_stake * stake_ratio)
    if kind == K_SPEC:
        spectator, on, amount = spectator_bet_of(action)
        return "spectator %d bets %d on P%d" % (spectator, amount, on)
    return "the banker P%d %s spectator %d's bet" % (banker, "accepts" if kind == K_ACCEPT else "refuses", seat_of(action))
