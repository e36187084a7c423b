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
