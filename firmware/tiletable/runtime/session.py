"""A match in play: its engine state, its journal session, and the checked act and undo.

The ``Table`` turns zones and buttons into engine actions and shows and announces what happened;
the ``Session`` is what it plays them on. ``check`` asks the engine whether an action is legal
now; ``apply`` plays a checked one and journals it with its score events; ``undo_last`` takes
the last action back as a journal amendment (``REC_UNDO``), never deleting it; ``replay``
rebuilds the match in progress from its journal records after a restart, every action through
the engine's checked path. ``seqs`` holds each action's journal sequence number, so an undo
amends the record it takes back.
"""
from tiletable.drivers.clock import ticks_add, ticks_diff


class Session:
    def __init__(self, journal, ruleset, state, player_names, seqs, started_ms, header_seq=0):
        self.journal = journal
        self.ruleset = ruleset
        self.state = state
        self.player_names = list(player_names)  # seat by seat (the menu's: P1, P2, ...)
        self.seqs = seqs  # the journal sequence number of each action in state.history
        self.started_ms = started_ms  # ticks when the session started, as its actions' times count
        self.header_seq = header_seq  # its header's journal sequence number (0: not journalled)

    @classmethod
    def start(cls, journal, ruleset, state, player_names, firmware, now_s, now_ms):
        """A new match: its journal session opened with its header (which is not journalled
        when the journal is full).

        :raises MemoryError: no room for the session file (the journal opened nothing).
        """
        seq = journal.start_session(ruleset.name, ruleset.hash, player_names, firmware, now_s)
        return cls(journal, ruleset, state, player_names, [], now_ms, seq)

    @classmethod
    def replay(cls, journal, ruleset, records, now_ms):
        """The match in progress rebuilt from ``records`` (a ``record_read.InEffect`` of the
        journal's session in progress).

        :raises ValueError: the ruleset changed since the session started.
        :raises IllegalAction: a journalled action the engine does not take (a ValueError).
        """
        header = records.start
        if ruleset.hash != header["hash"]:
            raise ValueError("ruleset %r changed since the session started" % header["ruleset"])
        state = ruleset.new_state(len(header["players"]))
        for _, text in records.actions:
            state.play(text)
        # the session's clock goes on from the last action's time
        started_ms = ticks_add(now_ms, -100 * records.tenths)
        return cls(journal, ruleset, state, header["players"], [seq for seq, _ in records.actions], started_ms)

    def check(self, action):
        """``action`` (an engine value or canonical text) as an engine value, when legal now.

        :raises IllegalAction: not legal now (or not an action of this game).
        """
        return self.state.check(action)

    def apply(self, action, now_ms):
        """Play a checked action and journal it with the score events it made (its sequence
        number is ``seqs[-1]``); returns its text."""
        state = self.state
        journal = self.journal
        before = len(state.score_events)
        # apply, not push: a snapshot copies the whole state before every play (the deal's
        # tiles too), time the chip owes the next tile's LEDs; a table's undo is rare, and
        # rebuilding the state from the history then costs nothing while nobody plays
        state.apply(action)
        text = state.action_str(action)
        self.seqs.append(journal.log_action(text, max(0, ticks_diff(now_ms, self.started_ms)) // 100))
        for event in state.score_events[before:]:
            journal.log_score(event.seat, event.points, event.rule)
        return text

    def undo_last(self):
        """Take back the last action, amended in the journal; returns its text and sequence
        number (0 when it was never journalled)."""
        state = self.state
        text = state.action_str(state.history[-1])
        state.undo()
        seq = self.seqs.pop()
        if seq:
            self.journal.log_undo(seq)
        return text, seq

    def result(self, reason):
        """The end record's result: why, and the game's scores and outcome."""
        state = self.state
        result = {"reason": reason, "scores": list(state.scores)}
        outcome = state.outcome()
        if outcome is not None:
            result["termination"] = outcome.termination
            result["winners"] = list(outcome.winners)
        return result
