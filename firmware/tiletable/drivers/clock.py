"""Wrap-safe millisecond arithmetic for drivers that are handed ``now_ms = time.ticks_ms()``.

``ticks_ms`` wraps (every 2**30 ms, about 12 days, on the rp2 port), so deadlines are
compared with ``ticks_diff`` and computed with ``ticks_add``, never with ``-``/``+``.
On MicroPython these are the C functions of ``time`` (no allocation, even where the
Python arithmetic would overflow a small int). CPython, which runs the simulation,
lacks them, so the rp2 port's arithmetic is spelt out for it.
"""
try:
    from time import ticks_add, ticks_diff
except ImportError:
    _PERIOD = 1 << 30

    def ticks_diff(end, start):
        """Signed ms from ``start`` to ``end``, correct across one wrap (as on the rp2 port)."""
        return ((end - start + _PERIOD // 2) & (_PERIOD - 1)) - _PERIOD // 2

    def ticks_add(ticks, delta):
        """``ticks`` moved by ``delta`` ms, wrapped into the tick period."""
        return (ticks + delta) & (_PERIOD - 1)
