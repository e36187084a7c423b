# portable
"""The link dispatcher: ruleset sync and journal pull over frames, and an error reply for everything else."""
import gc
import sys

from proto.link_requests import HASH, LIST_ALL, ask, error_message, ok, replies_to, server_on
from runtime import toy_family

from tiletable.proto.frame import MAX_PAYLOAD, FrameDecoder, encode_frame
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
    JOURNAL_PULL,
    JOURNAL_STATUS,
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

def test_the_journal_identity_and_the_name_go_to_a_host_that_reads_them():
    server = server_on("server-identity")
    identity = server.journal.identity
    first = ok(server, HELLO, {"proto": 1, "host": "old"})  # a host from before them: the reply it knows
    assert "journal" not in first and "name" not in first and "journal" not in ok(server, JOURNAL_STATUS)
    assert ok(server, SET_NAME, {"name": "Table 3"}) == {}
    reply = ok(server, HELLO, {"proto": 2, "host": "new"})
    assert (reply["journal"], reply["name"]) == (identity, "Table 3") and ok(server, JOURNAL_STATUS)["journal"] == identity
    assert "at most 32 bytes" in error_message(server, SET_NAME, {"name": "x" * 33}, E_BAD_VALUE)


@toy_family.with_toy_family
def test_hello_announces_version_and_capabilities():
    server = server_on("server-hello")
    reply = ok(server, HELLO, {"proto": 1, "host": "pytest"})
    assert reply["proto"] == 1 and reply["firmware"] == "0.3.0" and reply["device"] == "tiletable-test"
    assert reply["boot"] == 1 and reply["max_payload"] == MAX_PAYLOAD
    assert reply["capabilities"] == ["journal", "journal-stream", "maintenance", "name", "ruleset-deflate", "rulesets"]


def _sync(server, data, content_hash, name="toy", chunk=20):
    ok(server, RULESET_PUT_BEGIN, {"name": name, "size": len(data), "hash": content_hash})
    for offset in range(0, len(data), chunk):
        reply = ok(server, RULESET_PUT_CHUNK, {"offset": offset, "data": data[offset : offset + chunk]})
        assert reply["received"] == min(offset + chunk, len(data))
    return ask(server, RULESET_PUT_COMMIT)


@toy_family.with_toy_family
def test_ruleset_sync_list_and_remove_over_the_link():
    server = server_on("server-rules")
    data, content_hash = toy_family.document("toy", 3, 77)
    got_type, reply = _sync(server, data, content_hash)
    assert got_type == RULESET_PUT_COMMIT | REPLY and reply == {"name": "toy", "version": 3, "hash": content_hash}
    assert ok(server, RULESET_LIST, LIST_ALL) == {"rulesets": [{"name": "toy", "version": 3, "hash": content_hash}], "more": 0}
    ok(server, RULESET_REMOVE, {"name": "toy"})
    assert ok(server, RULESET_LIST, LIST_ALL) == {"rulesets": [], "more": 0}
    assert "'toy'" in error_message(server, RULESET_REMOVE, {"name": "toy"}, E_NOT_FOUND)


@toy_family.with_toy_family
def test_a_list_of_a_hundred_rulesets_comes_in_pages_that_fit_a_frame():
    server = server_on("server-rules-many")
    # 40 under MicroPython (two pages still): a hundred file writes leave the unix port's 192 KB
    # heap of 64-bit objects without a 2 KB block, which says nothing of a Pico's.
    count = 100 if sys.implementation.name == "cpython" else 40
    names = ["toy-%03d-%s" % (i, "x" * 16) for i in range(count)]  # long names: the fewest per page
    for i, name in enumerate(names):
        data, content_hash = toy_family.document(name, 65535, i + 1)
        assert _sync(server, data, content_hash, name=name, chunk=900)[0] == RULESET_PUT_COMMIT | REPLY
    listed, pages, after = [], 0, ""
    while True:
        reply = ok(server, RULESET_LIST, {"after": after})
        listed += [row["name"] for row in reply["rulesets"]]
        pages += 1
        if not reply["more"]:
            break
        after = listed[-1]
    assert listed == names and pages > 1


@toy_family.with_toy_family
def test_a_repeated_request_gets_the_first_reply_and_is_not_run_again():
    server = server_on("server-repeat")
    data, content_hash = toy_family.document("toy", 1, 100)
    ok(server, RULESET_PUT_BEGIN, {"name": "toy", "size": len(data), "hash": content_hash})
    ok(server, RULESET_PUT_CHUNK, {"offset": 0, "data": data})
    commit = encode_message(RULESET_PUT_COMMIT, 4000, {})
    first = server.receive(commit)
    assert server.receive(commit + commit) == first * 2  # a retry, and one more in the same read
    assert server.repeats_answered == 2 and server.errors_sent == 0  # run again: "without a put begin"
    ok(server, RULESET_REMOVE, {"name": "toy"})
    assert error_message(server, RULESET_PUT_COMMIT, None, E_SEQUENCE)  # a new number: a new request
    hello = encode_message(HELLO, 4000, {"proto": 1, "host": "again"})
    server.receive(hello)
    assert server.receive(commit) != first  # a new host session: its number 4000 is a new request


@toy_family.with_toy_family
def test_ruleset_sync_errors_keep_the_installed_ruleset():
    server = server_on("server-rules-bad")
    data, content_hash = toy_family.document("toy", 1, 100)
    _sync(server, data, content_hash)
    new, _ = toy_family.document("toy", 2, 100)
    got_type, reply = _sync(server, new, HASH)
    assert got_type == ERROR and reply["code"] == E_RULESET and "hash" in reply["message"]
    bad = b'{"family":"toy","name":"toy","params":{"target":-1}}'
    got_type, reply = _sync(server, bad, content_hash)
    assert reply["code"] == E_RULESET and "params.target" in reply["message"]
    assert "without a put begin" in error_message(server, RULESET_PUT_CHUNK, {"offset": 0, "data": b"x"}, E_SEQUENCE)
    assert "without a put begin" in error_message(server, RULESET_PUT_COMMIT, None, E_SEQUENCE)
    ok(server, RULESET_PUT_BEGIN, {"name": "toy", "size": len(new), "hash": HASH})
    assert "expected 0" in error_message(server, RULESET_PUT_CHUNK, {"offset": 5, "data": b"x"}, E_SEQUENCE)
    assert "0 of" in error_message(server, RULESET_PUT_COMMIT, None, E_SEQUENCE)
    assert "Bad" in error_message(server, RULESET_PUT_BEGIN, {"name": "Bad", "size": 5, "hash": HASH}, E_BAD_VALUE)
    assert ok(server, RULESET_LIST, LIST_ALL)["rulesets"] == [{"name": "toy", "version": 1, "hash": content_hash}]


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
    server = server_on("server-forget-last")
    server.steps = True
    ok(server, RULESET_LIST, LIST_ALL)
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
    server = server_on("server-steps")
    server.steps = True
    data, content_hash = toy_family.document("toy", 1, 100)
    ok(server, RULESET_PUT_BEGIN, {"name": "toy", "size": len(data), "hash": content_hash})
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
    assert ok(server, RULESET_LIST, LIST_ALL)["rulesets"] == [{"name": "toy", "version": 1, "hash": content_hash}]


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

    return server_on(name, FrozenHeap(), collector)


@toy_family.with_toy_family
def test_every_fourth_upload_in_steps_collects_garbage_in_a_step_before_its_validation():
    def sync():
        server = _frozen_build_server("server-steps-collect")
        server.steps = True
        steps = []
        for i in range(8):
            data, content_hash = toy_family.document("toy", 1, 100 + i)
            ok(server, RULESET_PUT_BEGIN, {"name": "toy", "size": len(data), "hash": content_hash})
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
    server = server_on("server-keep-schema", policy)
    schema = "tiletable.engine.line_params"
    loaded_before = schema in sys.modules
    for name in ("muggins", "block"):
        ruleset = releasing_modules(find_ruleset, name)
        data = ruleset.to_json().encode()
        ok(server, RULESET_PUT_BEGIN, {"name": name, "size": len(data), "hash": ruleset.hash})
        ok(server, RULESET_PUT_CHUNK, {"offset": 0, "data": data[:900]})
        ok(server, RULESET_PUT_CHUNK, {"offset": 900, "data": data[900:]})  # validated
        assert schema in sys.modules and policy.kept_modules is not None  # the next upload finds it imported
        ok(server, RULESET_PUT_COMMIT)
    assert len(ok(server, RULESET_LIST, LIST_ALL)["rulesets"]) == 2  # the row is over
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
    server = server_on("server-steps-bad")
    data, content_hash = toy_family.document("toy", 1, 100)
    _sync(server, data, content_hash)  # steps off: each request in one go
    server.steps = True
    installed = [{"name": "toy", "version": 1, "hash": content_hash}]
    new, _ = toy_family.document("toy", 2, 100)
    bad = b'{"family":"toy","name":"toy","params":{"target":-1}}'
    for seq, (document, announced, why) in ((4200, (new, HASH, "hash")), (4210, (bad, content_hash, "params.target"))):
        ok(server, RULESET_PUT_BEGIN, {"name": "toy", "size": len(document), "hash": announced})
        got_type, reply, steps = _stepped(server, RULESET_PUT_CHUNK, {"offset": 0, "data": document}, seq)
        assert got_type == RULESET_PUT_CHUNK | REPLY and steps >= 2  # the chunk is taken; the commit says why
        got_type, reply, _ = _stepped(server, RULESET_PUT_COMMIT, {}, seq + 1)
        assert got_type == ERROR and reply["code"] == E_RULESET and why in reply["message"], reply
        assert server.stepping is None
        assert ok(server, RULESET_LIST, LIST_ALL)["rulesets"] == installed


def _stored(data):
    """``data`` as a raw DEFLATE stream of one stored block: MicroPython has no compressor to
    make one in a portable test (the host's zlib streams are tested in tests/host)."""
    return bytes([1, len(data) & 0xFF, len(data) >> 8, ~len(data) & 0xFF, (~len(data) >> 8) & 0xFF]) + data


def _put_deflated(name, data, content_hash, deflated=None):
    return {"name": name, "size": len(data), "hash": content_hash, "data": _stored(data) if deflated is None else deflated}


@toy_family.with_toy_family
def test_deflated_put_is_a_begin_and_every_chunk_in_one_request_validated_in_its_own_step():
    server = server_on("server-deflated")
    server.steps = True
    data, content_hash = toy_family.document("toy", 3, 77)
    got_type, reply, steps = _stepped(server, RULESET_PUT_DEFLATED, _put_deflated("toy", data, content_hash), 4400)
    assert got_type == RULESET_PUT_DEFLATED | REPLY and reply == {"received": len(data)} and steps >= 2
    assert server.rulestore.names() == []  # installed at the commit only
    got_type, reply, _ = _stepped(server, RULESET_PUT_COMMIT, {}, 4401)
    assert got_type == RULESET_PUT_COMMIT | REPLY and reply == {"name": "toy", "version": 3, "hash": content_hash}
    assert ok(server, RULESET_LIST, LIST_ALL)["rulesets"] == [{"name": "toy", "version": 3, "hash": content_hash}]


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

    server = server_on("server-stock-collects", StockHeap(), _CountingGc())
    _collecting(16 * 1024, lambda: _collected(_sync_counting_collections(server), [0, 0, 0, 0, 0]))


def _collected(counts, expected):
    assert counts == expected, counts


@toy_family.with_toy_family
def test_deflated_put_that_is_damaged_or_of_another_size_is_refused_and_loses_nothing():
    server = server_on("server-deflated-bad")
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
        message = error_message(server, RULESET_PUT_DEFLATED, _put_deflated("toy", new, new_hash, deflated), E_BAD_VALUE)
        assert message == "the deflated document of 'toy' " + why, message
        assert "without a put begin" in error_message(server, RULESET_PUT_COMMIT, None, E_SEQUENCE)  # the upload is dropped
        assert ok(server, RULESET_LIST, LIST_ALL)["rulesets"] == installed
    bad = b'{"family":"toy","name":"toy","params":{"target":-1}}'
    assert ok(server, RULESET_PUT_DEFLATED, _put_deflated("toy", bad, content_hash)) == {"received": len(bad)}
    got_type, reply = ask(server, RULESET_PUT_COMMIT)
    assert got_type == ERROR and reply["code"] == E_RULESET and "params.target" in reply["message"], reply
    assert ok(server, RULESET_LIST, LIST_ALL)["rulesets"] == installed


@toy_family.with_toy_family
def test_deflated_put_starts_the_upload_again():
    """A put begin's rule: an upload in progress (plain, or deflated and not committed) is dropped."""
    server = server_on("server-deflated-again")
    data, content_hash = toy_family.document("toy", 1, 100)
    ok(server, RULESET_PUT_BEGIN, {"name": "toy", "size": len(data), "hash": content_hash})
    ok(server, RULESET_PUT_CHUNK, {"offset": 0, "data": data[:10]})
    assert ok(server, RULESET_PUT_DEFLATED, _put_deflated("toy", data, content_hash)) == {"received": len(data)}
    assert ok(server, RULESET_PUT_DEFLATED, _put_deflated("toy", data, content_hash)) == {"received": len(data)}
    assert ok(server, RULESET_PUT_COMMIT)["hash"] == content_hash
    assert "Bad" in error_message(server, RULESET_PUT_DEFLATED, _put_deflated("Bad", data, HASH), E_BAD_VALUE)


@toy_family.with_toy_family
def test_every_failure_is_an_error_reply():
    server = server_on("server-errors")
    assert "not a request" in error_message(server, EV_SCORE, {"seat": 1, "points": "2", "rule": "x"}, E_UNKNOWN_TYPE)
    assert "not available" in error_message(server, GAME_START, {"ruleset": "toy", "players": []}, E_UNSUPPORTED)
    replies = replies_to(server, encode_frame(JOURNAL_PULL, 9, b"\x01"))
    assert replies[0][0] == ERROR and replies[0][2]["code"] == E_MALFORMED and "'after'" in replies[0][2]["message"]
    replies = replies_to(server, encode_frame(0x3E, 10, b""))
    assert replies[0][2]["code"] == E_UNKNOWN_TYPE
    replies = replies_to(server, encode_frame(HELLO, 11, b"", version=2))
    assert replies[0][2]["code"] == E_VERSION and "speaks 1" in replies[0][2]["message"]
    assert server.errors_sent == 5


@toy_family.with_toy_family
def test_registered_handlers_answer_game_requests_and_their_failures_are_contained():
    server = server_on("server-handlers")
    started = []

    def start_game(fields):
        if fields["ruleset"] == "boom":
            raise KeyError("no tray")
        if not fields["players"]:
            raise ProtocolError(E_BAD_VALUE, "no players")
        started.append(fields)
        return {"session": 42}

    server.register(GAME_START, start_game, "game")
    assert ok(server, HELLO, {"proto": 1, "host": "t"})["capabilities"] == ["game", "journal", "journal-stream", "maintenance", "name", "ruleset-deflate", "rulesets"]
    assert ok(server, GAME_START, {"ruleset": "toy", "players": ["ann", "bob"]}) == {"session": 42}
    assert started == [{"ruleset": "toy", "players": ["ann", "bob"]}]
    assert error_message(server, GAME_START, {"ruleset": "toy", "players": []}, E_BAD_VALUE) == "no players"
    assert "no tray" in error_message(server, GAME_START, {"ruleset": "boom", "players": ["a"]}, E_INTERNAL)


@toy_family.with_toy_family
def test_maintenance_request_sets_the_flag_for_the_main_loop():
    server = server_on("server-maintenance")
    assert not server.maintenance_requested
    ok(server, MAINTENANCE)
    assert server.maintenance_requested


@toy_family.with_toy_family
def test_events_are_numbered_by_the_server():
    server = server_on("server-events")
    decoder = FrameDecoder()
    frames = [server.event(EV_SCORE, {"seat": 2, "points": "-10", "rule": "fives"}) for _ in range(3)]
    got = [(t, s, decode_payload(t, p)) for f in frames for _, t, s, p in decoder.feed(f)]
    assert got == [(EV_SCORE, n, {"seat": 2, "points": "-10", "rule": "fives"}) for n in (1, 2, 3)]


@toy_family.with_toy_family
def test_requests_split_across_chunks_and_batched_together():
    server = server_on("server-chunks")
    wire = encode_message(JOURNAL_STATUS, 1) + b"\x03garbage" + encode_message(HELLO, 2, {"proto": 1, "host": "h"})
    replies = []
    for i in range(len(wire)):
        replies.extend(replies_to(server, wire[i : i + 1]))
    assert [(t, s) for t, s, _ in replies] == [(JOURNAL_STATUS | REPLY, 1), (HELLO | REPLY, 2)]
    assert server.decoder.bad == 1


@toy_family.with_toy_family
def test_a_full_heap_is_reported_as_out_of_memory_not_as_a_bug():
    from tiletable.proto.messages import E_NO_MEMORY, ERROR_NAMES

    server = server_on("server-memory")

    def start_game(fields):
        raise MemoryError("memory allocation failed, allocating 1280 bytes")

    server.register(GAME_START, start_game, "game")
    message = error_message(server, GAME_START, {"ruleset": "toy", "players": ["ann", "bob"]}, E_NO_MEMORY)
    assert message.startswith("game start: not enough memory (") and message.endswith(" bytes free)")
    assert ERROR_NAMES[E_NO_MEMORY] == "out of memory"
    assert ok(server, HELLO, {"proto": 1, "host": "t"})["device"] == "tiletable-test"  # it carries on
