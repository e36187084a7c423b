"""`tiletable publish DIR`: a club night's history, with the night as an event and a league
season, as static pages, the server's pages with relative links, that work from the disk (file://) in headless Chromium on a phone; a folder
that is not a previous publish is never replaced, and a failed publish leaves the last one."""
import os
import re
import sys
from html.parser import HTMLParser
from urllib.parse import unquote, urlsplit

import pytest
from starlette.testclient import TestClient

from club_night import NIGHT, club_events, club_night
from tiletable_host import publish
from tiletable_host.main import main
from tiletable_host.serve.app import create_app
from tiletable_host.serve.live import Hub

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tools"))
import live_browser  # noqa: E402
from test_serve_browser import _missing  # noqa: E402


SESSIONS = len(NIGHT) + 1  # and the partnership match of ``club_events``


@pytest.fixture(scope="module")
def night(tmp_path_factory):
    """The club night with the night as an event and a league season (``club_events``)."""
    folder = tmp_path_factory.mktemp("night")
    return club_events(folder, club_night(folder))


@pytest.fixture(scope="module")
def site(night, tmp_path_factory):
    """The night published into a new folder; (folder, what the command printed)."""
    folder = str(tmp_path_factory.mktemp("web") / "results")
    capture = pytest.MonkeyPatch()
    printed = []
    capture.setattr("builtins.print", lambda *a, **k: printed.append(" ".join(map(str, a))))
    try:
        assert main(["publish", folder, "--db", night]) == 0
    finally:
        capture.undo()
    return folder, "\n".join(printed)


class Links(HTMLParser):
    """Every link (href, src) of a page and every id in it."""

    def __init__(self):
        super().__init__()
        self.links, self.ids = [], set()

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            if name in ("href", "src") and value is not None:
                self.links.append(value)
            if name == "id":
                self.ids.add(value)


def parsed(path):
    links = Links()
    with open(path, encoding="utf-8") as f:
        links.feed(f.read())
    return links


def pages_of(folder):
    return sorted(os.path.relpath(os.path.join(root, name), folder) for root, _, files in os.walk(folder) for name in files if name.endswith(".html"))


def test_every_page_of_the_history_is_written_with_its_record_and_scripts(site):
    folder, printed = site
    pages = pages_of(folder)
    sessions = ["sessions/%d.html" % n for n in range(1, SESSIONS + 1)]
    players = ["players/%s.html" % name for name in ("ann", "bob", "cy", "dee", "eve", "fay", "gus")]
    events = ["events.html", "events/1.html", "leagues.html", "leagues/1.html"]
    assert pages == sorted(["index.html", "players.html", "standings.html"] + players + sessions + events)
    assert all(os.path.isfile(os.path.join(folder, "sessions", "%d.tgr" % n)) for n in range(1, SESSIONS + 1))
    assert sorted(os.listdir(os.path.join(folder, "static"))) == ["boards", "replay.js", "style.css", "tiles.js"]  # not the live page's
    assert re.search(r"^ sessions +%d +\d+\.\d (kB|MB)$" % SESSIONS, printed, re.M), printed
    assert re.search(r"^ events +1 +\d+\.\d kB$", printed, re.M) and re.search(r"^ league seasons +1 +\d+\.\d kB$", printed, re.M), printed
    scripts = sum(len(files) for _, _, files in os.walk(os.path.join(folder, "static")))  # style, replay, tiles, a board a family
    assert re.search(r"^ all +%d +\d+\.\d MB$" % (len(pages) + SESSIONS + scripts), printed, re.M), printed
    assert printed.endswith("published into %s: open %s" % (folder, os.path.join(folder, "index.html")))


def test_every_link_is_relative_and_leads_to_a_written_file(site):
    folder, _ = site
    checked = 0
    for page in pages_of(folder):
        links = parsed(os.path.join(folder, page))
        for link in links.links:
            parts = urlsplit(link)
            assert not parts.scheme and not link.startswith("/"), (page, link)
            if not parts.path:  # a play on the same page
                assert parts.fragment in links.ids, (page, link)
                continue
            target = os.path.normpath(os.path.join(folder, os.path.dirname(page), unquote(parts.path)))
            assert target.startswith(folder + os.sep) and os.path.isfile(target), (page, link)
            checked += 1
    assert checked > 100


def test_the_published_pages_are_the_servers_without_its_live_parts(site, night):
    folder, _ = site
    client = TestClient(create_app(Hub(), night))

    def main_text(html):
        return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html.split("<main>")[1]))

    def unsigned(html):  # the server's note that the organiser can sign in to change the register
        return re.sub(r'<p class="organiser-only">.*?</p>', "", html, flags=re.S)

    for address, path in [("/history/players", "players.html"), ("/history/standings", "standings.html"), ("/history/player/ann", "players/ann.html"),
                          ("/events", "events.html"), ("/events/1", "events/1.html"), ("/leagues", "leagues.html"), ("/leagues/1", "leagues/1.html")]:
        with open(os.path.join(folder, path), encoding="utf-8") as f:
            assert main_text(f.read()) == main_text(unsigned(client.get(address).text)), path
    for path in pages_of(folder):  # the organiser's sign-in and forms need the server too
        with open(os.path.join(folder, path), encoding="utf-8") as f:
            text = f.read()
        assert "organiser" not in text.lower() and "<form" not in text, path
    with open(os.path.join(folder, "index.html"), encoding="utf-8") as f:
        index = f.read()
    assert "Live tables" not in index and "Big screen" not in index and "<form" not in index  # they need the server
    assert '<a href="sessions/1.html">1</a>' in index and '<a href="players/ann.html">ann</a>' in index
    with open(os.path.join(folder, "sessions", "1.html"), encoding="utf-8") as f:
        session = f.read()
    assert '<link rel="stylesheet" href="../static/style.css">' in session and '<a href="../index.html">Sessions</a>' in session
    assert '<a href="../events.html">Events</a>' in session and '<a href="../leagues.html">Leagues</a>' in session


def test_the_events_and_league_pages_link_to_the_published_sessions_and_players(site):
    folder, _ = site
    with open(os.path.join(folder, "events.html"), encoding="utf-8") as f:
        assert '<a href="events/1.html">Friday night</a>' in f.read()
    with open(os.path.join(folder, "events", "1.html"), encoding="utf-8") as f:
        event = f.read()
    assert '<a href="../sessions/8.html">8</a>' in event and '<a href="../players/dee.html">dee</a> &amp; <a href="../players/fay.html">fay</a>' in event
    with open(os.path.join(folder, "leagues.html"), encoding="utf-8") as f:
        assert '<a href="leagues/1.html">Winter league</a>' in f.read()
    with open(os.path.join(folder, "leagues", "1.html"), encoding="utf-8") as f:
        season = f.read()
    assert re.findall(r'<td data-label="Session"><a href="\.\./sessions/(\d+)\.html">', season) == ["1", "2", "8"]
    assert '<a href="../players/cy.html">cy</a>' in season  # a team's player


def test_a_players_other_names_link_to_their_page_and_any_name_makes_a_file(tmp_path, night):
    import shutil

    from tiletable_host.db import Database

    db_path = str(tmp_path / "club.db")
    shutil.copy(night, db_path)
    db = Database.open(db_path)
    try:
        db.add_player("Dee / Smith")
        db.rename_player("bob", "Bob Jones")
    finally:
        db.close()
    folder = str(tmp_path / "site")
    assert main(["publish", folder, "--db", db_path]) == 0
    assert sorted(os.listdir(os.path.join(folder, "players"))) == ["Bob Jones.html", "Dee %2F Smith.html", "ann.html", "cy.html", "dee.html", "eve.html", "fay.html", "gus.html"]
    with open(os.path.join(folder, "sessions", "1.html"), encoding="utf-8") as f:  # played as bob
        assert '<a href="../players/Bob%20Jones.html">bob</a>' in f.read()
    with open(os.path.join(folder, "players.html"), encoding="utf-8") as f:
        assert '<a href="players/Dee%20%252F%20Smith.html">Dee / Smith</a>' in f.read()


def test_a_folder_that_is_not_a_previous_publish_is_refused_and_kept(tmp_path, night, capsys):
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "notes.txt").write_text("the club's minutes")
    assert main(["publish", str(mine), "--db", night]) == 1
    assert capsys.readouterr().err == "tiletable: publish: %s has files that tiletable publish did not write; give a new folder, an empty one, or a previous publish\n" % mine
    assert os.listdir(mine) == ["notes.txt"] and sorted(os.listdir(tmp_path)) == ["mine"]  # nothing written beside it either
    (tmp_path / "a file").write_text("")
    assert main(["publish", str(tmp_path / "a file"), "--db", night]) == 1
    assert "is not a folder" in capsys.readouterr().err
    (tmp_path / "link").symlink_to(mine)
    assert main(["publish", str(tmp_path / "link"), "--db", night]) == 1
    assert capsys.readouterr().err == "tiletable: publish: %s is a link; give the folder it leads to, %s\n" % (tmp_path / "link", mine)


def test_publishing_again_replaces_the_last_publish_and_a_failure_keeps_it(tmp_path, night, monkeypatch):
    folder = tmp_path / "site"
    folder.mkdir()  # an empty folder is taken
    assert main(["publish", str(folder), "--db", night]) == 0
    (folder / "sessions" / "99.html").write_text("a session since deleted")
    assert main(["publish", str(folder), "--db", night]) == 0
    assert not (folder / "sessions" / "99.html").exists()  # the site is this publish's, nothing older
    index = (folder / "index.html").read_text()

    def full_disk(self, new, progress=None):
        with open(os.path.join(new, "index.html"), "w") as f:
            f.write("half a site")
        raise OSError(28, "No space left on device", new)

    monkeypatch.setattr(publish.Site, "write", full_disk)
    assert main(["publish", str(folder), "--db", night]) == 1
    assert (folder / "index.html").read_text() == index and sorted(os.listdir(tmp_path)) == ["site"]


@pytest.mark.skipif(_missing() is not None, reason=_missing() or "")
def test_a_published_session_steps_through_its_board_from_the_disk_on_a_phone(site):
    folder, _ = site
    url = "file://" + os.path.join(folder, "sessions", "1.html")
    lines = live_browser.browser("step", url, "390x844", "ArrowRight", "ArrowRight", "End", "ArrowLeft")
    assert lines[-1] == {"errors": []}
    steps = lines[:-1]
    assert [line["play"] for line in steps[:2]] == [2, 3] and steps[3]["play"] == steps[2]["play"] - 1 > 3
    assert all(line["chart"]["width"] > 300 and line["chart"]["height"] > 100 for line in steps)
    pages = ["session=" + url] + ["%s=file://%s" % (name, os.path.join(folder, path)) for name, path in
                                  [("sessions", "index.html"), ("players", "players.html"), ("player", "players/ann.html"), ("standings", "standings.html"),
                                   ("event", "events/1.html"), ("league", "leagues/1.html")]]
    *audits, end = live_browser.browser("audit", "390x844", "-", *pages, timeout=300)
    for audit in audits:
        assert (audit["axe"], audit["width"], audit["smallText"], audit["smallTargets"]) == ([], 390, [], []), audit["name"]
    # axe-core reads the style sheet again, which a page from the disk may not: its errors only
    assert all("blocked by CORS policy" in e or e == "Failed to load resource: net::ERR_FAILED" for e in end["errors"])
