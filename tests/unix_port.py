"""MicroPython's unix port beside the venv's Python, for checks of the firmware's viper code:
only a MicroPython with a native emitter compiles it, and the unix port compiles it for the
PC's own CPU from the firmware's sources."""
import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MICROPYTHON = os.path.join(os.path.dirname(sys.executable), "micropython")

needs_unix_port = pytest.mark.skipif(not os.path.exists(MICROPYTHON), reason="no MicroPython unix port in the venv")


def run_on_unix_port(code, heap="192K"):
    """Run ``code`` from the repository's root in a Pico-sized heap (or ``heap``); what it
    printed, once it ended without an error."""
    run = subprocess.run([MICROPYTHON, "-X", "heapsize=" + heap, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr
    return run.stdout.strip()
