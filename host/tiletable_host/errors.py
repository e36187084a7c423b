"""The host tool's exceptions that main() prints as one line: ``tiletable: <command>: <reason>``.

They live here, apart from the modules that raise them, so that main() can catch them without
importing the serial link or the simulated table for a command that uses neither.
"""


class CommandError(Exception):
    """A failure the user can act on, printed as one line with exit status 1."""


class TransportError(Exception):
    """The link failed: no device, no reply, a port that went away for good."""


class ControlError(RuntimeError):
    """The simulated device refused a control command (its ``err`` reply)."""
