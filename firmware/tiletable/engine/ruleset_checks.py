"""The checks of a ruleset document (``rulesets.load_ruleset``) and its content hash: a module of
their own, imported only while a document is loaded. A stock build unloads it again after a
game's start (``tiletable/heap.py``: the preset is found with ``releasing``): its bytecode is
heap the game has for play (on the emulated RP2040 Buki's start after a restart left 24,576
bytes free while this was part of rulesets.py, its 24 KB with nothing to spare, and 29,360
since)."""

from tiletable import families
from tiletable.engine.errors import RulesetError
from tiletable.engine.rulesets import DOC_KEYS, canonical_json, schema_module

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


def checked_document(doc):
    """The fields of ruleset document ``doc`` (a dict, or JSON text/bytes), each checked, with
    the parameters resolved: ``(family, name, version, params, aliases, description)``.

    :raises RulesetError: naming the bad field and the reason.
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
        if key not in DOC_KEYS:
            raise RulesetError(label, _field_name(key), "unknown field (allowed: %s)" % ", ".join(DOC_KEYS))
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
    return family, name, version, resolved, aliases, description


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
