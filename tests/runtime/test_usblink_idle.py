# portable
"""runtime/usblink.py at idle: the link is polled every 5 ms, so a poll that finds nothing to read
allocates nothing (on a stock build every allocation counts toward the next garbage collection,
tiletable/heap.py; a bound method made at each poll was 2.8 KB a second and a 22 ms collection
every 6 s on the emulated chip)."""
import io

from allocation import bytes_allocated, takes_heap

from tiletable.runtime.usblink import UsbLink

_POLL = 3  # MicroPython's MP_STREAM_POLL ioctl request


class Quiet(io.IOBase):
    """A USB port the PC sends nothing on: MicroPython's poller asks ``ioctl``, which says
    nothing is readable (CPython's poller cannot register it: the link then reads at once)."""

    def readinto(self, buf):
        return None

    def ioctl(self, request, arg):
        return 0 if request == _POLL else -1


class Server:
    stream = None  # no journal stream

    def receive(self, chunk):
        raise AssertionError("nothing was sent")


def test_an_idle_poll_allocates_nothing():
    link = UsbLink(Server(), Quiet(), io.BytesIO())
    if link._readable is None:
        return  # CPython: no poller for this stream, nothing to measure
    link.poll()

    def loop():
        for _ in range(50):
            link.poll()

    assert bytes_allocated(loop) == 0
    assert takes_heap(loop) is False
    assert not link.closed
