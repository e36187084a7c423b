"""Game records: a header and the list of actions as canonical text.

A record replays a match exactly: ``Record.from_text(text).replay(ruleset)`` rebuilds
the state action by action through the checked ``play`` path, so a record that does not
follow the rules is reported with the action that broke it.

Text form (one header line, then actions separated by spaces, wrapped freely)::

    tiletable-record 1 ruleset=muggins hash=3f2a9c0d11b4e6a7 players=4
    D0:5-5 D0:1-4 ...
"""

from tiletable.engine.errors import IllegalAction, RecordError

_MAGIC = "tiletable-record"


class Record:
    def __init__(self, ruleset_name, ruleset_hash, players, options, actions):
        self.ruleset_name = ruleset_name
        self.ruleset_hash = ruleset_hash
        self.players = players
        self.options = options
        self.actions = actions

    @classmethod
    def of(cls, state):
        return cls(
            state.ruleset.name,
            state.ruleset.hash,
            state.players,
            dict(state.options),
            [state.action_str(a) for a in state.history],
        )

    def to_text(self):
        head = "%s 1 ruleset=%s hash=%s players=%d" % (_MAGIC, self.ruleset_name, self.ruleset_hash, self.players)
        for key in sorted(self.options):
            head += " %s=%s" % (key, _option_text(self.options[key]))
        return head + "\n" + " ".join(self.actions) + "\n"

    @classmethod
    def from_text(cls, text):
        """:raises RecordError: on a missing or malformed header."""
        lines = text.split("\n", 1)
        fields = lines[0].split()
        if len(fields) < 2 or fields[0] != _MAGIC or fields[1] != "1":
            raise RecordError("not a tiletable record (header %r)" % lines[0][:40])
        header = {}
        for item in fields[2:]:
            if "=" not in item:
                raise RecordError("bad header field %r" % item)
            key, value = item.split("=", 1)
            header[key] = value
        for key in ("ruleset", "hash", "players"):
            if key not in header:
                raise RecordError("record header lacks %r" % key)
        try:
            players = int(header.pop("players"))
        except ValueError:
            raise RecordError("bad player count %r" % header.get("players"))
        name = header.pop("ruleset")
        digest = header.pop("hash")
        options = {}
        for key in header:
            options[key] = _parse_option(header[key])
        actions = lines[1].split() if len(lines) > 1 else []
        return cls(name, digest, players, options, actions)

    def replay(self, ruleset, checked=True):
        """Rebuild the state from this record with the given ruleset.

        :raises RecordError: when the ruleset's hash differs from the record's, or an action
            does not parse or is illegal (the message names its index and text).
        """
        if ruleset.hash != self.ruleset_hash:
            raise RecordError(
                "record was made with ruleset %s (hash %s), not %s (hash %s)"
                % (self.ruleset_name, self.ruleset_hash, ruleset.name, ruleset.hash)
            )
        state = ruleset.new_state(self.players, self.options)
        for index, text in enumerate(self.actions):
            try:
                if checked:
                    state.play(text)
                else:
                    state.apply(state.parse_action(text))
            except IllegalAction as exc:
                raise RecordError("action %d %r: %s" % (index, text, exc.reason))
        return state


def _option_text(value):
    if value is True:
        return "true"
    if value is False:
        return "false"
    return str(value)


def _parse_option(text):
    if text == "true":
        return True
    if text == "false":
        return False
    if text.lstrip("-").isdigit():
        return int(text)
    return text
