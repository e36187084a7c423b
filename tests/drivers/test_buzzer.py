# portable
"""Buzzer patterns over simulated time: what the piezo plays, silence as duty 0, no allocation."""
from portable import raises

import machine
from allocation import bytes_allocated
from buzzer_model import BuzzerModel
from tiletable.drivers.buzzer import Buzzer
from tiletable.drivers.clock import ticks_add


def make_buzzer():
    machine.reset_pins()
    pwm = machine.PWM(machine.Pin(15))
    buzzer = Buzzer(pwm)
    return buzzer, BuzzerModel(pwm), pwm


def run(buzzer, model, start, stop, step=1):
    for now in range(start, stop, step):
        buzzer.tick(now)
        model.at(now)


def pairs(pattern):
    return [(pattern[i], pattern[i + 1]) for i in range(0, len(pattern), 2)]


def test_each_pattern_plays_exactly_as_written():
    for pattern in (Buzzer.ILLEGAL, Buzzer.CONFIRM, Buzzer.TURN, Buzzer.ERROR):
        buzzer, model, pwm = make_buzzer()
        buzzer.play(pattern, 100)
        model.at(100)
        run(buzzer, model, 100, 2000)
        assert model.sounds() == pairs(pattern), (pattern, model.sounds())
        assert not buzzer.is_playing and model.sounding == 0
        assert pwm.duty_u16() == 0


def test_patterns_are_told_apart_by_ear():
    heard = []
    for pattern in (Buzzer.ILLEGAL, Buzzer.CONFIRM, Buzzer.TURN, Buzzer.ERROR):
        heard.append(tuple(hz for hz, ms in pairs(pattern) if hz))
    assert len(set(heard)) == 4
    assert max(heard[0]) < 500 < min(heard[1])  # illegal is low, confirm is high


def test_a_coarse_tick_keeps_the_pattern_length():
    buzzer, model, pwm = make_buzzer()
    buzzer.play(Buzzer.ERROR, 0)
    model.at(0)
    run(buzzer, model, 0, 2000, step=7)
    total = sum(ms for hz, ms in model.sounds())
    assert abs(total - sum(ms for hz, ms in pairs(Buzzer.ERROR))) < 7
    assert [hz for hz, ms in model.sounds()] == [hz for hz, ms in pairs(Buzzer.ERROR)]


def test_a_late_tick_skips_steps_that_are_already_over():
    buzzer, model, pwm = make_buzzer()
    buzzer.play(Buzzer.ERROR, 0)
    model.at(0)
    buzzer.tick(330)  # inside the fourth step (a rest): the second beep (200..320) was missed
    model.at(330)
    assert model.sounding == 0
    run(buzzer, model, 331, 1500)
    assert model.tones() == [(880, 330), (440, 400)]


def test_single_tone_and_interruption():
    buzzer, model, pwm = make_buzzer()
    buzzer.tone(1000, 50, 0)
    model.at(0)
    run(buzzer, model, 0, 20)
    buzzer.play(Buzzer.CONFIRM, 20)
    model.at(20)
    run(buzzer, model, 20, 400)
    assert model.sounds() == [(1000, 20)] + pairs(Buzzer.CONFIRM)


def test_stop_silences_with_duty_zero():
    buzzer, model, pwm = make_buzzer()
    buzzer.play(Buzzer.ILLEGAL, 0)
    assert pwm.duty_u16() == 32768 and pwm.freq() == 220
    buzzer.stop()
    assert pwm.duty_u16() == 0 and not buzzer.is_playing


def test_patterns_survive_the_tick_counter_wrapping():
    buzzer, model, pwm = make_buzzer()
    start = ticks_add(0, -100)
    buzzer.play(Buzzer.TURN, start)
    for step in range(0, 400):
        buzzer.tick(ticks_add(start, step))
        model.at(step)
    assert model.sounds() == pairs(Buzzer.TURN)


def test_bad_patterns_are_refused():
    buzzer, model, pwm = make_buzzer()
    raises(ValueError, buzzer.play, (440,), 0)
    raises(ValueError, buzzer.play, (), 0)


def test_ticking_a_pattern_allocates_nothing():
    buzzer, model, pwm = make_buzzer()
    pwm.changes = None  # the recorder's list would grow under the heap lock
    pwm.freq = lambda hz: None
    pwm.duty_u16 = lambda duty: None
    buzzer.play(Buzzer.ERROR, 0)

    def loop():
        for now in range(1000):
            buzzer.tick(now)
        buzzer.tone(1500, 30, 1000)
        buzzer.tick(1040)

    assert bytes_allocated(loop) in (0, None)
    assert not buzzer.is_playing
