"""Sessions written into a real Journal the way the table runtime writes them: every action
(chance included) as canonical text, then the score events it caused, then an end record.
Games are played by random players from a seed, so each test knows exactly what was logged."""
import random

from tiletable.engine.rulesets import find_ruleset
from tiletable.engine.state import CHANCE, TERMINAL


def play_into_journal(journal, ruleset_name="muggins", players=("ann", "bob"), seed=1, max_actions=None, choose=None, tenths_apart=None):
    """Play one match (or its first ``max_actions`` actions) into ``journal``; returns the final state.

    ``choose(state)``, when given, picks each action instead of a uniform random choice;
    ``tenths_apart``, when given, times the actions that far apart (else they have no time,
    as in journals from before actions had times).
    """
    ruleset = find_ruleset(ruleset_name)
    state = ruleset.new_state(len(players))
    rng = random.Random(seed)
    journal.start_session(ruleset.name, ruleset.hash, list(players), "test", 1700000000 + seed)
    count = 0
    while state.current_player() != TERMINAL and (max_actions is None or count < max_actions):
        player = state.current_player()
        if choose is not None:
            action = choose(state)
        else:
            action = rng.choice(list(state.chance_outcomes() if player == CHANCE else state.legal_actions()))
        events = state.play(action)
        journal.log_action(state.action_str(action), -1 if tenths_apart is None else count * tenths_apart)
        for event in events:
            journal.log_score(event.seat, event.points, event.rule)
        count += 1
    if state.is_over():
        journal.end_session({"reason": state.outcome().termination, "scores": list(state.scores)})
    else:
        journal.flush()
    return state


NAMES = ("ann", "bob", "cy", "di")


def play_whole_match(journal, ruleset_name, seed=5):
    """A whole match of preset ``ruleset_name`` for its default number of players (named from
    ``NAMES``), by random players who bid rarely (random Moon bids would never end a match)."""
    from engine.families_play import Rng, choose

    ruleset = find_ruleset(ruleset_name)
    players = NAMES[: ruleset.player_counts()[0]]
    rng = Rng(seed)
    return play_into_journal(journal, ruleset_name, players, seed, choose=lambda state: choose(state, rng, bid_rarely=True))


def play_as_the_table(journal, ruleset, rng, choice, hands=None, actions=None):
    """A session of ``ruleset`` journalled by the table's own ``Session`` (actions with their
    times and scores, undos as amendments), played by ``choice`` (an ``Rng``) until the match is
    over, or is in hand ``hands`` (from 1), or has had ``actions`` actions; ``rng`` (a
    ``random.Random``) times the plays and takes a few back. Returns the session: end it with
    ``journal.end_session(session.result(reason))`` as the table does."""
    from engine.families_play import choose
    from tiletable.runtime.session import Session

    players = list(NAMES[: ruleset.player_counts()[0]])
    state = ruleset.new_state(len(players))
    session = Session.start(journal, ruleset, state, players, "test", 1700000000 + rng.randrange(10**6), 0)
    now_ms = 0
    count = 0
    while not state.is_over() and (hands is None or state.hand_number + 1 < hands) and (actions is None or count < actions):
        now_ms += rng.randrange(50, 9000)
        session.apply(choose(state, choice, bid_rarely=True), now_ms)
        count += 1
        if rng.random() < 0.04:  # a play taken back at the table, then another chosen
            session.undo_last()
    return session


def write_record_files(db_path, folder):
    """Each session stored in the database ``db_path`` as a record file in ``folder`` (what a
    PC imports); returns their paths."""
    import os

    from tiletable_host import record as recordmod
    from tiletable_host.db import Database

    db = Database.open(db_path)
    paths = []
    for number, text in enumerate(recordmod.session_records_text(db, db.sessions())):
        paths.append(os.path.join(str(folder), "game%d.tgr" % number))
        with open(paths[-1], "w", encoding="utf-8") as handle:
            handle.write(text)
    db.close()
    return paths
