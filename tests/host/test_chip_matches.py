"""bench/chip_matches.py's pure parts, without a firmware: the pieces named as the harness
names them, the target overrides, the tile -> LED figure's windows and the report's lines."""
import os
import sys

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "bench"))
import chip_matches  # noqa: E402


def test_cards_are_named_by_id_for_the_harness_and_tiles_stay():
    from tiletable.engine.cards import HEARTS, SPADES, card

    assert chip_matches.emulator_item("H4") == "c%d" % card(HEARTS, 4)
    assert chip_matches.emulator_item("S10") == "c%d" % card(SPADES, 10)
    assert chip_matches.emulator_item("3-5") == "3-5"
    assert chip_matches.emulator_item("c17") == "c17"
    assert chip_matches.emulator_item("blank:3") == "blank:3"


def test_every_game_of_the_menu_is_played_once():
    from tiletable.families import games

    assert sorted(m[1] for m in chip_matches.MATCHES) == sorted(g[0] for g in games())
    for _, name, players, _ in chip_matches.MATCHES:
        assert players in chip_matches.find_ruleset(name).player_counts()


PRESETS = {"muggins": 200, "moon": 21, "buki": None}


def test_a_target_override_is_a_game_with_a_target_and_a_positive_number():
    assert chip_matches.parse_targets(["muggins=61", "moon=7"], PRESETS) == {"muggins": 61, "moon": 7}
    assert chip_matches.parse_targets([], PRESETS) == {}
    for text, reason in (("muggins", "give GAME=POINTS"), ("muggins=x", "give GAME=POINTS"), ("chess=5", "no game 'chess'"), ("buki=3", "does not end at a target"), ("moon=0", "at least 1")):
        with pytest.raises(ValueError, match=reason):
            chip_matches.parse_targets([text], PRESETS)


def test_the_preset_targets_are_read_from_the_rulesets():
    assert chip_matches.preset_target("muggins") == chip_matches.find_ruleset("muggins").params["target"]
    assert chip_matches.preset_target("buki") is None  # it ends after a number of games
    assert chip_matches.preset_target("columns") is None


def test_an_led_change_counts_for_a_tile_only_before_the_next_action():
    placements = [{"next_ms": 1100.0}, {"next_ms": 2050.0}, {"next_ms": None}, {"next_ms": 4000.0}]
    latency = [{"t0": 1000.0, "led": 17.5}, {"t0": 2000.0, "led": 60.0}, {"t0": 3000.0, "led": 20.0}, {"t0": 3900.0, "led": None}]
    assert chip_matches.tile_led(placements, latency) == [17.5, None, 20.0, None]
    with pytest.raises(ValueError, match="2 placements but 1 latency records"):
        chip_matches.tile_led(placements[:2], latency[:1])


def test_restarts_and_watchdog_resets_are_counted_after_the_game_began():
    resets = [{"atMs": 1, "reason": "power-on"}, {"atMs": 9, "reason": "machine.reset"}, {"atMs": 20, "reason": "watchdog timeout (PC 0x1000)"}]
    assert chip_matches.resets_since(resets, 1) == (2, 1)
    assert chip_matches.resets_since(resets, 3) == (0, 0)


def _row(**changes):
    row = {"game": "muggins", "players": 2, "result": "ok", "hands": 8, "placements": 131, "tile_led": {"n": 120, "p50": 17, "p95": 23, "max": 25}, "lowest_heap": 151552, "restarts": 0, "watchdog": 0, "device_s": 712.25}
    row.update(changes)
    return row


def test_a_game_line_says_the_figures_with_n_and_the_override():
    line = chip_matches.game_line(_row())
    assert line.split() == ["muggins", "2P", "ok", "8", "131", "17/23/25", "(120)", "148.0", "KB", "0", "0", "712.2", "s"]
    line = chip_matches.game_line(_row(target=61, preset_target=200, tile_led={"n": 0}, lowest_heap=None))
    assert "(match to 61, not the preset's 200)" in line and " - " in line
    failed = chip_matches.game_line(_row(result="RuntimeError: the table shows no game"))
    assert "FAIL" in failed.splitlines()[0] and failed.splitlines()[1].strip() == "RuntimeError: the table shows no game"


def test_the_totals_count_the_matches_that_ended_right():
    rows = [_row(), _row(game="moon", result="scores differ", restarts=1, watchdog=1)]
    assert chip_matches.totals_line(rows, 3, 1500.0, 900.0).startswith("1 of 3 matches played to their end")
    assert "in play 1 restarts, 1 watchdog resets" in chip_matches.totals_line(rows, 3, 1500.0, 900.0)
