"""Bergen's headers (rule book §3.4): a play that leaves both line ends showing the same
number scores a double-header, or a triple-header when a double is at an end (``triple_mode``
strict: the double just laid); setting a double is a double-header. See ``line_score_fives``
for what a scoring rule is.
"""

from tiletable.engine.line_actions import SET_POINT
from tiletable.engine.tiles import is_double, low, tile_str


class Rule:
    def __init__(self, p):
        self.double = p["double_header_points"]
        self.triple = p["triple_header_points"]
        self.strict = p["triple_mode"] == "strict"

    def score(self, state, seat, t, point):
        if point == SET_POINT:
            if is_double(t):
                state._award(seat, self.double, "double-header", "set double %s: both ends %d" % (tile_str(t), low(t)))
            return
        lay = state.layout
        n = lay.val[0]
        if n != lay.val[1]:
            return
        if is_double(t) if self.strict else (lay.xd[0] or lay.xd[1]):
            state._award(seat, self.triple, "triple-header", "both ends %d with the double %d-%d at an end" % (n, n, n))
        else:
            state._award(seat, self.double, "double-header", "both ends %d" % n)
