# portable
"""The ruleset framework: schema validation, canonical JSON and the content hash."""
from portable import raises, table_ruleset

from tiletable.engine.errors import RulesetError
from tiletable.engine.ruleset_checks import content_hash, validate_params
from tiletable.engine.rulesets import canonical_json, load_ruleset, preset_names

SCHEMA = {
    "target": ("int", 100, 1, 10000),
    "draw_policy": ("choice", "none", ("none", "when_unable", "anytime")),
    "must_play": ("bool", True),
    "set_tile": ("tile", None),
    "matadors": ("tiles", ["0-0", "1-6"]),
    "deal": ("counts", {"2": 7, "3": 5}, 1, 20),
}


def test_defaults_fill_missing_parameters():
    params = validate_params("t", SCHEMA, {"target": 61})
    assert params["target"] == 61 and params["draw_policy"] == "none" and params["deal"] == {"2": 7, "3": 5}


def test_bad_parameters_name_field_and_reason():
    cases = [
        ({"target": 0}, "params.target", "at least 1"),
        ({"target": "x"}, "params.target", "whole number"),
        ({"target": True}, "params.target", "whole number"),
        ({"draw_policy": "sometimes"}, "params.draw_policy", "must be one of"),
        ({"must_play": 1}, "params.must_play", "true or false"),
        ({"set_tile": "6/6"}, "params.set_tile", "tile"),
        ({"matadors": "0-0"}, "params.matadors", "list of tiles"),
        ({"deal": {"two": 7}}, "params.deal", "player counts"),
        ({"deal": {"2": 99}}, "params.deal.2", "at most 20"),
        ({"bogus": 1}, "params.bogus", "unknown parameter"),
    ]
    for params, field, words in cases:
        err = raises(RulesetError, validate_params, "t", SCHEMA, params)
        assert err.field == field, (params, err.field)
        assert words in err.reason, (params, err.reason)


def test_malformed_documents_are_rejected_with_the_field():
    cases = [
        ("{not json", "document"),
        ("[1, 2]", "document"),
        ({"family": "line"}, "name"),
        ({"family": "chess", "name": "x"}, "family"),
        ({"family": "line", "name": "Bad Name"}, "name"),
        ({"family": "line", "name": "x", "version": 0}, "version"),
        ({"family": "line", "name": "x", "colour": "red"}, "colour"),
        ({"family": "line", "name": "x", "params": []}, "params"),
        (b"\xff\xfe", "document"),
    ]
    for doc, field in cases:
        err = raises(RulesetError, load_ruleset, doc)
        assert err.field == field, (doc, err.field, str(err))


def test_canonical_json_is_sorted_and_compact():
    assert canonical_json({"b": [1, True, None], "a": "x\"y"}) == '{"a":"x\\"y","b":[1,true,null]}'
    raises(TypeError, canonical_json, 2.5)


def test_canonical_json_escapes_text_wherever_it_is_and_only_there():
    """Text is written unchecked and the result scanned once: a quote, a backslash or a control
    character anywhere (a key, a nested list) must still come out escaped, the rest unchanged."""
    for text, escaped in (('q"', 'q\\"'), ("b\\", "b\\\\"), ("c\n", "c\\u000a"), ("\x01", "\\u0001"), ("é€", "é€")):
        shown = '"%s"' % escaped
        assert canonical_json(text) == shown
        assert canonical_json([1, [text]]) == "[1,[%s]]" % shown
        assert canonical_json({text: 0}) == "{%s:0}" % shown
        assert canonical_json({"a": {"b": [True, text]}}) == '{"a":{"b":[true,%s]}}' % shown
        assert canonical_json({"z": text, "a": 1}) == '{"a":1,"z":%s}' % shown
    assert canonical_json({}) == "{}" and canonical_json([]) == "[]" and canonical_json(("a", 2)) == '["a",2]'
    assert canonical_json({2: "b", 1: "a"}) == '{"1":"a","2":"b"}'  # keys as JSON writes them
    long_text = "x" * 1500 + "\t"  # a control character past the first chunks the check takes
    assert canonical_json([long_text]) == '["%s\\u0009"]' % ("x" * 1500)


def test_content_hash_depends_on_every_field():
    base = content_hash("line", "muggins", 1, {"target": 200})
    assert len(base) == 16
    assert base == content_hash("line", "muggins", 1, {"target": 200})
    assert base != content_hash("line", "muggins", 2, {"target": 200})
    assert base != content_hash("line", "muggins", 1, {"target": 100})
    assert base != content_hash("line", "sniff", 1, {"target": 200})


def test_the_content_hash_fed_a_member_at_a_time_is_the_same():
    """Where the heap has no piece for the whole text, content_hash feeds SHA-256 a member at a
    time (``_hash_json``): the digest must be the same, escapes, nesting and empty objects
    included, and for every preset."""
    import binascii
    import hashlib

    from tiletable.engine.ruleset_checks import _hash_json

    def by_members(family, name, version, params):
        hasher = hashlib.sha256()
        _hash_json(hasher, {"family": family, "name": name, "params": params, "version": version}, 2)
        return binascii.hexlify(hasher.digest()[:8]).decode()

    tricky = {'k"': ["a\n", {"\t": 1}], "deal": {"2": 7, "3": 6}, "z": {"y": {"x": [True, None]}}, "e": {}}
    docs = [
        ("line", "muggins", 1, {"target": 200}),
        ("line", 'q"x\\', 2, {}),
        ("toy", "\u00e9t\u00e9", 3, tricky),
        ("toy", "n", 1, {2: "b", 1: "a"}),
    ]
    for name in preset_names():
        ruleset = table_ruleset(name)
        docs.append((ruleset.family, ruleset.name, ruleset.version, ruleset.params))
    for doc in docs:
        assert by_members(*doc) == content_hash(*doc), doc[:2]


def _deep(depth):
    value = 1
    for _ in range(depth):
        value = [value]
    return value


def test_hostile_shapes_are_a_ruleset_error_naming_the_field():
    """Issue 18: a family given as a list raised TypeError, deep nesting a recursion error
    (from showing the value), a version of 65536 was accepted. Every shape is now a short
    RulesetError that names the field."""
    from tiletable.engine import line_params  # noqa: F401

    # line_params stays loaded: each case would import and unload it around long strings (and
    # the next test's deep values), and on a 192 KB heap the holes that left could fail an import
    base = {"family": "line", "name": "x"}
    cases = [
        ("[" * 3000 + "]" * 3000, "document"),
        ('{"family":"line","name":"x","params":{"target":' + "[" * 3000 + "]" * 3000 + "}}", "document"),
        ({"family": ["line"], "name": "x"}, "family"),
        ({"family": {"a": 1}, "name": "x"}, "family"),
        ({"family": "line", "name": "x" * 3000}, "name"),
        ({"family": "line", "name": "\u00e9t\u00e9"}, "name"),
        ({"family": "line", "name": "x\x00"}, "name"),
        ({"family": "line", "name": "x", "version": 65536}, "version"),
        ({"family": "line", "name": "x", "version": 10**40}, "version"),
        ({"family": "line", "name": "x", "version": 2.0}, "version"),
        ({"family": "line", "name": "x", "aliases": ["a"] * 9}, "aliases"),
        ({"family": "line", "name": "x", "description": "a\x00b"}, "description"),
        ({"family": "line", "name": "x", "description": "\n"}, "description"),
        ({"family": "line", "name": "x", "description": "x" * 1001}, "description"),
        ({"family": "line", "name": "x", "params": {"target": -(10**40)}}, "params.target"),
        ({"family": "line", "name": "x", "params": {"draw_policy": ["none"]}}, "params.draw_policy"),
        ({"family": "line", "name": "x", "params": {"deal": {"\u0663": 5}}}, "params.deal"),
        ({"family": "line", "name": "x", "params": {"deal": {"04": 5}}}, "params.deal"),
        ({"family": "line", "name": "x", "params": {"x" * 3000: 1}}, "params." + repr("x" * 24) + "..."),
        ({"family": "line", "name": "x", "k\x00": 1}, "'k\\x00'"),
    ]
    _each_a_ruleset_error_naming(cases)
    del cases  # long strings, whose room the last load needs
    assert load_ruleset(dict(base, description="caf\u00e9 \U0001f3b2 rules")).description.endswith("rules")


def test_deeply_nested_values_are_a_ruleset_error_naming_the_field():
    """A value nested deeper than CPython shows with repr, in each field: a short RulesetError
    (the cases of the test above, apart: on the 64-bit unix port the value alone is 57 KB)."""
    from tiletable.engine import line_params  # noqa: F401  (kept loaded, as above)

    deep = _deep(1200)
    _each_a_ruleset_error_naming([
        ({"family": deep, "name": "x"}, "family"),
        ({"family": "line", "name": deep}, "name"),
        ({"family": "line", "name": "x", "version": deep}, "version"),
        ({"family": "line", "name": "x", "aliases": [deep]}, "aliases"),
        ({"family": "line", "name": "x", "description": deep}, "description"),
        ({"family": "line", "name": "x", "params": deep}, "params"),
        ({"family": "line", "name": "x", "params": {"target": deep}}, "params.target"),
        ({"family": "line", "name": "x", "params": {"matadors": [deep]}}, "params.matadors"),
        ({"family": "line", "name": "x", "params": {"fixed_tile": {"a": deep}}}, "params.fixed_tile"),
    ])


def _each_a_ruleset_error_naming(cases):
    for doc, field in cases:
        err = raises(RulesetError, load_ruleset, doc)
        assert err.field == field, (field, err.field, str(err)[:200])
        assert len(str(err)) < 300, str(err)[:300]


def test_a_description_is_refused_for_each_refused_character_and_only_those():
    """The bytes of the description are scanned at C level first (ruleset_checks._plain_description);
    a character of a refused range, escaped in the JSON text, is still found and named, and the
    characters beside each range pass."""
    for escape, refused in (
        ("\\u0000", True), ("\\u001f", True), ("\\u0020", False), ("\\u007e", False), ("\\u007f", True),
        ("\\u0080", False), ("\\ud7ff", False), ("\\ud800", True), ("\\udfff", True), ("\\ue000", False),
        ("\\u00e9", False),
    ):
        text = '{"family": "line", "name": "x", "description": "rules %s here"}' % escape
        if refused:
            err = raises(RulesetError, load_ruleset, text)
            assert err.field == "description" and ("U+" + escape[2:].upper()) in str(err), (escape, str(err))
        else:
            assert load_ruleset(text).description.startswith("rules "), escape
