"""The PC tool as a user installs it: the wheel, in a fresh venv, run from outside the checkout."""
import os
import subprocess
import sys
import zipfile

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """(the wheel's path, the ``tiletable`` script of a fresh venv with only that wheel and its dependencies)."""
    where = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "-w", str(where), os.path.join(ROOT, "host")],
        check=True,
    )
    (wheel,) = where.glob("tiletable-*.whl")
    venv = where / "venv"
    # installed by this pip: a pip of the venv's own (ensurepip) took a third of the fixture
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    subprocess.run([sys.executable, "-m", "pip", "--python", str(venv / "bin" / "python"), "install", "--quiet", str(wheel)], check=True)
    return wheel, venv


def _run(venv, *argv, cwd):
    proc = subprocess.run([str(venv / "bin" / "tiletable")] + list(argv), cwd=cwd, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr
    return proc.stdout


def test_the_wheel_carries_the_engine_and_the_firmware_as_files(installed):
    names = zipfile.ZipFile(installed[0]).namelist()
    for name in (
        "tiletable/engine/line.py",
        "tiletable_host/bundled/firmware/main.py",
        "tiletable_host/bundled/firmware/tiletable/engine/line.py",
        "tiletable_host/bundled/sim/device.py",
    ):
        assert name in names
    assert not [n for n in names if "__pycache__" in n]


def test_installed_tool_runs_outside_the_checkout(installed, tmp_path):
    _, venv = installed
    assert _run(venv, "--version", cwd=tmp_path).strip() == "tiletable 0.1.0"
    module = subprocess.run([str(venv / "bin" / "python"), "-m", "tiletable_host", "--version"], cwd=tmp_path, capture_output=True, text=True)
    assert module.stdout.strip() == "tiletable 0.1.0"
    where = subprocess.run(
        [str(venv / "bin" / "python"), "-c", "import tiletable, tiletable_host; print(tiletable.__file__, tiletable_host.__file__)"],
        cwd=tmp_path, capture_output=True, text=True, check=True,
    ).stdout
    assert ROOT not in where and str(venv) in where
    assert "match over" in _run(venv, "demo", cwd=tmp_path)
    assert "hands" in _run(venv, "simulate", "muggins", "-n", "3", "--seed", "1", cwd=tmp_path)
    python = str(venv / "bin" / "python")
    subprocess.run([python, "-c", "import sys; from tiletable_host.db import Database; Database.open(sys.argv[1]).close()", "empty.db"], cwd=tmp_path, check=True)
    assert "no sessions" in _run(venv, "sessions", "--db", "empty.db", cwd=tmp_path)
    plan = _run(venv, "deploy", "--dry-run", "--build-dir", str(tmp_path / "fw"), cwd=tmp_path)
    assert "fs cp %s/main.py :main.py" % (tmp_path / "fw") in plan
    assert (tmp_path / "fw" / "tiletable" / "engine" / "line.mpy").is_file()
    table = "from tiletable_host.simtable import SimulatedTable; t = SimulatedTable.start(); print(t.control.display()); t.stop()"
    assert "'MUGG'" in subprocess.run([python, "-c", table], cwd=tmp_path, capture_output=True, text=True, check=True, timeout=60).stdout
    assert sorted(os.listdir(tmp_path)) == ["empty.db", "fw"]  # nothing else left behind
