"""`tiletable sessions` and `show` on years of sessions: 10,000 by default, stored through the
real pull path (the firmware's Journal, the link protocol in-process, pull_journal into SQLite).

    .venv/bin/python bench/db_scale.py [--sessions 10000] [--db /tmp/tiletable-10k.db]

A handful of random Muggins matches are played once; their records are written into the
device's journal again and again (as the table writes them), pulled and acknowledged in
batches, so the journal rotates as on a Pico. An existing --db that already holds the sessions
is reused. Then each command runs five times in this process (its handler, output to
/dev/null) and five times as a user runs it: a new process of the `tiletable` script, with
bytecode cached as pip caches it when it installs the wheel (this environment may set
PYTHONDONTWRITEBYTECODE, under which every module is compiled again at every start; that
figure is printed too). The median of each is printed against the 100 ms target.
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


def fill(db_path, sessions):
    """Store ``sessions`` sessions in ``db_path`` through the journal and the pull path."""
    ruleset = find_ruleset("muggins")
    db = Database.open(db_path)
    started = time.perf_counter()
    written = db.session_count()
    if written < sessions:
        matches = play_matches(MATCHES)
    with tempfile.TemporaryDirectory(prefix="bench-db-device-") as root:
        device = LocalTransport(root, timeout=2.0)
        device.hello()
        while written < sessions:
            for number in range(written, min(written + BATCH, sessions)):
                records, scores = matches[number % len(matches)]
                device.journal.start_session(ruleset.name, ruleset.hash, ["ann", "bob"], "bench", 1500000000 + 3600 * number)
                for rtype, payload, tenths in records:
                    device.journal.log(rtype, payload, tenths)
                device.journal.end_session({"reason": "target", "scores": scores})
            pull_journal(device, db)
            written = db.session_count()
        device.journal.close()
    print("stored %d sessions, %d records, %.0f MB in %.0f s (through the pull path)" % (
        written, db.record_count(), os.path.getsize(db_path) / 1e6, time.perf_counter() - started), flush=True)
    db.close()


def in_process_ms(argv):
    """Median wall time of the command's handler in this process, output to /dev/null."""
    times = []
    with open(os.devnull, "w") as devnull, contextlib.redirect_stdout(devnull):
        for _ in range(5):
            args = cli.build_parser().parse_args(argv)
            started = time.perf_counter()
            status = cli.run(args)
            times.append(1000 * (time.perf_counter() - started))
            assert status == 0, argv
    return statistics.median(times)


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


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=10000, help="sessions to store (default: %(default)s)")
    parser.add_argument("--db", default=os.path.join(tempfile.gettempdir(), "tiletable-bench-10k.db"), help="database to fill or reuse")
    args = parser.parse_args()
    fill(args.db, args.sessions)
    db = Database.open(args.db)
    last = db.sessions()[-1]["id"]
    db.close()
    print("load average %.1f on %d cores while measuring (other programs slow every figure)" % (os.getloadavg()[0], os.cpu_count()))
    tool = tool_command()
    with tempfile.TemporaryDirectory(prefix="bench-db-pyc-") as cache:
        print("start-up alone: python %.0f ms, %s --version %.0f ms" % (
            process_ms([sys.executable, "-c", "pass"], cache), " ".join(os.path.basename(a) for a in tool), process_ms(tool + ["--version"], cache)))
        for argv in (["sessions", "--db", args.db], ["show", str(last), "--db", args.db]):
            inside, whole, uncached = in_process_ms(argv), process_ms(tool + argv, cache), process_ms(tool + argv, None)
            print("tiletable %s: %.1f ms in the command (%s), %.0f ms as a new process (%s; %.0f ms with no bytecode cache)"
                  " [target %d ms]" % (" ".join(argv[:2] if argv[0] == "show" else argv[:1]), inside, verdict(inside), whole,
                                       verdict(whole), uncached, TARGET_MS), flush=True)


if __name__ == "__main__":
    main()
