"""The watch view of every game family, drawn from a STATE snapshot and the journal of the
session in progress (an in-process device whose STATE answers like the table runtime's)."""
import io
import random
import json

import pytest

from cli import tiletable
from journal_games import play_into_journal
from tiletable.engine.rulesets import preset_names
from tiletable.engine.state import CHANCE, SIMULTANEOUS, TERMINAL
from tiletable.proto.messages import EV_ERROR, STATE
from tiletable_host.people import score_value
from tiletable_host.transport_local import LocalTransport
from tiletable_host.watch import TableView, follow

# A family's own line, from its view (views.py)
FAMILY_LINE = {"line": "line: ", "trick": "trick ", "fortytwo": "trick ", "column": "columns: ", "climb": "to beat: ", "train": "round "}


def _device(tmp_path, name, players, actions):
    device = LocalTransport(str(tmp_path / "device"))
    state = play_into_journal(device.journal, name, players, seed=5, max_actions=actions)
    actor = state.current_player()
    snapshot = {
        "mode": "game",
        "menu": [name, len(players)],
        "ruleset": name,
        "players": len(players),
        "scores": [score_value(score, getattr(state, "score_scale", 1)) for score in state.scores],  # Buki: chips
        "hand": state.hand_number,
        "actions": len(state.history),
        "to_act": {CHANCE: "chance", SIMULTANEOUS: "all", TERMINAL: "over"}.get(actor, actor),
        "prompt": "P1 to play",
    }
    device.server.register(STATE, lambda fields: {"snapshot": json.dumps(snapshot)}, "game")
    return device, state


@pytest.mark.parametrize("name", preset_names())
def test_watch_once_shows_scores_turn_table_and_last_play_for_every_preset(capsys, tmp_path, name):
    names = ("ann", "bob", "cy", "di")
    device, state = _device(tmp_path, name, names[: find_players(name)], 80)
    status, out, err = tiletable(capsys, ["watch", "--once", "--db", str(tmp_path / "none.db")], device)
    assert status == 0, err
    lines = out.splitlines()
    assert lines[0].startswith("%s, hand %d, " % (name, state.hand_number + 1))
    for seat in range(state.players):
        score = state.scores[seat]
        shown = ("%.1f" % (score / 2.0)).replace(".0", "") if name == "buki" else str(score)  # Buki: chips
        assert lines[1 + seat].startswith("  P%d %-10s %5s" % (seat + 1, names[seat], shown))
    family = state.ruleset.family
    if family in FAMILY_LINE and (family != "climb" or state.last_player is not None):
        assert any(line.startswith(FAMILY_LINE[family]) for line in lines), out
    assert lines[-1] == "table says: P1 to play"


def find_players(name):
    from tiletable.engine.rulesets import find_ruleset

    return find_ruleset(name).new_state().players


def test_watch_shows_the_last_error_event(capsys, tmp_path):
    device, _ = _device(tmp_path, "muggins", ("ann", "bob"), 20)
    device.send_event(EV_ERROR, {"code": 4, "message": "5-6 does not match either end"})
    status, out, _ = tiletable(capsys, ["watch", "--once"], device)
    assert status == 0 and out.splitlines()[-1] == "last error: 5-6 does not match either end"


def test_watch_shows_the_tables_error_as_the_table_words_it(capsys, tmp_path):
    """The table names seats from 1 (``P3`` is the third seat): the PC does not count again."""
    device, _ = _device(tmp_path, "muggins", ("P1", "P2", "P3"), 30)
    device.send_event(EV_ERROR, {"code": 8, "message": "P3 has nothing to claim"})
    status, out, _ = tiletable(capsys, ["watch", "--once"], device)
    assert status == 0 and out.splitlines()[-1] == "last error: P3 has nothing to claim"


def test_watch_shows_a_seat_named_by_its_number_once(capsys, tmp_path):
    device, state = _device(tmp_path, "muggins", ("P1", "P2"), 30)
    out = tiletable(capsys, ["watch", "--once"], device)[1]
    assert out.splitlines()[1].startswith("  P1 %s %5d" % (" " * 10, state.scores[0]))


def test_an_error_event_is_the_last_error_until_the_next_play_event():
    view = TableView(None)
    view.on_event("error event", {"code": 8, "message": "P3 has nothing to claim"})
    assert view.event_error == "P3 has nothing to claim"
    view.on_event("play event", {"seat": 1, "action": "draw", "journal_seq": 30})
    assert view.event_error is None


def test_watch_names_the_last_play_and_explains_its_score(capsys, tmp_path):
    device, state = _device(tmp_path, "muggins", ("ann", "bob"), 400)
    replay = state.fresh()
    description, events = None, []
    for action in state.history:
        by_a_seat = replay.current_player() >= 0
        text = replay.describe(action)
        before = len(replay.score_events)
        replay.apply(action)
        if by_a_seat:
            description, events = text, replay.score_events[before:]
    status, out, _ = tiletable(capsys, ["watch", "--once"], device)
    lines = out.splitlines()
    index = next(i for i, line in enumerate(lines) if line.startswith("last play: #"))
    assert status == 0 and lines[index].endswith(" " + _named(description))
    explained = ["  %s %+d %s: %s" % (("ann", "bob")[e.seat], e.points, e.rule, _named(e.detail)) for e in events]
    assert lines[index + 1 : index + 1 + len(explained)] == explained


def _named(engine_text):
    """The engine's seats (P0, P1) as the players of these tests are named."""
    return engine_text.replace("P0", "ann").replace("P1", "bob")


def test_watch_refuses_a_device_without_a_game_runtime(capsys, tmp_path):
    device = LocalTransport(str(tmp_path / "device"))
    status, _, err = tiletable(capsys, ["watch", "--once"], device)
    assert status == 1
    assert err == "tiletable: watch: tiletable-local has no game runtime to watch (capabilities: journal, journal-stream, maintenance, name, ruleset-deflate, rulesets)\n"


class _Stopping:
    """The link for ``follow``: each poll, a change of the table (or none); Ctrl-C after the last."""

    def __init__(self, device, changes):
        self.device = device
        self.changes = list(changes)

    def poll_events(self, interval):
        if not self.changes:
            raise KeyboardInterrupt
        self.changes.pop(0)()


def test_following_into_a_log_prints_a_view_only_when_it_changed(tmp_path):
    device, _ = _device(tmp_path, "muggins", ("ann", "bob"), 20)
    device.hello()
    view = TableView(device)
    device.on_event = view.on_event
    out = io.StringIO()
    error = lambda: device.send_event(EV_ERROR, {"code": 4, "message": "5-6 does not match either end"})  # noqa: E731
    with pytest.raises(KeyboardInterrupt):
        follow(view, _Stopping(device, [lambda: None, lambda: None, error, lambda: None]), 0.01, out)
    blocks = out.getvalue().split("\n\n")[:-1]
    assert len(blocks) == 2 and blocks[1].endswith("last error: 5-6 does not match either end")


def _match_flushes(tmp_path, name, watched):
    """Flash syncs of one Block match journalled action by action, the view refreshed before
    every action when ``watched``; the view's records at the end and the journal's."""
    device = LocalTransport(str(tmp_path / name))
    snapshot = {"mode": "game", "menu": ["block", 2], "ruleset": "block", "players": 2, "scores": [0, 0], "prompt": ""}
    device.server.register(STATE, lambda fields: {"snapshot": json.dumps(snapshot)}, "game")
    device.hello()
    view = TableView(device)
    rng = random.Random(3)
    seen_pending = [0]

    def choose(state):
        if watched:
            view.refresh()
            journal = device.journal
            assert [r[0] for r in view.records][-1:] == [journal.next_seq - 1], "every record, the unflushed ones too"
            seen_pending[0] += journal.next_seq - 1 > journal.durable_seq
        return rng.choice(list(state.chance_outcomes() if state.current_player() == CHANCE else state.legal_actions()))

    play_into_journal(device.journal, "block", ("ann", "bob"), choose=choose)
    return device.journal.flush_count, seen_pending[0]


def test_watching_a_match_forces_no_flash_sync(tmp_path):
    """watch pulls the journal every half second: a pull must not flush the batch the journal
    keeps (it read the unflushed records from the write buffer instead)."""
    alone, _ = _match_flushes(tmp_path, "alone", watched=False)
    watched, refreshes_with_pending = _match_flushes(tmp_path, "watched", watched=True)
    assert watched == alone and refreshes_with_pending > 20, (watched, alone, refreshes_with_pending)


def test_watch_reads_again_what_was_not_on_flash(tmp_path):
    """A record above the table's flush mark may yet be lost and its number reused: the view
    drops such records at its next refresh and reads them again."""
    device, _ = _device(tmp_path, "muggins", ("ann", "bob"), 20)
    device.hello()
    view = TableView(device)
    journal = device.journal
    journal.log_action("lost")
    view.refresh()
    assert view.records[-1][2] == b"lost" and view.provisional == 1
    journal._file = _FullFlash(journal._file)
    journal.flush()  # fails: "lost" is dropped and its number goes to the next record
    assert journal.dropped == 1
    journal.log_action("6-6")
    journal.flush()
    view.refresh()
    assert view.records[-1][2] == b"6-6" and view.provisional == 0
    assert [r[0] for r in view.records] == sorted(set(r[0] for r in view.records))


class _FullFlash:
    """A session file whose writes fail as on a full flash."""

    def __init__(self, file):
        self.file = file

    def write(self, data):
        raise OSError(28, "no space left on device")

    def close(self):
        self.file.close()
