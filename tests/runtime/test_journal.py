# portable
"""The session journal: records, reopen and recovery, acknowledgement, rotation, full policy, reads."""
import os

from portable import raises
from runtime.scratch import file_bytes, fresh_dir, write_bytes

from tiletable.record import (
    HEAD_SIZE,
    MAX_PAYLOAD,
    MAX_RECORD,
    OVERHEAD,
    REC_ACTION,
    REC_END,
    REC_GAP,
    REC_HEADER,
    REC_RESUME,
    REC_SCORE,
    REC_UNDO,
    iter_records,
)
from tiletable.runtime.journal import Journal, JournalError

HASH = "0123456789abcdef"


def _play(journal, count, first=0):
    """Log ``count`` events (actions with a score every fifth) and return their payloads."""
    logged = []
    for i in range(first, first + count):
        if i % 5 == 4:
            journal.log_score(i % 4, 5, "fives")
            logged.append(b"%d 5 fives" % (i % 4))
        else:
            text = "%d-%d>L" % (i % 7, (i * 3) % 7)
            journal.log_action(text)
            logged.append(text.encode())
    return logged


def _session_files(root):
    return sorted(name for name in os.listdir(root) if name.endswith(".tjs"))


def _all_records(journal):
    out = bytearray(MAX_RECORD * 4)
    records = []
    after = 0
    while True:
        n = journal.read_since(after, out)
        if not n:
            return records
        chunk = list(iter_records(out[:n]))
        records.extend(chunk)
        after = chunk[-1][0]


def test_records_survive_reopen_in_order():
    root = fresh_dir("journal-reopen")
    journal = Journal(root)
    assert journal.start_session("muggins", HASH, ["ann", "bob"], "0.1", 1700000000) == 1
    logged = _play(journal, 40)
    journal.end_session({"reason": "over", "scores": [61, 40]})
    again = Journal(root)
    records = _all_records(again)
    assert [r[0] for r in records] == list(range(1, 43))
    assert records[0][1] == REC_HEADER and records[-1][1] == REC_END
    assert [r[2] for r in records[1:-1]] == logged
    session = again.sessions()[0]
    assert session["header"]["ruleset"] == "muggins" and session["header"]["players"] == ["ann", "bob"]
    assert session["header"]["time"] == 1700000000 and session["ended"] and (session["first"], session["last"]) == (1, 42)
    assert not again.in_session and again.next_seq == 43


def test_boot_counter_increments_at_each_open():
    root = fresh_dir("journal-boot")
    boots = [Journal(root).boot for _ in range(3)]
    assert boots == [1, 2, 3]
    journal = Journal(root)
    journal.start_session("muggins", HASH, ["a"], "0.1")
    journal.end_session({"reason": "over"})
    assert journal.sessions()[0]["header"]["boot"] == 4


def test_acknowledgement_persists_across_reopen():
    root = fresh_dir("journal-ack")
    journal = Journal(root)
    journal.start_session("muggins", HASH, ["a", "b"], "0.1")
    _play(journal, 10)
    journal.flush()
    assert journal.acknowledge(5) == 5
    assert journal.acknowledge(3) == 5  # never moves back
    err = raises(JournalError, journal.acknowledge, 99)
    assert "99" in str(err) and "11" in str(err)
    again = Journal(root)
    assert again.acked == 5 and again.boot == 2


def test_damaged_state_file_counts_nothing_acknowledged_and_keeps_the_boot_counter():
    root = fresh_dir("journal-state")
    journal = Journal(root)
    journal.start_session("muggins", HASH, ["a"], "0.1")
    journal.end_session({"reason": "over"})
    journal.acknowledge(2)
    Journal(root)  # boot 2
    write_bytes(root + "/state", b"garbage")
    again = Journal(root)
    assert again.acked == 0
    assert again.boot == 2  # recovered from the session header (boot 1), plus one


def _fill_sessions(root, sessions, events, **limits):
    journal = Journal(root, **limits)
    for _ in range(sessions):
        journal.start_session("muggins", HASH, ["a", "b"], "0.1")
        _play(journal, events)
        journal.end_session({"reason": "over"})
    return journal


def test_rotation_never_deletes_unacknowledged_sessions():
    root = fresh_dir("journal-rotate")
    journal = _fill_sessions(root, 6, 40, max_bytes=2000, reserve_bytes=1000)  # a session is ~820 bytes
    assert journal.is_full and journal.dropped > 0
    sessions = journal.sessions()
    assert [s["first"] for s in sessions] == [1, 43, 85]  # the third ran into the reserve; none deleted
    assert journal.total_bytes() <= 3000


def test_rotation_deletes_acknowledged_sessions_oldest_first():
    root = fresh_dir("journal-rotate-ack")
    journal = _fill_sessions(root, 4, 40, max_bytes=4000, reserve_bytes=1000)  # a session is ~820 bytes
    firsts = [s["first"] for s in journal.sessions()]
    assert len(firsts) == 4 and not journal.is_full
    journal.acknowledge(firsts[2] - 1)  # the host stored the first two sessions
    for _ in range(3):
        journal.start_session("muggins", HASH, ["a", "b"], "0.1")
        _play(journal, 40)
        journal.end_session({"reason": "over"})
    left = [s["first"] for s in journal.sessions()]
    assert left[:2] == firsts[2:]  # the two acknowledged went; the unacknowledged stay, over budget or not
    assert len(left) == 5 and journal.is_full and journal.total_bytes() <= 5000


def test_full_journal_keeps_the_game_going_and_notes_the_gap():
    root = fresh_dir("journal-full")
    journal = _fill_sessions(root, 1, 60, max_bytes=1330, reserve_bytes=300, flush_records=4)
    journal.start_session("muggins", HASH, ["a", "b"], "0.1")  # header fits: the budget was passed only now
    seqs = [journal.log_action("1-2>L") for _ in range(60)]
    assert journal.is_full and 0 in seqs and journal.dropped > 0
    kept = [s for s in seqs if s]
    assert kept == list(range(kept[0], kept[0] + len(kept)))  # written records stay contiguous
    assert journal.total_bytes() <= 1330 + 300
    # the host stores everything; the old session goes, the records flow again after a gap record
    journal.acknowledge(journal.durable_seq)
    seq = journal.log_action("3-4>R")
    assert seq > 0
    records = _all_records(journal)
    assert [r[1] for r in records[-2:]] == [REC_GAP, REC_ACTION]
    assert int(records[-2][2]) == seqs.count(0)


def test_a_session_started_while_full_is_not_logged_but_does_not_fail():
    root = fresh_dir("journal-full-start")
    journal = _fill_sessions(root, 1, 30, max_bytes=600, reserve_bytes=200)  # ~640 bytes: into the reserve
    assert journal.is_full
    assert journal.start_session("muggins", HASH, ["a"], "0.1") == 0
    assert journal.log_action("1-1") == 0
    assert journal.end_session({"reason": "over"}) == 0
    assert len(journal.sessions()) == 1 and journal.dropped == 3


def test_read_since_returns_whole_records_in_bounded_chunks():
    root = fresh_dir("journal-read")
    journal = _fill_sessions(root, 3, 200, flush_records=7)
    out = bytearray(MAX_RECORD + 40)
    after = 25
    seen = []
    while True:
        n = journal.read_since(after, out)
        if not n:
            break
        chunk = list(iter_records(out[:n]))
        assert sum(len(p) + OVERHEAD for _, _, p in chunk) == n  # whole records only
        seen.extend(r[0] for r in chunk)
        after = chunk[-1][0]
    assert seen == list(range(26, journal.next_seq))
    raises(ValueError, journal.read_since, 0, bytearray(MAX_RECORD - 1))


def test_a_read_keeps_no_session_file_open_once_it_returns():
    """An open file holds heap on the chip (a littlefs cache): a pull's file is closed when the
    reply is full and when it has read everything, and a stream's reader too."""
    root = fresh_dir("journal-read-closes")
    journal = _fill_sessions(root, 3, 40, flush_records=7)
    out = bytearray(MAX_RECORD + 40)
    assert journal.read_since(3, out)  # out fills in the oldest file
    assert journal._reader is None
    journal.open_reader(journal.firsts[-1])
    assert _all_records(journal)[-1][0] == journal.next_seq - 1
    assert journal._reader is None


def test_session_in_progress_is_read_back_after_a_restart_and_resumed():
    root = fresh_dir("journal-resume")
    journal = Journal(root, flush_records=1)
    journal.start_session("muggins", HASH, ["a", "b"], "0.1")
    logged = _play(journal, 12)
    undo_of = journal.log_action("6-6>R")
    journal.log_undo(undo_of)
    # power lost here: no end record
    again = Journal(root)
    assert again.in_session
    records = list(again.session_records())
    assert records[0][1] == REC_HEADER
    assert [r[2] for r in records[1:13]] == logged
    assert records[-2][2] == b"6-6>R" and records[-1][1] == REC_UNDO and records[-1][2] == str(undo_of).encode()
    seq = again.resume()
    again.log_score(1, 10, "fives")
    again.end_session({"reason": "over"})
    final = _all_records(Journal(root))
    assert final[seq - 1][1] == REC_RESUME and final[seq - 1][2] == b"2"
    assert [r[1] for r in final[-2:]] == [REC_SCORE, REC_END]


def test_start_session_ends_an_unfinished_one_as_abandoned():
    root = fresh_dir("journal-abandon")
    journal = Journal(root, flush_records=1)
    journal.start_session("muggins", HASH, ["a"], "0.1")
    journal.log_action("1-1")
    again = Journal(root)
    again.start_session("sniff", HASH, ["a"], "0.1")
    sessions = again.sessions()
    assert sessions[0]["ended"] and not sessions[1]["ended"]
    records = _all_records(again)
    assert records[2][1] == REC_END and b"abandoned" in records[2][2]


def test_a_session_file_the_heap_has_no_room_for_opens_no_session():
    """On a heap games have cut up, opening the new session's file can raise MemoryError: the
    journal is then as it was once the unfinished session ended, so the table can refuse the
    game (or restart into it) and the next start is logged as usual."""
    root = fresh_dir("journal-no-heap")
    journal = Journal(root, flush_records=1)
    journal.start_session("muggins", HASH, ["a"], "0.1")
    journal.log_action("1-1")
    next_seq = journal.next_seq + 1  # after the abandoned session's end record

    def no_heap(path, mode):
        raise MemoryError("memory allocation failed, allocating 1200 bytes")

    journal._open = no_heap
    raises(MemoryError, journal.start_session, "moon", HASH, ["a", "b", "c"], "0.1")
    assert not journal.in_session and journal.next_seq == next_seq
    assert len(_session_files(root)) == 1 and len(journal.sessions()) == 1
    raises(JournalError, journal.log_action, "2-2")  # no session to log into
    del journal._open
    assert journal.start_session("moon", HASH, ["a", "b", "c"], "0.1") == next_seq
    records = _all_records(Journal(root))
    assert [r[1] for r in records] == [REC_HEADER, REC_ACTION, REC_END, REC_HEADER]
    assert b"abandoned" in records[2][2] and b"moon" in records[3][2]


def test_records_reach_the_file_only_at_flush_points():
    """The app polls after each button step: what is pending goes at once, but for a batch
    still being made (``hold``: a deal), which waits up to ``flush_ms`` from the first poll."""
    root = fresh_dir("journal-flush")
    journal = Journal(root, flush_records=4, flush_ms=30)
    journal.start_session("muggins", HASH, ["a"], "0.1")
    path = root + "/" + _session_files(root)[0]
    header_size = len(file_bytes(path))
    journal.log_action("1-1")
    assert len(file_bytes(path)) == header_size  # buffered
    assert journal.poll(1000) and journal.durable_seq == 2
    assert len(file_bytes(path)) == header_size + OVERHEAD + 3
    assert not journal.poll(1010)  # nothing pending
    journal.log_action("1-2")
    assert not journal.poll(1020, hold=True)  # starts the clock
    journal.log_action("1-3")
    assert not journal.poll(1049, hold=True)
    assert len(file_bytes(path)) == header_size + OVERHEAD + 3
    assert journal.poll(1050, hold=True)
    assert len(file_bytes(path)) == header_size + 3 * (OVERHEAD + 3)
    for _ in range(4):
        journal.log_action("2-2")
    assert len(file_bytes(path)) == header_size + 7 * (OVERHEAD + 3)  # the fourth record flushed
    assert journal.durable_seq == 8


def test_an_end_left_to_the_next_flush_goes_with_the_play_before_it():
    """A match a play ended: its end waits in the buffer with that play for the app's flush,
    which closes the file; a power cut before loses both, and the session is in progress."""
    root = fresh_dir("journal-end-later")
    journal = Journal(root)
    journal.start_session("muggins", HASH, ["a", "b"], "0.1")
    journal.log_action("6-6")
    journal.end_session({"reason": "over"}, flush=False)
    assert not journal.in_session and journal.durable_seq == 1
    cut = Journal(root)  # the power went before the flush
    assert cut.in_session and cut.next_seq == 2
    cut.resume()
    cut.log_action("6-6")
    cut.end_session({"reason": "over"}, flush=False)
    assert cut.poll(0) and cut.durable_seq == 4 and cut._file is None
    records = _all_records(Journal(root))
    assert [r[1] for r in records] == [REC_HEADER, REC_RESUME, REC_ACTION, REC_END]
    again = Journal(root)
    again.start_session("muggins", HASH, ["a", "b"], "0.1")
    again.end_session({"reason": "stopped"}, flush=False)
    again.start_session("block", HASH, ["a", "b"], "0.1")  # the end goes to its own file first
    reopened = Journal(root)
    assert [s["ended"] for s in reopened.sessions()] == [True, True, False]
    assert reopened.in_session and reopened.next_seq == 8


def _single_session_image(root, events):
    journal = Journal(root)
    journal.start_session("muggins", HASH, ["a", "b"], "0.1")
    _play(journal, events)
    journal.close()
    name = _session_files(root)[0]
    return root + "/" + name, file_bytes(root + "/" + name)


def _record_ends(image):
    ends = []
    pos = 0
    for _, _, payload in iter_records(image):
        pos += OVERHEAD + len(payload)
        ends.append(pos)
    return ends


def _check_cut(root, path, image, ends, cut, tail):
    write_bytes(path, image[:cut] + tail)
    whole = [end for end in ends if end <= cut]
    journal = Journal(root)
    if not whole:  # not even the header survived: the empty session is gone
        assert not journal.in_session and not _session_files(root), cut
        return
    assert journal.next_seq == len(whole) + 1, (cut, journal.next_seq)
    assert file_bytes(path) == image[: whole[-1]], cut  # torn tail gone, nothing earlier touched
    journal.resume()
    journal.close()
    records = list(iter_records(file_bytes(path)))
    assert len(records) == len(whole) + 1 and records[-1][1] == REC_RESUME, cut


def test_torn_or_garbage_tail_is_dropped_and_appends_follow_the_last_good_record():
    root = fresh_dir("journal-torn")
    path, image = _single_session_image(root, 30)
    ends = _record_ends(image)
    cuts = list(range(0, ends[1] + 2)) + list(range(ends[-3], len(image) + 1))
    for cut in cuts:
        _check_cut(root, path, image, ends, cut, b"")
    for cut in (ends[0], ends[5] + 3, ends[-1]):
        for tail in (b"\xff" * 40, b"\x00" * 9, image[ends[2] : ends[4]]):
            _check_cut(root, path, image, ends, cut, tail)


def test_stray_temporary_files_are_removed_at_open():
    root = fresh_dir("journal-tmp")
    Journal(root)
    write_bytes(root + "/state.tmp", b"half")
    write_bytes(root + "/00000001.tjs.tmp", b"half a repair")
    Journal(root)
    assert sorted(os.listdir(root)) == ["state"]


def test_bad_calls_are_refused_with_a_reason():
    root = fresh_dir("journal-refuse")
    journal = Journal(root)
    err = raises(JournalError, journal.log_action, "1-1")
    assert "no session" in str(err)
    raises(JournalError, journal.resume)
    journal.start_session("muggins", HASH, ["a"], "0.1")
    err = raises(ValueError, journal.log_action, "x" * (MAX_PAYLOAD + 1))
    assert str(MAX_PAYLOAD) in str(err)
    raises(ValueError, Journal, root, buffer_size=MAX_RECORD - 1)


def test_a_record_damaged_after_open_ends_that_file_and_reading_goes_on():
    root = fresh_dir("journal-rot")
    journal = _fill_sessions(root, 2, 30)
    second = journal.sessions()[1]["first"]
    path = root + "/" + _session_files(root)[0]
    image = bytearray(file_bytes(path))
    ends = [0]
    for _, _, payload in iter_records(image):
        ends.append(ends[-1] + OVERHEAD + len(payload))
    image[ends[10] + HEAD_SIZE] ^= 0x01  # a bit of record 11's payload rots
    write_bytes(path, image)
    seqs = [r[0] for r in _all_records(journal)]
    assert seqs == list(range(1, 11)) + list(range(second, journal.next_seq))


def _is_identity(text):
    return len(text) == 16 and all(c in "0123456789abcdef" for c in text)


def test_a_journal_is_created_with_a_random_identity_kept_across_restarts():
    root = fresh_dir("journal-identity")
    journal = Journal(root)
    identity = journal.identity
    assert _is_identity(identity)
    journal.start_session("muggins", HASH, ["a", "b"], "0.1")
    journal.close()
    again = Journal(root)  # a restart: the same journal
    assert again.identity == identity and again.in_session
    assert again.sessions()[0]["header"]["journal"] == identity  # every session header names it
    assert Journal(fresh_dir("journal-identity-other")).identity not in (identity, "")


def test_a_wiped_journal_is_a_new_journal_with_a_new_identity():
    root = fresh_dir("journal-wiped")
    journal = Journal(root)
    journal.start_session("muggins", HASH, ["a", "b"], "0.1")
    _play(journal, 20)
    journal.end_session({"reason": "over"})
    journal.close()
    old = journal.identity
    for name in os.listdir(root):  # the flash erased (or the journal replaced)
        os.remove(root + "/" + name)
    wiped = Journal(root)
    assert _is_identity(wiped.identity) and wiped.identity != old
    assert wiped.next_seq == 1  # it numbers its records from 1 again: only the identity tells it apart


def test_a_lost_state_file_takes_the_identity_back_from_the_session_headers():
    root = fresh_dir("journal-identity-state")
    journal = Journal(root)
    journal.start_session("muggins", HASH, ["a", "b"], "0.1")
    journal.end_session({"reason": "over"})
    journal.close()
    write_bytes(root + "/state", b"garbage")
    assert Journal(root).identity == journal.identity


def test_a_journal_from_before_identities_keeps_its_counters_and_gets_one():
    import struct
    from binascii import crc32

    root = fresh_dir("journal-tjs1")
    state = struct.pack("<4sII", b"TJS1", 7, 0)
    write_bytes(root + "/state", state + struct.pack("<I", crc32(state) & 0xFFFFFFFF))
    journal = Journal(root)
    assert journal.boot == 8 and _is_identity(journal.identity)
    assert Journal(root).identity == journal.identity  # written with it at once


def test_the_table_name_is_kept_with_the_state():
    root = fresh_dir("journal-name")
    journal = Journal(root)
    assert journal.name == ""
    journal.set_name("Table 3 \u00e0 c\u00f4t\u00e9")
    journal.close()
    again = Journal(root)
    assert again.name == "Table 3 \u00e0 c\u00f4t\u00e9" and again.identity == journal.identity
    assert "at most 32 bytes" in str(raises(ValueError, again.set_name, "x" * 33))
    again.set_name("")
    assert Journal(root).name == ""
