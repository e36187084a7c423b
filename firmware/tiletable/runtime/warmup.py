"""Readying the menu's game while the table idles, so that its start is quick.

The link's first start of a game held the loop for 130 ms on a frozen build and took 133-147 ms
to answer: validating the installed ruleset (25 ms), importing its family's engine (15 ms) and
table controller (24 ms) are work a start of that game always does first. ``Warmer`` does it
before it is asked, in steps of at most about 25 ms of an RP2040's time, while the menu shows
and the link is quiet: the ruleset store keeps the validated ruleset (by its bytes' digest), the
modules stay imported (noted as the family's, so a start of another family unloads them).
Then it imports the journal stream's code, which the first pull after a boot imported in its
first reply (8.4 ms of a frozen build's 28 ms).

Only where the heap policy makes a ``Warmer`` (heap_frozen.FrozenHeap: a build with the code
frozen in, and CPython): there an import costs little heap, and nothing is unloaded, where on a
stock build the modules' bytecode is heap the game needs.
"""
from tiletable.drivers.clock import ticks_diff
from tiletable.engine.rulesets import family_module
from tiletable.heap import note_heap_ran_out
from tiletable.runtime.starter import controller_for

QUIET_MS = 1000  # the link's quiet time after a request before the game is readied (again)


def warm_steps(starter, name):
    """Ready game ``name`` with ``starter`` (runtime/starter.py), then the journal stream; a
    generator: yields None between its steps. A failure only leaves the start as slow as it was."""
    try:
        ruleset = starter.find_ruleset(name)
        yield None
        family_module(ruleset.family)
        yield None
        controller_for(ruleset.family)
    except MemoryError:  # an import that failed for room: see heap.forget_failed_imports
        note_heap_ran_out()
    except (KeyError, ValueError, ImportError):
        pass
    yield None
    import tiletable.proto.stream  # noqa: F401
    import tiletable.runtime.journal_read  # noqa: F401


class Warmer:
    """Runs ``warm_steps`` for an ``App``: once per game the menu shows and per burst of link
    requests (a sync may have changed the ruleset), a step per ``step()`` call."""

    def __init__(self, app):
        self.app = app
        self._steps = None  # warm_steps in progress
        self._game = None  # the menu's game it last ran for,
        self._read = None  # and the app's last link read it ran after

    def step(self, now_ms):
        app = self.app
        table = app.table
        if table.session is not None or app.selftest is not None or app.server.stepping is not None:
            self._steps = None
            return
        if self._steps is None:
            read = app.link_read_ms
            if read is not None and ticks_diff(now_ms, read) < QUIET_MS:
                return
            if table.menu.name == self._game and read == self._read:
                return
            self._game = table.menu.name
            self._read = read
            self._steps = warm_steps(table.starter, table.menu.name)
        self._advance()

    def _advance(self):
        # apart from step(): a try block adds 3 words to a frame, and a frame over 11 words is
        # allocated on the heap at every call (step() runs every 100 ms)
        try:
            next(self._steps)
        except StopIteration:
            self._steps = None
