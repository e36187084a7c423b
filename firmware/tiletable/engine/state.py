"""The state API every game family shares (after python-chess's Board and OpenSpiel's State).

A ``GameState`` is one match (a run of hands) of one ruleset. Everything that happens
is an *action* in ``history``, chance included (deals, draws, reveals), so the history
alone replays the match on the host exactly as it went on the table.

* ``current_player()`` -> a seat, ``CHANCE``, ``SIMULTANEOUS`` or ``TERMINAL``
* ``legal_actions`` -> a lazy view: iterate it, test ``a in state.legal_actions``, ``count()``
* ``play(a)`` checks and raises ``IllegalAction`` (state unchanged); ``apply(a)`` trusts its caller
* ``undo(count)`` takes back the last actions; ``outcome()`` is None until the match ends
* every score change is a ``ScoreEvent`` saying which rule gave it and the arithmetic

Actions are small ints or tuples chosen by each family; their canonical text
(``action_str``/``parse_action``) is what journals store.
"""

from tiletable.engine.errors import E_OVER, E_PHASE, IllegalAction

CHANCE = -1
SIMULTANEOUS = -2
TERMINAL = -4

CHECKPOINT_EVERY = 16  # a table's state snapshots itself every so many actions: an undo replays fewer
CHECKPOINTS_KEPT = 3  # the newest kept (RAM); an undo further back than these rebuilds from the start
_STATE_OWN = ("history", "_checkpoints")  # what a snapshot leaves out: the state's own record


def _copy(value, shared):
    """A deep copy of a state's value, sharing what cannot change (``_PLAIN`` values, functions,
    and the objects in ``shared``: the ruleset, its params). Kept small, lists and bytearrays
    first: on the Pico a larger frame is allocated at every call, and a call costs a list."""
    kind = type(value)
    if kind is list:
        value = list(value)
        for i in range(len(value)):
            if type(value[i]) not in _PLAIN:
                value[i] = _copy(value[i], shared)
        return value
    if kind is bytearray:
        return bytearray(value)
    if kind in _PLAIN:
        return value
    return _copy_other(value, kind, shared)


def _copy_other(value, kind, shared):
    for keep in shared:
        if value is keep:
            return value
    if kind is set:
        return set(value)
    copy = {} if kind is dict else None
    attrs = value if kind is dict else getattr(value, "__dict__", None)
    if attrs is None or callable(value):
        return value  # functions
    if copy is None:
        copy = object.__new__(kind)
    for key in attrs:
        item = attrs[key]
        if type(item) not in _PLAIN:
            item = _copy(item, shared)
        if kind is dict:
            copy[key] = item
        else:
            setattr(copy, key, item)
    return copy


class ScoreEvent:
    """A score change: ``points`` to ``seat`` by ``rule`` (a short code), with the arithmetic in ``detail``."""

    def __init__(self, seat, points, rule, detail, hand=0):
        self.seat = seat
        self.points = points
        self.rule = rule
        self.detail = detail
        self.hand = hand

    def __repr__(self):
        return "ScoreEvent(%d, %r, %r, %r, hand=%d)" % (self.seat, self.points, self.rule, self.detail, self.hand)

    def __eq__(self, other):
        return isinstance(other, ScoreEvent) and (self.seat, self.points, self.rule, self.detail, self.hand) == (
            other.seat,
            other.points,
            other.rule,
            other.detail,
            other.hand,
        )

    def text(self):
        """``P2 +10 fives: ends 5+5 = 10``"""
        sign = "+" if self.points >= 0 else ""
        return "P%d %s%s %s: %s" % (self.seat, sign, self.points, self.rule, self.detail)


class Outcome:
    """How a match ended: ``termination`` (e.g. ``"target"``), the winning seats, the final scores."""

    def __init__(self, termination, winners, scores):
        self.termination = termination
        self.winners = tuple(winners)
        self.scores = tuple(scores)

    def __repr__(self):
        return "Outcome(%r, %r, %r)" % (self.termination, self.winners, self.scores)


_PLAIN = (int, str, bool, tuple, float, type(None), ScoreEvent, Outcome)  # never changed in place


class LegalActions:
    """A lazy view of the legal actions: nothing is generated until iterated, nothing cached."""

    def __init__(self, state):
        self._state = state

    def __iter__(self):
        return iter(self._state.generate_legal_actions())

    def __contains__(self, action):
        return self._state.is_legal(action)

    def __bool__(self):
        for _ in self._state.generate_legal_actions():
            return True
        return False

    def __len__(self):
        return self.count()

    def count(self):
        return len(list(self._state.generate_legal_actions()))


class GameState:
    """Base class of a family's state. Subclasses implement the hooks marked below.

    ``options`` are constructor flags that cut across rulesets (e.g. partnerships); they
    are part of the record so a replay builds the same game.
    """

    family = ""
    shared = ("ruleset", "options", "p")  # attributes never changed in play: snapshots share them
    checkpoint_every = 0  # actions between snapshots; 0: none (a simulation's states undo rarely, and apply is its time)

    def __init__(self, ruleset, players, options=None):
        self.ruleset = ruleset
        self.players = players
        self.options = options or {}
        self.history = []
        self._checkpoints = []  # [(history length, snapshot)], oldest first
        self.score_events = []
        self.scores = [0] * players
        self.hand_number = 0

    # --- hooks ------------------------------------------------------------------------
    def current_player(self):
        """A seat, CHANCE, SIMULTANEOUS or TERMINAL."""
        raise NotImplementedError

    def generate_legal_actions(self):
        """Every legal action now, by any actor, in a stable sorted order."""
        raise NotImplementedError

    def chance_outcomes(self):
        """At a CHANCE node, the possible outcomes (equally likely)."""
        return []

    def _apply(self, action):
        raise NotImplementedError

    def outcome(self):
        """An ``Outcome`` once the match is over, else None."""
        raise NotImplementedError

    def action_str(self, action):
        """The canonical, context-free text of an action (what journals store)."""
        raise NotImplementedError

    def parse_action(self, text):
        """Inverse of ``action_str``. :raises IllegalAction: with ``E_TILE`` for text that is no action."""
        raise NotImplementedError

    def describe(self, action):
        """A sentence for people about ``action``, asked before it is applied but saying what is
        true after it (an end's new value, who takes the trick); defaults to the canonical text."""
        return self.action_str(action)

    def why_illegal(self, action):
        """None when legal, else ``(code, reason)``. Families override with specific reasons."""
        if self.is_over():
            return (E_OVER, "the match is over")
        for legal in self.generate_legal_actions():
            if legal == action:
                return None
        return (E_PHASE, "not a legal action now")

    # --- provided -----------------------------------------------------------------------
    @property
    def legal_actions(self):
        return LegalActions(self)

    def is_legal(self, action):
        return self.why_illegal(action) is None

    def is_over(self):
        return self.outcome() is not None

    def play(self, action):
        """Check and apply an action (or its canonical text); return the ScoreEvents it caused.

        :raises IllegalAction: with a reason code; the state is unchanged.
        """
        if isinstance(action, str):
            action = self.parse_action(action)
        problem = self.why_illegal(action)
        if problem is not None:
            raise IllegalAction(self.action_str(action), problem[0], problem[1])
        before = len(self.score_events)
        self.apply(action)
        return self.score_events[before:]

    def apply(self, action):
        """Apply an action without checking it (replay, simulation)."""
        history = self.history
        history.append(action)
        self._apply(action)
        if self.checkpoint_every and not len(history) % self.checkpoint_every:
            self.checkpoint()

    def award(self, seat, points, rule, detail):
        """Credit points to a seat and keep the explanation."""
        event = ScoreEvent(seat, points, rule, detail, self.hand_number)
        self.score_events.append(event)
        self.scores[seat] += points
        return event

    def fresh(self):
        """A new state of the same ruleset, players and options, before any action."""
        return self.__class__(self.ruleset, self.players, self.options)

    def clone(self):
        """An independent copy, rebuilt by replaying the history."""
        copy = self.fresh()
        for action in self.history:
            copy.apply(action)
        return copy

    def checkpoint(self):
        """Snapshot the state now (``apply`` calls it every ``checkpoint_every`` actions) so that an
        undo replays from here, not from the start; the oldest beyond ``CHECKPOINTS_KEPT`` go."""
        marks = self._checkpoints
        marks.append((len(self.history), self._snapshot()))
        if len(marks) > CHECKPOINTS_KEPT:
            marks.pop(0)

    def _snapshot(self):
        """``(names, values)`` of what play changes (a dict would cost RAM for its table); the
        attributes in ``shared`` stay out, and the names are the last checkpoint's while the
        state has the same attributes."""
        attrs = self.__dict__
        shared = self._shared_values()
        marks = self._checkpoints
        if marks and len(marks[-1][1][0]) + len(_STATE_OWN) + len(shared) == len(attrs):
            names = marks[-1][1][0]
        else:
            skip = self.shared
            names = tuple(key for key in attrs if key not in _STATE_OWN and key not in skip)
        values = []
        for key in names:
            value = attrs[key]
            values.append(value if type(value) in _PLAIN else _copy(value, shared))
        return names, values

    def _shared_values(self):
        attrs = self.__dict__
        return [attrs[name] for name in self.shared if name in attrs]

    def save(self):
        """A snapshot to ``restore`` after trying actions out (cheaper than undoing them)."""
        return len(self.history), self._snapshot()

    def restore(self, saved):
        """Go back to what ``save`` gave (used once: the snapshot becomes the state's)."""
        length, snapshot = saved
        self._go_back(length, snapshot, None)

    def undo(self, count=1):
        """Take back the last ``count`` actions and return the last one: the newest checkpoint at or
        before the new end is copied back (taken over when it is the new end) and the actions after
        it replayed (fewer than ``checkpoint_every`` while checkpoints reach back), so the cost does
        not grow with the match.

        :raises IndexError: when there are fewer than ``count`` actions to undo.
        """
        history = self.history
        target = len(history) - count
        if count < 1 or target < 0:
            raise IndexError("nothing to undo" if not history else "only %d actions to undo" % len(history))
        last = history[-1]
        marks = self._checkpoints
        while marks and marks[-1][0] > target:
            marks.pop()
        if marks:
            start, snapshot = marks[-1]
            shared = self._shared_values()
            if start == target:  # nothing to replay: the state takes the snapshot over, no copy
                marks.pop()
                shared = None
        else:
            rebuilt = self.fresh().__dict__
            names = tuple(key for key in rebuilt if key not in _STATE_OWN)
            start, snapshot, shared = 0, (names, [rebuilt[key] for key in names]), None
        replay = history[start:target]
        self._go_back(start, snapshot, shared)
        for action in replay:
            self.apply(action)
        return last

    def _go_back(self, length, snapshot, shared):
        """Cut the history to ``length`` actions and take the rest of the state from ``snapshot``:
        copied when given what to ``shared`` (a checkpoint stays for later undos), else taken over."""
        del self.history[length:]
        marks = self._checkpoints
        while marks and marks[-1][0] > length:
            marks.pop()
        names, values = snapshot
        for i in range(len(names)):  # not __dict__.update(): MicroPython's instance dict is read-only
            value = values[i]
            setattr(self, names[i], value if shared is None or type(value) in _PLAIN else _copy(value, shared))

    def record(self):
        """The match as a compact, serialisable record (see ``record.Record``)."""
        from tiletable.engine.record import Record

        return Record.of(self)
