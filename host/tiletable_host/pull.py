"""``tiletable pull``: copy the table's journal into the PC's SQLite database, then acknowledge it.

Only what is new is copied: the pull starts after the last record the database holds for this
table's journal, and a record received twice is stored once. The table is told the PC has a
record only once it is safely written, so the table never deletes a record the PC does not
have; what arrived before a broken link is kept, and a table that resets in the middle is
simply asked again. Only records on the table's flash are copied: the last few of a game in
progress, still in the table's memory, come with the next pull. (For developers: records are
committed every COMMIT_RECORDS, then JOURNAL_ACK. A table that streams its journal,
JOURNAL_STREAM, sends up to 64 frames per request as fast as USB takes them; an older one
answers JOURNAL_PULL, one frame per request.)

Records are filed under the table's id, its journal's identity and their sequence number: a
journal that was wiped or re-deployed, or another table with the same id, numbers its records
from 1 again under another identity. A pull that finds a journal other than the one it last
pulled from that table says so in one line and stores its sessions apart. What was stored
before journals had identities (or from a table whose firmware reports none) is that table's
journal '', which becomes the identity the table reports when its journal goes on from it.

    tiletable pull --db club.db
"""
from tiletable.proto.messages import JOURNAL_SESSIONS
from tiletable_host import db as dbmod
from tiletable_host import dbtarget
from tiletable_host.connect import add_link_options, close_link, open_link
from tiletable_host.errors import CommandError, TransportError
from tiletable_host.progress import Progress

COMMIT_RECORDS = 1000  # records per transaction: each commit waits for the disk (fsync)


def configure(parser):
    parser.add_argument("--db", default=None, help=dbtarget.HELP % dbmod.default_path())
    parser.add_argument("--no-ack", action="store_true", help="store the records but leave the table's copy unacknowledged")
    add_link_options(parser)


def pull_journal(link, db, acknowledge=True, progress_stream=None, say=print):
    """Import every record the table has beyond what ``db`` holds; returns
    ``(records added, sessions started, last sequence number stored)``. ``say(line)`` tells a
    person that the journal is not the one last pulled from this table.

    :raises CommandError: when the table's journal ends before the database's copy of it (a
        journal with no identity, or one restored from an older copy of the flash).
    """
    device = link.device_info["device"]
    status = link.journal_status()
    identity = status["journal"] or link.device_info.get("journal", "")
    held = db.table_journal(device)
    if held is not None and held != identity:
        if held == "" and _goes_on_from(link, db, device, status):
            db.name_journal(device, identity)  # the journal from before identities, now named
        else:
            say(
                "%s: its journal is %s, not %s as at the last pull into %s: a wiped or re-deployed journal, "
                "or another table with this name; its sessions are stored apart"
                % (table_label(link.device_info), identity or "one without an identity", held or "one without an identity", db.path)
            )
    after = db.last_seq(device, identity)
    if not identity and status["boot"] < db.last_boot(device):
        raise CommandError(
            "%s reports journal boot %d but was at boot %d when last pulled into %s: a wiped journal, or another table with this name"
            " (its firmware gives its journal no identity: update it with `tiletable deploy`)"
            % (device, status["boot"], db.last_boot(device), db.path)
        )
    if status["last"] < after:
        raise CommandError(
            "the journal of %s ends at record %d but %s already holds up to %d: another table with this name, or a wiped journal"
            % (device, status["last"], db.path, after)
        )
    sessions_before = db.session_count()
    start = after
    streaming = link.has_capability("journal-stream")
    position = (0, 0)  # where the last record stored ends on the device: a stream's hint
    stalls = 0
    with Progress("pull", status["last"] - start, "records", stream=progress_stream) as bar:
        store = _Store(db, device, identity, after, lambda last: bar.update(last - start, max(status["last"] - start, last - start)))
        try:
            while True:
                before = store.after
                if streaming:  # records are stored as each frame brings them, while the table sends on
                    _, _, position, done = link.journal_stream(store.after, position, on_records=store.keep)
                else:
                    store.keep(*link.journal_pull(store.after))
                    done = store.after == before
                if done:
                    break
                if store.after == before:
                    stalls += 1  # a stream cut before its first whole record
                    if stalls > link.retries:
                        raise TransportError("the journal stream of %s brought nothing after record %d, %d times" % (device, before, stalls))
                else:
                    stalls = 0
        finally:
            # what arrived is kept even when the link fails: the next pull starts after it
            store.commit()
    after = store.after
    db.remember_pull(device, identity, status["boot"], link.device_info.get("name", ""))
    if acknowledge and after > status["acked"]:
        link.journal_ack(after)
    return store.added, db.session_count() - sessions_before, after


def table_label(info):
    """A table as people know it: its name when one was set (``tiletable name``), else its id."""
    return info.get("name") or info["device"]


def _goes_on_from(link, db, device, status):
    """Whether the table's journal, now with an identity, is the one stored before journals
    had identities: it goes on from there (at least as long, no fewer boots), and still holds
    the newest session stored, its header alike, or has rotated it away after an
    acknowledgement of everything stored."""
    held_last = db.last_seq(device)
    if status["last"] < held_last or status["boot"] < db.last_boot(device):
        return False
    newest = db.newest_session(device)
    if newest is None:
        return True
    first, content_hash, boot = newest
    for row in link.request(JOURNAL_SESSIONS, {"after": first - 1})["sessions"][:1]:
        if row["first"] == first:
            return row["hash"] == content_hash[:16] and row["boot"] == (boot or 0)
    return status["first"] > first and status["acked"] >= held_last


class _Store:
    """Records on their way into the database: committed every COMMIT_RECORDS."""

    def __init__(self, db, device, identity, after, on_progress):
        self.db = db
        self.device = device
        self.identity = identity
        self.after = after  # the last record received
        self.added = 0
        self.pending = []  # received, not yet committed
        self.on_progress = on_progress

    def keep(self, records, durable):
        """Take the records up to ``durable`` (those after it may yet be lost on the table)."""
        records = [record for record in records if record[0] <= durable]
        if not records:
            return
        self.pending.extend(records)
        self.after = records[-1][0]
        if len(self.pending) >= COMMIT_RECORDS:
            self.commit()
        self.on_progress(self.after)

    def commit(self):
        self.added += self.db.import_records(self.device, self.pending, self.identity)
        self.pending = []


def do_pull(args):
    db = dbmod.Database.open(dbtarget.resolve(args.db, dbmod.default_path()))
    try:
        link = open_link(args)
        try:
            added, sessions, last = pull_journal(link, db, acknowledge=not args.no_ack)
            device = table_label(link.device_info)
        finally:
            close_link(args, link)
    finally:
        db.close()
    if added:
        print("pulled %d records (%d new sessions) from %s into %s; stored up to record %d" % (added, sessions, device, db.path, last))
    else:
        print("nothing new on %s; %s holds up to record %d" % (device, db.path, last))
    return 0
