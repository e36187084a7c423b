"""bench/chip_matches.py's pure parts, without a firmware: the pieces named as the harness
names them, the target overrides, the tile -> LED figure's windows and the report's lines."""
import os
import sys

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "bench"))
import chip_matches  # noqa: E402
from tiletable.engine.tiles import tile_str  # noqa: E402


def test_cards_are_named_by_id_for_the_harness_and_tiles_stay():
    from tiletable.engine.cards import HEARTS, SPADES, card

    assert chip_matches.emulator_item("H4") == "c%d" % card(HEARTS, 4)
    assert chip_matches.emulator_item("S10") == "c%d" % card(SPADES, 10)
    assert chip_matches.emulator_item("3-5") == "3-5"
    assert chip_matches.emulator_item("c17") == "c17"
    assert chip_matches.emulator_item("blank:3") == "blank:3"


def test_every_game_of_the_menu_is_played_by_its_familys_player_at_a_count_it_allows():
    from tiletable.families import games

    every = chip_matches.matches()
    assert [m[1] for m in every] == [g[0] for g in games()]
    for player_class, name, players, _ in every:
        assert player_class is not None, name
        assert players in chip_matches.find_ruleset(name).player_counts()


def test_a_game_of_a_family_without_a_scripted_player_is_listed_to_be_reported(monkeypatch):
    monkeypatch.setattr(chip_matches, "games", lambda: [("moon", "trick", "noon"), ("muggins", "newfamily", "nUGG")])
    (moon, muggins) = chip_matches.matches()
    assert moon[0] is chip_matches.MoonPlayer and muggins[0] is None and muggins[1:3] == ("muggins", 2)


ENDS = {"muggins": ("target", 200), "buki": ("num_games", 4), "columns": None}


def test_a_target_override_is_a_game_with_an_end_and_a_positive_number():
    assert chip_matches.parse_targets(["muggins=61", "buki=1"], ENDS) == {"muggins": 61, "buki": 1}
    assert chip_matches.parse_targets([], ENDS) == {}
    for text, reason in (("muggins", "give GAME=N"), ("muggins=x", "give GAME=N"), ("chess=5", "no game 'chess'"), ("columns=3", "one end only"), ("buki=0", "at least 1")):
        with pytest.raises(ValueError, match=reason):
            chip_matches.parse_targets([text], ENDS)


def test_what_ends_each_match_is_read_from_its_ruleset():
    assert chip_matches.match_end("muggins") == ("target", chip_matches.find_ruleset("muggins").params["target"])
    assert chip_matches.match_end("moon") == ("target", chip_matches.find_ruleset("moon").params["target"])
    assert chip_matches.match_end("buki") == ("num_games", chip_matches.find_ruleset("buki").params["num_games"])
    assert chip_matches.match_end("dasan") == ("hands", 0)
    assert chip_matches.match_end("mexican-train") == ("rounds", 13)
    assert chip_matches.match_end("columns") is None


def test_an_override_says_what_the_preset_would_have_played():
    assert chip_matches.override_text("target", 61, 200) == "match to 61 points, not the preset's 200 points"
    assert chip_matches.override_text("num_games", 1, 4) == "match of 1 games, not the preset's 4 games"
    assert chip_matches.override_text("hands", 3, 0) == "match of 3 hands, not the preset's until a player's chips are gone"


def test_an_led_change_counts_for_a_tile_only_before_the_next_action():
    placements = [{"next_ms": 1100.0}, {"next_ms": 2050.0}, {"next_ms": None}, {"next_ms": 4000.0}]
    latency = [
        {"t0": 1000.0, "led": 17.5},
        {"t0": 2000.0, "led": 60.0},
        {"t0": 3000.0, "led": 20.0},
        {"t0": 3900.0, "led": None},
    ]
    assert chip_matches.tile_led(placements, latency) == [17.5, None, 20.0, None]
    with pytest.raises(ValueError, match="2 placements but 1 latency records"):
        chip_matches.tile_led(placements[:2], latency[:1])


def test_an_led_change_before_the_tile_could_be_read_is_not_its_answer():
    """Laid while the play before still changed the LEDs (Texas 42 on a stock chip: a tile laid
    95 ms after the last), the first change came 8 ms after it, before its record was read
    (31 ms); a tile the table knows needs no READ, and a READ after the next action is not its."""
    placements = [{"next_ms": None}, {"next_ms": 500.0}, {"next_ms": 300.0}, {"next_ms": None}]
    latency = [
        {"t0": 0.0, "led": 8.2, "read": 31.0},
        {"t0": 0.0, "led": 14.0},
        {"t0": 0.0, "led": 20.0, "read": 320.0},
        {"t0": 0.0, "led": 3.0},
    ]
    assert chip_matches.tile_led(placements, latency) == [None, 14.0, 20.0, None]


def test_restarts_and_watchdog_resets_are_counted_after_the_game_began():
    resets = [{"atMs": 1, "reason": "power-on"}, {"atMs": 9, "reason": "watchdog trigger (machine.reset)"}, {"atMs": 20, "reason": "watchdog timeout"}]
    assert chip_matches.resets_since(resets, 1) == (2, 1)
    assert chip_matches.resets_since(resets, 3) == (0, 0)


def _row(**changes):
    row = {"game": "muggins", "players": 2, "result": "ok", "hands": 8, "placements": 131, "tile_led": {"n": 120, "p50": 17, "p95": 23, "max": 25},
           "one_piece_led": {"n": 110, "p50": 16.5, "p95": 22.9, "max": 24.0}, "lowest_heap": 151552, "restarts": 0, "watchdog": 0, "device_s": 712.25}
    row.update(changes)
    return row


def test_a_game_line_says_the_figures_with_n_and_the_override():
    line = chip_matches.game_line(_row())
    assert line.split() == ["muggins", "2P", "ok", "8", "131", "17/23/25", "(120)", "16/22/24", "(110)", "148.0", "KB", "0", "0", "712.2", "s"]
    line = chip_matches.game_line(_row(override="match to 61 points, not the preset's 200", tile_led={"n": 0}, one_piece_led={"n": 0}, lowest_heap=None))
    assert line.endswith("(match to 61 points, not the preset's 200)") and line.split()[5:8] == ["-", "-", "-"]
    failed = chip_matches.game_line(_row(result="RuntimeError: the table shows no game"))
    assert "FAIL" in failed.splitlines()[0] and failed.splitlines()[1].strip() == "RuntimeError: the table shows no game"


def test_the_totals_count_the_matches_that_ended_right():
    rows = [_row(), _row(game="moon", result="scores differ", restarts=1, watchdog=1)]
    assert chip_matches.totals_line(rows, 3, 1500.0, 900.0).startswith("1 of 3 matches played to their end")
    assert "in play 1 restarts, 1 watchdog resets" in chip_matches.totals_line(rows, 3, 1500.0, 900.0)


def _table(monkeypatch):
    """A ChipTable over a recorded control port (no harness) and a STATE that shows a game."""
    table = chip_matches.ChipTable.__new__(chip_matches.ChipTable)
    table.placements, table.starting, table._open, table.link = [], False, None, None
    sent = []
    answers = {"now": "5000", "latency": '[{"led": null}]'}

    def command(self, line):
        sent.append(line)
        if line.startswith("wait"):  # the table answers the piece laid while the player waits
            answers["latency"] = '[{"led": 18.5}]'
        return answers.get(line, "")

    monkeypatch.setattr(chip_matches.chip.Control, "command", command)
    monkeypatch.setattr(chip_matches.ChipTable, "state", lambda self: sent.append("STATE") or {"mode": "game"})
    return table, sent


def test_a_player_whose_tile_met_the_play_befores_leds_gives_the_table_time(monkeypatch):
    table, sent = _table(monkeypatch)
    monkeypatch.setitem(table.__dict__, "json", lambda line: [{"led": 8.2, "read": 31.0}])
    table.place(4, "3-4")
    assert sent == ["place 4 3-4", "wait %d" % chip_matches.UNSEEN_ANSWER_WAIT_MS]


def test_every_press_waits_for_the_tables_loop_before_the_next_gesture(monkeypatch):
    table, sent = _table(monkeypatch)
    table.press("ok")
    table.press(1)
    table.press(2, "long")
    assert sent == ["press ok short", "STATE", "press 1 short", "STATE", "press 2 long", "STATE"]


def test_a_placement_window_closes_at_the_next_gesture_and_cards_go_by_id(monkeypatch):
    table, sent = _table(monkeypatch)
    table.place(3, "H4", "S10")  # then waits for the table's answer: its waits are not gestures
    table.command("display")  # a look, not a gesture
    table.remove(3)
    assert sent == ["place 3 c29 c48", "latency", "wait 20", "latency", "display", "now", "remove 3"]
    assert table.placements == [{"zone": 3, "items": 2, "next_ms": 5000.0}]


def test_mexican_train_is_played_on_the_emulator_with_tiles_the_harness_can_name():
    """rp2emu names a tile by one digit a half: the bench's Mexican Train is the double-nine
    variant, a valid ruleset whose every tile the harness can lay, ended early as asked."""
    import re

    params = chip_matches.overrides("mexican-train", None)
    state = chip_matches.find_ruleset("mexican-train", **params).new_state(chip_matches.SEATS["mexican-train"])
    assert params == {"engine_max": 9, "rounds": 10} and len(state.tiles) == 55
    assert all(re.match(r"^\d-\d$", chip_matches.emulator_item(tile_str(t))) for t in state.tiles)
    assert chip_matches.overrides("mexican-train", 2) == {"engine_max": 9, "rounds": 2}
    assert chip_matches.overrides("muggins", None) == {} and chip_matches.overrides("muggins", 61) == {"target": 61}
