# portable
"""The link dispatcher's journal: pulls in chunks, streams of frames, the session list (the
rest of the link server's tests are in test_server.py)."""

from proto.link_requests import HASH, error_message, ok, server_on
from runtime import toy_family

from tiletable.proto.frame import MAX_ENCODED, MAX_PAYLOAD, STREAM_ENCODED, STREAM_PAYLOAD, FrameDecoder
from tiletable.proto.messages import (
    E_BAD_VALUE,
    JOURNAL_ACK,
    JOURNAL_PULL,
    JOURNAL_SESSIONS,
    JOURNAL_STATUS,
    JOURNAL_STREAM,
    REPLY,
    decode_payload,
    encode_message,
)
from tiletable.record import MAX_RECORD, iter_records


def _journal_with_sessions(server, sessions, events):
    journal = server.journal
    for s in range(sessions):
        journal.start_session("muggins", HASH, ["ann", "bob"], "0.3.0")
        for i in range(events):
            journal.log_action("%d-%d>L" % (s % 7, i % 7))
        journal.end_session({"reason": "over"})


@toy_family.with_toy_family
def test_journal_pull_in_chunks_then_acknowledge():
    server = server_on("server-journal")
    _journal_with_sessions(server, 3, 150)
    status = ok(server, JOURNAL_STATUS)
    assert (status["first"], status["last"], status["acked"], status["full"]) == (1, 456, 0, 0)
    after = 0  # the records come in order, each once: checked as they come (no list of 456 in the heap)
    while True:
        reply = ok(server, JOURNAL_PULL, {"after": after, "max": 600})
        records = list(iter_records(reply["records"]))
        if not records:
            break
        assert len(reply["records"]) <= 600 and reply["durable"] == 456
        for record in records:
            assert record[0] == after + 1
            after = record[0]
    assert after == 456
    assert ok(server, JOURNAL_ACK, {"seq": 200}) == {"acked": 200}
    assert "457" in error_message(server, JOURNAL_ACK, {"seq": 457}, E_BAD_VALUE)
    assert str(MAX_RECORD) in error_message(server, JOURNAL_PULL, {"after": 0, "max": 100}, E_BAD_VALUE)
    sessions = ok(server, JOURNAL_SESSIONS, {"after": 0})["sessions"]
    assert [(s["first"], s["last"], s["acked"], s["ended"]) for s in sessions] == [
        (1, 152, 1, 1),
        (153, 304, 0, 1),
        (305, 456, 0, 1),
    ]
    assert sessions[0]["ruleset"] == "muggins" and sessions[0]["hash"] == HASH and sessions[0]["boot"] == 1
    assert ok(server, JOURNAL_SESSIONS, {"after": 153})["sessions"][0]["first"] == 305


def _stream(server, fields, seq=77):
    """A JOURNAL_STREAM request and the frames it brings, decoded, as the USB link makes them."""
    assert server.receive(encode_message(JOURNAL_STREAM, seq, fields)) == []
    decoder = FrameDecoder()
    frames = []
    while server.stream is not None:
        wire = bytearray(MAX_ENCODED + 2)
        end = server.stream.frame_into(wire, 0, MAX_PAYLOAD - 16)
        if server.stream.done:
            server.stream = None
        for _, msg_type, got_seq, payload in decoder.feed(wire[:end]):
            assert (msg_type, got_seq) == (JOURNAL_STREAM | REPLY, seq)
            frames.append(decode_payload(msg_type, payload))
    return frames


def _stream_fields(after, first=0, offset=0, frames=255, size=MAX_PAYLOAD - 16):
    return {"after": after, "first": first, "offset": offset, "frames": frames, "max": size}


@toy_family.with_toy_family
def test_journal_stream_sends_the_files_in_runs_of_frames_and_resumes_where_told():
    server = server_on("server-stream")
    _journal_with_sessions(server, 3, 40)
    frames = _stream(server, _stream_fields(0, size=300))
    assert [f["part"] for f in frames] == list(range(len(frames)))
    assert [f["last"] for f in frames] == [0] * (len(frames) - 1) + [2]
    assert all(len(f["data"]) <= 300 and f["durable"] == 126 for f in frames)
    assert [f["first"] for f in frames if f["offset"] == 0] == [1, 43, 85]  # a frame never spans two files
    records = list(iter_records(b"".join(bytes(f["data"]) for f in frames)))
    assert [r[0] for r in records] == list(range(1, 127))
    window = _stream(server, _stream_fields(0, frames=2, size=300))
    assert [(f["part"], f["last"]) for f in window] == [(0, 0), (1, 1)]
    whole = list(iter_records(b"".join(bytes(f["data"]) for f in window)))
    ends = sum(11 + len(r[2]) for r in whole)  # where the last whole record ends in file 1
    resumed = _stream(server, _stream_fields(whole[-1][0], 1, ends, size=300))
    assert (resumed[0]["first"], resumed[0]["offset"]) == (1, ends)
    assert [r[0] for r in iter_records(b"".join(bytes(f["data"]) for f in resumed))] == list(range(whole[-1][0] + 1, 127))
    wrong_hint = _stream(server, _stream_fields(60, 1, ends, size=300))
    assert (wrong_hint[0]["first"], iter_records(bytes(wrong_hint[0]["data"])).__next__()[0]) == (43, 61)
    assert _stream(server, _stream_fields(126)) == [{"part": 0, "last": 2, "durable": 126, "first": 0, "offset": 0, "data": b""}]
    assert "0 frames" in error_message(server, JOURNAL_STREAM, _stream_fields(0, frames=0), E_BAD_VALUE)


@toy_family.with_toy_family
def test_a_stream_frame_carries_up_to_stream_payload_whatever_the_host_asks():
    server = server_on("server-stream-4k")
    _journal_with_sessions(server, 2, 700)  # about 10 KB a file
    assert server.receive(encode_message(JOURNAL_STREAM, 3, _stream_fields(0, size=65535))) == []
    decoder = FrameDecoder(STREAM_ENCODED)
    wire = bytearray(STREAM_ENCODED + 2)
    sizes = []
    last = 0
    while server.stream is not None:
        end = server.stream.frame_into(wire, 0)
        if server.stream.done:
            server.stream = None
        for at in range(0, end, 256):  # as USB brings them: no 4 KB copy in a Pico-sized heap
            for _, _, _, payload in decoder.feed(wire[at : min(at + 256, end)]):
                sizes.append(len(payload) - 16)  # the reply's fields, then its data
                last = payload[1]
    assert max(sizes) == STREAM_PAYLOAD - 16 and sizes.count(STREAM_PAYLOAD - 16) >= 4
    assert last == 2 and sum(sizes) == server.journal.total_bytes()


@toy_family.with_toy_family
def test_a_stream_reads_on_into_records_the_game_flushes_between_its_frames():
    server = server_on("server-stream-grows")
    journal = server.journal
    journal.start_session("muggins", HASH, ["ann", "bob"], "0.3.0")
    for i in range(30):
        journal.log_action("%d-%d>L" % (i % 7, i % 5))
    journal.flush()
    assert server.receive(encode_message(JOURNAL_STREAM, 8, _stream_fields(0, size=100))) == []
    decoder = FrameDecoder()
    frames = []

    def next_frame():
        wire = bytearray(MAX_ENCODED + 2)
        end = server.stream.frame_into(wire, 0)
        if server.stream.done:
            server.stream = None
        frames.extend(decode_payload(t, p) for _, t, _, p in decoder.feed(wire[:end]))

    next_frame()
    next_frame()
    assert journal._reader is not None  # the newest file too is kept open between frames
    for i in range(20):
        journal.log_action("%d-%d>L" % (i % 5, i % 7))
    journal.flush()
    assert journal._reader is None  # closed before the flush wrote to it
    while server.stream is not None:
        next_frame()
    assert frames[-1]["last"] == 2 and frames[-1]["durable"] == 51
    records = list(iter_records(b"".join(bytes(f["data"]) for f in frames)))
    assert [r[0] for r in records] == list(range(1, 52))


@toy_family.with_toy_family
def test_any_request_ends_a_journal_stream_and_a_repeat_starts_it_again():
    server = server_on("server-stream-end")
    _journal_with_sessions(server, 2, 40)
    server.receive(encode_message(JOURNAL_STREAM, 5, _stream_fields(0)))
    assert server.stream is not None
    ok(server, JOURNAL_STATUS)
    assert server.stream is None
    first = _stream(server, _stream_fields(0), seq=6)
    again = _stream(server, _stream_fields(0), seq=6)  # a host's retry: the same run again
    assert first == again and first[-1]["last"] == 2


@toy_family.with_toy_family
def test_session_list_is_paged_to_fit_a_frame():
    server = server_on("server-sessions")
    _journal_with_sessions(server, 30, 1)
    first_page = ok(server, JOURNAL_SESSIONS, {"after": 0})["sessions"]
    assert 0 < len(first_page) < 30
    rest = ok(server, JOURNAL_SESSIONS, {"after": first_page[-1]["first"]})["sessions"]
    assert len(first_page) + len(rest) == 30
