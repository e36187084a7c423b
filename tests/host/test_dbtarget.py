"""--db names a SQLite file or a PostgreSQL server: a password is never shown, and each way a
server can fail is one line that says which."""
import os
import tempfile

import pytest

from tiletable_host import dbtarget
from tiletable_host.errors import CommandError


def test_a_path_or_a_url():
    assert not dbtarget.is_server("/home/ann/club.db")
    assert dbtarget.is_server("postgresql://ann@club.example/club")
    assert dbtarget.is_server("postgres://ann@club.example/club")
    assert dbtarget.is_server("PostgreSQL://ann@club.example/club")  # a scheme is any case, as urllib reads it
    assert not dbtarget.is_server("club.db") and not dbtarget.is_server("C:\\club.db") and not dbtarget.is_server("sqlite:club.db")
    assert dbtarget.resolve(None, "/d.db") == "/d.db"
    assert dbtarget.resolve("x.db", "/d.db") == "x.db"


def test_the_environment_names_the_default(monkeypatch):
    monkeypatch.setenv(dbtarget.ENV, "postgresql://club@server/club")
    assert dbtarget.resolve(None, "/d.db") == "postgresql://club@server/club"
    assert dbtarget.resolve("x.db", "/d.db") == "x.db"


def test_a_password_is_never_shown():
    shown = dbtarget.redact("postgresql://ann:horse%20staple@club.example:5433/club?password=battery&sslmode=require")
    assert "horse" not in shown and "battery" not in shown
    assert shown.startswith("postgresql://ann:***@club.example:5433/club?")
    assert "sslmode=require" in shown
    assert dbtarget.redact("/home/ann/club.db") == "/home/ann/club.db"


def test_a_server_that_cannot_be_reached():
    folder = tempfile.mkdtemp()  # a socket folder with no server in it
    with pytest.raises(CommandError) as caught:
        dbtarget.connect("postgresql://ann:secret@/club?host=%s" % folder)
    message = str(caught.value)
    assert message.startswith("cannot reach the database server %s" % folder)
    assert "secret" not in message and "\n" not in message
    os.rmdir(folder)


def test_a_refused_login_and_a_missing_database(postgres_cluster):
    postgres_cluster.create_role("ann", "right")
    with pytest.raises(CommandError, match="refused the login for ann") as caught:
        dbtarget.connect(postgres_cluster.url(user="ann", password="wrong"))
    assert "wrong" not in str(caught.value)
    with pytest.raises(CommandError, match="has no database nowhere"):
        dbtarget.connect(postgres_cluster.url("nowhere"))
    with dbtarget.connect(postgres_cluster.url(user="ann", password="right")) as conn:
        assert conn.execute("SELECT 1").fetchone()[0] == 1
