"""Session journal: an append-only, checksummed log of every session, on the device's flash.

Layout (one directory, default ``/journal``)::

    0000002a.tjs    one file per session, named by the hex sequence number of its first record
    state           the journal's identity, boot counter, the host's acknowledgement and the
                    table's name (rewritten in place, CRC-checked)
    *.tmp           a rewrite in progress; removed at open

Records: ``tiletable.record`` (the format the journal, the link and the PC share).

Identity: a journal is created with a random name of 16 hex digits (``identity``), kept in
``state`` and in every session header, and reported to the PC (HELLO, JOURNAL_STATUS, STATE),
which files records under table, journal identity and sequence number: a wiped, replaced or
re-deployed journal starts again from record 1 under a new identity, and is never taken for
the continuation of an older one. A lost or damaged ``state`` takes the identity back from a
session header that carries one. The table's name (``name``, set from the PC with
``tiletable name``) rides in the same file: one small file read at boot.

Durability: appends go into a preallocated buffer and reach the flash at ``flush()``. The
table's app flushes them at ``poll(now_ms, hold)`` in its button step, 10 ms apart: every
record an accepted play made is on flash within one step of it, after the play's LEDs and
display and never in the scan step that read its tile (flash writes pause interrupts on the
RP2040, and littlefs erases a block per sync of a growing file, littlefs#374). ``hold`` (the
table is still making a batch, a deal going out four tiles a step) keeps them at most
``flush_ms`` longer, so a deal is one flush rather than seven. The buffer is also flushed
when it is full (a step's records fit: a play and the 54 cards of the Da San deal it makes
are 1015 bytes), every ``flush_records`` records if that is set (for a tool that logs without
the app's poll), at a session's start and end (the
end of a match that a play ended waits for the app's flush with that play:
``end_session(result, flush=False)``), and before the session in progress is replayed;
reads by the host (pull, sessions) flush nothing. A power cut loses the records still in the
buffer, the batch being flushed included: the play in hand (README, "What a power cut can
lose"); every record flushed before is intact. At open every file is read and
each record verified (length, CRC, sequence); a torn or garbage tail is dropped by rewriting
the good prefix to a temporary file and renaming it over the original (atomic on littlefs and
POSIX), so later appends never follow garbage. If the flash has no room for that copy, the
file is sealed instead: read up to its last good record, never appended to, repaired at a
later open.

Reading: ``firsts`` and ``sizes`` index the session files (the segments), oldest first: each
one's first sequence number and its bytes of verified records; ``open_reader`` opens one,
``position_of`` finds a record's place and ``read_since`` copies records. ``runtime/journal_read.py`` (imported on the first read) and ``proto/stream.py``
read through these alone.

Budget: the files may hold ``max_bytes``. To make room, whole sessions are deleted oldest
first, but only sessions the host has acknowledged and never the newest one. When nothing can
be deleted the journal is *full* (``is_full``): the session in progress may continue into
``reserve_bytes`` so the game at the table stays logged, and the table starts no new session
(``room_for_session``) until the host has pulled and acknowledged; beyond the reserve, and for
a session started while full all the same, records are counted in ``dropped`` and not written, the game goes on, and a
``REC_GAP`` record notes the loss once room returns during the same session. A flush that
fails (the flash itself is full, an I/O error) drops its batch the same way and counts as full
until a later flush succeeds or a session is deleted.
"""

import os
import struct
from binascii import crc32, hexlify

from tiletable.drivers.clock import ticks_diff
from tiletable.engine.rulesets import canonical_json
from tiletable.record import (
    CRC_SIZE,
    HEAD_SIZE,
    MAX_PAYLOAD,
    MAX_RECORD,
    OVERHEAD,
    RECORD_NAMES,
    REC_ACTION,
    REC_CLOCK,
    REC_END,
    REC_GAP,
    REC_HEADER,
    REC_RESUME,
    REC_SCORE,
    REC_TIMED_ACTION,
    REC_UNDO,
    crc_matches,
    decode_record,
    encode_record,
    parse_json_payload,
    payload_size,
)

_SESSION_SUFFIX = ".tjs"
_STATE_MAGIC = b"TJS2"
_STATE_FORMAT = "<4sII16s"  # magic, boot counter, acknowledged sequence number, identity; then the name (+ CRC-32)
_STATE_SIZE = 28
_OLD_MAGIC = b"TJS1"  # before identities: magic, boot, acked (+ CRC-32); read, then written anew
MAX_NAME = 32  # bytes of UTF-8 in the table's name


class JournalError(ValueError):
    """A request the journal cannot honour (no session in progress, acknowledging the future)."""


class Journal:
    """The session journal in directory ``root``; see the module docstring.

    Example::

        journal = Journal("/journal")
        journal.start_session("muggins", ruleset.hash, ["ann", "bob"], "0.3.0")
        journal.log_action("5-5", 42)
        journal.log_score(0, 10, "fives")
        journal.end_session({"reason": "over", "scores": [61, 40]})
    """

    def __init__(
        self, root, max_bytes=256 * 1024, reserve_bytes=16 * 1024, buffer_size=1024, flush_records=None, flush_ms=30
    ):
        if buffer_size < MAX_RECORD:
            raise ValueError("buffer_size %d is smaller than one record (%d)" % (buffer_size, MAX_RECORD))
        self.root = root
        self.max_bytes = max_bytes
        self.reserve_bytes = reserve_bytes
        self.flush_records = flush_records
        self.flush_ms = flush_ms
        self._buf = bytearray(buffer_size)
        self._record = bytearray(MAX_RECORD)
        self._pending = 0  # bytes in _buf
        self._pending_records = 0
        self._pending_since = None
        self._file = None
        self.firsts = []  # first sequence number of each session file, ascending (read-only outside)
        self.sizes = []  # valid bytes of each session file (read-only outside)
        self._stored = 0  # sum of sizes
        self._ended = []  # whether each session file ends with REC_END
        self._cursor = None  # (file index, offset, next seq) where the last read stopped
        self._reader = None  # (first seq, open file): open_reader's, closed before that file is written
        self.dropped = 0
        self.is_full = False
        self._flash_full = False  # the last flush failed (no space, I/O error)
        self.repaired_bytes = 0  # torn or garbage bytes dropped at open
        self.flush_count = 0
        self._session_logged = False
        self._dropped_in_session = 0
        try:
            os.mkdir(root)
        except OSError:
            pass
        self._remove_temporaries()
        self.identity = None  # from the state file, else from a session header (_verify), else new
        self.name = ""
        self.boot, self.acked = self._read_state()
        self.next_seq = max(self._scan(), self.acked) + 1
        if self.identity is None:
            self.identity = _new_identity()
        self.durable_seq = self.next_seq - 1  # the last record known to be on flash
        self.boot += 1
        self._write_state()
        self.in_session = bool(self.firsts) and not self._ended[-1]
        self._session_logged = self.in_session

    # ----- opening

    def _path(self, first):
        return "%s/%08x%s" % (self.root, first, _SESSION_SUFFIX)

    def _remove_temporaries(self):
        for name in os.listdir(self.root):
            if name.endswith(".tmp"):
                os.remove(self.root + "/" + name)

    def _read_state(self):
        """Boot counter and acknowledgement (and ``identity``, ``name``); a missing or damaged
        state file gives (0, 0), which is safe: nothing counts as acknowledged, and the boot
        counter and the identity are recovered from the session headers by ``_scan``. A state
        file from before identities (TJS1) keeps its counters; the journal gets an identity."""
        try:
            with open(self.root + "/state", "rb") as f:
                data = f.read()
        except OSError:
            return 0, 0
        end = len(data) - CRC_SIZE
        if end < 12 or crc32(data[:end]) & 0xFFFFFFFF != struct.unpack_from("<I", data, end)[0]:
            return 0, 0
        magic, boot, acked = struct.unpack_from("<4sII", data, 0)
        if magic == _STATE_MAGIC and _STATE_SIZE <= end <= _STATE_SIZE + MAX_NAME:
            self.identity = data[12:_STATE_SIZE].decode()
            self.name = data[_STATE_SIZE:end].decode()
        elif magic != _OLD_MAGIC or end != 12:
            return 0, 0
        return boot, acked

    def _write_state(self):
        """Save the boot counter and acknowledgement over ``state``. On littlefs (the Pico's) a
        file's new contents replace the old whole when it is closed, and a power cut before
        leaves the old (tests/runtime/test_littlefs_power_cut.py); written to a temporary file
        and renamed, an acknowledgement took 3.8-9.2 ms of an RP2040's time and grew the
        directory's metadata log twice as fast, written over 1.0-1.1 ms. Elsewhere a torn
        write fails the CRC. A full flash keeps the old state. Either is safe: the boot counter
        is recovered from the session headers, and a lost acknowledgement only delays rotation."""
        name = self.name.encode()
        end = _STATE_SIZE + len(name)
        data = bytearray(end + CRC_SIZE)
        struct.pack_into(_STATE_FORMAT, data, 0, _STATE_MAGIC, self.boot, self.acked, self.identity.encode())
        data[_STATE_SIZE:end] = name
        struct.pack_into("<I", data, end, crc32(memoryview(data)[:end]) & 0xFFFFFFFF)
        try:
            with open(self.root + "/state", "wb") as f:
                f.write(data)
                _sync(f)
        except OSError:
            self._flash_full = True

    def _scan(self):
        """Verify every session file, repair a torn tail, build the index; return the last
        valid sequence number (0 for an empty journal)."""
        firsts = []
        for name in os.listdir(self.root):
            if name.endswith(_SESSION_SUFFIX) and len(name) == 8 + len(_SESSION_SUFFIX):
                try:
                    firsts.append(int(name[:8], 16))
                except ValueError:
                    pass
        firsts.sort()
        highest_boot = self.boot
        last_seq = 0
        for first in firsts:
            path = self._path(first)
            valid, count, last_type, boot = self._verify(path, first)
            if valid == 0:
                if first == firsts[-1]:  # a session cut while starting: not even its header
                    os.remove(path)
                continue  # an older file cannot be torn by a power cut: left for inspection
            size = os.stat(path)[6]
            sealed = False
            if size > valid:
                if self._truncate(path, valid):
                    self.repaired_bytes += size - valid
                else:  # no room to repair: read up to the last good record, never append
                    sealed = True
            if boot > highest_boot:
                highest_boot = boot
            self.firsts.append(first)
            self.sizes.append(valid)
            self._stored += valid
            self._ended.append(last_type == REC_END or sealed)
            last_seq = first + count - 1
        self.boot = highest_boot
        return last_seq

    def _verify(self, path, first):
        """Check every record of a session file: ``(valid bytes, valid records, type of the
        last valid record, highest boot counter it mentions)``."""
        record = self._record
        mv = memoryview(record)
        valid = 0
        last_type = None
        boot = 0
        expected = first
        with open(path, "rb") as f:
            while True:
                if f.readinto(mv[:HEAD_SIZE]) != HEAD_SIZE:
                    break
                n, rtype, seq = struct.unpack_from("<HBI", record, 0)
                if n > MAX_PAYLOAD or seq != expected or rtype not in RECORD_NAMES:
                    break
                if (rtype == REC_HEADER) != (seq == first):
                    break
                if f.readinto(mv[HEAD_SIZE : OVERHEAD + n]) != n + CRC_SIZE:
                    break
                if not crc_matches(record, 0, HEAD_SIZE + n):
                    break
                if rtype == REC_HEADER:
                    header = parse_json_payload(mv[HEAD_SIZE : HEAD_SIZE + n])
                    boot = header.get("boot", 0)
                    if self.identity is None:  # the state file is lost: the headers carry it
                        self.identity = header.get("journal")
                elif rtype == REC_RESUME:
                    boot = max(boot, int(bytes(mv[HEAD_SIZE : HEAD_SIZE + n])))
                valid += OVERHEAD + n
                last_type = rtype
                expected += 1
        return valid, expected - first, last_type, boot

    def _truncate(self, path, length):
        """Keep the first ``length`` bytes of ``path``: copy them to a temporary file and rename
        it over the original, so a power cut during the repair leaves the old file. Returns
        False (the file unchanged) when the copy does not fit on the flash."""
        tmp = path + ".tmp"
        mv = memoryview(self._buf)
        try:
            with open(path, "rb") as src:
                with open(tmp, "wb") as dst:
                    left = length
                    while left:
                        got = src.readinto(mv[: min(left, len(mv))])
                        dst.write(mv[:got])
                        left -= got
                    _sync(dst)
            os.rename(tmp, path)
            return True
        except OSError:
            try:
                os.remove(tmp)
            except OSError:
                pass
            return False

    # ----- writing

    def start_session(self, ruleset_name, ruleset_hash, players, firmware, start_time=None):
        """Open a new session with its header record. An unfinished session is ended first
        with ``{"reason": "abandoned"}``. Returns the header's sequence number, or 0 when the
        journal is full and this session cannot be logged.

        :raises MemoryError: no room in the heap for the open file; no session is open then
            (the table refuses the game rather than play it unlogged).
        """
        if self.in_session:
            self.end_session({"reason": "abandoned"})
        self.flush()  # an end still in the buffer goes to its own file first
        header = {
            "ruleset": ruleset_name,
            "hash": ruleset_hash,
            "players": list(players),
            "boot": self.boot,
            "journal": self.identity,
            "firmware": firmware,
            "time": start_time,
        }
        payload = canonical_json(header).encode()
        if len(payload) > MAX_PAYLOAD:
            raise ValueError("session header of %d bytes is over %d" % (len(payload), MAX_PAYLOAD))
        seq = self.next_seq
        logged = self._room_for(OVERHEAD + len(payload), new_session=True)
        if logged:
            self._close_file()
            logged = self._open(self._path(seq), "wb")  # before any change: see :raises:
            if not logged:
                self._remove(self._path(seq))  # in case the refusal came after its creation
        self.in_session = True
        self._dropped_in_session = 0
        self._session_logged = logged
        if logged:
            self.firsts.append(seq)
            self.sizes.append(0)
            self._ended.append(False)
            self._add(REC_HEADER, payload)
            self.flush()  # a failure here forgets the file: see _write_failed
        if not self._session_logged:
            self.dropped += 1
            return 0
        return seq

    def _open(self, path, mode):
        """Open a session file for writing as ``self._file``; False when the flash refuses."""
        try:
            self._file = open(path, mode)
            return True
        except OSError:
            self._flash_full = True
            self.is_full = True
            return False

    def resume(self):
        """Continue the session found in progress at open (after a restart); logs REC_RESUME."""
        if not self.in_session:
            raise JournalError("no session to resume")
        return self.log(REC_RESUME, str(self.boot))

    def log_action(self, text, tenths=-1):
        """Journal an action played ``tenths`` of a second after the session started; without
        a time, as journals were written before actions had times (``REC_ACTION``)."""
        return self.log(REC_ACTION if tenths < 0 else REC_TIMED_ACTION, text, tenths)

    def log_score(self, seat, points, rule):
        return self.log(REC_SCORE, "%d %d %s" % (seat, points, rule))

    def log_undo(self, amended_seq):
        return self.log(REC_UNDO, str(amended_seq))

    def log_clock(self, unix_seconds):
        return self.log(REC_CLOCK, str(unix_seconds))

    def end_session(self, result, flush=True):
        """Close the session with a REC_END record (``result`` is a JSON-able dict) and flush;
        without ``flush`` the end waits in the buffer for the next flush (the app's, once the
        play that ended the match is shown), which closes the file."""
        seq = self.log(REC_END, canonical_json(result))
        if self._session_logged:
            self._ended[-1] = True
        self.in_session = False
        if flush:
            self.flush()
            self._close_file()
        return seq

    def log(self, rtype, payload, tenths=-1):
        """Append a record to the session in progress (``tenths``: see ``encode_record``);
        returns its sequence number, or 0 if it was dropped because the journal is full.

        :raises JournalError: when no session is in progress.
        :raises ValueError: for a payload over MAX_PAYLOAD bytes.
        """
        if not self.in_session:
            raise JournalError("no session in progress (record type %d)" % rtype)
        if isinstance(payload, str):
            payload = payload.encode()
        size = payload_size(payload, tenths)
        if size > MAX_PAYLOAD:
            raise ValueError("journal payload of %d bytes is over %d" % (size, MAX_PAYLOAD))
        if (
            not self._session_logged
            or not self._room_for(OVERHEAD + size)
            or (self._file is None and not self._open(self._path(self.firsts[-1]), "ab"))
        ):
            self.dropped += 1
            self._dropped_in_session += 1
            return 0
        if self._dropped_in_session:
            lost = str(self._dropped_in_session).encode()
            self._dropped_in_session = 0
            if self._room_for(OVERHEAD + len(lost)):
                self._add(REC_GAP, lost)
        seq = self._add(rtype, payload, tenths)
        if self.flush_records is not None and self._pending_records >= self.flush_records:
            self.flush()
        return seq

    def _add(self, rtype, payload, tenths=-1):
        if self._pending + OVERHEAD + payload_size(payload, tenths) > len(self._buf):
            self.flush()
        seq = self.next_seq
        self._pending = encode_record(self._buf, self._pending, rtype, seq, payload, tenths)
        self._pending_records += 1
        self.next_seq = seq + 1
        return seq

    def poll(self, now_ms, hold=False):
        """Flush the pending records, unless ``hold`` (more of a batch is coming: a deal) and
        they have waited less than ``flush_ms``, timed from the first poll that saw them.
        Call it once the table has shown what it accepted; returns whether it flushed."""
        if not self._pending_records:
            return False
        if self._pending_since is None:
            self._pending_since = now_ms
        if hold and ticks_diff(now_ms, self._pending_since) < self.flush_ms:
            return False
        self.flush()
        return True

    def flush(self):
        """Write the pending records to flash and sync the file. A failed write (no space,
        I/O error) drops the pending records and keeps the game going; see ``_write_failed``."""
        if not self._pending:
            return
        if self._reader is not None and self._reader[0] == self.firsts[-1]:
            self.end_read()  # a reader sees the file as it was opened: never one that changes
        try:
            self._file.write(memoryview(self._buf)[: self._pending])
            _sync(self._file)
        except OSError:
            self._write_failed()
            return
        self.sizes[-1] += self._pending
        self._stored += self._pending
        self.durable_seq = self.next_seq - 1
        self._pending = 0
        self._pending_records = 0
        self._pending_since = None
        self._flash_full = False
        self.flush_count += 1
        if not self.in_session:  # the session's end was the last of it (end_session)
            self._close_file()

    def _write_failed(self):
        """After a failed write the file may hold part of the batch: cut it back to its last
        valid record and reuse the lost sequence numbers, so the file stays one unbroken run of
        records. A host may have read the lost records, but never as on flash (above
        ``durable_seq``): it stores none of them (see ``read_since``)."""
        lost = self._pending_records
        self.dropped += lost
        self._dropped_in_session += lost
        self._pending = 0
        self._pending_records = 0
        self._pending_since = None
        try:
            self._file.close()
        except OSError:
            pass
        self._file = None
        self._flash_full = True
        self.is_full = True
        first = self.firsts[-1]
        path = self._path(first)
        valid, count, _, _ = self._verify(path, first)
        self._stored += valid - self.sizes[-1]
        self.sizes[-1] = valid
        self.next_seq = first + count
        self.durable_seq = self.next_seq - 1
        if count == 0:  # even the header is lost: the session goes unlogged
            self._session_logged = False
            self._forget_newest(path)
        elif os.stat(path)[6] > valid and not self._truncate(path, valid):
            # no room even to repair: seal the file at its last good record (reads stop there,
            # the next open repairs it) and log no more of this session
            self._session_logged = False
            self._ended[-1] = True

    def _forget_newest(self, path):
        self._remove(path)
        self._stored -= self.sizes.pop()
        self.firsts.pop()
        self._ended.pop()
        self._cursor = None

    @staticmethod
    def _remove(path):
        try:
            os.remove(path)
        except OSError:
            pass

    def close(self):
        self.flush()
        self._close_file()
        self.end_read()

    def _close_file(self):
        if self._file is not None:
            self._file.close()
            self._file = None

    # ----- budget

    def total_bytes(self):
        return self._stored + self._pending

    def _room_for(self, size, new_session=False):
        """Whether ``size`` more bytes may be written, deleting acknowledged sessions if needed."""
        needed = self.total_bytes() + size
        if needed > self.max_bytes:
            self._rotate(needed - self.max_bytes)
            needed = self.total_bytes() + size
        self.is_full = needed > self.max_bytes or self._flash_full
        if not self.is_full:
            return True
        return not new_session and needed <= self.max_bytes + self.reserve_bytes

    def room_for_session(self):
        """Whether a new session would be journalled: a header of any size fits under
        ``max_bytes`` once the acknowledged sessions that may go are gone. When it does not, the
        table refuses new games (it never plays one unlogged) until the host pulls and
        acknowledges; the session in progress goes on into ``reserve_bytes``."""
        return self._room_for(MAX_RECORD, new_session=True)

    def _rotate(self, excess):
        """Delete the oldest acknowledged sessions (never the newest file) until ``excess``
        bytes are freed or the next one is not fully acknowledged."""
        while excess > 0 and len(self.firsts) > 1 and self.firsts[1] - 1 <= self.acked:
            if self._reader is not None and self._reader[0] == self.firsts[0]:
                self.end_read()
            os.remove(self._path(self.firsts[0]))
            excess -= self.sizes[0]
            self._stored -= self.sizes[0]
            self.firsts.pop(0)
            self.sizes.pop(0)
            self._ended.pop(0)
            self._cursor = None
            self._flash_full = False

    def set_name(self, name):
        """Keep the table's name (``tiletable name``; "" for none) on flash at once.

        :raises ValueError: for a name over MAX_NAME bytes.
        """
        if len(name.encode()) > MAX_NAME:
            raise ValueError("a table's name is at most %d bytes" % MAX_NAME)
        self.name = name
        self._write_state()

    def acknowledge(self, seq):
        """Record that the host has stored every record up to ``seq`` (persists at once).

        :raises JournalError: for a sequence number not yet on flash (so never read by the host).
        """
        if seq > self.durable_seq:
            raise JournalError("cannot acknowledge %d: the last record on flash is %d" % (seq, self.durable_seq))
        if seq > self.acked:
            self.acked = seq
            self._write_state()
            self._room_for(0)
        return self.acked

    # ----- reading

    def first_seq(self):
        return self.firsts[0] if self.firsts else self.next_seq

    def read_since(self, after_seq, out):
        """Copy whole records with sequence numbers above ``after_seq`` into ``out`` (a
        bytearray) while they fit; return the number of bytes copied (0 when there is nothing
        newer). Each file is read in one piece per call and checked record by record in
        memory; reading on from where the last call stopped costs no rescan. A record that
        fails its check ends what is read of that file (the open-time scan makes that rare).

        Reading flushes nothing (a host that watches the game must not multiply the flash
        syncs the batching saves): the records still in the write buffer follow the ones on
        flash. Those above ``durable_seq`` are not on flash yet; a failed flush may number
        other records with them (see ``_write_failed``), so a host stores and acknowledges
        only up to ``durable_seq`` and reads the rest again.

        :raises ValueError: when ``out`` cannot hold a record of the largest size.
        """
        from tiletable.runtime.journal_read import read_since  # on the first read: not in the boot's heap

        used, self._cursor = read_since(self, after_seq, out, self._cursor, memoryview(self._buf)[: self._pending])
        return used

    def position_of(self, seq):
        """(file index, offset) on flash of record ``seq``, or of the first record after it
        when it is gone (rotated away); the newest file's end for one still in the write buffer."""
        from tiletable.runtime.journal_read import position_of  # on the first read, as above

        return position_of(self, seq, self._cursor)

    def open_reader(self, first):
        """The session file whose first record is ``first`` (one of ``firsts``), open for
        reading (its first ``sizes`` bytes are whole verified records) and kept open between
        calls (an open takes 2 ms on the chip) until ``end_read``, which the journal calls
        itself before it writes to that file or removes it.

        :raises OSError: when the file is gone.
        """
        reader = self._reader
        if reader is None or reader[0] != first:
            self.end_read()
            reader = self._reader = (first, open(self._path(first), "rb"))
        return reader[1]

    def end_read(self):
        """Close the file ``open_reader`` keeps open (an open file holds heap: a littlefs cache)."""
        if self._reader is not None:
            self._reader[1].close()
            self._reader = None

    def _read_record(self, f, offset, index):
        """Read and verify the record at ``offset`` into ``self._record``; its size or -1."""
        mv = memoryview(self._record)
        if f.readinto(mv[:HEAD_SIZE]) != HEAD_SIZE:
            return -1
        n = struct.unpack_from("<H", self._record, 0)[0]
        if n > MAX_PAYLOAD or offset + OVERHEAD + n > self.sizes[index]:
            return -1
        if f.readinto(mv[HEAD_SIZE : OVERHEAD + n]) != n + CRC_SIZE:
            return -1
        if decode_record(self._record, 0, OVERHEAD + n) is None:
            return -1
        return OVERHEAD + n

    def _records_of(self, index):
        """Yield ``(seq, rtype, payload bytes)`` for the records of session file ``index``."""
        with open(self._path(self.firsts[index]), "rb") as f:
            offset = 0
            while offset < self.sizes[index]:
                got = self._read_record(f, offset, index)
                if got < 0:
                    return
                seq, rtype, n = decode_record(self._record, 0, got)
                yield seq, rtype, bytes(self._record[HEAD_SIZE : HEAD_SIZE + n])
                offset += got

    def _header_of(self, index):
        with open(self._path(self.firsts[index]), "rb") as f:
            got = self._read_record(f, 0, index)
        if got < 0:
            return None
        return parse_json_payload(memoryview(self._record)[HEAD_SIZE : got - CRC_SIZE])

    def session_records(self):
        """Yield ``(seq, rtype, payload)`` of the session in progress, header first, so the
        runtime can rebuild the game after a restart (then call ``resume()``)."""
        if not self.in_session or not self._session_logged:
            raise JournalError("no session in progress")
        self.flush()
        for record in self._records_of(len(self.firsts) - 1):
            yield record

    def sessions(self, after_first=-1):
        """The sessions whose first sequence number is above ``after_first``, oldest first, as
        dicts: first, last, header (dict), ended, acked. Flushes nothing: a header reaches
        the flash when its session starts."""
        out = []
        for index in range(len(self.firsts)):
            first = self.firsts[index]
            if first <= after_first:
                continue
            header = self._header_of(index)
            if index + 1 < len(self.firsts):
                last = self.firsts[index + 1] - 1
            else:
                last = self.next_seq - 1
            out.append({"first": first, "last": last, "header": header, "ended": self._ended[index], "acked": last <= self.acked})
        return out


def _new_identity():
    """A new journal's identity: 8 random bytes as 16 hex digits (os.urandom on the Pico and
    the unix port; the WebAssembly port has only ``random``, seeded at random)."""
    try:
        raw = os.urandom(8)
    except AttributeError:
        import random

        raw = struct.pack("<II", random.getrandbits(32), random.getrandbits(32))
    return hexlify(raw).decode()


def _sync(f):
    """Make written data durable: littlefs commits at flush(); CPython also needs fsync."""
    f.flush()
    fsync = getattr(os, "fsync", None)
    if fsync is not None:
        fsync(f.fileno())

