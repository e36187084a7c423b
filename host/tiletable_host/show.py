"""``tiletable show SESSION``: a readable record of every hand of a stored session.

Each action carries its time since the session started (``0:07.3``) when the table's journal
kept one. Plays, draws, passes and claims are told in the engine's words (``state.describe``),
which say what is true after them; deals and other chance events are grouped on one line; each
score carries its rule and arithmetic; undos, restarts and gaps are shown where they happened;
the violations the engine finds at the reveal and every disagreement with the table's own
record close the report. Seats are named as people know them (``people``): from 1, with the
players' names.

    tiletable show 12 --db club.db
"""
from tiletable_host import db as dbmod
from tiletable_host import dbtarget
from tiletable_host.people import chance_text, for_people, players_text, score_event_text, score_scale, scores_text
from tiletable_host.sessionlog import elapsed_text, replay_session, result_of


def configure(parser):
    parser.add_argument("session", type=int, metavar="SESSION", help="session id (see `tiletable sessions`)")
    parser.add_argument("--db", default=None, help=dbtarget.HELP % dbmod.default_path())


def render_session(replay):
    """The report as a list of lines."""
    session = replay.session
    names = session["players"]
    scale = score_scale(replay.ruleset, len(names))
    lines = [
        "session %d: %s (hash %s) on %s, %s, firmware %s"
        % (session["id"], session["ruleset"], session["hash"], session["table"], session["started"], session["firmware"]),
        "players: " + players_text(names),
        "result: " + result_of(session, scale),
    ]
    hand = None
    chance = []
    timed = any(e.tenths is not None for e in replay.actions())

    def head(entry):
        """``#17    0:07.3   ``: the record's number and, in a timed session, the time."""
        if not timed:
            return "%-6s" % ("#%d" % entry.seq)
        return "%-6s %-9s" % ("#%d" % entry.seq, "" if entry.tenths is None else elapsed_text(entry.tenths))

    def flush_chance():
        if chance:
            lines.append("  %s chance: %s" % (head(chance[0]), chance_text([e.description or e.text for e in chance], names)))
            del chance[:]

    for entry in replay.entries:
        if entry.kind == "score":
            continue  # shown with the action that caused it
        if entry.kind == "action" and entry.hand != hand:
            flush_chance()
            if hand is not None:
                lines.append("  scores: " + scores_text(names, entry_scores_before(replay, entry), scale))
            hand = entry.hand
            lines.append("hand %d" % (hand + 1))
        if entry.kind == "action" and entry.actor is None and not entry.engine_scores and entry.scores_after is not None:
            chance.append(entry)
            continue
        flush_chance()
        undone = "  (undone)" if entry.undone else ""
        told = entry.description if entry.kind == "end" else for_people(entry.description or entry.text, names)
        lines.append("  %s %s%s" % (head(entry), told, undone))
        for event in entry.engine_scores:
            lines.append("         " + ("          " if timed else "") + score_event_text(event, names, scale))
    flush_chance()
    if replay.state is not None:
        lines.append("final scores: " + scores_text(names, replay.state.scores, scale))
    if replay.violations:
        lines.append("violations found at the reveal:")
        lines.extend("  " + for_people(v.text(), names) for v in replay.violations)
    else:
        lines.append("violations found at the reveal: none")
    if replay.divergences:
        lines.append("the table's record and the engine disagree:")
        lines.extend("  " + for_people(d, names) for d in replay.divergences)
    return lines


def entry_scores_before(replay, entry):
    """The scores in effect just before ``entry`` (after the last applied action before it)."""
    scores = [0] * len(replay.session["players"])
    for other in replay.actions():
        if other is entry:
            break
        if other.scores_after is not None and not other.undone:
            scores = other.scores_after
    return scores


def do_show(args):
    db = dbmod.Database.open(dbtarget.resolve(args.db, dbmod.default_path()), create=False)
    try:
        replay = replay_session(db, args.session)
    finally:
        db.close()
    print("\n".join(render_session(replay)))
    return 0
