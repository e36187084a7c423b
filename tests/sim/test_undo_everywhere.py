"""An undo means the same on the table's resume and on the PC's session log: both walk the
journal with ``record_read.visit``, which takes back the last action in effect when an undo
names it, and nothing otherwise."""
import pytest
from player import journal_sessions, local_table
from tiletable.engine.rulesets import find_ruleset
from tiletable.families import games
from tiletable.record import iter_records
from tiletable.runtime.journal import Journal
from tiletable_host.sessionlog import replay_records


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    """A block game's header and actions as a table journalled them: the deal, 3-3, 3-4>L, 4-5>L."""
    root = tmp_path_factory.mktemp("played")
    control = local_table(root)
    for _ in range(len(games())):
        if control.state()["menu"][0] == "block":
            break
        control.press(0)
    for _ in range(4):
        if control.state()["menu"][1] == 2:
            break
        control.press(0, "long")
    control.press("ok")
    control.press("ok")
    for zone, tile in ((0, "3-3"), (1, "3-4"), (1, "4-5")):
        control.place(zone, tile)
        control.remove(zone)
    control.command("wait 2100")
    header, actions = journal_sessions(root)[-1]
    assert actions[-3:] == ["3-3", "3-4>L", "4-5>L"]
    return header, actions


def _journal(root, header, actions, undos):
    """A session in progress at ``root``: ``actions`` logged in order, then each of ``undos``
    (an index into the actions: the undo names that action's sequence number)."""
    journal = Journal(str(root / "journal"))
    journal.start_session(header["ruleset"], header["hash"], header["players"], "test")
    seqs = [journal.log_action(text, 10 * i) for i, text in enumerate(actions)]
    for index in undos:
        journal.log_undo(seqs[index])
    journal.close()
    return (root / "journal").glob("*.tjs")


@pytest.mark.parametrize(
    "undos, kept, wrong",
    [
        ((-1,), -1, 0),  # the last action
        ((-1, -2), -2, 0),  # the last two, last first
        ((-2,), 0, 1),  # not the last action in effect: nothing is taken back
        ((-1, -1), -1, 1),  # the same action twice: the second names one no longer in effect
    ],
)
def test_an_undo_takes_back_the_same_on_the_table_and_on_the_pc(tmp_path, played, undos, kept, wrong):
    header, actions = played
    (path,) = _journal(tmp_path, header, actions, undos)
    records = list(iter_records(path.read_bytes()))
    expected = actions[: len(actions) + kept] if kept else actions
    ruleset = find_ruleset(header["ruleset"])
    replay = replay_records({"players": header["players"]}, ruleset, records)
    on_pc = [replay.state.action_str(a) for a in replay.state.history]
    assert on_pc == expected
    assert len(replay.divergences) == wrong, replay.divergences
    table = local_table(tmp_path).device.app.table
    assert table.session is not None, "the table did not resume the session"
    assert [table.session.state.action_str(a) for a in table.session.state.history] == expected
