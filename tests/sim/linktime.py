"""The simulated table's link in device time: a host transport into an in-process ``Device``.

Shared by bench/link.py and tests/sim/test_link_time.py. The host's requests go into the
device's USB pipe and the device's services run (sim/device.py: the firmware's services on
App.run()'s schedule, charged at the chip's costs) until the reply is out, so a reply's time is
device time and the PC's own time is not in it. The device's files are on littlefs, as on the
Pico (sim/flashfs.py), so what the flash costs is in the replies.
"""
import os
import random

from tiletable.engine.rulesets import find_ruleset
from tiletable.engine.state import CHANCE, TERMINAL
from tiletable.proto.messages import message_name
from tiletable.runtime.journal import Journal
from tiletable_host.transport import Transport

_REPLY_MS = 2000  # device time a request is given before _read reports nothing (the host retries)


class DeviceTimeTransport(Transport):
    """The host's side of an in-process simulated table: a request goes into the device's USB
    pipe, and the device's services run (in device time) until its reply is out. ``policy``:
    the class of the firmware's heap policy (sim/device.py), by default the runtime's."""

    def __init__(self, root, timeout=5.0, policy=None):
        import io

        import device
        import flashfs

        super().__init__(timeout=timeout)
        usb_in, self._usb_out = os.pipe()
        self._out = io.BytesIO()
        self.flash = flashfs.FlashFs(root)  # the Pico's littlefs, holding what ``root`` holds now
        self.flash.copy_in()
        self.flash.mount()
        flashfs.install()
        self.device = device.Device(root, None, device.Pieces(), os.fdopen(usb_in, "rb", buffering=0), self._out, flash=self.flash, policy=policy)
        self.device.app.link.open()
        self.replies = {}  # request name -> device ms from its first write to its reply, each time

    def request(self, msg_type, fields=None, timeout=None, retries=None):
        started = self.now_ms()
        reply = super().request(msg_type, fields, timeout, retries)
        self.replies.setdefault(message_name(msg_type), []).append(self.now_ms() - started)
        return reply

    def now_ms(self):
        return self.device.hardware.clock.now_us / 1000

    def _write(self, data):
        os.write(self._usb_out, data)

    def _read(self, timeout):
        table = self.device
        table.services.run_until(table.hardware.clock.now_us + _REPLY_MS * 1000, lambda: self._out.tell())
        data = self._out.getvalue()
        self._out.seek(0)
        self._out.truncate()
        return data

    def reconnect(self):
        """Nothing to re-open: the device is in this process."""


def play_sessions(journal, sessions, seed=1):
    """Log ``sessions`` random Muggins matches through ``journal``'s session calls (a Journal,
    or anything with its ``start_session``/``log_action``/``log_score``/``end_session``)."""
    ruleset = find_ruleset("muggins")
    rng = random.Random(seed)
    for number in range(sessions):
        state = ruleset.new_state(2)
        journal.start_session(ruleset.name, ruleset.hash, ["ann", "bob"], "bench", 1700000000 + number)
        while state.current_player() != TERMINAL:
            player = state.current_player()
            action = rng.choice(list(state.chance_outcomes() if player == CHANCE else state.legal_actions()))
            before = len(state.score_events)
            state.apply(action)
            journal.log_action(state.action_str(action))
            for event in state.score_events[before:]:
                journal.log_score(event.seat, event.points, event.rule)
        journal.end_session({"reason": "over", "scores": list(state.scores)})


def fill_journal(path, sessions, seed=1):
    """Write ``sessions`` random Muggins matches into the journal at ``path``; returns (records, bytes)."""
    journal = Journal(path)
    play_sessions(journal, sessions, seed)
    journal.close()
    return journal.next_seq - 1, journal.total_bytes()
