"""A small JSON Schema checker for the keywords tiletable's schemas use (standard library only).

Supported: ``type``, ``enum``, ``required``, ``properties``, ``additionalProperties`` (true or
false), ``items``, ``maxItems``, ``pattern``, ``minimum``, ``maximum``, ``minLength``, ``maxLength``. Any
other keyword in a schema is refused when the schema is loaded, so a schema can never
silently ask for a check that does not happen.
"""
import json
import os
import re

import tiletable_host  # noqa: F401  (puts firmware/ on sys.path)
from tiletable.engine.rulesets import show_value

SUPPORTED = frozenset(
    (
        "$schema", "$id", "title", "description", "type", "enum", "required", "properties",
        "additionalProperties", "items", "maxItems", "pattern", "minimum", "maximum", "minLength", "maxLength",
    )
)
RULESET_SCHEMA_PATH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "ruleset.schema.json")

_TYPES = {
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "string": lambda v: isinstance(v, str),
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
    "boolean": lambda v: isinstance(v, bool),
    "null": lambda v: v is None,
}


def load_schema(path):
    """Read a schema file. :raises ValueError: for a keyword this checker does not implement."""
    with open(path) as f:
        schema = json.load(f)
    _check_keywords(schema, "")
    return schema


def _check_keywords(schema, where):
    for key in schema:
        if key not in SUPPORTED:
            raise ValueError("schema keyword %r at %r is not supported" % (key, where or "/"))
    for name, sub in schema.get("properties", {}).items():
        _check_keywords(sub, where + "/" + name)
    if isinstance(schema.get("items"), dict):
        _check_keywords(schema["items"], where + "/items")


def validate(value, schema, path=""):
    """The problems of ``value`` against ``schema`` as ``(field path, reason)`` pairs, e.g.
    ``("version", "must be integer (got '2')")``; an empty list when it conforms."""
    problems = []
    field = path or "document"
    expected = schema.get("type")
    if expected is not None and not _TYPES[expected](value):
        return [(field, "must be %s (got %s)" % (expected, show_value(value)))]
    if "enum" in schema and value not in schema["enum"]:
        problems.append((field, "must be one of %s (got %s)" % (", ".join(map(str, schema["enum"])), show_value(value))))
    if isinstance(value, str):
        if "pattern" in schema and not re.search(schema["pattern"], value):
            problems.append((field, "must match %s (got %s)" % (schema["pattern"], show_value(value))))
        if len(value) < schema.get("minLength", 0):
            problems.append((field, "must be at least %d characters" % schema["minLength"]))
        if "maxLength" in schema and len(value) > schema["maxLength"]:
            problems.append((field, "must be at most %d characters" % schema["maxLength"]))
    if _TYPES["number"](value):
        if "minimum" in schema and value < schema["minimum"]:
            problems.append((field, "must be at least %s (got %s)" % (schema["minimum"], show_value(value))))
        if "maximum" in schema and value > schema["maximum"]:
            problems.append((field, "must be at most %s (got %s)" % (schema["maximum"], show_value(value))))
    if isinstance(value, dict):
        for key in schema.get("required", ()):
            if key not in value:
                problems.append((_join(path, key), "is required"))
        properties = schema.get("properties", {})
        for key, item in value.items():
            if key in properties:
                problems.extend(validate(item, properties[key], _join(path, key)))
            elif schema.get("additionalProperties", True) is False:
                problems.append((_join(path, key), "unknown field (allowed: %s)" % ", ".join(properties)))
    if isinstance(value, list) and len(value) > schema.get("maxItems", len(value)):
        problems.append((field, "must have at most %d items (got %d)" % (schema["maxItems"], len(value))))
    if isinstance(value, list) and isinstance(schema.get("items"), dict):
        for index, item in enumerate(value):
            problems.extend(validate(item, schema["items"], "%s[%d]" % (field, index)))
    return problems


def _join(path, key):
    return key if not path else path + "." + key
