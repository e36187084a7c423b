"""The benches run only where there is a firmware or a spare hour (bench/chip.py, ...), so CI
never runs them: every name they import from the PC tool and the firmware must still exist.
(A renamed ``run.RULESET`` stopped bench/chip.py before its first figure.)"""
import ast
import importlib
import os

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BENCH = os.path.join(ROOT, "bench")


def _imports(path):
    with open(path) as f:
        tree = ast.parse(f.read())
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            if node.module.split(".")[0] in ("tiletable", "tiletable_host"):
                for alias in node.names:
                    yield node.module, alias.name


BENCHES = sorted(name for name in os.listdir(BENCH) if name.endswith(".py"))


@pytest.mark.parametrize("bench", BENCHES)
def test_what_a_bench_imports_from_the_project_exists(bench):
    missing = []
    for module, name in _imports(os.path.join(BENCH, bench)):
        imported = importlib.import_module(module)
        if not hasattr(imported, name):
            try:
                importlib.import_module(module + "." + name)
            except ImportError:
                missing.append("%s.%s" % (module, name))
    assert missing == [], missing
