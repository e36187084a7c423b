"""``tiletable replay SESSION``: re-run a stored session through the PC's engine and compare
every score with what the table recorded; exit status 1 when they diverge (usable in scripts).

    tiletable replay 12
"""
from tiletable_host import db as dbmod
from tiletable_host import dbtarget
from tiletable_host.errors import CommandError
from tiletable_host.people import for_people, score_scale, scores_text
from tiletable_host.sessionlog import replay_session


def configure(parser):
    parser.add_argument("session", type=int, metavar="SESSION", help="session id (see `tiletable sessions`)")
    parser.add_argument("--db", default=None, help=dbtarget.HELP % dbmod.default_path())


def do_replay(args):
    db = dbmod.Database.open(dbtarget.resolve(args.db, dbmod.default_path()), create=False)
    try:
        replay = replay_session(db, args.session)
    finally:
        db.close()
    actions = replay.actions()
    scored = sum(len(e.table_scores) for e in actions)
    print(
        "session %d: %d actions and %d table scores replayed with %s (hash %s)"
        % (args.session, len(actions), scored, replay.ruleset.name, replay.ruleset.hash)
    )
    names = replay.session["players"]
    for divergence in replay.divergences:
        print("  " + for_people(divergence, names))
    if replay.divergences:
        raise CommandError("session %d: %d divergences from the table's record" % (args.session, len(replay.divergences)))
    scale = score_scale(replay.ruleset, len(names))
    print("no divergence: final scores %s" % scores_text(names, replay.state.scores, scale))
    return 0
