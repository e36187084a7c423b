"""A club night in a database, for the tests and screenshots of the web pages: three named
tables, each with matches played tonight as the table journals them (times, undos, an end
record with the winners), one match still in progress, and an older match from last week;
and with ``club_events``, the night as an event of two rounds and a league season over it."""
import os
import random
import time

from engine.families_play import Rng, choose
from journal_games import NAMES
from tiletable.engine.rulesets import find_ruleset
from tiletable.runtime.session import Session
from tiletable_host.db import Database
from tiletable_host.pull import pull_journal
from tiletable_host.transport_local import LocalTransport

# (table, ruleset, seed, hours before now it started, finished)
NIGHT = [
    ("Table 1", "muggins", 11, 3.0, True),
    ("Table 1", "muggins", 12, 1.5, True),
    ("Table 2", "moon", 13, 2.5, True),
    ("Table 2", "sniff", 14, 0.5, False),
    ("Table 3", "block", 15, 2.0, True),
    ("Table 3", "draw", 16, 1.0, True),
    ("Table 3", "muggins", 17, 24 * 7, True),  # last week's: not on tonight's leaderboard
]


def play_session(journal, name, seed, started, finished, actions=60, ruleset=None, players=None):
    """One match of preset ``name`` (or of ``ruleset``, by ``players``) journalled by the
    table's own ``Session``, started at ``started`` (Unix seconds); ``finished``: played to its
    end, else stopped after ``actions`` actions, as a match in progress. Returns the final state."""
    ruleset = ruleset or find_ruleset(name)
    players = list(players or NAMES[: ruleset.player_counts()[0]])
    state = ruleset.new_state(len(players))
    session = Session.start(journal, ruleset, state, players, "test", int(started), 0)
    rng, choice = random.Random(seed), Rng(seed)
    now_ms = 0
    count = 0
    while not state.is_over() and (finished or count < actions):
        now_ms += rng.randrange(2000, 20000)
        session.apply(choose(state, choice, bid_rarely=True), now_ms)
        count += 1
        if rng.random() < 0.03:  # a play taken back at the table
            session.undo_last()
    if finished:
        journal.end_session(session.result("over"))
    else:
        journal.flush()
    return state


def club_night(folder, now=None):
    """Write the night into a SQLite database in ``folder``; returns its path."""
    now = time.time() if now is None else now
    db_path = os.path.join(str(folder), "club.db")
    db = Database.open(db_path)
    try:
        for table in sorted({row[0] for row in NIGHT}):
            device = LocalTransport(os.path.join(str(folder), table.replace(" ", "-")))
            device.server.device = "tiletable-e66%s" % table[-1]  # each table its own chip id
            for _, name, seed, hours, finished in [row for row in NIGHT if row[0] == table]:
                play_session(device.journal, name, seed, now - hours * 3600, finished)
            device.set_name(table)
            device.hello()
            pull_journal(device, db)
    finally:
        db.close()
    return db_path


PARTNERS = ("dee", "eve", "fay", "gus")  # dee and fay against eve and gus: nobody of the night's other matches


def club_events(folder, db_path, now=None):
    """Add to the night's database (``club_night``) a partnership match of Muggins on "Table 4"
    (session 8), the night as an event (round 1: sessions 1, 3, 5; round 2: 2, 6, 8) and a
    league season of 2 singles and 1 doubles a match: Red Lion v Black Bull with every leg
    decided, Black Bull v Crown with one leg not played yet."""
    from tiletable_host import events, league

    now = time.time() if now is None else now
    pairs = find_ruleset("muggins", partnerships=True, deal={"4": 5})
    device = LocalTransport(os.path.join(str(folder), "Table-4"))
    device.server.device = "tiletable-e664"
    play_session(device.journal, "muggins", 18, now - 0.75 * 3600, True, ruleset=pairs, players=PARTNERS)
    device.set_name("Table 4")
    device.hello()
    db = Database.open(db_path)
    try:
        db.remember_ruleset(pairs.hash, pairs.name, pairs.to_json())
        pull_journal(device, db)
        event = events.add_event(db, "Friday night", time.strftime("%Y-%m-%d", time.gmtime(now)), "night")
        for number, sessions in ((1, [1, 3, 5]), (2, [2, 6, 8])):
            events.add_round(db, event)
            events.attach_sessions(db, event, number, sessions)
        season = league.add_season(db, "Winter league", 2, 1, 1, 0, 2, 1)
        league.add_team(db, season, "Red Lion", "ann,dee,fay")
        league.add_team(db, season, "Black Bull", "bob,eve,gus")
        league.add_team(db, season, "Crown", "cy")
        first = league.add_fixture(db, season, "Red Lion", "Black Bull", "2026-12-04")
        league.add_leg(db, first, "ann", "bob", 1)
        league.add_leg(db, first, "ann", "bob", 2)
        league.add_leg(db, first, "dee,fay", "eve,gus", 8)
        second = league.add_fixture(db, season, "Black Bull", "Crown", "2026-12-11")
        league.add_leg(db, second, "bob", "cy")
    finally:
        db.close()
    return db_path
