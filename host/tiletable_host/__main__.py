"""The ``tiletable`` command (also ``python -m tiletable_host``).

The tool takes a moment to load; Ctrl-C during it ends the command with the same one line as
Ctrl-C later, instead of a traceback from the middle of an import.
"""
import os
import signal
import sys


def _interrupted_while_loading(signum, frame):
    os.write(2, b"tiletable: interrupted\n")
    os._exit(130)


def main():
    signal.signal(signal.SIGINT, _interrupted_while_loading)
    from tiletable_host.main import main as run_tool

    return run_tool()  # which hands Ctrl-C back to Python inside its try, to say it in one line


if __name__ == "__main__":
    sys.exit(main())
