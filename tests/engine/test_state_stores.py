"""A game state's attribute stores stay cheap on MicroPython.

MicroPython looks every attribute stored on an instance up in its class's bases first when the
class or a base has a property (objtype.c's special accessors): an RP2040 took 110 us a store
on a line game's state that way, 6 us without, and a move stores dozens (engine/state.py)."""
from tiletable.engine.rulesets import family_module
from tiletable.families import games


def test_no_state_class_has_a_property():
    found = []
    for family in sorted(set(game[1] for game in games())):  # not a test's toy
        for cls in family_module(family).State.__mro__:
            found.extend("%s: %s.%s" % (family, cls.__name__, name) for name, value in vars(cls).items() if isinstance(value, property))
    assert found == []
