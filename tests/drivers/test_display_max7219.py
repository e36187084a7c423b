# portable
"""MAX7219 chains of 1-4 modules against the wire-level model: what a person sees."""
from portable import raises

import machine
from max7219_model import Max7219Chain
from tiletable.drivers.max7219 import Max7219
from tiletable.drivers.segments import ScoreDisplay, glyph


def make_chain(modules):
    machine.reset_pins()
    spi = machine.SPI(0)
    cs = machine.Pin(17)
    model = Max7219Chain(modules)
    spi.attach(model, cs)
    return Max7219(spi, cs, modules=modules), model, spi


def seats_on(chain, seats):
    return ScoreDisplay([(chain, 4 * seat) for seat in range(seats)])


def test_init_sets_every_chip_in_every_chain_length():
    for modules in (1, 2, 3, 4):
        chain, model, spi = make_chain(modules)
        for chip in model.chips:
            assert not chip.shutdown and not chip.test
            assert chip.scan_limit == 7 and chip.decode == 0 and chip.intensity == 15
        assert [model.text(m) for m in range(modules)] == ["        "] * modules


def test_each_latch_carries_one_frame_per_chip():
    for modules in (1, 2, 3, 4):
        chain, model, spi = make_chain(modules)
        spi.stats.reset()
        model.latches = 0
        chain.show()
        assert model.latches == 8
        assert spi.stats.bytes == 8 * 2 * modules
        for chip in model.chips:
            assert chip.frames == 5 + 8 + 8  # init (test, scan, decode, intensity, shutdown) + 2 shows


def test_scores_and_words_on_chains_of_one_to_four_modules():
    values = (0, 7, 61, -12, 9999, -999, 250, 1234)
    for modules in (1, 2, 3, 4):
        chain, model, spi = make_chain(modules)
        scores = seats_on(chain, 2 * modules)
        for seat in range(2 * modules):
            if seat % 2:
                scores.draw_text(seat, ("MUGG", "PASS", "Err3", "bid5")[seat // 2])
            else:
                scores.draw_number(seat, values[seat // 2])
        scores.show()
        for module in range(modules):
            expected = "%4d%s" % (values[module], ("MUGG", "PASS", "Err3", "bid5")[module])
            assert model.reads(module, expected), (module, model.text(module), expected)


def test_text_readout_matches_the_example():
    chain, model, spi = make_chain(1)
    scores = seats_on(chain, 2)
    scores.draw_number(0, 12)
    scores.draw_text(1, "MUGG")
    scores.show()
    assert model.text(0) == "  12MUGG"


def test_overflow_shows_overload_not_a_wrong_number():
    chain, model, spi = make_chain(1)
    scores = seats_on(chain, 2)
    assert scores.draw_number(0, 10000) is False
    assert scores.draw_number(1, -1000) is False
    scores.show()
    assert model.reads(0, "  OL -OL"), model.text(0)
    assert scores.draw_number(0, 9999) is True
    scores.show()
    assert model.reads(0, "9999 -OL"), model.text(0)


def test_short_words_align_and_points_merge_into_the_digit_before():
    chain, model, spi = make_chain(1)
    scores = seats_on(chain, 2)
    scores.draw_text(0, "4P")
    scores.draw_text(1, "1.5", right_align=True)
    scores.show()
    assert model.shapes(0)[6] == "bc."
    assert model.text(0) == "4P    1.5"


def test_words_that_do_not_fit_or_cannot_be_drawn_are_refused():
    chain, model, spi = make_chain(1)
    scores = seats_on(chain, 2)
    err = raises(ValueError, scores.draw_text, 0, "MUGGINS")
    assert "MUGGINS" in str(err)
    err = raises(ValueError, scores.draw_text, 0, "A#")
    assert "'#'" in str(err)
    raises(ValueError, scores.draw_number, 2, 5)
    raises(ValueError, ScoreDisplay, [(chain, 6)])
    raises(ValueError, ScoreDisplay, [(chain, 0)], 2)
    assert seats_on(chain, 2).seats == 2


def test_every_glyph_reads_as_its_character():
    chain, model, spi = make_chain(1)
    chars = "0123456789 -_=?ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
    for start in range(0, len(chars), 8):
        chunk = chars[start:start + 8]
        for i in range(8):
            chain.buffer[i] = glyph(chunk[i]) if i < len(chunk) else 0
        chain.show()
        assert model.reads(0, chunk + " " * (8 - len(chunk))), (chunk, model.text(0))


def test_brightness_and_power_reach_every_chip():
    chain, model, spi = make_chain(3)
    scores = seats_on(chain, 6)
    scores.draw_number(0, 42)
    scores.show()
    scores.brightness(100)
    assert [chip.intensity for chip in model.chips] == [15, 15, 15]
    scores.brightness(1)
    assert [chip.intensity for chip in model.chips] == [0, 0, 0]
    scores.brightness(50)
    assert model.chips[2].intensity == 7
    scores.brightness(0)
    assert model.chips[0].shutdown and model.text(0) == "        "
    scores.brightness(30)
    assert not model.chips[0].shutdown and model.text(0) == "  42    "
    raises(ValueError, scores.brightness, 101)
    raises(ValueError, chain.set_brightness, 16)


def test_a_power_budget_cap_is_what_full_brightness_means():
    machine.reset_pins()
    spi = machine.SPI(0)
    cs = machine.Pin(17)
    model = Max7219Chain(2)
    spi.attach(model, cs)
    chain = Max7219(spi, cs, modules=2, max_brightness=1)  # the reference board's DISPLAY_MAX_INTENSITY
    assert [chip.intensity for chip in model.chips] == [1, 1]
    scores = seats_on(chain, 4)
    scores.brightness(100)
    assert model.chips[1].intensity == 1
    scores.brightness(50)
    assert model.chips[1].intensity == 0
    err = raises(ValueError, chain.set_brightness, 2)
    assert "0..1" in str(err)
    raises(ValueError, Max7219, spi, cs, 2, 16)


def test_blinking_group_goes_dark_in_the_off_phase_only():
    chain, model, spi = make_chain(2)
    scores = seats_on(chain, 4)
    for seat in range(4):
        scores.draw_number(seat, seat + 1)
    scores.blink(2)
    scores.show()
    seen = []
    for now in range(0, 2001, 50):
        scores.tick(now)
        seen.append((now, model.text(0), model.text(1)))
    assert all(text0 == "   1   2" for now, text0, text1 in seen)
    dark = [now for now, text0, text1 in seen if text1 == "       4"]
    lit = [now for now, text0, text1 in seen if text1 == "   3   4"]
    assert len(dark) + len(lit) == len(seen)
    assert dark[0] == 500 and 750 not in dark and 1250 in dark
    assert 13 <= len(lit) and 10 <= len(dark)
    assert model.text(1) == "       4"  # dark from 2000 ms to 2250 ms
    scores.blink(2, on=False)
    scores.tick(2050)
    assert model.text(1) == "   3   4"


def test_blink_survives_the_tick_counter_wrapping():
    from tiletable.drivers.clock import ticks_add

    chain, model, spi = make_chain(1)
    scores = seats_on(chain, 2)
    scores.draw_number(0, 8)
    scores.blink(0)
    scores.show()
    start = ticks_add(0, -300)
    phases = []
    for step in range(0, 1600, 50):
        scores.tick(ticks_add(start, step))
        phases.append(model.text(0)[:4])
    assert phases.count("    ") >= 9 and phases.count("   8") >= 20


def test_model_shows_garbage_when_a_chain_is_driven_with_too_few_frames():
    chain, model, spi = make_chain(2)
    short = Max7219(spi, machine.Pin(17), modules=1)
    short.buffer[7] = glyph("7")
    short.show()
    assert model.text(0) == "       7"
    assert model.text(1) != "        "
