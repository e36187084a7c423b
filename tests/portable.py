"""Helpers for test modules that run under both CPython (pytest) and real MicroPython.

A *portable* test module starts with the line ``# portable`` and uses only plain
functions named ``test_*``, ``assert`` and these helpers: no pytest import, no
fixtures, nothing MicroPython lacks. ``tests/mpy_run.py`` runs it on MicroPython;
pytest collects it as usual.
"""


def raises(exc_type, fn, *args, **kwargs):
    """Call fn and return the exception it raised; fail unless it is an exc_type.

    Example: ``err = raises(IllegalAction, state.play, action)``
    """
    try:
        fn(*args, **kwargs)
    except exc_type as exc:
        return exc
    raise AssertionError("%s did not raise %s" % (getattr(fn, "__name__", fn), exc_type.__name__))


def table_ruleset(name, **overrides):
    """Preset ``name`` found as the table's game starter finds it (runtime/starter.py): through
    the heap policy of the build the test runs on. Where MicroPython runs .mpy files (a stock
    Pico, the unix port) it unloads the families' schema modules the search imported: the line
    family's alone is 26 KB of a 192 KB heap on the 64-bit unix port."""
    from tiletable.engine.rulesets import find_ruleset
    from tiletable.heap import build_policy

    return build_policy().releasing(lambda: find_ruleset(name, **overrides))
