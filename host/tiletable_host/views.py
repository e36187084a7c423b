"""How the PC shows each game family's state: ``tiletable watch``'s lines of text and the
browser's picture (JSON), one view class per family of the registry (tiletable/families.py),
named after it (``LineView`` for "line": ``view_of``); the browser draws the picture with the
family's board (serve/static/boards/<family>.js).

A view reads the PC engine's state of the session in progress (``replay.state``); it is here,
not in the engine, so that the Pico carries none of it.
"""
from tiletable.engine.line_actions import K_PLAY, ORIENT_TEXT, SET_POINT, kind_of, play_fields
from tiletable.engine.line_layout import CROSS, SLOT_NAMES
from tiletable.engine.tiles import high, is_double, low, tile_str
from tiletable_host.people import seat_name


class LineView:
    """The open ends of the line and the boneyard; the browser draws the line itself."""

    @staticmethod
    def lines(state, names):
        return ["line: %s   boneyard %d" % (state.layout.text(), state.stock)]

    @staticmethod
    def picture(state, replay):
        return {"family": "line", "line": line_picture(state), "ends": state.layout.text(), "boneyard": state.stock}


class TrickView:
    """The trick on the table and the tricks each seat has won."""

    @staticmethod
    def lines(state, names):
        trick = " ".join("%s %s" % (seat_name(names, seat), tile_str(tile)) for seat, tile in state.trick) or "empty"
        return ["trick %d: %s   tricks won %s" % (state.trick_number + 1, trick, " ".join(map(str, state.tricks)))]

    @staticmethod
    def picture(state, replay):
        return {
            "family": "trick",
            "trick": [{"seat": seat, "tile": tile_str(tile)} for seat, tile in state.trick],
            "trick_number": state.trick_number + 1,
            "tricks": list(state.tricks),
            "bidder": state.bidder,
            "suit": state.suit,
            "trump": state.trump,
        }


class ColumnView:
    """The three columns' piles and the last battle."""

    @staticmethod
    def lines(state, names):
        cells = []
        for slot, pile in enumerate(state.columns):
            cells.append("%s %s" % ("LCR"[slot], "-" if pile is None else "%d pips" % state.pile_value(slot)))
        return ["columns: " + "   ".join(cells)]

    @staticmethod
    def picture(state, replay):
        return {
            "family": "column",
            "columns": [None if pile is None else [tile_str(t) for t in pile] for pile in state.columns],
            "piles": [0 if state.columns[slot] is None else state.pile_value(slot) for slot in range(3)],
            "battle": [{"column": "LCR"[slot], "cards": [tile_str(a), tile_str(b)], "result": result} for slot, a, b, result in state.last_battle],
            "field_deck": state.field_deck,
        }


class ClimbView:
    """The play to beat, the auction's bid and the cards each seat has left."""

    @staticmethod
    def lines(state, names):
        if state.last_player is None:
            return []
        return ["to beat: %s's play" % seat_name(names, state.last_player)]

    @staticmethod
    def picture(state, replay):
        return {
            "family": "climb",
            "to_beat": _to_beat(state, replay),
            "bidder": state.bidder,
            "bid": state.bid,
            "cards_left": [state.hands[seat].size() for seat in range(state.players)],
        }


def view_of(family):
    """The view class of ``family``: ``<Family>View`` of this module, or None for a family
    without one (such as a test's: its table shows the scores and turns only)."""
    view = globals().get(family[:1].upper() + family[1:] + "View")
    return view if isinstance(view, type) else None


def table_lines(state, names):
    """``tiletable watch``'s lines for the family's view of the table (none for a family
    without a view)."""
    view = view_of(state.family)
    return view.lines(state, names) if view else []


def table_picture(state, replay):
    """The browser's picture of the family's view of the table."""
    view = view_of(state.family)
    return view.picture(state, replay) if view else {"family": state.family}


def _to_beat(state, replay):
    if state.last_player is None:
        return None
    for entry in reversed(replay.actions()):
        if entry.actor == state.last_player and not entry.undone and entry.text != "PASS":
            return {"seat": state.last_player, "cards": entry.text.split("+")}
    return None


def line_picture(state):
    """The line of the hand in progress: the set tile and the tiles of each arm (``L``, ``R``,
    ``S1``, ``S2``) from the set outwards, each as ``[inner half, outer half, crosswise]``,
    the tile the spinner arms grow from, and which ends are open (with the value they show).

    The layout keeps only the open ends, so the line is rebuilt by replaying the hand."""
    fresh = state.ruleset.new_state(state.players)
    picture = None
    for action in state.history:
        hand = fresh.hand_number
        spinner_before = fresh.layout.spinner
        fresh.apply(action)
        if fresh.hand_number != hand:
            picture = None
            continue
        if kind_of(action) != K_PLAY:
            continue
        t, point, orient, _ = play_fields(action)
        layout = fresh.layout
        if point == SET_POINT:
            orient = ORIENT_TEXT[orient]  # "x" crosswise, "i" inline, "" the ruleset's way
            crosswise = orient == "x" or (orient == "" and (layout.xd[0] == CROSS or layout.lone_double or layout.spinner >= 0))
            picture = {"set": [layout.val[0], layout.val[1], is_double(t) and crosswise], "spinner": None}
            picture.update((name, []) for name in SLOT_NAMES)
            if layout.spinner >= 0:
                picture["spinner"] = ["set", 0]
            continue
        out = layout.val[point]
        inner = low(t) if high(t) == out else high(t)
        arm = picture[SLOT_NAMES[point]]
        arm.append([inner, out, is_double(t) and layout.xd[point] == CROSS])
        if spinner_before < 0 <= layout.spinner:
            picture["spinner"] = [SLOT_NAMES[point], len(arm) - 1]
    if picture is not None:
        picture["open"] = {SLOT_NAMES[slot]: state.layout.val[slot] for slot in range(4) if state.layout.is_open(slot)}
    return picture
