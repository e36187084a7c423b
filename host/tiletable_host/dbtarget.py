"""Where the records live: a SQLite file (the default) or a club's PostgreSQL server.

Every command's ``--db`` takes either a path or a ``postgresql://user@host/club`` URL; without
``--db``, ``TILETABLE_DB`` is used, else the default SQLite file. A password in a URL is never
printed: ``redact`` is what errors, logs and pages show. ``connect`` turns the ways a server can
fail into one line each: it cannot be reached, it refuses the login, the database is missing.
"""
import os

ENV = "TILETABLE_DB"
SCHEMES = ("postgresql", "postgres")
CONNECT_TIMEOUT = 5  # seconds to wait for a server that does not answer
HELP = "SQLite file or postgresql:// URL (default: $%s, else %%s)" % ENV


def resolve(arg, default):
    """``--db``'s value, else ``$TILETABLE_DB``, else ``default`` (a path)."""
    return arg or os.environ.get(ENV) or default


def is_server(target):
    """Whether ``target`` names a PostgreSQL server rather than a SQLite file (as urllib reads
    a scheme, without loading it: a command on the default file should not pay for it)."""
    scheme, colon, _ = str(target).partition(":")
    return bool(colon) and scheme.lower() in SCHEMES


def redact(target):
    """``target`` fit to print: a URL's password (in the address or as ``password=``) becomes ***."""
    if not is_server(target):
        return str(target)
    from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

    parts = urlsplit(target)
    netloc = parts.netloc
    if "@" in netloc:
        auth, host = netloc.rsplit("@", 1)
        if ":" in auth:
            auth = auth.split(":", 1)[0] + ":***"
        netloc = auth + "@" + host
    query = urlencode([(k, "***" if k == "password" else v) for k, v in parse_qsl(parts.query, keep_blank_values=True)], safe="/")
    return urlunsplit((parts.scheme, netloc, parts.path, query, parts.fragment))


def _where(url):
    """The server and database a URL names, for a message: ``host/club`` or ``socket dir/club``."""
    from urllib.parse import parse_qsl, urlsplit

    parts = urlsplit(url)
    host = parts.hostname or dict(parse_qsl(parts.query)).get("host") or "localhost"
    if parts.port:
        host = "%s:%d" % (host, parts.port)
    return host, parts.path.lstrip("/") or (parts.username or "")


def server_error(url, exc):
    """A psycopg error of connecting to ``url`` as one line that says which failure it is."""
    from urllib.parse import urlsplit

    from tiletable_host.errors import CommandError

    reason = " ".join(str(exc).split())
    host, database = _where(url)
    user = urlsplit(url).username or "the default user"
    low = reason.lower()
    if "password authentication failed" in low or "no password supplied" in low or (
        "role" in low and "does not exist" in low
    ) or "authentication failed" in low:
        return CommandError("the database server %s refused the login for %s (check the user and password in --db)" % (host, user))
    if "database" in low and "does not exist" in low:
        return CommandError("the database server %s has no database %s (create it first: createdb %s)" % (host, database, database))
    return CommandError("cannot reach the database server %s: %s" % (host, strip_password(reason, url)))


def strip_password(text, url):
    """``text`` with the password of ``url`` in it, if any, replaced by ***."""
    from urllib.parse import unquote, urlsplit

    password = urlsplit(url).password
    if not password:
        return text
    for form in {password, unquote(password)}:
        text = text.replace(form, "***")
    return text


def connect(url, **kwargs):
    """A psycopg connection to ``url``, or a ``CommandError`` with one line saying why not."""
    try:
        import psycopg
    except ImportError:  # pragma: no cover - a dependency of the package
        from tiletable_host.errors import CommandError

        raise CommandError("a postgresql:// database needs psycopg: pip install 'psycopg[binary]'")
    kwargs.setdefault("connect_timeout", CONNECT_TIMEOUT)
    try:
        return psycopg.connect(url, **kwargs)
    except psycopg.Error as exc:
        raise server_error(url, exc) from None


class PasswordFilter:
    """A logging filter that takes the passwords of ``targets`` (URLs) out of every log line,
    whatever logged it (psycopg's own debug lines, a transport's, a library's)."""

    def __init__(self, targets):
        self.targets = [str(target) for target in targets if is_server(target)]

    def filter(self, record):
        message = record.getMessage()
        cleaned = message
        for target in self.targets:
            cleaned = strip_password(cleaned, target)
        if cleaned != message:
            record.msg, record.args = cleaned, ()
        return True
