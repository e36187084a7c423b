"""Undo snapshots of a game state: ``GameState.push`` takes one, ``undo`` restores it.

A snapshot holds every attribute of the state but the logs that only grow (the history and
the score events, kept as their lengths) and what the ruleset fixes (``GameState.shared``):
lists, dicts, bytearrays and the state's own objects (a line's layout, Buki's betting) are
copied, numbers, text and tuples shared. Imported at a state's first push (the table's path),
so neither the boot nor a simulation holds this module.
"""

_LOGS = ("history", "score_events", "_undo")


def take(state):
    """``(history length, score events, attribute names, copied values)`` of ``state`` now."""
    attrs = state.__dict__
    shared = [attrs[name] for name in state.shared if name in attrs]
    names = tuple(key for key in attrs if key not in _LOGS and key not in state.shared)
    return len(state.history), len(state.score_events), names, [_copied(attrs[key], shared) for key in names]


def restore(state, saved):
    """Put ``state`` back as ``take`` found it (the snapshot is used up); returns the action taken back."""
    length, events, names, values = saved
    last = state.history[-1]
    del state.history[length:]
    del state.score_events[events:]
    for i in range(len(names)):
        setattr(state, names[i], values[i])
    return last


def _copied(value, shared):
    """A copy deep enough that play cannot change it; the objects in ``shared`` (the ruleset,
    its parameters and rules, which play never changes) and immutable values are the same."""
    kind = type(value)
    if kind is list:
        return [_copied(item, shared) for item in value]
    if kind is bytearray:
        return bytearray(value)
    if value is None or kind in (int, str, bool, tuple):
        return value
    for keep in shared:
        if value is keep:
            return value
    if kind is dict:
        return {key: _copied(value[key], shared) for key in value}
    attrs = getattr(value, "__dict__", None)
    if attrs is None:
        return value  # functions and the like
    copy = object.__new__(kind)
    for key in attrs:
        setattr(copy, key, _copied(attrs[key], shared))
    return copy
