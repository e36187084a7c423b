"""``tiletable run`` against a table where people play (an in-process device whose game is
played into its journal when it starts): sync, start, watch until over, pull, print."""
import json

from cli import tiletable
from journal_games import play_into_journal
from tiletable.engine.rulesets import preset_names
from tiletable.proto.messages import GAME_START, GAME_STOP, STATE
from tiletable_host.transport_local import LocalTransport


def test_run_on_a_table_where_people_play(capsys, tmp_path):
    device = LocalTransport(str(tmp_path / "device"))
    played = {}

    def game_start(fields):
        played["state"] = play_into_journal(device.journal, fields["ruleset"], fields["players"], seed=8)
        return {"session": 1}

    def state(fields):
        final = played["state"]
        snapshot = {"mode": "over", "menu": ["muggins", 2], "ruleset": "muggins", "players": 2, "scores": list(final.scores),
                    "hand": final.hand_number, "actions": len(final.history), "to_act": "over", "prompt": "match over"}
        return {"snapshot": json.dumps(snapshot)}

    device.server.register(GAME_START, game_start, "game")
    device.server.register(GAME_STOP, lambda fields: {}, "game")
    device.server.register(STATE, state, "game")
    db_path = str(tmp_path / "t.db")
    status, out, err = tiletable(capsys, ["run", "--players", "cy,di", "--db", db_path], device)
    assert status == 0, err
    final = played["state"]
    assert "sync: %d pushed, 0 unchanged" % len(preset_names()) in out
    assert "muggins, hand %d, over\n  P0 cy" % (final.hand_number + 1) in out
    assert "pulled %d records into %s" % (device.journal.next_seq - 1, db_path) in out
    assert out.splitlines()[-2] == "final scores: cy %d, di %d" % tuple(final.scores)
