# portable
"""The link dispatcher: ruleset sync and journal pull over frames, and an error reply for everything else."""
import gc
import sys

from runtime import toy_family
from runtime.scratch import fresh_dir

from tiletable.proto.frame import MAX_ENCODED, MAX_PAYLOAD, STREAM_ENCODED, STREAM_PAYLOAD, FrameDecoder, encode_frame
from tiletable.proto.messages import (
    E_BAD_VALUE,
    E_INTERNAL,
    E_MALFORMED,
    E_NOT_FOUND,
    E_RULESET,
    E_SEQUENCE,
    E_UNKNOWN_TYPE,
    E_UNSUPPORTED,
    E_VERSION,
    ERROR,
    EV_SCORE,
    GAME_START,
    HELLO,
    JOURNAL_ACK,
    JOURNAL_PULL,
    JOURNAL_SESSIONS,
    JOURNAL_STATUS,
    JOURNAL_STREAM,
    MAINTENANCE,
    REPLY,
    RULESET_LIST,
    RULESET_PUT_BEGIN,
    RULESET_PUT_CHUNK,
    RULESET_PUT_COMMIT,
    RULESET_PUT_DEFLATED,
    RULESET_REMOVE,
    SET_NAME,
    ProtocolError,
    decode_payload,
    encode_message,
)
from tiletable.proto.server import LinkServer
from tiletable.record import MAX_RECORD, iter_records
from tiletable.runtime.journal import Journal
from tiletable.runtime.rulestore import RuleStore

HASH = "0123456789abcdef"
LIST_ALL = {"after": ""}


def _server(name, policy=None, collector=gc):
    """A server on a fresh directory; ``policy``: its heap policy (tiletable/heap.py), by default the runtime's."""
    root = fresh_dir(name)
    return LinkServer(RuleStore(root + "/rulesets", policy=policy), Journal(root + "/journal"), "0.3.0", "tiletable-test", policy, collector)


def _replies(server, wire):
    """The reply frames to ``wire``, a request answered in steps (``server.steps``) stepped to its end."""
    decoder = FrameDecoder()
    out = []
    frames = server.receive(wire)
    while not frames and server.stepping is not None:
        reply = server.step()
        frames = [] if reply is None else [reply]
    for frame in frames:
        for _, msg_type, seq, payload in decoder.feed(frame):
            out.append((msg_type, seq, decode_payload(msg_type, payload)))
    return out


_numbers = iter(range(1, 1 << 30))


def _ask(server, msg_type, fields=None, seq=None):
    """One request, numbered as a host numbers them (each new request gets the next number)."""
    seq = next(_numbers) & 0xFFFF if seq is None else seq
    replies = _replies(server, encode_message(msg_type, seq, fields))
    assert len(replies) == 1 and replies[0][1] == seq, replies
    return replies[0][0], replies[0][2]


def _ok(server, msg_type, fields=None):
    got_type, reply = _ask(server, msg_type, fields)
    assert got_type == msg_type | REPLY, reply
    return reply


def _error(server, msg_type, fields=None, code=None):
    got_type, reply = _ask(server, msg_type, fields)
    assert got_type == ERROR and reply["request"] == msg_type, reply
    assert code is None or reply["code"] == code, reply
    return reply["message"]


def test_the_journal_identity_and_the_name_go_to_a_host_that_reads_them():
    server = _server("server-identity")
    identity = server.journal.identity
    first = _ok(server, HELLO, {"proto": 1, "host": "old"})  # a host from before them: the reply it knows
    assert "journal" not in first and "name" not in first and "journal" not in _ok(server, JOURNAL_STATUS)
    assert _ok(server, SET_NAME, {"name": "Table 3"}) == {}
    reply = _ok(server, HELLO, {"proto": 2, "host": "new"})
    assert (reply["journal"], reply["name"]) == (identity, "Table 3") and _ok(server, JOURNAL_STATUS)["journal"] == identity
    assert "at most 32 bytes" in _error(server, SET_NAME, {"name": "x" * 33}, E_BAD_VALUE)


@toy_family.with_toy_family
def test_hello_announces_version_and_capabilities():
    server = _server("server-hello")
    reply = _ok(server, HELLO, {"proto": 1, "host": "pytest"})
    assert reply["proto"] == 1 and reply["firmware"] == "0.3.0" and reply["device"] == "tiletable-test"
    assert reply["boot"] == 1 and reply["max_payload"] == MAX_PAYLOAD
    assert reply["capabilities"] == ["journal", "journal-stream", "maintenance", "name", "ruleset-deflate", "rulesets"]


def _sync(server, data, content_hash, name="toy", chunk=20):
    _ok(server, RULESET_PUT_BEGIN, {"name": name, "size": len(data), "hash": content_hash})
    for offset in range(0, len(data), chunk):
        reply = _ok(server, RULESET_PUT_CHUNK, {"offset": offset, "data": data[offset : offset + chunk]})
        assert reply["received"] == min(offset + chunk, len(data))
    return _ask(server, RULESET_PUT_COMMIT)


@toy_family.with_toy_family
def test_ruleset_sync_list_and_remove_over_the_link():
    server = _server("server-rules")
    data, content_hash = toy_family.document("toy", 3, 77)
    got_type, reply = _sync(server, data, content_hash)
    assert got_type == RULESET_PUT_COMMIT | REPLY and reply == {"name": "toy", "version": 3, "hash": content_hash}
    assert _ok(server, RULESET_LIST, LIST_ALL) == {"rulesets": [{"name": "toy", "version": 3, "hash": content_hash}], "more": 0}
    _ok(server, RULESET_REMOVE, {"name": "toy"})
    assert _ok(server, RULESET_LIST, LIST_ALL) == {"rulesets": [], "more": 0}
    assert "'toy'" in _error(server, RULESET_REMOVE, {"name": "toy"}, E_NOT_FOUND)


@toy_family.with_toy_family
def test_a_list_of_a_hundred_rulesets_comes_in_pages_that_fit_a_frame():
    server = _server("server-rules-many")
    # 40 under MicroPython (two pages still): a hundred file writes leave the unix port's 192 KB
    # heap of 64-bit objects without a 2 KB block, which says nothing of a Pico's.
    count = 100 if sys.implementation.name == "cpython" else 40
    names = ["toy-%03d-%s" % (i, "x" * 16) for i in range(count)]  # long names: the fewest per page
    for i, name in enumerate(names):
        data, content_hash = toy_family.document(name, 65535, i + 1)
        assert _sync(server, data, content_hash, name=name, chunk=900)[0] == RULESET_PUT_COMMIT | REPLY
    listed, pages, after = [], 0, ""
    while True:
        reply = _ok(server, RULESET_LIST, {"after": after})
        listed += [row["name"] for row in reply["rulesets"]]
        pages += 1
        if not reply["more"]:
            break
        after = listed[-1]
    assert listed == names and pages > 1


@toy_family.with_toy_family
def test_a_repeated_request_gets_the_first_reply_and_is_not_run_again():
    server = _server("server-repeat")
    data, content_hash = toy_family.document("toy", 1, 100)
    _ok(server, RULESET_PUT_BEGIN, {"name": "toy", "size": len(data), "hash": content_hash})
    _ok(server, RULESET_PUT_CHUNK, {"offset": 0, "data": data})
    commit = encode_message(RULESET_PUT_COMMIT, 4000, {})
    first = server.receive(commit)
    assert server.receive(commit + commit) == first * 2  # a retry, and one more in the same read
    assert server.repeats_answered == 2 and server.errors_sent == 0  # run again: "without a put begin"
    _ok(server, RULESET_REMOVE, {"name": "toy"})
    assert _error(server, RULESET_PUT_COMMIT, None, E_SEQUENCE)  # a new number: a new request
    hello = encode_message(HELLO, 4000, {"proto": 1, "host": "again"})
    server.receive(hello)
    assert server.receive(commit) != first  # a new host session: its number 4000 is a new request


@toy_family.with_toy_family
def test_ruleset_sync_errors_keep_the_installed_ruleset():
    server = _server("server-rules-bad")
    data, content_hash = toy_family.document("toy", 1, 100)
    _sync(server, data, content_hash)
    new, _ = toy_family.document("toy", 2, 100)
    got_type, reply = _sync(server, new, HASH)
    assert got_type == ERROR and reply["code"] == E_RULESET and "hash" in reply["message"]
    bad = b'{"family":"toy","name":"toy","params":{"target":-1}}'
    got_type, reply = _sync(server, bad, content_hash)
    assert reply["code"] == E_RULESET and "params.target" in reply["message"]
    assert "without a put begin" in _error(server, RULESET_PUT_CHUNK, {"offset": 0, "data": b"x"}, E_SEQUENCE)
    assert "without a put begin" in _error(server, RULESET_PUT_COMMIT, None, E_SEQUENCE)
    _ok(server, RULESET_PUT_BEGIN, {"name": "toy", "size": len(new), "hash": HASH})
    assert "expected 0" in _error(server, RULESET_PUT_CHUNK, {"offset": 5, "data": b"x"}, E_SEQUENCE)
    assert "0 of" in _error(server, RULESET_PUT_COMMIT, None, E_SEQUENCE)
    assert "Bad" in _error(server, RULESET_PUT_BEGIN, {"name": "Bad", "size": 5, "hash": HASH}, E_BAD_VALUE)
    assert _ok(server, RULESET_LIST, LIST_ALL)["rulesets"] == [{"name": "toy", "version": 1, "hash": content_hash}]


def _stepped(server, msg_type, fields, seq):
    """Ask with ``steps`` on: (the reply, the steps it took), a retry sent between the steps."""
    request = encode_message(msg_type, seq, fields)
    reply = server.receive(request)
    steps = 1
    while not reply:
        assert server.receive(request) == []  # a retry meanwhile: the reply comes once, when done
        step = server.step()
        reply = [] if step is None else [step]
        steps += 1
    (_, got_type, got_seq, payload), = FrameDecoder().feed(reply[0])
    assert got_seq == seq
    return got_type, decode_payload(got_type, payload), steps


def test_a_request_answered_in_steps_holds_no_reply_of_the_request_before():
    """Only the last request may come again: once another arrives, the reply kept for a repeat
    is garbage, and the new request's steps (a game start's imports) have its heap."""
    server = _server("server-forget-last")
    server.steps = True
    _ok(server, RULESET_LIST, LIST_ALL)
    held = []

    def start(fields):
        held.append(server._last)
        yield None
        held.append(server._last)
        yield {"session": 1}

    server.register(GAME_START, start, "game", stepped=True)
    fields = {"ruleset": "muggins", "players": ["ann", "bob"]}
    got_type, reply, steps = _stepped(server, GAME_START, fields, 4000)
    assert got_type == GAME_START | REPLY and reply == {"session": 1} and steps == 2
    assert held == [None, None]
    assert _stepped(server, GAME_START, fields, 4000)[1] == {"session": 1} and len(held) == 2  # a repeat: not run again


@toy_family.with_toy_family
def test_an_upload_in_steps_is_validated_with_its_last_chunk_and_installed_at_the_commit():
    server = _server("server-steps")
    server.steps = True
    data, content_hash = toy_family.document("toy", 1, 100)
    _ok(server, RULESET_PUT_BEGIN, {"name": "toy", "size": len(data), "hash": content_hash})
    got_type, reply, steps = _stepped(server, RULESET_PUT_CHUNK, {"offset": 0, "data": data[:10]}, 4100)
    assert got_type == RULESET_PUT_CHUNK | REPLY and reply["received"] == 10 and steps == 1
    got_type, reply, steps = _stepped(server, RULESET_PUT_CHUNK, {"offset": 10, "data": data[10:]}, 4101)
    assert got_type == RULESET_PUT_CHUNK | REPLY and reply["received"] == len(data) and steps >= 2  # validated
    commit = encode_message(RULESET_PUT_COMMIT, 4102, {})
    behind = encode_message(RULESET_LIST, 4103, LIST_ALL)
    assert server.receive(commit + behind) == []  # the list came behind it in the same read: dropped
    assert server.rulestore.names() == []  # nothing installed before the last step
    reply = server.step()
    assert reply is not None and server.stepping is None
    assert server.receive(commit) == [reply]  # a later retry: the same reply, not run again
    assert _ok(server, RULESET_LIST, LIST_ALL)["rulesets"] == [{"name": "toy", "version": 1, "hash": content_hash}]


def _collecting(every, test):
    """``test()`` with tiletable/heap.py's ``collect_every`` setting ``every``: -1, a heap collected
    only when full (a frozen build), or a stock build's bytes between collections; then the
    setting as it was (a row of uploads a test left open changes it on MicroPython)."""
    import gc

    from tiletable import heap

    was = heap.EVERY[0]
    heap.EVERY[0] = every
    try:
        test()
    finally:
        heap.EVERY[0] = was
        if hasattr(gc, "threshold"):
            gc.threshold(was)


def _frozen_build_server(name, collector=gc):
    """A server as a frozen build makes it (heap_frozen.FrozenHeap): a row of uploads keeps no
    modules and changes no collection setting."""
    from tiletable.heap_frozen import FrozenHeap

    return _server(name, FrozenHeap(), collector)


@toy_family.with_toy_family
def test_every_fourth_upload_in_steps_collects_garbage_in_a_step_before_its_validation():
    def sync():
        server = _frozen_build_server("server-steps-collect")
        server.steps = True
        steps = []
        for i in range(8):
            data, content_hash = toy_family.document("toy", 1, 100 + i)
            _ok(server, RULESET_PUT_BEGIN, {"name": "toy", "size": len(data), "hash": content_hash})
            steps.append(_stepped(server, RULESET_PUT_CHUNK, {"offset": 0, "data": data}, 4300 + 2 * i)[2])
            assert _stepped(server, RULESET_PUT_COMMIT, {}, 4301 + 2 * i)[0] == RULESET_PUT_COMMIT | REPLY
        assert steps == [2, 2, 2, 3, 2, 2, 2, 3]

    _collecting(-1, sync)


@toy_family.with_toy_family
def test_a_row_of_uploads_keeps_the_schema_module_it_imported_until_another_request():
    from tiletable.engine.rulesets import find_ruleset
    from tiletable.heap import StockHeap

    policy = StockHeap()
    releasing_modules = policy.releasing
    server = _server("server-keep-schema", policy)
    schema = "tiletable.engine.line_params"
    loaded_before = schema in sys.modules
    for name in ("muggins", "block"):
        ruleset = releasing_modules(find_ruleset, name)
        data = ruleset.to_json().encode()
        _ok(server, RULESET_PUT_BEGIN, {"name": name, "size": len(data), "hash": ruleset.hash})
        _ok(server, RULESET_PUT_CHUNK, {"offset": 0, "data": data[:900]})
        _ok(server, RULESET_PUT_CHUNK, {"offset": 900, "data": data[900:]})  # validated
        assert schema in sys.modules and policy.kept_modules is not None  # the next upload finds it imported
        _ok(server, RULESET_PUT_COMMIT)
    assert len(_ok(server, RULESET_LIST, LIST_ALL)["rulesets"]) == 2  # the row is over
    assert policy.kept_modules is None and (schema in sys.modules) == loaded_before


@toy_family.with_toy_family
def test_uploads_on_a_frozen_build_leave_no_list_of_modules_to_release():
    data, content_hash = toy_family.document("toy", 1, 100)
    server = _frozen_build_server("server-frozen-keep")
    got_type, _ = _sync(server, data, content_hash)
    assert got_type == RULESET_PUT_COMMIT | REPLY
    assert server.policy.kept_modules is None  # its modules stay in flash: nothing to look up at the row's end


@toy_family.with_toy_family
def test_an_upload_in_steps_that_fails_leaves_the_installed_ruleset():
    server = _server("server-steps-bad")
    data, content_hash = toy_family.document("toy", 1, 100)
    _sync(server, data, content_hash)  # steps off: each request in one go
    server.steps = True
    installed = [{"name": "toy", "version": 1, "hash": content_hash}]
    new, _ = toy_family.document("toy", 2, 100)
    bad = b'{"family":"toy","name":"toy","params":{"target":-1}}'
    for seq, (document, announced, why) in ((4200, (new, HASH, "hash")), (4210, (bad, content_hash, "params.target"))):
        _ok(server, RULESET_PUT_BEGIN, {"name": "toy", "size": len(document), "hash": announced})
        got_type, reply, steps = _stepped(server, RULESET_PUT_CHUNK, {"offset": 0, "data": document}, seq)
        assert got_type == RULESET_PUT_CHUNK | REPLY and steps >= 2  # the chunk is taken; the commit says why
        got_type, reply, _ = _stepped(server, RULESET_PUT_COMMIT, {}, seq + 1)
        assert got_type == ERROR and reply["code"] == E_RULESET and why in reply["message"], reply
        assert server.stepping is None
        assert _ok(server, RULESET_LIST, LIST_ALL)["rulesets"] == installed


def _stored(data):
    """``data`` as a raw DEFLATE stream of one stored block: MicroPython has no compressor to
    make one in a portable test (the host's zlib streams are tested in tests/host)."""
    return bytes([1, len(data) & 0xFF, len(data) >> 8, ~len(data) & 0xFF, (~len(data) >> 8) & 0xFF]) + data


def _put_deflated(name, data, content_hash, deflated=None):
    return {"name": name, "size": len(data), "hash": content_hash, "data": _stored(data) if deflated is None else deflated}


@toy_family.with_toy_family
def test_deflated_put_is_a_begin_and_every_chunk_in_one_request_validated_in_its_own_step():
    server = _server("server-deflated")
    server.steps = True
    data, content_hash = toy_family.document("toy", 3, 77)
    got_type, reply, steps = _stepped(server, RULESET_PUT_DEFLATED, _put_deflated("toy", data, content_hash), 4400)
    assert got_type == RULESET_PUT_DEFLATED | REPLY and reply == {"received": len(data)} and steps >= 2
    assert server.rulestore.names() == []  # installed at the commit only
    got_type, reply, _ = _stepped(server, RULESET_PUT_COMMIT, {}, 4401)
    assert got_type == RULESET_PUT_COMMIT | REPLY and reply == {"name": "toy", "version": 3, "hash": content_hash}
    assert _ok(server, RULESET_LIST, LIST_ALL)["rulesets"] == [{"name": "toy", "version": 3, "hash": content_hash}]


class _CountingGc:
    def __init__(self):
        self.collections = 0

    def collect(self):
        self.collections += 1


def _sync_counting_collections(server):
    """The collections a sync makes through the server's collector (a ``_CountingGc``)."""
    server.steps = True
    _, _, steps = _stepped(server, RULESET_LIST, {"after": "m"}, 4500)
    assert server.gc.collections == 0 and steps == 1  # a later page
    _, _, steps = _stepped(server, RULESET_LIST, LIST_ALL, 4501)
    assert steps == 3  # the collection (where there is one), the index, the page
    collected = [server.gc.collections]
    for version in range(1, 5):
        data, content_hash = toy_family.document("toy", version, 77)
        _stepped(server, RULESET_PUT_DEFLATED, _put_deflated("toy", data, content_hash), 4502 + 2 * version)
        _stepped(server, RULESET_PUT_COMMIT, {}, 4503 + 2 * version)
        collected.append(server.gc.collections)
    return collected


@toy_family.with_toy_family
def test_a_sync_collects_the_heap_at_its_first_list_page_and_before_every_fourth_validation():
    server = _frozen_build_server("server-collects", _CountingGc())
    _collecting(-1, lambda: _collected(_sync_counting_collections(server), [1, 1, 1, 1, 2]))


@toy_family.with_toy_family
def test_where_collections_come_by_bytes_allocated_a_sync_makes_none_of_its_own():
    """A stock build collects every 16 KB allocated (48 KB while uploads last): the collections
    above, for a heap collected only when full, would add to those (20-40 ms each on the chip)."""
    from tiletable.heap import StockHeap

    server = _server("server-stock-collects", StockHeap(), _CountingGc())
    _collecting(16 * 1024, lambda: _collected(_sync_counting_collections(server), [0, 0, 0, 0, 0]))


def _collected(counts, expected):
    assert counts == expected, counts


@toy_family.with_toy_family
def test_deflated_put_that_is_damaged_or_of_another_size_is_refused_and_loses_nothing():
    server = _server("server-deflated-bad")
    data, content_hash = toy_family.document("toy", 1, 100)
    _sync(server, data, content_hash)
    installed = [{"name": "toy", "version": 1, "hash": content_hash}]
    new, new_hash = toy_family.document("toy", 2, 100)
    packed = _stored(new)
    for deflated, why in (
        (b"\xff" * 40, "is damaged"),  # a block type that does not exist
        (packed[:-5], "is damaged"),  # cut short
        (_stored(new[:-1]), "inflates to %d bytes, not the announced %d" % (len(new) - 1, len(new))),
        (_stored(new + b" "), "inflates to more than the announced %d bytes" % len(new)),
    ):
        message = _error(server, RULESET_PUT_DEFLATED, _put_deflated("toy", new, new_hash, deflated), E_BAD_VALUE)
        assert message == "the deflated document of 'toy' " + why, message
        assert "without a put begin" in _error(server, RULESET_PUT_COMMIT, None, E_SEQUENCE)  # the upload is dropped
        assert _ok(server, RULESET_LIST, LIST_ALL)["rulesets"] == installed
    bad = b'{"family":"toy","name":"toy","params":{"target":-1}}'
    assert _ok(server, RULESET_PUT_DEFLATED, _put_deflated("toy", bad, content_hash)) == {"received": len(bad)}
    got_type, reply = _ask(server, RULESET_PUT_COMMIT)
    assert got_type == ERROR and reply["code"] == E_RULESET and "params.target" in reply["message"], reply
    assert _ok(server, RULESET_LIST, LIST_ALL)["rulesets"] == installed


@toy_family.with_toy_family
def test_deflated_put_starts_the_upload_again():
    """A put begin's rule: an upload in progress (plain, or deflated and not committed) is dropped."""
    server = _server("server-deflated-again")
    data, content_hash = toy_family.document("toy", 1, 100)
    _ok(server, RULESET_PUT_BEGIN, {"name": "toy", "size": len(data), "hash": content_hash})
    _ok(server, RULESET_PUT_CHUNK, {"offset": 0, "data": data[:10]})
    assert _ok(server, RULESET_PUT_DEFLATED, _put_deflated("toy", data, content_hash)) == {"received": len(data)}
    assert _ok(server, RULESET_PUT_DEFLATED, _put_deflated("toy", data, content_hash)) == {"received": len(data)}
    assert _ok(server, RULESET_PUT_COMMIT)["hash"] == content_hash
    assert "Bad" in _error(server, RULESET_PUT_DEFLATED, _put_deflated("Bad", data, HASH), E_BAD_VALUE)


def _journal_with_sessions(server, sessions, events):
    journal = server.journal
    for s in range(sessions):
        journal.start_session("muggins", HASH, ["ann", "bob"], "0.3.0")
        for i in range(events):
            journal.log_action("%d-%d>L" % (s % 7, i % 7))
        journal.end_session({"reason": "over"})


@toy_family.with_toy_family
def test_journal_pull_in_chunks_then_acknowledge():
    server = _server("server-journal")
    _journal_with_sessions(server, 3, 150)
    status = _ok(server, JOURNAL_STATUS)
    assert (status["first"], status["last"], status["acked"], status["full"]) == (1, 456, 0, 0)
    after = 0  # the records come in order, each once: checked as they come (no list of 456 in the heap)
    while True:
        reply = _ok(server, JOURNAL_PULL, {"after": after, "max": 600})
        records = list(iter_records(reply["records"]))
        if not records:
            break
        assert len(reply["records"]) <= 600 and reply["durable"] == 456
        for record in records:
            assert record[0] == after + 1
            after = record[0]
    assert after == 456
    assert _ok(server, JOURNAL_ACK, {"seq": 200}) == {"acked": 200}
    assert "457" in _error(server, JOURNAL_ACK, {"seq": 457}, E_BAD_VALUE)
    assert str(MAX_RECORD) in _error(server, JOURNAL_PULL, {"after": 0, "max": 100}, E_BAD_VALUE)
    sessions = _ok(server, JOURNAL_SESSIONS, {"after": 0})["sessions"]
    assert [(s["first"], s["last"], s["acked"], s["ended"]) for s in sessions] == [
        (1, 152, 1, 1),
        (153, 304, 0, 1),
        (305, 456, 0, 1),
    ]
    assert sessions[0]["ruleset"] == "muggins" and sessions[0]["hash"] == HASH and sessions[0]["boot"] == 1
    assert _ok(server, JOURNAL_SESSIONS, {"after": 153})["sessions"][0]["first"] == 305


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
    server = _server("server-stream")
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
    assert "0 frames" in _error(server, JOURNAL_STREAM, _stream_fields(0, frames=0), E_BAD_VALUE)


@toy_family.with_toy_family
def test_a_stream_frame_carries_up_to_stream_payload_whatever_the_host_asks():
    server = _server("server-stream-4k")
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
    server = _server("server-stream-grows")
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
    server = _server("server-stream-end")
    _journal_with_sessions(server, 2, 40)
    server.receive(encode_message(JOURNAL_STREAM, 5, _stream_fields(0)))
    assert server.stream is not None
    _ok(server, JOURNAL_STATUS)
    assert server.stream is None
    first = _stream(server, _stream_fields(0), seq=6)
    again = _stream(server, _stream_fields(0), seq=6)  # a host's retry: the same run again
    assert first == again and first[-1]["last"] == 2


@toy_family.with_toy_family
def test_session_list_is_paged_to_fit_a_frame():
    server = _server("server-sessions")
    _journal_with_sessions(server, 30, 1)
    first_page = _ok(server, JOURNAL_SESSIONS, {"after": 0})["sessions"]
    assert 0 < len(first_page) < 30
    rest = _ok(server, JOURNAL_SESSIONS, {"after": first_page[-1]["first"]})["sessions"]
    assert len(first_page) + len(rest) == 30


@toy_family.with_toy_family
def test_every_failure_is_an_error_reply():
    server = _server("server-errors")
    assert "not a request" in _error(server, EV_SCORE, {"seat": 1, "points": "2", "rule": "x"}, E_UNKNOWN_TYPE)
    assert "not available" in _error(server, GAME_START, {"ruleset": "toy", "players": []}, E_UNSUPPORTED)
    replies = _replies(server, encode_frame(JOURNAL_PULL, 9, b"\x01"))
    assert replies[0][0] == ERROR and replies[0][2]["code"] == E_MALFORMED and "'after'" in replies[0][2]["message"]
    replies = _replies(server, encode_frame(0x3E, 10, b""))
    assert replies[0][2]["code"] == E_UNKNOWN_TYPE
    replies = _replies(server, encode_frame(HELLO, 11, b"", version=2))
    assert replies[0][2]["code"] == E_VERSION and "speaks 1" in replies[0][2]["message"]
    assert server.errors_sent == 5


@toy_family.with_toy_family
def test_registered_handlers_answer_game_requests_and_their_failures_are_contained():
    server = _server("server-handlers")
    started = []

    def start_game(fields):
        if fields["ruleset"] == "boom":
            raise KeyError("no tray")
        if not fields["players"]:
            raise ProtocolError(E_BAD_VALUE, "no players")
        started.append(fields)
        return {"session": 42}

    server.register(GAME_START, start_game, "game")
    assert _ok(server, HELLO, {"proto": 1, "host": "t"})["capabilities"] == ["game", "journal", "journal-stream", "maintenance", "name", "ruleset-deflate", "rulesets"]
    assert _ok(server, GAME_START, {"ruleset": "toy", "players": ["ann", "bob"]}) == {"session": 42}
    assert started == [{"ruleset": "toy", "players": ["ann", "bob"]}]
    assert _error(server, GAME_START, {"ruleset": "toy", "players": []}, E_BAD_VALUE) == "no players"
    assert "no tray" in _error(server, GAME_START, {"ruleset": "boom", "players": ["a"]}, E_INTERNAL)


@toy_family.with_toy_family
def test_maintenance_request_sets_the_flag_for_the_main_loop():
    server = _server("server-maintenance")
    assert not server.maintenance_requested
    _ok(server, MAINTENANCE)
    assert server.maintenance_requested


@toy_family.with_toy_family
def test_events_are_numbered_by_the_server():
    server = _server("server-events")
    decoder = FrameDecoder()
    frames = [server.event(EV_SCORE, {"seat": 2, "points": "-10", "rule": "fives"}) for _ in range(3)]
    got = [(t, s, decode_payload(t, p)) for f in frames for _, t, s, p in decoder.feed(f)]
    assert got == [(EV_SCORE, n, {"seat": 2, "points": "-10", "rule": "fives"}) for n in (1, 2, 3)]


@toy_family.with_toy_family
def test_requests_split_across_chunks_and_batched_together():
    server = _server("server-chunks")
    wire = encode_message(JOURNAL_STATUS, 1) + b"\x03garbage" + encode_message(HELLO, 2, {"proto": 1, "host": "h"})
    replies = []
    for i in range(len(wire)):
        replies.extend(_replies(server, wire[i : i + 1]))
    assert [(t, s) for t, s, _ in replies] == [(JOURNAL_STATUS | REPLY, 1), (HELLO | REPLY, 2)]
    assert server.decoder.bad == 1


@toy_family.with_toy_family
def test_a_full_heap_is_reported_as_out_of_memory_not_as_a_bug():
    from tiletable.proto.messages import E_NO_MEMORY, ERROR_NAMES

    server = _server("server-memory")

    def start_game(fields):
        raise MemoryError("memory allocation failed, allocating 1280 bytes")

    server.register(GAME_START, start_game, "game")
    message = _error(server, GAME_START, {"ruleset": "toy", "players": ["ann", "bob"]}, E_NO_MEMORY)
    assert message.startswith("game start: not enough memory (") and message.endswith(" bytes free)")
    assert ERROR_NAMES[E_NO_MEMORY] == "out of memory"
    assert _ok(server, HELLO, {"proto": 1, "host": "t"})["device"] == "tiletable-test"  # it carries on
