"""The organiser password (`tiletable organiser`): kept as a salted scrypt hash readable by its
user only, set from a script's standard input or typed twice, refused when too short or typed
two ways, and cleared."""
import io
import json
import os
import stat

import pytest

from cli import tiletable
from tiletable_host import organiser

PASSWORD = "correct horse battery"


@pytest.fixture(autouse=True)
def own_pc(tmp_path, monkeypatch):
    """A PC of the test's own: its organiser file in the test's folder."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    return organiser.config_path()


def _stdin(monkeypatch, text, tty=False):
    stream = io.StringIO(text)
    stream.isatty = lambda: tty
    monkeypatch.setattr("sys.stdin", stream)


def test_a_password_from_standard_input_is_kept_as_a_salted_hash_for_its_user_only(capsys, monkeypatch, own_pc):
    assert tiletable(capsys, ["organiser"])[1].startswith("no organiser password on this PC")
    _stdin(monkeypatch, PASSWORD + "\n")
    status, out, err = tiletable(capsys, ["organiser", "set-password"])
    assert (status, err) == (0, "") and own_pc in out
    text = open(own_pc).read()
    assert PASSWORD not in text
    kept = json.loads(text)
    assert organiser.matches(kept["password"], PASSWORD) and not organiser.matches(kept["password"], PASSWORD + "!")
    assert stat.S_IMODE(os.stat(own_pc).st_mode) == 0o600
    assert tiletable(capsys, ["organiser"])[1].startswith("an organiser password is set")
    _stdin(monkeypatch, PASSWORD + "\n")
    tiletable(capsys, ["organiser", "set-password"])
    again = organiser.load()
    assert again["password"]["salt"] != kept["password"]["salt"] and again["secret"] != kept["secret"]  # everyone signed out


def test_a_typed_password_is_asked_twice_and_two_different_ones_change_nothing(capsys, monkeypatch, own_pc):
    _stdin(monkeypatch, "", tty=True)
    typed = iter([PASSWORD, PASSWORD + "x"])
    monkeypatch.setattr("getpass.getpass", lambda prompt: next(typed))
    assert tiletable(capsys, ["organiser", "set-password"]) == (1, "", "tiletable: organiser: the two passwords differ; nothing was changed\n")
    assert not os.path.exists(own_pc)
    typed = iter([PASSWORD, PASSWORD])
    assert tiletable(capsys, ["organiser", "set-password"])[0] == 0
    assert organiser.matches(organiser.load()["password"], PASSWORD)


def test_a_short_password_is_refused_and_clear_leaves_the_pages_for_looking_only(capsys, monkeypatch, own_pc):
    _stdin(monkeypatch, "abc\n")
    assert tiletable(capsys, ["organiser", "set-password"]) == (1, "", "tiletable: organiser: the organiser password needs at least 8 characters\n")
    _stdin(monkeypatch, PASSWORD + "\n")
    tiletable(capsys, ["organiser", "set-password"])
    status, out, _ = tiletable(capsys, ["organiser", "clear"])
    assert status == 0 and "for looking only" in out and organiser.load() is None


def test_a_file_that_is_no_password_file_is_one_line_saying_so(capsys, own_pc):
    os.makedirs(os.path.dirname(own_pc))
    with open(own_pc, "w") as f:
        f.write('{"password": "plain"}')
    status, out, err = tiletable(capsys, ["organiser"])
    assert status == 1 and err == "tiletable: organiser: %s is not an organiser password file; set it again: tiletable organiser set-password\n" % own_pc
