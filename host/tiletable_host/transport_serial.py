"""The link over a serial port: a Pico's USB CDC, a pty from ``tiletable sim``, or any pyserial URL.

The only module that imports pyserial. ``serial_for_url`` opens plain paths as well as
``socket://``, ``loop://`` and ``spy://`` URLs (``spy://`` dumps the traffic). When the
port goes away (a Pico that resets re-enumerates its USB device), ``reconnect`` re-opens the
same path until it is back or ``reconnect_timeout`` has passed.
"""
import errno
import time

import serial

from tiletable_host.transport import DEFAULT_RETRIES, DEFAULT_TIMEOUT, Transport, TransportError

BAUDRATE = 115200  # ignored by USB CDC and ptys; set for adapters that do care
RECONNECT_TIMEOUT = 10.0  # seconds; a Pico is back on USB about 2 s after a reset
_REOPEN_INTERVAL = 0.2


class SerialTransport(Transport):
    """A table on serial port ``port`` (a path or a pyserial URL).

    Example::

        link = SerialTransport("/dev/ttyACM0")
        print(link.hello()["firmware"])
        link.close()

    :raises TransportError: when the port cannot be opened (the message names it).
    """

    def __init__(self, port, timeout=DEFAULT_TIMEOUT, retries=DEFAULT_RETRIES, on_event=None, reconnect_timeout=RECONNECT_TIMEOUT):
        super().__init__(timeout=timeout, retries=retries, on_event=on_event)
        self.port = port
        self.reconnect_timeout = reconnect_timeout
        self._serial = None
        self._open()

    def _open(self):
        """Open the port for this program alone: a second command on it would take its replies."""
        try:
            self._serial = serial.serial_for_url(
                self.port, baudrate=BAUDRATE, timeout=0, write_timeout=self.timeout, exclusive=True
            )
        except (serial.SerialException, OSError, ValueError) as exc:
            raise TransportError(_open_failure(self.port, exc))

    def _write(self, data):
        if self._serial is None:
            raise TransportError("%s is closed" % self.port)
        try:
            self._serial.write(data)
            self._serial.flush()
        except (serial.SerialException, OSError) as exc:
            raise TransportError("writing to %s failed: %s" % (self.port, exc))

    def _read(self, timeout):
        if self._serial is None:
            raise TransportError("%s is closed" % self.port)
        try:
            self._serial.timeout = timeout
            first = self._serial.read(1)
            if not first:
                return b""
            self._serial.timeout = 0
        except (serial.SerialException, OSError) as exc:
            raise TransportError("reading from %s failed: %s" % (self.port, exc))
        try:
            return first + self._serial.read(self._serial.in_waiting or 0)
        except (serial.SerialException, OSError):
            return first  # the port went away after this byte: keep it, the next read reports it

    def reconnect(self):
        self.close()
        deadline = time.monotonic() + self.reconnect_timeout
        while True:
            try:
                self._open()
                return
            except TransportError:
                if time.monotonic() >= deadline:
                    raise TransportError("%s did not come back within %.0f s" % (self.port, self.reconnect_timeout))
                time.sleep(_REOPEN_INTERVAL)

    def close(self):
        if self._serial is not None:
            try:
                self._serial.close()
            except (serial.SerialException, OSError):
                pass
            self._serial = None


def _open_failure(port, exc):
    """Why ``port`` did not open, in one line: pyserial's message repeats the path."""
    code = getattr(exc, "errno", None)
    if code in (errno.EAGAIN, errno.EWOULDBLOCK, errno.EBUSY):
        return "%s is in use by another program (another tiletable, mpremote or a terminal?)" % port
    if code == errno.ENOENT:
        return "no port %s (is the table plugged in? `tiletable ports` lists the Picos found)" % port
    if code == errno.EACCES:
        return "no permission to open %s (on Linux, join the dialout group)" % port
    reason = getattr(exc, "strerror", None) or str(exc)
    return "cannot open %s: %s" % (port, reason)
