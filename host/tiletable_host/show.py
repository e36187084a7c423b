"""``tiletable show SESSION``: a readable record of every hand of a stored session.

Plays, draws, passes and claims are told in the engine's words (``state.describe``); deals
and other chance events are grouped on one line; each score carries its rule and arithmetic;
undos, restarts and gaps are shown where they happened; the violations the engine finds at
the reveal and every disagreement with the table's own record close the report.

    tiletable show 12 --db club.db
"""
from tiletable_host import db as dbmod
from tiletable_host.sessionlog import replay_session


def configure(parser):
    parser.add_argument("session", type=int, metavar="SESSION", help="session id (see `tiletable sessions`)")
    parser.add_argument("--db", default=None, help="SQLite database (default: %s)" % dbmod.default_path())


def render_session(replay):
    """The report as a list of lines."""
    session = replay.session
    names = session["players"]
    lines = [
        "session %d: %s (hash %s) on %s, %s, firmware %s"
        % (session["id"], session["ruleset"], session["hash"], session["device"], session["started"], session["firmware"]),
        "players: " + ", ".join("P%d %s" % (i, name) for i, name in enumerate(names)),
        "result: " + session["outcome"],
    ]
    hand = None
    chance = []

    def flush_chance():
        if chance:
            lines.append("  %-6s chance: %s" % ("#%d" % chance[0].seq, " ".join(e.text for e in chance)))
            del chance[:]

    for entry in replay.entries:
        if entry.kind == "score":
            continue  # shown with the action that caused it
        if entry.kind == "action" and entry.hand != hand:
            flush_chance()
            if hand is not None:
                lines.append("  scores: " + _scores(names, entry_scores_before(replay, entry)))
            hand = entry.hand
            lines.append("hand %d" % (hand + 1))
        if entry.kind == "action" and entry.actor is None and not entry.engine_scores and entry.scores_after is not None:
            chance.append(entry)
            continue
        flush_chance()
        undone = "  (undone)" if entry.undone else ""
        lines.append("  %-6s %s%s" % ("#%d" % entry.seq, entry.description or entry.text, undone))
        for event in entry.engine_scores:
            lines.append("         %s %+d %s: %s" % (_name(names, event.seat), event.points, event.rule, event.detail))
    flush_chance()
    if replay.state is not None:
        lines.append("final scores: " + _scores(names, replay.state.scores))
    if replay.violations:
        lines.append("violations found at the reveal:")
        lines.extend("  " + v.text() for v in replay.violations)
    else:
        lines.append("violations found at the reveal: none")
    if replay.divergences:
        lines.append("the table's record and the engine disagree:")
        lines.extend("  " + d for d in replay.divergences)
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


def _name(names, seat):
    return names[seat] if 0 <= seat < len(names) else "P%d" % seat


def _scores(names, scores):
    return ", ".join("%s %d" % (_name(names, i), s) for i, s in enumerate(scores))


def do_show(args):
    db = dbmod.Database.open(args.db or dbmod.default_path(), create=False)
    try:
        replay = replay_session(db, args.session)
    finally:
        db.close()
    print("\n".join(render_session(replay)))
    return 0
