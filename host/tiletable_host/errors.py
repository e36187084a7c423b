"""The host tool's one exception type; main() prints it as ``tiletable: <command>: <reason>``."""


class CommandError(Exception):
    """A failure the user can act on, printed as one line with exit status 1."""
