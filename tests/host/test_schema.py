"""The ruleset JSON Schema (jsonschema) against the engine's validator, which stays the authority."""
import json

import pytest

from tiletable.engine.errors import RulesetError
from tiletable.engine.rulesets import find_ruleset, load_ruleset, preset_names, schema_module
from tiletable.families import games
from tiletable_host.errors import CommandError
from tiletable_host.schema import problems, read_ruleset_file, ruleset_schema

SCHEMA = ruleset_schema()


def _engine_accepts(document):
    try:
        load_ruleset(document)
        return True
    except RulesetError:
        return False


def _wrong_values(spec):
    """Values the engine must refuse for a parameter of this spec, each alone in a document."""
    kind = spec[0]
    wrong = ["seven", [1], {"a": 1}, 1.5]
    if kind == "int":
        wrong += [spec[2] - 1, spec[3] + 1, True]
    elif kind == "choice":
        wrong += ["no-such-choice", 3]
    elif kind == "bool":
        wrong += [0, 1, "true"]
    elif kind in ("tile", "tiles"):
        wrong += [["6-6", 3]] if kind == "tiles" else [66]
    elif kind == "counts":
        wrong += [{"2": spec[2] - 1}, {"2": spec[3] + 1}, {"two": 5}, {"2": "5"}]
    return wrong


@pytest.mark.parametrize("name", preset_names())
def test_every_preset_passes_the_schema_and_the_engine(name):
    document = json.loads(find_ruleset(name).to_json())
    assert problems(document, SCHEMA) == [] and _engine_accepts(document)


# the engine's own families: a test module that runs before this one may have registered a toy
# family of its own (tests/runtime/toy_family.py), which the schema made at import does not know
ENGINE_FAMILIES = sorted(set(game[1] for game in games()))


@pytest.mark.parametrize("family", ENGINE_FAMILIES)
def test_the_schema_refuses_what_the_engine_refuses_parameter_by_parameter(family):
    checked = 0
    for param, spec in schema_module(family).PARAMS.items():
        for value in _wrong_values(spec):
            document = {"family": family, "name": "probe", "params": {param: value}}
            assert not _engine_accepts(document), (param, value)
            assert problems(document, SCHEMA), (param, value)
            checked += 1
        good = {"family": family, "name": "probe", "params": {param: spec[1]}}
        assert problems(good, SCHEMA) == [], (param, spec)
    assert checked > len(schema_module(family).PARAMS)


def test_every_problem_is_reported_with_its_field_and_a_did_you_mean(tmp_path):
    path = tmp_path / "house.json"
    path.write_text(json.dumps({"family": "line", "name": "house", "version": 0, "params": {"targt": 150, "setter": "rotat"}, "descripton": ""}))
    with pytest.raises(CommandError) as error:
        read_ruleset_file(str(path))
    assert str(error.value) == (
        "%s: descripton: unknown field (did you mean 'description'?); "
        "params.targt: unknown parameter (did you mean 'target'?); "
        "params.setter: must be one of rotate, lightest_draw, highest_double, lowest_double, fixed_tile, "
        "double_draw_equalized, highest_draw, side_lot (got 'rotat') (did you mean 'rotate'?); version: must be at least 1 (got 0)" % path
    )


@pytest.mark.parametrize(
    "text, reason",
    [
        ('{"family": "line", "name": "x", "params": ' + "[" * 100000 + "]" * 100000 + "}", "its JSON is nested too deeply"),
        ('{"family": ["line"], "name": "x"}', "family: must be one of line, trick, column, climb, fortytwo, train (got ['line'])"),
        ('{"family": "line", "name": "x", "params": {"target": [[[[[[1]]]]]]}}', "params.target: must be a whole number (got [[[[...]]]])"),
    ],
)
def test_nested_and_ill_typed_documents_get_one_line(tmp_path, text, reason):
    path = tmp_path / "odd.json"
    path.write_text(text)
    with pytest.raises(CommandError) as error:
        read_ruleset_file(str(path))
    assert str(error.value).endswith(reason) and "\n" not in str(error.value)


def test_the_engine_still_checks_what_spans_several_parameters(tmp_path):
    """A rule across fields (a deal larger than the set) is the engine's to report."""
    path = tmp_path / "big.json"
    path.write_text(json.dumps({"family": "line", "name": "big", "params": {"deal": {"4": 20}}}))
    assert problems(json.loads(path.read_text()), SCHEMA) == []
    with pytest.raises(CommandError, match="big.json: params"):
        read_ruleset_file(str(path))
