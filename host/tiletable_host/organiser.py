"""``tiletable organiser``: the password that lets the club's organiser change things from the pages.

Anyone in the room may look at ``tiletable serve``'s pages; adding, renaming and merging players
(and, later, events and leagues) from a browser needs the organiser password set on the PC that
serves them. It is kept as a salted scrypt hash, never in the clear, in ``organiser.json`` beside
the PC's default database, with the secret that signs the organiser's sign-in cookie. Setting a
new password or clearing it makes a new secret: everyone signed in is signed out.

    tiletable organiser                      # is a password set, and where it is kept
    tiletable organiser set-password         # asks twice; or: echo "$PASSWORD" | tiletable organiser set-password
    tiletable organiser clear                # no password: the pages are for looking only
"""
import getpass
import hashlib
import hmac
import json
import os
import secrets
import sys

from tiletable_host import db as dbmod
from tiletable_host.errors import CommandError

FILE_NAME = "organiser.json"
MIN_LENGTH = 8
# scrypt's cost: 32 MiB and about a tenth of a second a try on a PC, kept in the file with the
# hash so that a later tiletable may ask more of a new password and still check an old one
SCRYPT = {"n": 2**15, "r": 8, "p": 1}


def config_path():
    """Where this PC keeps the organiser's password: beside the default database."""
    return os.path.join(os.path.dirname(dbmod.default_path()), FILE_NAME)


def _scrypt(password, salt, n, r, p):
    return hashlib.scrypt(password.encode("utf-8"), salt=salt, n=n, r=r, p=p, maxmem=256 * r * n, dklen=32)


def hashed(password):
    """What the file keeps of ``password``: a random salt, scrypt's parameters and the hash."""
    salt = secrets.token_bytes(16)
    return dict(SCRYPT, salt=salt.hex(), hash=_scrypt(password, salt, **SCRYPT).hex())


def matches(stored, password):
    """Whether ``password`` is the one ``stored`` (``hashed``) was made from, in constant time."""
    expected = _scrypt(password, bytes.fromhex(stored["salt"]), stored["n"], stored["r"], stored["p"])
    return hmac.compare_digest(expected, bytes.fromhex(stored["hash"]))


def load(path=None):
    """The file's ``{"password": hashed, "secret": hex}``, or None when no password is set.

    :raises CommandError: for a file that is not one this command wrote."""
    path = path or config_path()
    try:
        with open(path, encoding="utf-8") as f:
            found = json.load(f)
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as exc:
        raise CommandError("cannot read the organiser password in %s (%s); set it again: tiletable organiser set-password" % (path, exc))
    if not isinstance(found, dict) or not {"salt", "hash", "n", "r", "p"} <= set(found.get("password") or {}) or not found.get("secret"):
        raise CommandError("%s is not an organiser password file; set it again: tiletable organiser set-password" % path)
    return found


def save(password, path=None):
    """Keep ``password``'s hash and a new signing secret in ``path``, readable by this user only."""
    path = path or config_path()
    os.makedirs(os.path.dirname(path), exist_ok=True)
    text = json.dumps({"password": hashed(password), "secret": secrets.token_hex(32)}, indent=1)
    partial = path + ".new"
    fd = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(text + "\n")
    os.replace(partial, path)  # a password half written is never the one in force


def checked(password):
    """``password`` if it will do. :raises CommandError: for one too short to keep a room out."""
    if len(password) < MIN_LENGTH:
        raise CommandError("the organiser password needs at least %d characters" % MIN_LENGTH)
    return password


def configure(parser):
    commands = parser.add_subparsers(dest="organiser_command", metavar="{set-password,clear}")
    commands.add_parser("set-password", help="set the password (asked twice; or one line on standard input)",
                        description="Set the organiser password: asked twice, or read as one line from standard input.")
    commands.add_parser("clear", help="remove the password: nobody can change anything from the pages",
                        description="Remove the organiser password: the pages are for looking only.")


def do_organiser(args):
    path = config_path()
    if args.organiser_command == "set-password":
        save(checked(_read_password()), path)
        print("the organiser password is set (kept as a scrypt hash in %s); sign in at /organiser/sign-in on tiletable serve's pages" % path)
    elif args.organiser_command == "clear":
        if os.path.exists(path):
            os.remove(path)
        print("no organiser password on this PC: the pages are for looking only")
    elif load(path) is None:
        print("no organiser password on this PC: the pages are for looking only (set one: tiletable organiser set-password)")
    else:
        print("an organiser password is set (%s)" % path)
    return 0


def _read_password():
    """The new password: typed twice at a terminal, else standard input's first line."""
    if not sys.stdin.isatty():
        line = sys.stdin.readline()
        if not line:
            raise CommandError("no password on standard input")
        return line.rstrip("\r\n")
    first = getpass.getpass("new organiser password: ")
    checked(first)
    if getpass.getpass("the same again: ") != first:
        raise CommandError("the two passwords differ; nothing was changed")
    return first
