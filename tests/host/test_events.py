"""Nights and leagues on both engines: an event's rounds and tables and its rankings of players
and partnerships, a league season's fixtures with legs linked to sessions and its table, each
mistake said in one line, an older database migrated, and `db copy`/`db check` carrying and
checking all of it."""
import calendar
import json
import re

import pytest

from cli import tiletable
from tiletable.engine.rulesets import find_ruleset
from tiletable.record import REC_END, REC_HEADER
from tiletable_host.db import Database
from tiletable_host.events import placed, ranking
from tiletable_host.league import fixture_score, league_table, leg_result

NIGHT = calendar.timegm((2026, 12, 4, 19, 0, 0))  # a Friday, 19:00 UTC
PAIRS = find_ruleset("muggins", partnerships=True, deal={"4": 5})  # partners opposite


def _session(players, scores=None, won=None):
    result = None if scores is None else {"reason": "over", "scores": scores, "winners": won}
    return {"players": players, "result": result, "ruleset": "muggins", "hash": "", "id": 0}


# ----- the arithmetic


def test_the_ranking_counts_wins_then_points_and_ties_share_a_place():
    sessions = [
        _session(["ann", "bob"], [61, 40], [0]),
        _session(["cy", "dee"], [71, 50], [0]),
        _session(["ann", "cy", "bob", "dee"], [61, 30, 61, 30], [0, 2]),  # ann and bob partners against cy and dee
        _session(["bob", "dee"]),  # in progress: counts nothing
    ]
    players, pairs = ranking(sessions, lambda s: 1, lambda s: [(0, 2), (1, 3)] if len(s["players"]) == 4 else [])
    assert [(r["place"], r["name"], r["played"], r["wins"], r["points"]) for r in players] == [
        (1, "ann", 2, 2, 122), (2, "bob", 2, 1, 101), (2, "cy", 2, 1, 101), (4, "dee", 2, 0, 80)]
    assert [(r["place"], r["name"], r["played"], r["wins"], r["points"]) for r in pairs] == [(1, "ann & bob", 1, 1, 61), (2, "cy & dee", 1, 0, 30)]
    assert [r["place"] for r in placed([{"name": n, "wins": 0, "points": 0} for n in "abc"])] == [1, 1, 1]


def test_a_leg_goes_to_the_side_that_won_its_session_and_waits_for_one():
    leg = {"home": ["ann", "bob"], "away": ["cy", "dee"]}
    assert leg_result(leg, _session(["ann", "cy", "bob", "dee"], [61, 30, 61, 30], [0, 2])) == "home"
    assert leg_result(leg, _session(["cy", "ann", "dee", "bob"], [61, 30, 61, 30], [0, 2])) == "away"
    assert leg_result(leg, _session(["ann", "cy", "bob", "dee"], [50, 50, 50, 50], [0, 1, 2, 3])) == "draw"
    assert leg_result(leg, _session(["ann", "cy", "bob", "dee"])) is None  # in progress
    assert leg_result(leg, None) is None  # no session yet


def test_the_league_table_counts_finished_matches_with_draws_and_shared_places():
    rules = {"singles": 2, "doubles": 1, "leg_win": 2, "leg_draw": 1, "match_win": 3, "match_draw": 1}

    def fixture(home, away, *results):
        played = {"home": home, "away": away, "legs": [{"result": result} for result in results]}
        played["home_legs"], played["away_legs"], played["complete"] = fixture_score(rules, played)
        return played

    fixtures = [
        fixture("Anchor", "Bell", "home", "home", "away"),  # 4-2: Anchor won
        fixture("Bell", "Crown", "draw", "away", "home"),  # 3-3: drawn
        fixture("Crown", "Anchor", "home", "home", None),  # a leg without a session: not finished, not counted
    ]
    assert [(f["home_legs"], f["away_legs"], f["complete"]) for f in fixtures] == [(4, 2, True), (3, 3, True), (4, 0, False)]
    table = league_table(rules, ["Anchor", "Bell", "Crown", "Dragon", "Eagle"], fixtures)
    assert [(r["place"], r["team"], r["played"], r["won"], r["drawn"], r["lost"], r["leg_points"], r["points"]) for r in table] == [
        (1, "Anchor", 1, 1, 0, 0, 4, 3),
        (2, "Bell", 2, 0, 1, 1, 5, 1),
        (3, "Crown", 1, 0, 1, 0, 3, 1),
        (4, "Dragon", 0, 0, 0, 0, 0, 0),
        (4, "Eagle", 0, 0, 0, 0, 0, 0),
    ]


# ----- the commands, on both engines


def _played(db_target, device, table, *games):
    """Store ``games`` (players, scores or None for one in progress, winners, minutes after
    19:00) as the table ``device`` named ``table`` journals them; a game of four is played in
    partnerships."""
    db = Database.open(db_target)
    try:
        db.remember_ruleset(PAIRS.hash, PAIRS.name, PAIRS.to_json())
        records = []
        for players, scores, won, minutes in games:
            content = PAIRS.hash if len(players) == 4 else ""
            header = {"players": players, "ruleset": "muggins", "hash": content, "time": NIGHT + 60 * minutes}
            records.append((len(records) + 1, REC_HEADER, json.dumps(header).encode()))
            if scores is not None:
                records.append((len(records) + 1, REC_END, json.dumps({"reason": "over", "scores": scores, "winners": won}).encode()))
        db.import_records(device, records)
        db.remember_pull(device, "", 1, table)
    finally:
        db.close()
    return db_target


def _club(db_target):
    """Two tables' night: sessions 1-3 on Table 1, 4-6 on Table 2."""
    _played(db_target, "tiletable-a1", "Table 1",
            (["ann", "bob"], [61, 40], [0], 0), (["ann", "cy", "bob", "dee"], [61, 30, 61, 30], [0, 2], 40), (["ann", "dee"], [55, 61], [1], 90))
    _played(db_target, "tiletable-b2", "Table 2",
            (["cy", "dee"], [61, 50], [0], 5), (["bob", "cy"], [20, 61], [1], 50), (["eve", "bob"], None, None, 100))
    return db_target


def _ok(capsys, *argv):
    status, out, err = tiletable(capsys, list(argv))
    assert (status, err) == (0, ""), (argv, err)
    return out


def _error(capsys, *argv):
    status, out, err = tiletable(capsys, list(argv))
    assert status == 1 and out == "" and err.count("\n") == 1, (argv, out, err)
    return err.strip()


def test_an_event_has_rounds_with_their_tables_and_ranks_players_and_partners(capsys, db_target):
    db = _club(db_target)
    assert _ok(capsys, "event", "add", "Friday night", "--date", "2026-12-04", "--db", db) == "event 1: Friday night, a night on 2026-12-04\n"
    assert _ok(capsys, "event", "round", "1", "--db", db) == "round 1 of event 1\n"
    assert _ok(capsys, "event", "round", "1", "--db", db) == "round 2 of event 1\n"
    assert _ok(capsys, "event", "attach", "1", "1", "--session", "1", "4", "--db", db) == "round 1 of event 1: sessions 1, 4\n"
    out = _ok(capsys, "event", "attach", "1", "2", "--tables", "Table 1, Table 2", "--from", "2026-12-04 19:30", "--until", "2026-12-04 20:35", "--db", db)
    assert out == "round 2 of event 1: sessions 2, 3, 5\n"
    out = _ok(capsys, "event", "show", "1", "--db", db)
    assert out.splitlines() == [
        "Friday night: a night on 2026-12-04",
        "round 1",
        "  Table 1      session 1  muggins  ann, bob",
        "  Table 2      session 4  muggins  cy, dee",
        "round 2",
        "  Table 1      session 2  muggins  ann, cy, bob, dee",
        "  Table 1      session 3  muggins  ann, dee",
        "  Table 2      session 5  muggins  bob, cy",
        "ranking of players: place, name, played, wins, points",
        "    1  ann                         3    2     177",
        "    2  cy                          3    2     152",
        "    3  dee                         3    1     141",
        "    4  bob                         3    1     121",
        "ranking of partnerships: place, name, played, wins, points",
        "    1  ann & bob                   1    1      61",
        "    2  cy & dee                    1    0      30",
    ]
    assert _ok(capsys, "event", "--db", db).splitlines()[1].split() == ["1", "2026-12-04", "night", "2", "5", "Friday", "night"]


def test_each_event_mistake_is_one_line_and_changes_nothing(capsys, db_target):
    db = _club(db_target)
    _ok(capsys, "event", "add", "Friday night", "--date", "2026-12-04", "--db", db)
    _ok(capsys, "event", "add", "Open", "--date", "2026-12-05", "--kind", "tournament", "--db", db)
    _ok(capsys, "event", "round", "1", "--db", db)
    _ok(capsys, "event", "round", "2", "--db", db)
    _ok(capsys, "event", "attach", "1", "1", "--session", "1", "--db", db)
    assert _error(capsys, "event", "add", "Friday night", "--date", "2026-12-04", "--db", db) == \
        "tiletable: event: there is an event 'Friday night' on 2026-12-04 already (see `tiletable event`)"
    assert _error(capsys, "event", "add", "Quiz", "--date", "4/12/2026", "--db", db) == "tiletable: event: --date wants a day as YYYY-MM-DD, not '4/12/2026'"
    assert _error(capsys, "event", "round", "9", "--db", db).startswith("tiletable: event: no event 9 in ")
    assert _error(capsys, "event", "attach", "1", "2", "--session", "2", "--db", db) == \
        "tiletable: event: event 1 has no round 2 (it has 1; add one with `tiletable event round 1`)"
    assert _error(capsys, "event", "attach", "1", "1", "--session", "2", "99", "--db", db).startswith("tiletable: event: no session 99 in ")
    assert _error(capsys, "event", "attach", "2", "1", "--session", "1", "--db", db) == \
        "tiletable: event: session 1 is in round 1 of Friday night (event 1) already"
    assert _error(capsys, "event", "attach", "2", "1", "--tables", "Table 3", "--from", "2026-12-04 19:00", "--until", "2026-12-04 23:00", "--db", db) == \
        "tiletable: event: no session of Table 3 started between 2026-12-04 19:00 and 2026-12-04 23:00 UTC"
    assert _error(capsys, "event", "attach", "2", "1", "--tables", "Table 1", "--from", "19:00", "--until", "2026-12-04 23:00", "--db", db) == \
        "tiletable: event: --from wants 'YYYY-MM-DD HH:MM' (UTC), not '19:00'"
    assert _error(capsys, "event", "attach", "2", "1", "--db", db) == \
        "tiletable: event: say which sessions: --session N..., or --tables with --from and --until"
    assert _error(capsys, "event", "attach", "2", "1", "--session", "2", "--tables", "Table 1", "--db", db) == \
        "tiletable: event: say which sessions one way: --session N..., or --tables with --from and --until"
    out = _ok(capsys, "event", "show", "1", "--db", db)
    assert "session 1 " in out and "session 2 " not in out  # the attach that failed stored none of its sessions
    assert _error(capsys, "event", "detach", "1", "2", "--db", db) == "tiletable: event: session 2 is in no event's round"
    assert _ok(capsys, "event", "detach", "1", "--db", db) == "session 1 is out of round 1 of event 1\n"
    assert _ok(capsys, "event", "attach", "2", "1", "--session", "1", "--db", db) == "round 1 of event 2: session 1\n"  # where it belonged


def _league(capsys, db):
    _ok(capsys, "league", "add", "Teesdale 2026", "--singles", "2", "--doubles", "1", "--leg-win", "1", "--win", "2", "--draw", "1", "--db", db)
    assert _ok(capsys, "league", "team", "1", "Red Lion", "--players", "ann, bob", "--db", db) == "Red Lion plays in season 1: ann, bob\n"
    _ok(capsys, "league", "team", "1", "Black Bull", "--players", "cy,dee", "--db", db)
    _ok(capsys, "league", "team", "1", "Crown", "--players", "eve", "--db", db)
    assert _ok(capsys, "league", "fixture", "1", "Red Lion", "Black Bull", "--date", "2026-12-04", "--db", db) == \
        "fixture 1: Red Lion v Black Bull on 2026-12-04\n"
    _ok(capsys, "league", "fixture", "1", "Crown", "Red Lion", "--date", "2026-12-11", "--db", db)


def test_a_league_season_links_each_leg_to_its_session_and_tables_the_finished_matches(capsys, db_target):
    db = _club(db_target)
    _league(capsys, db)
    assert _ok(capsys, "league", "leg", "1", "--home", "ann", "--away", "dee", "--session", "3", "--db", db) == \
        "leg 1 of fixture 1: singles, ann v dee, session 3\n"
    _ok(capsys, "league", "leg", "1", "--home", "bob", "--away", "cy", "--session", "5", "--db", db)
    _ok(capsys, "league", "leg", "1", "--home", "ann,bob", "--away", "cy,dee", "--session", "2", "--db", db)
    _ok(capsys, "league", "leg", "2", "--home", "eve", "--away", "bob", "--session", "6", "--db", db)  # in progress
    _ok(capsys, "league", "leg", "2", "--home", "eve", "--away", "ann", "--db", db)  # not played yet
    assert _error(capsys, "league", "link", "2", "2", "1", "--db", db) == "tiletable: league: session 1 was played by ann, bob, not by eve, ann"
    assert _error(capsys, "league", "link", "2", "1", "7", "--db", db) == "tiletable: league: leg 1 of fixture 2 was decided by session 6 already"
    assert _error(capsys, "league", "link", "2", "3", "7", "--db", db) == "tiletable: league: fixture 2 has no leg 3 (see `tiletable league show SEASON`)"
    out = _ok(capsys, "league", "show", "1", "--db", db)
    assert out.splitlines() == [
        "Teesdale 2026: 2 singles and 1 doubles a match; a leg 1 (drawn 0), a match 2 (drawn 1)",
        "place  team                      played  won  drawn  lost  leg points  points",
        "    1  Black Bull                     1    1      0     0           2       2",
        "    2  Red Lion                       1    0      0     1           1       0",
        "    3  Crown                          0    0      0     0           0       0",
        "fixture 1, 2026-12-04: Red Lion 1-2 Black Bull",
        "  leg 1 singles  ann v dee: dee won (session 3)",
        "  leg 2 singles  bob v cy: cy won (session 5)",
        "  leg 3 doubles  ann & bob v cy & dee: ann & bob won (session 2)",
        "fixture 2, 2026-12-11: Crown 0-0 Red Lion (not finished)",
        "  leg 1 singles  eve v bob: not played yet (session 6)",
        "  leg 2 singles  eve v ann: not played yet",
    ]


def test_each_league_mistake_is_one_line(capsys, db_target):
    db = _club(db_target)
    _league(capsys, db)
    _ok(capsys, "league", "leg", "1", "--home", "ann", "--away", "dee", "--session", "3", "--db", db)
    assert _error(capsys, "league", "leg", "1", "--home", "ann,bob", "--away", "cy", "--db", db) == \
        "tiletable: league: a leg is singles (one player a side) or doubles (two a side): --home has 2, --away 1"
    assert _error(capsys, "league", "leg", "1", "--home", "cy", "--away", "dee", "--db", db) == "tiletable: league: cy is not in Red Lion, the home team"
    assert _error(capsys, "league", "leg", "1", "--home", "bbo", "--away", "dee", "--db", db) == \
        "tiletable: league: nobody is named 'bbo' in the register (did you mean 'bob'?)"
    assert _error(capsys, "league", "leg", "1", "--home", "bob", "--away", "cy", "--session", "99", "--db", db).startswith("tiletable: league: no session 99 in ")
    assert _error(capsys, "league", "leg", "1", "--home", "bob", "--away", "cy", "--session", "3", "--db", db) == \
        "tiletable: league: session 3 decided leg 1 of fixture 1 already"
    assert _error(capsys, "league", "leg", "1", "--home", "bob", "--away", "cy", "--session", "1", "--db", db) == \
        "tiletable: league: session 1 was played by ann, bob, not by bob, cy"
    _played(db, "tiletable-c3", "Table 3", (["ann", "bob", "cy", "dee"], [61, 30, 61, 30], [0, 2], 120))  # session 7
    assert _error(capsys, "league", "leg", "1", "--home", "ann,bob", "--away", "cy,dee", "--session", "7", "--db", db) == \
        "tiletable: league: in session 7 ann and bob did not sit as partners (opposite each other)"
    assert _error(capsys, "league", "leg", "1", "--home", "ann,cy", "--away", "bob,dee", "--db", db) == "tiletable: league: cy is not in Red Lion, the home team"
    assert _error(capsys, "league", "leg", "7", "--home", "ann", "--away", "cy", "--db", db).startswith("tiletable: league: no fixture 7 in ")
    assert _error(capsys, "league", "team", "1", "Anchor", "--players", "ann", "--db", db) == "tiletable: league: ann plays for Red Lion in season 1 already"
    assert _error(capsys, "league", "fixture", "1", "Red Lion", "Swan", "--date", "2026-12-04", "--db", db) == \
        "tiletable: league: season 1 has no team 'Swan' (its teams: Black Bull, Crown, Red Lion)"
    _ok(capsys, "league", "leg", "1", "--home", "bob", "--away", "cy", "--db", db)
    assert _error(capsys, "league", "leg", "1", "--home", "ann", "--away", "cy", "--db", db) == "tiletable: league: fixture 1 has its 2 singles legs already"
    assert _ok(capsys, "league", "link", "1", "2", "5", "--db", db) == "leg 2 of fixture 1: session 5\n"  # bob v cy, played after all
    assert "  leg 2 singles  bob v cy: cy won (session 5)" in _ok(capsys, "league", "show", "1", "--db", db).splitlines()
    assert _ok(capsys, "league", "unlink", "1", "2", "--db", db) == "leg 2 of fixture 1: not decided by session 5\n"
    assert _error(capsys, "league", "unlink", "1", "2", "--db", db) == "tiletable: league: leg 2 of fixture 1 has no session"
    assert "  leg 2 singles  bob v cy: not played yet" in _ok(capsys, "league", "show", "1", "--db", db).splitlines()


def test_a_database_of_schema_5_gets_the_tables_of_nights_and_leagues(capsys, db_target):
    db = Database.open(_club(db_target))
    try:
        with db.transaction():
            for table in ("leg_players", "legs", "fixtures", "team_players", "teams", "seasons", "round_sessions", "event_rounds", "events"):
                db.execute("DROP TABLE %s" % table)
            if db_target.startswith("postgresql"):
                db.execute("UPDATE tiletable_schema SET version = 5")
            else:
                db.conn.execute("PRAGMA user_version = 5")
    finally:
        db.close()
    assert _ok(capsys, "event", "--db", db_target).startswith("no event in ")
    _league(capsys, db_target)
    assert _ok(capsys, "db", "check", "--db", db_target).endswith(": no problems found\n")


def test_db_copy_carries_events_and_leagues_once_and_check_finds_them_broken(capsys, new_db):
    src = _club(new_db("src"))
    _ok(capsys, "event", "add", "Friday night", "--date", "2026-12-04", "--db", src)
    _ok(capsys, "event", "round", "1", "--db", src)
    _ok(capsys, "event", "attach", "1", "1", "--session", "2", "5", "--table", "Top table", "--db", src)
    _league(capsys, src)
    _ok(capsys, "league", "leg", "1", "--home", "ann", "--away", "dee", "--session", "3", "--db", src)
    _ok(capsys, "league", "leg", "1", "--home", "ann,bob", "--away", "cy,dee", "--db", src)
    dst = _played(new_db("dst"), "tiletable-z9", "Table 9", (["zed", "ann"], [61, 0], [0], 0))  # its own session 1: SRC's are renumbered
    assert _ok(capsys, "db", "copy", src, dst).rstrip().endswith(", 1 events, 1 league seasons")
    assert _ok(capsys, "db", "copy", src, dst).rstrip().endswith(", 1 events, 1 league seasons")  # nothing twice
    for argv in (["event", "show", "1"], ["league", "show", "1"]):
        renumbered = re.sub(r"session (\d+)", lambda m: "session %d" % (int(m.group(1)) + 1), _ok(capsys, *argv, "--db", src))
        assert _ok(capsys, *argv, "--db", dst) == renumbered
    assert _ok(capsys, "db", "check", "--db", dst).endswith(": no problems found\n")
    db = Database.open(dst)
    try:
        with db.transaction():
            db.execute("DELETE FROM team_players WHERE player = (SELECT player FROM player_names WHERE name = 'dee')")
            db.execute("DELETE FROM leg_players WHERE place = 2 AND side = 'away'")
    finally:
        db.close()
    status, out, err = tiletable(capsys, ["db", "check", "--db", dst])
    assert status == 1 and err.endswith(": 2 problems found\n")
    dee = out.splitlines()[1].split()[7]  # leg 2 lost dee, leg 1 has them still
    assert out.splitlines() == [
        "leg 2 of fixture 1 is doubles but has 3 players",
        "leg 1 of fixture 1 has player %s on the away side, who is not in that team" % dee,
    ]


def test_a_merge_brings_a_players_team_place_and_legs_along(capsys, db_target):
    db = _club(db_target)
    _ok(capsys, "players", "add", "annie", "--db", db)
    _ok(capsys, "league", "add", "Summer", "--db", db)
    _ok(capsys, "league", "team", "1", "Red Lion", "--players", "annie,bob", "--db", db)
    _ok(capsys, "league", "team", "1", "Crown", "--players", "cy", "--db", db)
    _ok(capsys, "league", "fixture", "1", "Red Lion", "Crown", "--date", "2026-12-04", "--db", db)
    _ok(capsys, "league", "leg", "1", "--home", "annie", "--away", "cy", "--db", db)
    _ok(capsys, "players", "merge", "annie", "ann", "--db", db)
    assert "  leg 1 singles  ann v cy: not played yet" in _ok(capsys, "league", "show", "1", "--db", db).splitlines()
    _played(db, "tiletable-c3", "Table 3", (["ann", "cy"], [61, 10], [0], 120))  # session 7
    _ok(capsys, "league", "leg", "1", "--home", "ann", "--away", "cy", "--session", "7", "--db", db)  # ann is Red Lion's now
    assert _ok(capsys, "db", "check", "--db", db).endswith(": no problems found\n")
