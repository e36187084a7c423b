"""Table-level properties checked at every step of a whole match played on the simulated table.

``ChaosControl`` is a ``LocalControl`` that a scripted player (``player.py``) plays through as
usual; ``chaotic(PlayerClass)`` makes the player hand each of its steps to the control, which
around the step, at random:

* **undo**: presses UNDO until the table is back before the step, puts the pieces back as
  they lay before it, checks the table is exactly as it was (engine state, prompt, display,
  LEDs), then repeats the step's own zone and button commands: the undone pieces are played
  again and the table must reach the same state as the first time;
* **power cut**: lets the journal's timed flush run, then starts a new device on the same
  flash and the same pieces: the table must resume to the same state and the same display;
* **refused piece**: lays a piece of the wrong kind (a card in a domino game, a domino in
  Da San) on a seat's zone: it is refused and nothing changes.

Only zones, buttons and the control port's ``wait`` are used; the checks read the STATE
snapshot, the 7-segment digits and the LEDs, as a person at the table would.
"""
from player import LocalControl, local_table

SETTLE = "wait 1600"  # a message (Err, a chime) runs out: the steady view is back
FLUSH = "wait 2500"  # the journal's timed flush
BLINK_OFF = "wait 300"  # longer than a blinking digit's off phase (segments.blink_off_ms)
SUMMARY = "hand over: OK for the next hand"
STEADY_KEYS = ("mode", "scores", "hand", "actions", "to_act", "prompt", "ruleset", "players")


class ChaosControl(LocalControl):
    def __init__(self, power_on, rng, foreign_piece, zones, undo=0.3, cut=0.05, refuse=0.1):
        LocalControl.__init__(self, power_on)
        self.rng = rng
        self.foreign_piece = foreign_piece
        self.zones = zones  # the zones a person lays pieces on, for the refused piece
        self.chances = (undo, cut, refuse)
        self.lying = {}  # zone -> pieces lying there, as the commands left them
        self.recording = None
        self.counts = {"steps": 0, "undos": 0, "cuts": 0, "refusals": 0, "presses": 0}
        self.last_steady = None  # the table as the last check saw it, while nothing was done since

    def command(self, line):
        """A player's command: recorded while a step runs, presses counted."""
        if self.recording is not None:
            self.recording.append(line)
        else:
            self.last_steady = None  # a command between steps (a deal, OK): read the table again
        if line.startswith("press"):
            self.counts["presses"] += 1
        return self._do(line)

    def _do(self, line):
        """Send a command and keep ``lying`` right, outside any recording and count."""
        words = line.split()
        if words[0] == "place":
            self.lying.setdefault(int(words[1]), []).extend(words[2:])
        elif words[0] == "remove":
            zone = int(words[1])
            for piece in words[2:] or list(self.lying.get(zone, ())):
                self.lying[zone].remove(piece)
        return LocalControl.command(self, line)

    # ----- what is compared

    def steady(self):
        """The table once its messages ran out: (STATE's steady fields, digits, LEDs)."""
        LocalControl.command(self, SETTLE)
        state = self.state()
        readings = [self.display()]
        LocalControl.command(self, BLINK_OFF)
        readings.append(self.display())  # a blinking group is dark in one of the two readings
        shown = max(readings, key=lambda groups: len("".join(groups).replace(" ", "")))
        return {k: state.get(k) for k in STEADY_KEYS}, shown, self.leds()

    def _check(self, what, expected):
        seen = self.steady()
        self.last_steady = seen
        if seen != expected:
            raise AssertionError("%s changed the table:\nexpected %r\nseen     %r" % (what, expected, seen))

    # ----- around a step

    def around(self, step):
        """Run one player step, with the chaos that may come before and after it."""
        self.counts["steps"] += 1
        undo, cut, refuse = self.chances
        before = self.last_steady or self.steady()  # the last step's view: nothing happened since
        lying_before = {zone: list(pieces) for zone, pieces in self.lying.items()}
        self.recording = []
        step()
        recorded, self.recording = self.recording, None
        after = self.last_steady = self.steady()
        moved = after[0]["actions"] != before[0]["actions"]
        if moved and after[0]["mode"] == "game" and recorded and self.rng.random() < undo:
            self._undo_and_replay(before, lying_before, recorded, after)
        if after[0]["mode"] == "game" and self.rng.random() < cut:
            self._power_cut(after)
        if after[0]["mode"] == "game" and self.rng.random() < refuse:
            self._refuse(after)

    def _undo_and_replay(self, before, lying_before, recorded, after):
        self.counts["undos"] += 1
        for _ in range(40):  # one UNDO per action the step made (a reveal is several)
            if self.state()["actions"] <= before[0]["actions"]:
                break
            self._do("press undo short")
        self._lay_as(lying_before)
        self._check("undo", before)
        for line in recorded:
            self._do(line)
        self._check("replaying the undone step", after)

    def _lay_as(self, lying):
        """Lift and lay pieces until the zones hold what ``lying`` says."""
        for zone in sorted(set(self.lying) | set(lying)):
            now = self.lying.get(zone, [])
            extra = [p for p in now if p not in lying.get(zone, ())]
            missing = [p for p in lying.get(zone, ()) if p not in now]
            if extra:
                self._do("remove %d %s" % (zone, " ".join(extra)))
            if missing:
                self._do("place %d %s" % (zone, " ".join(missing)))

    def _power_cut(self, expected):
        self.counts["cuts"] += 1
        LocalControl.command(self, FLUSH)
        self.device = self._boot()  # the old device is gone; flash and pieces remain
        for zone in sorted(self.lying):  # the new readers find what lies on their zones
            if self.lying[zone]:
                LocalControl.command(self, "place %d %s" % (zone, " ".join(self.lying[zone])))
        if self.steady()[0]["prompt"] == SUMMARY and expected[0]["prompt"] != SUMMARY:
            self._do("press ok short")  # resumed between hands: the last result shows again first
        self._check("a power cut", expected)

    def _refuse(self, expected):
        self.counts["refusals"] += 1
        zone = self.rng.choice(self.zones)
        LocalControl.command(self, "place %d %s" % (zone, self.foreign_piece))
        refused = self.state()
        if refused["actions"] != expected[0]["actions"] or not refused.get("last_error"):
            raise AssertionError("a %s on zone %d was not refused: %r" % (self.foreign_piece, zone, refused))
        LocalControl.command(self, "remove %d %s" % (zone, self.foreign_piece))
        self._check("a refused piece", expected)


def chaotic(player_class):
    """``player_class`` with every step played through ``ChaosControl.around``."""

    class Chaotic(player_class):
        def step(self):
            self.control.around(lambda: player_class.step(self))

        def _move(self):
            self.control.around(lambda: player_class._move(self))

    return Chaotic


def chaos_table(root, rng, foreign_piece, zones, **chances):
    """A simulated device in this process, driven through ``ChaosControl``."""
    return local_table(root, lambda power_on: ChaosControl(power_on, rng, foreign_piece, zones, **chances))
