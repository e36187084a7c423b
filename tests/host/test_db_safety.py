"""Safe by default (issue 41): every --db takes a postgresql:// URL or $TILETABLE_DB; a server
that cannot be reached, refuses the login or lacks the schema gets one line saying which; a
password in the URL is never printed, in errors, --debug logs, `pull`'s lines or the web pages;
and `serve` listens on this PC only unless told otherwise."""
import os
import re
import signal
import subprocess
import sys
import urllib.request
import uuid

import pytest

import pgcluster
from cli import serve_process, tiletable
from journal_games import play_into_journal
from tiletable_host import dbtarget
from tiletable_host import main as cli
from tiletable_host.db import Database
from tiletable_host.transport_local import LocalTransport

DB_COMMANDS = ("export", "plot", "pull", "import", "replay", "run", "sessions", "show", "sync", "watch", "serve", "players")


@pytest.fixture
def club_login(postgres_cluster, postgres_url):
    """(URL with a role's password, the password): a login the server checks, owning the database."""
    role, password = "club_" + uuid.uuid4().hex[:8], "Pw-" + uuid.uuid4().hex
    postgres_cluster.create_role(role, password)
    database = pgcluster.database_name(postgres_url)
    postgres_cluster.execute('ALTER DATABASE "%s" OWNER TO "%s"' % (database, role))
    return postgres_cluster.url(database, role, password), password


@pytest.fixture
def device(tmp_path):
    table = LocalTransport(str(tmp_path / "device"))
    play_into_journal(table.journal, seed=1)
    return table


def _tiletable_process(*argv, env=None):
    """The command in a process of its own (``--debug`` sets up logging, as a user's would)."""
    return subprocess.run([sys.executable, "-m", "tiletable_host.main"] + list(argv), capture_output=True, text=True, timeout=120,
                          env=dict(os.environ, **(env or {})))


def test_every_command_that_takes_a_database_takes_a_url_and_says_so():
    for command in DB_COMMANDS:
        parser = cli.build_parser(only=command)
        sub = parser._subparsers._group_actions[0].choices[command]
        option = next(action for action in sub._actions if "--db" in action.option_strings)
        assert "postgresql:// URL" in option.help and "$TILETABLE_DB" in option.help, command


def test_tiletable_db_names_the_database_and_db_overrides_it(capsys, tmp_path, device, postgres_url, monkeypatch):
    monkeypatch.setenv("TILETABLE_DB", postgres_url)
    assert tiletable(capsys, ["pull"], device)[0] == 0
    status, out, _ = tiletable(capsys, ["sessions"])
    assert status == 0 and len(out.splitlines()) == 2 and "ann, bob" in out
    local = str(tmp_path / "local.db")
    Database.open(local).close()
    assert tiletable(capsys, ["sessions", "--db", local])[1].startswith("no sessions in %s" % local)


def test_pull_names_the_server_without_its_password(capsys, device, club_login):
    url, password = club_login
    status, out, err = tiletable(capsys, ["pull", "--db", url], device)
    assert status == 0 and err == ""
    assert "into %s; stored up to record" % dbtarget.redact(url) in out and ":***@" in out and password not in out
    status, out, _ = tiletable(capsys, ["pull", "--db", url], device)
    assert out.startswith("nothing new on tiletable-local; %s holds" % dbtarget.redact(url)) and password not in out


def test_a_refused_login_is_one_line_without_the_password(capsys, device, club_login):
    url, password = club_login
    wrong = url.replace(password, password[::-1])
    for argv in (["sessions"], ["show", "1"], ["pull"], ["sync"], ["export", "1"], ["replay", "1"]):
        status, out, err = tiletable(capsys, argv + ["--db", wrong], device)
        assert status == 1 and err.count("\n") == 1, argv
        assert "refused the login for %s" % url.split("//")[1].split(":")[0] in err, err
        assert password not in err and password[::-1] not in err and password not in out
    assert device.journal_status()["acked"] == 0


def test_a_server_that_cannot_be_reached_is_one_line(capsys, tmp_path):
    url = "postgresql://club:Sesame-42@/club?host=%s" % (tmp_path / "no-server")
    status, out, err = tiletable(capsys, ["sessions", "--db", url])
    assert status == 1 and err.count("\n") == 1
    assert err.startswith("tiletable: sessions: cannot reach the database server %s" % (tmp_path / "no-server")) and "Sesame-42" not in err


def test_a_missing_database_on_the_server_is_one_line(capsys, postgres_cluster):
    url = postgres_cluster.url("no_such_club")
    status, _, err = tiletable(capsys, ["sessions", "--db", url])
    assert status == 1 and "has no database no_such_club (create it first: createdb no_such_club)" in err


def test_the_debug_log_of_a_failing_command_never_shows_the_password(club_login):
    url, password = club_login
    wrong = url.replace(password, password[::-1])
    for target in (wrong, url):  # refused; then let in, but the database has no schema yet
        result = _tiletable_process("--debug", "sessions", "--db", target)
        assert result.returncode == 1, result.stderr
        assert password not in result.stderr + result.stdout and password[::-1] not in result.stderr + result.stdout
        assert "connection attempt" in result.stderr  # psycopg's own debug lines were logged, cleaned
    assert "has no tiletable schema yet" in result.stderr.splitlines()[-1]


def test_the_debug_log_never_shows_a_password_from_tiletable_db(club_login):
    url, password = club_login
    result = _tiletable_process("--debug", "show", "1", env={"TILETABLE_DB": url.replace(password, password[::-1])})
    assert result.returncode == 1 and "refused the login" in result.stderr
    assert password[::-1] not in result.stderr


def test_a_log_line_that_names_the_url_is_cleaned():
    url = "postgresql://club:Sesame-42@db.example/club"
    import logging

    record = logging.LogRecord("psycopg", logging.DEBUG, __file__, 1, "connecting to %s", (url,), None)
    assert dbtarget.PasswordFilter([url, "club.db"]).filter(record)
    assert record.getMessage() == "connecting to postgresql://club:***@db.example/club"


def test_serve_listens_on_this_pc_only_and_its_pages_never_show_the_password(club_login):
    url, password = club_login
    assert cli.build_parser(only="serve").parse_args(["serve"]).host == "127.0.0.1"
    proc, line = serve_process("--no-table", "--db", url)
    try:
        match = re.match(r"live view and history on (http://127\.0\.0\.1:\d+/) \(tables: every table the club's PCs publish; database (.*)\); Ctrl-C stops$", line.strip())
        assert match and match.group(2) == dbtarget.redact(url) and password not in line, line
        with pytest.raises(urllib.error.HTTPError) as page:  # nothing stored yet: the page says so
            urllib.request.urlopen(match.group(1) + "history", timeout=30)
        text = page.value.read().decode()
        assert "has no tiletable schema yet" in text and password not in text
        Database.open(url).close()
        with urllib.request.urlopen(match.group(1) + "history", timeout=30) as response:
            text = response.read().decode()
        assert response.status == 200 and "<h1>Sessions</h1>" in text and password not in text
    finally:
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=30)
    assert proc.returncode == 130 and password not in out + err


def test_a_login_without_the_right_to_create_the_schema_is_one_line(capsys, device, postgres_cluster, postgres_url):
    role, password = "guest_" + uuid.uuid4().hex[:8], "Pw-" + uuid.uuid4().hex
    postgres_cluster.create_role(role, password)  # may log in, owns nothing: public's CREATE is the owner's
    url = postgres_cluster.url(pgcluster.database_name(postgres_url), role, password)
    status, out, err = tiletable(capsys, ["pull", "--db", url], device)
    assert status == 1 and out == "" and err.count("\n") == 1
    assert "the database server refused %s: permission denied for schema public" % dbtarget.redact(url) in err and password not in err
    assert device.journal_status()["acked"] == 0


@pytest.mark.parametrize(
    "url, says",
    [
        ("postgresql://club:Sesame-42@[::1/club", "is not a URL PostgreSQL can read (end of string reached"),
        ("postgresql://club:Sesame-42@server:fivefourthreetwo/club", "is not a URL PostgreSQL can read"),
        ("postgresql://club:Ses@me-42@/club?host=/no/such/folder", "cannot reach the database server /no/such/folder"),
        ("postgresql://club@/club?host=/no/such/folder&password=Sesame-42", "cannot reach the database server /no/such/folder"),
    ],
)
def test_a_url_that_does_not_parse_or_lead_anywhere_is_one_line_without_its_password(capsys, url, says):
    status, out, err = tiletable(capsys, ["sessions", "--db", url])
    assert status == 1 and out == "" and err.count("\n") == 1, err
    assert says in err and "Sesame" not in err and "Ses@me" not in err and "***" in dbtarget.redact(url)
