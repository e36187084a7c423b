"""The fives rule of Muggins/All Fives and Sniff (rule book §2.6, §3.5, §3.6): a play that
leaves the ends' count a multiple of ``score_multiple`` scores the count, at once or, with
``muggins_claims`` manual, when claimed (a count its mover misses is another seat's to steal).

A per-move scoring rule is a class ``Rule`` in ``engine/line_score_<name>.py``, named in
``line_params.SCORING_RULES``: ``LineRules`` builds it once per ruleset and the state calls
``score`` after every tile laid (and ``claim`` for a claim, when the rule has claims).
"""

from tiletable.engine.line_layout import COUNT_MODES


class Rule:
    def __init__(self, p):
        self.mode = COUNT_MODES.index(p["count_mode"])
        self.multiple = p["score_multiple"]
        self.claims = p["muggins_claims"] == "manual"

    def points(self, count):
        """What an end count scores: the count itself when it is a multiple (0 otherwise)."""
        return count if count % self.multiple == 0 else 0

    def score(self, state, seat, t, point):
        lay = state.layout
        count = lay.count(self.mode)
        points = self.points(count) if count else 0
        if not points:
            return
        terms = "ends %s = %d" % (lay.count_terms(self.mode), count)
        if self.claims:  # pending until the mover claims it, waives it, or another seat steals it
            state.claim_points, state.claim_mover = points, seat
            state.claim_waived, state.claim_terms = False, terms
        else:
            state._award(seat, points, "fives", terms)

    def claim(self, state, seat):
        """Seat claims the pending count: its mover's own, or a steal ("muggins")."""
        points, mover = state.claim_points, state.claim_mover
        state.claim_points = 0
        if seat == mover:
            state._award(seat, points, "fives", state.claim_terms)
        else:
            state._award(seat, points, "muggins", "%s, missed by P%d" % (state.claim_terms, mover))
