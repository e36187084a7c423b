"""Passive piezo buzzer on a PWM pin: tones and short patterns that play without blocking.

A pattern is a flat tuple of ``(frequency_hz, duration_ms)`` pairs, frequency 0 for a
rest; ``play(pattern, now_ms)`` starts it and ``tick(now_ms)`` moves on as steps end,
so the main loop never sleeps for a sound. Silence is duty 0 (the PWM keeps running):
the rp2 port cannot set a 0 Hz frequency, and duty 0 leaves the transistor off.
Steps are timed from when the previous one was due, not from when ``tick`` noticed, so
a late tick shortens one step instead of stretching the whole pattern.

Example: ``buzzer.play(Buzzer.ILLEGAL, time.ticks_ms())``
"""
from tiletable.drivers.clock import ticks_add, ticks_diff


class Buzzer:
    """One piezo on ``pwm`` (a ``machine.PWM``); ``duty_u16`` sets loudness (half duty is loudest)."""

    ILLEGAL = (220, 180, 0, 60, 180, 320)  # low falling buzz: "no"
    CONFIRM = (2093, 40, 0, 25, 2637, 60)  # two short high chirps: "got it"
    TURN = (1319, 90, 1760, 130)  # rising two-note chime: "your turn"
    ERROR = (880, 120, 0, 80, 880, 120, 0, 80, 440, 400)  # beep-beep-boo: something needs a person

    def __init__(self, pwm, duty_u16=32768):
        self._pwm = pwm
        self.duty_u16 = duty_u16
        self._pattern = None
        self._step = 0
        self._due = 0
        self._single = [0, 0]
        pwm.duty_u16(0)

    @property
    def is_playing(self):
        return self._pattern is not None

    def play(self, pattern, now_ms):
        """Start ``pattern`` now, cutting off whatever was playing."""
        if not pattern or len(pattern) % 2:
            raise ValueError("a pattern is (hz, ms) pairs, got %r" % (pattern,))
        self._pattern = pattern
        self._step = 0
        self._due = ticks_add(now_ms, pattern[1])
        self._sound(pattern[0])

    def tone(self, frequency_hz, duration_ms, now_ms):
        """Play one tone (no allocation: reuses a two-item pattern)."""
        self._single[0] = frequency_hz
        self._single[1] = duration_ms
        self.play(self._single, now_ms)

    def stop(self):
        self._pattern = None
        self._pwm.duty_u16(0)

    def tick(self, now_ms):
        """Move to the next step when the current one is over; silence after the last. Allocates nothing."""
        pattern = self._pattern
        while pattern is not None and ticks_diff(now_ms, self._due) >= 0:
            self._step += 2
            if self._step >= len(pattern):
                self.stop()
                return
            self._due = ticks_add(self._due, pattern[self._step + 1])
            if ticks_diff(now_ms, self._due) < 0:
                self._sound(pattern[self._step])

    def _sound(self, frequency_hz):
        if frequency_hz:
            self._pwm.freq(frequency_hz)
            self._pwm.duty_u16(self.duty_u16)
        else:
            self._pwm.duty_u16(0)
