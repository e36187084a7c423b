"""Link fuzz against the whole firmware App (issue 18): the fuzz in tests/proto/test_fuzz.py
reaches a bare LinkServer; this one reaches the App's game, clock, self-test and tag handlers
too, with well-laid payloads of hostile values, random payloads and damaged frames of every
request type. ``make soak`` runs a hundred thousand frames (bench/app_link_fuzz.py too, with figures)."""
import sys

from sim.app_link_fuzz import Findings, build_app, fuzz
from soak import size
from tiletable.proto.frame import FrameDecoder
from tiletable.proto.messages import (
    GAME_START,
    GAME_STOP,
    JOURNAL_ACK,
    MAINTENANCE,
    REPLY,
    RULESET_PUT_BEGIN,
    RULESET_REMOVE,
    SELF_TEST,
    SET_CLOCK,
    SET_NAME,
    TAG_WRITE,
    UID_PUT,
    decode_payload,
    encode_message,
    message_name,
)
from tiletable.runtime.warmup import Warmer

FRAMES = size(2500, 100000)
CHANGES = (GAME_START, GAME_STOP, JOURNAL_ACK, MAINTENANCE, RULESET_PUT_BEGIN, RULESET_REMOVE, SELF_TEST, SET_CLOCK, SET_NAME, TAG_WRITE, UID_PUT)


def test_hostile_frames_for_every_handler_change_nothing_unless_valid(table_root):
    findings = fuzz(table_root, FRAMES, seed=18)
    assert findings.bugs() == 0, (findings.summary(), findings.examples)
    assert findings.frames == FRAMES
    for msg_type in CHANGES:  # each request that changes the table was both taken and refused
        accepted, refused = findings.by_type.get(msg_type, (0, 0))
        assert accepted and refused, (message_name(msg_type), accepted, refused)


def test_the_findings_count_a_change_on_error_as_a_bug():
    findings = Findings()
    findings.answered(JOURNAL_ACK, False)
    findings.bug("changed_on_error", "journal ack")
    assert findings.bugs() == 1 and findings.by_type[JOURNAL_ACK] == [0, 1]


def test_a_game_start_over_the_link_is_answered_in_steps_and_begins_at_the_last(table_root):
    app = build_app(table_root)
    request = encode_message(GAME_START, 7, {"ruleset": "muggins", "players": ["ann", "bob"]})
    assert app.server.receive(request) == []  # the first step ran; the reply waits for the last
    steps = 1
    reply = None
    while reply is None:
        assert app.table.session is None and not app.journal.in_session  # the menu until the last step
        app.scan(0)  # the table's loop runs between the steps
        reply = app.server.step()
        steps += 1
    assert steps >= 4
    (frame,) = FrameDecoder().feed(reply)
    assert frame[1] == GAME_START | REPLY and decode_payload(frame[1], frame[3])["session"] > 0
    assert app.table.session is not None and app.journal.in_session
    app.journal.close()


def test_the_menus_game_is_readied_in_steps_while_the_link_is_quiet(table_root):
    app = build_app(table_root)
    assert isinstance(app.warmer, Warmer)  # CPython's heap policy is a frozen build's (tiletable/heap_frozen.py)
    app.table.rulestore._ready = None  # forget the start build_app made
    app.link_read_ms = 0  # a request was read at 0 ms
    app.housekeeping(500)
    assert app.table.rulestore._ready is None  # the link is not quiet yet
    steps = 0
    now = 1000
    streams = ("tiletable.proto.stream", "tiletable.runtime.journal_read")  # what a first pull imports
    imported = {name: sys.modules.pop(name) for name in streams if name in sys.modules}
    try:
        while app.table.rulestore._ready is None or app.warmer._steps is not None:
            app.housekeeping(now)
            steps += 1
            now += 100
        assert all(name in sys.modules for name in streams)
    finally:
        sys.modules.update(imported)  # the modules the other tests imported
    assert steps >= 4 and app.table.rulestore._ready[1].name == app.table.menu.name == "muggins"
    assert "tiletable.runtime.play_line" in sys.modules
    app.table.rulestore._ready = None
    app.housekeeping(now)
    assert app.table.rulestore._ready is None  # not again until a request comes or the menu changes
    app.link_read_ms = now
    for _ in range(15):
        now += 100
        app.housekeeping(now)
    assert app.table.rulestore._ready is not None  # a request came (a sync may change the ruleset)
    app.journal.close()
