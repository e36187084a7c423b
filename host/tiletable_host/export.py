"""``tiletable export``: the stored records as JSON Lines or CSV, one row per journal record.

Columns: session, ruleset, device, seq, type (header, action, score, undo, end, ...), text
(the record as the table wrote it: an action's canonical text, a header's JSON), and for
scores seat (counted from 1, as people count them), player (the seat's name), points (chips
for Buki, whose journal keeps half-chips) and rule split out, so a spreadsheet can sum them.
"""
import csv
import json
import sys

import tiletable_host  # noqa: F401  (puts firmware/ on sys.path)
from tiletable.runtime.journal import RECORD_NAMES, REC_SCORE
from tiletable_host import db as dbmod
from tiletable_host.errors import CommandError
from tiletable_host.people import seat_name
from tiletable_host.sessionlog import session_scale

COLUMNS = ("session", "ruleset", "device", "seq", "type", "text", "seat", "player", "points", "rule")


def configure(parser):
    parser.add_argument("sessions", type=int, nargs="*", metavar="SESSION", help="sessions to export (default: all)")
    parser.add_argument("--format", choices=("jsonl", "csv"), default="jsonl", help="output format (default: %(default)s)")
    parser.add_argument("-o", "--output", default="-", help="file to write (default: standard output)")
    parser.add_argument("--db", default=None, help="SQLite database (default: %s)" % dbmod.default_path())


def export_rows(db, session_ids=()):
    """Yield one dict per record (keys ``COLUMNS``) of the chosen sessions, in order."""
    sessions = db.sessions()
    known = {s["id"]: s for s in sessions}
    for session_id in session_ids:
        if session_id not in known:
            raise CommandError("no session %d in %s (see `tiletable sessions`)" % (session_id, db.path))
    for session in sessions:
        if session_ids and session["id"] not in session_ids:
            continue
        scale = session_scale(db, session)
        for seq, rtype, payload in db.session_records(session["id"]):
            text = payload.decode("utf-8", "replace")
            row = dict.fromkeys(COLUMNS)
            row.update(session=session["id"], ruleset=session["ruleset"], device=session["device"], seq=seq)
            row.update(type=RECORD_NAMES.get(rtype, str(rtype)), text=text)
            if rtype == REC_SCORE:
                seat, points, rule = text.split(" ", 2)
                points = int(points) if scale == 1 else int(points) / scale
                row.update(seat=int(seat) + 1, player=seat_name(session["players"], int(seat)), points=points, rule=rule)
            yield row


def write_rows(rows, out, fmt):
    """Write rows as JSON Lines or CSV (with a header line); returns the number of rows."""
    count = 0
    if fmt == "csv":
        writer = csv.DictWriter(out, fieldnames=COLUMNS, lineterminator="\n")
        writer.writeheader()
        for row in rows:
            writer.writerow(row)
            count += 1
    else:
        for row in rows:
            out.write(json.dumps(row, sort_keys=True) + "\n")
            count += 1
    return count


def do_export(args):
    db = dbmod.Database.open(args.db or dbmod.default_path(), create=False)
    try:
        rows = export_rows(db, args.sessions)
        if args.output == "-":
            count = write_rows(rows, sys.stdout, args.format)
        else:
            with open(args.output, "w", newline="") as out:
                count = write_rows(rows, out, args.format)
            print("wrote %d records to %s" % (count, args.output))
    finally:
        db.close()
    return 0
