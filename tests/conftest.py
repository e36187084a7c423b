"""Put the firmware, the simulated peripherals and the CPython shims on sys.path.

The host imports the firmware's engine as is; the simulated hardware (sim/) stands in
for the Pico's buses; sim/cpython/ supplies the few MicroPython-only modules
(``micropython.const``) that drivers use, for CPython only.
"""
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
for sub in ("sim/cpython", "sim", "firmware", "tests"):
    path = os.path.join(ROOT, sub)
    if path not in sys.path:
        sys.path.insert(0, path)
