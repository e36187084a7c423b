# portable
"""The enrolment requests on the device: TAG_SCAN, TAG_WRITE and UID_PUT through the link
server's framing, the UID table saved whole (a torn save keeps the old table), refusals."""
from ntag213 import Ntag213
from rfid_tray import VirtualTray
from runtime.scratch import fresh_dir, write_bytes
from tiletable import tagrecord
from tiletable.proto.frame import FrameDecoder, encode_frame
from tiletable.proto.messages import (
    E_BAD_VALUE,
    ERROR,
    REPLY,
    TAG_SCAN,
    TAG_WRITE,
    UID_PUT,
    decode_payload,
    encode_payload,
)
from tiletable.proto.server import LinkServer
from tiletable.runtime.identity import Resolver, UidTable
from tiletable.record import MAX_RECORD
from tiletable.runtime.journal import Journal
from tiletable.runtime.rulestore import RuleStore
from tiletable.runtime.tags import TagService
from tiletable.runtime.tray import Tray

TILE = tagrecord.KIND_TILE
LOCKED_UID = "04c50001102030"


class Device:
    """A two-zone tray, the tag service and a link server on a scratch directory."""

    def __init__(self, name, busy=None):
        self.root = fresh_dir(name)
        self.path = self.root + "/uids.json"
        self.table = VirtualTray(2, display=False)  # the link server needs the heap the display's driver would take
        self.tray = Tray(self.table.openers, Resolver(UidTable.read(self.path)))
        self.busy_reason = busy
        # a journal buffer of one record: no tag request journals anything, and the heap is tight
        journal = Journal(self.root + "/journal", buffer_size=MAX_RECORD)
        self.server = LinkServer(RuleStore(self.root + "/rulesets"), journal, "0", "t")
        tags = TagService(self.tray, self.path, lambda: self.busy_reason)
        self.server.register(TAG_SCAN, tags.scan, "tags")
        self.server.register(TAG_WRITE, tags.write, "tags")
        self.server.register(UID_PUT, tags.uid_put, "tags")
        self.decoder = FrameDecoder()
        self.seq = 0

    def ask(self, msg_type, fields):
        """One request; returns ``(reply type, fields)``."""
        self.seq += 1
        replies = self.server.receive(encode_frame(msg_type, self.seq, encode_payload(msg_type, fields)))
        frames = list(self.decoder.feed(b"".join(replies)))
        _, got_type, _, payload = frames[0]
        return got_type, decode_payload(got_type, payload)

    def scan(self, zone):
        got_type, fields = self.ask(TAG_SCAN, {"zone": zone})
        assert got_type == TAG_SCAN | REPLY, fields
        return [(r["uid"], r["status"], (r["kind"], r["set"], r["item"])) for r in fields["tags"]]


def locked_tag():
    return Ntag213(bytes.fromhex(LOCKED_UID), read_only=True)


def test_scan_lists_each_tag_with_its_reason_or_identity():
    device = Device("tags-scan")
    device.table.models[1].place(locked_tag(), Ntag213(b"\x04\x01\x02\x03\x04\x05\x06", user=tagrecord.encode(TILE, 3, 0x66)))
    device.table.run(device.tray, 100)
    assert sorted(device.scan(1)) == [("04010203040506", "", (TILE, 3, 0x66)), (LOCKED_UID, "blank", (0, 0, 0))]
    assert device.scan(0) == []
    got_type, fields = device.ask(TAG_SCAN, {"zone": 2})
    assert got_type == ERROR and fields["code"] == E_BAD_VALUE and fields["message"] == "no zone 2 on this table (0..1)"


def test_uid_put_enrols_a_locked_tag_and_the_table_survives_a_restart():
    device = Device("tags-uid")
    device.table.models[0].place(locked_tag())
    device.table.run(device.tray, 100)
    got_type, fields = device.ask(UID_PUT, {"uid": LOCKED_UID, "kind": TILE, "set": 4, "item": 0x34})
    assert (got_type, fields) == (UID_PUT | REPLY, {"entries": 1})
    device.table.run(device.tray, 100)
    assert device.scan(0) == [(LOCKED_UID, "", (TILE, 4, 0x34))]
    # a save cut short before the rename leaves a .tmp behind: the saved table is what counts
    write_bytes(device.path + ".tmp", b'{"04c5')
    assert UidTable.read(device.path).get(bytes.fromhex(LOCKED_UID)) == (TILE, 4, 0x34)
    # a damaged file reads as an empty table: the table boots
    write_bytes(device.path + ".bad", b'{"04c5000110": [1, 4')
    assert len(UidTable.read(device.path + ".bad")) == 0
    # kind 0 removes the entry; the tag is unknown again
    assert device.ask(UID_PUT, {"uid": LOCKED_UID, "kind": 0, "set": 0, "item": 0})[1] == {"entries": 0}
    device.table.run(device.tray, 100)
    assert device.scan(0) == [(LOCKED_UID, "blank", (0, 0, 0))]
    assert len(UidTable.read(device.path)) == 0


def test_tag_write_queues_a_checked_record_for_a_tag_on_the_zone():
    device = Device("tags-write")
    blank = Ntag213(b"\x04\x0a\x0b\x0c\x0d\x0e\x0f")
    device.table.models[0].place(blank)
    device.table.run(device.tray, 100)
    record = tagrecord.encode(TILE, 2, 0x55)
    assert device.ask(TAG_WRITE, {"zone": 0, "uid": "040a0b0c0d0e0f", "record": record}) == (TAG_WRITE | REPLY, {})
    device.table.run(device.tray, 100)
    assert device.scan(0) == [("040a0b0c0d0e0f", "", (TILE, 2, 0x55))]
    assert bytes(blank.memory[16:32]) == record


def test_tag_requests_are_refused_with_a_reason():
    device = Device("tags-refused")
    device.table.models[0].place(Ntag213(b"\x04\x0a\x0b\x0c\x0d\x0e\x0f"))
    device.table.run(device.tray, 100)
    record = tagrecord.encode(TILE, 2, 0x55)
    cases = [
        ({"zone": 0, "uid": "04ff", "record": record}, "uid '04ff' is not 4, 7 or 10 bytes of hex"),
        ({"zone": 0, "uid": "zz0a0b0c0d0e0f", "record": record}, "is not 4, 7 or 10 bytes of hex"),
        ({"zone": 1, "uid": "040a0b0c0d0e0f", "record": record}, "tag 040a0b0c0d0e0f is not on zone 1"),
        ({"zone": 0, "uid": "040a0b0c0d0e0f", "record": b"\x00" * 16}, "not a tag record to write: blank tag"),
    ]
    for fields, message in cases:
        got_type, reply = device.ask(TAG_WRITE, fields)
        assert got_type == ERROR and reply["code"] == E_BAD_VALUE and message in reply["message"], reply
    ok = {"zone": 0, "uid": "040a0b0c0d0e0f", "record": record}
    assert device.ask(TAG_WRITE, ok) == (TAG_WRITE | REPLY, {})
    got_type, reply = device.ask(TAG_WRITE, ok)  # the first one has not run yet
    assert got_type == ERROR and reply["message"] == "a tag write on zone 0 is still waiting"
    device.table.run(device.tray, 100)
    got_type, reply = device.ask(UID_PUT, {"uid": LOCKED_UID, "kind": TILE, "set": 0, "item": 0x34})
    assert got_type == ERROR and "not a tile or card identity" in reply["message"]
    device.busy_reason = "a game is in progress: stop it before enrolling tags"
    for msg_type, fields in ((TAG_WRITE, cases[0][0]), (UID_PUT, {"uid": LOCKED_UID, "kind": TILE, "set": 1, "item": 0x34})):
        got_type, reply = device.ask(msg_type, fields)
        assert got_type == ERROR and reply["message"] == device.busy_reason
    assert len(UidTable.read(device.path)) == 0
