"""``tiletable run`` against a table where people play (an in-process device whose game is
played into its journal when it starts): sync, start, watch until over, pull, print."""
import json

import pytest

from cli import tiletable
from journal_games import play_into_journal
from tiletable.engine.rulesets import preset_names
from tiletable.proto.messages import E_NO_MEMORY, GAME_START, GAME_STOP, RESTARTS_INTO, STATE, ProtocolError
from tiletable_host.transport_local import LocalTransport


def _people_play(device, restart_first):
    """Serve GAME_START by playing the game into the device's journal; with ``restart_first``
    the table first answers that it restarts into the game (its heap cut up by games played),
    and only the boot after that has it started."""
    played = {}

    def reset_once(msg_type):
        device.before_request = None
        device.reset()  # the next boot starts the game
        return False

    def game_start(fields):
        played["state"] = play_into_journal(device.journal, fields["ruleset"], fields["players"], seed=8)
        if restart_first:
            device.before_request = reset_once  # the board resets once it has answered
            raise ProtocolError(E_NO_MEMORY, "not enough memory on this table for muggins (912 bytes free): " + RESTARTS_INTO)
        return {"session": 1}

    def state(fields):
        final = played["state"]
        snapshot = {"mode": "over", "menu": ["muggins", 2], "ruleset": "muggins", "players": 2, "scores": list(final.scores),
                    "hand": final.hand_number, "actions": len(final.history), "to_act": "over", "prompt": "match over"}
        return {"snapshot": json.dumps(snapshot)}

    def register():
        device.server.register(GAME_START, game_start, "game")
        device.server.register(GAME_STOP, lambda fields: {}, "game")
        device.server.register(STATE, state, "game")

    register()
    boot = device._boot

    def boot_with_the_game():
        boot()
        register()

    device._boot = boot_with_the_game
    return played


@pytest.mark.parametrize("restart_first", [False, True], ids=["started", "restarts-into-it"])
def test_run_on_a_table_where_people_play(capsys, tmp_path, restart_first):
    """With ``restart_first`` the table's heap is cut up by games played: it restarts into
    the game, and ``run`` waits until it is back with the game started."""
    device = LocalTransport(str(tmp_path / "device"))
    played = _people_play(device, restart_first)
    db_path = str(tmp_path / "t.db")
    status, out, err = tiletable(capsys, ["run", "--players", "cy,di", "--db", db_path], device)
    assert status == 0, err
    final = played["state"]
    assert ("== the table restarts to make room for muggins" in out) == restart_first
    assert device.resets == int(restart_first)
    assert "sync: 0 pushed, %d unchanged" % len(preset_names()) in out  # the table carries them
    assert "muggins, hand %d, over\n  P1 cy" % (final.hand_number + 1) in out
    assert "pulled %d records into %s" % (device.journal.next_seq - 1, db_path) in out
    assert out.splitlines()[-2] == "final scores: cy %d, di %d" % tuple(final.scores)


def test_run_takes_the_players_from_the_register_so_a_typo_is_nobody_new(capsys, tmp_path):
    """The names a game starts with are people of the register of --db: a name nobody has is
    refused before the game starts, with the closest; --new-player adds it; another name of
    a player (merged into theirs) plays as the register's name."""
    db_path = str(tmp_path / "club.db")
    for name in ("cy", "di", "annie"):
        assert tiletable(capsys, ["players", "add", name, "--db", db_path])[0] == 0
    assert tiletable(capsys, ["players", "rename", "annie", "ann", "--db", db_path])[0] == 0
    device = LocalTransport(str(tmp_path / "device"))
    played = _people_play(device, False)
    status, out, err = tiletable(capsys, ["run", "--players", "cy,dii", "--db", db_path], device)
    assert status == 1 and "state" not in played  # no game started
    assert err == "tiletable: run: nobody is named 'dii' in the register (did you mean 'di'?); add a new player with --new-player\n"
    status, out, err = tiletable(capsys, ["run", "--players", "annie,dee", "--new-player", "--db", db_path], device)
    assert status == 0, err
    assert "annie plays as ann, the register's name\n" in out and "== muggins for ann, dee\n" in out
    status, out, _ = tiletable(capsys, ["players", "--db", db_path])
    assert [line.split()[:2] for line in out.splitlines()[1:]] == [["ann", "1"], ["cy", "0"], ["dee", "1"], ["di", "0"]]
