"""The firmware's table profiles are hardware/trays.json's, and every preset has a tray."""
import json
import os

import pytest

from tiletable.board.setup import SEATS
from tiletable.engine.rulesets import find_ruleset, preset_names
from tiletable.profiles import Profile, profile_entry, profile_for, profile_names, seatings, zones_of

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def trays():
    with open(os.path.join(ROOT, "hardware", "trays.json")) as f:
        return json.load(f)


def _json_zone(zone):
    role = zone["role"]
    a = {"seat": "seat", "end": "end", "arm": "arm", "field": "column", "assign": "column"}.get(role)
    value = zone.get(a, 0) if a else 0
    if role == "end":
        value = "LR".index(value)
    return (zone["id"], role, value, zone.get("seat", 0) if role == "assign" else 0)


def test_profiles_match_the_tray_document():
    document = trays()["profiles"]
    assert sorted(profile_names()) == sorted(document)
    for name, profile in document.items():
        players, spec = profile_entry(name)
        zones = zones_of(spec)
        assert players == profile["players"], name
        assert sorted(zones) == sorted(_json_zone(z) for z in profile["zones"]), name


def test_every_zone_of_a_profile_exists_on_the_tray():
    ids = set(z["id"] for z in trays()["tray"]["zones"])
    for name in profile_names():
        assert set(zone for zone, _, _, _ in zones_of(profile_entry(name)[1])) <= ids


@pytest.mark.parametrize("name", preset_names())
def test_every_preset_has_a_profile_for_each_player_count(name):
    ruleset = find_ruleset(name)
    for players in ruleset.player_counts():
        profile = profile_for(name, players, ruleset.family)
        assert profile.players >= players
        assert len(profile.seat_leds(players)) == players


@pytest.mark.parametrize("name", preset_names())
def test_the_menu_offers_the_player_counts_the_rules_allow(name):
    ruleset = find_ruleset(name)
    assert seatings(name) == [n for n in ruleset.player_counts() if n <= SEATS]


def test_an_installed_ruleset_plays_on_its_familys_tray():
    assert profile_for("house-rules", 3, "line").name == "line-3p"
    with pytest.raises(ValueError):
        profile_for("house-rules", 3)


def test_a_profile_is_found_by_its_whole_name_only():
    assert profile_entry("trick-4p") == (4, "0s00 1s10 2s20 3s30 4t00")
    for name in ("trick", "4p", "rick-4p", "line-5p", ""):
        with pytest.raises(KeyError):
            profile_entry(name)


def test_profile_lookups():
    spinner = Profile("spinner-4p")
    assert spinner.seat_zone == {0: 0, 1: 1, 2: 2, 3: 3}
    assert spinner.end_leds() == [6, 7, 8, 5]
    column = Profile("column-2p")
    assert column.assign_zone[(2, 1)] == 7 and column.field_zone[1] == 4
