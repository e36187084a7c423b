"""``tiletable sessions``: the sessions in the PC's database, one line each.

    tiletable sessions --db club.db
"""
from tiletable_host import db as dbmod
from tiletable_host import dbtarget

HEADER = "%4s  %-20s  %-12s  %-18s  %7s  %s" % ("id", "started", "ruleset", "table", "records", "players / result")
ROW = "%4d  %!-20s  %!-12s  %!-18s  %7d  %s / %s"  # SQLite's printf: "!" pads by characters, not bytes


def configure(parser):
    parser.add_argument("--db", default=None, help=dbtarget.HELP % dbmod.default_path())
    parser.add_argument("--check", action="store_true", help="first read the whole database file to find damage (slow on years of sessions)")


def do_sessions(args):
    db = dbmod.Database.open(dbtarget.resolve(args.db, dbmod.default_path()), create=False)
    try:
        if args.check:
            db.check()
        lines = db.listing(ROW)
    finally:
        db.close()
    if not lines:
        print("no sessions in %s (pull some with `tiletable pull`)" % db.path)
        return 0
    print(HEADER + "\n" + "\n".join(lines))
    return 0
