# portable
"""Debounced buttons against bouncing contacts: exactly one event per action, whatever the bounce."""
from portable import raises

import machine
from allocation import bytes_allocated, takes_heap
from buttons import BouncyContact
from tiletable.drivers.buttons import Buttons
from tiletable.drivers.clock import ticks_add

PRESS, RELEASE, LONG, DOUBLE = Buttons.PRESS, Buttons.RELEASE, Buttons.LONG, Buttons.DOUBLE


def make_buttons(count=1, seed=1, active_low=True):
    machine.reset_pins()
    pins = [machine.Pin(10 + i) for i in range(count)]
    contacts = [BouncyContact(pin, seed=seed + i, active_low=active_low) for i, pin in enumerate(pins)]
    return Buttons(pins, active_low=active_low), contacts


_now = [0]  # the virtual time run() has reached


def ticks_ms():
    """The clock of the buttons' IRQs: the time run() has reached."""
    return _now[0]


def run(buttons, contacts, until_ms, step_ms=1, start_ms=0):
    """Poll every step_ms; returns [(now_ms, button, kind)] in order."""
    events = []
    for now in range(start_ms, until_ms, step_ms):
        _now[0] = now
        for contact in contacts:
            contact.advance(now)
        buttons.poll(now)
        event = buttons.get()
        while event is not None:
            events.append((now, Buttons.button_of(event), Buttons.kind_of(event)))
            event = buttons.get()
    return events


def kinds(events):
    return [kind for now, button, kind in events]


def test_one_press_is_one_press_and_one_release_for_any_bounce():
    for seed in range(1, 61):
        for step in (1, 2, 5):
            buttons, (contact,) = make_buttons(seed=seed)
            contact.tap(100, 200)
            events = run(buttons, [contact], 1000, step)
            assert kinds(events) == [PRESS, RELEASE], (seed, step, events)
            pressed_at, released_at = events[0][0], events[1][0]
            assert 100 + Buttons.debounce_ms <= pressed_at <= 100 + 10 + Buttons.debounce_ms + step
            assert 300 + Buttons.debounce_ms <= released_at <= 300 + 10 + Buttons.debounce_ms + step


def test_the_contact_model_really_bounces():
    machine.reset_pins()
    pin = machine.Pin(10)
    contact = BouncyContact(pin, seed=7)
    contact.press(0)
    levels = []
    for now in range(0, 15):
        contact.advance(now)
        levels.append(pin.value())
    changes = sum(1 for i in range(1, len(levels)) if levels[i] != levels[i - 1])
    assert changes >= 2 and levels[-1] == 0


def test_long_press_fires_once_while_held_and_only_after_a_second():
    for seed in (3, 11, 29):
        buttons, (contact,) = make_buttons(seed=seed)
        contact.tap(0, 1500)
        events = run(buttons, [contact], 3000)
        assert kinds(events) == [PRESS, LONG, RELEASE], events
        assert 1000 <= events[1][0] <= 1000 + 10 + 1
        buttons, (contact,) = make_buttons(seed=seed)
        contact.tap(0, 900)
        assert kinds(run(buttons, [contact], 3000)) == [PRESS, RELEASE]


def test_double_press_within_the_window_and_not_beyond():
    for seed in range(1, 21):
        buttons, (contact,) = make_buttons(seed=seed)
        contact.tap(0, 80)
        contact.tap(250, 80)
        assert kinds(run(buttons, [contact], 1000)) == [PRESS, RELEASE, PRESS, DOUBLE, RELEASE], seed
        buttons, (contact,) = make_buttons(seed=seed)
        contact.tap(0, 80)
        contact.tap(450, 80)
        assert kinds(run(buttons, [contact], 1000)) == [PRESS, RELEASE, PRESS, RELEASE], seed


def test_a_third_quick_press_does_not_make_a_second_double():
    buttons, (contact,) = make_buttons(seed=5)
    contact.tap(0, 60)
    contact.tap(150, 60)
    contact.tap(300, 60)
    assert kinds(run(buttons, [contact], 1000)) == [PRESS, RELEASE, PRESS, DOUBLE, RELEASE, PRESS, RELEASE]


def test_a_long_press_does_not_start_a_double():
    buttons, (contact,) = make_buttons(seed=9)
    contact.tap(0, 1100)
    contact.tap(1200, 60)
    assert kinds(run(buttons, [contact], 2000)) == [PRESS, LONG, RELEASE, PRESS, RELEASE]


def test_buttons_are_independent_and_events_name_their_button():
    buttons, contacts = make_buttons(count=3, seed=40)
    contacts[2].tap(10, 100)
    contacts[0].tap(50, 1200)
    events = run(buttons, contacts, 2000)
    assert [(button, kind) for now, button, kind in events] == [
        (2, PRESS), (0, PRESS), (2, RELEASE), (0, LONG), (0, RELEASE)
    ]


def test_active_high_buttons_with_pull_down():
    buttons, (contact,) = make_buttons(seed=2, active_low=False)
    assert machine.Pin(10).pull == machine.Pin.PULL_DOWN
    contact.tap(0, 100)
    assert kinds(run(buttons, [contact], 500)) == [PRESS, RELEASE]


def test_a_button_held_at_boot_reports_nothing_until_pressed_again():
    machine.reset_pins()
    pin = machine.Pin(10)
    contact = BouncyContact(pin, seed=4)
    contact.press(0)
    contact.advance(100)
    buttons = Buttons([pin])
    assert buttons.is_down(0)
    contact.release(2000)
    contact.tap(2500, 100)
    assert kinds(run(buttons, [contact], 3000, start_ms=100)) == [RELEASE, PRESS, RELEASE]


def test_full_queue_drops_the_oldest_and_counts_it():
    buttons, (contact,) = make_buttons(seed=6)
    for i in range(12):
        contact.tap(i * 500, 100)
    for now in range(0, 6000):
        contact.advance(now)
        buttons.poll(now)
    assert buttons.dropped == 24 - Buttons.queue_size
    events = []
    event = buttons.get()
    while event is not None:
        events.append(Buttons.kind_of(event))
        event = buttons.get()
    assert events == [PRESS, RELEASE] * (Buttons.queue_size // 2)


def test_edges_raise_the_irq_flag_and_idle_buttons_need_no_polling():
    class Flag:
        sets = 0

        def set(self):
            self.sets += 1

    buttons, (contact,) = make_buttons(seed=8)
    flag = Flag()
    buttons.enable_irq(ticks_ms, flag)
    assert not buttons.needs_poll(0)
    contact.tap(100, 50)
    contact.advance(100)
    assert buttons.edge_pending and flag.sets >= 1 and buttons.needs_poll(100)
    run(buttons, [contact], 200, start_ms=100)
    assert buttons.needs_poll(200)  # a double press could still follow
    run(buttons, [contact], 600, start_ms=200)
    assert not buttons.needs_poll(600)


def _scripted_actions(contacts):
    """Taps, a long hold, a double press and two buttons at once, on ``contacts`` (two)."""
    first, second = contacts
    first.tap(100, 60)
    first.tap(700, 1500)  # a long press
    first.tap(3000, 40)
    first.tap(3150, 40)  # a double press
    second.tap(3100, 300)
    second.tap(4000, 40)


def test_with_edge_irqs_the_events_are_those_of_polling_every_pin():
    for seed in range(1, 21):
        for step in (1, 10):
            polled, contacts = make_buttons(count=2, seed=seed)
            _scripted_actions(contacts)
            expected = run(polled, contacts, 5000, step)
            flagged, contacts = make_buttons(count=2, seed=seed)
            flagged.enable_irq(ticks_ms)
            _scripted_actions(contacts)
            assert run(flagged, contacts, 5000, step) == expected, (seed, step)
            assert LONG in kinds(expected) and DOUBLE in kinds(expected)


def test_with_edge_irqs_an_idle_poll_reads_no_pin():
    buttons, (contact,) = make_buttons(seed=9)
    reads = [0]
    read = buttons._pins[0].value

    def counted(*args):
        reads[0] += 1
        return read(*args)

    buttons._pins[0].value = counted
    buttons.enable_irq(ticks_ms)
    reads[0] = 0  # (it reads each contact's level once, for its IRQ)
    run(buttons, [contact], 50)
    assert reads[0] == 1  # the first poll after enable_irq, then none
    contact.tap(100, 50)
    assert kinds(run(buttons, [contact], 400, start_ms=50)) == [PRESS, RELEASE]
    during = reads[0]
    run(buttons, [contact], 900, start_ms=400)
    assert reads[0] == during  # once released and debounced, nothing more is read


def test_timings_survive_the_tick_counter_wrapping():
    buttons, (contact,) = make_buttons(seed=12)
    contact.tap(10, 1200)
    start = ticks_add(0, -500)
    seen = []
    for step in range(2000):
        contact.advance(step)
        buttons.poll(ticks_add(start, step))
        event = buttons.get()
        while event is not None:
            seen.append(Buttons.kind_of(event))
            event = buttons.get()
    assert seen == [PRESS, LONG, RELEASE]


def test_contacts_must_be_scheduled_in_order():
    buttons, (contact,) = make_buttons()
    contact.press(100)
    raises(ValueError, contact.release, 50)


def test_fifteen_hundred_polls_with_presses_allocate_nothing():
    buttons, contacts = make_buttons(count=4, seed=21)
    contacts[0].tap(10, 1100)
    contacts[1].tap(100, 50)
    contacts[1].tap(300, 50)
    contacts[3].tap(500, 200)
    counts = [0, 0, 0, 0]

    def loop():
        for now in range(1500):
            for contact in contacts:
                contact.advance(now)
            buttons.poll(now)
            event = buttons.get()
            while event is not None:
                counts[Buttons.kind_of(event)] += 1
                event = buttons.get()

    assert bytes_allocated(loop) in (0, None)
    assert counts == [4, 4, 1, 1]  # press, release, long, double


def test_queued_events_say_when_their_contact_settled():
    """A press and its release wait in the queue with the times their contacts settled, so a
    user can take them in order with other input (App: a tile laid after the press)."""
    buttons, (contact,) = make_buttons()
    assert not buttons.queued_before(10**6)
    contact.tap(100, 80)
    for now in range(0, 400):
        contact.advance(now)
        buttons.poll(now)
    assert not buttons.queued_before(100)  # the press settled after its first edge
    assert buttons.queued_before(111)  # within the bounce (10 ms) after it
    assert Buttons.kind_of(buttons.get()) == PRESS
    assert not buttons.queued_before(180) and buttons.queued_before(191)  # the release
    assert Buttons.kind_of(buttons.get()) == RELEASE
    assert not buttons.queued_before(10**6)


def test_with_edge_irqs_a_tap_while_no_poll_ran_is_still_one_press():
    """A tap of 80 ms while one step held the loop (a link reply, a collection) is seen by at
    most one poll; the IRQs timed it, and the next poll queues it, at its contact's times."""
    for seed in range(1, 31):
        for glimpse in (False, True):
            buttons, (contact,) = make_buttons(seed=seed)
            buttons.enable_irq(ticks_ms)
            contact.tap(100, 80)
            run(buttons, [contact], 90)
            for now in range(90, 300):  # the loop is held: only the IRQs run
                _now[0] = now
                contact.advance(now)
                if glimpse and now == 150:
                    buttons.poll(now)  # one poll sees the contact down, once
            events = run(buttons, [contact], 700, start_ms=300)
            assert kinds(events) == [PRESS, RELEASE], (seed, glimpse, events)
            assert buttons.queued_before(700) is False
            assert run(buttons, [contact], 1500, start_ms=700) == []


def test_with_edge_irqs_a_missed_tap_is_timed_from_its_contact():
    buttons, (contact,) = make_buttons(seed=3)
    buttons.enable_irq(ticks_ms)
    contact.tap(100, 80)
    for now in range(0, 300):
        _now[0] = now
        contact.advance(now)
    buttons.poll(300)
    assert not buttons.queued_before(100) and buttons.queued_before(111)  # the press, at its contact
    assert Buttons.kind_of(buttons.get()) == PRESS
    assert not buttons.queued_before(180) and buttons.queued_before(191)  # the release
    assert Buttons.kind_of(buttons.get()) == RELEASE


def test_without_irqs_a_tap_no_poll_saw_is_lost():
    """Why the table turns the IRQs on (App): polling alone cannot know of it."""
    buttons, (contact,) = make_buttons(seed=3)
    contact.tap(100, 80)
    for now in range(0, 300):
        contact.advance(now)
    assert run(buttons, [contact], 700, start_ms=300) == []


def test_polls_take_no_heap_idle_or_while_a_button_is_held():
    """Not even a call's frame: MicroPython puts one of more than 11 words on the heap, and a
    stock build collects every 16 KB allocated (a poll every 10 ms did that at idle)."""
    buttons, (contact,) = make_buttons(count=1, seed=5)
    buttons.enable_irq(ticks_ms)
    buttons.poll(0)

    def idle():
        for now in range(1, 200):
            buttons.poll(now)

    assert takes_heap(idle) in (False, None)
    contact.press(200)
    contact.advance(215)

    def held():  # settling, then down, then its LONG: every pin read each poll
        for now in range(215, 1400):
            buttons.poll(now)

    assert takes_heap(held) in (False, None)
    assert [Buttons.kind_of(buttons.get()), Buttons.kind_of(buttons.get())] == [PRESS, LONG]
