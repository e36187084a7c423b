"""A line game with a scoring rule of its own is two files (docs/CONTRIBUTING.md): the rule's
module, engine/line_score_<name>.py, and line_params.py, where the rule's name joins
SCORING_RULES and the game's document joins PRESETS. A copy of the firmware gets exactly those
two changes, and the new game is chosen from the simulated table's menu and played to its end
there, its rule scoring, in a process of its own on that copy."""
import filecmp
import json
import os
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

RULE = '''"""Doublets (a house rule): a double laid scores its pips."""
from tiletable.engine.tiles import is_double, pips


class Rule:
    def __init__(self, p):
        pass

    def score(self, state, seat, t, point):
        if is_double(t):
            state._award(seat, pips(t), "doublet", "laid a double")
'''

PRESET = '''    "doublets": {
        "version": 1,
        "label": "dbLt",
        "order": 15,
        "trays": ["line-2p", "line-3p", "line-4p"],
        "description": "Doublets: the Block game where a double laid scores its pips, to 50",
        "params": {"per_move_scoring": "doublets", "target": 50},
    },
'''

# played in a process of its own, with the copy's firmware first on the path
PLAY = r'''
import json, sys, tempfile
from player import LinePlayer, choose_game, journal_sessions, local_table, replay, table_scores
from tiletable.families import games
root = tempfile.mkdtemp()
control = local_table(root)
menu = [g[0] for g in games()]
choose_game(control, "doublets", 2)
god = LinePlayer(control, "doublets", 2, seed=3).play_match()
table = control.state()
header, actions = journal_sessions(root)[-1]
print(json.dumps({
    "menu": menu, "over": god.is_over(), "mode": table["mode"],
    "same_scores": table["scores"] == table_scores(god),
    "replayed": replay(header, actions).scores == god.scores,
    "doublets": sum(e.points for e in god.score_events if e.rule == "doublet"),
}))
'''


def _changed(a, b):
    """Paths (relative to ``a``/``b``) that differ between the two trees, or exist in one only."""
    comparison = filecmp.dircmp(a, b, ignore=["__pycache__"])
    out = [name for name in comparison.diff_files + comparison.left_only + comparison.right_only]
    for sub in comparison.common_dirs:
        out += [os.path.join(sub, name) for name in _changed(os.path.join(a, sub), os.path.join(b, sub))]
    return sorted(out)


def test_a_line_game_with_a_scoring_rule_of_its_own_is_two_files(tmp_path):
    firmware = tmp_path / "firmware"
    shutil.copytree(os.path.join(ROOT, "firmware"), firmware, ignore=shutil.ignore_patterns("__pycache__"))
    engine = firmware / "tiletable" / "engine"
    (engine / "line_score_doublets.py").write_text(RULE)
    params = (engine / "line_params.py").read_text()
    assert 'SCORING_RULES = ("fives", "headers", "threes_fives")' in params and "PRESETS = {\n" in params
    params = params.replace('SCORING_RULES = ("fives", "headers", "threes_fives")', 'SCORING_RULES = ("fives", "headers", "threes_fives", "doublets")')
    params = params.replace("PRESETS = {\n", "PRESETS = {\n" + PRESET, 1)
    (engine / "line_params.py").write_text(params)
    assert _changed(os.path.join(ROOT, "firmware"), str(firmware)) == [
        "tiletable/engine/line_params.py",
        "tiletable/engine/line_score_doublets.py",
    ]

    path = [str(firmware)] + [os.path.join(ROOT, sub) for sub in ("sim/cpython", "sim", "tests/sim", "tests")]
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(path), PYTHONDONTWRITEBYTECODE="1")
    done = subprocess.run([sys.executable, "-c", PLAY], capture_output=True, text=True, env=env, timeout=600, cwd=str(tmp_path))
    assert done.returncode == 0, done.stderr[-3000:]
    played = json.loads(done.stdout.strip().splitlines()[-1])
    menu = played["menu"]
    assert menu[menu.index("block") + 1] == "doublets"  # its document's order puts it there
    assert played["over"] and played["mode"] == "over" and played["same_scores"] and played["replayed"]
    assert played["doublets"] > 0  # the new rule scored
