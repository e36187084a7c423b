"""Fives and Threes (MORE-GAMES §1): after every play, the lead too, the ends' count scores
its threes when it is a multiple of 3 plus its fives when it is a multiple of 5 (15: 5 + 3 =
8), at once or, with ``muggins_claims`` manual, when claimed as in Muggins.

With ``hand_award`` fixed the going-out award is this rule's: the play that ends the hand by
going out (with ``partnership_end`` both_out, the side's second player out) adds it to its own
points, one scoring event, so that an exact target (``target_exact``) takes or disregards them
together; ``line_variants`` then has ``line_award`` pay no domino award. With ``knock_bonus``
a play scores one more point per knock since the last play. See ``line_score_fives`` for what a scoring rule is.
"""

from tiletable.engine.line_score_fives import Rule as Fives


def threes_fives(count):
    """What an end count scores: its threes if a multiple of 3, plus its fives if of 5."""
    return (0 if count % 3 else count // 3) + (0 if count % 5 else count // 5)


class Rule(Fives):
    def __init__(self, p):
        Fives.__init__(self, p)
        self.knock = p["knock_bonus"]
        self.pays_domino = p["hand_award"] == "fixed"  # line_variants reads it
        self.chip = p["fixed_award"]

    def points(self, count):
        return threes_fives(count)

    def score(self, state, seat, t, point):
        lay = state.layout
        count = lay.count(self.mode)
        points = threes_fives(count)
        detail = "ends %s = %d" % (lay.count_terms(self.mode), count) if points else ""
        if self.knock and state.passes:
            points += state.passes
            detail += "%s%d knocked" % (", " if detail else "", state.passes)
        if self.pays_domino and self.chip and _goes_out(state, seat):
            points += self.chip
            detail += "%schipped out %d" % (", " if detail else "", self.chip)
        if not points:
            return
        if self.claims:  # pending until the mover claims it, waives it, or another seat steals it
            state.claim_points, state.claim_mover = points, seat
            state.claim_waived, state.claim_terms = False, detail
        else:
            state._award(seat, points, "threes-fives", detail)


def _goes_out(state, seat):
    """Whether ``seat`` laid its last tile and that ends the hand (both_out: its partner is out too)."""
    if state.hands[seat] or state.hidden[seat]:
        return False
    variants = state.rules.variants
    return not (variants and variants.plays_on(state, seat))
