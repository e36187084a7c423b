"""Rulesets: small JSON documents that say which game family and with which parameters.

A ruleset document::

    {"family": "line", "name": "muggins", "version": 1,
     "params": {"target": 100}, "description": "..."}

Only the family and name are required; every parameter has a default declared by its
family (``PARAMS`` in the family module), so a document lists just what differs. The
*content hash* is computed over the family, name, version and the fully resolved
parameters in a canonical JSON form, so two documents that mean the same game have the
same hash on the Pico and on the PC.

A family module provides ``PARAMS`` (the schema), ``PRESETS`` (name -> document),
``check_params(name, params)`` (rules that span several fields) and ``State``. Family
modules are imported only when a ruleset needs them, so the device carries only what
its installed rulesets use.

Parameter specs are tuples:

* ``("int", default, lo, hi)``      an integer in [lo, hi]
* ``("choice", default, options)``  one of the strings in options
* ``("bool", default)``
* ``("tile", default)``             a tile as "a-b" (or None where the default is None)
* ``("tiles", default)``            a list of tiles as "a-b"
* ``("counts", default, lo, hi)``   {"2": 7, "3": 5, ...}: an int per player count
"""

from tiletable.engine.errors import RulesetError

# family name -> module; imported lazily.
FAMILIES = {
    "line": "tiletable.engine.line",
    "trick": "tiletable.engine.trick",
    "column": "tiletable.engine.column",
    "climb": "tiletable.engine.climb",
}

# preset name -> family, so finding a preset imports only its family.
PRESET_FAMILY = {
    "block": "line",
    "draw": "line",
    "sebastopol": "line",
    "bergen": "line",
    "muggins": "line",
    "sniff": "line",
    "matador": "line",
    "buki": "line",
    "moon": "trick",
    "columns": "column",
    "dasan": "climb",
}

# alias -> preset, so an alias finds its preset without importing every family (a test
# checks this table against the presets' own "aliases").
PRESET_ALIAS = {
    "block-game": "block",
    "draw-game": "draw",
    "all-fives": "muggins",
    "fives": "muggins",
    "buki-domino": "buki",
    "bukidomino": "buki",
    "moon-dominoes": "moon",
    "three-columns": "columns",
    "column-battle": "columns",
    "da-san": "dasan",
    "big-three": "dasan",
    "dig-a-hole": "dasan",
}

_DOC_KEYS = ("family", "name", "version", "params", "aliases", "description")


def family_module(name):
    """The module of a game family. :raises KeyError: for an unknown family."""
    modname = FAMILIES[name]
    return __import__(modname, None, None, ["State"])


# Families whose PARAMS, PRESETS and check_params live in a module of their own: validating
# a ruleset imports only that module (not the play code).
SCHEMA_MODULES = {"line": "tiletable.engine.line_params"}


def schema_module(family):
    """The module holding a family's ``PARAMS``, ``PRESETS`` and ``check_params``: the one in
    ``SCHEMA_MODULES``, else the family module itself. Validation unloads what it imported
    (``release_modules``). :raises KeyError: for an unknown family."""
    name = SCHEMA_MODULES.get(family)
    return __import__(name, None, None, ["PARAMS"]) if name else family_module(family)


def loaded_modules():
    """The names of the modules imported so far (for ``release_modules``)."""
    import sys

    return set(sys.modules)


def release_modules(loaded):
    """Unload every module imported since ``loaded`` (``loaded_modules()``): a sync or a
    ruleset list validates every family's rulesets, and on a Pico running copied .mpy files
    the modules that took would otherwise hold their bytecode in its heap until reset."""
    import sys

    for name in [m for m in sys.modules if m not in loaded]:
        unload_module(name)


def unload_module(name):
    """Forget module ``name`` (and its name in its package), so the garbage collector can
    take its bytecode back once nothing else refers to it."""
    import sys

    sys.modules.pop(name, None)
    package, _, attr = name.rpartition(".")
    parent = sys.modules.get(package)
    if parent is not None and attr in dir(parent):
        try:
            delattr(parent, attr)
        except (AttributeError, TypeError):
            pass


class Ruleset:
    """A validated ruleset: family, name, version, resolved params and content hash."""

    def __init__(self, family, name, version, params, aliases=(), description=""):
        self.family = family
        self.name = name
        self.version = version
        self.params = params
        self.aliases = tuple(aliases)
        self.description = description
        self.hash = content_hash(family, name, version, params)

    def __repr__(self):
        return "<Ruleset %s v%d %s>" % (self.name, self.version, self.hash)

    @property
    def module(self):
        return family_module(self.family)

    def new_state(self, players=None, options=None):
        """A fresh match. ``players`` defaults to the family's default for this ruleset.

        :raises RulesetError: when the player count is not allowed by the ruleset.
        """
        module = self.module
        if players is None:
            players = module.default_players(self.params)
        problem = module.check_players(self.params, players)
        if problem:
            raise RulesetError(self.name, "players", problem)
        return module.State(self, players, options)

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


def load_ruleset(doc):
    """Validate a ruleset document (a dict, or JSON text/bytes) and return a Ruleset.

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

        try:
            doc = json.loads(doc)
        except ValueError as exc:
            raise RulesetError("?", "document", "not valid JSON (%s)" % exc)
    if not isinstance(doc, dict):
        raise RulesetError("?", "document", "must be a JSON object")
    name = doc.get("name")
    label = name if isinstance(name, str) else "?"
    for key in doc:
        if key not in _DOC_KEYS:
            raise RulesetError(label, key, "unknown field (allowed: %s)" % ", ".join(_DOC_KEYS))
    if not isinstance(name, str) or not _is_identifier(name):
        raise RulesetError(label, "name", "must be 1-24 characters of a-z, 0-9, '-' or '_' (got %r)" % (name,))
    family = doc.get("family")
    if family not in FAMILIES:
        raise RulesetError(name, "family", "unknown family %r (known: %s)" % (family, ", ".join(sorted(FAMILIES))))
    version = doc.get("version", 1)
    if not _is_int(version) or version < 1:
        raise RulesetError(name, "version", "must be a whole number >= 1 (got %r)" % (version,))
    aliases = doc.get("aliases", [])
    if not isinstance(aliases, list) or not all(isinstance(a, str) and _is_identifier(a) for a in aliases):
        raise RulesetError(name, "aliases", "must be a list of names")
    description = doc.get("description", "")
    if not isinstance(description, str):
        raise RulesetError(name, "description", "must be text")
    params = doc.get("params", {})
    if not isinstance(params, dict):
        raise RulesetError(name, "params", "must be a JSON object")
    loaded = loaded_modules()
    try:
        schema = schema_module(family)
        resolved = validate_params(name, schema.PARAMS, params)
        schema.check_params(name, resolved)
    finally:
        release_modules(loaded)
    return Ruleset(family, name, version, resolved, aliases, description)


def find_ruleset(name, **overrides):
    """A preset by name or alias, with parameters overridden, e.g. ``find_ruleset("muggins", target=61)``.

    :raises ValueError: ``unknown ruleset: 'x'``; :raises RulesetError: for a bad override.
    """
    key = name.lower()
    key = PRESET_ALIAS.get(key, key)
    family = PRESET_FAMILY.get(key)
    if family is None:
        raise ValueError("unknown ruleset: %r" % name)
    loaded = loaded_modules()
    try:
        doc = schema_module(family).PRESETS[key]
        full = {"family": family, "name": key}
        for field in doc:
            full[field] = doc[field]
        if overrides:
            params = dict(doc.get("params", {}))
            params.update(overrides)
            full["params"] = params
        return load_ruleset(full)
    finally:
        release_modules(loaded)


def preset_names():
    return sorted(PRESET_FAMILY)


def validate_params(name, schema, params):
    """Resolve a params object against a family schema; defaults fill what is missing."""
    for key in params:
        if key not in schema:
            raise RulesetError(name, "params." + key, "unknown parameter")
    resolved = {}
    for key, spec in schema.items():
        value = params[key] if key in params else spec[1]
        resolved[key] = _check_value(name, "params." + key, spec, value)
    return resolved


def _check_value(name, field, spec, value):
    kind = spec[0]
    if kind == "int":
        if not _is_int(value):
            raise RulesetError(name, field, "must be a whole number (got %r)" % (value,))
        if value < spec[2]:
            raise RulesetError(name, field, "must be at least %d (got %d)" % (spec[2], value))
        if value > spec[3]:
            raise RulesetError(name, field, "must be at most %d (got %d)" % (spec[3], value))
        return value
    if kind == "choice":
        if value not in spec[2]:
            raise RulesetError(name, field, "must be one of %s (got %r)" % (", ".join(spec[2]), value))
        return value
    if kind == "bool":
        if value is not True and value is not False:
            raise RulesetError(name, field, "must be true or false (got %r)" % (value,))
        return value
    if kind == "tile":
        if value is None and spec[1] is None:
            return None
        return _check_tile(name, field, value)
    if kind == "tiles":
        if not isinstance(value, list):
            raise RulesetError(name, field, "must be a list of tiles like \"3-4\" (got %r)" % (value,))
        return [_check_tile(name, field, v) for v in value]
    if kind == "counts":
        if not isinstance(value, dict):
            raise RulesetError(name, field, "must map player counts to numbers (got %r)" % (value,))
        out = {}
        for players in value:
            if not (isinstance(players, str) and players.isdigit()):
                raise RulesetError(name, field, "keys must be player counts like \"4\" (got %r)" % (players,))
            out[players] = _check_value(name, field + "." + players, ("int", 0, spec[2], spec[3]), value[players])
        return out
    raise RulesetError(name, field, "bad schema kind %r" % kind)


def _check_tile(name, field, value):
    from tiletable.engine.tiles import parse_tile, tile_str

    if not isinstance(value, str):
        raise RulesetError(name, field, "must be a tile like \"6-6\" (got %r)" % (value,))
    try:
        return tile_str(parse_tile(value))
    except ValueError:
        raise RulesetError(name, field, "must be a tile like \"6-6\" (got %r)" % (value,))


def _is_int(value):
    return isinstance(value, int) and not isinstance(value, bool)


def _is_identifier(text):
    if not 1 <= len(text) <= 24:
        return False
    for ch in text:
        if not ("a" <= ch <= "z" or "0" <= ch <= "9" or ch in "-_"):
            return False
    return True


def canonical_json(value):
    """JSON with sorted keys and no spaces: the same bytes on CPython and MicroPython.

    Written out by hand because the two runtimes' ``json.dumps`` order keys and escape text
    differently. The pieces go into one list joined at the end, and text is checked with
    C-level ``in`` and ``min`` rather than a loop per character: a commit's content hash took
    56 ms of an RP2040's time with a string built at every level."""
    out = []
    _emit(value, out)
    return "".join(out)


def _emit(value, out):
    if value is None:
        out.append("null")
    elif value is True:
        out.append("true")
    elif value is False:
        out.append("false")
    elif isinstance(value, int):
        out.append(str(value))
    elif isinstance(value, str):
        out.append('"')
        out.append(value if _is_plain(value) else _escaped(value))
        out.append('"')
    elif isinstance(value, (list, tuple)):
        out.append("[")
        for i, item in enumerate(value):
            if i:
                out.append(",")
            _emit(item, out)
        out.append("]")
    elif isinstance(value, dict):
        out.append("{")
        for i, key in enumerate(sorted(value)):
            if i:
                out.append(",")
            _emit(str(key), out)
            out.append(":")
            _emit(value[key], out)
        out.append("}")
    else:
        raise TypeError("not canonical JSON: %r (use whole numbers, text, lists, objects)" % (value,))


def _is_plain(text):
    return not ('"' in text or "\\" in text) and (not text or min(text) >= " ")


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
    """16 hex digits of SHA-256 over the canonical document."""
    import hashlib
    import binascii

    text = canonical_json({"family": family, "name": name, "version": version, "params": params})
    return binascii.hexlify(hashlib.sha256(text.encode()).digest()[:8]).decode()
