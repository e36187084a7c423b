"""Headless Chromium on every page of ``tiletable serve`` at a phone's, a desktop's and the big
screen's size, over a club night (tests/host/club_night.py: named tables, several sessions,
the night as an event and a league season) and a room of live tables: what a person meets on each page, and screenshots.

    python tools/club_pages.py docs/pages

writes ``<page>-<width>x<height>.png`` for each page at 390x844, 1280x900 and 1920x1080 (and
the big screen for 3 and 12 tables), and prints any finding: a page wider than the screen,
text under 16 px, a touch target under 44 px, an axe-core finding that is serious or critical.
"""
import os
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:0] = [os.path.join(ROOT, "host"), os.path.join(ROOT, "tests"), os.path.join(ROOT, "tests", "host"), os.path.join(ROOT, "tools")]

import tiletable_host  # noqa: E402,F401  (puts firmware/ on sys.path)
from club_night import club_events, club_night  # noqa: E402
from live_browser import browser, position_picture  # noqa: E402
from tiletable_host import organiser  # noqa: E402
from tiletable_host.serve.command import WebServer  # noqa: E402
from tiletable_host.serve.live import Hub  # noqa: E402

SIZES = ("390x844", "1280x900", "1920x1080")
GAMES = ("muggins", "moon", "sniff", "dasan", "columns", "buki", "block", "draw")
PAGES = {  # name: address under the server
    "live": "",
    "sessions": "history",
    "session": "history/session/1#play-120",
    "session-moon": "history/session/3#play-40",
    "player": "history/player/ann",
    "players": "history/players",
    "standings": "history/standings",
    "events": "events",
    "event": "events/1",
    "leagues": "leagues",
    "league": "leagues/1",
    "organiser": "organiser/sign-in",
}


def room(count, free=(3,)):
    """A ``Hub`` with ``count`` live tables named "Table 1"... watched on ports: each in the
    middle of a match of a preset (an engine position, published as a table's picture), but
    those numbered in ``free``, which are in their menus."""
    hub = Hub()
    for number in range(1, count + 1):
        port = "/dev/ttyACM%d" % (number - 1)
        if number in free:
            hub.publish(port, {"status": "idle", "title": "Table %d" % number, "text": "Free: muggins for 2 players chosen in its menu"})
            continue
        shown = position_picture(GAMES[(number - 1) % len(GAMES)], number, lambda state: len(state.history) > 25)
        hub.publish(port, dict(shown, title="Table %d" % number))
    return hub


def audit(hub, db_path, size, out_dir, pages):
    """Load ``pages`` ({name: address}) at ``size`` ("WxH"); the driver's line for each page,
    and its console errors. ``out_dir`` None: no screenshots."""
    server = WebServer(hub, db_path)
    url = server.start()
    try:
        lines = browser("audit", size, out_dir or "-", *["%s=%s%s" % (name, url, page) for name, page in pages.items()], timeout=300)
    finally:
        server.stop()
    return lines[:-1], lines[-1]["errors"]


def findings(line):
    """What is wrong on a page, for people: empty when nothing is."""
    found = []
    if line["status"] != 200:
        found.append("status %d" % line["status"])
    if line["width"] > line["screen"]:
        found.append("%d px wide on a %d px screen (%s)" % (line["width"], line["screen"], ", ".join(line["wide"])))
    if line["smallTextCount"]:
        found.append("%d texts under 16 px, e.g. %s" % (line["smallTextCount"], line["smallText"][:3]))
    if line["smallTargetCount"]:
        found.append("%d touch targets under 44 px, e.g. %s" % (line["smallTargetCount"], line["smallTargets"][:3]))
    found.extend("axe %s (%s): %d, e.g. %s" % (v["id"], v["impact"], v["nodes"], v["first"]) for v in line["axe"])
    return found


def main(argv):
    out_dir = argv[0] if argv else os.path.join(ROOT, "docs", "pages")
    os.makedirs(out_dir, exist_ok=True)
    folder = tempfile.mkdtemp()
    db_path = club_events(folder, club_night(folder))
    os.environ["XDG_DATA_HOME"] = tempfile.mkdtemp()  # a PC with an organiser password: the sign-in form
    organiser.save("the organiser's password")
    problems = []
    for size in SIZES:
        lines, errors = audit(room(3), db_path, size, out_dir, PAGES)
        problems.extend("%s at %s: %s" % (line["name"], size, "; ".join(findings(line))) for line in lines if findings(line))
        problems.extend("console error at %s: %s" % (size, e) for e in errors)
    for count in (3, 12):
        lines, errors = audit(room(count), db_path, "1920x1080", out_dir, {"big-%d" % count: "?big=1"})
        problems.extend("big screen of %d: %s" % (count, "; ".join(findings(line))) for line in lines if findings(line))
        problems.extend("console error on the big screen: %s" % e for e in errors)
    print("screenshots in %s; %s" % (out_dir, "\n".join(problems) or "no finding"))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
