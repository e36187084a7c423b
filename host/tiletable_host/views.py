"""How the PC shows each game family's state: ``tiletable watch``'s lines of text and the
browser's picture (JSON), one view class per family of the registry (tiletable/families.py),
named after it (``LineView`` for "line": ``view_of``); the browser draws the picture with the
family's board (serve/static/boards/<family>.js).

A view reads the PC engine's state of the session in progress (``replay.state``); it is here,
not in the engine, so that the Pico carries none of it.
"""
from tiletable.engine.fortytwo import call_words, trump_words
from tiletable.engine.line_actions import K_PLAY, ORIENT_TEXT, SET_POINT, kind_of, play_fields
from tiletable.engine.line_layout import CROSS, SLOT_NAMES
from tiletable.engine.train import P_DEAL, P_DRAWN, P_OVER, P_PLAY, P_PLAY_DRAWN, P_REVEAL
from tiletable.engine.tiles import high, is_double, low, other, tile, tile_str
from tiletable_host.people import seat_name


class LineView:
    """The open ends of the line and the boneyard; the browser draws the line itself."""

    @staticmethod
    def lines(state, names):
        return ["line: %s   boneyard %d" % (state.layout.text(), state.stock)]

    @staticmethod
    def picture(state, replay):
        return LineView.drawn(state, line_picture(state))

    @staticmethod
    def drawn(state, line):
        """The picture with ``line`` (``line_picture``'s) as the line of play."""
        return {"family": "line", "line": line, "ends": state.layout.text(), "boneyard": state.stock}


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
            "taken": _taken_trick(state),
            "trick_number": state.trick_number + 1,
            "tricks": list(state.tricks),
            "bidder": state.bidder,
            "suit": state.suit,
            "trump": state.trump,
        }


def _taken_trick(state):
    """The trick just taken, while the next is not begun: its tiles and who took it (the board
    shows it until the next lead, as the tiles lie on the table until gathered); else None."""
    taken = state.last_trick()
    if taken is None:
        return None
    number = state.trick_number - 1
    tiles = [{"seat": seat, "tile": tile_str(tile)} for trick, seat, tile in state.plays if trick == number]
    return {"winner": taken[0], "tiles": tiles} if tiles else None


class FortytwoView:
    """Texas 42: the bid and its bidder, trumps, the trick on the table, the tricks taken and
    each side's points in the hand (sides: the first and third seats, the second and fourth)."""

    @staticmethod
    def lines(state, names):
        bid = "no bid yet"
        if state.bidder is not None:
            bid = "%s %s" % (seat_name(names, state.bidder), call_words(state.high_call))
        trumps = "trumps not named" if state.trump is None else trump_words(state.trump)
        trick = " ".join("%s %s" % (seat_name(names, seat), tile_str(tile)) for seat, tile in state.trick) or "empty"
        return [
            "%s, %s" % (bid, trumps),
            "trick %d: %s   points %s and %s %d, %s and %s %d" % (
                state.trick_number + 1, trick,
                seat_name(names, 0), seat_name(names, 2), state.points[0],
                seat_name(names, 1), seat_name(names, 3), state.points[1]),
        ]

    @staticmethod
    def picture(state, replay):
        tricks = []
        for trick, seat, laid in state.plays:
            if trick < state.trick_number:
                if trick == len(tricks):
                    tricks.append({"tiles": []})
                tricks[trick]["tiles"].append({"seat": seat, "tile": tile_str(laid)})
        for number, trick in enumerate(tricks):
            trick["winner"] = state.trick_winner([(seat, laid) for played, seat, laid in state.plays if played == number])
        return {
            "family": "fortytwo",
            "trick": [{"seat": seat, "tile": tile_str(tile)} for seat, tile in state.trick],
            "taken": _taken_trick(state),
            "trick_number": state.trick_number + 1,
            "bidder": state.bidder,
            "bid": None if state.bidder is None else call_words(state.high_call),
            "trumps": None if state.trump is None else trump_words(state.trump),
            "points": list(state.points),
            "side_tricks": list(state.side_tricks),
            "tricks": tricks,
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


class TrainView:
    """Mexican Train: the round and its engine in the hub, each seat's train and the Mexican
    train (tiles from the hub outward, the value that extends it, the seat's marker), the open
    double to cover, the tiles in each hand and the boneyard."""

    TAIL = 8  # the tiles of a train the picture carries, from its open end: a phone shows a row of them

    @staticmethod
    def train_name(state, names, train):
        """``the Mexican train``, ``ann's train``."""
        return "the Mexican train" if train == state.players else "%s's train" % seat_name(names, train)

    @staticmethod
    def doing(state, names):
        """What the round waits for: the deal, a seat's play or draw, the hands left shown."""
        if state.phase == P_DEAL:
            return "dealing"
        if state.phase in (P_REVEAL, P_OVER):
            return "round over"
        return "%s %s" % (seat_name(names, state.turn), "draws" if state.phase == P_DRAWN else "to play")

    @staticmethod
    def lines(state, names):
        params = state.ruleset.params
        lines = ["round %d of %d, engine %s, boneyard %d, %s" % (
            state.round, params["rounds"], tile_str(tile(state.engine, state.engine)), state.boneyard, TrainView.doing(state, names))]
        for train, laid in enumerate(state.trains):
            marker = ", marker out" if train < state.players and state.markers[train] else ""
            size = "%d tile%s" % (len(laid), "" if len(laid) == 1 else "s") if laid else "not started"
            name = "Mexican train" if train == state.players else TrainView.train_name(state, names, train)
            lines.append("  %s: %s, open at %d%s" % (name, size, state.open_values[train], marker))
        for train, value, seat in state.open_doubles:
            lines.append("open double %s on %s, laid by %s" % (
                tile_str(tile(value, value)), TrainView.train_name(state, names, train), seat_name(names, seat)))
        hands = ", ".join("%s %s" % (seat_name(names, seat), "out" if state.out[seat] else state.hands[seat].size()) for seat in range(state.players))
        lines.append("tiles in hand: " + hands)
        return lines

    @staticmethod
    def picture(state, replay):
        cover = state.obligation()
        trains = []
        for train, laid in enumerate(state.trains):
            halves, value = [], state.engine
            for t in laid:  # each tile as [the half toward the hub, the half outward]
                halves.append([value, other(t, value)])
                value = halves[-1][1]
            trains.append({
                "seat": train if train < state.players else None,
                "laid": len(laid),
                "tail": halves[-TrainView.TAIL:],
                "open": state.open_values[train],
                "marker": train < state.players and state.markers[train],
                "double": any(d[0] == train for d in state.open_doubles),  # it ends on an open double
            })
        return {
            "family": "train",
            "round": state.round,
            "rounds": state.ruleset.params["rounds"],
            "engine": state.engine,
            "trains": trains,
            "cover": None if cover is None else cover[0],  # the train whose double must be covered now
            "hands": [state.hands[seat].size() for seat in range(state.players)],
            "out": list(state.out),
            "boneyard": state.boneyard,
            "turn": state.turn if state.phase in (P_PLAY, P_DRAWN, P_PLAY_DRAWN) else None,
            "drawing": state.phase == P_DRAWN,
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
    tracer = LineTracer()
    for action in state.history:
        tracer.apply(fresh, action)
    return tracer.shown(state)


class LineTracer:
    """Follows the line tile by tile as actions are applied to a state (``apply``), so that
    the picture after every play of a session costs one replay, not one per play."""

    def __init__(self):
        self.picture = None

    def apply(self, state, action):
        """Apply ``action`` to ``state`` and note what it laid on the line."""
        hand = state.hand_number
        spinner_before = state.layout.spinner
        state.apply(action)
        if state.hand_number != hand:
            self.picture = None
            return
        if kind_of(action) != K_PLAY:
            return
        t, point, orient, _ = play_fields(action)
        layout = state.layout
        if point == SET_POINT:
            orient = ORIENT_TEXT[orient]  # "x" crosswise, "i" inline, "" the ruleset's way
            crosswise = orient == "x" or (orient == "" and (layout.xd[0] == CROSS or layout.lone_double or layout.spinner >= 0))
            picture = {"set": [layout.val[0], layout.val[1], is_double(t) and crosswise], "spinner": None}
            picture.update((name, []) for name in SLOT_NAMES)
            if layout.spinner >= 0:
                picture["spinner"] = ["set", 0]
            self.picture = picture
            return
        out = layout.val[point]
        inner = low(t) if high(t) == out else high(t)
        arm = self.picture[SLOT_NAMES[point]]
        arm.append([inner, out, is_double(t) and layout.xd[point] == CROSS])
        if spinner_before < 0 <= layout.spinner:
            self.picture["spinner"] = [SLOT_NAMES[point], len(arm) - 1]

    def shown(self, state):
        """The picture now (a copy: later plays do not change it), with ``state``'s open ends."""
        if self.picture is None:
            return None
        picture = {key: [list(tile) for tile in value] if key in SLOT_NAMES else value for key, value in self.picture.items()}
        picture["open"] = {SLOT_NAMES[slot]: state.layout.val[slot] for slot in range(4) if state.layout.is_open(slot)}
        return picture


class _SoFar:
    """A replay seen as it stood after its first ``count`` actions (what a view reads of it)."""

    def __init__(self, replay):
        self.every = [e for e in replay.actions() if not e.undone]
        self.count = 0

    def actions(self):
        return self.every[: self.count]


def replay_pictures(replay):
    """The family's picture of the table after each action in effect of a stored session, in
    order, as ``[(entry, picture), ...]``: the session page steps through them. A session the
    engine could not follow to its end stops at the last action it could apply."""
    players = len(replay.session["players"])
    state = replay.ruleset.new_state(players)
    view = view_of(state.family)
    so_far = _SoFar(replay)
    tracer = LineTracer() if view is LineView else None
    shown = []
    for entry in so_far.every:
        if entry.scores_after is None:  # the engine lost the thread here (replay.divergences)
            break
        action = state.parse_action(entry.text)
        if tracer is not None:
            tracer.apply(state, action)
        else:
            state.apply(action)
        so_far.count += 1
        if view is None:
            picture = {"family": state.family}
        elif tracer is not None:
            picture = LineView.drawn(state, tracer.shown(state))
        else:
            picture = view.picture(state, so_far)
        shown.append((entry, picture))
    return shown
