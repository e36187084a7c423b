# portable
"""runtime/session.py: a match's checked act, its journal, undo as an amendment, and the replay
that resumes it after a restart."""
from portable import raises, table_ruleset
from runtime.scratch import fresh_dir

from tiletable.engine.errors import IllegalAction
from tiletable.record_read import InEffect, RecordVisitor, visit
from tiletable.runtime.journal import Journal
from tiletable.runtime.session import Session


def _started(name):
    journal = Journal(fresh_dir(name), flush_records=1)
    ruleset = table_ruleset("muggins")
    return Session.start(journal, ruleset, ruleset.new_state(2), ["Ann", "Bo"], "0.4.0", None, 1000)


def _play_until_a_score(session):
    """The first legal action, again and again, until one scores (a deal, then plays)."""
    state = session.state
    now_ms = 1000
    while not state.score_events:
        now_ms += 700
        session.apply(session.check(next(iter(state.legal_actions()))), now_ms)
    return now_ms


class _Journalled(RecordVisitor):
    """Every action, undo and score of the session, as the journal has them."""

    def __init__(self, journal):
        self.actions = []
        self.undos = []
        self.scores = []
        visit(journal.session_records(), self)

    def action(self, seq, text, tenths):
        self.actions.append((seq, text, tenths))

    def undo(self, seq, target, taken):
        self.undos.append((target, taken))

    def score(self, seq, seat, points, rule):
        self.scores.append((seat, points, rule))


def test_each_action_is_journalled_with_its_time_and_the_score_it_made():
    session = _started("session-act")
    assert session.header_seq > 0 and session.player_names == ["Ann", "Bo"]
    last_ms = _play_until_a_score(session)
    state = session.state
    journalled = _Journalled(session.journal)
    assert [seq for seq, _, _ in journalled.actions] == session.seqs
    assert [text for _, text, _ in journalled.actions] == [state.action_str(a) for a in state.history]
    assert journalled.actions[-1][2] == (last_ms - 1000) // 100  # tenths since the start
    event = state.score_events[0]
    assert journalled.scores == [(event.seat, event.points, event.rule)]


def test_an_illegal_action_is_refused_with_its_reason_and_changes_nothing():
    session = _started("session-illegal")
    err = raises(IllegalAction, session.check, "0-0>L")
    assert "deal" in err.reason
    assert session.state.history == [] and session.seqs == []
    assert _Journalled(session.journal).actions == []


def test_undo_takes_back_the_last_action_as_an_amendment_of_its_record():
    session = _started("session-undo")
    _play_until_a_score(session)
    last_seq = session.seqs[-1]
    played = len(session.state.history)
    text, seq = session.undo_last()
    assert seq == last_seq and len(session.state.history) == played - 1
    journalled = _Journalled(session.journal)
    assert text == journalled.actions[-1][1]
    assert journalled.undos == [(seq, True)]


def test_a_restart_replays_the_actions_in_effect_and_the_clock_goes_on():
    session = _started("session-replay")
    last_ms = _play_until_a_score(session)
    session.undo_last()
    again = Journal(session.journal.root)
    records = InEffect()
    visit(again.session_records(), records)
    resumed = Session.replay(again, session.ruleset, records, 50000)
    assert resumed.state.history == session.state.history and resumed.seqs == session.seqs
    assert resumed.state.scores == session.state.scores and resumed.player_names == ["Ann", "Bo"]
    # the next action's time follows the last journalled one's, not the restart's
    assert resumed.started_ms == 50000 - (last_ms - 1000) // 100 * 100


def test_a_restart_refuses_a_ruleset_changed_since_the_session_started():
    tuned = table_ruleset("muggins", target=121)
    session = _started("session-changed")
    records = InEffect()
    visit(Journal(session.journal.root).session_records(), records)
    err = raises(ValueError, Session.replay, session.journal, tuned, records, 0)
    assert "changed since the session started" in str(err)
