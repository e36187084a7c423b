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

_DOC_KEYS = ("family", "name", "version", "params", "aliases", "description")

# The limits of a document's own fields, in one place: the PC's JSON schema
# (host/tiletable_host/ruleset.schema.json) must say the same, which a test checks. The version
# is a u16 on the link (ruleset list rows, commit replies), so a larger one could be installed
# and then never listed.
NAME_LENGTH = (1, 24)
VERSION_RANGE = (1, 65535)
ALIASES_MAX = 8
DESCRIPTION_MAX = 1000
# What a description may not hold: control characters (NUL included) and lone UTF-16
# surrogates, which have no UTF-8 form and would break the canonical document's bytes.
DESCRIPTION_REFUSED = ((0x00, 0x1F), (0x7F, 0x7F), (0xD800, 0xDFFF))
# Lists and objects inside each other: a document needs 3 (the document, params, a deal); text
# nested deeper is refused before parsing, as MicroPython's parser runs out of heap on it and
# CPython's out of recursion.
MAX_DEPTH = 8
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

    def __init__(self, family, name, version, params, aliases=(), description="", known_hash=None):
        self.family = family
        self.name = name
        self.version = version
        self.params = params
        self.aliases = tuple(aliases)
        self.description = description
        self.hash = known_hash or content_hash(family, name, version, params)

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
    """Validate a ruleset document (a dict, or JSON text/bytes) and return a Ruleset.
    ``known_hash``: its content hash, when an earlier validation of these very bytes gave it
    (the ruleset store's index), instead of computing it again. It imports the family's schema
    module, which stays imported (the runtime's table and rule store unload it where its bytecode
    is heap: ``tiletable/heap.py``).

    :raises RulesetError: naming the bad field and the reason, e.g. an unknown family,
        an unknown parameter, a value out of range, or a deal larger than the tile set.
    """
    if isinstance(doc, (bytes, bytearray)):
        try:
            doc = doc.decode()
        except UnicodeError:
            raise RulesetError("?", "document", "not UTF-8 text")
    if isinstance(doc, str):
        import json

        if _too_deep(doc):
            raise RulesetError("?", "document", "nested deeper than %d levels" % MAX_DEPTH)
        try:
            doc = json.loads(doc)
        except ValueError as exc:
            raise RulesetError("?", "document", "not valid JSON (%s)" % exc)
        except RuntimeError:  # CPython's RecursionError, MicroPython's recursion limit
            raise RulesetError("?", "document", "nested too deeply")
    if not isinstance(doc, dict):
        raise RulesetError("?", "document", "must be a JSON object (got %s)" % show_value(doc))
    name = doc.get("name")
    label = name if isinstance(name, str) and _is_identifier(name) else "?"
    for key in doc:
        if key not in _DOC_KEYS:
            raise RulesetError(label, _field_name(key), "unknown field (allowed: %s)" % ", ".join(_DOC_KEYS))
    if label == "?":
        raise RulesetError(
            label, "name", "must be %d-%d characters of a-z, 0-9, '-' or '_' (got %s)" % (NAME_LENGTH + (show_value(name),))
        )
    family = doc.get("family")
    if not isinstance(family, str) or family not in families.FAMILIES:
        raise RulesetError(name, "family", "unknown family %s (known: %s)" % (show_value(family), ", ".join(sorted(families.FAMILIES))))
    version = doc.get("version", 1)
    if not _is_int(version) or not VERSION_RANGE[0] <= version <= VERSION_RANGE[1]:
        raise RulesetError(name, "version", "must be a whole number in %d..%d (got %s)" % (VERSION_RANGE + (show_value(version),)))
    aliases = doc.get("aliases", [])
    if not isinstance(aliases, list) or len(aliases) > ALIASES_MAX:
        raise RulesetError(name, "aliases", "must be a list of at most %d names (got %s)" % (ALIASES_MAX, show_value(aliases)))
    for alias in aliases:
        if not isinstance(alias, str) or not _is_identifier(alias):
            raise RulesetError(name, "aliases", "%s is not a name of a-z, 0-9, '-' or '_'" % show_value(alias))
    description = doc.get("description", "")
    if not isinstance(description, str) or len(description) > DESCRIPTION_MAX:
        raise RulesetError(name, "description", "must be text of at most %d characters (got %s)" % (DESCRIPTION_MAX, show_value(description)))
    if not _plain_description(description):
        for ch in description:
            if _refused_in_description(ord(ch)):
                raise RulesetError(name, "description", "holds character U+%04X (no control characters)" % ord(ch))
    params = doc.get("params", {})
    if not isinstance(params, dict):
        raise RulesetError(name, "params", "must be a JSON object (got %s)" % show_value(params))
    schema = schema_module(family)
    resolved = validate_params(name, schema.PARAMS, params)
    schema.check_params(name, resolved)
    return Ruleset(family, name, version, resolved, aliases, description, known_hash)


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
    for field in _DOC_KEYS:
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


def validate_params(name, schema, params):
    """Resolve a params object against a family schema; defaults fill what is missing."""
    for key in params:
        if key not in schema:
            raise RulesetError(name, "params." + _field_name(key), "unknown parameter")
    resolved = {}
    for key, spec in schema.items():
        value = params[key] if key in params else spec[1]
        kind = spec[0]
        # most of a document passes this one test (a call and a test per kind took longer than
        # the rest of a validation); whatever does not is told by _check_value, which refuses it
        if (
            (kind == "choice" and isinstance(value, str) and value in spec[2])
            or (kind == "int" and type(value) is int and spec[2] <= value <= spec[3])
            or (kind == "bool" and (value is True or value is False))
        ):
            resolved[key] = value
        else:
            resolved[key] = _check_value(name, "params." + key, spec, value)
    return resolved


def _check_value(name, field, spec, value):
    kind = spec[0]
    if kind == "int":
        if not _is_int(value):
            raise RulesetError(name, field, "must be a whole number (got %s)" % show_value(value))
        if value < spec[2]:
            raise RulesetError(name, field, "must be at least %d (got %s)" % (spec[2], show_value(value)))
        if value > spec[3]:
            raise RulesetError(name, field, "must be at most %d (got %s)" % (spec[3], show_value(value)))
        return value
    if kind == "choice":
        if not isinstance(value, str) or value not in spec[2]:
            raise RulesetError(name, field, "must be one of %s (got %s)" % (", ".join(spec[2]), show_value(value)))
        return value
    if kind == "bool":
        if value is not True and value is not False:
            raise RulesetError(name, field, "must be true or false (got %s)" % show_value(value))
        return value
    if kind == "tile":
        if value is None and spec[1] is None:
            return None
        return _check_tile(name, field, value)
    if kind == "tiles":
        if not isinstance(value, list):
            raise RulesetError(name, field, "must be a list of tiles like \"3-4\" (got %s)" % show_value(value))
        return [_check_tile(name, field, v) for v in value]
    if kind == "counts":
        if not isinstance(value, dict):
            raise RulesetError(name, field, "must map player counts to numbers (got %s)" % show_value(value))
        out = {}
        for players in value:
            if not _is_player_count(players):
                raise RulesetError(name, field, "keys must be player counts like \"4\" (got %s)" % show_value(players))
            out[players] = _check_value(name, field + "." + players, ("int", 0, spec[2], spec[3]), value[players])
        return out
    raise RulesetError(name, field, "bad schema kind %r" % kind)


def _check_tile(name, field, value):
    from tiletable.engine.tiles import parse_tile, tile_str

    if isinstance(value, str):
        try:
            return tile_str(parse_tile(value))
        except ValueError:
            pass
    raise RulesetError(name, field, "must be a tile like \"6-6\" (got %s)" % show_value(value))


def _is_int(value):
    return isinstance(value, int) and not isinstance(value, bool)


def _too_deep(text):
    """Whether JSON ``text`` nests lists and objects deeper than ``MAX_DEPTH`` (brackets inside
    strings do not count)."""
    if text.count("[") + text.count("{") <= MAX_DEPTH:  # every sound document: no walk
        return False
    depth = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch == "[" or ch == "{":
            depth += 1
            if depth > MAX_DEPTH:
                return True
        elif ch == "]" or ch == "}":
            depth -= 1
    return False


def _is_player_count(text):
    """Whether ``text`` is a player count as a counts key: "1" to "99", no leading zero."""
    return isinstance(text, str) and 1 <= len(text) <= 2 and "1" <= text[0] <= "9" and "0" <= text[-1] <= "9"


def _plain_description(text):
    """Whether ``text`` surely holds nothing ``DESCRIPTION_REFUSED`` names, told by C-level scans
    of its UTF-8 bytes (a call per character was 40 % of a preset's validation): a byte under
    0x20 or 0x7F is such a character itself, and 0xED leads every character of U+D000-U+DFFF,
    the surrogates among them. False: look at it a character at a time."""
    try:
        raw = text.encode()
    except UnicodeError:  # CPython: a lone surrogate has no UTF-8
        return False
    return not raw or (min(raw) >= 0x20 and b"\x7f" not in raw and b"\xed" not in raw)


def _refused_in_description(code):
    for lo, hi in DESCRIPTION_REFUSED:
        if lo <= code <= hi:
            return True
    return False


_SHOWN_TEXT = 24  # characters of a bad text value an error message repeats
_SHOWN_NUMBER = 10**9


def show_value(value):
    """A bad value as an error message shows it: short and never deep, whatever a hostile
    document holds (text of any length, numbers of any size, lists nested a thousand deep,
    which ``repr`` would recurse into until the interpreter's limit)."""
    if value is None or value is True or value is False:
        return canonical_json(value)
    if isinstance(value, int):
        return str(value) if -_SHOWN_NUMBER < value < _SHOWN_NUMBER else "a number of 10 or more digits"
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, str):
        return repr(value) if len(value) <= _SHOWN_TEXT else repr(value[:_SHOWN_TEXT]) + "..."
    if isinstance(value, list):
        return "a list of length %d" % len(value)
    if isinstance(value, dict):
        return "an object of %d fields" % len(value)
    return "a %s" % type(value).__name__


def _field_name(key):
    """A document key as an error message's field: itself when it reads as a name."""
    return key if isinstance(key, str) and _is_identifier(key) else show_value(key)


_NAME_CHARACTERS = "abcdefghijklmnopqrstuvwxyz0123456789-_"


def _is_identifier(text):
    # strip() takes away every name character, in C: nothing is left of a name
    return NAME_LENGTH[0] <= len(text) <= NAME_LENGTH[1] and not text.strip(_NAME_CHARACTERS)


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


def content_hash(family, name, version, params):
    """16 hex digits of SHA-256 over the canonical document. Its whole text is one quick pass,
    but for a line preset 1.3 KB in one piece, and up to 2.6 KB while its StringIO grows: where
    a heap cut up by a match in progress has no such piece (the 64-bit unix port, 18 KB free),
    the document is fed to SHA-256 a member at a time instead (``_hash_json``: slower, each
    member's text a pass of its own)."""
    import hashlib
    import binascii

    doc = {"family": family, "name": name, "params": params, "version": version}
    try:
        digest = hashlib.sha256(canonical_json(doc).encode()).digest()
    except MemoryError:
        hasher = hashlib.sha256()
        _hash_json(hasher, doc, 2)
        digest = hasher.digest()
    return binascii.hexlify(digest[:8]).decode()


def _hash_json(hasher, value, depth):
    """Feed ``canonical_json(value)`` to ``hasher``: an object ``depth`` levels deep a member at
    a time, anything deeper whole."""
    if depth == 0 or not isinstance(value, dict):
        hasher.update(canonical_json(value).encode())
        return
    sep = b"{"
    for key in sorted(value):
        hasher.update(sep)
        hasher.update(canonical_json(key if type(key) is str else str(key)).encode())
        hasher.update(b":")
        _hash_json(hasher, value[key], depth - 1)
        sep = b","
    hasher.update(b"{}" if sep == b"{" else b"}")
