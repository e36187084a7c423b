"""The tiletable PC tool. It runs the firmware's own engine (firmware/tiletable) unchanged.

The engine is not copied into this package: the checkout's firmware/ directory is put on
sys.path, so the PC and the Pico execute the very same files.
"""
import os
import sys

FIRMWARE_DIR = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "firmware"))

if FIRMWARE_DIR not in sys.path:
    sys.path.insert(0, FIRMWARE_DIR)
