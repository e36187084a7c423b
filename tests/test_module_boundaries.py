"""No firmware module reaches into another's private names (a leading underscore), and the
table's controllers ask a game state rather than read its attributes.

A module may use the private attributes it defines itself (on ``self``, or a helper class's
on the object it serves), never those of an object another module defines: what a module
offers others is its public API (the journal's read API for ``runtime/journal_read.py`` and
``proto/stream.py``, the engine's query methods for the controllers). The check reads the
sources' syntax trees: an attribute ``x._name`` (``x`` not ``self``/``cls``) or an import of
``_name`` whose name the module never assigns or defines. CPython only (``ast``).
"""
import ast
import os

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIRMWARE = os.path.join(ROOT, "firmware")

# What a controller may read of a game state besides calling its methods: the attributes every
# family's state has (engine/state.py) and the records a family keeps for people to read.
STATE_ATTRIBUTES = {
    "players", "ruleset", "history", "scores", "score_events", "hand_number",  # GameState's
    "violations",  # the line games': rules broken, found at a reveal
    "reneges",  # Moon's
    "last_battle",  # the column game's
}
CONTROLLERS = ("firmware/tiletable/runtime/controller.py",) + tuple(
    "firmware/tiletable/runtime/play_%s.py" % family for family in ("line", "trick", "column", "climb")
)

# What may still reach in, and why: MicroPython's asyncio keeps its I/O queue private, and
# keeping its wait off the heap means replacing that queue's poller (heap.keep_io_wait_off_heap).
# A listed module with nothing found fails the test.
NOT_YET = {
    "firmware/tiletable/heap.py": "asyncio's I/O queue (MicroPython's own, not ours)",
}


def _firmware_modules():
    out = []
    for folder, dirs, files in os.walk(FIRMWARE):
        dirs[:] = [d for d in dirs if d != "__pycache__"]
        out.extend(os.path.relpath(os.path.join(folder, f), ROOT).replace(os.sep, "/") for f in files if f.endswith(".py"))
    return sorted(out)


def _is_private(name):
    return name.startswith("_") and not name.startswith("__")


def _own_names(tree):
    """Every name the module defines: functions, classes, assigned names and attributes of
    ``self``/``cls`` it stores."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
            if isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"):
                names.add(node.attr)
    return names


# A family's engine is one game state split over files: engine/line.py, its line_*.py parts
# (the checks, the deal, the award, the scoring rules), Buki's betting and the unseen hands'
# knowledge share the state's private names as the one module they were.
FAMILY_PARTS = {"line": ("betting", "knowledge")}
# Likewise the USB link's intake in machine code (viper) is the link's own reading, cut apart
# only because a frozen build alone can compile it.
SPLIT_MODULES = {"firmware/tiletable/runtime/usb_native.py": ("firmware/tiletable/runtime/usblink.py",)}


def family_parts(path):
    """The engine modules that are one family's state with ``path`` (``path`` alone if none)."""
    if path in SPLIT_MODULES:
        return [path] + list(SPLIT_MODULES[path])
    folder, name = os.path.split(path)
    if not folder.endswith("engine"):
        return [path]
    stem = name[:-3]
    for family, helpers in FAMILY_PARTS.items():
        if stem == family or stem.startswith(family + "_") or stem in helpers:
            return [os.path.join(folder, f) for f in sorted(os.listdir(os.path.join(ROOT, folder)))
                    if f.endswith(".py") and (f[:-3] == family or f.startswith(family + "_") or f[:-3] in helpers)]
    return [path]


def foreign_private_names(source, also_own=()):
    """``(line, text)`` of each use of a private name the module (or the modules whose sources
    are ``also_own``) does not define."""
    tree = ast.parse(source)
    own = _own_names(tree)
    for other in also_own:
        own |= _own_names(ast.parse(other))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and _is_private(node.attr) and node.attr not in own:
            if not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls")):
                found.append((node.lineno, "%s.%s" % (ast.unparse(node.value), node.attr)))
        elif isinstance(node, ast.ImportFrom):
            for alias in node.names:
                if _is_private(alias.name):
                    found.append((node.lineno, "from %s import %s" % (node.module, alias.name)))
    return sorted(found)


def state_attributes_read(source):
    """``(line, name)`` of each attribute of a game state a controller reads rather than calls:
    the state is ``st``, ``state``, ``replay`` or ``self.state``."""
    tree = ast.parse(source)
    called = set(id(node.func) for node in ast.walk(tree) if isinstance(node, ast.Call))
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Attribute) or id(node) in called:
            continue
        value = node.value
        is_state = isinstance(value, ast.Name) and value.id in ("st", "state", "replay")
        is_state = is_state or (isinstance(value, ast.Attribute) and value.attr == "state" and isinstance(value.value, ast.Name) and value.value.id == "self")
        if is_state and node.attr not in STATE_ATTRIBUTES:
            found.append((node.lineno, node.attr))
    return sorted(found)


def test_the_check_finds_a_controller_reading_the_games_attributes():
    source = "def draw(self):\n    st = self.state\n    if st.phase == 1 and st.current_phase() and st.scores:\n        return self.state.drawer\n"
    assert state_attributes_read(source) == [(3, "phase"), (4, "drawer")]


def moves_tried(source):
    """``(line, method)`` of each ``apply``/``undo`` on the table's own state (``st`` or
    ``self.state``): a move tried and taken back, where the game could be asked."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in ("apply", "undo"):
            value = node.func.value
            if (isinstance(value, ast.Name) and value.id == "st") or (isinstance(value, ast.Attribute) and value.attr == "state"):
                found.append((node.lineno, node.func.attr))
    return found


@pytest.mark.parametrize("path", CONTROLLERS)
def test_a_controller_asks_the_game_rather_than_reading_it(path):
    """Controllers call the state's methods (``current_phase()``, ``waits_for(seat)``...): what a
    family keeps in its attributes is its own to change (issue 38, item 5). Nor do they try a
    move and take it back: the game answers the question (``set_problem``, ``lead_problem``)."""
    with open(os.path.join(ROOT, path)) as handle:
        source = handle.read()
    assert state_attributes_read(source) == []
    assert moves_tried(source) == []


def test_the_check_finds_a_reach_into_another_modules_private_field():
    source = "def read(journal):\n    return journal._firsts[0]\n"
    assert foreign_private_names(source) == [(2, "journal._firsts")]
    own = "class Store:\n    def __init__(self):\n        self._rows = {}\n\ndef add(store, key):\n    store._rows[key] = 1\n"
    assert foreign_private_names(own) == []  # a helper of the same module
    assert foreign_private_names("from tiletable.runtime.table import _controller_for\n") == [
        (1, "from tiletable.runtime.table import _controller_for")
    ]


@pytest.mark.parametrize("path", [p for p in _firmware_modules() if p not in NOT_YET])
def test_a_module_uses_no_private_name_of_another(path):
    parts = []
    for part in family_parts(path):
        if part != path:
            with open(os.path.join(ROOT, part)) as handle:
                parts.append(handle.read())
    with open(os.path.join(ROOT, path)) as handle:
        assert foreign_private_names(handle.read(), parts) == []


def test_a_familys_parts_are_one_module_and_nothing_else_is():
    parts = family_parts("firmware/tiletable/engine/line_checks.py")
    assert "firmware/tiletable/engine/line.py" in parts and "firmware/tiletable/engine/betting.py" in parts
    assert "firmware/tiletable/engine/trick.py" not in parts
    assert family_parts("firmware/tiletable/runtime/play_line.py") == ["firmware/tiletable/runtime/play_line.py"]


@pytest.mark.parametrize("path", sorted(NOT_YET))
def test_a_module_still_excused_still_reaches_in(path):
    with open(os.path.join(ROOT, path)) as handle:
        assert foreign_private_names(handle.read()), "%s is clean now: take it off NOT_YET" % path


ENGINE_MODULE_LINES = 600  # a family's rules read in parts, none of them a long file (issue 38)


def test_no_engine_module_is_longer_than_600_lines():
    engine = os.path.join(FIRMWARE, "tiletable", "engine")
    long_modules = {}
    for name in sorted(os.listdir(engine)):
        if name.endswith(".py"):
            with open(os.path.join(engine, name)) as handle:
                lines = sum(1 for _ in handle)
            if lines > ENGINE_MODULE_LINES:
                long_modules[name] = lines
    assert long_modules == {}, "split these into parts: %s" % long_modules
