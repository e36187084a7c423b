"""The command line: help for every command, and the one-line errors (golden messages)."""
import subprocess
import sys

import pytest

from cli import tiletable
from tiletable_host import connect
from tiletable_host.db import Database
from tiletable_host.main import build_parser


def _command_names():
    parser = build_parser()
    sub = next(a for a in parser._actions if a.dest == "command")
    return sorted(sub.choices)


def test_top_level_help_lists_every_command():
    out = subprocess.run([sys.executable, "-m", "tiletable_host.main", "--help"], capture_output=True, text=True).stdout
    listed = {line.split()[0] for line in out.splitlines() if line.startswith("    ") and not line.startswith("     ")}
    assert listed == set(_command_names())


@pytest.mark.parametrize("name", _command_names())
def test_every_command_has_help(capsys, name):
    with pytest.raises(SystemExit) as exit_:
        build_parser().parse_args([name, "--help"])
    out = capsys.readouterr().out
    assert exit_.value.code == 0 and out.startswith("usage: tiletable %s" % name)
    assert "\n    tiletable %s" % name in out  # an example to copy
    assert "``" not in out


class _Port:
    def __init__(self, device, serial_number):
        self.device, self.serial_number, self.vid, self.pid = device, serial_number, 0x2E8A, 0x0005


def test_no_table_found(capsys, monkeypatch):
    monkeypatch.setattr(connect, "find_picos", lambda: [])
    status, _, err = tiletable(capsys, ["sync", "--dry-run"])
    assert status == 1
    assert err == (
        "tiletable: sync: no Pico running the firmware found (USB 2E8A:0005); plug it in, or pass --port "
        "(e.g. the pty printed by `tiletable sim`)\n"
    )


def test_several_tables_found(capsys, monkeypatch):
    monkeypatch.setattr(connect, "find_picos", lambda: [_Port("/dev/ttyACM0", "E661"), _Port("/dev/ttyACM1", None)])
    status, _, err = tiletable(capsys, ["sync", "--dry-run"])
    assert status == 1
    assert err == "tiletable: sync: several Picos found: /dev/ttyACM0 (serial E661), /dev/ttyACM1 (serial ?); choose one with --port\n"


def test_a_port_that_cannot_be_opened(capsys, tmp_path):
    missing = str(tmp_path / "ttyACM9")
    status, _, err = tiletable(capsys, ["sync", "--port", missing])
    assert status == 1
    assert err == "tiletable: sync: no port %s (is the table plugged in? `tiletable ports` lists the Picos found)\n" % missing


def test_a_port_that_does_not_answer(capsys):
    status, _, err = tiletable(capsys, ["sync", "--port", "loop://", "--timeout", "0.05"])
    assert status == 1
    assert err == (
        "tiletable: sync: loop:// does not answer as a tiletable (no reply to hello after 3 attempts of 0.1 s); "
        "is the firmware running?\n"
    )


def test_version_is_printed_on_stdout_and_is_the_installed_packages():
    import importlib.metadata

    proc = subprocess.run([sys.executable, "-m", "tiletable_host", "--version"], capture_output=True, text=True)
    assert proc.returncode == 0 and proc.stderr == ""
    assert proc.stdout == "tiletable %s\n" % importlib.metadata.version("tiletable")


@pytest.mark.parametrize("argv", [["sessions"], ["show", "1"], ["export", "1"], ["--version"]])
def test_reading_the_database_loads_no_library_it_does_not_use(tmp_path, argv):
    """Start-up is most of a command on years of sessions (bench/db_scale.py): the libraries
    of the web app, the terminal views, the charts, the schema check, the link and a database
    server's driver stay unloaded, and `sessions` loads not even the engine."""
    db = tmp_path / "t.db"
    Database.open(str(db)).close()
    proc = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "tiletable_host"] + argv + (["--db", str(db)] if argv[0] != "--version" else []),
        capture_output=True,
        text=True,
    )
    loaded = {line.rsplit("|", 1)[1].strip() for line in proc.stderr.splitlines() if line.startswith("import time:")}
    heavy = {"rich", "jsonschema", "pygal", "starlette", "uvicorn", "jinja2", "openskill", "serial", "importlib.metadata", "logging",
             "psycopg"}  # a SQLite file needs no database server's driver
    assert loaded and not loaded & heavy, sorted(loaded & heavy)
    assert argv[0] != "sessions" or not any(name.startswith("tiletable.") for name in loaded)


@pytest.mark.parametrize("argv", [["pull"], ["import", "RECORD"], ["sync"]])
def test_a_database_in_a_folder_that_does_not_exist_is_a_one_line_error(capsys, tmp_path, argv):
    """A typing mistake in --db makes no folders: the commands that write a database say so and
    create nothing (those that read one say there is no database)."""
    import os

    from tiletable_host.transport_local import LocalTransport

    record = tmp_path / "game.tgr"
    with open(os.path.join(os.path.dirname(__file__), "..", "..", "docs", "RECORD.md"), encoding="utf-8") as handle:
        record.write_text(handle.read().split("```tgr\n")[1].split("```")[0], encoding="utf-8")
    missing = tmp_path / "no" / "such" / "folder" / "club.db"
    argv = [str(record) if arg == "RECORD" else arg for arg in argv] + ["--db", str(missing)]
    status, out, err = tiletable(capsys, argv, LocalTransport(str(tmp_path / "device")))
    assert status == 1 and err.count("\n") == 1 and err.startswith("tiletable: %s: " % argv[0])
    assert str(missing) in err and not (tmp_path / "no").exists()
