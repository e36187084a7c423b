"""The tiletable PC tool. It runs the firmware's own engine (the package ``tiletable``) unchanged.

The engine is not copied by hand: ``tiletable`` and the folders below are symlinks into the
checkout's firmware/ and sim/, which an editable install follows and a wheel carries as files.
"""
import os

__version__ = "0.1.0"

BUNDLED_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "bundled")
FIRMWARE_DIR = os.path.join(BUNDLED_DIR, "firmware")  # what `deploy` compiles and copies
SIM_DIR = os.path.join(BUNDLED_DIR, "sim")  # the simulated table `sim` and `run` start
