"""A one-line progress bar on stderr for long transfers and simulations.

Drawn only when stderr is a terminal (or ``force``), so logs and tests stay clean; the
bar is redrawn at most every 0.1 s, so progress costs nothing measurable in a hot loop.
"""
import sys
import time

_WIDTH = 30
_INTERVAL = 0.1


class Progress:
    """``with Progress("pull", total) as bar: bar.update(done)``; the line is cleared at the end.

    Example of a drawn line: ``pull [###############               ]  50%  1200/2400 records``
    """

    def __init__(self, label, total, unit="", stream=None, force=False):
        self.label = label
        self.total = max(total, 0)
        self.unit = unit
        self.stream = stream or sys.stderr
        self.enabled = force or (hasattr(self.stream, "isatty") and self.stream.isatty())
        self.done = 0
        self._drawn_at = 0.0

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        if self.enabled:
            self._draw()
            self.stream.write("\n")
            self.stream.flush()

    def update(self, done, total=None):
        self.done = done
        if total is not None:
            self.total = total
        now = time.monotonic()
        if self.enabled and now - self._drawn_at >= _INTERVAL:
            self._drawn_at = now
            self._draw()

    def _draw(self):
        fraction = min(self.done / self.total, 1.0) if self.total else 1.0
        filled = int(round(fraction * _WIDTH))
        unit = " " + self.unit if self.unit else ""
        line = "%s [%s%s] %3d%%  %d/%d%s" % (
            self.label, "#" * filled, " " * (_WIDTH - filled), fraction * 100, self.done, self.total, unit
        )
        self.stream.write("\r" + line)
        self.stream.flush()
