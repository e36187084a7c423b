"""A progress bar on stderr for long transfers and simulations, drawn by rich.

Drawn only on a terminal and only when there is something to do (no bar for 0 of 0), so logs,
pipes and tests stay clean. While it is shown, what the command prints on stdout goes above
it (rich's live display), so a line never lands in the middle of the bar.
"""
import sys

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, TaskProgressColumn, TextColumn, TimeRemainingColumn
from rich.progress import Progress as RichProgress


class Progress:
    """``with Progress("pull", total, "records") as bar: bar.update(done)``.

    Example of a drawn line: ``pull ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━  50% 1200/2400 records 0:00:03``
    """

    def __init__(self, label, total, unit="", stream=None):
        stream = stream or sys.stderr
        self._bar = None
        if total > 0 and hasattr(stream, "isatty") and stream.isatty():
            self._bar = RichProgress(
                TextColumn(label),
                BarColumn(),
                TaskProgressColumn(),
                MofNCompleteColumn(),
                TextColumn(unit),
                TimeRemainingColumn(),
                console=Console(file=stream, force_terminal=True),
            )
            self._task = self._bar.add_task(label, total=total)

    def __enter__(self):
        if self._bar is not None:
            self._bar.start()
        return self

    def __exit__(self, *exc):
        if self._bar is not None:
            self._bar.stop()

    def update(self, done, total=None):
        if self._bar is not None:
            self._bar.update(self._task, completed=done, total=total)
