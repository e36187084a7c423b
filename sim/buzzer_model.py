"""What a passive buzzer on a ``machine.PWM`` plays: (frequency, duration) over simulated time.

The virtual PWM records each change but not when it happened, so the test tells the
model the time after each step of its loop: ``model.at(now_ms)`` stamps the changes
made since the last call. The buzzer sounds when duty > 0 at frequency > 0.
``sounds()`` lists ``(hz, ms)`` from the first sound on, rests as ``(0, ms)``, up to
the last change; ``tones()`` drops the rests.
"""


class BuzzerModel:
    def __init__(self, pwm):
        self._pwm = pwm
        self._seen = len(pwm.changes)
        self._playing = 0
        self._since = None
        self._sounds = []

    def at(self, now_ms):
        changes = self._pwm.changes
        while self._seen < len(changes):
            hz, duty = changes[self._seen]
            self._seen += 1
            playing = hz if duty and hz else 0
            if playing != self._playing:
                if self._since is not None and now_ms > self._since:
                    self._sounds.append((self._playing, now_ms - self._since))
                if self._since is not None or playing:
                    self._since = now_ms
                self._playing = playing

    @property
    def sounding(self):
        return self._playing

    def sounds(self):
        return list(self._sounds)

    def tones(self):
        return [sound for sound in self._sounds if sound[0]]
