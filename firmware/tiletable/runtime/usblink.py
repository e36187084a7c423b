"""The PC link over USB CDC: non-blocking bytes between the USB streams and ``LinkServer``.

On the Pico the USB serial port is ``sys.stdin.buffer``/``sys.stdout.buffer``. ``read()``
blocks there until its count arrives, so ``poll()`` asks ``select.poll`` first and reads one
byte with ``readinto`` while the stream says it is readable, then hands what it got to the
server. In protocol mode ``micropython.kbd_intr(-1)`` makes 0x03 an ordinary byte, so a
Ctrl-C in the byte stream (or a terminal program's noise) cannot interrupt the firmware;
the frame decoder drops whatever is not a valid frame (REPL text, a half frame, garbage).

**Back to the REPL** (maintenance: mpremote, file copies): send the MAINTENANCE request
(``tiletable maintenance``), long-press MENU on the table, or hold MENU while the board
powers up. ``close()`` restores ``kbd_intr(3)`` and ``main.py`` returns, which leaves the
Pico at the REPL, where mpremote works as usual.
"""
import select

import micropython

_CHUNK = 64  # bytes handed to the server per call: bounds the time one poll may take


class UsbLink:
    """Link ``server`` (a ``LinkServer``) to ``instream``/``outstream`` (binary streams)."""

    def __init__(self, server, instream, outstream):
        self.server = server
        self._in = instream
        self._out = outstream
        self._flush = getattr(outstream, "flush", None)
        self._poller = select.poll()
        self._poller.register(instream, select.POLLIN)
        self._byte = bytearray(1)
        self._chunk = bytearray(_CHUNK)
        self.closed = False  # the host end went away for good (only a simulation's pipe can)
        self.bytes_in = 0

    def open(self):
        """Enter protocol mode: 0x03 is data from now on, until ``close()``."""
        micropython.kbd_intr(-1)

    def poll(self):
        """Read what is waiting (up to one chunk), answer it; returns the number of bytes read."""
        if self.closed:
            return 0
        count = 0
        byte = self._byte
        while count < _CHUNK and self._poller.poll(0):
            if self._in.readinto(byte) != 1:
                self.closed = True
                break
            self._chunk[count] = byte[0]
            count += 1
        if count:
            self.bytes_in += count
            for reply in self.server.receive(self._chunk[:count]):
                self.write(reply)
        return count

    def send_event(self, msg_type, fields):
        """Send an unsolicited event (EV_*) frame."""
        self.write(self.server.event(msg_type, fields))

    def write(self, frame):
        self._out.write(frame)
        if self._flush is not None:
            self._flush()

    def close(self):
        """Leave protocol mode: Ctrl-C interrupts again (the REPL and mpremote need it)."""
        micropython.kbd_intr(3)
