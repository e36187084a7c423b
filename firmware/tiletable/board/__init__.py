"""The reference board: pin assignment generated from hardware/pinmap.json (see pins.py)."""
