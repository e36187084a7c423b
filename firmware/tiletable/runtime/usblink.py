"""The PC link over USB CDC: non-blocking bytes between the USB streams and ``LinkServer``.

On the Pico the USB serial port is ``sys.stdin.buffer``/``sys.stdout.buffer``. ``read()``
blocks there until its count arrives, so ``poll()`` asks the poller first and reads one
byte with ``readinto`` while the stream says it is readable, then hands what it got to the
server. A poll that filled its chunk says so, and the app polls again at once: a 1 KB chunk
of a ruleset arrives in one go instead of 64 bytes per link period. The poller is asked with ``ipoll`` where there is one (MicroPython): ``poll`` makes a
new list at every call, 6 KB a second at the link's pace, and the collections that costs.

**Output never blocks the table.** A write to the CDC stream waits while the PC is not reading
(up to 500 ms a call on the Pico; for ever on a simulation's pipe), so replies and events go
into a queue of ``OUT_ROOM`` bytes and leave it in pieces of at most ``_PIECE`` bytes, only
while the stream says it can take more (POLLOUT: a USB FIFO with room, a pipe with room for
more than a piece). A PC that stops reading, or reads a byte a second, fills the queue; then
whole frames are dropped and counted (``dropped``): events are only news (the journal is the
record, pulled later), and a host that wants a reply asks again. A journal stream's frames
(JOURNAL_STREAM) are never dropped: each is made only once the queue has room for a whole
frame, straight into the queue, one per poll, so a PC that stops reading just pauses it. A
frame carries as much of the journal as the queue holds with a KB left for replies and events
(``stream_data``): most of a frame's time on the chip is bytecode that does not grow with it,
and a frozen build's 4 KB frames streamed 369 KB/s where 1 KB ones streamed 179 (a 130 KB
journal on the emulated chip).

In protocol mode ``micropython.kbd_intr(-1)`` makes 0x03 an ordinary byte, so a Ctrl-C in the
byte stream (or a terminal program's noise) cannot interrupt the firmware; the frame decoder
drops whatever is not a valid frame (REPL text, a half frame, garbage).

**Back to the REPL** (maintenance: mpremote, file copies): send the MAINTENANCE request
(``tiletable maintenance``), long-press MENU on the table, or hold MENU while the board
powers up. ``close()`` restores ``kbd_intr(3)`` and ``main.py`` returns, which leaves the
Pico at the REPL, where mpremote works as usual.
"""
import select

import micropython
from micropython import const

CHUNK = 512  # bytes read per call at the most (a few ms on the Pico): bounds the time one poll may take
# bytes written per call, once the poller says the CDC FIFO (TinyUSB's 256 at full speed) has
# room: the write goes on as USB takes the bytes, so the call waits as long as the wire does
# whatever the piece, and each piece costs bytecode. A 4 KB stream frame drained in 2.55 ms on
# the chip in 1 KB pieces, 3.2 ms in pieces of the FIFO's size (a single write of it: 2.2 ms)
_PIECE = const(1024)
# bytes of frames waiting for the PC, unless the heap policy says otherwise (tiletable/heap.py's
# ``link_room``): a build whose bytecode is in the heap keeps 2 KB, a reply of the largest size
# and its events (the family's modules a game start loads need the rest: on the emulated chip a
# stock build with a 3 KB queue and this code refused Muggins for room), and streams 1 KB
# frames; a frozen build's queue holds a 4 KB journal stream frame (heap_frozen.py)
OUT_ROOM = 2048
_EVENT_ROOM = const(1024)  # queue room a journal stream frame leaves for replies and events
_STREAM_FIELDS = const(24)  # a stream frame's bytes besides its data: header (4), reply fields (16), CRC (4)
_DRAIN_PIECES = const(6)  # pieces written per poll at the most (6 KB, more than a full queue): bounds the time one poll may take


def _poller(stream, mask):
    """A call that lists ``stream`` when it is ready for ``mask``; None for a stream that cannot
    be polled (a test's in-memory stream, which is always ready)."""
    poller = select.poll()
    try:
        poller.register(stream, mask)
    except (TypeError, ValueError, OSError, AttributeError):
        return None
    return getattr(poller, "ipoll", poller.poll)  # CPython has no ipoll


class UsbLink:
    """Link ``server`` (a ``LinkServer``) to ``instream``/``outstream`` (binary streams),
    through an output queue of ``room`` bytes. ``intake``, when given, reads in place of
    ``_take`` where the stream can be polled: ``intake(link).take`` (a frozen build's
    runtime/usb_native.py ``NativeIntake``)."""

    def __init__(self, server, instream, outstream, room=OUT_ROOM, intake=None):
        self.server = server
        # the streams' methods, bound once: ``stream.readinto`` makes a new bound method (16 bytes
        # of heap) at every look-up, and the link is polled every 5 ms
        self._readinto = instream.readinto
        self._out = outstream
        self._write = outstream.write
        self._flush = getattr(outstream, "flush", None)
        self._readable = _poller(instream, select.POLLIN)
        self._writable = _poller(outstream, select.POLLOUT)
        self._byte = bytearray(1)
        self._chunk = bytearray(CHUNK)
        self._queue = bytearray(room)
        self._queued = memoryview(self._queue)
        # the journal bytes a stream frame carries: as many as leave _EVENT_ROOM once COBS (a
        # code byte per 254, one more first) and the delimiters are counted; the room it takes
        frame_size = (room - _EVENT_ROOM - 3) * 254 // 255
        self.stream_data = frame_size - _STREAM_FIELDS
        self._stream_room = frame_size + frame_size // 254 + 3
        self._head = 0  # the queue's bytes waiting to go are [_head, _tail)
        self._tail = 0
        self.closed = False  # the host end went away for good (only a simulation's pipe can)
        self.bytes_in = 0
        self.dropped = 0  # frames dropped because the PC was not reading
        self.streamed = False  # the last poll queued a journal stream frame (more may follow at once)
        if intake is not None and self._readable is not None:
            self._take = intake(self).take

    def open(self):
        """Enter protocol mode: 0x03 is data from now on, until ``close()``."""
        micropython.kbd_intr(-1)

    def poll(self):
        """Send what the PC can take, read what is waiting (up to ``CHUNK`` bytes) and answer it;
        returns the number of bytes read (``CHUNK``: there may be more waiting)."""
        if self.closed:
            return 0
        if self._head != self._tail:  # (drain's frame is over 11 words: no call at idle, nothing allocated)
            self.drain()
        count = self._take()
        if count:
            self.bytes_in += count
            for reply in self.server.receive(self._chunk[:count]):
                self.write(reply)
        self.streamed = self.server.stream is not None and self._stream()
        return count

    def _stream(self):
        """Queue the next frame of the server's journal stream if a whole one fits; whether it did."""
        if self._tail + self._stream_room > len(self._queue):
            self._compact()
            if self._tail + self._stream_room > len(self._queue):
                return False
        stream = self.server.stream
        self._tail = stream.frame_into(self._queue, self._tail, self.stream_data)
        if stream.done:
            self.server.stream = None
        self.drain()
        return True

    def _take(self):
        """Read the bytes waiting, up to ``CHUNK``, into ``_chunk``; return how many. One byte a
        call (a bigger read waits for its count): 32.9 us a byte on the chip, most of it the poll.
        A frozen build's link reads with runtime/usb_native.py's machine code (20.0 us) instead (``intake``)."""
        ask = self._readable
        readinto = self._readinto
        byte = self._byte
        count = 0
        while count < CHUNK:
            if ask is not None:
                for _ in ask(0):
                    break
                else:
                    break  # nothing waiting
            if readinto(byte) != 1:
                self.closed = True
                break
            self._chunk[count] = byte[0]
            count += 1
        return count

    def send_event(self, msg_type, fields):
        """Send an unsolicited event (EV_*) frame."""
        self.write(self.server.event(msg_type, fields))

    def pending(self):
        """Bytes waiting for the PC."""
        return self._tail - self._head

    def write(self, frame):
        """Queue ``frame`` whole, or drop it when the PC has let the queue fill; send what it can take."""
        size = len(frame)
        if self._tail + size > len(self._queue):
            self._compact()
            if self._tail + size > len(self._queue):
                self.dropped += 1
                return
        self._queue[self._tail : self._tail + size] = frame
        self._tail += size
        self.drain()

    def drain(self):
        """Write queued bytes while the stream has room: a piece at a time, each after the poller
        says there is some (the rest of a piece waits while USB takes the bytes before it), one
        flush at the end."""
        head = self._head
        tail = self._tail
        if head == tail:
            return
        ask = self._writable
        write = self._write
        queued = self._queued
        for _ in range(_DRAIN_PIECES):
            if head == tail:
                break
            if ask is not None:
                for _ in ask(0):
                    break
                else:
                    break  # no room now
            end = min(tail, head + _PIECE)
            written = write(queued[head:end])
            head = end if written is None else head + written
        if head != self._head and self._flush is not None:
            self._flush()
        if head == tail:
            head = tail = self._tail = 0
        self._head = head

    def _compact(self):
        if self._head:
            waiting = self._tail - self._head
            self._queue[:waiting] = self._queued[self._head : self._tail]
            self._head, self._tail = 0, waiting

    def close(self):
        """Send what is still queued (the reply to MAINTENANCE among it), waiting as a write
        waits; then leave protocol mode: Ctrl-C interrupts again (the REPL and mpremote need it)."""
        if self._head < self._tail and not self.closed:
            self._write(self._queued[self._head : self._tail])
            if self._flush is not None:
                self._flush()
        self._head = self._tail = 0
        micropython.kbd_intr(3)
