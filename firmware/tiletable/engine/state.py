"""The state API every game family shares (after python-chess's Board and OpenSpiel's State).

A ``GameState`` is one match (a run of hands) of one ruleset. Everything that happens
is an *action* in ``history``, chance included (deals, draws, reveals), so the history
alone replays the match on the host exactly as it went on the table.

* ``current_player()`` -> a seat, ``CHANCE``, ``SIMULTANEOUS`` or ``TERMINAL``
* ``legal_actions()`` -> a lazy view: iterate it, test ``a in state.legal_actions()``, ``count()``
* ``play(a)`` checks and raises ``IllegalAction`` (state unchanged); ``apply(a)`` trusts its caller
* ``undo()`` takes back the last action (``push(a)`` applies keeping a snapshot that an
  undo restores, as python-chess's ``push``/``pop``); ``outcome()`` is None until the match ends
* every score change is a ``ScoreEvent`` saying which rule gave it and the arithmetic

Actions are small ints or tuples chosen by each family; their canonical text
(``action_str``/``parse_action``) is what journals store.
"""

from tiletable.engine.errors import E_OVER, E_PHASE, IllegalAction

CHANCE = -1
SIMULTANEOUS = -2
TERMINAL = -4


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
    """Base class of a family's state. Subclasses implement the hooks marked below."""

    family = ""
    shared = ("ruleset",)  # attributes play never changes: an undo snapshot shares them

    def __init__(self, ruleset, players):
        self.ruleset = ruleset
        self.players = players
        self.history = []
        self._undo = None  # push's snapshot (engine/snapshot.py)
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
    def legal_actions(self):
        """A method as in OpenSpiel, not python-chess's property: on MicroPython a class with a
        property looks every attribute stored on its instances up in its bases first (an
        RP2040 took 110 us a store on a line game's state, 6 us without)."""
        return LegalActions(self)

    def is_legal(self, action):
        return self.why_illegal(action) is None

    def is_over(self):
        return self.outcome() is not None

    def check(self, action):
        """``action`` (an action or its canonical text) as an action, when it is legal now.

        :raises IllegalAction: with a reason code (text that is no action: ``E_TILE``).
        """
        if isinstance(action, str):
            action = self.parse_action(action)
        problem = self.why_illegal(action)
        if problem is not None:
            raise IllegalAction(self.action_str(action), problem[0], problem[1])
        return action

    def play(self, action):
        """Check and apply an action (or its canonical text); return the ScoreEvents it caused.

        :raises IllegalAction: with a reason code; the state is unchanged.
        """
        action = self.check(action)
        before = len(self.score_events)
        self.apply(action)
        return self.score_events[before:]

    def apply(self, action):
        """Apply an action without checking it (replay, simulation)."""
        self.history.append(action)
        self._apply(action)

    def push(self, action):
        """Apply an action keeping a snapshot of the state before it, so that ``undo`` restores
        it instead of replaying the match (the table's path: only the last push is kept, RAM)."""
        from tiletable.engine.snapshot import take  # not at boot, nor in simulations

        self._undo = take(self)
        self.apply(action)

    def award(self, seat, points, rule, detail):
        """Credit points to a seat and keep the explanation."""
        event = ScoreEvent(seat, points, rule, detail, self.hand_number)
        self.score_events.append(event)
        self.scores[seat] += points
        return event

    def fresh(self):
        """A new state of the same ruleset and players, before any action."""
        return self.__class__(self.ruleset, self.players)

    def clone(self):
        """An independent copy, rebuilt by replaying the history."""
        copy = self.fresh()
        for action in self.history:
            copy.apply(action)
        return copy

    def undo(self):
        """Take back the last action: the snapshot of ``push`` when it was pushed, else rebuilt
        from the history (exact, and cheap in RAM).

        :raises IndexError: when there is nothing to undo.
        """
        if not self.history:
            raise IndexError("nothing to undo")
        saved = self._undo
        self._undo = None
        if saved is not None and saved[0] == len(self.history) - 1:
            from tiletable.engine.snapshot import restore

            return restore(self, saved)
        copy = self.fresh()
        history = self.history
        for i in range(len(history) - 1):  # no slice: a long match's history is a big block
            copy.apply(history[i])
        last = history[-1]
        rebuilt = copy.__dict__
        for key in rebuilt:  # not __dict__.update(): MicroPython's instance dict is read-only
            setattr(self, key, rebuilt[key])
        return last
