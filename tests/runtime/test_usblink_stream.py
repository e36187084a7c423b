"""A journal stream through the link (runtime/usblink.py): its frames are as large as the
output queue allows while leaving a KB for replies and events, 4 KB on a frozen build's queue
and 1 KB on the 2 KB queue of a build whose bytecode is in the heap; every record arrives."""
import io
import os

from runtime.scratch import fresh_dir

from tiletable.heap_frozen import FrozenHeap
from tiletable.proto.frame import STREAM_ENCODED, STREAM_PAYLOAD, FrameDecoder
from tiletable.proto.messages import EV_PLAY, JOURNAL_STREAM, REPLY, decode_payload, encode_message
from tiletable.proto.server import LinkServer
from tiletable.record import iter_records
from tiletable.runtime.journal import Journal
from tiletable.runtime.rulestore import RuleStore
from tiletable.runtime.usblink import OUT_ROOM, UsbLink

OUT_ROOM_FROZEN = FrozenHeap.link_room

HASH = "ab" * 32


class Stalled:
    """A PC that has stopped reading: every write takes nothing."""

    def write(self, data):
        return 0


def _linked(name, room, out, sessions=2, actions=700):
    root = fresh_dir(name)
    journal = Journal(root + "/journal")
    for s in range(sessions):
        journal.start_session("muggins", HASH, ["ann", "bob"], "0.3.0")
        for i in range(actions):
            journal.log_action("%d-%d>L" % (s % 7, i % 7))
        journal.end_session({"reason": "over"})
    journal.flush()
    server = LinkServer(RuleStore(root + "/rulesets"), journal, "0.3.0", "tiletable-test")
    request = encode_message(JOURNAL_STREAM, 5, {"after": 0, "first": 0, "offset": 0, "frames": 255, "max": 65535})
    read_end, write_end = os.pipe()  # the PC's end: the request, then nothing (and no end)
    os.write(write_end, request)
    link = UsbLink(server, os.fdopen(read_end, "rb", buffering=0), out, room)
    link.pc = write_end  # kept open while the link is polled
    return link


def _stream_sizes(room):
    out = io.BytesIO()
    link = _linked("usblink-stream-%d" % room, room, out)
    for _ in range(200):
        link.poll()
        if link.server.stream is None and link.pending() == 0 and out.tell():
            break
    decoder = FrameDecoder(STREAM_ENCODED)
    frames = [decode_payload(t, p) for _, t, _, p in decoder.feed(out.getvalue()) if t == JOURNAL_STREAM | REPLY]
    assert decoder.bad == 0 and frames[-1]["last"] == 2
    records = list(iter_records(b"".join(bytes(f["data"]) for f in frames)))
    assert [r[0] for r in records] == list(range(1, 1405))
    return [len(f["data"]) for f in frames]


def test_a_frozen_builds_queue_streams_frames_of_4_kb():
    sizes = _stream_sizes(OUT_ROOM_FROZEN)
    assert max(sizes) == STREAM_PAYLOAD - 16 and sizes.count(STREAM_PAYLOAD - 16) >= 4


def test_a_heap_builds_queue_streams_frames_of_1_kb():
    sizes = _stream_sizes(OUT_ROOM)
    assert 980 <= max(sizes) <= 1024 - 24


def test_a_queued_stream_frame_leaves_room_for_an_event():
    for room in (OUT_ROOM, OUT_ROOM_FROZEN):
        link = _linked("usblink-stream-event-%d" % room, room, Stalled(), sessions=1, actions=400)
        link.poll()
        assert link.streamed and link.pending() > room - 1100  # a full frame waits for the PC
        link.send_event(EV_PLAY, {"seat": 1, "action": "6-6>L", "journal_seq": 812})
        assert link.dropped == 0
