"""unload_module forgets a module whose bytecode is in the heap and keeps a frozen one, whose
bytecode is in the firmware's flash (importing it again would cost a start 100 ms on a Pico)."""
import sys

from tiletable.engine.rulesets import unload_module


class _Module:
    def __init__(self, path):
        self.__file__ = path


def test_a_module_loaded_from_a_file_is_forgotten():
    sys.modules["tiletable_probe_loaded"] = _Module(__file__)
    unload_module("tiletable_probe_loaded")
    assert "tiletable_probe_loaded" not in sys.modules


def test_a_frozen_module_whose_source_is_on_no_file_system_is_kept():
    frozen = _Module("tiletable/engine/no_such_module_anywhere.py")
    sys.modules["tiletable_probe_frozen"] = frozen
    try:
        unload_module("tiletable_probe_frozen")
        assert sys.modules["tiletable_probe_frozen"] is frozen
    finally:
        del sys.modules["tiletable_probe_frozen"]
