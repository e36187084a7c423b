"""The room live from one page: tables on different PCs meet in the club's PostgreSQL database.

A PC beside a table (``tiletable serve --port ... --db postgresql://...``, or ``tiletable run``
with such a --db) publishes each picture of its table into ``live_tables``, one row per table
keyed by the table's id (HELLO's ``device``), and wakes every listener with a NOTIFY on
``tiletable_live`` (its payload is the table's id: a picture may be longer than a NOTIFY
carries). Any ``serve`` on the club's database merges those rows into its ``Hub`` from a
LISTEN thread (``ClubListener``), so the big screen shows every table, whichever PC it hangs
off, beside the tables it watches itself.

A publisher touches its rows every HEARTBEAT seconds while nothing changes; a table whose PC
has not been heard from for STALE_AFTER seconds (switched off, off the network), or whose PC
stopped watching it, is shown as gone, with the last time it was heard from (the database
server's clock: the PCs' clocks may disagree). A row not heard from for FORGET_AFTER is not
shown at all: last week's tables do not crowd tonight's page. A table moved to another PC is
the same row: the PC that has the table connected takes it over, and a PC that only lost it
(its port now empty) writes the row only while it is still its own.

With a SQLite database none of this runs: one PC's page shows the tables that PC watches.
"""
import json
import socket
import sys
import threading
import uuid

from tiletable_host import dbtarget
from tiletable_host.errors import CommandError

CHANNEL = "tiletable_live"
HEARTBEAT = 10.0  # seconds between a publisher's "still here" while its tables show no change
STALE_AFTER = 30.0  # seconds without news after which a table is shown as gone
FORGET_AFTER = 12 * 3600.0  # seconds without news after which a table is not shown at all
CHECK = 1.0  # seconds between a listener's looks at every row (the stale ones), NOTIFY or not
RETRY = 2.0  # seconds between attempts to reach a club server that went away

# the database server's clock, in whole seconds since 1970 (live_tables.updated: db.py's schema)
_NOW = "floor(extract(epoch FROM now()))::bigint"
_HEARD = "to_char(to_timestamp(updated) AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI \"UTC\"')"

_UPSERT = """
INSERT INTO live_tables (device, title, pc, port, publisher, connected, picture, change, updated, stopped)
VALUES (%%(device)s, %%(title)s, %%(pc)s, %%(port)s, %%(publisher)s, %%(connected)s, %%(picture)s, 1, %(now)s, 0)
ON CONFLICT (device) DO UPDATE SET title = excluded.title, pc = excluded.pc, port = excluded.port,
    publisher = excluded.publisher, connected = excluded.connected, picture = excluded.picture,
    change = live_tables.change + 1, updated = excluded.updated, stopped = 0
WHERE live_tables.publisher = excluded.publisher OR excluded.connected = 1 OR live_tables.connected = 0
    OR live_tables.stopped = 1 OR live_tables.updated < %(now)s - %%(stale)s
""" % {"now": _NOW}


def _connect(url, create):
    """The club's database as an autocommit psycopg connection; with ``create``, its schema
    created or migrated when it needs it (as a pull does: a PC publishing writes there), else
    only a database that has it (a screen that only looks creates nothing).

    :raises CommandError: one line: the server cannot be reached, refuses the login, lacks the
        database or (without ``create``) tiletable's schema, or holds another program's tables.
    """
    from tiletable_host import db as dbmod

    return dbmod.Database.open(url, create=create).conn


def check(url):
    """Connect once, to say at the start what is wrong with the server in one line.

    :raises CommandError: the server cannot be reached, refuses the login, or lacks the database.
    """
    dbtarget.connect(url).close()


class ClubPublisher(threading.Thread):
    """Publishes this PC's table pictures to the club's database, from a thread of its own: a
    slow or unreachable server never holds up the watching of a table (only the newest
    picture of each table waits to be written). ``publish`` takes what a ``Hub`` takes."""

    def __init__(self, url, pc=None, heartbeat=HEARTBEAT, stale_after=STALE_AFTER, retry=RETRY, say=None):
        super().__init__(name="club publisher", daemon=True)
        self.url = url
        self.id = uuid.uuid4().hex  # this program's: two PCs may share a host name (raspberrypi)
        self.pc = pc or socket.gethostname()
        self.heartbeat = heartbeat
        self.stale_after = stale_after
        self.retry = retry
        self.say = say or (lambda line: print(line, file=sys.stderr, flush=True))
        self._wake = threading.Condition()
        self._pending = {}  # device -> row to write
        self._tables = {}  # local name (a port) -> (id, title) of the table last seen there
        self._stopping = False
        self._failing = None  # the last failure told, until the server answers again
        self.written = 0  # pictures written (for the tests: they wait on it, not on the clock)

    def publish(self, name, picture):
        """Queue ``picture`` of the table watched as ``name`` (a port). A port on which no
        table has answered yet has nothing to publish: the club knows tables by their id."""
        with self._wake:
            if picture.get("device"):
                self._tables[name] = (picture["device"], picture.get("title") or picture["device"])
            if name not in self._tables:
                return
            device, title = self._tables[name]
            self._pending[device] = {
                "device": device,
                "title": title,
                "pc": self.pc,
                "port": name,
                "publisher": self.id,
                "connected": int(picture.get("status") in ("game", "idle")),
                "picture": json.dumps(dict(picture, device=device), sort_keys=True),
                "stale": self.stale_after,
            }
            self._wake.notify()

    def stop(self, timeout=5.0):
        """Write what is queued, mark this PC's tables as no longer watched, and end."""
        with self._wake:
            self._stopping = True
            self._wake.notify()
        self.join(timeout)

    def run(self):
        conn = None
        while True:
            with self._wake:
                if not self._pending and not self._stopping:
                    self._wake.wait(self.heartbeat)
                rows, self._pending = list(self._pending.values()), {}
                stopping = self._stopping
            try:
                conn = conn or _connect(self.url, create=True)
                self._write(conn, rows, stopping)
                if self._failing:
                    self.say("club server %s answers again; publishing" % dbtarget.redact(self.url))
                    self._failing = None
            except (CommandError, OSError, _psycopg_error()) as exc:
                if conn is not None:
                    conn.close()
                    conn = None
                self._requeue(rows)
                self._tell(exc)
                if stopping:
                    return
                with self._wake:
                    self._wake.wait(self.retry)
                continue
            if stopping:
                conn.close()
                return

    def _write(self, conn, rows, stopping):
        with conn.transaction():
            for row in rows:
                if conn.execute(_UPSERT, row).rowcount:
                    conn.execute("SELECT pg_notify(%s, %s)", (CHANNEL, row["device"]))
            if stopping:
                gone = conn.execute(
                    "UPDATE live_tables SET stopped = 1, updated = %s, change = change + 1 WHERE publisher = %%s RETURNING device" % _NOW,
                    (self.id,),
                ).fetchall()
                for (device,) in gone:
                    conn.execute("SELECT pg_notify(%s, %s)", (CHANNEL, device))
            else:  # still here, for the tables whose picture did not change
                conn.execute("UPDATE live_tables SET updated = %s WHERE publisher = %%s AND stopped = 0" % _NOW, (self.id,))
        self.written += len(rows)

    def _requeue(self, rows):
        with self._wake:
            for row in rows:
                self._pending.setdefault(row["device"], row)  # unless a newer picture came meanwhile

    def _tell(self, exc):
        """Say once that the server went away (not once per attempt)."""
        if self._failing is None:
            self._failing = str(exc) if isinstance(exc, CommandError) else dbtarget.server_error(self.url, exc).args[0]
            self.say("cannot publish to the club server: %s; trying again every %g s" % (self._failing, self.retry))


def _psycopg_error():
    import psycopg

    return psycopg.Error


class Relay:
    """A ``Hub`` as a watcher sees it, that also hands every picture to a ``ClubPublisher``."""

    def __init__(self, hub, publisher):
        self.hub = hub
        self.publisher = publisher

    def publish(self, name, picture):
        self.hub.publish(name, picture)
        self.publisher.publish(name, picture)


class ClubListener(threading.Thread):
    """Keeps the club's tables in ``hub``: the rows of ``live_tables`` (but those ``own``, a
    publisher id, writes: this program shows its own tables itself), each under its table's
    id, redrawn at each NOTIFY and marked gone when its PC falls silent."""

    def __init__(self, hub, url, own=None, check=CHECK, stale_after=STALE_AFTER, forget_after=FORGET_AFTER, retry=RETRY):
        super().__init__(name="club listener", daemon=True)
        self.hub = hub
        self.url = url
        self.own = own or ""
        self.check = check
        self.stale_after = stale_after
        self.forget_after = forget_after
        self.retry = retry
        self.stopping = threading.Event()
        self._shown = {}  # device -> (change, gone) of the picture in the hub
        self._labels = {}  # device -> its title and place, for when the server goes away

    def stop(self):
        self.stopping.set()

    def run(self):
        while not self.stopping.is_set():
            conn = None
            try:
                conn = _connect(self.url, create=False)  # none yet: no PC has published or pulled
                conn.execute("LISTEN %s" % CHANNEL)
                while not self.stopping.is_set():
                    self._look(conn)
                    for _ in conn.notifies(timeout=self.check, stop_after=1):
                        break  # a table changed: look now (every row: a club has tens of tables)
            except (CommandError, OSError, _psycopg_error()) as exc:
                self._lost(exc)
                self.stopping.wait(self.retry)
            finally:
                if conn is not None:
                    conn.close()

    def _look(self, conn):
        """Read what changed since the last look into the hub: new pictures, tables gone,
        tables forgotten or now this program's own."""
        rows = conn.execute(
            "SELECT device, change, stopped = 1 OR updated < {now} - %s, updated >= {now} - %s AND publisher <> %s"
            " FROM live_tables".format(now=_NOW),
            (self.stale_after, self.forget_after, self.own),
        ).fetchall()
        wanted = {device: (change, gone) for device, change, gone, shown in rows if shown}
        for device in list(self._shown):
            if device not in wanted:
                del self._shown[device], self._labels[device]
                self.hub.remove(device)
        changed = [device for device, state in wanted.items() if self._shown.get(device) != state]
        if not changed:
            return
        for device, title, pc, port, picture, change, stopped, gone, heard in conn.execute(
            "SELECT device, title, pc, port, picture, change, stopped = 1, stopped = 1 OR updated < {now} - %s, {heard}"
            " FROM live_tables WHERE device = ANY(%s)".format(now=_NOW, heard=_HEARD),
            (self.stale_after, changed),
        ):
            place = "%s, %s" % (pc, port)
            if gone and stopped:
                shown = {"status": "gone", "text": "%s (%s): %s stopped watching it at %s" % (title, place, pc, heard)}
            elif gone:
                shown = {"status": "gone", "text": "%s (%s): not heard from since %s; is %s off, or off the network?" % (title, place, heard, pc)}
            else:
                shown = json.loads(picture)
            self.hub.publish(device, dict(shown, title=title, place=place, device=device))
            self._labels[device] = {"title": title, "place": place, "device": device}
            self._shown[device] = (change, gone)

    def _lost(self, exc):
        """The club server went away: every club table is shown as without news."""
        line = str(exc) if isinstance(exc, CommandError) else dbtarget.server_error(self.url, exc).args[0]
        for device in list(self._shown):
            self.hub.publish(device, dict(self._labels[device], status="gone", text="no news of this table: %s" % line))
        self._shown = {device: None for device in self._shown}
