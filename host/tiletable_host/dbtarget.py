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


def _split(url):
    """``(scheme://, user info or None, the rest of the address, path and query)`` of a URL, read
    by hand so that a URL urllib or libpq refuses can still be shown without its password."""
    head, sep, rest = str(url).partition("://")
    end = min([rest.index(mark) for mark in "/?#" if mark in rest] or [len(rest)])
    authority, tail = rest[:end], rest[end:]
    if "@" not in authority:
        return head + sep, None, authority + tail
    userinfo, host = authority.rsplit("@", 1)
    return head + sep, userinfo, "@" + host + tail


def redact(target):
    """``target`` fit to print: a URL's password (in the address or as ``password=``) becomes ***."""
    if not is_server(target):
        return str(target)
    import re

    start, userinfo, rest = _split(target)
    if userinfo is not None and ":" in userinfo:
        userinfo = userinfo.split(":", 1)[0] + ":***"
    return start + (userinfo or "") + re.sub(r"([?&]password=)[^&#]*", r"\1***", rest)


def _passwords(url):
    """Every password ``url`` holds (in its address and as ``password=``), as written and decoded."""
    import re
    from urllib.parse import unquote

    _, userinfo, rest = _split(url)
    found = [userinfo.split(":", 1)[1]] if userinfo is not None and ":" in userinfo else []
    found += re.findall(r"[?&]password=([^&#]*)", rest)
    return {form for password in found if password for form in (password, unquote(password))}


def _where(url):
    """The server and database a URL names, for a message: ``host/club`` or ``socket dir/club``."""
    from urllib.parse import parse_qsl, urlsplit

    try:
        parts = urlsplit(url)
        host = parts.hostname or dict(parse_qsl(parts.query)).get("host") or "localhost"
        if parts.port:
            host = "%s:%d" % (host, parts.port)
        return host, parts.path.lstrip("/") or (parts.username or ""), parts.username
    except ValueError:  # a URL urllib cannot read (a port that is no number, an unclosed [)
        return "of the URL", "", None


def server_error(url, exc):
    """A psycopg error of connecting to ``url`` as one line that says which failure it is."""
    import psycopg

    from tiletable_host.errors import CommandError

    reason = strip_password(" ".join(str(exc).split()), url)
    host, database, user = _where(url)
    if isinstance(exc, psycopg.ProgrammingError) or host == "of the URL":
        return CommandError("--db %s is not a URL PostgreSQL can read (%s)" % (redact(url), reason))
    low = reason.lower()
    if "password authentication failed" in low or "no password supplied" in low or (
        "role" in low and "does not exist" in low
    ) or "authentication failed" in low:
        return CommandError(
            "the database server %s refused the login for %s (check the user and password in --db)" % (host, user or "the default user")
        )
    if "database" in low and "does not exist" in low:
        return CommandError("the database server %s has no database %s (create it first: createdb %s)" % (host, database, database))
    return CommandError("cannot reach the database server %s: %s" % (host, reason))


def strip_password(text, url):
    """``text`` with every password of ``url`` in it, if any, replaced by ***."""
    for password in sorted(_passwords(url), key=len, reverse=True):
        text = text.replace(password, "***")
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
