"""``tiletable sessions``: the sessions in the PC's database, one line each.

    tiletable sessions --db club.db
"""
from tiletable_host import db as dbmod


def configure(parser):
    parser.add_argument("--db", default=None, help="SQLite database (default: %s)" % dbmod.default_path())
    parser.add_argument("--check", action="store_true", help="first read the whole database file to find damage (slow on years of sessions)")


def do_sessions(args):
    db = dbmod.Database.open(args.db or dbmod.default_path(), create=False)
    try:
        if args.check:
            db.check()
        sessions = db.listing()
    finally:
        db.close()
    if not sessions:
        print("no sessions in %s (pull some with `tiletable pull`)" % db.path)
        return 0
    lines = ["%4s  %-20s  %-12s  %-18s  %7s  %s" % ("id", "started", "ruleset", "table", "records", "players / result")]
    lines.extend("%4d  %-20s  %-12s  %-18s  %7d  %s / %s" % row for row in sessions)
    print("\n".join(lines))
    return 0
