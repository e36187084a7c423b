# portable
"""The table's display/buzzer layer on the wire-level MAX7219 model, and the profile lookups."""
import machine
from max7219_model import Max7219Chain

from tiletable.drivers.buzzer import Buzzer
from tiletable.drivers.max7219 import Max7219
from tiletable.drivers.segments import ScoreDisplay
from tiletable.profiles import profile_for
from tiletable.runtime.ui import MESSAGE_MS, TableUi


def make():
    machine.reset_pins()
    spi = machine.SPI(0)
    chain_model = Max7219Chain(2)
    spi.attach(chain_model, machine.Pin(17, machine.Pin.OUT, value=1))
    chain = Max7219(spi, machine.Pin(17), 2)
    display = ScoreDisplay([(chain, 0), (chain, 4), (chain, 8), (chain, 12)])
    pwm = machine.PWM(machine.Pin(20))
    return TableUi(display, Buzzer(pwm)), chain_model, pwm


def shown(model):
    return model.text(0) + model.text(1)


def test_message_covers_the_steady_view_until_it_ends():
    ui, model, pwm = make()
    ui.number(0, 12)
    ui.show()
    assert shown(model)[:4] == "  12"
    ui.illegal(0, 4, 1000)
    ui.number(0, 15)  # the game moved on meanwhile: drawn once the message ends
    ui.show()
    assert shown(model)[:4] == "Err4"
    assert pwm.freq() == 220 and pwm.duty_u16() > 0
    assert ui.tick(1000 + MESSAGE_MS - 1) is False
    assert ui.tick(1000 + MESSAGE_MS) is True


def test_two_digit_codes_fit_four_digits():
    ui, model, pwm = make()
    ui.illegal(1, 16, 0)
    ui.show()
    assert shown(model)[4:8] == "Er16"


def test_profiles_follow_the_player_count():
    assert profile_for("muggins", 3).name == "line-3p"
    assert profile_for("muggins", 2).seat_zone == {0: 0, 1: 2}
    assert profile_for("bergen", 3, "line").name == "line-3p"
    assert profile_for("moon", 3).trick_zone == 4
