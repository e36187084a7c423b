"""How fast ``tiletable serve`` answers each page of a club night's history.

    .venv/bin/python bench/pages.py [--repeat N]

Builds the club night of the page tests (tests/host/club_night.py: three named tables, seven
sessions, the longest a Muggins match of about 350 numbered plays) in a SQLite file, then asks
the app for each page ``--repeat`` times in process (no network), and prints the median and
slowest time of each. The session page replays the session through the engine, builds the
board's picture after every play and draws the chart the first time it is asked for ("cold":
the server's pages kept emptied before each look), then is kept rendered until a pull
changes it ("warm"). Target:
each page's median within 0.2 s (the pages answered in 0.02-0.11 s before the board to step through).
"""
import argparse
import os
import statistics
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:0] = [os.path.join(ROOT, "host"), os.path.join(ROOT, "tests"), os.path.join(ROOT, "tests", "host")]

import tiletable_host  # noqa: E402,F401  (puts firmware/ on sys.path)
from club_night import club_night  # noqa: E402
from starlette.testclient import TestClient  # noqa: E402
from tiletable_host.serve.app import create_app  # noqa: E402
from tiletable_host.serve.live import Hub  # noqa: E402

TARGET = 0.2
PAGES = ["history", "history/standings", "history/player/ann", "night"] + ["history/session/%d" % n for n in range(1, 8)]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args(argv)
    db_path = club_night(tempfile.mkdtemp())
    client = TestClient(create_app(Hub(), db_path))
    worst_median = 0.0
    for page in PAGES:
        for kind in ("cold", "warm") if page.startswith("history/session/") else ("",):
            times = []
            for _ in range(args.repeat):
                if kind == "cold":
                    client.app.state.session_pages.clear()
                start = time.perf_counter()
                response = client.get("/" + page)
                times.append(time.perf_counter() - start)
                assert response.status_code == 200, page
            worst_median = max(worst_median, statistics.median(times))
            print("%-22s %4s median %5.0f ms  slowest %5.0f ms  %6.0f kB  (n=%d)" % (page, kind, 1000 * statistics.median(times), 1000 * max(times), len(response.content) / 1000, args.repeat))
    print("target %.0f ms a page (median): %s (measured; the slowest depend on the machine's load)" % (1000 * TARGET, "met" if worst_median <= TARGET else "NOT met"))
    return 0 if worst_median <= TARGET else 1


if __name__ == "__main__":
    sys.exit(main())
