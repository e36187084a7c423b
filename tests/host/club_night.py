"""A club night in a database, for the tests and screenshots of the web pages: three named
tables, each with matches played tonight as the table journals them (times, undos, an end
record with the winners), one match still in progress, and an older match from last week."""
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


def play_session(journal, name, seed, started, finished, actions=60):
    """One match of preset ``name`` journalled by the table's own ``Session``, started at
    ``started`` (Unix seconds); ``finished``: played to its end, else stopped after ``actions``
    actions, as a match in progress. Returns the final state."""
    ruleset = find_ruleset(name)
    players = list(NAMES[: ruleset.player_counts()[0]])
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
