"""Drivers: one chip or device per module; each receives its bus and pins and never imports ``machine``."""
