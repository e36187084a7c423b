"""CPython stand-in for MicroPython's built-in ``micropython`` module (only what the firmware uses)."""


def const(value):
    """MicroPython folds const() at compile time; on CPython it is the value itself."""
    return value


def kbd_intr(char):
    """On the device this stops Ctrl-C (0x03) on stdin from raising KeyboardInterrupt; no-op here."""


def schedule(fn, arg):
    fn(arg)
