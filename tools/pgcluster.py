"""A throwaway PostgreSQL cluster for the tests and benches: ``initdb`` and ``pg_ctl`` of the
machine's PostgreSQL (Debian's ``postgresql`` package; `make setup-postgres` installs it where it
is missing), on a Unix socket in a temporary folder, no TCP port, fsync off.

``initdb`` refuses to run as root (CI is root), so as root the cluster belongs to an
unprivileged user (the package's ``postgres``, else ``nobody``) and its programs run through
``runuser``. Connections over the socket as the cluster's superuser are trusted; any other
role logs in with its password (scram-sha-256), so a wrong password is refused as on a club's
server::

    with PgCluster.start() as cluster:
        url = cluster.create_database()      # postgresql://postgres@/db_1a2b...?host=/tmp/...
        ...

``available()`` says why there is no cluster to be had (no ``initdb`` on this machine), for a
test to skip with that reason.
"""
import glob
import os
import pwd
import shutil
import subprocess
import tempfile
import uuid
from urllib.parse import quote, unquote, urlsplit

SUPERUSER = "postgres"
_SEARCH = "/usr/lib/postgresql/*/bin"


def _bin_dir():
    """The folder of ``initdb``/``pg_ctl``: PATH's, else the newest under /usr/lib/postgresql."""
    found = shutil.which("initdb")
    if found:
        return os.path.dirname(os.path.realpath(found))
    dirs = [d for d in glob.glob(_SEARCH) if os.path.exists(os.path.join(d, "initdb"))]
    dirs.sort(key=lambda d: int(d.split("/")[-2]) if d.split("/")[-2].isdigit() else 0)
    return dirs[-1] if dirs else None


def available():
    """None when a cluster can be started here, else why not (one line)."""
    if _bin_dir() is None:
        return "no PostgreSQL server programs (initdb) on this machine: run `make setup-postgres`"
    import importlib.util

    if importlib.util.find_spec("psycopg") is None:
        return "psycopg is not installed: run `make setup`"
    return None


def _owner():
    """The unprivileged account to run the server as when we are root, else None (ourselves)."""
    if os.geteuid() != 0:
        return None
    for name in ("postgres", "nobody"):
        try:
            return pwd.getpwnam(name)
        except KeyError:
            continue
    raise RuntimeError("running as root and no unprivileged account (postgres, nobody) to run PostgreSQL as")


def database_name(url):
    """The database a URL names: its path (its query's ``host=`` holds slashes of its own)."""
    return unquote(urlsplit(url).path.lstrip("/"))


class PgCluster:
    """A running throwaway cluster; ``stop()`` (or leaving the ``with`` block) removes it."""

    def __init__(self, folder, owner):
        self.folder = folder
        self.socket_dir = os.path.join(folder, "socket")
        self.data_dir = os.path.join(folder, "data")
        self._owner = owner
        self._bin = _bin_dir()

    @classmethod
    def start(cls):
        """initdb and start a new cluster in a new temporary folder (about 2 s)."""
        reason = available()
        if reason:
            raise RuntimeError(reason)
        owner = _owner()
        folder = tempfile.mkdtemp(prefix="tiletable-pg-")
        cluster = cls(folder, owner)
        os.makedirs(cluster.socket_dir)
        if owner is not None:
            for path in (folder, cluster.socket_dir):
                os.chown(path, owner.pw_uid, owner.pw_gid)
        try:
            cluster._run("initdb", "-D", cluster.data_dir, "-U", SUPERUSER, "--auth-local=trust", "--auth-host=reject",
                         "-E", "UTF8", "--locale=C", "--no-sync")
            with open(os.path.join(cluster.data_dir, "pg_hba.conf"), "w") as hba:
                hba.write("local all %s trust\nlocal all all scram-sha-256\n" % SUPERUSER)
            options = "-k %s -c listen_addresses= -c fsync=off -c synchronous_commit=off -c full_page_writes=off" % cluster.socket_dir
            cluster._run("pg_ctl", "start", "-w", "-t", "60", "-D", cluster.data_dir, "-o", options,
                         "-l", os.path.join(folder, "server.log"))
        except BaseException:
            cluster._remove()
            raise
        return cluster

    def _run(self, program, *args):
        command = [os.path.join(self._bin, program), *args]
        if self._owner is not None:
            command = ["runuser", "-u", self._owner.pw_name, "--", *command]
        result = subprocess.run(command, capture_output=True, text=True, cwd=self.folder)
        if result.returncode != 0:
            raise RuntimeError("%s failed: %s" % (program, (result.stderr or result.stdout).strip()[-2000:]))

    def url(self, database="postgres", user=SUPERUSER, password=None):
        """A libpq URL for ``database`` on this cluster's socket."""
        auth = quote(user, safe="") if password is None else "%s:%s" % (quote(user, safe=""), quote(password, safe=""))
        return "postgresql://%s@/%s?host=%s" % (auth, database, quote(self.socket_dir))

    def execute(self, sql, database="postgres"):
        """Run ``sql`` as the superuser, outside a transaction (CREATE DATABASE needs that)."""
        import psycopg

        with psycopg.connect(self.url(database), autocommit=True) as conn:
            conn.execute(sql)

    def create_database(self, name=None):
        """A new empty database; returns its URL (superuser)."""
        name = name or "db_" + uuid.uuid4().hex[:12]
        self.execute('CREATE DATABASE "%s"' % name)
        return self.url(name)

    def drop_database(self, name):
        self.execute('DROP DATABASE IF EXISTS "%s" WITH (FORCE)' % name)

    def database_names(self):
        """The databases of the cluster, but PostgreSQL's own."""
        import psycopg

        with psycopg.connect(self.url()) as conn:
            rows = conn.execute("SELECT datname FROM pg_database WHERE datname NOT IN ('postgres', 'template0', 'template1')")
            return sorted(name for (name,) in rows)

    def create_role(self, name, password):
        """A login role with a password (its logins are checked, unlike the superuser's)."""
        self.execute("CREATE ROLE \"%s\" LOGIN PASSWORD '%s'" % (name, password.replace("'", "''")))

    def stop(self):
        try:
            self._run("pg_ctl", "stop", "-w", "-m", "immediate", "-D", self.data_dir)
        finally:
            self._remove()

    def _remove(self):
        shutil.rmtree(self.folder, ignore_errors=True)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()
