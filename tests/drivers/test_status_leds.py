# portable
"""WS2812 status LEDs against the recording neopixel stand-in: turn, ends, flashes, current cap."""
from portable import raises

import machine
from allocation import bytes_allocated
from neopixel import NeoPixel
from tiletable.drivers.status_leds import StatusLeds

OFF = (0, 0, 0)


def make_leds(n=8, **kwargs):
    machine.reset_pins()
    strip = NeoPixel(machine.Pin(16), n)
    leds = StatusLeds(strip, seat_leds=(0, 1, 2, 3), end_leds=((4, 5), (6, 7)), **kwargs)
    return leds, strip


def estimate_ma(colours):
    """The documented WS2812B estimate, recomputed from what the strip received."""
    return len(colours) * 1 + sum(sum(colour) for colour in colours) * 20 / 255


def test_turn_lights_only_that_seat_and_moves():
    leds, strip = make_leds()
    leds.show_turn(2)
    leds.tick(0)
    assert strip.colours() == [OFF, OFF, StatusLeds.turn_colour] + [OFF] * 5
    leds.show_turn(3)
    leds.tick(10)
    assert strip.colours()[2:4] == [OFF, StatusLeds.turn_colour]
    leds.show_turn(None)
    leds.tick(20)
    assert strip.colours() == [OFF] * 8
    raises(ValueError, leds.show_turn, 4)


def test_buffer_is_written_in_the_strips_grb_order():
    leds, strip = make_leds()
    leds.show_turn(0)
    leds.tick(0)
    red, green, blue = StatusLeds.turn_colour
    assert strip.frames[-1][:3] == bytes((green, red, blue))


def test_candidate_ends_light_every_led_of_each_end_zone():
    leds, strip = make_leds()
    leds.show_candidate_ends(0b10)
    leds.tick(0)
    end = StatusLeds.end_colour
    assert strip.colours()[4:] == [OFF, OFF, end, end]
    leds.show_candidate_ends(0b11)
    leds.tick(1)
    assert strip.colours()[4:] == [end] * 4
    leds.show_candidate_ends(0)
    leds.tick(2)
    assert strip.colours()[4:] == [OFF] * 4
    raises(ValueError, leds.show_candidate_ends, 0b100)


def test_illegal_flash_blinks_red_three_times_then_restores_the_turn():
    leds, strip = make_leds(flash_leds=(0, 1, 2, 3))
    leds.show_turn(1)
    leds.tick(0)
    leds.flash_illegal(1000)
    timeline = []
    for now in range(1000, 1800, 10):
        leds.tick(now)
        timeline.append(strip.colours()[0] == StatusLeds.illegal_colour)
    lit_runs = 0
    for i in range(len(timeline)):
        if timeline[i] and (i == 0 or not timeline[i - 1]):
            lit_runs += 1
    assert lit_runs == 3
    assert timeline[:15] == [True] * 15 and timeline[15:25] == [False] * 10
    assert not leds.is_flashing
    assert strip.colours()[:4] == [OFF, StatusLeds.turn_colour, OFF, OFF]


def test_legal_flash_is_one_green_pulse_and_writes_only_on_changes():
    leds, strip = make_leds()
    leds.tick(0)
    writes = len(strip.frames)
    leds.flash_legal(100)
    for now in range(100, 1000, 5):
        leds.tick(now)
    assert len(strip.frames) == writes + 2
    assert strip.colours(-2) == [StatusLeds.legal_colour] * 8
    assert strip.colours() == [OFF] * 8


def test_a_flash_started_over_the_same_flash_blinks_dark_at_once_then_lights_again():
    """A tile laid while the last one's green flash is still lit: the new verdict must show
    at once, not hide in the light of the old (the strip would not change for 300 ms)."""
    leds, strip = make_leds()
    leds.tick(0)
    leds.flash_legal(100)
    leds.tick(100)
    assert strip.colours() == [StatusLeds.legal_colour] * 8
    leds.flash_legal(250)
    leds.tick(250)
    assert strip.colours() == [OFF] * 8  # the blink: the strip changes with the new verdict
    leds.tick(250 + StatusLeds.blink_ms - 1)
    assert strip.colours() == [OFF] * 8
    leds.tick(250 + StatusLeds.blink_ms)
    assert strip.colours() == [StatusLeds.legal_colour] * 8
    leds.tick(250 + StatusLeds.blink_ms + StatusLeds.legal_flash_ms[0] - 1)
    assert strip.colours() == [StatusLeds.legal_colour] * 8  # the whole flash, after the blink
    leds.tick(250 + StatusLeds.blink_ms + StatusLeds.legal_flash_ms[0])
    assert not leds.is_flashing


def test_a_flash_of_another_colour_or_over_a_dark_step_lights_at_once():
    leds, strip = make_leds()
    leds.flash_legal(0)
    leds.tick(0)
    leds.flash_illegal(100)
    leds.tick(100)
    assert strip.colours() == [StatusLeds.illegal_colour] * 8
    leds.tick(260)  # the illegal flash's first dark step
    assert strip.colours() == [OFF] * 8
    leds.flash_illegal(270)
    leds.tick(270)
    assert strip.colours() == [StatusLeds.illegal_colour] * 8


def test_brightness_scales_every_channel():
    leds, strip = make_leds()
    leds.show_turn(0)
    leds.set_brightness(128)
    leds.tick(0)
    assert strip.colours()[0] == tuple(c * 128 // 255 for c in StatusLeds.turn_colour)
    raises(ValueError, leds.set_brightness, 256)


def test_current_cap_keeps_full_white_within_the_budget():
    machine.reset_pins()
    strip = NeoPixel(machine.Pin(16), 30)
    leds = StatusLeds(strip, seat_leds=(0,), budget_ma=500)
    leds.legal_colour = (255, 255, 255)
    leds.flash_legal(0)
    leds.tick(0)
    colours = strip.colours()
    assert estimate_ma(colours) <= 500 and leds.estimated_ma <= 500
    assert leds.estimated_ma >= 490  # the cap dims, it does not blank
    red, green, blue = colours[0]
    assert red == green == blue > 0


def test_frames_under_the_budget_are_left_alone():
    leds, strip = make_leds(budget_ma=500)
    leds.show_turn(1)
    leds.tick(0)
    assert strip.colours()[1] == StatusLeds.turn_colour
    assert leds.estimated_ma == int(estimate_ma(strip.colours()))


def test_a_budget_below_the_idle_current_turns_everything_off():
    leds, strip = make_leds(budget_ma=5)
    leds.show_turn(1)
    leds.tick(0)
    assert strip.colours() == [OFF] * 8


def test_ticking_through_a_flash_allocates_nothing():
    leds, strip = make_leds(budget_ma=300)
    leds.show_turn(1)
    leds.show_candidate_ends(1)
    leds.tick(0)
    leds.flash_illegal(0)

    def loop():
        for now in range(1000):
            leds.tick(now)

    strip.write = lambda: None  # the recorder copies each frame; the driver's part is what is measured
    assert bytes_allocated(loop) in (0, None)
    assert not leds.is_flashing


def test_results_light_their_leds_green_red_amber_and_dark_again():
    leds, strip = make_leds(n=10)
    leds.show_result(8, StatusLeds.WIN)
    leds.show_result(9, StatusLeds.LOSS)
    leds.tick(0)
    assert strip.colours()[8:] == [StatusLeds.win_colour, StatusLeds.loss_colour]
    leds.show_result(8, StatusLeds.DRAW)
    leds.show_result(9, None)
    leds.tick(1)
    assert strip.colours()[8:] == [StatusLeds.draw_colour, OFF]
    leds.show_turn(0)
    leds.clear_results()
    leds.tick(2)
    assert strip.colours()[0] == StatusLeds.turn_colour and strip.colours()[8] == OFF
    raises(ValueError, leds.show_result, 10, StatusLeds.WIN)
    raises(ValueError, leds.show_result, 8, 7)


def test_a_result_unchanged_writes_nothing_and_setting_results_allocates_nothing():
    leds, strip = make_leds(n=10)
    leds.show_result(8, StatusLeds.WIN)
    leds.tick(0)
    writes = len(strip.frames)
    leds.show_result(8, StatusLeds.WIN)
    leds.tick(1)
    assert len(strip.frames) == writes
    win, loss = StatusLeds.WIN, StatusLeds.LOSS

    def loop():
        for now in range(200):
            leds.show_result(8, win if now & 1 else loss)
            leds.show_result(9, None)
            leds.tick(now)

    strip.write = lambda: None
    assert bytes_allocated(loop) in (0, None)
