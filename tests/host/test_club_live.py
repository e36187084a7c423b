"""The room live from one page (issue 41): PCs by the tables publish their pictures into the
club's PostgreSQL database (``live_tables`` + NOTIFY), and any ``serve`` on that database
shows every table of the club, whichever PC it hangs off; a PC that went away is shown as
gone, a table moved to another PC is the same table, and a password is never shown.

Nothing here waits on the clock to order things: a test waits for a state (``wait_for``), and
"a PC that fell silent" is a row made old in the database, not a wait of STALE_AFTER."""
import json
import os
import re
import signal
import subprocess
import sys
import urllib.request
from urllib.parse import urlsplit

import pytest

from tiletable_host.serve import club
from tiletable_host.serve.live import Hub

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tools"))
import live_browser  # noqa: E402
from live_browser import wait_for  # noqa: E402
from cli import serve_process  # noqa: E402

WAIT = 60.0  # seconds for a state that comes at once when it works (a loaded machine is slow)


def _game(title, seq=7):
    return {"status": "game", "ruleset": "muggins", "hand": 1, "players": ["ann", "bob"], "scores": [5, 0], "to_act": 1,
            "turn": "bob to act", "prompt": "", "error": "", "table": None, "last": {"seq": seq, "text": "6-6", "description": "ann sets 6-6", "scores": []},
            "title": title}


def _shown(hub):
    """``{name: picture}`` of what the hub shows."""
    return {t["name"]: t for t in hub.tables()[1]}


def _execute(url, sql):
    """Run ``sql`` on the club's database as another program would; its rows, if any."""
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        cursor = conn.execute(sql)
        return cursor.fetchall() if cursor.description else None


@pytest.fixture
def room(postgres_url):
    """A listener's hub on the club's database, and publishers made on demand; all stopped after."""
    threads = []

    def publisher(pc):
        # no heartbeat within a test: a row a test makes old stays old until the test publishes
        thread = club.ClubPublisher(postgres_url, pc=pc, say=lambda line: None, heartbeat=3600)
        thread.start()
        threads.append(thread)
        return thread

    hub = Hub()
    club.check(postgres_url)
    listener = club.ClubListener(hub, postgres_url, check=0.05, retry=0.05)  # until a publisher made the schema
    listener.start()
    try:
        yield hub, publisher, postgres_url
    finally:
        listener.stop()
        for thread in threads:
            thread.stop()
        listener.join(10)


def test_tables_published_by_two_pcs_show_on_the_club_page_by_name_and_place(room):
    hub, publisher, _ = room
    one, two = publisher("pi-1"), publisher("pi-2")
    one.publish("/dev/ttyACM0", dict(_game("Table 1"), device="tiletable-aaaa"))
    two.publish("/dev/ttyACM0", dict(_game("Table 2", seq=3), device="tiletable-bbbb"))
    assert wait_for(lambda: sorted(_shown(hub)) == ["tiletable-aaaa", "tiletable-bbbb"], WAIT)
    shown = _shown(hub)
    assert shown["tiletable-aaaa"]["title"] == "Table 1" and shown["tiletable-aaaa"]["place"] == "pi-1, /dev/ttyACM0"
    assert shown["tiletable-bbbb"]["place"] == "pi-2, /dev/ttyACM0" and shown["tiletable-bbbb"]["last"]["seq"] == 3
    two.publish("/dev/ttyACM0", dict(_game("Table 2", seq=4), device="tiletable-bbbb"))
    assert wait_for(lambda: _shown(hub)["tiletable-bbbb"]["last"]["seq"] == 4, WAIT)


def test_a_port_where_no_table_ever_answered_is_not_published(room):
    hub, publisher, url = room
    one = publisher("pi-1")
    one.publish("/dev/ttyACM0", {"status": "unplugged", "text": "no table on /dev/ttyACM0; waiting for it"})
    one.publish("/dev/ttyACM1", dict(_game("Table 1"), device="tiletable-aaaa"))
    assert wait_for(lambda: one.written == 1, WAIT)
    assert _execute(url, "SELECT device FROM live_tables") == [("tiletable-aaaa",)]


def test_an_unplugged_table_is_shown_unplugged_under_its_name(room):
    hub, publisher, _ = room
    one = publisher("pi-1")
    one.publish("/dev/ttyACM0", dict(_game("Table 1"), device="tiletable-aaaa"))
    one.publish("/dev/ttyACM0", {"status": "unplugged", "text": "no table on /dev/ttyACM0 (gone); waiting for it"})
    assert wait_for(lambda: _shown(hub).get("tiletable-aaaa", {}).get("status") == "unplugged", WAIT)
    assert _shown(hub)["tiletable-aaaa"]["title"] == "Table 1"


def test_a_pc_that_falls_silent_is_shown_gone_and_comes_back(room):
    hub, publisher, url = room
    one = publisher("pi-1")
    one.publish("/dev/ttyACM0", dict(_game("Table 1"), device="tiletable-aaaa"))
    assert wait_for(lambda: _shown(hub).get("tiletable-aaaa", {}).get("status") == "game", WAIT)
    _execute(url, "UPDATE live_tables SET updated = updated - 300")  # its heartbeats stopped
    assert wait_for(lambda: _shown(hub)["tiletable-aaaa"]["status"] == "gone", WAIT)
    text = _shown(hub)["tiletable-aaaa"]["text"]
    assert re.match(r"Table 1 \(pi-1, /dev/ttyACM0\): not heard from since \d{4}-\d\d-\d\d \d\d:\d\d UTC; is pi-1 off, or off the network\?$", text), text
    one.publish("/dev/ttyACM0", dict(_game("Table 1", seq=8), device="tiletable-aaaa"))
    assert wait_for(lambda: _shown(hub)["tiletable-aaaa"].get("last", {}).get("seq") == 8, WAIT)
    assert _shown(hub)["tiletable-aaaa"]["status"] == "game"


def test_a_pc_that_stops_watching_says_so_and_a_table_not_heard_of_for_long_is_forgotten(room):
    hub, publisher, url = room
    one = publisher("pi-1")
    one.publish("/dev/ttyACM0", dict(_game("Table 1"), device="tiletable-aaaa"))
    assert wait_for(lambda: "tiletable-aaaa" in _shown(hub), WAIT)
    one.stop()
    assert wait_for(lambda: _shown(hub)["tiletable-aaaa"]["status"] == "gone", WAIT)
    assert re.match(r"Table 1 \(pi-1, /dev/ttyACM0\): pi-1 stopped watching it at \d{4}-\d\d-\d\d \d\d:\d\d UTC$", _shown(hub)["tiletable-aaaa"]["text"])
    _execute(url, "UPDATE live_tables SET updated = updated - 2 * 86400")
    assert wait_for(lambda: _shown(hub) == {}, WAIT)


def test_a_table_moved_to_another_pc_is_the_same_table_and_the_old_pc_cannot_take_it_back(room):
    hub, publisher, url = room
    old, new = publisher("pi-1"), publisher("pi-2")
    old.publish("/dev/ttyACM0", dict(_game("Table 1"), device="tiletable-aaaa"))
    assert wait_for(lambda: old.written == 1, WAIT)
    new.publish("/dev/ttyUSB3", dict(_game("Table 1", seq=9), device="tiletable-aaaa"))
    assert wait_for(lambda: new.written == 1, WAIT)
    old.publish("/dev/ttyACM0", {"status": "unplugged", "text": "no table on /dev/ttyACM0; waiting for it"})
    assert wait_for(lambda: old.written == 2, WAIT)
    assert _execute(url, "SELECT pc, port, connected FROM live_tables") == [("pi-2", "/dev/ttyUSB3", True)]
    assert wait_for(lambda: _shown(hub).get("tiletable-aaaa", {}).get("place") == "pi-2, /dev/ttyUSB3", WAIT)
    assert list(_shown(hub)) == ["tiletable-aaaa"]


def test_a_serve_does_not_show_its_own_tables_twice(postgres_url):
    hub = Hub()
    mine = club.ClubPublisher(postgres_url, pc="pi-1", say=lambda line: None)
    theirs = club.ClubPublisher(postgres_url, pc="pi-2", say=lambda line: None)
    listener = club.ClubListener(hub, postgres_url, own=mine.id, check=0.05, retry=0.05)
    for thread in (mine, theirs, listener):
        thread.start()
    try:
        club.Relay(hub, mine).publish("/dev/ttyACM0", dict(_game("Table 1"), device="tiletable-aaaa"))
        theirs.publish("/dev/ttyACM0", dict(_game("Table 2"), device="tiletable-bbbb"))
        assert wait_for(lambda: "tiletable-bbbb" in _shown(hub) and mine.written == 1, WAIT)
        listener_saw = lambda: _execute(postgres_url, "SELECT count(*) FROM live_tables")[0][0]  # noqa: E731
        assert listener_saw() == 2
        theirs.publish("/dev/ttyACM0", dict(_game("Table 2", seq=2), device="tiletable-bbbb"))  # a later look at every row
        assert wait_for(lambda: _shown(hub)["tiletable-bbbb"]["last"]["seq"] == 2, WAIT)
        assert sorted(_shown(hub)) == ["/dev/ttyACM0", "tiletable-bbbb"]
    finally:
        for thread in (mine, theirs, listener):
            thread.stop()


def test_a_club_server_that_goes_away_is_said_once_and_publishing_resumes(postgres_cluster, postgres_url):
    lines = []
    hub = Hub()
    publisher = club.ClubPublisher(postgres_url, pc="pi-1", say=lines.append, retry=0.05)
    listener = club.ClubListener(hub, postgres_url, check=0.05, retry=0.05)
    publisher.start()
    listener.start()
    database = urlsplit(postgres_url).path.lstrip("/")
    try:
        publisher.publish("/dev/ttyACM0", dict(_game("Table 1"), device="tiletable-aaaa"))
        assert wait_for(lambda: _shown(hub).get("tiletable-aaaa", {}).get("status") == "game", WAIT)
        postgres_cluster.execute('ALTER DATABASE "%s" ALLOW_CONNECTIONS false' % database)
        postgres_cluster.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '%s'" % database)
        publisher.publish("/dev/ttyACM0", dict(_game("Table 1", seq=8), device="tiletable-aaaa"))
        assert wait_for(lambda: _shown(hub)["tiletable-aaaa"]["status"] == "gone", WAIT)
        assert _shown(hub)["tiletable-aaaa"]["text"].startswith("no news of this table: ")
        assert wait_for(lambda: lines, WAIT)
        postgres_cluster.execute('ALTER DATABASE "%s" ALLOW_CONNECTIONS true' % database)
        assert wait_for(lambda: _shown(hub)["tiletable-aaaa"].get("last", {}).get("seq") == 8, WAIT)
        assert wait_for(lambda: len(lines) == 2, WAIT)  # one line when it goes, one when it is back: not one per attempt
        assert lines[0].startswith("cannot publish to the club server: ") and lines[1].startswith("club server ")
    finally:
        publisher.stop()
        listener.stop()


def _browser_missing():
    """Why the page cannot be looked at in a browser here (test_serve_browser.py's needs), or None."""
    import shutil

    if not (shutil.which("chromium") or os.path.exists("/usr/bin/chromium")):
        return "no Chromium"
    if not shutil.which("node") or not os.path.isdir(os.path.join(ROOT, "node_modules", "playwright-core")):
        return "no Node.js or playwright-core"
    return None


class _Enough(Exception):
    """Stops the scripted game after the plays a test wanted."""


def _serve(*argv):
    """``tiletable serve`` in a process of its own; (process, its address)."""
    process, line = serve_process(*argv)
    match = re.match(r"live view and history on (http://127\.0\.0\.1:\d+/) ", line)
    if not match:
        process.kill()
        raise AssertionError("serve did not start: %r %s" % (line, process.communicate(timeout=30)[1]))
    assert "s3cret-word" not in line
    return process, match.group(1), line


def _stop(process):
    """Ctrl-C, as a person stops it; its standard error (killed if it does not stop)."""
    if process.poll() is None:
        process.send_signal(signal.SIGINT)
    try:
        return process.communicate(timeout=60)[1]
    except subprocess.TimeoutExpired:
        process.kill()
        return process.communicate()[1]


def _tables(url):
    """The tables of the first server-sent event of the page at ``url``: {title: picture}."""
    with urllib.request.urlopen(url + "live/stream", timeout=30) as stream:
        for raw in stream:
            line = raw.decode().strip()
            if line.startswith("data:"):
                return {t.get("title") or t["name"]: t for t in json.loads(line[5:])}
    return {}


def _named_game(port, title, names):
    """Name the table at ``port``, install the presets and start a Muggins game on it."""
    import tempfile

    from tiletable_host import sync as syncmod
    from tiletable_host.connect import open_link
    from tiletable_host.name import set_name

    class Options:
        timeout = 5.0
        link = None

    Options.port = port
    link = open_link(Options)
    try:
        set_name(link, title)
        syncmod.sync_documents(link, syncmod.collect_documents([], True), os.path.join(tempfile.mkdtemp(), "sync.db"))
        link.game_start("muggins", names)
        return link.device_info["device"]
    finally:
        link.close()


def test_two_pcs_by_two_tables_and_the_big_screen_show_the_room_live(tmp_path, postgres_cluster, postgres_url):
    """Two "PCs" (serve processes, each watching a simulated table, publishing to the club's
    database with a password in its URL) and the room's screen (a third serve, no table of
    its own) showing both tables live by their names; a play on one reaches the screen; a PC
    stopped is shown as such, one killed (silent) as not heard from."""
    from tiletable.engine.rulesets import find_ruleset
    from tiletable_host.run import ScriptedGame
    from tiletable_host.simtable import SimulatedTable

    postgres_cluster.create_role("table_pc", "s3cret-word")
    postgres_cluster.execute('GRANT ALL ON DATABASE "%s" TO table_pc' % urlsplit(postgres_url).path.lstrip("/"))
    postgres_cluster.execute("GRANT ALL ON SCHEMA public TO table_pc", database=urlsplit(postgres_url).path.lstrip("/"))
    secret_url = postgres_url.replace("postgresql://postgres@", "postgresql://table_pc:s3cret-word@")
    tables = [SimulatedTable.start(root=str(tmp_path / ("table%d" % n))) for n in (1, 2)]
    processes = []
    try:
        devices = [_named_game(table.port, "Table %d" % n, names) for n, table, names in zip((1, 2), tables, (["ann", "bob"], ["cy", "di"]))]
        for table in tables:
            processes.append(_serve("--port", table.port, "--db", secret_url)[0])
        screen, url, line = _serve("--no-table", "--db", postgres_url)
        processes.append(screen)
        assert "tables: every table the club's PCs publish" in line
        both = lambda: {title: t.get("status") for title, t in _tables(url).items()}  # noqa: E731
        assert wait_for(lambda: both() == {"Table 1": "game", "Table 2": "game"}, WAIT), both()
        shown = _tables(url)
        assert shown["Table 1"]["players"] == ["ann", "bob"] and shown["Table 2"]["players"] == ["cy", "di"]
        assert [shown["Table %d" % n]["device"] for n in (1, 2)] == devices
        assert shown["Table 1"]["place"].endswith(", " + tables[0].port)

        seen = []

        def on_play(hand_over):  # each play reaches the screen before the next is made
            last = lambda: (_tables(url)["Table 1"].get("last") or {}).get("seq", 0)  # noqa: E731
            assert wait_for(lambda: last() > (seen[-1] if seen else 0), WAIT), "play %d never reached the screen" % (len(seen) + 1)
            seen.append(last())
            if len(seen) == 4:
                raise _Enough()

        with pytest.raises(_Enough):
            ScriptedGame(tables[0].control, tables[0].control, find_ruleset("muggins"), 2, 5, on_play).play(1)
        assert _tables(url)["Table 2"].get("last") is None  # the other table, where nothing was played

        assert _stop(processes[1]).strip().endswith("tiletable: serve: interrupted")  # Ctrl-C on the second PC
        assert wait_for(lambda: _tables(url)["Table 2"]["status"] == "gone", WAIT)
        assert re.match(r"Table 2 \(.+, %s\): .+ stopped watching it at " % re.escape(tables[1].port), _tables(url)["Table 2"]["text"])
        if _browser_missing() is None:  # the room's page in a browser: one table playing, one gone
            lines = live_browser.browser("visit", url, url + "?big=1")
            assert lines[-1] == {"errors": []}
            room, big = lines[0]["text"], lines[1]["text"]
            assert room.startswith("Live tables\nTable 1\n") and shown["Table 1"]["place"] in room, room  # the phones' page: where each hangs off
            assert re.search(r"Table 2\s+.+, %s\s+Table 2 \(.+\): .+ stopped watching it at " % re.escape(tables[1].port), room), room
            assert big.startswith("Table 1\n") and "Last play: " in big and shown["Table 1"]["place"] not in big, big  # names, not ports
            assert re.search(r"\nTable 2\s+Table 2 \(.+\): .+ stopped watching it at ", big), big
        processes[0].kill()  # the first PC switched off: no last word, its heartbeats stop
        processes[0].wait()
        _execute(postgres_url, "UPDATE live_tables SET updated = updated - 3600 WHERE device = '%s'" % devices[0])
        assert wait_for(lambda: _tables(url)["Table 1"]["status"] == "gone", WAIT)
        assert "not heard from since" in _tables(url)["Table 1"]["text"]
        pulled = subprocess.run([sys.executable, "-m", "tiletable_host.main", "pull", "--port", tables[0].port, "--db", secret_url],
                                capture_output=True, text=True, timeout=WAIT)
        assert pulled.returncode == 0 and "s3cret-word" not in pulled.stdout + pulled.stderr, pulled.stderr
        with urllib.request.urlopen(url + "history", timeout=30) as page:  # the club's history, on the room's screen
            text = page.read().decode()
        assert re.search(r'<td data-label="Game">muggins</td><td data-label="Table">Table 1</td>\s*<td data-label="Players"><a href="/history/player/ann">ann</a>, <a href="/history/player/bob">bob</a></td>', text), text
    finally:
        errors = [_stop(process) for process in processes]
        for table in tables:
            table.stop()
    assert all("s3cret-word" not in err for err in errors)


def test_run_on_a_club_server_publishes_its_table_and_says_when_it_stops(capsys, postgres_url):
    """`tiletable run --db postgresql://...` (no page of its own) publishes its table to the
    club while it plays, pulls the session there, and leaves the table marked as no longer
    watched."""
    from cli import tiletable

    status, out, err = tiletable(capsys, ["run", "--hands", "1", "--http-port", "-1", "--timeout", "30", "--name", "Table 9", "--db", postgres_url])
    assert status == 0, err
    assert "live view in a browser" not in out
    rows = _execute(postgres_url, "SELECT device, title, connected, stopped, change, picture FROM live_tables")
    assert len(rows) == 1
    device, title, connected, stopped, change, picture = rows[0]
    assert (title, connected, stopped) == ("Table 9", 1, 1) and change > 2  # a picture after each play, then "stopped"
    assert json.loads(picture)["players"] == ["ann", "bob"]
    assert _execute(postgres_url, "SELECT DISTINCT device FROM sessions") == [(device,)]
