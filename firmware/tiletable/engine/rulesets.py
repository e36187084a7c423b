"""Rulesets: small JSON documents that say which game family and with which parameters.

A ruleset document::

    {"family": "line", "name": "muggins", "version": 1,
     "params": {"target": 100}, "description": "..."}

Only the family and name are required; every parameter has a default declared by its
family (``PARAMS`` in its schema module), so a document lists just what differs. The
*content hash* is computed over the family, name, version and the fully resolved
parameters in a canonical JSON form, so two documents that mean the same game have the
same hash on the Pico and on the PC.

The families, their presets and their modules are in the registry (``tiletable/families.py``).
A family's schema module provides ``PARAMS`` (the schema), ``PRESETS`` (name -> document, with
the menu's "label", "order" and "trays" besides: ``preset_document``) and
``check_params(name, params)`` (rules that span several fields); its engine module ``State``
and ``player_counts(params)`` (the counts a ruleset allows, fewest first). Family modules are imported only when a game needs
them, so the device carries only what it plays.

Parameter specs are tuples:

* ``("int", default, lo, hi)``      an integer in [lo, hi]
* ``("choice", default, options)``  one of the strings in options
* ``("bool", default)``
* ``("tile", default)``             a tile as "a-b" (or None where the default is None)
* ``("tiles", default)``            a list of tiles as "a-b"
* ``("counts", default, lo, hi)``   {"2": 7, "3": 5, ...}: an int per player count
"""

import io
import sys

from tiletable import families
from tiletable.engine.errors import RulesetError

DOC_KEYS = ("family", "name", "version", "params", "aliases", "description")

MAX_DOCUMENT = 4096  # bytes of a whole document a table takes; the largest preset's is under 1.5 KB


def _players_refused(counts, players):
    """Why ``players`` cannot play: the counts the rules allow (``2, 3 or 4``)."""
    if not counts:
        return "the rules allow no player count"
    allowed = ", ".join(str(n) for n in counts[:-1])
    allowed = "%s or %d" % (allowed, counts[-1]) if allowed else str(counts[-1])
    return "the rules are for %s players, not %s" % (allowed, players)


def family_module(name):
    """The engine module of a game family. :raises KeyError: for an unknown family."""
    module = families.module(name, "")
    # sys.modules first: CPython's __import__ with a from-list runs Python code at every new state
    return sys.modules.get(module) or __import__(module, None, None, ["State"])


def schema_module(family):
    """The module holding a family's ``PARAMS``, ``PRESETS`` and ``check_params``: imported
    alone, so that validating a ruleset does not import its play code (a stock build unloads
    it after: ``tiletable/heap.py``). :raises KeyError: for an unknown family."""
    return __import__(families.module(family, "_params"), None, None, ["PARAMS"])


class Ruleset:
    """A validated ruleset: family, name, version, resolved params and content hash."""

    def __init__(self, family, name, version, params, aliases, description, content_hash):
        self.family = family
        self.name = name
        self.version = version
        self.params = params
        self.aliases = tuple(aliases)
        self.description = description
        self.hash = content_hash

    def __repr__(self):
        return "<Ruleset %s v%d %s>" % (self.name, self.version, self.hash)

    @property
    def module(self):
        return family_module(self.family)

    def player_counts(self):
        """The player counts this ruleset allows, fewest first."""
        return self.module.player_counts(self.params)

    def new_state(self, players=None):
        """A fresh match. ``players`` defaults to the fewest the ruleset allows.

        :raises RulesetError: when the player count is not allowed by the ruleset.
        """
        module = self.module
        counts = module.player_counts(self.params)
        if players is None and counts:
            players = counts[0]
        if players not in counts:
            raise RulesetError(self.name, "players", _players_refused(counts, players))
        return module.State(self, players)

    def to_doc(self):
        """The ruleset as a full document (every parameter spelled out)."""
        doc = {"family": self.family, "name": self.name, "version": self.version, "params": dict(self.params)}
        if self.aliases:
            doc["aliases"] = list(self.aliases)
        if self.description:
            doc["description"] = self.description
        return doc

    def to_json(self):
        return canonical_json(self.to_doc())


def load_ruleset(doc, known_hash=None):
    """Validate a ruleset document (a dict, or JSON text/bytes) and return a Ruleset
    (``ruleset_checks``). ``known_hash``: its content hash, when an earlier validation of these
    very bytes gave it (the ruleset store's index), instead of computing it again. It imports
    the family's schema module, which stays imported (the runtime's table and rule store unload
    it where its bytecode is heap: ``tiletable/heap.py``).

    :raises RulesetError: naming the bad field and the reason, e.g. an unknown family,
        an unknown parameter, a value out of range, or a deal larger than the tile set.
    """
    from tiletable.engine.ruleset_checks import checked_document, content_hash

    family, name, version, params, aliases, description = checked_document(doc)
    return Ruleset(family, name, version, params, aliases, description, known_hash or content_hash(family, name, version, params))


def find_ruleset(name, **overrides):
    """A preset by name or alias, with parameters overridden, e.g. ``find_ruleset("muggins", target=61)``.

    :raises ValueError: ``unknown ruleset: 'x'``; :raises RulesetError: for a bad override.
    """
    preset = families.game(name.lower()) or _aliased(name.lower())
    if preset is None:
        raise ValueError("unknown ruleset: %r" % name)
    doc = preset_document(preset[0], preset[1])
    if overrides:
        params = dict(doc.get("params", {}))
        params.update(overrides)
        doc["params"] = params
    return load_ruleset(doc)


def preset_document(name, family):
    """The ruleset document of preset ``name`` of ``family``: its entry in the family's
    ``PRESETS`` with the family and name, without what only the table's menu reads ("label",
    "order", "trays": tiletable/families.py)."""
    doc = schema_module(family).PRESETS[name]
    full = {"family": family, "name": name}
    for field in DOC_KEYS:
        if field in doc:
            full[field] = doc[field]
    return full


def _aliased(alias):
    """The preset whose document lists ``alias`` among its "aliases", or None: each family's
    schema module is looked at in turn (a table is rarely asked by alias)."""
    for family in families.FAMILIES:
        presets = schema_module(family).PRESETS
        for name in presets:
            if alias in presets[name].get("aliases", ()):
                return families.game(name)
    return None


def preset_names():
    return sorted(preset[0] for preset in families.games())


def canonical_json(value):
    """JSON with sorted keys and no spaces: the same bytes on CPython and MicroPython.

    Written out by hand because the two runtimes' ``json.dumps`` order keys and escape text
    differently. Text is written as it is, and whether it needed escapes is told once over the
    whole result by C-level scans (a quote is looked for in each string); text that does (rare:
    a quote in a description) is written again by ``_escaped_json``. A line preset's content
    hash took 26 ms of an RP2040's time with a check and a call per string, 13 ms so."""
    out = io.StringIO()
    try:
        _emit(value, out.write)
    except _NeedsEscapes:
        return _escaped_json(value)
    text = out.getvalue()
    if "\\" in text or _has_control(text):
        return _escaped_json(value)
    return text


_CHUNK = 512  # characters checked at a time by _has_control


def _has_control(text):
    """Whether ``text`` holds a control character, by C-level scans of its UTF-8 bytes a chunk
    at a time: min() over the characters makes a string of each (14 ms for a ruleset on the
    chip), and over the whole text's bytes a copy of a few KB (a game's state)."""
    for start in range(0, len(text), _CHUNK):
        if min(text[start : start + _CHUNK].encode()) < 0x20:
            return True
    return False


class _NeedsEscapes(Exception):
    pass


_WORDS = {True: "true", False: "false", None: "null"}


def _emit(value, write):
    # _emit and its two loops are split to keep each frame within MicroPython's 11 words:
    # a larger one is allocated on the heap at every call, and _emit runs once per value.
    kind = type(value)
    if kind is int:
        write(str(value))
    elif kind is str:
        if '"' in value:
            raise _NeedsEscapes()
        write('"')
        write(value)
        write('"')
    elif kind is dict:
        _emit_object(value, write)
    elif kind is list or kind is tuple:
        _emit_list(value, write)
    elif value is None or value is True or value is False:
        write(_WORDS[value])
    elif isinstance(value, int):  # subclasses of the JSON types: as their base
        write(str(int(value)))
    elif isinstance(value, str):
        _emit(str(value), write)
    elif isinstance(value, dict):
        _emit_object(value, write)
    elif isinstance(value, (list, tuple)):
        _emit_list(value, write)
    else:
        raise TypeError("not canonical JSON: %r (use whole numbers, text, lists, objects)" % (value,))


def _emit_list(value, write):
    sep = "["
    for item in value:
        write(sep)
        _emit(item, write)
        sep = ","
    write("[]" if sep == "[" else "]")


def _emit_object(value, write):
    sep = '{"'
    for key in sorted(value):
        # str() of a str is a new string, which a stock build looks up among ~1,500 interned
        # names (0.24 ms on the chip): keys from JSON are already text
        name = key if type(key) is str else str(key)
        if '"' in name:
            raise _NeedsEscapes()
        write(sep)
        write(name)
        write('":')
        _emit(value[key], write)
        sep = ',"'
    write("{}" if sep == '{"' else "}")


def _escaped_json(value):
    """``canonical_json`` of a value whose text needs escapes (its slow path)."""
    if isinstance(value, str):
        return '"' + (value if _is_plain(value) else _escaped(value)) + '"'
    if isinstance(value, dict):
        parts = []
        for key in sorted(value):
            parts.append(_escaped_json(str(key)) + ":" + _escaped_json(value[key]))
        return "{" + ",".join(parts) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ",".join([_escaped_json(item) for item in value]) + "]"
    out = io.StringIO()
    _emit(value, out.write)  # a whole number, true, false or null
    return out.getvalue()


def _is_plain(text):
    # min() over the UTF-8 bytes: over the text it would make a string of every character
    return not ('"' in text or "\\" in text) and (not text or min(text.encode()) >= 0x20)


def _escaped(text):
    out = ""
    for ch in text:
        if ch == '"':
            out += '\\"'
        elif ch == "\\":
            out += "\\\\"
        elif ord(ch) < 0x20:
            out += "\\u%04x" % ord(ch)
        else:
            out += ch
    return out
