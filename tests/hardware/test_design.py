"""The reference design's data: generated files current, pins legal on an RP2040, BOM, trays, power.

CPython only (it reads files and runs the generator); the firmware side of the pin map is
checked by importing the generated ``tiletable.board.pins``.
"""
import csv
import importlib.util
import os
import xml.etree.ElementTree as ElementTree

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _load_generator():
    spec = importlib.util.spec_from_file_location("gen_hardware", os.path.join(ROOT, "tools", "gen_hardware.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


gen = _load_generator()
PINMAP, TRAYS = gen.load()
OUTPUTS = gen.outputs()


def _read(path):
    with open(os.path.join(ROOT, path)) as handle:
        return handle.read()


# --- generated files ---


@pytest.mark.parametrize("path", sorted(OUTPUTS))
def test_generated_file_is_up_to_date(path):
    assert os.path.exists(os.path.join(ROOT, path)), "%s missing: run tools/gen_hardware.py" % path
    assert _read(path) == OUTPUTS[path], "%s is stale: run .venv/bin/python tools/gen_hardware.py" % path


def test_every_tray_profile_has_a_drawing():
    drawn = {path for path in OUTPUTS if path.startswith("hardware/trays/")}
    assert drawn == {"hardware/trays/%s.svg" % name for name in TRAYS["profiles"]}


def test_pins_module_carries_the_pin_map():
    from tiletable.board import pins

    readers, display = PINMAP["readers"], PINMAP["display"]
    assert (pins.READER_SPI, pins.READER_SCK, pins.READER_MOSI, pins.READER_MISO) == (
        readers["spi"], readers["sck"], readers["mosi"], readers["miso"])
    assert list(pins.READER_CS) == readers["cs"] and pins.READER_RST == readers["rst"]
    assert pins.DISPLAY_LOAD == display["load"] and pins.DISPLAY_MODULES == display["modules"]
    assert pins.TM1637_CLK == display["tm1637_alternative"]["clk"]
    assert list(pins.TM1637_DIO) == display["tm1637_alternative"]["dio"]
    assert (pins.LED_DATA, pins.LED_COUNT, pins.LED_MAX_LEVEL) == (
        PINMAP["leds"]["data"], PINMAP["leds"]["count"], PINMAP["leds"]["max_level"])
    assert pins.BUZZER == PINMAP["buzzer"]["pwm"]
    assert list(pins.BUTTON_SEAT) == PINMAP["buttons"]["seat"]
    for name, gpio in PINMAP["buttons"]["table"].items():
        assert getattr(pins, "BUTTON_" + name.upper()) == gpio
    assert list(pins.SPARE) == PINMAP["spare"]


def test_stale_file_is_reported(tmp_path):
    for path, content in OUTPUTS.items():
        target = tmp_path / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(content)
    for source in (gen.PINMAP_PATH, gen.TRAYS_PATH):
        (tmp_path / source).write_text(_read(source))
    assert gen.stale(str(tmp_path)) == []
    changed = _read(gen.PINMAP_PATH).replace('"count": 10', '"count": 12')
    (tmp_path / gen.PINMAP_PATH).write_text(changed)
    assert gen.PINS_MODULE_PATH in gen.stale(str(tmp_path))


# --- RP2040 rules ---

ASSIGNED = gen.signals(PINMAP)


def test_spi_table_gives_every_gpio_exactly_one_spi_function():
    seen = [gpio for block in gen.SPI_PINS.values() for pins in block.values() for gpio in pins]
    assert sorted(seen) == list(range(30))


def test_no_gpio_is_used_twice():
    gpios = [gpio for _, gpio, _, _ in ASSIGNED] + PINMAP["spare"]
    duplicates = sorted({gpio for gpio in gpios if gpios.count(gpio) > 1})
    assert not duplicates, "GPIOs used twice: %r" % duplicates


def test_every_pin_is_on_the_pico_header_and_not_board_internal():
    for name, gpio, _, _ in ASSIGNED + gen.alternative_signals(PINMAP):
        assert gpio not in gen.BOARD_GPIOS, "%s on GP%d, which the Pico uses for %s" % (name, gpio, gen.BOARD_GPIOS[gpio])
        assert gpio in gen.HEADER_GPIOS, "%s on GP%d, not a Pico header pin" % (name, gpio)
    for gpio in PINMAP["spare"]:
        assert gpio in gen.HEADER_GPIOS and gpio not in gen.BOARD_GPIOS


def test_spi_signals_sit_on_pins_of_their_spi_block():
    role = {"sck": "sck", "tx": "tx", "rx": "rx"}
    spi_signals = [(name, gpio, function) for name, gpio, function, _ in ASSIGNED if function.startswith("spi")]
    assert len(spi_signals) == 3
    for name, gpio, function in spi_signals:
        block, signal = int(function[3]), role[function.split("_")[1]]
        assert gpio in gen.SPI_PINS[block][signal], "%s on GP%d cannot be SPI%d %s" % (name, gpio, block, signal)


def test_pwm_mapping_matches_the_datasheet_table():
    # Rows of the RP2040 GPIO function table, column F4.
    for gpio, expected in ((0, (0, "A")), (1, (0, "B")), (15, (7, "B")), (16, (0, "A")), (20, (2, "A")), (28, (6, "A"))):
        assert gen.pwm_channel(gpio) == expected


def test_buzzer_has_its_pwm_slice_to_itself():
    pwm = [(name, gpio) for name, gpio, function, _ in ASSIGNED if function == "pwm"]
    assert [name for name, _ in pwm] == ["BUZZER"]
    buzzer_slice = gen.pwm_channel(PINMAP["buzzer"]["pwm"])[0]
    others = [name for name, gpio in pwm if name != "BUZZER" and gen.pwm_channel(gpio)[0] == buzzer_slice]
    assert not others, "PWM outputs sharing the buzzer's slice (and so its frequency): %r" % others


def test_tm1637_alternative_takes_only_display_or_spare_pins():
    allowed = {PINMAP["display"]["load"]} | set(PINMAP["spare"])
    for name, gpio, _, _ in gen.alternative_signals(PINMAP):
        assert gpio in allowed, "%s on GP%d, which the MAX7219 build uses for something else" % (name, gpio)
    assert len(PINMAP["display"]["tm1637_alternative"]["dio"]) == len(PINMAP["buttons"]["seat"])


def test_display_has_four_digits_for_every_seat():
    display = PINMAP["display"]
    assert display["modules"] * 8 >= display["digits_per_seat"] * len(PINMAP["buttons"]["seat"])
    assert 0 <= display["max_intensity"] <= 15


# --- trays ---

KNOWN_ROLES = set(TRAYS["roles"])
ROLE_FIELDS = {"seat": {"seat"}, "end": {"end"}, "arm": {"arm"}, "field": {"column"}, "assign": {"column", "seat"},
               "trick": set(), "widow": set(), "mexican": set(), "hub": set()}


def test_reader_chip_selects_match_the_largest_profile():
    largest = max(len(profile["zones"]) for profile in TRAYS["profiles"].values())
    assert len(PINMAP["readers"]["cs"]) == largest == len(TRAYS["tray"]["zones"])


def test_role_fields_are_documented():
    assert set(ROLE_FIELDS) == KNOWN_ROLES


@pytest.mark.parametrize("name", sorted(TRAYS["profiles"]))
def test_profile_zones_are_real_distinct_and_complete(name):
    profile = TRAYS["profiles"][name]
    tray_ids = {zone["id"] for zone in TRAYS["tray"]["zones"]}
    ids = [zone["id"] for zone in profile["zones"]]
    assert len(ids) == len(set(ids)), "%s uses a zone twice" % name
    assert set(ids) <= tray_ids and max(ids) < len(PINMAP["readers"]["cs"])
    assert len(profile["seats"]) == profile["players"]
    for zone in profile["zones"]:
        assert zone["role"] in KNOWN_ROLES, zone
        assert set(zone) - {"id", "role"} == ROLE_FIELDS[zone["role"]], zone
        if "seat" in zone:
            assert 0 <= zone["seat"] < profile["players"], zone
    place = {zone["id"]: zone["place"] for zone in TRAYS["tray"]["zones"]}
    for zone in profile["zones"]:
        if zone["role"] == "seat":
            assert place[zone["id"]] == profile["seats"][zone["seat"]], "%s: seat %d's pad is not at its edge" % (name, zone["seat"])
    seat_pads = sorted(zone["seat"] for zone in profile["zones"] if zone["role"] == "seat")
    assert seat_pads in ([], list(range(profile["players"]))), "%s: seat pads %r" % (name, seat_pads)


def test_column_game_has_three_columns_of_two_hidden_slots_and_a_field():
    zones = TRAYS["profiles"]["column-2p"]["zones"]
    assert len(zones) == 9
    for column in range(3):
        roles = sorted((zone["role"], zone.get("seat", -1)) for zone in zones if zone["column"] == column)
        assert roles == [("assign", 0), ("assign", 1), ("field", -1)]


def test_every_game_plays_on_trays_that_exist_and_every_tray_has_a_game():
    from tiletable.families import games

    listed = [tray for preset in games() for tray in preset[3:]]
    assert all(preset[3:] for preset in games())
    assert set(listed) == set(TRAYS["profiles"])


def test_zones_lie_on_the_tray_and_antennas_keep_one_antenna_width_apart():
    tray = TRAYS["tray"]
    antenna = tray["antenna"]
    zones = tray["zones"]
    for zone in zones:
        assert zone["w"] / 2 <= zone["x"] <= tray["width"] - zone["w"] / 2
        assert zone["h"] / 2 <= zone["y"] <= tray["depth"] - zone["h"] / 2
        assert zone["w"] >= antenna["w"] and zone["h"] >= antenna["h"]
    for a in zones:
        for b in zones:
            if a["id"] < b["id"]:
                gap_x = abs(a["x"] - b["x"]) - antenna["w"]
                gap_y = abs(a["y"] - b["y"]) - antenna["h"]
                assert max(gap_x, gap_y) >= max(antenna["w"], antenna["h"]), "antennas of zones %d and %d too close" % (a["id"], b["id"])


@pytest.mark.parametrize("name", sorted(TRAYS["profiles"]))
def test_tray_drawing_is_svg_naming_every_used_zone(name):
    text = OUTPUTS["hardware/trays/%s.svg" % name]
    root = ElementTree.fromstring(text)
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    for zone in TRAYS["profiles"][name]["zones"]:
        assert ">zone %d<" % zone["id"] in text and ">%s<" % gen.zone_label(zone) in text


@pytest.mark.parametrize("name", sorted(TRAYS["profiles"]))
def test_tray_drawing_labels_seats_as_people_count_them(name):
    text = OUTPUTS["hardware/trays/%s.svg" % name]
    players = TRAYS["profiles"][name]["players"]
    assert [">SEAT %d<" % seat in text for seat in range(players + 1)] == [False] + [True] * players
    assert ">seat 0<" not in text and " seat 0<" not in text


def test_pin_names_and_wiring_count_seats_from_1():
    pins = OUTPUTS["hardware/PINS.md"]
    assert "| BUTTON_SEAT1 | in_pullup | seat 1 button to GND |" in pins and "SEAT0" not in pins
    assert "TM1637_DIO4 | DIO of seat 4's" in pins and "DIO0" not in pins
    assert "seats 1-2, module 1: seats 3-4" in OUTPUTS["hardware/wiring.svg"]


# --- wiring diagram ---


def test_wiring_diagram_is_svg_naming_every_pin_and_signal():
    text = OUTPUTS["hardware/wiring.svg"]
    ElementTree.fromstring(text)
    for name, gpio, _, _ in ASSIGNED + gen.alternative_signals(PINMAP):
        assert "GP%d" % gpio in text, gpio
        assert name in text, name
    for gpio in PINMAP["spare"]:
        assert "GP%d" % gpio in text
    for part in ("74AHCT125", "AMS1117-3.3", "3V3_READERS", "100 nF", "10 uF", "470 uF", "MAX7219", "WS2812B", "TM1637"):
        assert part in text, part


# --- power ---


def test_worst_case_fits_usb_and_the_reader_regulator():
    rows, reader_rail = gen.power_budget(PINMAP)
    total = sum(current for _, _, current in rows)
    assert total <= gen.USB_LIMIT_MA, "worst case %.1f mA exceeds USB's %d mA" % (total, gen.USB_LIMIT_MA)
    assert reader_rail <= gen.REGULATOR_LIMIT_MA


def test_brightness_caps_are_what_keeps_the_budget():
    uncapped = dict(PINMAP, leds=dict(PINMAP["leds"], max_level=255), display=dict(PINMAP["display"], max_intensity=15))
    rows, _ = gen.power_budget(uncapped)
    assert sum(current for _, _, current in rows) > gen.USB_LIMIT_MA


# --- bill of materials ---


def _bom():
    with open(os.path.join(ROOT, "hardware", "bom.csv"), newline="") as handle:
        return list(csv.DictReader(handle))


def _pinmap_count(key):
    if key == "buttons":
        return len(PINMAP["buttons"]["seat"]) + len(PINMAP["buttons"]["table"])
    section, field = key.split(".")
    value = PINMAP[section][field]
    return len(value) if isinstance(value, list) else value


def test_bom_parses_with_positive_quantities_and_costs():
    rows = _bom()
    assert rows and set(rows[0]) == {"reference", "part", "quantity", "count_from", "notes", "unit_cost_usd"}
    for row in rows:
        assert int(row["quantity"]) > 0 and float(row["unit_cost_usd"]) >= 0, row


def test_bom_quantities_follow_the_pin_map():
    rows = _bom()
    keys = {row["count_from"] for row in rows if row["count_from"]}
    assert {"readers.cs", "buttons", "leds.count", "display.modules"} <= keys
    for row in rows:
        if row["count_from"]:
            assert int(row["quantity"]) == _pinmap_count(row["count_from"]), row


# --- the hand-written guide quotes figures from the data; keep them current ---

README = _read("hardware/README.md")


def test_readme_states_the_bom_total():
    total = sum(int(row["quantity"]) * float(row["unit_cost_usd"]) for row in _bom())
    assert "%.2f" % total in README, "hardware/README.md should state the BOM total %.2f" % total


def test_readme_states_the_power_total():
    rows, _ = gen.power_budget(PINMAP)
    total = sum(current for _, _, current in rows)
    assert "**%.1f mA**" % total in README, "hardware/README.md should state the worst case %.1f mA" % total


def test_readme_names_the_current_single_pins():
    readers = PINMAP["readers"]
    for gpio in (readers["sck"], readers["mosi"], readers["miso"], PINMAP["display"]["load"],
                 PINMAP["leds"]["data"], PINMAP["buzzer"]["pwm"]):
        assert "GP%d " % gpio in README or "GP%d," % gpio in README or "GP%d)" % gpio in README, gpio
