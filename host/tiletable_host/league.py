"""``tiletable league``: a league season, its teams, fixtures and table.

A season says how a match is played (a Fives and Threes match: 6 singles and 3 doubles legs)
and what it is worth: points to a team for each leg it wins or draws, and points for winning or
drawing the match (the team with more leg points wins it). Each leg names the players of each
side, from the register and from their team, and the session that decided it: the leg goes to
the side whose player (or pair, sat as partners) won that session. A leg without a session is
not played yet, and a match counts in the table once every leg of it is decided.

    tiletable league add "Teesdale 2026" --singles 6 --doubles 3 --leg-win 1 --leg-draw 0 --win 2 --draw 1
    tiletable league team 1 "Red Lion" --players "ann,bob,cy"
    tiletable league fixture 1 "Red Lion" "Black Bull" --date 2026-12-04
    tiletable league leg 1 --home ann --away dee --session 12        # fixture 1's next leg
    tiletable league leg 1 --home ann,bob --away dee,eve             # a doubles leg not played yet
    tiletable league link 1 2 14                                     # fixture 1's leg 2 was session 14
    tiletable league unlink 1 2                                      # ... it was not, after all
    tiletable league show 1                                          # the table and each fixture
"""
import argparse

from tiletable_host import db as dbmod
from tiletable_host import dbtarget
from tiletable_host.errors import CommandError
from tiletable_host.events import day, read
from tiletable_host.register import finished, seated, winners

KINDS = {1: "singles", 2: "doubles"}


def configure(parser):
    parser.add_argument("--db", default=None, help=dbtarget.HELP % dbmod.default_path())
    commands = parser.add_subparsers(dest="league_command", metavar="{add,team,fixture,leg,link,unlink,show}")
    add = commands.add_parser("add", help="a new league season", description="Add a league season and how its matches are scored.")
    add.add_argument("name", metavar="NAME")
    add.add_argument("--singles", type=int, default=6, help="singles legs in a match (default 6)")
    add.add_argument("--doubles", type=int, default=3, help="doubles legs in a match (default 3)")
    add.add_argument("--leg-win", type=int, default=1, help="points for a leg won (default 1)")
    add.add_argument("--leg-draw", type=int, default=0, help="points for a leg drawn (default 0)")
    add.add_argument("--win", type=int, default=2, help="points for a match won (default 2)")
    add.add_argument("--draw", type=int, default=1, help="points for a match drawn (default 1)")
    team = commands.add_parser("team", help="add a team with its players", description="Add a team of the register's players to SEASON.")
    team.add_argument("season", metavar="SEASON", type=int)
    team.add_argument("name", metavar="NAME")
    team.add_argument("--players", required=True, help="the team's players, separated by commas")
    fixture = commands.add_parser("fixture", help="add a match between two teams", description="Add a match of SEASON: HOME against AWAY.")
    fixture.add_argument("season", metavar="SEASON", type=int)
    fixture.add_argument("home", metavar="HOME")
    fixture.add_argument("away", metavar="AWAY")
    fixture.add_argument("--date", required=True, help="the day it is played, YYYY-MM-DD")
    leg = commands.add_parser("leg", help="record a fixture's next leg", description="Record FIXTURE's next leg: each side's players,"
                              " and the session that decided it when it has been played.")
    leg.add_argument("fixture", metavar="FIXTURE", type=int)
    leg.add_argument("--home", required=True, help="the home side: one player (singles) or two separated by a comma (doubles)")
    leg.add_argument("--away", required=True, help="the away side, as --home")
    leg.add_argument("--session", type=int, help="the session that decided it (`tiletable sessions`)")
    link = commands.add_parser("link", help="the session that decided a leg recorded before", description="LEG of FIXTURE was decided by SESSION.")
    link.add_argument("fixture", metavar="FIXTURE", type=int)
    link.add_argument("leg", metavar="LEG", type=int)
    link.add_argument("session", metavar="SESSION", type=int)
    unlink = commands.add_parser("unlink", help="a leg's session was the wrong one", description="LEG of FIXTURE is not decided yet.")
    unlink.add_argument("fixture", metavar="FIXTURE", type=int)
    unlink.add_argument("leg", metavar="LEG", type=int)
    show = commands.add_parser("show", help="a season's table and fixtures", description="Show SEASON's table and each fixture's legs.")
    show.add_argument("season", metavar="SEASON", type=int)
    for sub in (add, team, fixture, leg, link, unlink, show):
        sub.add_argument("--db", default=argparse.SUPPRESS, help=dbtarget.HELP % dbmod.default_path())


def do_league(args):
    target = dbtarget.resolve(args.db, dbmod.default_path())
    command = args.league_command
    db = dbmod.Database.open(target, create=command in ("add", "team", "fixture", "leg", "link", "unlink"))
    try:
        if command == "add":
            season_id = add_season(db, args.name, args.singles, args.doubles, args.leg_win, args.leg_draw, args.win, args.draw)
            print("season %d: %s, %d singles and %d doubles a match" % (season_id, args.name.strip(), args.singles, args.doubles))
        elif command == "team":
            players = add_team(db, args.season, args.name, args.players)
            print("%s plays in season %d: %s" % (args.name.strip(), args.season, ", ".join(players)))
        elif command == "fixture":
            print("fixture %d: %s v %s on %s" % (add_fixture(db, args.season, args.home, args.away, args.date), args.home, args.away, args.date))
        elif command == "leg":
            number, kind = add_leg(db, args.fixture, args.home, args.away, args.session)
            print("leg %d of fixture %d: %s, %s v %s%s" % (number, args.fixture, kind, args.home, args.away,
                                                          "" if args.session is None else ", session %d" % args.session))
        elif command == "link":
            link_leg(db, args.fixture, args.leg, args.session)
            print("leg %d of fixture %d: session %d" % (args.leg, args.fixture, args.session))
        elif command == "unlink":
            print("leg %d of fixture %d: not decided by session %d" % (args.leg, args.fixture, unlink_leg(db, args.fixture, args.leg)))
        elif command == "show":
            _show(season_view(db, args.season))
        else:
            _list(db)
    finally:
        db.close()
    return 0


# ----- storage


def seasons(db):
    """Every season: ``{"id", "name", "singles", "doubles", "leg_win", "leg_draw", "match_win", "match_draw"}``."""
    keys = ("id", "name", "singles", "doubles", "leg_win", "leg_draw", "match_win", "match_draw")
    return [dict(zip(keys, row)) for row in read(db, "SELECT %s FROM seasons ORDER BY id" % ", ".join(keys))]


def season(db, season_id):
    found = [s for s in seasons(db) if s["id"] == season_id]
    if not found:
        raise CommandError("no season %d in %s (see `tiletable league`)" % (season_id, db.path))
    return found[0]


def add_season(db, name, singles, doubles, leg_win, leg_draw, match_win, match_draw):
    name = name.strip()
    if not name:
        raise CommandError("a season's name cannot be empty")
    if singles < 0 or doubles < 0 or singles + doubles == 0:
        raise CommandError("a match has at least one leg: --singles %d --doubles %d" % (singles, doubles))
    with db.transaction():
        if db.execute("SELECT 1 FROM seasons WHERE name = ?", (name,)).fetchone():
            raise CommandError("there is a season %r already (see `tiletable league`)" % name)
        db.execute("INSERT INTO seasons (name, singles, doubles, leg_win, leg_draw, match_win, match_draw) VALUES (?, ?, ?, ?, ?, ?, ?)",
                   (name, singles, doubles, leg_win, leg_draw, match_win, match_draw))
        return db.execute("SELECT id FROM seasons WHERE name = ?", (name,)).fetchone()[0]


def _names(text):
    return [name.strip() for name in text.split(",") if name.strip()]


def _register_id(db, name):
    """The register's ``(id, name)`` of the player known by ``name``. :raises CommandError: for nobody."""
    row = db.execute("SELECT p.id, p.name FROM player_names n JOIN players p ON p.id = n.player WHERE n.name = ?", (name,)).fetchone()
    if row is None:
        close = dbmod.close_names(name, db.register_names())
        raise CommandError("nobody is named %r in the register (%s)" % (
            name, "did you mean %s?" % " or ".join(repr(n) for n in close) if close else "add them with `tiletable players add`"))
    return tuple(row)


def add_team(db, season_id, name, players):
    """A new team of the register's ``players`` (names separated by commas); their register names."""
    name = name.strip()
    if not name:
        raise CommandError("a team's name cannot be empty")
    wanted = _names(players)
    if not wanted:
        raise CommandError("a team has players: --players 'ann,bob'")
    with db.transaction():
        season(db, season_id)
        if db.execute("SELECT 1 FROM teams WHERE season = ? AND name = ?", (season_id, name)).fetchone():
            raise CommandError("season %d has a team %r already" % (season_id, name))
        found = [_register_id(db, player) for player in wanted]
        for player_id, player_name in found:
            other = db.execute("SELECT t.name FROM team_players m JOIN teams t ON t.id = m.team WHERE t.season = ? AND m.player = ?",
                               (season_id, player_id)).fetchone()
            if other is not None:
                raise CommandError("%s plays for %s in season %d already" % (player_name, other[0], season_id))
        db.execute("INSERT INTO teams (season, name) VALUES (?, ?)", (season_id, name))
        team = db.execute("SELECT id FROM teams WHERE season = ? AND name = ?", (season_id, name)).fetchone()[0]
        for player_id in sorted({player_id for player_id, _ in found}):
            db.execute("INSERT INTO team_players (team, player) VALUES (?, ?)", (team, player_id))
    return [player_name for _, player_name in found]


def teams(db, season_id):
    """A season's teams by name: ``{"id", "name", "players": register names}``."""
    found = {}
    for team, name in read(db, "SELECT id, name FROM teams WHERE season = ? ORDER BY name", (season_id,)):
        found[team] = {"id": team, "name": name, "players": []}
    for team, player in read(db, "SELECT m.team, p.name FROM team_players m JOIN players p ON p.id = m.player"
                                 " JOIN teams t ON t.id = m.team WHERE t.season = ?", (season_id,)):
        found[team]["players"].append(player)
    for team in found.values():
        team["players"].sort(key=lambda n: (n.casefold(), n))
    return list(found.values())


def _team(db, season_id, name):
    row = db.execute("SELECT id FROM teams WHERE season = ? AND name = ?", (season_id, name.strip())).fetchone()
    if row is None:
        known = ", ".join(team["name"] for team in teams(db, season_id)) or "none yet"
        raise CommandError("season %d has no team %r (its teams: %s)" % (season_id, name, known))
    return row[0]


def add_fixture(db, season_id, home, away, date):
    date = day(date)
    with db.transaction():
        season(db, season_id)
        home_id, away_id = _team(db, season_id, home), _team(db, season_id, away)
        if home_id == away_id:
            raise CommandError("a team does not play itself: %s" % home)
        if db.execute("SELECT 1 FROM fixtures WHERE home = ? AND away = ? AND day = ?", (home_id, away_id, date)).fetchone():
            raise CommandError("%s v %s on %s is a fixture already" % (home, away, date))
        db.execute("INSERT INTO fixtures (season, home, away, day) VALUES (?, ?, ?, ?)", (season_id, home_id, away_id, date))
        return db.execute("SELECT id FROM fixtures WHERE home = ? AND away = ? AND day = ?", (home_id, away_id, date)).fetchone()[0]


def add_leg(db, fixture_id, home, away, session_id=None):
    """Record a fixture's next leg; ``(its number, "singles" or "doubles")``.

    :raises CommandError: for an unknown fixture, player or session, sides of the wrong size,
        a player not in their team, more legs of a kind than the season's match has, or a
        session not played by exactly these players (doubles: partners as sides)."""
    sides = {"home": _names(home), "away": _names(away)}
    sizes = {side: len(names) for side, names in sides.items()}
    if sizes["home"] != sizes["away"] or sizes["home"] not in KINDS:
        raise CommandError("a leg is singles (one player a side) or doubles (two a side): --home has %d, --away %d" % (sizes["home"], sizes["away"]))
    kind = KINDS[sizes["home"]]
    with db.transaction():
        row = db.execute("SELECT f.season, f.home, f.away, h.name, a.name FROM fixtures f JOIN teams h ON h.id = f.home"
                         " JOIN teams a ON a.id = f.away WHERE f.id = ?", (fixture_id,)).fetchone()
        if row is None:
            raise CommandError("no fixture %d in %s (see `tiletable league show SEASON`)" % (fixture_id, db.path))
        season_id, home_team, away_team, home_name, away_name = row
        rules = season(db, season_id)
        done = db.execute("SELECT count(*) FROM legs WHERE fixture = ? AND kind = ?", (fixture_id, kind)).fetchone()[0]
        if done >= rules[kind]:
            raise CommandError("fixture %d has its %d %s legs already" % (fixture_id, rules[kind], kind))
        players = {}
        for side, team, team_name in (("home", home_team, home_name), ("away", away_team, away_name)):
            players[side] = [_register_id(db, name) for name in sides[side]]
            members = {member for (member,) in db.execute("SELECT player FROM team_players WHERE team = ?", (team,)).fetchall()}
            for player_id, player_name in players[side]:
                if player_id not in members:
                    raise CommandError("%s is not in %s, the %s team" % (player_name, team_name, side))
            if len({player_id for player_id, _ in players[side]}) < len(players[side]):
                raise CommandError("a doubles side is two players, not %s twice" % players[side][0][1])
        if session_id is not None:
            _check_session(db, session_id, [name for _, name in players["home"]], [name for _, name in players["away"]])
        number = db.execute("SELECT coalesce(max(number), 0) + 1 FROM legs WHERE fixture = ?", (fixture_id,)).fetchone()[0]
        db.execute("INSERT INTO legs (fixture, number, kind, session) VALUES (?, ?, ?, ?)", (fixture_id, number, kind, session_id))
        leg = db.execute("SELECT id FROM legs WHERE fixture = ? AND number = ?", (fixture_id, number)).fetchone()[0]
        for side in ("home", "away"):
            for place, (player_id, _) in enumerate(players[side], 1):
                db.execute("INSERT INTO leg_players (leg, side, place, player) VALUES (?, ?, ?, ?)", (leg, side, place, player_id))
    return number, kind


def link_leg(db, fixture_id, number, session_id):
    """A leg recorded without its session was decided by ``session_id``.

    :raises CommandError: for an unknown leg or session, a leg decided already, or a session
        not played by the leg's players (``_check_session``)."""
    with db.transaction():
        row = db.execute("SELECT id, session FROM legs WHERE fixture = ? AND number = ?", (fixture_id, number)).fetchone()
        if row is None:
            raise CommandError("fixture %d has no leg %d (see `tiletable league show SEASON`)" % (fixture_id, number))
        if row[1] is not None:
            raise CommandError("leg %d of fixture %d was decided by session %d already" % (number, fixture_id, row[1]))
        sides = {"home": [], "away": []}
        for side, name in db.execute("SELECT lp.side, p.name FROM leg_players lp JOIN players p ON p.id = lp.player"
                                     " WHERE lp.leg = ? ORDER BY lp.side, lp.place", (row[0],)).fetchall():
            sides[side].append(name)
        _check_session(db, session_id, sides["home"], sides["away"])
        db.execute("UPDATE legs SET session = ? WHERE id = ?", (session_id, row[0]))


def unlink_leg(db, fixture_id, number):
    """A leg is not decided by the session linked to it (the wrong one was given); that
    session's id. :raises CommandError: for an unknown leg, or one without a session."""
    with db.transaction():
        row = db.execute("SELECT id, session FROM legs WHERE fixture = ? AND number = ?", (fixture_id, number)).fetchone()
        if row is None:
            raise CommandError("fixture %d has no leg %d (see `tiletable league show SEASON`)" % (fixture_id, number))
        if row[1] is None:
            raise CommandError("leg %d of fixture %d has no session" % (number, fixture_id))
        db.execute("UPDATE legs SET session = NULL WHERE id = ?", (row[0],))
    return row[1]


def _check_session(db, session_id, home, away):
    """:raises CommandError: when the session is unknown, decided another leg, or was not
    played by exactly ``home`` against ``away`` (a pair sat as partners, opposite each other)."""
    session = db.session(session_id)
    other = db.execute("SELECT l.number, l.fixture FROM legs l WHERE l.session = ?", (session_id,)).fetchone()
    if other is not None:
        raise CommandError("session %d decided leg %d of fixture %d already" % (session_id, other[0], other[1]))
    sat = seated(session, db.register_names())
    if sorted(map(str, sat)) != sorted(home + away):
        raise CommandError("session %d was played by %s, not by %s" % (session_id, ", ".join(map(str, sat)), ", ".join(home + away)))
    if len(home) == 2 and abs(sat.index(home[0]) - sat.index(home[1])) != 2:
        raise CommandError("in session %d %s and %s did not sit as partners (opposite each other)" % (session_id, home[0], home[1]))


# ----- the table


def leg_result(leg, session):
    """``"home"``, ``"away"`` or ``"draw"`` for a leg whose session (players by the register's
    names) is finished; None for a leg not played yet (no session, or one in progress)."""
    if session is None or not finished(session):
        return None
    won = {str(session["players"][seat]) for seat in winners(session)}
    home, away = bool(won & set(leg["home"])), bool(won & set(leg["away"]))
    return "home" if home and not away else "away" if away and not home else "draw"


def fixture_score(rules, fixture):
    """``(home leg points, away leg points, complete)``: a fixture is complete when every leg
    of the season's match is decided."""
    points = {"home": 0, "away": 0}
    decided = 0
    for leg in fixture["legs"]:
        if leg["result"] is None:
            continue
        decided += 1
        if leg["result"] == "draw":
            points["home"] += rules["leg_draw"]
            points["away"] += rules["leg_draw"]
        else:
            points[leg["result"]] += rules["leg_win"]
    return points["home"], points["away"], decided == rules["singles"] + rules["doubles"]


def league_table(rules, team_names, fixtures):
    """The table's rows, best first: ``{"place", "team", "played", "won", "drawn", "lost",
    "leg_points", "points"}``, over the complete fixtures; ordered by points, then leg points,
    then name, with the same place for the same points and leg points."""
    rows = {name: {"team": name, "played": 0, "won": 0, "drawn": 0, "lost": 0, "leg_points": 0, "points": 0} for name in team_names}
    for fixture in fixtures:
        home_legs, away_legs = fixture["home_legs"], fixture["away_legs"]
        if not fixture["complete"]:
            continue
        for team, mine, theirs in ((fixture["home"], home_legs, away_legs), (fixture["away"], away_legs, home_legs)):
            row = rows[team]
            row["played"] += 1
            row["leg_points"] += mine
            outcome = "won" if mine > theirs else "lost" if mine < theirs else "drawn"
            row[outcome] += 1
            row["points"] += {"won": rules["match_win"], "drawn": rules["match_draw"], "lost": 0}[outcome]
    ordered = sorted(rows.values(), key=lambda r: (-r["points"], -r["leg_points"], r["team"].casefold(), r["team"]))
    for index, row in enumerate(ordered):
        before = ordered[index - 1] if index else None
        tied = before is not None and (before["points"], before["leg_points"]) == (row["points"], row["leg_points"])
        row["place"] = before["place"] if tied else index + 1
    return ordered


def season_view(db, season_id):
    """Everything a season's page and `league show` tell: ``{"season", "teams", "fixtures",
    "table"}``; each fixture ``{"id", "day", "home", "away", "legs", "home_legs", "away_legs",
    "complete"}``, each leg ``{"number", "kind", "home", "away", "session", "result"}``."""
    rules = season(db, season_id)
    names = db.register_names()
    fixtures = []
    by_id = {}
    for fixture_id, date, home, away in read(
            db, "SELECT f.id, f.day, h.name, a.name FROM fixtures f JOIN teams h ON h.id = f.home JOIN teams a ON a.id = f.away"
                " WHERE f.season = ? ORDER BY f.day, f.id", (season_id,)):
        by_id[fixture_id] = {"id": fixture_id, "day": date, "home": home, "away": away, "legs": []}
        fixtures.append(by_id[fixture_id])
    legs = {}
    for leg, fixture_id, number, kind, session_id in read(
            db, "SELECT l.id, l.fixture, l.number, l.kind, l.session FROM legs l JOIN fixtures f ON f.id = l.fixture"
                " WHERE f.season = ? ORDER BY l.fixture, l.number", (season_id,)):
        legs[leg] = {"number": number, "kind": kind, "home": [], "away": [], "session": session_id}
        by_id[fixture_id]["legs"].append(legs[leg])
    for leg, side, name in read(db, "SELECT lp.leg, lp.side, p.name FROM leg_players lp JOIN players p ON p.id = lp.player"
                                    " JOIN legs l ON l.id = lp.leg JOIN fixtures f ON f.id = l.fixture WHERE f.season = ?"
                                    " ORDER BY lp.leg, lp.side, lp.place", (season_id,)):
        legs[leg][side].append(name)
    for leg in legs.values():
        session = None
        if leg["session"] is not None:
            session = db.session(leg["session"])
            session = dict(session, players=seated(session, names))
        leg["result"] = leg_result(leg, session)
    for fixture in fixtures:
        fixture["home_legs"], fixture["away_legs"], fixture["complete"] = fixture_score(rules, fixture)
    found = teams(db, season_id)
    return {"season": rules, "teams": found, "fixtures": fixtures, "table": league_table(rules, [t["name"] for t in found], fixtures)}


# ----- what the command prints


def _list(db):
    found = seasons(db)
    if not found:
        print("no league season in %s yet (add one with `tiletable league add NAME`)" % db.path)
        return
    for s in found:
        print("%4d  %s: %d singles, %d doubles; a leg %d (drawn %d), a match %d (drawn %d)" % (
            s["id"], s["name"], s["singles"], s["doubles"], s["leg_win"], s["leg_draw"], s["match_win"], s["match_draw"]))


def result_text(leg):
    """A leg's result for people: who won it, "drawn", or "not played yet"."""
    if leg["result"] is None:
        return "not played yet"
    if leg["result"] == "draw":
        return "drawn"
    return "%s won" % " & ".join(leg[leg["result"]])


def _show(view):
    rules = view["season"]
    print("%s: %d singles and %d doubles a match; a leg %d (drawn %d), a match %d (drawn %d)" % (
        rules["name"], rules["singles"], rules["doubles"], rules["leg_win"], rules["leg_draw"], rules["match_win"], rules["match_draw"]))
    print("%5s  %-24s  %6s  %3s  %5s  %4s  %10s  %6s" % ("place", "team", "played", "won", "drawn", "lost", "leg points", "points"))
    for row in view["table"]:
        print("%5d  %-24s  %6d  %3d  %5d  %4d  %10d  %6d" % (
            row["place"], row["team"], row["played"], row["won"], row["drawn"], row["lost"], row["leg_points"], row["points"]))
    for fixture in view["fixtures"]:
        print("fixture %d, %s: %s %d-%d %s%s" % (fixture["id"], fixture["day"], fixture["home"], fixture["home_legs"], fixture["away_legs"],
                                              fixture["away"], "" if fixture["complete"] else " (not finished)"))
        for leg in fixture["legs"]:
            print("  leg %d %-7s  %s v %s: %s%s" % (leg["number"], leg["kind"], " & ".join(leg["home"]), " & ".join(leg["away"]),
                                               result_text(leg), "" if leg["session"] is None else " (session %d)" % leg["session"]))
