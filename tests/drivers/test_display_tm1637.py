# portable
"""TM1637 modules against the bit-level model: digits, brightness, ACK, a missing module."""
import sys

from portable import raises

import machine
from tiletable.drivers import tm1637 as tm1637_module
from tiletable.drivers.segments import ScoreDisplay
from tiletable.drivers.tm1637 import TM1637
from tm1637_model import Tm1637Model

if sys.implementation.name == "micropython":
    # The model has no timing, as on CPython (where the driver's sleep_us is a no-op); each
    # clock phase's real sleep made the WebAssembly port's run of this file 12.3 s, 0.5 s without.
    tm1637_module.sleep_us = lambda us: None


def make_module(clk_id=2, dio_id=3, reset=True):
    if reset:
        machine.reset_pins()
    clk = machine.Pin(clk_id)
    dio = machine.Pin(dio_id)
    model = Tm1637Model(clk, dio)
    return TM1637(clk, dio), model


def make_table(seats):
    machine.reset_pins()
    modules = []
    models = []
    for seat in range(seats):
        module, model = make_module(2 + 2 * seat, 3 + 2 * seat, reset=False)
        modules.append(module)
        models.append(model)
    return ScoreDisplay([(module, 0) for module in modules]), models


def test_init_switches_the_display_on_blank_and_every_byte_is_acknowledged():
    module, model = make_module()
    assert model.on and model.brightness == 7
    assert model.text() == "    "
    assert model.transfers == 4 and model.acks == 1 + (1 + 1 + 4 + 1)  # control, then data, address, 4 digits, control
    assert model.errors == []


def test_scores_and_words_on_one_module_per_seat():
    scores, models = make_table(4)
    scores.draw_number(0, 61)
    scores.draw_number(1, -12)
    scores.draw_text(2, "PASS")
    scores.draw_text(3, "4P", right_align=True)
    scores.show()
    assert [model.text() for model in models] == ["  61", " -12", "PA55", "  4P"]
    assert models[2].reads("PASS")
    assert all(model.errors == [] for model in models)


def test_negative_and_overflow_values():
    scores, models = make_table(1)
    for value, seen in ((-999, "-999"), (-5, "  -5"), (0, "   0"), (9999, "9999"), (10000, "  OL"), (-1000, " -OL")):
        scores.draw_number(0, value)
        scores.show()
        assert models[0].reads(seen), (value, models[0].text())


def test_brightness_steps_and_power_off_keep_the_digits():
    scores, models = make_table(2)
    scores.draw_text(0, "Err3")
    scores.show()
    scores.brightness(100)
    assert [model.brightness for model in models] == [7, 7]
    scores.brightness(1)
    assert models[1].brightness == 0 and models[1].on
    scores.brightness(0)
    assert not models[0].on and models[0].text() == "    "
    scores.brightness(60)
    assert models[0].on and models[0].brightness == 4 and models[0].reads("Err3")


def test_blink_blanks_only_the_blinking_seat():
    scores, models = make_table(2)
    scores.draw_text(0, "bid5")
    scores.draw_number(1, 33)
    scores.blink(1)
    scores.show()
    readings = set()
    for now in range(0, 1501, 25):
        scores.tick(now)
        assert models[0].reads("bid5")
        readings.add(models[1].text())
    assert readings == {"  33", "    "}


def test_modules_sharing_one_clock_line_each_show_their_own_seat():
    machine.reset_pins()
    clk = machine.Pin(17)  # the reference board: one CLK, one DIO per seat
    models = [Tm1637Model(clk, machine.Pin(dio)) for dio in (22, 26, 27, 28)]
    modules = [TM1637(clk, machine.Pin(dio)) for dio in (22, 26, 27, 28)]
    scores = ScoreDisplay([(module, 0) for module in modules])
    for seat in range(4):
        scores.draw_number(seat, 10 * seat + 1)
    scores.show()
    scores.brightness(1)
    modules[2].set_power(False)
    assert [model.text() for model in models] == ["   1", "  11", "    ", "  31"]
    assert [model.brightness for model in models] == [0, 0, 0, 0]
    assert all(model.errors == [] for model in models)


def test_brightness_cap_limits_every_step():
    module, model = make_module()
    capped = TM1637(machine.Pin(2), machine.Pin(3), max_brightness=2)
    assert model.brightness == 2
    ScoreDisplay([(capped, 0)]).brightness(100)
    assert model.brightness == 2
    raises(ValueError, capped.set_brightness, 3)


def test_missing_module_raises_a_clear_error_at_construction():
    machine.reset_pins()
    err = raises(OSError, TM1637, machine.Pin(6), machine.Pin(7))
    assert "no tm1637" in str(err) and "Pin(6)" in str(err) and "Pin(7)" in str(err)


def test_module_that_stops_answering_raises_on_show_and_leaves_the_bus_idle():
    module, model = make_module()
    model.connected = False
    module.buffer[0] = 0x3F
    err = raises(OSError, module.show)
    assert "no ack for byte 0x40" in str(err)
    assert machine.Pin(2).value() == 1 and machine.Pin(3).value() == 1
    model.connected = True
    module.show()
    assert model.text() == "0   " and model.errors == []


def test_raw_segments_and_the_colon_bit_reach_the_chip():
    scores, models = make_table(1)
    scores.draw_number(0, 1230)
    scores.draw_segments(0, 1, 0x80 | 0x5B)
    scores.show()
    assert models[0].ram[1] == 0xDB
    assert models[0].text() == "12.30"
    raises(ValueError, scores.draw_segments, 0, 4, 0)


def _tm1637_board():
    """The board of the TM1637 build (pins.DISPLAY_FITTED "tm1637"), a model on each module's pins."""
    from tiletable.board import pins
    from tiletable.board.setup import build

    machine.reset_pins()
    clk = machine.Pin(pins.TM1637_CLK)
    models = [Tm1637Model(clk, machine.Pin(dio)) for dio in pins.TM1637_DIO]
    return build(machine, display="tm1637"), models


def test_the_tm1637_build_shows_each_seat_on_its_own_module():
    board, models = _tm1637_board()
    board.display.draw_text(0, "MUGG")
    board.display.draw_number(3, 120)
    board.display.show()
    assert [m.text() for m in models] == ["MUGG", "    ", "    ", " 120"]
    assert all(m.errors == [] for m in models)


def test_the_tm1637_build_writes_one_row_across_its_modules():
    """The self test's words span the modules as on the MAX7219 chain (``PUSH MENU``)."""
    from tiletable.drivers.segments import glyph

    board, models = _tm1637_board()
    row = board.chain
    assert row.digits == 16
    for i, char in enumerate("PUSH MENU"):
        row.buffer[i] = glyph(char)
    row.show()
    assert [m.text() for m in models] == ["PU5H", " MEN", "U   ", "    "]  # S and 5 share one shape


def test_a_board_without_its_tm1637_modules_fails_at_build():
    from tiletable.board import pins
    from tiletable.board.setup import build

    machine.reset_pins()
    clk = machine.Pin(pins.TM1637_CLK)
    for dio in pins.TM1637_DIO[1:]:
        Tm1637Model(clk, machine.Pin(dio))  # seat 0's module is missing
    assert "%d" % pins.TM1637_DIO[0] in str(raises(OSError, build, machine, "tm1637"))
    assert "no display 'hd44780'" in str(raises(ValueError, build, machine, "hd44780"))
