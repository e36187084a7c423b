# portable
"""Action times in the journal: a varint of tenths of a second before the action's text,
written in place without allocation; journals from before times still read."""
from allocation import bytes_allocated
from portable import raises
from runtime.scratch import fresh_dir

from tiletable.record import (
    MAX_PAYLOAD,
    MAX_RECORD,
    OVERHEAD,
    RECORD_NAMES,
    REC_ACTION,
    REC_TIMED_ACTION,
    iter_records,
    varint_size,
    write_varint,
)
from tiletable.record_read import action_parts, read_varint
from tiletable.runtime.journal import Journal

HASH = "0123456789abcdef"


def test_varints_round_trip_at_every_size_boundary():
    buf = bytearray(8)
    for value in (0, 1, 127, 128, 300, 16383, 16384, 2097151, 2097152, 2**28 + 5):
        end = write_varint(buf, 0, value)
        assert end == varint_size(value)
        assert read_varint(buf, 0) == (value, end)
    assert varint_size(16383) == 2  # 27 minutes in tenths of a second
    assert varint_size(2097151) == 3  # 58 hours


def test_a_varint_cut_short_is_refused():
    err = raises(ValueError, read_varint, b"\x80\x81", 0)
    assert "cut short" in str(err)


def test_writing_a_time_allocates_nothing():
    buf = bytearray(8)

    def loop():
        for value in (5, 600, 36000, 2000000):
            write_varint(buf, 0, value)

    assert bytes_allocated(loop) in (0, None)


def test_timed_actions_read_back_with_their_times_and_old_actions_without():
    root = fresh_dir("journal-times")
    journal = Journal(root)
    journal.start_session("muggins", HASH, ["ann", "bob"], "0.1", None)
    journal.log_action("5-5", 0)
    journal.log_action("claim0", 17)
    journal.log_action("0-5>R", 16384)
    journal.log_action("6-6>L")  # as the table wrote actions before they had times
    journal.end_session({"reason": "stopped"})
    out = bytearray(MAX_RECORD * 8)
    records = list(iter_records(out[: Journal(root).read_since(0, out)]))
    actions = [(rtype, action_parts(rtype, payload)) for _, rtype, payload in records if RECORD_NAMES[rtype] == "action"]
    assert actions == [
        (REC_TIMED_ACTION, (0, b"5-5")),
        (REC_TIMED_ACTION, (17, b"claim0")),
        (REC_TIMED_ACTION, (16384, b"0-5>R")),
        (REC_ACTION, (None, b"6-6>L")),
    ]
    assert len(records[3][2]) == 3 + len("0-5>R")  # the time takes 3 bytes past 27 minutes


def test_the_time_counts_toward_the_payload_limit():
    journal = Journal(fresh_dir("journal-times-limit"))
    journal.start_session("muggins", HASH, ["ann"], "0.1", None)
    assert journal.log_action("x" * (MAX_PAYLOAD - 2), 16383) > 0
    err = raises(ValueError, journal.log_action, "x" * (MAX_PAYLOAD - 1), 16383)
    assert "%d bytes" % (MAX_PAYLOAD + 1) in str(err)
    assert journal.total_bytes() > OVERHEAD + MAX_PAYLOAD
