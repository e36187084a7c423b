"""`tiletable deploy`: the compiled tree and the mpremote command that installs it."""
import argparse
import os
import re

import pytest

from tiletable_host import FIRMWARE_DIR, deploy
from tiletable_host.errors import CommandError


def _sources():
    out = []
    for folder, dirs, files in os.walk(FIRMWARE_DIR):
        dirs[:] = [d for d in dirs if d != "__pycache__"]
        out += [os.path.relpath(os.path.join(folder, f), FIRMWARE_DIR) for f in files if f.endswith(".py")]
    return sorted(out)


def test_every_module_is_compiled_for_the_rp2040_and_main_stays_source(tmp_path):
    written = deploy.compile_firmware(str(tmp_path))
    expected = sorted(p if p in deploy.SOURCE_ONLY else p[:-3] + ".mpy" for p in _sources() if p not in deploy.BUILD_ONLY)
    assert "manifest.mpy" not in written
    assert sorted(written) == expected
    for path in written:
        data = (tmp_path / path).read_bytes()
        if path.endswith(".mpy"):
            assert data[:2] == b"M\x06", path  # .mpy format 6: MicroPython >= 1.23


def test_leaving_out_a_family_drops_its_modules(tmp_path):
    written = deploy.compile_firmware(str(tmp_path), families=["line"])
    for dropped in ("engine/trick", "engine/column", "engine/climb", "runtime/play_trick", "runtime/play_column", "runtime/play_climb"):
        assert "tiletable/%s.mpy" % dropped not in written
    assert "tiletable/engine/holdings.mpy" not in written  # only the dropped families import it
    assert "tiletable/engine/line.mpy" in written and "tiletable/runtime/play_line.mpy" in written
    assert "tiletable/engine/cards.mpy" in written  # the table names a card tag it reads
    with pytest.raises(CommandError, match="unknown family chess"):
        deploy.compile_firmware(str(tmp_path), families=["chess"])


def test_one_mpremote_invocation_makes_folders_copies_and_resets():
    written = ["main.py", "tiletable/__init__.mpy", "tiletable/engine/tiles.mpy"]
    command = deploy.mpremote_command("/dev/ttyACM0", "build/firmware", written)
    assert command[:3] == ["connect", "/dev/ttyACM0", "exec"]
    assert "['tiletable', 'tiletable/engine']" in command[3]
    assert command[-2:] == ["+", "reset"]
    copies = [command[i + 2 : i + 5] for i, word in enumerate(command) if word == "+" and command[i + 1] == "fs"]
    assert copies == [["cp", os.path.join("build/firmware", p), ":" + p] for p in written]


def test_dry_run_prints_the_plan(tmp_path, capsys):
    parser = argparse.ArgumentParser()
    deploy.configure(parser)
    args = parser.parse_args(["--dry-run", "--build-dir", str(tmp_path / "b"), "--port", "/dev/ttyACM7"])
    assert deploy.do_deploy(args) == 0
    out = capsys.readouterr().out
    assert "compiled" in out and "mpremote connect /dev/ttyACM7 exec" in out and out.rstrip().endswith("+ reset")


def test_frozen_deploy_copies_main_only_and_removes_a_copied_package(tmp_path):
    written = deploy.compile_firmware(str(tmp_path), frozen=True)
    assert written == ["main.py"]
    command = deploy.mpremote_command("/dev/ttyACM0", str(tmp_path), written, remove_package=True)
    assert command[:3] == ["connect", "/dev/ttyACM0", "exec"] and "rm('/tiletable')" in command[3]
    assert command[4:] == ["+", "fs", "cp", os.path.join(str(tmp_path), "main.py"), ":main.py", "+", "reset"]


def test_the_manifest_freezes_the_package_the_deploy_copies():
    """firmware/manifest.py is read by MicroPython's build (manifestfile.py): its calls name
    the tiletable package, which must exist beside it."""
    calls = []
    source = open(os.path.join(FIRMWARE_DIR, "manifest.py")).read()
    exec(source, {"include": lambda path: calls.append(("include", path)), "package": lambda name, **kw: calls.append(("package", name, kw))})
    assert calls == [("include", "$(PORT_DIR)/boards/manifest.py"), ("package", "tiletable", {"opt": 3})]
    assert os.path.isfile(os.path.join(FIRMWARE_DIR, "tiletable", "__init__.py"))


def test_the_scripts_run_on_the_pico_import_only_what_its_port_has():
    """They run on the table's MicroPython (mpremote exec), which has ``os`` but no ``ast``."""
    for script in (deploy._REMOVE_PACKAGE, deploy.mpremote_command("p", "b", ["tiletable/x.mpy"])[3]):
        assert re.findall(r"^import (\w+)", script, re.M) == ["os"], script


def test_the_version_probe_runs_on_micropython_and_is_read():
    """The probe is run on the board by mpremote: here on the MicroPython unix port."""
    import subprocess
    import sys

    micropython = os.path.join(os.path.dirname(sys.executable), "micropython")
    if not os.path.exists(micropython):
        pytest.skip("no MicroPython unix port in this environment")
    out = subprocess.run([micropython, "-c", deploy.VERSION_PROBE], capture_output=True, text=True, timeout=60).stdout
    name, version = deploy.parse_version(out)
    assert name == "micropython" and len(version) == 3 and version >= (1, 20, 0), out


@pytest.mark.parametrize("version", [(1, 27, 0), (1, 27, 1), (1, 28, 0)])
def test_a_supported_release_is_accepted(version):
    deploy.check_micropython("/dev/ttyACM0", "micropython", version)


@pytest.mark.parametrize("name,version", [("micropython", (1, 26, 1)), ("micropython", (1, 29, 0)), ("micropython", (2, 0, 0)), ("circuitpython", (9, 2, 1))])
def test_an_unsupported_board_is_refused_in_one_line_naming_the_release_to_install(name, version):
    with pytest.raises(CommandError) as refused:
        deploy.check_micropython("/dev/ttyACM0", name, version)
    message = str(refused.value)
    assert "\n" not in message and "/dev/ttyACM0" in message
    assert "install MicroPython 1.28 (1.28.x or 1.27.x)" in message and deploy.DOWNLOAD in message
    assert ("%d.%d.%d" % version in message) if name == "micropython" else (name in message)


def test_deploy_refuses_before_copying_anything(tmp_path, monkeypatch):
    calls = []
    monkeypatch.setattr(deploy, "board_micropython", lambda port: ("micropython", (1, 26, 1)))
    monkeypatch.setattr(deploy.subprocess, "run", lambda *a, **k: calls.append(a))
    parser = argparse.ArgumentParser()
    deploy.configure(parser)
    args = parser.parse_args(["--build-dir", str(tmp_path / "b"), "--port", "/dev/ttyACM7"])
    with pytest.raises(CommandError, match="runs MicroPython 1.26.1"):
        deploy.do_deploy(args)
    assert calls == [] and not (tmp_path / "b").exists()
