"""The link's intake (runtime/usblink.py): a poll takes up to CHUNK bytes and says when more may
be waiting, so the app polls again at once and a 1 KB ruleset chunk arrives in one go."""
import io

from tiletable.runtime.usblink import CHUNK, UsbLink


class Echo:
    """A server that keeps every byte it is given and answers nothing."""

    stream = None  # no journal stream

    def __init__(self):
        self.received = bytearray()

    def receive(self, chunk):
        self.received += chunk
        return []


def test_a_poll_takes_a_whole_chunk_and_says_more_may_wait():
    data = bytes(range(256)) * 5  # 1,280 bytes, as a ruleset chunk frame of 1 KB and its header
    server = Echo()
    link = UsbLink(server, io.BytesIO(data), io.BytesIO())
    assert link.poll() == CHUNK
    assert link.poll() == CHUNK
    assert link.poll() == len(data) - 2 * CHUNK
    assert bytes(server.received) == data

