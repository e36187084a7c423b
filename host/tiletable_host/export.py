"""``tiletable export``: the stored records as JSON Lines or CSV, one row per journal record,
or each session as a tile game record (``--format record``, docs/RECORD.md).

Columns: session, ruleset, device, seq, type (header, action, score, undo, end, ...), text
(the record as the table wrote it: an action's canonical text, a header's JSON), for actions
elapsed (seconds since the session started, to a tenth; empty in journals from before actions
had times), and for scores seat (counted from 1, as people count them), player (the seat's
name), points (chips for Buki, whose journal keeps half-chips) and rule split out, so a
spreadsheet can sum them.

    tiletable export 12 13 --format csv -o club.csv
"""
import csv
import json
import sys

from tiletable.record import RECORD_NAMES, REC_ACTION, REC_SCORE, REC_TIMED_ACTION
from tiletable.record_read import action_text
from tiletable_host import db as dbmod
from tiletable_host import dbtarget
from tiletable_host.errors import CommandError
from tiletable_host.people import seat_name
from tiletable_host.sessionlog import session_scale

COLUMNS = ("session", "ruleset", "device", "seq", "type", "text", "elapsed", "seat", "player", "points", "rule")


def configure(parser):
    parser.add_argument("sessions", type=int, nargs="*", metavar="SESSION", help="sessions to export (default: all)")
    parser.add_argument("--format", choices=("jsonl", "csv", "record"), default="jsonl", help="output format (default: %(default)s)")
    parser.add_argument("-o", "--output", default="-", help="file to write (default: standard output)")
    parser.add_argument("--event", default=None, help="the Event tag of records (default: what the session was imported with, else ?)")
    parser.add_argument("--site", default=None, help="the Site tag of records (default: what the session was imported with, else ?)")
    parser.add_argument("--db", default=None, help=dbtarget.HELP % dbmod.default_path())


def chosen_sessions(db, session_ids=()):
    """The sessions ``session_ids`` (all when empty), oldest first.

    :raises CommandError: naming a session the database does not hold.
    """
    sessions = db.sessions()
    known = {s["id"]: s for s in sessions}
    for session_id in session_ids:
        if session_id not in known:
            raise CommandError("no session %d in %s (see `tiletable sessions`)" % (session_id, db.path))
    return [s for s in sessions if not session_ids or s["id"] in session_ids]


def export_rows(db, session_ids=()):
    """Yield one dict per record (keys ``COLUMNS``) of the chosen sessions, in order."""
    for session in chosen_sessions(db, session_ids):
        scale = session_scale(db, session)
        for seq, rtype, payload in db.session_records(session["id"]):
            text = payload.decode("utf-8", "replace")
            row = dict.fromkeys(COLUMNS)
            row.update(session=session["id"], ruleset=session["ruleset"], device=session["device"], seq=seq)
            row.update(type=RECORD_NAMES.get(rtype, str(rtype)), text=text)
            if rtype in (REC_ACTION, REC_TIMED_ACTION):
                tenths, row["text"] = action_text(rtype, payload)
                row["elapsed"] = None if tenths is None else tenths / 10
            elif rtype == REC_SCORE:
                seat, points, rule = text.split(" ", 2)
                points = int(points) if scale == 1 else int(points) / scale
                row.update(seat=int(seat) + 1, player=seat_name(session["players"], int(seat)), points=points, rule=rule)
            yield row


def write_rows(rows, out, fmt):
    """Write rows as JSON Lines or CSV (with a header line); returns the number of rows."""
    count = 0
    if fmt == "record":
        for text in rows:
            out.write(("\n" if count else "") + text)
            count += 1
    elif fmt == "csv":
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
    db = dbmod.Database.open(dbtarget.resolve(args.db, dbmod.default_path()), create=False)
    try:
        if args.format == "record":
            from tiletable_host.record import session_records_text

            rows = session_records_text(db, chosen_sessions(db, args.sessions), event=args.event, site=args.site)
        else:
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
