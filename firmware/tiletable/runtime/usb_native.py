"""The link's intake loop as MicroPython viper code: machine code around the calls it makes.

The USB serial stream's ``readinto`` waits until its whole count arrives, so the link reads one
byte at a time while the poller says one waits (runtime/usblink.py). As bytecode that loop took
32.9 us a byte on the chip (frozen build): a 700-byte ruleset upload spent 23 ms in it, the most
of its reply's work. Here it takes 20.0 us a byte, the rest being the two calls themselves.

Only on a frozen build: the link is made with ``NativeIntake`` as its intake there (machine
code in flash), where on a stock build the ``.mpy``'s machine code would be loaded into the
heap (1.2 KB on the unix port) that its game imports need, and only MicroPython with a native
emitter compiles it.
Elsewhere the link reads with ``UsbLink._take``'s bytecode; both read the same bytes
(tests/runtime/test_usb_native.py).
"""
import micropython

from tiletable.runtime.usblink import CHUNK


class NativeIntake:
    """A ``UsbLink``'s ``_take`` (runtime/usblink.py) as a call of ``take_into``: a link made
    with ``intake=NativeIntake`` reads with ``NativeIntake(link).take``. A bound method, not a
    closure: with a closure in its place every idle poll allocated on the unix port
    (tests/runtime/test_usb_native.py)."""

    def __init__(self, link):
        self.link = link

    def take(self):
        link = self.link
        count = take_into(link._readable, link._readinto, link._byte, link._chunk, CHUNK)
        if count >= 0:
            return count
        link.closed = True  # the stream has ended
        return -1 - count


@micropython.viper
def take_into(ask, readinto, byte, chunk, limit: int) -> int:
    """Read into ``chunk`` one ``readinto(byte)`` at a time while ``ask(0)`` (a poller's
    ``ipoll``) lists the stream, up to ``limit`` bytes; return how many, or ``-1 - count`` when
    a read gave no byte (the stream has ended)."""
    dst = ptr8(chunk)
    one = ptr8(byte)
    count = 0
    while count < limit:
        ready = 0
        for _ in ask(0):
            ready = 1
            break
        if ready == 0:
            break
        if int(readinto(byte)) != 1:  # (a stream the poller listed answers with a number)
            return -1 - count
        dst[count] = one[0]
        count += 1
    return count
