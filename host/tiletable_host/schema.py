"""Ruleset files checked with a real JSON Schema validator, every problem at once, before the engine.

The schema is ``ruleset.schema.json`` (the document's fields) with the families of the
registry (tiletable/families.py) and each family's ``params`` derived from the engine's own
``PARAMS`` declarations, so the two never disagree on families, names, types or ranges. The engine's ``load_ruleset`` stays the authority: it runs after the schema
and also checks the rules that span several parameters.

    ruleset = read_ruleset_file("house.json")   # or CommandError:
    # house.json: params.targt: unknown parameter (did you mean 'target'?); version: must be at least 1 (got 0)
"""
import difflib
import json
import os
import reprlib

import jsonschema

from tiletable.engine.errors import RulesetError
from tiletable.engine.rulesets import load_ruleset, schema_module
from tiletable.families import FAMILIES
from tiletable_host.errors import CommandError

RULESET_SCHEMA_PATH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "ruleset.schema.json")
_TILE = {"type": "string", "pattern": "^[0-9]+-[0-9]+$"}
_SHORT = reprlib.Repr()
_SHORT.maxlevel, _SHORT.maxstring, _SHORT.maxother = 3, 40, 40
_LISTED = 8  # unknown names get the allowed ones listed up to this many


def param_schema(spec):
    """The JSON Schema of one engine parameter spec, e.g. ``("int", 100, 1, 100000)``."""
    kind = spec[0]
    if kind == "int":
        return {"type": "integer", "minimum": spec[2], "maximum": spec[3]}
    if kind == "choice":
        return {"enum": list(spec[2])}
    if kind == "bool":
        return {"type": "boolean"}
    if kind == "tile":
        return {"anyOf": [_TILE, {"type": "null"}]} if spec[1] is None else _TILE
    if kind == "tiles":
        return {"type": "array", "items": _TILE}
    if kind == "counts":
        count = {"type": "integer", "minimum": spec[2], "maximum": spec[3]}
        return {"type": "object", "propertyNames": {"pattern": "^[0-9]+$"}, "additionalProperties": count}
    raise ValueError("parameter kind %r has no JSON Schema" % (kind,))


def ruleset_schema():
    """The whole schema: the document file, the registry's families, and per family its
    parameters from the engine."""
    with open(RULESET_SCHEMA_PATH) as f:
        schema = json.load(f)
    schema["properties"]["family"] = {"enum": list(FAMILIES)}
    branches = []
    for family in sorted(FAMILIES):
        params = schema_module(family).PARAMS
        branches.append(
            {
                "if": {"properties": {"family": {"const": family}}, "required": ["family"]},
                "then": {
                    "properties": {
                        "params": {
                            "properties": {name: param_schema(spec) for name, spec in params.items()},
                            "additionalProperties": False,
                        }
                    }
                },
            }
        )
    schema["allOf"] = branches
    jsonschema.Draft202012Validator.check_schema(schema)
    return schema


def problems(document, schema):
    """Every way ``document`` breaks ``schema``, as ``"field: reason"`` texts in document order."""
    validator = jsonschema.Draft202012Validator(schema)
    found = []
    for error in sorted(validator.iter_errors(document), key=lambda e: [str(p) for p in e.absolute_path]):
        found.extend(_explain(error))
    return found


def _explain(error):
    field = _field(error.absolute_path)
    if error.validator == "additionalProperties" and isinstance(error.instance, dict):
        known = list(error.schema.get("properties", {}))
        what = "parameter" if field == "params" else "field"
        texts = []
        for key in sorted(set(error.instance) - set(known)):
            close = difflib.get_close_matches(key, known, n=1)
            if close:
                hint = " (did you mean %r?)" % close[0]
            else:  # a family's parameters are too many to list: RULES.md names them
                hint = "" if len(known) > _LISTED else " (allowed: %s)" % ", ".join(known)
            texts.append("%s: unknown %s%s" % (_field(list(error.absolute_path) + [key]), what, hint))
        return texts
    value = _SHORT.repr(error.instance)
    if error.validator == "type":
        return ["%s: must be %s (got %s)" % (field, _kind(error.validator_value), value)]
    if error.validator == "enum":
        choices = ", ".join(map(str, error.validator_value))
        close = difflib.get_close_matches(str(error.instance), [str(c) for c in error.validator_value], n=1)
        hint = " (did you mean %r?)" % close[0] if close and isinstance(error.instance, str) else ""
        return ["%s: must be one of %s (got %s)%s" % (field, choices, value, hint)]
    if error.validator in ("minimum", "maximum"):
        return ["%s: must be at %s %s (got %s)" % (field, "least" if error.validator == "minimum" else "most", error.validator_value, value)]
    if error.validator == "required":
        return ["%s: is required" % _field(list(error.absolute_path) + [error.message.split("'")[1]])]
    if error.validator == "pattern" and error.schema is _TILE:
        return ["%s: must be a tile like \"6-6\" (got %s)" % (field, value)]
    if error.validator == "pattern":
        return ["%s: must be 1-24 characters of a-z, 0-9, '-' or '_' (got %s)" % (field, value)]
    if error.validator == "anyOf":
        return ["%s: must be a tile like \"6-6\" or null (got %s)" % (field, value)]
    return ["%s: %s" % (field, error.message)]


def _field(path):
    text = ""
    for part in path:
        text += "[%d]" % part if isinstance(part, int) else ("." if text else "") + str(part)
    return text or "document"


def _kind(expected):
    names = {"object": "an object", "array": "a list", "string": "text", "integer": "a whole number", "boolean": "true or false"}
    return names.get(expected, expected)


def read_ruleset_file(path, schema=None):
    """The engine's Ruleset for the JSON file at ``path`` (see ``ruleset_from_bytes``).

    :raises CommandError: ``<path>: cannot read (...)``, or as ``ruleset_from_bytes``.
    """
    try:
        with open(path, "rb") as f:
            raw = f.read()
    except OSError as exc:
        raise CommandError("%s: cannot read (%s)" % (path, exc.strerror or exc))
    return ruleset_from_bytes(path, raw, schema)


def ruleset_from_bytes(path, raw, schema=None):
    """The engine's Ruleset for ``raw``, the bytes of ruleset file ``path``, checked by the
    schema, then the engine.

    :raises CommandError: one line, ``<path>: <field>: <reason>``, with every problem the
        schema finds (``; ``-separated), or the engine's first.
    """
    try:
        document = json.loads(raw.decode("utf-8"))
    except UnicodeError:
        raise CommandError("%s: not UTF-8 text" % path)
    except json.JSONDecodeError as exc:
        raise CommandError("%s: not valid JSON: %s (line %d, column %d)" % (path, exc.msg, exc.lineno, exc.colno))
    except ValueError as exc:  # a number of more digits than Python converts
        raise CommandError("%s: not valid JSON: %s" % (path, exc))
    except RecursionError:
        raise CommandError("%s: not a ruleset: its JSON is nested too deeply" % path)
    found = problems(document, schema or ruleset_schema())
    if found:
        raise CommandError("%s: %s" % (path, "; ".join(found)))
    try:
        return load_ruleset(document)
    except RulesetError as exc:
        raise CommandError("%s: %s: %s" % (path, exc.field, exc.reason))
