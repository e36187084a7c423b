"""tiletable firmware: rules engine (engine/), drivers (drivers/), table runtime (runtime/), link framing (proto/)."""


def frozen(module):
    """Whether ``module`` is frozen into the MicroPython firmware (its bytecode in flash): its
    ``__file__`` names a source that is on no file system. A module loaded from a file, ``.py``
    or ``.mpy``, on a Pico, the unix port or CPython, has its bytecode in the heap."""
    import os

    path = getattr(module, "__file__", None)
    if path is None:
        return False
    try:
        os.stat(path)
    except OSError:
        return True
    return False
