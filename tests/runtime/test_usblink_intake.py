"""The link's intake (runtime/usblink.py): a poll takes up to CHUNK bytes and says when more may
be waiting, so the app polls again at once and a 1 KB ruleset chunk arrives in one go."""
import io
import os

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



def test_an_idle_poll_leaves_the_output_queue_alone():
    """The link is polled every 5 ms, and ``drain``'s frame is over 11 words: on a stock build a
    call at each idle poll put a frame on the heap toward the collection threshold (tiletable/heap.py;
    4.9 % of the CPU collecting at idle on the emulated chip)."""
    read_end, write_end = os.pipe()  # a PC that sends nothing: nothing to read, and no end
    link = UsbLink(Echo(), os.fdopen(read_end, "rb", buffering=0), io.BytesIO())
    drains = []
    link.drain = lambda: drains.append(1)
    link.poll()
    assert drains == []
    link.write(b"reply")
    drains.clear()
    link.poll()
    assert drains == [1]  # something queued: it is sent
    os.close(write_end)
