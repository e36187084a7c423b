"""Writes need the organiser (issue 40 item 7): the pages are open to the room, but every route
that changes the register refuses a POST with 403 and one line unless the organiser signed in
with the PC's password and the form carries the session's token; `serve` listens on this PC
only unless told a host."""
import html
import os
import re
import sys

import pytest
from starlette.testclient import TestClient

from tiletable_host import main as cli
from tiletable_host import organiser as settings
from tiletable_host.db import Database
from tiletable_host.serve import organiser
from tiletable_host.serve.app import create_app
from tiletable_host.serve.command import WebServer
from tiletable_host.serve.live import Hub

PASSWORD = "correct horse battery"
REGISTER = [("ann", []), ("annie", []), ("bob", [])]
# every route that writes, with a form it would take from the organiser, and the register after it
WRITES = {
    "/history/players/add": ({"name": "Dee Smith"}, [("ann", []), ("annie", []), ("bob", []), ("Dee Smith", [])]),
    "/history/players/rename": ({"name": "bob", "new": "Bob Jones"}, [("ann", []), ("annie", []), ("Bob Jones", ["bob"])]),
    "/history/players/merge": ({"name": "annie", "into": "ann"}, [("ann", ["annie"]), ("bob", [])]),
}


@pytest.fixture
def club(tmp_path):
    """A register of three and the PC's organiser password file (``(database, password file)``)."""
    db_path = str(tmp_path / "club.db")
    db = Database.open(db_path)
    for name, _ in REGISTER:
        db.add_player(name)
    db.close()
    password_file = str(tmp_path / "organiser.json")
    settings.save(PASSWORD, password_file)
    return db_path, password_file


@pytest.fixture
def client(club):
    return TestClient(create_app(Hub(), *club))


def _register(db_path):
    db = Database.open(db_path, create=False)
    try:
        return [(p["name"], p["names"]) for p in db.players()]
    finally:
        db.close()


def _token(page):
    return re.search(r'name="csrf" value="([^"]*)"', page).group(1)


def _line(response):
    return html.unescape(re.search(r'<p class="message">(.*?)</p>', response.text, re.S).group(1))


def sign_in(client, password=PASSWORD):
    """Sign in as a person would: open the page, send its form; the response to the form."""
    token = _token(client.get(organiser.SIGN_IN).text)
    return client.post(organiser.SIGN_IN, data={"csrf": token, "password": password, "next": "/history/players"}, follow_redirects=False)


@pytest.mark.parametrize("route", WRITES)
def test_the_signed_in_organisers_form_changes_the_register(client, club, route):
    assert sign_in(client).status_code == 303
    form, after = WRITES[route]
    token = _token(client.get("/history/players").text)
    done = client.post(route, data=dict(form, csrf=token), follow_redirects=False)
    assert done.status_code == 303 and done.headers["location"].startswith("/history/player/")
    assert _register(club[0]) == after


@pytest.mark.parametrize("route", WRITES)
def test_an_anonymous_post_is_refused_in_one_line(client, club, route):
    form, _ = WRITES[route]
    refused = client.post(route, data=dict(form, csrf="guessed"))
    assert refused.status_code == 403 and _line(refused) == organiser.NOT_SIGNED_IN
    token = _token(client.get(organiser.SIGN_IN).text)  # the sign-in form's own token is no organiser's
    refused = client.post(route, data=dict(form, csrf=token))
    assert refused.status_code == 403 and _line(refused) == organiser.NOT_SIGNED_IN
    assert _register(club[0]) == REGISTER


@pytest.mark.parametrize("route", WRITES)
def test_a_wrong_password_signs_nobody_in(client, club, route):
    wrong = sign_in(client, PASSWORD + "!")
    assert wrong.status_code == 403 and "That is not the organiser password." in wrong.text
    token = _token(wrong.text)
    refused = client.post(route, data=dict(WRITES[route][0], csrf=token))
    assert refused.status_code == 403 and _line(refused) == organiser.NOT_SIGNED_IN
    assert _register(club[0]) == REGISTER


@pytest.mark.parametrize("route", WRITES)
@pytest.mark.parametrize("token", [None, "", "a-token-of-another-session"])
def test_a_missing_or_wrong_token_is_refused_even_signed_in(client, club, route, token):
    sign_in(client)
    form = dict(WRITES[route][0])
    if token is not None:
        form["csrf"] = token
    refused = client.post(route, data=form)
    assert refused.status_code == 403 and _line(refused) == organiser.STALE_FORM
    assert _register(club[0]) == REGISTER


@pytest.mark.parametrize("route", WRITES)
def test_without_a_password_on_the_pc_no_write_is_possible(club, route):
    db_path, password_file = club
    signed = TestClient(create_app(Hub(), db_path, password_file))
    sign_in(signed)
    token = _token(signed.get("/history/players").text)
    settings_gone = TestClient(create_app(Hub(), db_path, password_file + ".none"))
    settings_gone.cookies = signed.cookies  # the cookie of a night the password was cleared
    refused = settings_gone.post(route, data=dict(WRITES[route][0], csrf=token))
    assert refused.status_code == 403 and _line(refused) == organiser.NO_PASSWORD
    page = settings_gone.get(organiser.SIGN_IN)
    assert page.status_code == 200 and "tiletable organiser set-password" in page.text and "<form" not in page.text
    assert _register(db_path) == REGISTER


def test_a_new_password_signs_everyone_out(client, club):
    sign_in(client)
    token = _token(client.get("/history/players").text)
    settings.save(PASSWORD + " again", club[1])  # set while the server runs: in force at once
    refused = client.post("/history/players/add", data={"name": "Dee", "csrf": token})
    assert refused.status_code == 403 and _line(refused) == organiser.NOT_SIGNED_IN


def test_writes_take_a_post_only(client):
    sign_in(client)
    assert all(client.get(route).status_code == 405 for route in WRITES)


def test_the_forms_are_shown_to_the_signed_in_organiser_only(client):
    for page in ("/history/players", "/history/player/bob"):
        looked = client.get(page).text
        assert 'method="post"' not in looked and "/organiser/sign-in?next=" in looked
    sign_in(client)
    assert 'action="/history/players/add"' in client.get("/history/players").text
    bob = client.get("/history/player/bob").text
    assert 'action="/history/players/rename"' in bob and 'action="/history/players/merge"' in bob
    assert '<option value="ann">' in bob and '<option value="bob">' not in bob  # bob merges into someone else


def test_bad_input_is_one_line_and_the_form_keeps_what_was_typed(client, club):
    sign_in(client)
    token = _token(client.get("/history/players").text)
    taken = client.post("/history/players/rename", data={"name": "bob", "new": "Ann", "csrf": token})
    assert taken.status_code == 400
    assert "&#39;Ann&#39; is ann in other capitals" in taken.text and 'name="new" value="Ann"' in taken.text
    empty = client.post("/history/players/add", data={"name": "  ", "csrf": token})
    assert empty.status_code == 400 and "a player&#39;s name cannot be empty" in empty.text and 'name="name" value="  "' in empty.text
    assert _register(club[0]) == REGISTER


def test_sign_in_goes_back_to_a_page_of_this_site_only(client):
    token = _token(client.get(organiser.SIGN_IN).text)
    away = client.post(organiser.SIGN_IN, data={"csrf": token, "password": PASSWORD, "next": "//elsewhere.example/"}, follow_redirects=False)
    assert away.status_code == 303 and away.headers["location"] == "/history/players"
    signed_in = client.get(organiser.SIGN_IN).text
    assert "You are signed in as the club's organiser" in signed_in
    out = client.post("/organiser/sign-out", data={"csrf": _token(signed_in)}, follow_redirects=False)
    assert out.status_code == 303
    assert 'method="post"' not in client.get("/history/players").text


def test_serve_listens_on_this_pc_only_unless_told_a_host():
    parser = cli.build_parser(only="serve")
    assert parser.parse_args(["serve"]).host == "127.0.0.1"
    assert parser.parse_args(["serve", "--host", "0.0.0.0"]).host == "0.0.0.0"
    server = WebServer(Hub(), "unused.db")
    assert server.server.config.host == "127.0.0.1"


# In a real browser, on a phone ------------------------------------------------------------

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tools"))
import club_pages  # noqa: E402
import live_browser  # noqa: E402
from test_serve_browser import _missing  # noqa: E402


@pytest.mark.skipif(_missing() is not None, reason=_missing() or "")
def test_on_a_phone_the_organiser_signs_in_renames_and_merges_with_the_forms(tmp_path, monkeypatch):
    from club_night import club_night

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "pc"))  # the server reads the PC's password file
    settings.save(PASSWORD)
    db_path = club_night(tmp_path)
    db = Database.open(db_path)
    db.add_player("annie")
    db.close()
    server = WebServer(Hub(), db_path)
    url = server.start()
    try:
        lines = live_browser.browser("organiser", url, "390x844", PASSWORD, "bob", "Bob Jones", "annie", "ann")
    finally:
        server.stop()
    assert lines[-1] == {"errors": []}
    met = {line["name"]: line for line in lines[:-1]}
    assert list(met) == ["sign-in", "player", "renamed", "merged"]
    assert {name: club_pages.findings(dict(line, status=200)) for name, line in met.items()} == {name: [] for name in met}
    assert met["player"]["url"] == url + "history/player/bob" and "Change the register" in met["player"]["text"]
    assert met["renamed"]["text"].startswith("Bob Jones\n\nAlso played as bob: those sessions are Bob Jones's too.")
    assert met["merged"]["url"] == url + "history/player/ann" and "Also played as annie: those sessions are ann's too." in met["merged"]["text"]
    assert _register(db_path) == [("ann", ["annie"]), ("Bob Jones", ["bob"]), ("cy", [])]


def test_serve_says_on_start_whether_the_pages_can_change_anything(tmp_path, monkeypatch):
    import signal

    from cli import serve_process

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "pc"))  # the process's PC: no password yet
    for told in ("no organiser password on this PC: the pages are for looking only (tiletable organiser set-password)",
                 "the organiser signs in at %sorganiser/sign-in to change the register"):
        proc, line = serve_process("--no-table", "--db", str(tmp_path / "club.db"))
        try:
            url = re.match(r"live view and history on (http://127\.0\.0\.1:\d+/) ", line).group(1)  # this PC only
            assert proc.stdout.readline().strip() == (told % url if "%s" in told else told)
        finally:
            proc.send_signal(signal.SIGINT)
            proc.communicate(timeout=15)
        settings.save(PASSWORD)
