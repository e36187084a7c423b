"""A match through the journal's record codec and back (tiletable/record.py, record_read.py).

The table journals a match as these records and resumes from them, and the PC imports them:
a test's round trip through them checks the one record format the project has. ``Replay`` is
a ``RecordVisitor`` that plays each action in effect as it is read, so a long match is never
held as a list of texts (the portable tests run in a 192 KB MicroPython heap).
"""
from tiletable.engine.rulesets import canonical_json
from tiletable.record import MAX_RECORD, REC_ACTION, REC_HEADER, encode_record, iter_records
from tiletable.record_read import RecordVisitor, visit


def records_of(state):
    """The match as journal records (bytes): its header, then each action of its history."""
    players = ["P%d" % (seat + 1) for seat in range(state.players)]
    header = {"ruleset": state.ruleset.name, "hash": state.ruleset.hash, "players": players}
    record = bytearray(MAX_RECORD)
    out = bytearray(record[: encode_record(record, 0, REC_HEADER, 1, canonical_json(header).encode())])
    for seq in range(len(state.history)):
        text = state.action_str(state.history[seq]).encode()
        out.extend(record[: encode_record(record, 0, REC_ACTION, seq + 2, text)])
    return bytes(out)


class Replay(RecordVisitor):
    """Rebuilds the match the records hold, every action through the checked ``play``."""

    def __init__(self, ruleset):
        self.ruleset = ruleset
        self.state = None

    def header(self, seq, header):
        if header["hash"] != self.ruleset.hash:
            raise ValueError("records of ruleset %s (hash %s), not %s" % (header["ruleset"], header["hash"], self.ruleset.hash))
        self.state = self.ruleset.new_state(len(header["players"]))

    def action(self, seq, text, tenths):
        self.state.play(text)

    def undo(self, seq, target, taken):
        if taken:
            self.state.undo()


def replayed(ruleset, records):
    """The state the journal records ``records`` (bytes) leave a match of ``ruleset`` in.

    :raises ValueError: records of another ruleset; IllegalAction, an action it does not take.
    """
    replay = Replay(ruleset)
    visit(iter_records(records), replay)
    return replay.state
