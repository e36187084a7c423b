"""``tiletable players``: the club's register of players, by name.

Every name a session was played under is in the register (a pull adds the new ones); the
secretary adds people before they first play, renames them, and merges two names of one
person into one. The sessions keep the names they were played under: a rename or a merge
changes only the register, and the pages (`tiletable serve`) count a merged name's sessions
under the register's name.

    tiletable players                        # everyone, with sessions played and won
    tiletable players add "Dee Smith"
    tiletable players rename bob "Bob Jones"
    tiletable players merge annie ann        # annie's sessions are ann's from now on
"""
import argparse

from tiletable_host import db as dbmod
from tiletable_host import dbtarget
from tiletable_host.errors import CommandError

HEADER = "%-24s  %8s  %4s  %s" % ("player", "sessions", "wins", "also known as")
ROW = "%-24s  %8d  %4d  %s"


def configure(parser):
    parser.add_argument("--db", default=None, help=dbtarget.HELP % dbmod.default_path())
    commands = parser.add_subparsers(dest="players_command", metavar="{add,rename,merge}")
    add = commands.add_parser("add", help="add a player to the register", description="Add a player to the register.")
    add.add_argument("name", metavar="NAME")
    rename = commands.add_parser(
        "rename", help="call a player by another name", description="Call a player by another name; the old one stays theirs.")
    rename.add_argument("old", metavar="OLD")
    rename.add_argument("new", metavar="NEW")
    merge = commands.add_parser(
        "merge", help="make two names one player", description="FROM and INTO are one person: FROM's sessions are INTO's.")
    merge.add_argument("source", metavar="FROM")
    merge.add_argument("into", metavar="INTO")
    for sub in (add, rename, merge):  # after the command too; SUPPRESS: not given there, the one before it stays
        sub.add_argument("--db", default=argparse.SUPPRESS, help=dbtarget.HELP % dbmod.default_path())


def do_players(args):
    target = dbtarget.resolve(args.db, dbmod.default_path())
    command = args.players_command
    db = dbmod.Database.open(target, create=command is not None)
    try:
        if command == "add":
            print("%s is in the register" % db.add_player(args.name))
        elif command == "rename":
            new = db.rename_player(args.old, args.new)
            print("%s is %s now (sessions played as %s stay theirs)" % (args.old, new, args.old))
        elif command == "merge":
            brought = db.merge_players(args.source, args.into)
            print("%s is %s now: %d session%s more for %s" % (args.source, args.into, brought, "" if brought == 1 else "s", args.into))
        else:
            return _list(db)
    finally:
        db.close()
    return 0


def _list(db):
    players = db.players()
    if not players:
        print("nobody in the register of %s yet (add someone with `tiletable players add NAME`)" % db.path)
        return 0
    counts = player_counts(db.sessions(), db.register_names())
    print(HEADER)
    for player in players:
        row = counts.get(player["name"], {"played": 0, "wins": 0})
        print((ROW % (player["name"], row["played"], row["wins"], ", ".join(player["names"]))).rstrip())
    return 0


# ----- the sessions by the register's names (the pages use these too)


def seated(session, names):
    """The session's players by the register's names (``names``: ``register_names()``); a name
    the register does not know as it is. Two seats that would come out as one player (names
    merged after they sat at one table) keep the names they played under."""
    players = session["players"]
    mapped = [names.get(name, name) if isinstance(name, str) else name for name in players]
    return mapped if len(set(map(str, mapped))) == len(mapped) else list(players)


def registered(sessions, names):
    """``sessions`` with their players by the register's names (``seated``)."""
    return [dict(session, players=seated(session, names)) for session in sessions]


def finished(session):
    result = session["result"]
    return result is not None and isinstance(result.get("scores"), list) and len(result["scores"]) == len(session["players"])


def winners(session):
    """The seats that won a finished session: the table's word for it, else the top scores."""
    result = session["result"]
    found = result.get("winners")
    if isinstance(found, list):
        return found
    return [seat for seat, score in enumerate(result["scores"]) if score == max(result["scores"])]


def player_counts(sessions, names):
    """Register name -> ``{"played", "finished", "wins"}`` over ``sessions``."""
    counts = {}
    for session in sessions:
        won = winners(session) if finished(session) else []
        for seat, name in enumerate(seated(session, names)):
            row = counts.setdefault(name, {"played": 0, "finished": 0, "wins": 0})
            row["played"] += 1
            row["finished"] += finished(session)
            row["wins"] += seat in won
    return counts


def check_players(db, wanted, add_new=False):
    """The register's names of the players ``wanted`` (names or other names of theirs) for a
    game the PC starts; with ``add_new`` a name nobody has is added to the register. A register
    with nobody in it (a new database) takes any names: they join it when the game is pulled.

    :raises CommandError: for a name nobody has (with the closest ones), or one person twice.
    """
    names = db.register_names()
    chosen = []
    for name in wanted:
        if name in names:
            chosen.append(names[name])
            continue
        if not add_new and names:
            close = dbmod.close_names(name, names)
            raise CommandError("nobody is named %r in the register%s; add a new player with --new-player" % (
                name, " (did you mean %s?)" % " or ".join(repr(n) for n in close) if close else ""))
        chosen.append(dbmod.player_name(name))
    for name in chosen:
        if chosen.count(name) > 1:
            raise CommandError("%s is in --players twice (as %s)" % (name, " and ".join(w for w, c in zip(wanted, chosen) if c == name)))
    if add_new:
        for name in chosen:
            if name not in names.values():
                db.add_player(name)
    return chosen
