"""Headless Chromium on ``tiletable serve``'s live view: screenshots, and a watched game.

    python tools/live_browser.py docs


writes ``live-muggins.png`` and ``live-moon.png`` (games played on the simulated table with
its pads and buttons, by ``run``'s scripted players and by ``MoonScript``, stopped in the
middle of the first hand) and ``live-sniff.png``, ``live-dasan.png``, ``live-columns.png``,
``live-texas-42.png``, ``live-mexican-train.png``:
the simulated table is not scripted for those, so these show positions the engine reached in
a random match, journalled and replayed exactly as a table's session would be, published to
the same live page.
"""
import os
import random
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:0] = [os.path.join(ROOT, "host"), os.path.join(ROOT, "tests")]

import tiletable_host  # noqa: E402,F401  (puts firmware/ on sys.path)
from engine.families_play import Rng, choose  # noqa: E402
from tiletable.engine.rulesets import find_ruleset  # noqa: E402
from tiletable.engine.state import CHANCE, SIMULTANEOUS, TERMINAL  # noqa: E402
from tiletable.record import REC_ACTION, REC_SCORE  # noqa: E402
from tiletable_host.serve.command import WebServer  # noqa: E402
from tiletable_host.serve.live import Hub, picture  # noqa: E402
from tiletable_host.sessionlog import replay_records  # noqa: E402

BROWSER_SCRIPT = os.path.join(ROOT, "tests", "browser", "live_page.mjs")
NAMES = ("ann", "bob", "cy", "di")


def browser(*args, timeout=120):
    """Run the Chromium driver (tests/browser/live_page.mjs); its JSON lines, parsed."""
    import json

    done = subprocess.run(["node", BROWSER_SCRIPT] + list(args), cwd=ROOT, capture_output=True, text=True, timeout=timeout)
    if done.returncode != 0:
        raise RuntimeError("the browser driver failed: %s" % done.stderr.strip()[-800:])
    return [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]


def engine_position(name, seed, predicate, limit=4000):
    """Play a random match of preset ``name`` until ``predicate(state)`` holds (checked after
    every action); returns the state and the journal records ``(seq, type, payload)`` it made."""
    ruleset = find_ruleset(name)
    state = ruleset.new_state()
    rng = Rng(seed)
    records = []
    for _ in range(limit):
        if state.current_player() == TERMINAL:
            break
        action = choose(state, rng, bid_rarely=True)
        events = state.play(action)
        records.append((len(records) + 2, REC_ACTION, state.action_str(action).encode()))
        records.extend((len(records) + 2, REC_SCORE, ("%d %d %s" % (e.seat, e.points, e.rule)).encode()) for e in events)
        if predicate(state):
            return state, records
    raise RuntimeError("no position of %s matched within %d actions" % (name, limit))


def position_picture(name, seed, predicate):
    """The live picture of an engine position, as a table in that position would be shown."""
    state, records = engine_position(name, seed, predicate)
    names = list(NAMES[: state.players])
    replay = replay_records({"players": names}, state.ruleset, records)
    to_act = state.current_player()
    snapshot = {
        "ruleset": name,
        "hand": state.hand_number,
        "players": state.players,
        "scores": list(state.scores),
        "to_act": to_act if to_act >= 0 else {CHANCE: "chance", SIMULTANEOUS: "all"}.get(to_act, "over"),
        "mode": "game",
    }
    return picture(snapshot, names, replay)


POSITIONS = {
    # Sniff's sniff: a double with its arms up and down, several tiles on the line
    "sniff": lambda s: s.layout.spinner >= 0 and s.layout.tiles >= 11,
    # several piles after a few battles
    "columns": lambda s: sum(1 for c in s.columns if c) == 3 and len(s.won[0]) + len(s.won[1]) >= 4,
    # a combination of several cards to beat, mid-hand
    "dasan": lambda s: s.last_player is not None and s.cards_played >= 12 and s.last is not None and s.last[0] * s.last[1] >= 2,
    # Texas 42 mid-hand: trumps named, three tricks taken, two tiles of the fourth down
    "texas-42": lambda s: s.trick_number >= 3 and len(s.trick) == 2,
    # Mexican Train mid-round: a long train, a marker out, a double to cover
    "mexican-train": lambda s: s.obligation() is not None and any(s.markers) and max(len(t) for t in s.trains) > 8,
}


def shoot_positions(out_dir, seed=3):
    """Screenshots of the Sniff, column game, Da San, Texas 42 and Mexican Train positions;
    returns console errors."""
    errors = []
    for name, predicate in POSITIONS.items():
        hub = Hub()
        hub.publish("table 1 (%s)" % name, position_picture(name, seed, predicate))
        server = WebServer(hub, os.path.join(tempfile.mkdtemp(), "none.db"))
        try:
            lines = browser("shot", server.start(), os.path.join(out_dir, "live-%s.png" % name), "1100", "640")
        finally:
            server.stop()
        errors.extend(lines[-1]["errors"])
    return errors


class _Enough(Exception):
    """Raised by the play callback to stop the scripted game mid-hand."""


class WatchedTable:
    """The simulated table with a game of ``ruleset`` (Muggins or Moon) started, watched
    through its port by a ``PortWatcher`` as ``serve`` does, its live page served;
    ``play(n, on_play)`` plays ``n`` plays of the first hand (Muggins with ``run``'s scripted
    players, Moon with ``MoonScript``). Use as a context manager."""

    def __init__(self, ruleset="muggins", seed=5):
        self.ruleset = ruleset
        self.names = ["ann", "bob", "cy"] if ruleset == "moon" else ["ann", "bob"]
        self.seed = seed

    def __enter__(self):
        from tiletable_host.connect import open_link
        from tiletable_host.serve.live import PortWatcher
        from tiletable_host.simtable import SimulatedTable

        self.table = SimulatedTable.start()
        self.hub = Hub()
        no_db = os.path.join(tempfile.mkdtemp(), "none.db")  # presets only, never the user's database
        self.watcher = PortWatcher(self.hub, self.table.port, no_db)
        self.server = WebServer(self.hub, no_db)
        start_game(open_link, self.table.port, self.ruleset, self.names)
        self.watcher.start()
        self.url = self.server.start()
        return self

    def play(self, plays, on_play=None):
        """Play ``plays`` plays (fewer if the hand ends first); ``on_play()`` after each."""
        from tiletable_host.run import ScriptedGame

        count = []

        def after(hand_over):
            if hand_over:
                return
            count.append(1)
            if on_play is not None:
                on_play()
            if len(count) >= plays:
                raise _Enough()

        if self.ruleset == "moon":
            self.game = MoonScript(self.table.control, self.seed, lambda: after(False))
            play = lambda: self.game.play(plays)  # noqa: E731
        else:
            self.game = ScriptedGame(self.table.control, self.table.control, find_ruleset(self.ruleset), 2, self.seed, after)
            play = lambda: self.game.play(1)  # noqa: E731
        try:
            play()
        except _Enough:
            pass
        return len(count)

    def shows_the_table(self):
        """Whether the live view has caught up with the table: the scores and the seat to act
        the table reports are the ones it publishes."""
        snap = self.table.control.state()
        pictures = self.hub.tables()[1]
        to_act = snap.get("to_act") if isinstance(snap.get("to_act"), int) else None
        return bool(pictures) and pictures[0].get("scores") == snap.get("scores") and pictures[0].get("to_act") == to_act

    def __exit__(self, *exc):
        self.watcher.stop()
        self.server.stop()
        self.table.stop()


def wait_for(predicate, seconds=20.0):
    """True once ``predicate()`` holds (polled every 50 ms), False after ``seconds``."""
    import time

    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.05)
    return False


class MoonScript:
    """Plays Moon on the simulated table the way people would (docs/TABLE.md "Moon"): hands
    laid on the seat pads and OK, the first bidder bids 4 and the others pass with the seat
    buttons, the bidder keeps its hand with a press, and each tile is laid on the trick zone
    (a long press names the suit of a lead when the table asks), the zone cleared after each
    trick. A PC-side engine makes the choices and must agree with the table at every step."""

    def __init__(self, control, seed, on_play):
        from tiletable.profiles import profile_for

        self.control = control
        self.ruleset = find_ruleset("moon")
        self.state = self.ruleset.new_state(3)
        self.rng = random.Random(seed)
        self.profile = profile_for("moon", 3, "trick")
        self.on_play = on_play

    def play(self, plays):
        """Deal, bid, keep, then lay ``plays`` tiles (fewer if the hand ends first); ``on_play()``
        after each player's action (a call, the keep, a tile)."""
        from tiletable.engine.tiles import tile_str

        from tiletable.engine.trick import TILES

        state = self.state
        tiles = list(TILES)
        self.rng.shuffle(tiles)
        for seat in range(3):
            hand = [tile_str(t) for t in tiles[seat * 7 : seat * 7 + 7]]
            self.control.place(self.profile.seat_zone[seat], *hand)
            self.control.remove(self.profile.seat_zone[seat])
            for text in hand:
                self._apply("D%d:%s" % (seat, text))
        self._apply("W:?")
        self.control.press("ok")
        self._check("the deal")
        self._call(state.current_player(), 1)  # bid 4
        while state.current_player() >= 0 and self._legal("B%d:PASS" % state.current_player()):
            self._call(state.current_player(), 0)
        self.control.press(state.current_player())  # the bidder keeps its hand
        self._apply("KEEP")
        self._check("KEEP")
        self.on_play()
        hand = state.hand_number
        while plays > 0 and state.hand_number == hand:
            plays -= 1
            seat = state.current_player()
            tile = state.action_str(self.rng.choice(list(state.legal_actions()))).split("/")[0]
            self.control.place(self.profile.trick_zone, tile)
            options = []  # as the table reads a tile on the trick zone: as is, or naming a suit
            for text in (tile, tile + "/" + tile[0], tile + "/" + tile[-1]):
                if text not in options and self._legal(text):
                    options.append(text)
            if len(options) > 1:
                self.control.press(seat, "long")  # the suit the table offers first
            self._apply(options[0])
            if not state.trick:
                self.control.remove(self.profile.trick_zone)
            self._check(options[0])
            self.on_play()

    def _legal(self, text):
        try:
            return self.state.is_legal(self.state.parse_action(text))
        except Exception:
            return False

    def _call(self, seat, presses):
        for _ in range(presses):
            self.control.press(seat)
        self.control.press(seat, "long")
        word = "4" if presses else "PASS"
        self._apply("B%d:%s" % (seat, word))
        self._check("B%d:%s" % (seat, word))
        self.on_play()

    def _apply(self, text):
        self.state.apply(self.state.parse_action(text))

    def _check(self, step):
        snap = self.control.state()
        if snap.get("actions") != len(self.state.history) or snap.get("scores") != self.state.scores:
            raise RuntimeError("after %s the table has %s actions and scores %s, the script %d and %s" % (step, snap.get("actions"), snap.get("scores"), len(self.state.history), self.state.scores))


def shoot_table(out_dir, ruleset, plays):
    """The simulated table's live view after ``plays`` plays of ``ruleset``; returns console errors."""
    with WatchedTable(ruleset) as watched:
        watched.play(plays)
        if not wait_for(watched.shows_the_table):
            raise RuntimeError("the live view did not catch up with the table in 20 s")
        return browser("shot", watched.url, os.path.join(out_dir, "live-%s.png" % ruleset), "1100", "560")[-1]["errors"]


def watch_plays(plays, pace, ruleset="muggins", each_seen=False):
    """Play ``plays`` plays of ``ruleset`` on the watched simulated table, ``pace`` seconds apart, while
    Chromium shows the live page; returns ``(play times, [(seq, time seen, text)], console errors)``.
    A play's time is when the table had taken it (the scripted player checks the table's state).
    The page shows a table's latest play, so a play followed by the next before the page drew it
    is never seen: ``each_seen`` waits (up to a minute) for the page to show each play before the
    next, so that every play is seen however busy the machine (the test); without it plays come
    at ``pace`` as people make them (bench/live_view.py times how soon each shows)."""
    import json
    import threading
    import time

    lines = []
    arrived = threading.Condition()

    def read(stream):
        for line in stream:
            if line.startswith("{"):
                with arrived:
                    lines.append(json.loads(line))
                    arrived.notify_all()

    def plays_seen():
        return sum(1 for line in lines if "seq" in line)

    with WatchedTable(ruleset) as watched:
        proc = subprocess.Popen(["node", BROWSER_SCRIPT, "watch", watched.url], cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        reader = threading.Thread(target=read, args=(proc.stdout,), daemon=True)
        try:
            if json.loads(proc.stdout.readline()).get("ready") is not True:
                raise RuntimeError("the browser did not open the live page")
            reader.start()
            times = []

            def on_play():
                times.append(time.time())
                if each_seen:
                    with arrived:
                        arrived.wait_for(lambda: plays_seen() >= len(times), timeout=60)
                time.sleep(pace)

            watched.play(plays, on_play)
            if not each_seen:
                time.sleep(1.5)  # the last plays' time to show, as a person would look on
            proc.stdin.write("stop\n")
            proc.stdin.close()
            proc.wait(timeout=60)
            reader.join(timeout=60)
        finally:
            if proc.poll() is None:
                proc.kill()
    seen = [(line["seq"], line["t"], line["text"]) for line in lines if "seq" in line]
    return times, seen, lines[-1]["errors"]


def start_game(open_link, port, ruleset, names):
    """Install the presets on the table at ``port`` and start a game, then let go of the port."""
    from tiletable_host import sync as syncmod

    class Options:
        timeout = 2.0
        link = None

    Options.port = port
    link = open_link(Options)
    try:
        syncmod.sync_documents(link, syncmod.collect_documents([], True), os.path.join(tempfile.mkdtemp(), "sync.db"))
        link.game_start(ruleset, names)
    finally:
        link.close()


def main(argv):
    out_dir = argv[0] if argv else os.path.join(ROOT, "docs")
    errors = shoot_table(out_dir, "muggins", 14) + shoot_table(out_dir, "moon", 15) + shoot_positions(out_dir)
    print("screenshots in %s; console errors: %s" % (out_dir, errors or "none"))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
