"""``tiletable name``: the table keeps the name people know it by, and the PC names its
sessions by it (`sessions`, `show`, the web view); a table without one is named by its id."""
from starlette.testclient import TestClient

from cli import tiletable
from journal_games import play_into_journal
from tiletable.proto.messages import SET_NAME
from tiletable_host.serve.app import create_app
from tiletable_host.serve.live import Hub
from tiletable_host.transport_local import LocalTransport


def test_a_named_table_is_named_by_its_name_in_sessions_show_and_the_web_view(capsys, tmp_path, db_target):
    device = LocalTransport(str(tmp_path / "device"))
    status, out, _ = tiletable(capsys, ["name"], device)
    assert status == 0 and out == 'tiletable-local has no name (set one with `tiletable name "Table 3"`)\n'
    status, out, _ = tiletable(capsys, ["name", " Table 3 "], device)
    assert status == 0 and out == 'tiletable-local is now named "Table 3"\n'
    device.reset()  # kept on the table's flash
    assert device.hello()["name"] == "Table 3"
    play_into_journal(device.journal, seed=1)
    db_path = db_target
    status, out, _ = tiletable(capsys, ["pull", "--db", db_path], device)
    assert status == 0 and "from Table 3 into" in out
    _, out, _ = tiletable(capsys, ["sessions", "--db", db_path])
    assert out.splitlines()[1].split()[5:7] == ["Table", "3"]
    _, out, _ = tiletable(capsys, ["show", "1", "--db", db_path])
    assert " on Table 3, " in out.splitlines()[0]
    client = TestClient(create_app(Hub(), db_path))
    assert '<td data-label="Table">Table 3</td>' in client.get("/history/").text
    assert "on Table 3," in client.get("/history/session/1").text


def test_a_table_without_a_name_is_named_by_its_id(capsys, tmp_path, db_target):
    device = LocalTransport(str(tmp_path / "device"))
    play_into_journal(device.journal, seed=1)
    db_path = db_target
    tiletable(capsys, ["pull", "--db", db_path], device)
    _, out, _ = tiletable(capsys, ["show", "1", "--db", db_path])
    assert " on tiletable-local, " in out.splitlines()[0]


def test_a_name_a_table_cannot_keep_is_refused_in_one_line(capsys, tmp_path):
    device = LocalTransport(str(tmp_path / "device"))
    status, _, err = tiletable(capsys, ["name", "x" * 33], device)
    assert status == 1 and err == "tiletable: name: %r is 33 bytes of UTF-8; a table's name is at most 32\n" % ("x" * 33)
    status, _, err = tiletable(capsys, ["name", "Table\n3"], device)
    assert status == 1 and err == "tiletable: name: a table's name is one line of text, without control characters: 'Table\\n3'\n"
    del device.server._handlers[SET_NAME]  # a firmware from before names
    device.server._capabilities.remove("name")
    device.device_info = None
    status, _, err = tiletable(capsys, ["name", "Table 3"], device)
    assert status == 1
    assert err == "tiletable: name: tiletable-local cannot keep a name: its firmware is older than names (update it with `tiletable deploy`)\n"


def test_a_name_is_set_once_a_table_that_lost_it_keeps_it_on_the_pc(capsys, tmp_path, db_target):
    """A table re-deployed with its flash wiped reports no name: its sessions, old and new,
    are still "Table 3" (another name given to it is its name from then on)."""
    device = LocalTransport(str(tmp_path / "device"))
    assert tiletable(capsys, ["name", "Table 3"], device)[0] == 0
    play_into_journal(device.journal, seed=1)
    assert tiletable(capsys, ["pull", "--db", db_target], device)[0] == 0
    assert tiletable(capsys, ["name", ""], device)[1] == "tiletable-local has no name now\n"
    play_into_journal(device.journal, seed=2)
    assert tiletable(capsys, ["pull", "--db", db_target], device)[0] == 0
    _, out, _ = tiletable(capsys, ["sessions", "--db", db_target])
    assert [line.split()[5:7] for line in out.splitlines()[1:]] == [["Table", "3"], ["Table", "3"]]
    assert tiletable(capsys, ["name", "Table 4"], device)[0] == 0
    play_into_journal(device.journal, seed=3)
    assert tiletable(capsys, ["pull", "--db", db_target], device)[0] == 0
    _, out, _ = tiletable(capsys, ["sessions", "--db", db_target])
    assert [line.split()[5:7] for line in out.splitlines()[1:]] == [["Table", "4"]] * 3
