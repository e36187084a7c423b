"""Every command given bad arguments answers one line with its cause, never a traceback; so do a
closed pipe and Ctrl-C at any moment. The commands run as a user runs them (a process)."""
import json
import os
import signal
import subprocess
import sys
import time

import pytest

from cli import tiletable
from journal_games import play_into_journal
from tiletable_host.main import build_parser, run
from tiletable_host.transport_local import LocalTransport

COMMAND = [sys.executable, "-m", "tiletable_host"]


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    """A folder with a database of one session and some bad ruleset files."""
    where = tmp_path_factory.mktemp("bad")
    device = LocalTransport(str(where / "device"))
    play_into_journal(device.journal, seed=1)
    args = build_parser().parse_args(["pull", "--db", str(where / "t.db")])
    args.link = device
    assert run(args) == 0
    (where / "deep.json").write_text('{"family": "line", "name": "x", "params": ' + "[" * 50000 + "]" * 50000 + "}")
    (where / "family.json").write_text(json.dumps({"family": ["line"], "name": "x"}))
    (where / "text.db").write_text("not a database\n" * 300)
    return where


def _one_line(argv, cwd):
    proc = subprocess.run(COMMAND + argv, cwd=cwd, capture_output=True, text=True, timeout=120)
    assert "Traceback" not in proc.stderr and proc.stderr.count("\n") == 1, proc.stderr
    assert proc.returncode in (1, 2) and proc.stderr.startswith("tiletable: ")
    return proc.stderr


@pytest.mark.parametrize(
    "argv, cause",
    [
        (["export", "-o", "/nonexistent/dir/x.jsonl", "--db", "t.db"], "/nonexistent/dir/x.jsonl: no such file or directory"),
        (["export", "-o", ".", "--db", "t.db"], ".: is a directory"),
        (["export", "--format", "xml", "--db", "t.db"], "invalid choice: 'xml'"),
        (["export", "7", "--db", "t.db"], "no session 7"),
        (["plot", "1", "-o", "/nonexistent/x.svg", "--db", "t.db"], "/nonexistent/x.svg: no such file or directory"),
        (["plot", "one", "--db", "t.db"], "invalid int value: 'one'"),
        (["show", "9", "--db", "t.db"], "no session 9"),
        (["show", "1", "--db", "text.db"], "text.db is not a tiletable database"),
        (["show", "1", "--db", "."], ". is a folder"),
        (["replay", "5", "--db", "t.db"], "no session 5"),
        (["sessions", "--db", "missing.db"], "no database at missing.db"),
        (["simulate", "deep.json"], "deep.json: not a ruleset: its JSON is nested too deeply"),
        (["sync", "--dry-run", "deep.json"], "deep.json: not a ruleset: its JSON is nested too deeply"),
        (["simulate", "family.json"], "family.json: family: must be one of line, trick, column, climb, fortytwo, train (got ['line'])"),
        (["simulate", "nothing.json"], "nothing.json: cannot read (No such file or directory)"),
        (["simulate", "chess"], "unknown ruleset: 'chess'"),
        (["simulate", "muggins", "-n", "many"], "invalid int value: 'many'"),
        (["sync", "--dry-run", "nothing.json"], "nothing.json: no such file or directory"),
        (["sync", "--dry-run", "--port", "/dev/no-such-port"], "no port /dev/no-such-port"),
        (["pull", "--db", "text.db", "--port", "/dev/no-such-port"], "text.db is not a tiletable database"),
        (["watch", "--once", "--port", "/dev/no-such-port"], "no port /dev/no-such-port"),
        (["enrol", "--set", "x"], "invalid int value: 'x'"),
        (["inventory", "--set", "1", "--port", "/dev/no-such-port"], "no port /dev/no-such-port"),
        (["deploy", "--dry-run", "--families", "chess", "--build-dir", "fw"], "unknown family chess"),
        (["no-such-command"], "invalid choice: 'no-such-command'"),
    ],
)
def test_bad_arguments_get_one_line_with_the_cause(files, argv, cause):
    assert cause in _one_line(argv, files)


def test_a_reader_that_stops_reading_ends_the_command_quietly(files):
    proc = subprocess.Popen(COMMAND + ["demo"], cwd=files, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    proc.stdout.readline()
    proc.stdout.close()
    _, err = proc.communicate(timeout=60)
    assert err == b"" and proc.returncode in (0, 1)


@pytest.mark.parametrize("delay", [0.0, 0.02, 0.1, 0.4, 1.0])
def test_ctrl_c_at_any_moment_says_interrupted(files, delay):
    """Ctrl-C from the moment the tool's own code runs (before that, Python itself is starting
    and no program can answer it): ``-X importtime`` reports each import on stderr, and the
    interrupt follows ``tiletable_host.errors``, the first module loaded once the entry point
    handles Ctrl-C, while the command's modules (rich, the engine) are still loading."""
    proc = subprocess.Popen(
        [sys.executable, "-X", "importtime", "-m", "tiletable_host", "simulate", "muggins", "-n", "100000"],
        cwd=files, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    while "tiletable_host.errors" not in proc.stderr.readline():
        pass
    time.sleep(delay)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    said = [line for line in err.splitlines() if not line.startswith("import time:")]
    assert said in (["tiletable: interrupted"], ["tiletable: simulate: interrupted"]), err[-500:]
    assert proc.returncode == 130


@pytest.mark.skipif(os.geteuid() == 0, reason="root may write anywhere")
def test_an_unwritable_output_says_permission_denied(files, tmp_path):
    locked = tmp_path / "locked"
    locked.mkdir(mode=0o500)
    assert "permission denied" in _one_line(["export", "-o", str(locked / "x.jsonl"), "--db", "t.db"], files)


def test_an_unexpected_failure_is_one_line_and_debug_shows_the_traceback(capsys, monkeypatch):
    from tiletable_host import demo

    monkeypatch.setattr(demo, "do_demo", lambda args: {}["missing"])
    status, _, err = tiletable(capsys, ["demo"])
    assert status == 1
    assert err == "tiletable: demo: unexpected error (KeyError: 'missing'); `tiletable --debug demo ...` shows where\n"
