"""`tiletable sessions` and `show` on years of sessions, on SQLite and on PostgreSQL side by side:
10,000 sessions by default, stored through the real pull path (the firmware's Journal, the
link protocol in-process, pull_journal), and the pull's throughput into each.

    .venv/bin/python bench/db_scale.py [--sessions 10000] [--db /tmp/tiletable-bench-10k.db] [--pull-sessions 300]

The bench starts a throwaway PostgreSQL cluster of its own (tools/pgcluster.py: the machine's
initdb and pg_ctl on a Unix socket in a temporary folder, fsync off as in the tests; commits
still wait for the server's write, which tiletable asks for) and removes it at the end.

A handful of random Muggins matches are played once; their records are written into the
device's journal again and again (as the table writes them), pulled and acknowledged in
batches, so the journal rotates as on a Pico. First ``--pull-sessions`` sessions are pulled
into a new SQLite file and a new PostgreSQL database, the same records into each: the time
spent in the pulls gives each engine's throughput. Then the SQLite --db is filled to
``--sessions`` (an existing file that holds them is reused), and `tiletable db copy` copies it
into a PostgreSQL database (timed too). Then on each engine each command runs five times in
this process (its handler, output to /dev/null) and five times as a user runs it: a new
process of the `tiletable` script, with bytecode cached as pip caches it when it installs the
wheel (this environment may set PYTHONDONTWRITEBYTECODE, under which every module is compiled
again at every start; that figure is printed too). The median of each is printed against the
100 ms target.
"""
import argparse
import contextlib
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:0] = [os.path.join(ROOT, "host"), os.path.join(ROOT, "firmware")]

from tiletable.engine.rulesets import find_ruleset  # noqa: E402
from tiletable.engine.state import CHANCE, TERMINAL  # noqa: E402
from tiletable.record import REC_SCORE, REC_TIMED_ACTION  # noqa: E402
from tiletable_host import main as cli  # noqa: E402
from tiletable_host.db import Database  # noqa: E402
from tiletable_host.pull import pull_journal  # noqa: E402
from tiletable_host.transport_local import LocalTransport  # noqa: E402

TARGET_MS = 100
MATCHES = 8  # distinct matches whose records are written over and over
BATCH = 100  # sessions per pull: the journal's budget holds a few hundred KB, as on a Pico


def play_matches(count, seed=1):
    """``count`` random 2-player Muggins matches as lists of (record type, payload, tenths) and
    the final scores; the actions are timed 2.5 s apart, as a table journals them."""
    ruleset = find_ruleset("muggins")
    rng = random.Random(seed)
    matches = []
    for _ in range(count):
        state = ruleset.new_state(2)
        records = []
        while state.current_player() != TERMINAL:
            player = state.current_player()
            action = rng.choice(list(state.chance_outcomes() if player == CHANCE else state.legal_actions()))
            before = len(state.score_events)
            state.apply(action)
            records.append((REC_TIMED_ACTION, state.action_str(action), 25 * len(state.history)))
            for event in state.score_events[before:]:
                records.append((REC_SCORE, "%d %d %s" % (event.seat, event.points, event.rule), -1))
        matches.append((records, list(state.scores)))
    return matches


def write_sessions(device, matches, first, count):
    """Journal sessions ``first`` .. ``first + count - 1`` on ``device`` as the table writes them."""
    ruleset = find_ruleset("muggins")
    for number in range(first, first + count):
        records, scores = matches[number % len(matches)]
        device.journal.start_session(ruleset.name, ruleset.hash, ["ann", "bob"], "bench", 1500000000 + 3600 * number)
        for rtype, payload, tenths in records:
            device.journal.log(rtype, payload, tenths)
        device.journal.end_session({"reason": "target", "scores": scores})


def fill(target, sessions, matches, say=print):
    """Store ``sessions`` sessions in ``target`` through the journal and the pull path (what it
    holds already counts); returns (seconds spent in pulls, records pulled)."""
    db = Database.open(target)
    written = db.session_count()
    pulling = pulled = 0
    with tempfile.TemporaryDirectory(prefix="bench-db-device-") as root:
        device = LocalTransport(root, timeout=2.0)
        device.hello()
        while written < sessions:
            write_sessions(device, matches, written, min(BATCH, sessions - written))
            started = time.perf_counter()
            pulled += pull_journal(device, db, say=say)[0]
            pulling += time.perf_counter() - started
            written = db.session_count()
        device.journal.close()
    db.close()
    return pulling, pulled


def in_process_ms(argv):
    """Wall times of the command's handler in this process, output to /dev/null: (median,
    fastest); on a loaded machine the fastest is the command's own cost most nearly."""
    times = []
    with open(os.devnull, "w") as devnull, contextlib.redirect_stdout(devnull):
        for _ in range(5):
            args = cli.build_parser().parse_args(argv)
            started = time.perf_counter()
            status = cli.run(args)
            times.append(1000 * (time.perf_counter() - started))
            assert status == 0, argv
    return statistics.median(times), min(times)


def tool_command():
    """How a user starts the tool: the ``tiletable`` script beside this Python, else ``-m``."""
    script = os.path.join(os.path.dirname(sys.executable), "tiletable")
    return [script] if os.path.exists(script) else [sys.executable, "-m", "tiletable_host"]


def process_ms(argv, bytecode_cache):
    """Median wall time of ``argv`` as a new process, output to /dev/null. ``bytecode_cache``
    (a folder): modules are compiled once into it and loaded from it after (a warm-up run
    fills it); None: compiled from source at every start."""
    env = dict(os.environ)
    env.pop("PYTHONPYCACHEPREFIX", None)
    if bytecode_cache is None:
        env["PYTHONDONTWRITEBYTECODE"] = "1"
    else:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = bytecode_cache  # not __pycache__ folders in the checkout
        subprocess.run(argv, stdout=subprocess.DEVNULL, check=True, env=env)
    times = []
    for _ in range(5):
        started = time.perf_counter()
        subprocess.run(argv, stdout=subprocess.DEVNULL, check=True, env=env)
        times.append(1000 * (time.perf_counter() - started))
    return statistics.median(times)


def verdict(ms):
    return "met" if ms <= TARGET_MS else "not met"


def throughput(engines, count, matches):
    """The same ``count`` sessions pulled into a new database of each engine, side by side."""
    print("pull throughput, %d sessions into a new database of each (time in pull_journal only):" % count)
    for name, target in engines:
        seconds, records = fill(target, count, matches)
        print("  %-10s  %6.1f s  %7.0f records/s  %6.1f sessions/s  (%d records)" % (
            name, seconds, records / seconds, count / seconds, records), flush=True)


def commands(name, target, last, tool, cache):
    """`sessions` and `show` on ``target``: in the command, and as a new process."""
    for argv in (["sessions", "--db", target], ["show", str(last), "--db", target]):
        (inside, fastest), whole, uncached = in_process_ms(argv), process_ms(tool + argv, cache), process_ms(tool + argv, None)
        print("  %-10s  tiletable %-10s  %6.1f ms in the command (%s; fastest %.1f ms), %4.0f ms as a new process (%s; %.0f ms"
              " with no bytecode cache)" % (name, " ".join(argv[:2] if argv[0] == "show" else argv[:1]), inside, verdict(inside),
                                           fastest, whole, verdict(whole), uncached), flush=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=10000, help="sessions to store (default: %(default)s)")
    parser.add_argument("--db", default=os.path.join(tempfile.gettempdir(), "tiletable-bench-10k.db"), help="SQLite database to fill or reuse")
    parser.add_argument("--pull-sessions", type=int, default=300, help="sessions pulled into each engine for its throughput (default: %(default)s)")
    args = parser.parse_args()
    sys.path.insert(0, os.path.join(ROOT, "tools"))
    import pgcluster

    reason = pgcluster.available()
    if reason:
        sys.exit("bench/db_scale.py: %s" % reason)
    matches = play_matches(MATCHES)
    with pgcluster.PgCluster.start() as cluster, tempfile.TemporaryDirectory(prefix="bench-db-") as folder:
        print("load average %.1f on %d cores at the start (other programs slow every figure)" % (os.getloadavg()[0], os.cpu_count()))
        throughput([("SQLite", os.path.join(folder, "pull.db")), ("PostgreSQL", cluster.create_database())], args.pull_sessions, matches)

        started = time.perf_counter()
        fill(args.db, args.sessions, matches, say=lambda line: None)  # a reused file's journal is another one: no news
        db = Database.open(args.db)
        sessions, records = db.session_count(), db.record_count()
        last = db.sessions()[-1]["id"]
        db.close()
        print("SQLite: %d sessions, %d records, %.0f MB (%.0f s to fill or reuse it through the pull path)" % (
            sessions, records, os.path.getsize(args.db) / 1e6, time.perf_counter() - started), flush=True)
        server = cluster.create_database("club")
        started = time.perf_counter()
        with open(os.devnull, "w") as devnull, contextlib.redirect_stdout(devnull):
            assert cli.run(cli.build_parser().parse_args(["db", "copy", args.db, server])) == 0
        copying = time.perf_counter() - started
        print("tiletable db copy into PostgreSQL: %.0f s (%.0f records/s)" % (copying, records / copying), flush=True)
        db = Database.open(server)
        last_on_server = db.sessions()[-1]["id"]
        assert (db.session_count(), db.record_count()) == (sessions, records)
        db.close()

        print("load average %.1f while measuring [target %d ms]" % (os.getloadavg()[0], TARGET_MS))
        tool = tool_command()
        with tempfile.TemporaryDirectory(prefix="bench-db-pyc-") as cache:
            print("  start-up alone: python %.0f ms, %s --version %.0f ms" % (
                process_ms([sys.executable, "-c", "pass"], cache), " ".join(os.path.basename(a) for a in tool),
                process_ms(tool + ["--version"], cache)))
            commands("SQLite", args.db, last, tool, cache)
            commands("PostgreSQL", server, last_on_server, tool, cache)


if __name__ == "__main__":
    main()
