"""A stored session replayed through the PC's engine: the basis of ``show``, ``replay``, ``plot`` and ``export``.

The journal holds actions as canonical text plus the scores the table awarded (REC_SCORE,
written after the action that caused them) and amendments (REC_UNDO). Replaying the actions
through the same engine explains every score (the rule and its arithmetic), finds the rule
violations the engine detects at the reveal, and shows where the PC disagrees with what the
table recorded (a different score, an action the engine refuses, an undo of something that
was not the last action).
"""
import json
from collections import Counter

from tiletable.engine.errors import IllegalAction
from tiletable.engine.rulesets import find_ruleset, load_ruleset, preset_names
from tiletable.engine.state import CHANCE, SIMULTANEOUS
from tiletable.record import (
    RECORD_NAMES,
    REC_CLOCK,
    REC_END,
    REC_GAP,
    REC_RESUME,
    varint_size,
    write_varint,
)
from tiletable.record_read import RecordVisitor, visit
from tiletable_host.errors import CommandError
from tiletable_host.people import score_scale, score_text, scores_text, seat_name


class Entry:
    """One journal record as read back: ``kind`` (header, action, score, ...), the record's
    ``text``, and for an action its time (``tenths`` of a second since the session started, None
    in journals from before actions had times), the hand, the actor, a sentence for people (the
    engine's, seats and hands from 0; an end's is ready to print: ``end_words``), the
    scores the engine awards for it (``engine_scores``) and those the table recorded
    (``table_scores``)."""

    def __init__(self, seq, kind, text, hand=0, actor=None, description=""):
        self.seq = seq
        self.kind = kind
        self.text = text
        self.tenths = None
        self.hand = hand
        self.actor = actor
        self.description = description
        self.engine_scores = []
        self.table_scores = []
        self.undone = False
        self.scores_after = None


class SessionReplay:
    """The result of ``replay_session``: entries, final state, divergences and violations."""

    def __init__(self, session, ruleset):
        self.session = session
        self.ruleset = ruleset
        self.state = None
        self.entries = []
        self.divergences = []
        self.violations = []
        self.table_totals = [0] * len(session["players"])

    def actions(self):
        return [e for e in self.entries if e.kind == "action"]


def resolve_ruleset(db, name, content_hash):
    """The ruleset a session was played with, found by content hash among the engine's presets
    and the rulesets this PC has synced (``db`` may be None: presets only).

    :raises CommandError: when neither has it.
    """
    try:
        preset = find_ruleset(name)
        if preset.hash == content_hash:
            return preset
    except (ValueError, ImportError):
        pass
    document = db.ruleset_document(content_hash) if db is not None else None
    if document is not None:
        return load_ruleset(document)
    for other in preset_names():
        ruleset = find_ruleset(other)
        if ruleset.hash == content_hash:
            return ruleset
    raise CommandError(
        "ruleset %r with hash %s is neither a preset of this engine nor one synced from this PC" % (name, content_hash)
    )


def session_scale(db, session):
    """The session's score units per point or chip (Buki: 2); 1 when its ruleset is not on
    this PC, so a listing still shows the session."""
    try:
        return score_scale(resolve_ruleset(db, session["ruleset"], session["hash"]), len(session["players"]))
    except CommandError:
        return 1


def replay_session(db, session_id):
    """Replay stored session ``session_id`` through the engine.

    :raises CommandError: for an unknown session or ruleset.
    """
    session = db.session(session_id)
    ruleset = resolve_ruleset(db, session["ruleset"], session["hash"])
    return replay_records(session, ruleset, db.session_records(session_id))


def replay_records(session, ruleset, records):
    """Replay a session's journal records ``(seq, rtype, payload)`` with ``ruleset``;
    ``session`` needs at least ``players`` (the names). What an undo takes back is
    ``record_read.visit``'s, as on the table."""
    replay = SessionReplay(session, ruleset)
    replay.state = ruleset.new_state(len(session["players"]))
    visit(records, _Replayer(replay))
    _compare_scores(replay)
    replay.violations = list(getattr(replay.state, "violations", []))
    return replay


class _Replayer(RecordVisitor):
    """Each record of a session as an ``Entry`` of ``replay``, its actions played on ``replay.state``."""

    def __init__(self, replay):
        self.replay = replay
        self.applied = []  # entries of the actions in effect, for undo
        self.last_action = None
        self.lost = False  # the engine could not follow: later actions are listed but not replayed

    def action(self, seq, text, tenths):
        replay = self.replay
        entry = _replay_action(replay, replay.state, seq, text, self.lost)
        self.lost = self.lost or entry is None
        if entry is None:
            entry = Entry(seq, "action", text, replay.state.hand_number, None, text)
        else:
            self.applied.append(entry)
        entry.tenths = tenths
        replay.entries.append(entry)
        self.last_action = entry

    def score(self, seq, seat, points, rule):
        self.replay.table_totals[seat] += points
        if self.last_action is not None:
            self.last_action.table_scores.append((seat, points, rule))
        self.replay.entries.append(Entry(seq, "score", "%d %d %s" % (seat, points, rule)))

    def undo(self, seq, target, taken):
        entry = Entry(seq, "undo", str(target))
        if taken and not self.lost:  # while not lost, every action in effect was applied
            self.replay.state.undo()
            undone = self.applied.pop()
            undone.undone = True
            for seat, points, _ in undone.table_scores:  # the table takes back its scores with the action
                self.replay.table_totals[seat] -= points
            entry.description = "undo of #%d (%s)" % (target, undone.description)
        else:
            entry.description = "undo of #%d" % target
            if not taken:
                self.replay.divergences.append("#%d: undo of record %d, which is not the last action in effect" % (seq, target))
        self.replay.entries.append(entry)

    def other(self, seq, rtype, text):
        description = self._end_words(text) if rtype == REC_END else _other_text(rtype, text)
        self.replay.entries.append(Entry(seq, RECORD_NAMES.get(rtype, "?"), text, description=description))

    def _end_words(self, text):
        """The end record ``text`` told for people, with the hand of the last action in effect."""
        replay = self.replay
        try:
            result = json.loads(text)
        except ValueError:
            return "end: %s" % text  # a damaged record: as it is
        last = self.applied[-1] if self.applied else None
        hand = 0 if last is None else last.hand + 1
        finished = last is not None and not self.lost and replay.state.hand_number > last.hand
        names = replay.session["players"]
        return end_words(result, names, score_scale(replay.ruleset, len(names)), hand, finished)


def timed_action_payload(tenths, text):
    """The payload of a ``REC_TIMED_ACTION`` record, as the table writes it."""
    payload = bytearray(varint_size(tenths))
    write_varint(payload, 0, tenths)
    return bytes(payload) + text.encode()


def elapsed_text(tenths):
    """A time since the session started as people read it: ``0:07.3``, ``1:02:05.0``."""
    minutes, tenth_seconds = divmod(tenths, 600)
    hours, minutes = divmod(minutes, 60)
    seconds = "%02d.%d" % divmod(tenth_seconds, 10)
    return "%d:%02d:%s" % (hours, minutes, seconds) if hours else "%d:%s" % (minutes, seconds)


def _replay_action(replay, state, seq, text, lost):
    """Apply one journalled action; the entry, or None when the engine cannot follow."""
    if lost:
        return None
    hand = state.hand_number
    actor = state.current_player()
    try:
        action = state.parse_action(text)
    except IllegalAction as exc:
        replay.divergences.append("#%d: %r is not an action of %s (%s); replay stops here" % (seq, text, replay.ruleset.name, exc.reason))
        return None
    problem = state.why_illegal(action)
    description = state.describe(action)
    if problem is not None:
        replay.divergences.append("#%d: %s is illegal here (%s), but the table accepted it" % (seq, text, problem[1]))
    before = len(state.score_events)
    try:
        state.apply(action)
    except Exception as exc:  # an illegal action the engine cannot even apply
        replay.divergences.append("#%d: %s cannot be applied (%r); replay stops here" % (seq, text, exc))
        return None
    entry = Entry(seq, "action", text, hand, None if actor in (CHANCE, SIMULTANEOUS) else actor, description)
    entry.engine_scores = state.score_events[before:]
    entry.scores_after = list(state.scores)
    return entry


def _parse_score(text):
    seat, points, rule = text.split(" ", 2)
    return int(seat), int(points), rule


# The table's reasons for ending a session that do not read as words by themselves.
_END_REASONS = {
    "unresumable": "ended (the table could not resume it)",
    "no room": "ended (the table had no room for it)",
}


def end_words(result, names, scale=1, hand=0, finished=False):
    """An end record's ``result`` (a dict) for people: ``ann won 61-40``, ``cy won: ann 1, bob
    17, cy 21``, ``stopped during hand 2: ann 35, bob 40``; ``hand``: the hand (from 1) of the
    session's last action in effect (0: none), ``finished``: the engine had finished it."""
    scores = result.get("scores")
    winners = result.get("winners")
    if winners and scores:
        who = " and ".join(seat_name(names, seat) for seat in winners)
        if len(scores) == 2 and len(winners) == 1:
            mine, theirs = scores[winners[0]], scores[1 - winners[0]]
            between = "-" if min(mine, theirs) >= 0 else " to "
            return "%s won %s%s%s" % (who, score_text(mine, scale), between, score_text(theirs, scale))
        return "%s won: %s" % (who, scores_text(names, scores, scale))
    reason = str(result.get("reason", "ended"))
    text = _END_REASONS.get(reason, reason)
    if hand:
        text += " %s hand %d" % ("after" if finished else "during", hand)
    else:
        text += " before the first action"
    if scores:
        text += ": " + scores_text(names, scores, scale)
    return text


def _other_text(rtype, text):
    if rtype == REC_RESUME:
        return "the table restarted (boot %s) and resumed the session" % text
    if rtype == REC_GAP:
        return "%s records lost while the journal was full" % text
    if rtype == REC_CLOCK:
        return "clock set to %s" % text
    return text


def _compare_scores(replay):
    for entry in replay.actions():
        if entry.undone or entry.scores_after is None:
            continue
        engine = Counter((e.seat, e.points, e.rule) for e in entry.engine_scores)
        table = Counter(entry.table_scores)
        if engine != table:
            replay.divergences.append(
                "#%d %s: the table scored %s, the engine %s"
                % (entry.seq, entry.text, _score_list(table) or "nothing", _score_list(engine) or "nothing")
            )
    engine_totals = list(replay.state.scores)
    if engine_totals != replay.table_totals:
        replay.divergences.append("final scores: the table has %s, the engine %s" % (replay.table_totals, engine_totals))


def _score_list(counter):
    return ", ".join("P%d %+d %s" % key for key in sorted(counter.elements()))


def result_of(session, scale=1):
    """A short text for a session's end record (``over: ann 61, bob -40``), or ``in progress``;
    ``scale``: score units per point or chip (``people.score_scale``)."""
    result = session["result"]
    if result is None:
        return "in progress"
    text = str(result.get("reason", "ended"))
    if "scores" in result:
        text += ": " + scores_text(session["players"], result["scores"], scale)
    return text
