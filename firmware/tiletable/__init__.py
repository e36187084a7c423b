"""tiletable firmware: rules engine (engine/), drivers (drivers/), table runtime (runtime/), link framing (proto/)."""


def frozen(module):
    """Whether ``module`` is frozen into the MicroPython firmware (its bytecode in flash): its
    ``__file__`` names a ``.py`` source that is on no file system. A module loaded from a file,
    a ``.mpy`` (wherever it was read from: a test may mount a flash image over ``/``) or a
    ``.py`` compiled at import, has its bytecode in the heap."""
    import os

    path = getattr(module, "__file__", None)
    if path is None or path.endswith(".mpy"):
        return False
    try:
        os.stat(path)
    except OSError:
        return True
    return False
