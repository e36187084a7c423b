"""Tile game records: the open, plain-text record format of ``docs/RECORD.md`` (``.tgr``).

A record is a header of ``[Tag value]`` lines (event, site, date and time, table, the
ruleset by name, family, version, parameters and content hash, the players by seat, the
result, and how the table ended the session) and a body of ``Hand N`` markers and lines of
actions in the engine's canonical text, each optionally preceded by its time (``19:04:05``
UTC, or ``+0:07.3`` since the session started, as ``export`` writes the table's journal times)
and followed by the scores it caused (``{P0 +10 fives: ends 5x2 = 10}``, Buki's in chips:
``{P1 +37.5 payout: ...}``); ``undo`` takes back the last action in effect; ``;`` starts a
comment. Like PGN for chess it stores actions, not positions: replaying them through the engine
(``check_record``) rebuilds the game and proves every score, so any program can keep, share and
check a game; and it keeps all the journal says of a session, so export, import and export again
give the same bytes.
"""
import calendar
import hashlib
import json
import re
import time
from collections import Counter
from fractions import Fraction

import tiletable_host  # noqa: F401  (puts firmware/ on sys.path)
from tiletable.engine.errors import IllegalAction, RulesetError
from tiletable.engine.ruleset_checks import validate_params
from tiletable.engine.rulesets import canonical_json, load_ruleset, schema_module
from tiletable.record import REC_ACTION, REC_END, REC_HEADER, REC_SCORE, REC_TIMED_ACTION, REC_UNDO, parse_json_payload
from tiletable_host.errors import CommandError
from tiletable_host.people import for_people, score_scale, score_text
from tiletable_host.sessionlog import elapsed_text, replay_session, timed_action_payload

FORMAT = "tiletable-record 1"
EXTENSION = ".tgr"

# The tags every record carries, in the order they are written.
REQUIRED_TAGS = ("Format", "Event", "Site", "Date", "Time", "Table", "Ruleset", "Family", "Version", "Params", "Hash")
_TAG = re.compile(r"^\[([A-Za-z][A-Za-z0-9]*) (.*)\]$")
_SEAT_TAG = re.compile(r"^Seat([0-9]+)$")
_TIME = re.compile(r"^([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9]$")
_ELAPSED = re.compile(r"^\+(?:([0-9]+):(?=[0-5][0-9]:))?([0-9]+):([0-5][0-9])(?:\.([0-9]))?$")
DAY_TENTHS = 24 * 3600 * 10
_SCORE = re.compile(r"^P([0-9]+) ([+-]?[0-9]+(?:\.[0-9]+)?) (\S+)(?:: (.*))?$")
_HAND = re.compile(r"^Hand ([0-9]+)$")
_END = re.compile(r"^(.*?[^ 0-9+.-].*?)((?: [+-]?[0-9]+(?:\.[0-9]+)?)*)$")  # a reason, then scores by seat
UNDO = "undo"  # the body's token that takes back the last action in effect
NO_END = "*"  # the End tag of a session the table has not ended


class RecordFileError(CommandError):
    """A record that does not parse or does not check; the message starts with its line number."""

    def __init__(self, line, message):
        super().__init__("line %d: %s" % (line, message))
        self.line = line


class Score:
    """A score comment: ``points`` to ``seat`` by ``rule``, with the arithmetic in ``detail``.
    ``points`` are the engine's units, ``scale`` of them a point or chip as the comment writes
    it (Buki: 2 half-chips, ``+37.5``); a comment read from text holds ``written`` until
    ``in_units`` learns the game's scale."""

    def __init__(self, seat, points, rule, detail="", scale=1, written=None):
        self.seat = seat
        self.points = points
        self.rule = rule
        self.detail = detail
        self.scale = scale
        self.written = written

    def key(self):
        return (self.seat, self.points, self.rule)

    def in_units(self, scale, line):
        """Set ``points`` from the comment's points as written, in a game of ``scale``.

        :raises RecordFileError: points that are no whole number of the game's units.
        """
        if self.written is not None:
            units = Fraction(self.written) * scale
            if units.denominator != 1:
                raise RecordFileError(line, "score comment P%d %s: not a whole number of this game's points (or Buki's half chips)" % (self.seat, self.written))
            self.points, self.scale = int(units), scale

    def text(self):
        """``{P0 +10 fives: ends 5x2 = 10}``; braces and ``;`` in the detail become ``()`` and ``,``
        so the comment reads back whole."""
        detail = self.detail.replace("{", "(").replace("}", ")").replace(";", ",")
        points = score_text(self.points, self.scale, signed=True)
        return "{P%d %s %s%s}" % (self.seat, points, self.rule, ": " + detail if detail else "")


class Move:
    """One action of the body: its canonical ``text``, the ``line`` it is on, its time as
    written (``clock``: ``HH:MM:SS``, ``+M:SS.d`` or None), the ``scores`` written after it
    and the hand marker before it."""

    def __init__(self, text, line, clock=None, hand=None):
        self.text = text
        self.line = line
        self.clock = clock
        self.hand = hand
        self.scores = []
        self.note = ""


class GameRecord:
    """A parsed record: ``tags`` (name -> value), ``tag_lines`` (name -> line number), ``moves``."""

    def __init__(self, tags=None):
        self.tags = dict(tags or {})
        self.tag_lines = {}
        self.moves = []
        self.last_hand = 0  # the hand of the last action in effect, once checked (check_record)
        self._hand = None

    def add(self, text, hand, scores=(), note="", clock=None):
        """Append an action of hand ``hand`` (a marker is written where the hand changes;
        None: no marker, as for an ``undo``)."""
        move = Move(text, 0, clock, None if hand is None or hand == self._hand else hand)
        self._hand = self._hand if hand is None else hand
        move.scores = list(scores)
        move.note = note
        self.moves.append(move)

    def players(self):
        """The player names, by seat (``Seat0``, ``Seat1``, ...)."""
        seats = sorted((int(_SEAT_TAG.match(k).group(1)), v) for k, v in self.tags.items() if _SEAT_TAG.match(k))
        return [name for _, name in seats]

    def line_of(self, tag):
        return self.tag_lines.get(tag, 1)

    def start_time(self):
        """The Unix time of the ``Date`` and ``Time`` tags (UTC), or None when either is unknown."""
        date, clock = self.tags.get("Date", "?"), self.tags.get("Time", "?")
        try:
            return calendar.timegm(time.strptime(date + " " + clock, "%Y.%m.%d %H:%M:%S"))
        except ValueError:
            return None

    def action_times(self):
        """Each move's time in tenths of a second since the session started, or None: from
        ``+M:SS.d`` as written, from ``HH:MM:SS`` when the record's start time is known (a time
        earlier than the one before it is on the next day)."""
        start = self.start_time()
        times = []
        last = 0
        for move in self.moves:
            tenths = elapsed_tenths(move.clock) if move.clock else None
            if tenths is None and move.clock and start is not None:
                hours, minutes, seconds = (int(part) for part in move.clock.split(":"))
                of_day = ((hours * 60 + minutes) * 60 + seconds - start) % 86400 * 10
                tenths = last - last % DAY_TENTHS + of_day
                if tenths < last:
                    tenths += DAY_TENTHS
            if tenths is not None:
                last = tenths
            times.append(tenths)
        return times

    def to_text(self):
        """The record as text: the tags, a blank line, the body."""
        lines = ["[%s %s]" % (tag, self.tags[tag]) for tag in _ordered_tags(self.tags)]
        lines.append("")
        hand = None
        chance_line = []
        for move in self.moves:
            if move.hand is not None and move.hand != hand:
                _flush(lines, chance_line)
                hand = move.hand
                lines.append("Hand %d" % hand)
            if move.note == "" and not move.scores and move.clock is None:
                chance_line.append(move.text)  # deals and draws: many to a line
                if len(" ".join(chance_line)) > 90:
                    _flush(lines, chance_line)
                continue
            _flush(lines, chance_line)
            parts = ([move.clock] if move.clock else []) + [move.text] + [s.text() for s in move.scores]
            lines.append(" ".join(parts) + ("  ; " + move.note if move.note else ""))
        _flush(lines, chance_line)
        return "\n".join(lines) + "\n"


def _flush(lines, chance_line):
    if chance_line:
        lines.append(" ".join(chance_line))
        del chance_line[:]


def _ordered_tags(tags):
    seats = sorted((k for k in tags if _SEAT_TAG.match(k)), key=lambda k: int(k[4:]))
    rest = sorted(k for k in tags if k not in REQUIRED_TAGS and k not in seats and k not in ("Result", "End"))
    ending = [k for k in ("Result", "End") if k in tags]
    return [k for k in REQUIRED_TAGS if k in tags] + seats + ending + rest


# ----- reading


def parse_records(text):
    """Every record in ``text`` (a file may hold several, each starting with its ``Format`` tag).

    :raises RecordFileError: at the first line that is not a tag, a hand marker, a time, an
        action or a score comment, or a record that lacks a required tag.
    """
    records = []
    record = None
    in_body = False
    hand = None
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line.startswith("["):  # a tag's value may hold a ";" (an event, a name)
            line = line.split(";", 1)[0].strip()
        if not line:
            continue
        tag = _TAG.match(line)
        if tag and (record is None or in_body):
            record, in_body, hand = GameRecord(), False, None
            records.append(record)
        if tag:
            name, value = tag.group(1), tag.group(2).strip()
            if in_body:
                raise RecordFileError(number, "tag %r after the actions began (a new record starts with [Format ...])" % name)
            if name in record.tags:
                raise RecordFileError(number, "tag %r given twice" % name)
            record.tags[name] = value
            record.tag_lines[name] = number
            continue
        if record is None:
            raise RecordFileError(number, "expected the record's header ([Format %s]), found %r" % (FORMAT, line[:40]))
        if not in_body:
            _check_header(record, number)
            in_body = True
        marker = _HAND.match(line)
        if marker:
            hand = int(marker.group(1))
            continue
        _parse_body_line(record, line, number, hand)
        hand = None
    if record is not None and not in_body:
        _check_header(record, len(text.splitlines()))
    if not records:
        raise RecordFileError(1, "no record found (a record starts with [Format %s])" % FORMAT)
    return records


def _check_header(record, number):
    if record.tags.get("Format") != FORMAT:
        raise RecordFileError(record.line_of("Format"), "format %r is not %r" % (record.tags.get("Format"), FORMAT))
    for tag in REQUIRED_TAGS:
        if tag not in record.tags:
            raise RecordFileError(number, "the header lacks the %s tag" % tag)
    if not record.players():
        raise RecordFileError(number, "the header names no players (Seat0, Seat1, ...)")


def _parse_body_line(record, line, number, hand):
    """Split a body line into times, actions and ``{...}`` score comments."""
    clock = None
    rest = line
    while rest:
        rest = rest.lstrip()
        if rest.startswith("{"):
            end = rest.find("}")
            if end < 0:
                raise RecordFileError(number, "score comment %r is not closed with }" % rest[:40])
            if not record.moves or hand is not None:
                raise RecordFileError(number, "score comment %r follows no action of its hand" % rest[: end + 1])
            record.moves[-1].scores.append(_parse_score(rest[1:end].strip(), number))
            rest = rest[end + 1 :]
            continue
        token, _, rest = rest.partition(" ")
        if "}" in token or "{" in token:
            raise RecordFileError(number, "misplaced brace in %r" % token)
        if _TIME.match(token) or _ELAPSED.match(token):
            clock = token
            continue
        if token == UNDO and clock is not None:
            raise RecordFileError(number, "time %s before undo (an undo has no time of its own)" % clock)
        record.moves.append(Move(token, number, clock, hand))
        clock = hand = None
    if clock is not None:
        raise RecordFileError(number, "time %s is followed by no action" % clock)


def elapsed_tenths(token):
    """``+1:02:05.3`` or ``+0:07`` as tenths of a second; None for any other text."""
    match = _ELAPSED.match(token)
    if not match:
        return None
    hours, minutes, seconds, tenth = (int(part or 0) for part in match.groups())
    return ((hours * 60 + minutes) * 60 + seconds) * 10 + tenth


def _parse_score(text, number):
    match = _SCORE.match(text)
    if not match:
        raise RecordFileError(number, "score comment {%s} is not of the form {P<seat> <points> <rule>: <detail>}" % text)
    return Score(int(match.group(1)), None, match.group(3), match.group(4) or "", written=match.group(2))


# ----- checking


def ruleset_of(record):
    """The ruleset a record names, rebuilt from its family, name, version and parameters; its
    content hash must be the record's ``Hash``.

    :raises RecordFileError: for parameters the engine refuses or a hash that differs.
    """
    line = record.line_of("Params")
    try:
        params = json.loads(record.tags["Params"])
        version = int(record.tags["Version"])
    except ValueError as exc:
        raise RecordFileError(line, "parameters or version do not parse (%s)" % exc)
    document = {"family": record.tags["Family"], "name": record.tags["Ruleset"], "version": version, "params": params}
    try:
        ruleset = load_ruleset(document)
    except (RulesetError, ValueError, TypeError) as exc:
        raise RecordFileError(line, "the ruleset does not load: %s" % exc)
    if ruleset.hash != record.tags["Hash"]:
        raise RecordFileError(
            record.line_of("Hash"),
            "hash %s is not the content hash of ruleset %s with these parameters (%s)" % (record.tags["Hash"], ruleset.name, ruleset.hash),
        )
    return ruleset


def check_record(record):
    """Replay ``record`` through the engine's checked path and return the final state; the
    hand of its last action in effect (from 1, 0 when none) is then ``record.last_hand``.

    :raises RecordFileError: at the first wrong hash, illegal action, undo with nothing to take
        back, hand marker that is not the engine's hand, score comment that disagrees with the
        engine, or wrong result or end.
    """
    ruleset = ruleset_of(record)
    try:
        state = ruleset.new_state(len(record.players()))
    except RulesetError as exc:
        raise RecordFileError(record.line_of("Seat0"), str(exc))
    scale = getattr(state, "score_scale", 1)
    for move in record.moves:
        for score in move.scores:
            score.in_units(scale, move.line)
    hands = []  # the hand of each action in effect, from 1
    for move in record.moves:
        if move.hand is not None and move.hand != state.hand_number + 1:
            raise RecordFileError(move.line, "hand marker says hand %d, but the engine is in hand %d" % (move.hand, state.hand_number + 1))
        if move.text == UNDO:
            if not hands:
                raise RecordFileError(move.line, "undo, but no action is in effect to take back")
            if move.scores:
                written = _score_list(Counter(s.key() for s in move.scores), scale)
                raise RecordFileError(move.line, "an undo scores nothing, but the record scores %s" % written)
            state.undo()
            hands.pop()
            continue
        hands.append(state.hand_number + 1)
        try:
            events = state.play(move.text)
        except IllegalAction as exc:
            raise RecordFileError(move.line, "illegal action %r: %s" % (move.text, exc.reason))
        engine = Counter((e.seat, e.points, e.rule) for e in events)
        written = Counter(s.key() for s in move.scores)
        if engine != written:
            raise RecordFileError(
                move.line,
                "after %s the record scores %s, the engine %s"
                % (move.text, _score_list(written, scale) or "nothing", " ".join(_engine_score_text(e, scale) for e in events) or "nothing"),
            )
    expected = result_text(state)
    if record.tags.get("Result", expected) != expected:
        raise RecordFileError(record.line_of("Result"), "result %r, but the engine ends with %r" % (record.tags["Result"], expected))
    if record.tags.get("End", NO_END) != NO_END:
        _check_end(record, state)
    record.last_hand = hands[-1] if hands else 0
    return state


def _check_end(record, state):
    """The ``End`` tag reads, and its scores (when it has them) are the engine's final scores."""
    line = record.line_of("End")
    end = end_of(record, getattr(state, "score_scale", 1))
    if end is None:
        raise RecordFileError(line, "end %r is not a reason followed by the scores by seat" % record.tags["End"])
    scores = end.get("scores")
    if scores is not None and scores != list(state.scores):
        raise RecordFileError(
            line, "end %r, but the engine ends with the scores %s" % (record.tags["End"], " ".join(str(s) for s in state.scores))
        )


def _score_list(counter, scale):
    return ", ".join("P%d %s %s" % (seat, score_text(points, scale, signed=True), rule) for seat, points, rule in sorted(counter.elements()))


def _engine_score_text(event, scale):
    """An engine's ScoreEvent as a score comment writes it (Buki in chips)."""
    return "P%d %s %s: %s" % (event.seat, score_text(event.points, scale, signed=True), event.rule, event.detail)


def result_text(state):
    """``target 78 202`` for a match that ended (Buki's chips: ``games -23 67.5 -25.5 -19``),
    ``*`` for one still in progress."""
    outcome = state.outcome()
    if outcome is None:
        return "*"
    scale = getattr(state, "score_scale", 1)
    return " ".join([str(outcome.termination)] + [score_text(s, scale) for s in outcome.scores])


def end_text(result, scale=1):
    """The ``End`` tag of a session the table ended with the end record ``result`` (a dict):
    its reason, then the scores by seat when it kept them (``stopped 35 40``, ``abandoned``;
    Buki's in chips, as ``Result``); ``*`` for None, a session the table has not ended."""
    if result is None:
        return NO_END
    scores = result.get("scores")
    return " ".join([str(result.get("reason", "ended"))] + [score_text(s, scale) for s in scores or ()])


def end_of(record, scale=1):
    """The record's ``End`` tag as the end record's reason and scores in the engine's units
    (``{"reason": "stopped", "scores": [35, 40]}``; no scores when it gives none); None when the
    tag is absent or ``*``, or does not read (no reason, scores not one per seat, or not whole
    units of the game: ``scale`` units make a point or chip)."""
    match = _END.match(record.tags.get("End", NO_END))
    if match is None or match.group(0) == NO_END:
        return None
    end = {"reason": match.group(1).strip()}
    units = [Fraction(s) * scale for s in match.group(2).split()]
    if any(u.denominator != 1 for u in units):
        return None
    scores = [int(u) for u in units]
    if scores:
        if len(scores) != len(record.players()):
            return None
        end["scores"] = scores
    return end


def end_record(record, state):
    """The end record (``REC_END``'s dict) of the session ``record`` holds, ``state`` its final
    state, as the table writes it: the ``End`` tag's reason and scores, with the match's
    termination and winners when it is over; None for ``[End *]``. A record from before the
    ``End`` tag whose match is over ended as the table ends a match played out (``over``)."""
    if "End" not in record.tags:
        if state.outcome() is None:
            return None
        end = {"reason": "over", "scores": list(state.scores)}
    else:
        end = end_of(record, getattr(state, "score_scale", 1))
        if end is None:
            return None
    outcome = state.outcome()
    if "scores" in end and outcome is not None:  # what Session.result adds for a match that is over
        end["termination"] = outcome.termination
        end["winners"] = list(outcome.winners)
    return end


# ----- writing


def params_text(ruleset):
    """The parameters that differ from the family's defaults, as canonical JSON (short, and
    enough to rebuild the ruleset and its hash)."""
    defaults = validate_params(ruleset.name, schema_module(ruleset.family).PARAMS, {})
    return canonical_json({k: v for k, v in ruleset.params.items() if defaults.get(k) != v})


def header_tags(ruleset, players, start_time=None, table="?", event="?", site="?"):
    """The header of a record of a match of ``ruleset`` between ``players``."""
    tags = {
        "Format": FORMAT,
        "Event": event or "?",
        "Site": site or "?",
        "Date": time.strftime("%Y.%m.%d", time.gmtime(start_time)) if start_time is not None else "????.??.??",
        "Time": time.strftime("%H:%M:%S", time.gmtime(start_time)) if start_time is not None else "??:??:??",
        "Table": table or "?",
        "Ruleset": ruleset.name,
        "Family": ruleset.family,
        "Version": str(ruleset.version),
        "Params": params_text(ruleset),
        "Hash": ruleset.hash,
    }
    for seat, name in enumerate(players):
        tags["Seat%d" % seat] = name
    return {tag: " ".join(str(value).split()) for tag, value in tags.items()}  # one line each


def record_of_replay(replay, header):
    """A record of a stored session replayed by ``sessionlog.replay_session``: the actions in
    effect (an undone action becomes a comment on the next), with the table's scores explained
    by the engine's arithmetic, and a human sentence beside every play. The ``;`` comments are
    for people and name the players; the actions and the score comments count seats from 0."""
    session = replay.session
    tags = header_tags(
        replay.ruleset,
        session["players"],
        session["time"],
        header.get("table", session["table"]),
        header.get("event"),
        header.get("site"),
    )
    tags["Result"] = result_text(replay.state)
    names = session["players"]
    scale = score_scale(replay.ruleset, len(names))
    tags["End"] = end_text(session["result"], scale)
    record = GameRecord(tags)
    in_effect = []  # the actions written and not taken back
    for entry in replay.entries:
        if entry.kind == "undo" and in_effect and entry.text == str(in_effect[-1].seq):
            record.add(UNDO, None, note="taken back: %s" % in_effect.pop().text)
            continue
        if entry.kind != "action":
            continue
        details = {(e.seat, e.points, e.rule): e.detail for e in entry.engine_scores}
        scores = [Score(seat, points, rule, details.get((seat, points, rule), ""), scale) for seat, points, rule in entry.table_scores]
        note = for_people(entry.description, names) if entry.actor is not None else ""
        # a player's action with its time; deals and draws stay many to a line
        clock = "+" + elapsed_text(entry.tenths) if entry.tenths is not None and entry.actor is not None else None
        record.add(entry.text, entry.hand + 1, scores, note, clock)
        in_effect.append(entry)
    return record


def session_records_text(db, sessions, event=None, site=None):
    """Yield the text of a record of each stored session: ``event`` and ``site`` when given,
    else those (and the table) the session was imported with, if it was."""
    for session in sessions:
        stored = db.session_records(session["id"])
        header = parse_json_payload(stored[0][2]) if stored and stored[0][1] == REC_HEADER else {}
        header.update((key, value) for key, value in (("event", event), ("site", site)) if value)
        yield record_of_replay(replay_session(db, session["id"]), header).to_text()


# ----- importing


def journal_records(record, state):
    """The record as the journal records a table writes: ``(seq, type, payload)`` from 1
    (scores in the engine's units: Buki's chips back in half-chips); ``state``: the match the
    record leaves (``check_record``)."""
    ruleset = state.ruleset
    scale = score_scale(ruleset, len(record.players()))
    header = {
        "ruleset": ruleset.name,
        "hash": ruleset.hash,
        "players": record.players(),
        "boot": None,
        "firmware": "record",
        "time": record.start_time(),
        "table": record.tags["Table"],
        "event": record.tags["Event"],
        "site": record.tags["Site"],
    }
    rows = [(REC_HEADER, canonical_json(header).encode())]
    in_effect = []  # the sequence numbers of the actions in effect, for an undo to name
    for move, tenths in zip(record.moves, record.action_times()):
        if move.text == UNDO:
            rows.append((REC_UNDO, str(in_effect.pop()).encode()))
            continue
        in_effect.append(len(rows) + 1)
        if tenths is None:
            rows.append((REC_ACTION, move.text.encode()))
        else:
            rows.append((REC_TIMED_ACTION, timed_action_payload(tenths, move.text)))
        for score in move.scores:
            score.in_units(scale, move.line)
        rows.extend((REC_SCORE, ("%d %d %s" % score.key()).encode()) for score in move.scores)
    end = end_record(record, state)
    if end is not None:
        rows.append((REC_END, canonical_json(end).encode()))
    return [(seq, rtype, payload) for seq, (rtype, payload) in enumerate(rows, 1)]


def import_device(record):
    """The device name an imported record is stored under: ``import-`` and a digest of its
    content, so importing it again stores nothing and no real table's numbering is touched."""
    digest = hashlib.sha256(record.to_text().encode()).hexdigest()[:12]
    return "import-" + digest


def read_records(path):
    """The records of the file at ``path``, each checked against the engine, with its final state.

    :raises CommandError: for a file that cannot be read, and (as ``RecordFileError``, the
        message prefixed with the file name) for the first problem in any record.
    """
    try:
        with open(path, encoding="utf-8") as handle:
            text = handle.read()
    except (OSError, UnicodeDecodeError) as exc:
        raise CommandError("cannot read %s: %s" % (path, exc))
    try:
        records = parse_records(text)
        return [(record, check_record(record)) for record in records]
    except RecordFileError as exc:
        raise CommandError("%s: %s" % (path, exc))


def summary(record, state):
    """``muggins, ann v bob: 212 actions up to hand 3, target 78 202`` (or ``stopped 35 40``, or
    ``in progress``), of a record ``check_record`` has read: the hand is its last action's (in
    effect)."""
    status = result_text(state) if state.outcome() is not None else record.tags.get("End", NO_END)
    if status == NO_END:
        status = "in progress"
    played = "%d actions up to hand %d" % (len(state.history), record.last_hand) if state.history else "no actions"
    return "%s, %s: %s, %s" % (record.tags["Ruleset"], " v ".join(record.players()), played, status)
