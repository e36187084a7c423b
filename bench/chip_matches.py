"""A full match of every game on an emulated RP2040, played through zones and buttons only.

Issue 37: every build of every supported MicroPython release must boot, pass the self test and
play a whole match of each of the 11 games. Boots the UF2 in the rp2emu harness as
``bench/chip.py`` does (deploy, first-boot self test), then for each game the scripted player
of the simulated table's tests (tests/sim/player.py: it deals virtual pieces, lays them on the
pads and presses the buttons, choosing every move with its own engine state, which knows every
hand) starts the game with the menu's buttons and plays it to its end. At the end the table's
scores (its STATE over the link) must equal the player's. Per game it prints the result, the
hands, the placements, placement -> first LED change p50/p95/max (n) of every placement and of
those of one piece (a hand scan or a reveal is several; a placement counts when the LEDs changed
before the player's next action), the lowest free heap after a collection from the moment the
table shows the game to its end, the chip's restarts (a stock build restarts into a game that
finds no room) and watchdog resets, and the emulated device time.

Usage (the checkout's venv python; nothing is written in the repo)::

    TILETABLE_UF2=/path/to/frozen/firmware.uf2 .venv/bin/python bench/chip_matches.py --frozen
    TILETABLE_UF2=... .venv/bin/python bench/chip_matches.py --stock --games muggins,moon
    TILETABLE_UF2=... .venv/bin/python bench/chip_matches.py --target muggins=61 --target buki=1

``--target GAME=N`` ends GAME's match at N instead of where its preset ends it: N points (a
game played to a target), N games (Buki), N hands (Da San, whose preset plays until a player's
chips are gone), N rounds (Mexican Train); the column game is one hand. The ruleset of that name is synced to the table
with the new end (the player's engine plays the same ruleset) and the output says so: "match
to 61 points, not the preset's 200". Environment as ``bench/chip.py``
(``TILETABLE_UF2``, ``TILETABLE_ELF``, ``RP2EMU``); without a firmware it says so and exits 0.
"""
import argparse
import json
import os
import shutil
import signal
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import chip  # noqa: E402  (puts this checkout's host, firmware and tests/sim on the path)

sys.path[:0] = [os.path.join(chip.ROOT, "sim", "cpython"), os.path.join(chip.ROOT, "sim")]  # the player's imports, as tests/conftest.py

from player import ClimbPlayer, ColumnPlayer, FortytwoPlayer, LinePlayer, MoonPlayer, TrainPlayer, table_scores  # noqa: E402
from tiletable.engine.cards import parse_card  # noqa: E402
from tiletable.engine.rulesets import find_ruleset  # noqa: E402
from tiletable.families import games  # noqa: E402

# each family's scripted player, the seats it plays each preset with and its options: those of
# tests/sim/test_table_properties.py's matches (a preset not named here plays with its fewest)
FAMILY_PLAYERS = {"line": LinePlayer, "trick": MoonPlayer, "fortytwo": FortytwoPlayer, "column": ColumnPlayer, "climb": ClimbPlayer, "train": TrainPlayer}
SEATS = {"muggins": 2, "block": 3, "draw": 2, "sebastopol": 4, "bergen": 2, "sniff": 2, "matador": 2, "buki": 4, "moon": 3, "columns": 2, "dasan": 3, "mexican-train": 3}
OPTIONS = {"muggins": {"scan": (0,)}, "draw": {"scan": (0, 1)}}
# The harness names a tile by one digit a half (rp2emu's tray-models.mjs, parseTile), so Mexican
# Train plays on the emulated chip from a double-nine set (55 tiles, 10 rounds from [9|9]), the
# variant MORE-GAMES §5 names: the same code, a smaller set, for 3 (4 hands of 15 need 60 tiles).
HARNESS_PARAMS = {"mexican-train": {"engine_max": 9, "rounds": 10}}


def matches():
    """(player class or None, game, players, player options) for every preset, in the menu's
    order: a game of a family with no scripted player is reported, not skipped."""
    out = []
    for entry in games():
        name, family = entry[0], entry[1]
        players = SEATS.get(name) or find_ruleset(name).player_counts()[0]
        out.append((FAMILY_PLAYERS.get(family), name, players, OPTIONS.get(name, {})))
    return out


ACTIONS = ("place", "remove", "press", "wait", "hold", "reset")  # control commands that move the table
START_WAIT_MS = 200  # device time between the looks at a starting game's STATE
START_LOOKS = 100  # looks before a start that shows no game is a failure (20 s of device time)
ANSWER_WAIT_MS = 3000  # device time a player waits at most for the table's answer to a piece laid
ANSWER_POLL_MS = 20  # device time between the looks for that answer
# A tag answers 5.1 ms after it has power (ISO/IEC 14443-3 §6.1): an LED change sooner after a
# piece was laid, or before the record it needed was read, is the play before's (a trick's
# winner shown, a flash), not this piece's answer.
FIELD_SETTLE_MS = 5.1
# When the first LED change was the play before's, the harness notes no later one: the player
# then gives the table this long, as a person waits for the table to take a tile.
UNSEEN_ANSWER_WAIT_MS = 600
RESTART_WAIT_MS = 6000  # device time for machine.reset(), the boot and the start it was for


def emulator_item(name):
    """The harness's name of a piece the player names as the simulated table does: tiles
    ``a-b`` and ``cN`` stay, a card by name (``H4``, ``S10``) becomes ``c<id>``."""
    if name[:1] in "CDHS" and "-" not in name:
        return "c%d" % parse_card(name)
    return name


def parse_targets(texts, ends):
    """``["muggins=61", ...]`` as ``{game: N}``, each checked against ``ends`` (``{game: its
    preset's match_end(), None for a game played to one end only}``).

    :raises ValueError: with a one-line reason for a malformed or impossible override.
    """
    targets = {}
    for text in texts:
        name, sep, value = text.partition("=")
        if not sep or not value.strip().isdigit():
            raise ValueError("--target %s: give GAME=N, e.g. muggins=61" % text)
        name = name.strip()
        if name not in ends:
            raise ValueError("--target %s: no game %r (games: %s)" % (text, name, ", ".join(ends)))
        if ends[name] is None:
            raise ValueError("--target %s: a match of %s has one end only" % (text, name))
        if int(value) < 1:
            raise ValueError("--target %s: a match needs at least 1" % text)
        targets[name] = int(value)
    return targets


# what ends a match, by its parameter: the words for it in the report
END_WORDS = {"target": "to %d points", "num_games": "of %d games", "hands": "of %d hands", "rounds": "of %d rounds"}


def match_end(name):
    """``(parameter, preset value)`` that ends a match of preset ``name`` (its target points, a
    number of games, Da San's hands, where the preset's 0 means until a player's chips are
    gone), or None for a game of one hand."""
    params = find_ruleset(name).params
    for key in (params.get("match_end"), "target", "hands", "rounds"):
        if key in END_WORDS and key in params:
            return key, params[key]
    return None


def override_text(key, value, preset):
    """``match to 61 points, not the preset's 200``."""
    was = "until a player's chips are gone" if key == "hands" and preset == 0 else END_WORDS[key].split(" ", 1)[1] % preset
    return "match %s, not the preset's %s" % (END_WORDS[key] % value, was)


def answer_ms(lat, window_ms=None):
    """The harness's first LED change after a piece was laid (its ``latency`` record), in ms,
    when it can be the table's answer to that piece: not within 5.1 ms, and not before the
    zone's first record READ since (a piece the table had not read before is answered once its
    record is read; a READ after ``window_ms``, the next action, is another piece's). None: no
    answer seen. (The field may have been on when the piece was laid: the watched hot zone.)"""
    led = lat.get("led")
    read = lat.get("read")
    if led is None or led < FIELD_SETTLE_MS:
        return None
    if read is not None and (window_ms is None or read < window_ms) and led < read:
        return None
    return led


def tile_led(placements, latency):
    """Tile -> first LED change in ms for each of the bench's ``placements`` (``{"next_ms"}``:
    the device time of the player's next action) joined with the harness's ``latency``
    records (one per ``place`` since ``clearlatency``, in order). A change after the next
    action is that action's, and one before the zone could read the tile an earlier play's
    (``answer_ms``): None, not counted."""
    if len(latency) != len(placements):
        raise ValueError("%d placements but %d latency records" % (len(placements), len(latency)))
    out = []
    for rec, lat in zip(placements, latency):
        window = rec["next_ms"] - lat["t0"] if rec.get("next_ms") is not None and lat.get("t0") is not None else None
        led = answer_ms(lat, window)
        if led is not None and window is not None and led >= window:
            led = None
        out.append(led)
    return out


def resets_since(resets, before):
    """(restarts, watchdog resets) among the harness's ``resets`` after the first ``before``:
    machine.reset() is a watchdog trigger too ("watchdog trigger (machine.reset)"), a restart
    the firmware chose; a watchdog reset is a loop that starved it ("watchdog timeout")."""
    new = resets[before:]
    return len(new), sum(1 for r in new if "watchdog timeout" in r["reason"])


def figure_text(summary):
    """``p50/p95/max (n)`` in whole ms, ``-`` for none."""
    return "-" if not summary.get("n") else "%d/%d/%d (%d)" % (summary["p50"], summary["p95"], summary["max"], summary["n"])


def game_line(row):
    """One game's row of the report."""
    heap = "%.1f KB" % (row["lowest_heap"] / 1024.0) if row.get("lowest_heap") is not None else "-"
    text = "%-10s %2dP  %-5s %5d %10d  %-16s %-16s %9s %8d %8d %9.1f s" % (
        row["game"], row["players"], "ok" if row["result"] == "ok" else "FAIL", row["hands"], row["placements"], figure_text(row["tile_led"]),
        figure_text(row.get("one_piece_led", {})), heap, row["restarts"], row["watchdog"], row["device_s"])
    if row.get("override"):
        text += "  (%s)" % row["override"]
    if row["result"] != "ok":
        text += "\n    %s" % row["result"]
    return text


def totals_line(rows, wanted, device_s, wall_s):
    """The run's last line: the matches that ended right, the chip's restarts in play."""
    played = sum(1 for r in rows if r["result"] == "ok")
    return "%d of %d matches played to their end, the table's scores equal to the player's; in play %d restarts, %d watchdog resets; device time %.1f s in all (boot, deploy and self test included), wall %.0f s" % (
        played, wanted, sum(r["restarts"] for r in rows), sum(r["watchdog"] for r in rows), device_s, wall_s)


HEADER = "%-10s %3s  %-5s %5s %10s  %-16s %-16s %9s %8s %8s %11s\n%38s %-33s" % (
    "game", "", "match", "hands", "placements", "laid->first LED", "one piece laid", "heap low", "restarts", "watchdog", "device time",
    "", "p50/p95/max ms (n), emulated")


class ChipTable(chip.Control):
    """The control client the scripted players drive: table-emu's control port for zones and
    buttons (pieces named as the harness names them), the link's STATE for the table's state
    (the harness has no ``state``), and a record of each placement's window: until the
    player's next action. A press of OK that starts a game waits, as people do, until the table
    shows the game (``starting``), following the chip's restart into it."""

    def __init__(self, port, tty):
        chip.Control.__init__(self, port)
        self.tty = tty
        self.link = None
        self.placements = []
        self.starting = False
        self.firmware = None  # the HELLO reply's
        self._open = None

    def command(self, line):
        if self._open is not None and line.split(" ", 1)[0] in ACTIONS:
            self._open["next_ms"] = self.now()
            self._open = None
        return chip.Control.command(self, line)

    def place(self, zone, *items):
        reply = self.command("place %d %s" % (zone, " ".join(emulator_item(i) for i in items)))
        self._open = {"zone": zone, "items": len(items), "next_ms": None}
        self.placements.append(self._open)
        self._await_answer()
        return reply

    def _await_answer(self):
        """As people play, the next move comes once the table has answered the piece just laid
        (its first LED change; ``ANSWER_WAIT_MS`` at most). Laid at the pace the host happens
        to drive the emulator, two pieces could reach a zone within one scan, which the table
        rightly refuses ("2 tiles laid at once"): bench/chip.py's paced mode measures the
        answer to tiles laid 100 ms apart and more."""
        for _ in range(ANSWER_WAIT_MS // ANSWER_POLL_MS):
            records = self.json("latency")
            if records and answer_ms(records[-1]) is not None:
                return
            if records and records[-1].get("led") is not None:  # the play before's LEDs
                chip.Control.command(self, "wait %d" % UNSEEN_ANSWER_WAIT_MS)
                return
            chip.Control.command(self, "wait %d" % ANSWER_POLL_MS)

    def remove(self, zone, *items):
        return self.command(("remove %d %s" % (zone, " ".join(emulator_item(i) for i in items))).rstrip())

    def press(self, button, how="short"):
        reply = self.command("press %s %s" % (button, how))
        if self.starting and str(button) == "ok":
            self.starting = False
            self.wait_for_game()
        else:
            # An OK may hold the table's loop for a second (the deal of unseen pieces: Moon's
            # tiles, Da San's 54 cards): a tap meanwhile is kept (the buttons' IRQs time it)
            # and taken once the loop runs again. People look at the display before they go
            # on; the player waits for a STATE reply, which comes once the loop runs again.
            self.state()
        return reply

    def wait_for_game(self):
        """Until the table shows the game; the lowest heap is looked for from then on (a stock
        build's start that finds no room leaves it low until the chip restarts into the game)."""
        for _ in range(START_LOOKS):
            snap = self.state()
            if snap.get("mode") != "menu":
                chip.Control.command(self, "heapreset")
                return snap
            chip.Control.command(self, "wait %d" % START_WAIT_MS)
        raise RuntimeError("the table shows no game %d ms after OK: %r" % (START_LOOKS * START_WAIT_MS, snap))

    def state(self):
        """The table's STATE over the link; after the chip restarted (a stock build restarts
        into a game that finds no room), the link again once it is back."""
        from tiletable_host.transport_serial import SerialTransport

        failure = None
        for _ in range(3):
            try:
                if self.link is None:
                    self.link = SerialTransport(self.tty, timeout=chip.LINK_TIMEOUT_S)
                    self.firmware = self.link.hello()["firmware"]
                return self.link.state()
            except Exception as exc:
                failure = exc
                self.close_link()
                chip.Control.command(self, "wait %d" % RESTART_WAIT_MS)
        raise RuntimeError("no STATE over the link: %s" % failure)

    def close_link(self):
        if self.link is not None:
            try:
                self.link.close()
            except Exception:
                pass
            self.link = None


def overrides(name, target):
    """The parameters the bench plays preset ``name`` with instead of the preset's: the
    harness's (HARNESS_PARAMS), and the match's end at ``target`` (None: the preset's)."""
    params = dict(HARNESS_PARAMS.get(name, {}))
    if target:
        params[match_end(name)[0]] = target
    return params


def sync_overrides(bench, wanted, targets):
    """Install each game played with other parameters as a ruleset of the preset's name."""
    changed = {name: overrides(name, targets.get(name)) for name in wanted}
    changed = {name: params for name, params in changed.items() if params}
    if not changed:
        return
    folder = os.path.join(bench.workdir, "rulesets")
    os.makedirs(folder, exist_ok=True)
    for name, params in sorted(changed.items()):
        with open(os.path.join(folder, name + ".json"), "w") as f:
            json.dump(find_ruleset(name, **params).to_doc(), f)
    args = ["sync", folder, "--port", bench.emu.tty, "--timeout", str(chip.LINK_TIMEOUT_S), "--db", os.path.join(bench.workdir, "sync.db")]
    rc, out, err = chip.tiletable(args, bench.workdir, "sync", timeout=1200)
    if rc != 0:
        raise RuntimeError("tiletable sync of the targets failed (%s): %s" % (rc, (err or out).strip()[-300:]))
    chip.note("synced: %s" % ", ".join("%s %s" % (name, ", ".join("%s %s" % kv for kv in sorted(params.items()))) for name, params in sorted(changed.items())))


def play_one(table, match, seed, target, max_moves):
    """One match from the menu to its end; its row of figures."""
    player_class, name, players, options = match
    if player_class is None:
        family = [g[1] for g in games() if g[0] == name][0]
        return dict(_empty_row(name, players), result="no scripted player for the %s family (tests/sim/player.py)" % family)
    table.command("clearlatency")
    table.command("heapreset")
    resets_before = len(table.json("stats")["resets"])
    table.placements = []
    t0 = table.now()
    t_wall = time.monotonic()
    player = player_class(table, name, players, seed=seed, **options)
    end = match_end(name) if target else None
    params = overrides(name, target)
    if params:
        player.god = find_ruleset(name, **params).new_state(players)
    god = player.god
    result = "ok"
    try:
        table.starting = True
        god = player.play_match(max_moves=max_moves)
        table.command("wait 300")  # the last placement read and answered, its window closed
        snap = table.state()
        if not god.is_over():
            result = "the player's match is not over after %d moves; the table shows %s" % (player.moves, table.command("display"))
        elif snap.get("mode") != "over":
            result = "the match is over but the table's mode is %r (display %s)" % (snap.get("mode"), table.command("display"))
        elif snap.get("scores") != table_scores(god):
            result = "scores differ: table %s, player %s" % (snap.get("scores"), table_scores(god))
    except Exception as exc:
        result = "%s: %s (move %d, hand %d; last control command: %s; display %s)" % (
            type(exc).__name__, str(exc)[:300], player.moves, god.hand_number + 1, getattr(table, "last", "-"), _display(table))
        table.command("wait 300")  # the last placement's window closes
    latency = table.json("latency")
    heap = table.json("heap")
    stats = table.json("stats")
    restarts, watchdog = resets_since(stats["resets"], resets_before)
    low = heap.get("minAfterCollect") or heap.get("afterLastCollect") or {}
    led_note = None
    try:
        led = tile_led(table.placements, latency)
    except ValueError as exc:  # the harness kept fewer records than there were placements
        led, led_note = [None] * len(table.placements), str(exc)
    row = {
        "game": name,
        "players": players,
        "result": result,
        "hands": god.hand_number + 1,
        "placements": len(table.placements),
        "tile_led": chip.summary(led),
        "one_piece_led": chip.summary([v for v, rec in zip(led, table.placements) if rec["items"] == 1]),
        "placements_without_led": sum(1 for v in led if v is None),
        "led_note": led_note,
        "laid": [[rec["zone"], rec["items"], v] for rec, v in zip(table.placements, led)],  # zone, pieces, ms
        "latency": latency,  # the harness's records, for figures worked out again
        "lowest_heap": low.get("free"),
        "restarts": restarts,
        "watchdog": watchdog,
        "device_s": round((table.now() - t0) / 1000.0, 1),
        "wall_s": round(time.monotonic() - t_wall, 1),
        "scores": table_scores(god),
    }
    if end:
        row["override"] = override_text(end[0], target, end[1])
    if name in HARNESS_PARAMS:
        row["override"] = "; ".join(t for t in (row.get("override"), "played with %s" % ", ".join("%s %s" % kv for kv in sorted(HARNESS_PARAMS[name].items()))) if t)
    return row


def _empty_row(name, players):
    return {"game": name, "players": players, "hands": 0, "placements": 0, "tile_led": chip.summary([]), "placements_without_led": 0, "laid": [],
            "lowest_heap": None, "restarts": 0, "watchdog": 0, "device_s": 0.0, "wall_s": 0.0}


def _display(table):
    try:
        return chip.Control.command(table, "display")
    except Exception as exc:
        return "? (%s)" % exc


def back_to_menu(table):
    """OK closes a finished match's final screen; MENU leaves one that failed."""
    snap = table.state()
    if snap.get("mode") == "over":
        table.press("ok")
    elif snap.get("mode") != "menu":
        table.press("menu")
    snap = table.state()
    if snap.get("mode") != "menu":
        raise RuntimeError("the table did not return to its menu: %r" % snap)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    chip.add_chip_arguments(parser)
    every = matches()
    names = [m[1] for m in every]
    parser.add_argument("--games", default=",".join(names), help="games to play, in this order (default: every preset)")
    parser.add_argument("--target", action="append", default=[], metavar="GAME=N", help="end GAME's match at N (points, games, or Da San's hands), synced as a ruleset of the same name")
    parser.add_argument("--seed", type=int, default=1, help="the players' seed (default %(default)s)")
    parser.add_argument("--max-moves", type=int, default=3000, help="player steps before a match counts as not finished")
    parser.add_argument("--keep", action="store_true", help="keep the work folder (the emulator's logs, with its --events log of every piece, press and display change)")
    args = parser.parse_args(argv)
    wanted = [n for n in args.games.split(",") if n]
    unknown = [n for n in wanted if n not in names]
    if unknown:
        parser.error("no game %s (games: %s)" % (", ".join(unknown), ", ".join(names)))
    try:
        targets = parse_targets(args.target, {n: match_end(n) for n in names})
    except ValueError as exc:
        parser.error(str(exc))
    args.step_wall, args.fill_sessions = 1200.0, 0  # what chip.Bench's steps read

    harness = chip.find_harness("bench/chip_matches.py", args.frozen)
    if not isinstance(harness, tuple):
        return harness
    uf2, rp2emu, elf, frozen = harness
    workdir = tempfile.mkdtemp(prefix="tiletable-matches-")

    def on_term(signum, frame):  # the emulator is stopped on the way out
        raise SystemExit(128 + signum)

    signal.signal(signal.SIGTERM, on_term)
    bench = chip.Bench(args, os.path.abspath(uf2), elf, frozen, rp2emu, workdir)
    rows = []
    table = None
    t_wall = time.monotonic()
    try:
        chip.note("%s build %s; work folder %s" % ("frozen" if frozen else "stock", uf2, workdir))
        bench.emu = chip.Emulator(rp2emu, bench.uf2, elf, os.path.join(chip.ROOT, "hardware", "pinmap.json"), workdir, events=args.keep)
        bench.emu.wait_ready()
        bench.control = chip.Control(bench.emu.control_port)
        bench.deploy()
        bench.selftest()
        sync_overrides(bench, wanted, targets)
        table = ChipTable(bench.emu.control_port, bench.emu.tty)
        by_name = dict((m[1], m) for m in every)
        for name in wanted:
            row = play_one(table, by_name[name], args.seed, targets.get(name), args.max_moves)
            rows.append(row)
            chip.note(game_line(row) + "  [%.0f s wall]" % row["wall_s"])
            try:
                back_to_menu(table)
            except Exception as exc:
                chip.note("stopping: %s" % exc)
                break
        stats = table.json("stats")
    finally:
        if table is not None:
            table.close_link()
            table.close()
        if bench.control is not None:
            bench.control.close()
        if bench.emu is not None:
            bench.emu.stop()
        if args.keep:
            print("work folder kept: %s" % workdir)
        else:
            shutil.rmtree(workdir, ignore_errors=True)
    figures = {"build": "frozen" if frozen else "stock", "uf2": os.path.abspath(uf2), "firmware": table.firmware, "selftest": bench.figures.get("selftest"), "seed": args.seed, "games": rows}
    figures["resets"] = stats["resets"]
    figures["device_s"] = round(stats["nowMs"] / 1000.0, 1)
    figures["wall_s"] = round(time.monotonic() - t_wall, 1)
    print("\n%s build, %s: self test %s; a match of each game, emulated device time" % (figures["build"], uf2, figures["selftest"] or "not reported"))
    print(HEADER)
    for row in rows:
        print(game_line(row))
    played = sum(1 for r in rows if r["result"] == "ok")
    print(totals_line(rows, len(wanted), figures["device_s"], figures["wall_s"]))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(figures, f, indent=1)
    return 0 if played == len(wanted) else 1


if __name__ == "__main__":
    sys.exit(main())
