"""Why a line-game action is illegal, and its text for people: ``line.State``'s
``why_illegal`` and ``describe``, kept apart from the moves they judge.

A reason is a code (``errors.E_*``) and a sentence naming the specifics: a play from an
unseen hand needs the right seat, a tile not seen elsewhere and an end it fits. These
functions read the state and never change it.
"""

from tiletable.engine.errors import (
    E_CHANCE, E_CLAIM, E_MUST_PLAY, E_NO_DRAW, E_NO_MATCH, E_NOT_HELD, E_ORDER, E_OVER, E_PHASE,
    E_SET, E_TILE, E_TURN,
)
from tiletable.engine.line_actions import (
    K_BET, K_CLAIM, K_DEAL, K_DRAW, K_LOT, K_PASS, K_PLAY, K_REFUSE, K_REVEAL, K_SETTER, K_WAIVE, LOC_FREE,
    LOC_LOT, LOC_NONE, LOC_PLAYED, P_BERGEN, P_DEAL, P_DECLARE, P_DRAWN, P_LOT, P_PLAY, P_REVEAL,
    SET_POINT, UNKNOWN_TILE, action_text, kind_of, play_action, play_fields, seat_action, seat_of, tile_of,
)
from tiletable.engine.line_deal import deal_seat, may_declare, may_set, reveal_seat
from tiletable.engine.line_layout import SLOT_NAMES
from tiletable.engine.tiles import high, low, tile_str


def why_illegal(state, action):
    """None when ``action`` is legal now, else ``(code, reason)``."""
    if state._outcome is not None:
        return (E_OVER, "the match is over")
    kind = kind_of(action)
    if kind > K_REFUSE and state.rules.variants:  # doubles shown before the first play
        return state.rules.variants.why_illegal(state, action)
    if kind in (K_DEAL, K_REVEAL, K_LOT, K_SETTER):
        return _why_chance(state, action, kind)
    if state.phase != P_PLAY:
        return (E_PHASE, "waiting for a chance event (%s), not a player action" % state._phase_name())
    seat = state.turn
    lay = state.layout
    if state.betting:
        verdict = state.betting.why(kind, action, seat, state.setter, lay.is_empty())
        if verdict != ():  # betting.GO_ON: not a betting matter
            return verdict
    if kind == K_CLAIM or kind == K_WAIVE:
        return _why_claim(state, kind, seat_of(action))
    if kind == K_PLAY:
        return _why_play(state, seat, action)
    if lay.is_empty() and kind in (K_DRAW, K_PASS):
        return (E_PHASE, "P%d must set the first tile" % seat)
    p = state.p
    if kind == K_DRAW:
        if p["draw_policy"] == "none":
            return (E_NO_DRAW, "this game has no drawing")
        if state.stock <= p["reserve"]:
            return (E_NO_DRAW, "the last %d tiles stay in the boneyard (it has %d)" % (p["reserve"], state.stock))
        if p["draw_policy"] == "when_unable" and state._has_known_play(seat):
            return (E_MUST_PLAY, "P%d holds a tile that fits: play it" % seat)
        return None
    if kind == K_PASS:
        known_play = state._has_known_play(seat)
        if state._can_draw() and not known_play:
            return (E_MUST_PLAY, "draw first: the boneyard has %d tiles" % state.stock)
        if known_play and not state.may_pass:
            return (E_MUST_PLAY, "P%d must play: it holds a tile that fits" % seat)
        return None
    return (E_PHASE, "%s is not an action now" % action_text(action))


def _why_chance(state, action, kind):
    phase = state.phase
    seat = seat_of(action)
    t = tile_of(action)
    if kind == K_SETTER:
        if phase == P_DECLARE or (phase == P_BERGEN and may_declare(state)):
            if seat >= state.players or not may_set(state, seat):
                return (E_TURN, "P%d cannot set: its hand is seen, or its side does not lead" % seat)
            return None
        return (E_PHASE, "no setter declaration is due")
    want = {K_DEAL: (P_DEAL, P_DRAWN, P_BERGEN), K_LOT: (P_LOT,), K_REVEAL: (P_REVEAL,)}[kind]
    if phase not in want:
        return (E_PHASE, "no %s is due now (%s)" % (("deal or draw", "reveal", "lot draw")[kind - 1], state._phase_name()))
    if kind == K_DEAL:
        expect = deal_seat(state) if phase == P_DEAL else (state.drawer if phase == P_DRAWN else state.bergen_next)
        if phase == P_BERGEN and not state.stock:
            return (E_CHANCE, "the boneyard is empty")
    elif kind == K_LOT:
        expect = state.lot_seats[0]
    else:
        expect = reveal_seat(state)
    if seat != expect:
        return (E_TURN, "P%d is next, not P%d" % (expect, seat))
    if t == UNKNOWN_TILE:
        if kind != K_DEAL:
            return (E_CHANCE, "a %s must show the tile" % ("reveal" if kind == K_REVEAL else "lot draw"))
        return None
    return _where_problem(state, t, E_CHANCE)


def _set_problem(state, t):
    """None when the setter may set t, else (code, reason)."""
    if state.must_set >= 0 and t != state.must_set:
        return (E_SET, "the setter must set the tile that made it setter, %s" % tile_str(state.must_set))
    return None


def _where_problem(state, t, code):
    """None when t is unseen (could be anywhere hidden), else why it cannot come from there."""
    where = state.loc[t]
    if where == LOC_FREE:
        return None
    if where == LOC_NONE:
        return (E_TILE, "%s is not in this game's set" % tile_str(t))
    if where == LOC_PLAYED:
        return (code, "%s is already on the table" % tile_str(t))
    if where == LOC_LOT:
        return (code, "%s is out for the lot draw" % tile_str(t))
    return (code, "%s is known to be in P%d's hand" % (tile_str(t), where - 1))


def _why_play(state, seat, action):
    t, point, orient, out = play_fields(action)
    if state.loc[t] == LOC_NONE or t == UNKNOWN_TILE:
        return (E_TILE, "%s is not in this game's set" % tile_str(t))
    if t not in state.hands[seat]:
        problem = _where_problem(state, t, E_NOT_HELD)
        if problem is not None:
            return problem
        if not state.hidden[seat]:
            return (E_NOT_HELD, "P%d does not hold %s" % (seat, tile_str(t)))
    lay = state.layout
    first_double = lay.doubles == 0
    if lay.is_empty():
        if point != SET_POINT:
            return (E_PHASE, "the first tile is set, not played on an end: write %s" % tile_str(t))
        if seat != state.setter:
            return (E_TURN, "P%d sets, not P%d" % (state.setter, seat))
        problem = _set_problem(state, t)
        if problem is not None:
            return problem
        if orient not in state._orients(t, True) or out >= 0:
            return (E_TILE, _orient_hint(state, t, True))
        return None
    if point == SET_POINT:
        return (E_PHASE, "the set is on the table: name an end, e.g. %s>L" % tile_str(t))
    if not lay.is_open(point):
        return (E_NO_MATCH, "there is no open end %s (%s)" % (SLOT_NAMES[point], lay.text()))
    points = state._points()
    if point not in points:
        if state.p["spinner_fill_first"] and lay.has_empty_point():
            return (E_ORDER, "the spinner's points fill first, in order: play at %s" % SLOT_NAMES[points[0]])
        return (E_ORDER, "the spinner's sides are covered before its tips")
    matador = t in state.matadors
    if matador and out < 0:
        return (E_TILE, "a matador names its outward half, e.g. %s>%s^%d" % (tile_str(t), SLOT_NAMES[point], high(t)))
    if not matador and out >= 0:
        return (E_TILE, "only matadors name an outward half: write %s>%s" % (tile_str(t), SLOT_NAMES[point]))
    found = []
    state._tile_plays(t, (point,), first_double, found)
    if not found:
        v = lay.val[point]
        if v == 0 and state.p["zero_end_only_matadors"]:
            return (E_NO_MATCH, "a blank end takes only matadors")
        if state.sum7:
            return (E_NO_MATCH, "%s has no half making 7 with end %s (%d)" % (tile_str(t), SLOT_NAMES[point], v))
        return (E_NO_MATCH, "%s does not match end %s (%d)" % (tile_str(t), SLOT_NAMES[point], v))
    if action not in found:
        if matador and out not in (low(t), high(t)):
            return (E_TILE, "%s has no half %d" % (tile_str(t), out))
        return (E_TILE, _orient_hint(state, t, first_double))
    return None


def _orient_hint(state, t, first_double):
    if state._orients(t, first_double) == (0,):
        return "%s takes no orientation here: leave off x/i" % tile_str(t)
    return "say how %s lies: x (crosswise) or i (inline)" % tile_str(t)


def _why_claim(state, kind, seat):
    if not state.claim_points:
        return (E_CLAIM, "nothing to claim")
    if kind == K_WAIVE:
        return (E_CLAIM, "P%d already waived" % state.claim_mover) if state.claim_waived else None
    if seat >= state.players:
        return (E_CLAIM, "there is no seat %d" % seat)
    if seat == state.claim_mover and state.claim_waived:
        return (E_CLAIM, "P%d waived its %d" % (seat, state.claim_points))
    return None


def describe(state, action):
    """A sentence for people about ``action`` (not yet applied) that says what is true
    after it: the end's new value, the boneyard once the drawn tile has left it."""
    kind = kind_of(action)
    text = action_text(action)
    if kind == K_PLAY:
        t, point, _, out = play_fields(action)
        if point == SET_POINT:
            return "P%d sets %s" % (state.turn, tile_str(t))
        out = state._outward(t, point, out)
        return "P%d plays %s on %s (now showing %d)" % (state.turn, tile_str(t), SLOT_NAMES[point], out)
    if kind == K_DEAL:
        return "P%d receives %s" % (seat_of(action), text.split(":")[1])
    if kind == K_PASS:
        return "P%d passes (go)" % state.turn
    if kind == K_DRAW:
        return "P%d draws from the boneyard (%d left)" % (state.turn, state.stock - 1)
    seat = seat_of(action)
    if kind == K_CLAIM:
        return "P%d claims %d" % (seat, state.claim_points)
    if kind == K_WAIVE:
        return "P%d waives its %d" % (state.claim_mover, state.claim_points)
    if kind == K_REVEAL:
        return "P%d shows %s at the end of the hand" % (seat, text.split(":")[1])
    if kind == K_LOT:
        return "P%d draws %s to decide who sets" % (seat, text.split(":")[1])
    if kind == K_SETTER:
        return "P%d says it holds the setting tile" % seat
    if K_BET <= kind <= K_REFUSE:  # a bet, the stakes, a spectator's bet, the banker's answer
        from tiletable.engine.betting import describe as describe_bet

        return describe_bet(kind, action, state.turn, state.setter, state.p["stake_ratio"])
    return text


def lay_problem(state, seat, t, slot):
    """Why ``seat`` cannot lay tile ``t`` now: ``(code, reason)``, or None when it may.

    While nobody sets yet (hands unseen), laying the setting tile says ``seat`` holds it:
    None when it may declare and set ``t``, asked without playing the declaration. In play,
    asked of the mover's tile with no legal play at end ``slot`` (None: at any end): why not."""
    if state.phase == P_DECLARE or state.phase == P_BERGEN:
        problem = state.why_illegal(seat_action(K_SETTER, seat))
        if problem is None and t not in state.hands[seat]:
            problem = _where_problem(state, t, E_NOT_HELD)
            if problem is None and not state.hidden[seat]:
                problem = (E_NOT_HELD, "P%d does not hold %s" % (seat, tile_str(t)))
        return problem or _set_problem(state, t)
    probe = play_action(t, SET_POINT if state.layout.is_empty() else (slot or 0))
    return state.why_illegal(probe) or (E_NO_MATCH, "%s fits nowhere" % action_text(probe))
