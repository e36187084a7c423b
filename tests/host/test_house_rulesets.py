"""A house ruleset (a ruleset installed under a name of its own) is played as a preset is: synced
to the simulated table through the real pty and pyserial, it is in the table's menu, chosen with
the buttons only, a hand is played, then it is pulled, replayed, shown and watched; ``run
--game`` takes it, on the simulated table and at a table where people play; an unknown name
is refused in one line. A house ruleset of each family played at a table is watched (and
published to the browser), pulled, shown and replayed."""
import json
import random

import pytest

import journal_games
from cli import tiletable
from engine.families_play import Rng
from tiletable.families import games
from tiletable.proto.messages import GAME_START, GAME_STOP, STATE
from tiletable_host.people import score_value
from tiletable_host.run import ScriptedGame
from tiletable_host.schema import read_ruleset_file, ruleset_schema
from tiletable_host.simtable import SimulatedTable
from tiletable_host.transport_local import LocalTransport
from tiletable_host.transport_serial import SerialTransport

HOUSE = {
    "family": "line",
    "name": "pub-61",
    "version": 1,
    "description": "the pub's Muggins: to 61, draw when unable",
    "params": {"stock_after_deal": "boneyard", "draw_policy": "when_unable", "per_move_scoring": "fives", "target": 61},
}
LABEL = "PU61"  # what the menu's first group shows for it (runtime/menu.py house_label)

# a house ruleset of each family: (name, family, params, players)
HOUSES = [
    ("pub-61", "line", HOUSE["params"], "ann,bob"),
    ("moon-7", "trick", {"target": 7}, "ann,bob,cy"),
    ("columns-club", "column", {"end": "hands_empty"}, "ann,bob"),
    ("dasan-2", "climb", {"hands": 2}, "ann,bob,cy"),
]


@pytest.fixture
def house_file(tmp_path):
    path = tmp_path / "pub.json"
    path.write_text(json.dumps(HOUSE))
    return str(path)


@pytest.fixture(scope="module")
def table():
    simulated = SimulatedTable.start()
    yield simulated
    simulated.stop()


def _shown(control):
    """The menu's game as the first group draws it (7-segment: 5 and S, 0 and O alike)."""
    return control.display()[0].replace("5", "S").replace("0", "O")


def test_a_synced_house_ruleset_is_chosen_by_buttons_played_pulled_replayed_and_shown(capsys, tmp_path, table, house_file):
    db = str(tmp_path / "club.db")
    link = SerialTransport(table.port, timeout=1.0)
    try:
        status, out, err = tiletable(capsys, ["sync", "--presets", house_file, "--db", db], link)
        assert status == 0 and "pub-61       pushed" in out, err
        control = table.control
        seen = []
        for _ in range(20):  # the seat button steps through the menu: the presets, then pub-61
            seen.append(control.state()["menu"][0])
            if seen[-1] == "pub-61":
                break
            control.press(0)
        presets = [entry[0] for entry in games()]
        assert seen == presets[presets.index("muggins") :] + ["pub-61"]  # after the presets
        assert _shown(control) == LABEL.replace("0", "O")
        while control.display()[1].strip() != "2P":
            control.press(0, "long")
        control.press("ok")
        assert control.state()["ruleset"] == "pub-61"
        ruleset = read_ruleset_file(house_file, ruleset_schema())
        game = ScriptedGame(control, link, ruleset, 2, 7, lambda hand_over: None)
        game.play(1)
        status, out, _ = tiletable(capsys, ["watch", "--once", "--db", db], link)
        assert status == 0 and out.startswith("pub-61, hand 2, ") and "\nline: " in out
        link.game_stop()
        status, out, err = tiletable(capsys, ["pull", "--db", db], link)
        assert status == 0, err
    finally:
        link.close()
    scores = ", ".join("P%d %d" % (seat + 1, score) for seat, score in enumerate(game.state.scores))
    status, out, err = tiletable(capsys, ["replay", "1", "--db", db])
    assert status == 0 and "replayed with pub-61 (hash %s)" % ruleset.hash in out, err
    assert out.splitlines()[-1] == "no divergence: final scores " + scores
    status, out, err = tiletable(capsys, ["show", "1", "--db", db])
    assert status == 0 and out.startswith("session 1: pub-61 (hash %s)" % ruleset.hash), err
    assert "stopped after hand 1: " + scores in out


def _house_file(folder, name, family, params):
    path = folder / (name + ".json")
    path.write_text(json.dumps({"family": family, "name": name, "version": 1, "params": params}))
    return str(path)


@pytest.mark.parametrize("name,family,params,players", HOUSES, ids=[house[1] for house in HOUSES])
def test_run_plays_a_house_ruleset_of_each_family_on_the_simulated_table(capsys, tmp_path, name, family, params, players):
    """Its scripted players lay the pieces and press the buttons (run.py, scripted.py); each
    move is checked against the table's STATE."""
    path = _house_file(tmp_path, name, family, params)
    db = str(tmp_path / "run.db")
    status, out, err = tiletable(capsys, ["run", path, "--game", name, "--players", players, "--hands", "1", "--db", db, "--http-port", "-1"])
    assert status == 0, err
    assert "== sync: every preset, %s\n" % path in out and "\n== %s for %s\n" % (name, players.replace(",", ", ")) in out
    assert "\nhand 1 over: ann " in out and "  | %s, hand " % name in out and "violations found at the reveal: none" in out
    status, out, _ = tiletable(capsys, ["replay", "1", "--db", db])
    assert status == 0 and "replayed with %s" % name in out and out.splitlines()[-1].startswith("no divergence: ")


def test_run_refuses_an_unknown_game_in_one_line(capsys, house_file):
    status, out, err = tiletable(capsys, ["run", house_file, "--game", "pub-16"])
    assert status == 1 and out == ""
    assert err == "tiletable: run: no ruleset 'pub-16': it is neither a preset nor a ruleset of the files given (did you mean 'pub-61'?)\n"
    status, _, err = tiletable(capsys, ["run", "--game", "moon"])
    assert (status, err) == (1, "tiletable: run: moon is for 3 players, not 2: name them with --players\n")


def _people_play(device):
    """Serve GAME_START as a table where people play: the ruleset installed under that name is
    played into the journal as the table journals it (``journal_games.play_as_the_table``),
    two hands or the whole match, by random players; STATE then says the game is over."""
    played = {}

    def game_start(fields):
        ruleset = device.rulestore.get(fields["ruleset"])  # KeyError: the device says so
        session = journal_games.play_as_the_table(device.journal, ruleset, random.Random(4), Rng(4), hands=2)
        device.journal.end_session(session.result("over" if session.state.is_over() else "stopped"))
        played["state"] = session.state
        played["name"] = ruleset.name
        return {"session": 1}

    def state(fields):
        final = played["state"]
        snapshot = {"mode": "over", "menu": [played["name"], final.players], "ruleset": played["name"], "players": final.players,
                    "scores": list(final.scores), "hand": final.hand_number, "actions": len(final.history), "to_act": "over",
                    "prompt": "match over"}
        return {"snapshot": json.dumps(snapshot)}

    device.server.register(GAME_START, game_start, "game")
    device.server.register(GAME_STOP, lambda fields: {}, "game")
    device.server.register(STATE, state, "game")
    return played


@pytest.mark.parametrize("name,family,params,players", HOUSES, ids=[house[1] for house in HOUSES])
def test_run_at_a_table_plays_a_house_ruleset_of_each_family_and_shows_it(capsys, tmp_path, name, family, params, players):
    path = _house_file(tmp_path, name, family, params)
    device = LocalTransport(str(tmp_path / "device"))
    played = _people_play(device)
    db = str(tmp_path / "t.db")
    status, out, err = tiletable(capsys, ["run", str(path), "--game", name, "--players", players, "--db", db], device)
    assert status == 0, err
    final = played["state"]
    assert "== sync: every preset, %s\n" % path in out and "== %s for %s\n" % (name, players.replace(",", ", ")) in out
    assert "%s, hand %d, over\n  P1 ann" % (name, final.hand_number + 1) in out
    explained = {"line": "\nline: ", "trick": "\ntrick 1: ", "column": "\ncolumns: ", "climb": "\nlast play: #"}
    assert explained[family] in out  # the view explains the game from the synced document
    assert "session 1: %s (hash %s)" % (name, final.ruleset.hash) in out  # the session pulled and shown
    names = players.split(",")
    assert out.splitlines()[-2] == "final scores: " + ", ".join("%s %s" % (n, score_value(p, getattr(final, "score_scale", 1))) for n, p in zip(names, final.scores))
    status, out, err = tiletable(capsys, ["replay", "1", "--db", db])
    assert status == 0 and out.splitlines()[-1].startswith("no divergence: "), err


def test_run_at_a_table_refuses_a_game_it_has_not_installed(capsys, tmp_path, house_file):
    device = LocalTransport(str(tmp_path / "device"))
    played = _people_play(device)
    status, out, err = tiletable(capsys, ["run", house_file, "--game", "pub-16", "--players", "cy,di", "--db", str(tmp_path / "t.db")], device)
    assert status == 1 and "state" not in played
    assert err == "tiletable: run: no ruleset 'pub-16': it is neither installed on the table nor a preset (tiletable sync FILE installs one) (did you mean 'pub-61'?)\n"


def test_a_house_session_goes_to_another_pcs_database_as_a_record(capsys, tmp_path, house_file):
    """The journal names a ruleset by name and content hash; the PC that synced it resolves it
    from its database. Another PC that pulls the session has not the document: there ``show``
    says so in one line, and a record of the session (which carries the ruleset's family and
    parameters) brings it along, for the pulled session too."""
    device = LocalTransport(str(tmp_path / "device"))
    played = _people_play(device)
    synced = str(tmp_path / "synced.db")
    status, _, err = tiletable(capsys, ["run", house_file, "--game", "pub-61", "--db", synced, "--http-port", "-1"], device)
    assert status == 0, err
    other = str(tmp_path / "other.db")
    record = str(tmp_path / "pub.tgr")
    assert tiletable(capsys, ["pull", "--db", other], device)[0] == 0  # the session pulled again, by another PC
    content_hash = played["state"].ruleset.hash
    status, out, err = tiletable(capsys, ["show", "1", "--db", other])
    assert (status, out) == (1, "")
    assert err == "tiletable: show: ruleset 'pub-61' with hash %s is neither a preset of this engine nor one synced from this PC\n" % content_hash
    assert tiletable(capsys, ["export", "--format", "record", "-o", record, "--db", synced])[0] == 0
    status, _, err = tiletable(capsys, ["import", record, "--db", other])
    assert status == 0, err
    for session in ("1", "2"):  # the pulled one, and the record's
        status, out, err = tiletable(capsys, ["show", session, "--db", other])
        assert status == 0 and out.startswith("session %s: pub-61 (hash %s)" % (session, content_hash)), err
        status, out, err = tiletable(capsys, ["replay", session, "--db", other])
        assert status == 0 and out.splitlines()[-1].startswith("no divergence: "), err
