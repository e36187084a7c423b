"""Buki-Domino's chips (rule book §3.12): stakes, the 2.5x payout, carry-over, spectators.

Chip amounts are kept in **half-chips** so the 5/2 payout of an odd stake stays exact
without floats (a stake of 15 pays 37.5 chips = 75 half-chips). The payout factor is a
fraction ``numerator/denominator`` from the ruleset. Settlement is a list of transfers
``(seat, half_chips, rule, detail)`` that always sums to zero with the spectators' side.

>>> payout(15, 5, 2, "exact")
(75, 'stake 15 x 5/2 = 37.5')
"""

HALF = 2  # half-chips per chip


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

    def new_game(self):
        self.bets = [0] * self.players
        self.placed = [False] * self.players
        self.spectator_bets = []

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
