"""A device in the host's own process: the firmware's LinkServer with a real RuleStore and
Journal in a directory, reached through the same ``Transport`` code as a Pico.

Used by unit tests and benchmarks that need the device's real behaviour (chunked uploads,
journal reads, error replies) without a pty or a child process. ``reset()`` stands for a
power cut: bytes in flight are lost, and the journal and rulestore are opened again from
the directory, exactly as the firmware does at boot.
"""
import os
import time

from tiletable.proto.frame import STREAM_ENCODED
from tiletable.proto.server import LinkServer
from tiletable.runtime.journal import Journal
from tiletable.runtime.rulestore import RuleStore
from tiletable_host.transport import DEFAULT_RETRIES, Transport

FIRMWARE = "local"
DEVICE = "tiletable-local"


class LocalTransport(Transport):
    """A LinkServer over ``root``/rulesets and ``root``/journal, answering in-process.

    ``before_request(msg_type)``, when set, runs as each request reaches the device (tests
    use it to reset the device in the middle of a pull or a sync); returning True drops the
    request, as if the device had died while receiving it.
    """

    def __init__(self, root, timeout=0.05, retries=DEFAULT_RETRIES, on_event=None, journal_options=None):
        super().__init__(timeout=timeout, retries=retries, on_event=on_event)
        self.root = root
        os.makedirs(root, exist_ok=True)
        self.journal_options = journal_options or {}
        self.before_request = None
        self.resets = 0
        self._inbox = bytearray()
        self._boot()

    def _boot(self):
        self.journal = Journal(self.root + "/journal", **self.journal_options)
        self.rulestore = RuleStore(self.root + "/rulesets")
        self.server = LinkServer(self.rulestore, self.journal, FIRMWARE, DEVICE)

    def reset(self):
        """Power-cut the device: pending output is lost; storage is re-opened as at boot."""
        self.journal.close()
        self._inbox = bytearray()
        self.resets += 1
        self._boot()

    def _write(self, data):
        for version, msg_type, seq, payload in self.server.decoder.feed(data):
            if self.before_request is not None and self.before_request(msg_type):
                return
            reply = self.server.handle(version, msg_type, seq, payload)
            if reply is not None:  # None: a journal stream began; _read takes its frames
                self._inbox.extend(reply)

    def _read(self, timeout):
        if self.server.stream is not None:  # one frame a read, as the USB link makes them when there is room
            wire = bytearray(STREAM_ENCODED + 2)
            stream = self.server.stream
            self._inbox.extend(wire[: stream.frame_into(wire, 0)])
            if stream.done:
                self.server.stream = None
        if not self._inbox:
            time.sleep(min(timeout, 0.001))
            return b""
        data = bytes(self._inbox)
        self._inbox = bytearray()
        return data

    def reconnect(self):
        """Nothing to re-open: the device is in this process."""

    def send_event(self, msg_type, fields):
        """Queue an unsolicited event from the device (as the table runtime would send it)."""
        self._inbox.extend(self.server.event(msg_type, fields))
