"""``tiletable sessions``: the sessions in the PC's database, one line each."""
import time

from tiletable_host import db as dbmod
from tiletable_host.sessionlog import result_of, session_scale


def configure(parser):
    parser.add_argument("--db", default=None, help="SQLite database (default: %s)" % dbmod.default_path())


def format_time(unix_seconds):
    if unix_seconds is None:
        return "time unknown"
    return time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(unix_seconds))


def do_sessions(args):
    db = dbmod.Database.open(args.db or dbmod.default_path(), create=False)
    try:
        sessions = db.sessions()
        scales = [session_scale(db, s) for s in sessions]
    finally:
        db.close()
    if not sessions:
        print("no sessions in %s (pull some with `tiletable pull`)" % db.path)
        return 0
    print("%4s  %-20s  %-12s  %-18s  %7s  %s" % ("id", "started", "ruleset", "table", "records", "players / result"))
    for s, scale in zip(sessions, scales):
        print(
            "%4d  %-20s  %-12s  %-18s  %7d  %s / %s"
            % (s["id"], format_time(s["time"]), s["ruleset"], s["device"], s["records"], ", ".join(s["players"]), result_of(s, scale))
        )
    return 0
