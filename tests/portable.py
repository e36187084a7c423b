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
