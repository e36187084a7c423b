"""A minimal game family for ruleset-store tests, so they do not depend on a real family's
parameters (which the engine team may change). Registered as ``toy`` around a test by ``with_toy_family``."""

PARAMS = {"target": ("int", 100, 1, 1000), "draw": ("bool", False)}
PRESETS = {}


def check_params(name, params):
    """No rule spans several fields in this family."""


def with_toy_family(test):
    """The test run with ``toy`` a family of the registry, this module its schema
    (``engine/toy_params``), and neither after it: a later test in the same process that walks
    the registry (the browser view imports every family's engine) must not meet it."""
    import sys

    from tiletable.families import FAMILIES

    def run():
        sys.modules["tiletable.engine.toy_params"] = sys.modules[__name__]
        FAMILIES["toy"] = None  # no table controller, no presets
        try:
            test()
        finally:
            del FAMILIES["toy"]
            del sys.modules["tiletable.engine.toy_params"]

    return run


def document(name="toy", version=1, target=100):
    """A toy ruleset document as canonical JSON bytes, and its content hash."""
    from tiletable.engine.ruleset_checks import content_hash
    from tiletable.engine.rulesets import canonical_json

    doc = {"family": "toy", "name": name, "version": version, "params": {"target": target}}
    params = {"target": target, "draw": False}
    return canonical_json(doc).encode(), content_hash("toy", name, version, params)
