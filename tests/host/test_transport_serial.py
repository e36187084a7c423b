"""SerialTransport on a pyserial URL (socket://): frames both ways, and a reconnect when the
device goes away mid-session, as a Pico's USB port does when it resets."""
import socket
import threading

import pytest

from tiletable.proto.server import LinkServer
from tiletable.runtime.journal import Journal
from tiletable.runtime.rulestore import RuleStore
from tiletable_host.transport import TransportError
from tiletable_host.transport_serial import SerialTransport


class SocketDevice:
    """A LinkServer behind a TCP port; each connection is a fresh boot of the device, and the
    first ``drop_after`` requests of a connection are answered before it hangs up."""

    def __init__(self, root, drop_after=None, boots=None):
        self.root = root
        self.drop_after = drop_after
        self.boots = boots  # how many times the device comes up (None: always)
        self.connections = 0
        self.listener = socket.socket()
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(4)
        self.port = self.listener.getsockname()[1]
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self):
        while True:
            try:
                conn, _ = self.listener.accept()
            except OSError:
                return
            self.connections += 1
            server = LinkServer(RuleStore(self.root + "/rulesets"), Journal(self.root + "/journal"), "sock", "tiletable-socket")
            answered = 0
            with conn:
                while True:
                    data = conn.recv(4096)
                    if not data:
                        break
                    for reply in server.receive(data):
                        conn.sendall(reply)
                        answered += 1
                    if self.connections == 1 and self.drop_after is not None and answered >= self.drop_after:
                        break  # the device resets: its USB port disappears
            server.journal.close()
            if self.boots is not None and self.connections >= self.boots:
                self.listener.close()
                return

    def close(self):
        self.listener.close()


def test_requests_over_a_socket_url(tmp_path):
    device = SocketDevice(str(tmp_path))
    link = SerialTransport("socket://127.0.0.1:%d" % device.port, timeout=1.0)
    try:
        assert link.hello()["device"] == "tiletable-socket"
        assert link.journal_status()["last"] == 0
    finally:
        link.close()
        device.close()


def test_a_device_that_disappears_is_reconnected_and_asked_again(tmp_path):
    device = SocketDevice(str(tmp_path), drop_after=1)
    link = SerialTransport("socket://127.0.0.1:%d" % device.port, timeout=1.0, reconnect_timeout=5.0)
    try:
        assert link.hello()["boot"] == 1
        assert link.journal_status()["boot"] == 2  # answered by the device after its reset
        assert device.connections == 2
    finally:
        link.close()
        device.close()


def test_a_device_that_never_comes_back_is_reported(tmp_path):
    device = SocketDevice(str(tmp_path), drop_after=1, boots=1)
    link = SerialTransport("socket://127.0.0.1:%d" % device.port, timeout=0.5, reconnect_timeout=1.0)
    try:
        link.hello()
        with pytest.raises(TransportError, match=r"^socket://127\.0\.0\.1:\d+ did not come back within 1 s$"):
            link.journal_status()
    finally:
        link.close()
