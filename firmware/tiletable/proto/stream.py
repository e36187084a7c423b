"""The journal stream (JOURNAL_STREAM, messages.py): runs of frames read from the session files.

Imported by the link server on the first stream request, not at boot: the stock build runs
bytecode from the heap, and the first game start needs those bytes. ``JournalStream`` reads
through the ``Journal``'s public read API: its file index (``firsts``, ``sizes``),
``position_of``, and ``open_reader``, the file kept open between frames, which the journal
closes when a rotation removes that file or a flush writes to it.
"""
import struct

from tiletable.proto.frame import HEADER_SIZE, PROTOCOL_VERSION, STREAM_PAYLOAD, seal_frame_in_place
from tiletable.proto.messages import E_BAD_VALUE, JOURNAL_STREAM, REPLY, ProtocolError
from tiletable.record import HEAD_SIZE

_HEAD = 16  # a stream reply's part, last (u8), durable, first, offset (u32), data length (u16)
_LAYOUT = "<BBHBBIIIH"  # the frame header, then the stream reply's fields before its data
DATA_MAX = STREAM_PAYLOAD - _HEAD


class JournalStream:
    """One run: ``frame_into`` makes its frames one at a time, until ``done``.

    :raises ProtocolError: E_BAD_VALUE for no frames or no bytes per frame.
    """

    def __init__(self, journal, seq, fields, crc):
        self.crc = crc  # the link server's CRC-32 (proto/frame.py's encode_frame)
        self.limit = min(fields["max"], DATA_MAX)
        if self.limit < 1 or fields["frames"] < 1:
            raise ProtocolError(E_BAD_VALUE, "journal stream of %d frames of %d bytes" % (fields["frames"], fields["max"]))
        self.journal = journal
        self.seq = seq
        self.part = 0
        self.left = fields["frames"]
        self.done = False
        position = self._position(fields["after"] + 1, fields["first"], fields["offset"])
        self.first, self.offset = (-1, 0) if position is None else position

    def _position(self, seq, first, offset):
        """(file's first seq, offset) on flash where record ``seq`` starts, None when it is
        not on flash yet. The host's hint (``first``, ``offset``: where the last record it stored
        ended) is taken when the header there has the right number: no search."""
        journal = self.journal
        firsts = journal.firsts
        if not firsts or seq > journal.durable_seq:
            return None
        if first in firsts:
            index = firsts.index(first)
            size = journal.sizes[index]
            if offset == size and index + 1 < len(firsts) and firsts[index + 1] == seq:
                return seq, 0
            if offset < size and self._seq_at(first, offset) == seq:
                return first, offset
        index, offset = journal.position_of(seq)
        return firsts[index], offset

    def _seq_at(self, first, offset):
        header = bytearray(HEAD_SIZE)
        f = self.journal.open_reader(first)  # kept open: the stream reads on from here
        f.seek(offset)
        if f.readinto(header) != HEAD_SIZE:
            return -1
        return struct.unpack_from("<I", header, 3)[0]

    def _read(self, out):
        """Copy flash bytes from the stream's place into ``out``, moving on to the next file at
        the end of one; returns the count (0: the end of flash, -1: the file is gone, rotated
        away, or shorter than the place, cut back after a failed write). Whole files, not
        records: each was verified when the journal was opened and has been written a flushed
        batch at a time since, and every record carries its CRC-32 for the host to check."""
        journal = self.journal
        firsts = journal.firsts
        sizes = journal.sizes
        if self.first not in firsts:
            return -1
        index = firsts.index(self.first)
        if self.offset > sizes[index]:
            return -1
        if self.offset == sizes[index]:
            if index + 1 == len(firsts):
                return 0
            index += 1
            self.first = firsts[index]
            self.offset = 0
        want = out[: min(len(out), sizes[index] - self.offset)]
        # kept open between frames; the journal closes it before it writes to the file (the
        # newest grows, and may be cut back)
        reader = journal.open_reader(self.first)
        reader.seek(self.offset)
        return reader.readinto(want)

    def frame_into(self, out, at, most=DATA_MAX):
        """Put the next frame, of at most ``most`` journal bytes, on the wire into ``out`` from
        ``at`` (room for its longest COBS encoding and two delimiters: ``STREAM_ENCODED + 2``
        bytes for the most); return the index after it. Journal bytes go from the file straight
        to their place on the wire, and are sealed there (``seal_frame_in_place``): no copy."""
        journal = self.journal
        body = at + 2  # after the opening delimiter and COBS's first code byte
        data_at = body + HEADER_SIZE + _HEAD
        count = 0 if self.first < 0 else self._read(memoryview(out)[data_at : data_at + min(self.limit, most)])
        if count < 0:  # the file went away: the host asks again, and the record is found by number
            last = 1
            count = 0
        elif count == 0 or (journal.firsts[-1] == self.first and journal.sizes[-1] == self.offset + count):
            last = 2  # the end of what is on flash
        else:
            last = 1 if self.left == 1 else 0
        struct.pack_into(_LAYOUT, out, body, PROTOCOL_VERSION, JOURNAL_STREAM | REPLY, self.seq, self.part, last, journal.durable_seq, max(self.first, 0), self.offset, count)
        self.part += 1
        self.left -= 1
        self.offset += count
        if last:
            self.close()
        return seal_frame_in_place(out, at, data_at + count, self.crc)

    def close(self):
        """End the run: the file kept open is closed."""
        self.done = True
        self.journal.end_read()
