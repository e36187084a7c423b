"""Enrolment over the link: what lies on a zone, writing a tag's record, the UID table.

TAG_SCAN answers from the tray's confirmed state (no radio work in the handler). TAG_WRITE
hands the write to the tray, which does it the next time that zone's field is on
(runtime/tray.py); the table reports the result as a TAG_WRITE event. UID_PUT changes the
UID table (runtime/identity.py, which reads it at boot), the fallback for tags that cannot
carry a record, and saves it whole: written to ``uids.tmp``, then renamed over ``uids.json`` (rename is atomic on
littlefs and POSIX), so a power cut leaves the old table or the new one, never a torn one.

The app imports this module on the first tag request only: enrolment is rare, and the
Pico's heap holds every imported module's bytecode.

Example::

    tags = TagService(tray, "/uids.json", lambda: None)
    server.register(TAG_SCAN, tags.scan, "tags")
"""
import binascii
import os

from tiletable import tagrecord
from tiletable.proto.messages import E_BAD_VALUE, E_STORAGE, ProtocolError
from tiletable.runtime.identity import uid_hex


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
        try:
            self.tray.write_tag(zone, uid, record)
        except ValueError as err:
            raise ProtocolError(E_BAD_VALUE, str(err))
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
