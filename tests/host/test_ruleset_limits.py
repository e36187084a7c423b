"""The PC's ruleset JSON schema and the firmware's validator share their limits: the schema
must say what engine/ruleset_checks.py's limits table says (issue 18: the schema capped the version
at 65535, the firmware did not, and a table then could not list its rulesets)."""
import json
import re

from tiletable.engine import ruleset_checks, rulesets
from tiletable.families import FAMILIES
from tiletable_host.schema import RULESET_SCHEMA_PATH, ruleset_schema


def _schema():
    with open(RULESET_SCHEMA_PATH) as f:
        return json.load(f)


def test_the_schema_says_the_firmware_limits():
    schema = _schema()
    fields = schema["properties"]
    assert tuple(fields) == rulesets.DOC_KEYS
    assert ruleset_schema()["properties"]["family"]["enum"] == list(FAMILIES)  # the registry's
    name_pattern = "^[a-z0-9_-]{%d,%d}$" % ruleset_checks.NAME_LENGTH
    assert fields["name"]["pattern"] == name_pattern
    assert fields["aliases"]["items"]["pattern"] == name_pattern
    assert (fields["version"]["minimum"], fields["version"]["maximum"]) == ruleset_checks.VERSION_RANGE
    assert fields["aliases"]["maxItems"] == ruleset_checks.ALIASES_MAX
    assert fields["description"]["maxLength"] == ruleset_checks.DESCRIPTION_MAX
    refused = "".join("\\u%04x-\\u%04x" % (lo, hi) if lo != hi else "\\u%04x" % lo for lo, hi in ruleset_checks.DESCRIPTION_REFUSED)
    assert fields["description"]["pattern"] == "^[^%s]*$" % refused


def test_the_description_pattern_refuses_what_the_firmware_refuses():
    pattern = _schema()["properties"]["description"]["pattern"]
    for code in list(range(0x00, 0x80)) + [0xA0, 0xE9, 0xD7FF, 0xD800, 0xDBFF, 0xDC00, 0xDFFF, 0xE000, 0x1F3B2]:
        schema_ok = re.search(pattern, "a%cb" % code) is not None
        assert schema_ok == (not ruleset_checks._refused_in_description(code)), hex(code)
