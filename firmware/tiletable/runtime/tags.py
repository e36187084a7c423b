"""Enrolment over the link: what lies on a zone, writing a tag's record, the UID table.

TAG_SCAN answers from the tray's confirmed state (no radio work in the handler). TAG_WRITE
gives the tray a ``TagWrite`` job, which it runs the next time that zone's field is on
(runtime/tray.py); the table reports the result as a TAG_WRITE event. UID_PUT changes the
UID table (runtime/identity.py, which reads it at boot), the fallback for tags that cannot
carry a record, and saves it whole: written to ``uids.tmp``, then renamed over ``uids.json``
(rename is atomic on littlefs and POSIX), so a power cut leaves the old table or the new one,
never a torn one.

The app imports this module on the first tag request only: enrolment is rare, and the
Pico's heap holds every imported module's bytecode.

Example::

    tags = TagService(tray, "/uids.json", lambda: None)
    server.register(TAG_SCAN, tags.scan, "tags")
"""
import binascii
import os

from tiletable import tagrecord
from tiletable.drivers.mfrc522 import NAK
from tiletable.proto.messages import E_BAD_VALUE, E_STORAGE, ProtocolError
from tiletable.runtime.identity import uid_hex
from tiletable.runtime.tray import TAG_WRITTEN
from tiletable.tagrecord import WRITE_REFUSED

_RECORD_PAGE = tagrecord.FIRST_PAGE  # the record fills pages 4-7


class TagWrite:
    """A tray job (``tray.job``): write the 16-byte ``record`` into pages 4-7 of tag ``uid`` on
    ``zone`` once that zone's field is on. It selects that UID (never another tag on the pad),
    WRITEs page 4 first and the CRC last, so a tag lifted half-way reads as damaged, never as
    another piece, and READs the record back. A TAG_WRITTEN event carries the UID and
    ``reason`` None, or why not; the tag is then identified afresh (``tray.forget``), so a
    PLACED event names what it is now, and a torn write shows as a damaged tag.

    :raises ValueError: for a record that is not 16 bytes.
    """

    def __init__(self, zone, uid, record):
        if len(record) != 16:
            raise ValueError("a tag record is 16 bytes, not %d" % len(record))
        self.zone = zone
        self.uid = bytes(uid)
        self.record = bytes(record)

    def run(self, tray, zone, now_ms):
        if zone.reader is None:
            reason = "the reader of zone %d is not answering" % zone.index
        else:
            try:
                reason = self._write(zone.reader, tray.max_tags)
            except OSError as err:
                reason = "reader error: %s" % err
        tray.events.put(TAG_WRITTEN, zone.index, now_ms, (), len(zone.present), reason, self.uid)
        tray.forget(self.uid)  # even a failed write may have changed some pages: read it afresh

    def _write(self, reader, max_tags):
        """Select the tag among those in the field, write, read back; None or why not."""
        if reader.probe() == 0:
            return "no tag on the pad"
        found = bytearray(10)
        back = bytearray(16)
        for _ in range(3 * max_tags + 3):
            n = reader.select_next(found)
            if n == 0:
                return "that tag is no longer on the pad"
            if n < 0:
                continue
            if bytes(found[:n]) != self.uid:
                reader.halt()  # another tag on the same pad: never write it
                continue
            for i in range(4):
                r = reader.write(_RECORD_PAGE + i, self.record[4 * i : 4 * i + 4])
                if r == NAK:
                    return "%s %d (locked, or not an NTAG213)" % (WRITE_REFUSED, _RECORD_PAGE + i)
                if r < 0:
                    return "no clean answer writing page %d (was the tag moved?)" % (_RECORD_PAGE + i)
            r = reader.read(_RECORD_PAGE, back)
            reader.halt()
            if r != 16:
                return "the record could not be read back (was the tag moved?)"
            if bytes(back) != self.record:
                return "the record read back differs from the one written"
            return None
        return "the radio kept failing on that pad"


def parse_uid(text):
    """A UID from its hex text (4, 7 or 10 bytes). :raises ProtocolError: E_BAD_VALUE."""
    try:
        uid = binascii.unhexlify(text)
    except ValueError:
        uid = b""
    if len(uid) not in (4, 7, 10):
        raise ProtocolError(E_BAD_VALUE, "uid %r is not 4, 7 or 10 bytes of hex" % (text,))
    return uid


class TagService:
    """The TAG_SCAN, TAG_WRITE and UID_PUT handlers for ``tray``; ``busy()`` returns why tags
    must not be changed now (a game in progress, the self test), or None."""

    def __init__(self, tray, path, busy):
        self.tray = tray
        self.path = path
        self.busy = busy

    def _zone(self, fields):
        zone = fields["zone"]
        if zone >= len(self.tray.zones):
            raise ProtocolError(E_BAD_VALUE, "no zone %d on this table (0..%d)" % (zone, len(self.tray.zones) - 1))
        return zone

    def _refuse_when_busy(self):
        why = self.busy()
        if why:
            raise ProtocolError(E_BAD_VALUE, why)

    def scan(self, fields):
        rows = []
        for uid, identity, reason in self.tray.tags_on(self._zone(fields)):
            kind, set_id, item = identity if identity is not None else (0, 0, 0)
            rows.append({"uid": uid_hex(uid), "status": reason or "", "kind": kind, "set": set_id, "item": item})
        return {"tags": rows}

    def write(self, fields):
        self._refuse_when_busy()
        zone = self._zone(fields)
        uid = parse_uid(fields["uid"])
        record = fields["record"]
        try:
            tagrecord.decode(record)
        except tagrecord.TagRecordError as err:
            raise ProtocolError(E_BAD_VALUE, "not a tag record to write: %s" % err)
        if all(found != uid for found, _, _ in self.tray.tags_on(zone)):
            raise ProtocolError(E_BAD_VALUE, "tag %s is not on zone %d" % (fields["uid"], zone))
        if self.tray.job is not None:
            raise ProtocolError(E_BAD_VALUE, "a tag write on zone %d is still waiting" % self.tray.job.zone)
        self.tray.job = TagWrite(zone, uid, record)
        return {}

    def uid_put(self, fields):
        self._refuse_when_busy()
        uid = parse_uid(fields["uid"])
        table = self.tray.resolver.table
        before = table.get(uid)
        if fields["kind"] == 0:
            table.remove(uid)
        else:
            try:
                table.add(uid, (fields["kind"], fields["set"], fields["item"]))
            except ValueError as err:
                raise ProtocolError(E_BAD_VALUE, str(err))
        try:
            self._save(table)
        except OSError as err:
            if before is None:  # keep memory as flash has it
                table.remove(uid)
            else:
                table.add(uid, before)
            raise ProtocolError(E_STORAGE, "uid table not saved: %s" % err)
        self.tray.forget(uid)
        return {"entries": len(table)}

    def _save(self, table):
        temp = self.path + ".tmp"
        with open(temp, "w") as f:
            f.write(table.dumps())
        os.rename(temp, self.path)
