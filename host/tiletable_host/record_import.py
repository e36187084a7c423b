"""tiletable import FILE...: store tile game records (docs/RECORD.md) in the PC's database.

Each record is checked through the engine first; when any record of the files fails, nothing
is stored, and the records of all the files are stored in one transaction (a database another
program holds, or a kill, stores none of them). An imported session is kept under the device
import-<digest of the record>, so importing the same record again adds nothing, and its
ruleset is remembered so show, replay and export work on it like on a pulled session. The
session ends as the record's ``End`` tag says (stopped, abandoned, over), and plays taken back
are journalled as the table's undos.

    tiletable import club-night.tgr --db club.db
"""
from tiletable_host import db as dbmod
from tiletable_host import dbtarget
from tiletable_host.record import import_device, journal_records, read_records, summary


def configure(parser):
    parser.add_argument("files", nargs="+", metavar="FILE", help="record files (.tgr)")
    parser.add_argument("--db", default=None, help=dbtarget.HELP % dbmod.default_path())


def do_import(args):
    checked = [(path, item) for path in args.files for item in read_records(path)]
    db = dbmod.Database.open(dbtarget.resolve(args.db, dbmod.default_path()))
    lines = []
    try:
        with db.transaction():  # every record of the files, or none: nothing half-imported
            for path, (record, state) in checked:
                device = import_device(record)
                db.remember_ruleset(state.ruleset.hash, state.ruleset.name, state.ruleset.to_json())
                added = db.import_records(device, journal_records(record, state))
                session = [s["id"] for s in db.sessions() if s["device"] == device][0]
                verb = "imported as" if added else "already stored as"
                lines.append("%s: %s: %s session %d" % (path, summary(record, state), verb, session))
    finally:
        db.close()
    for line in lines:  # once stored: a line says "imported" only of what is kept
        print(line)
    return 0
