"""The Transport layer against the firmware's real LinkServer (in-process): requests, replies,
errors, events, retries and the debug log of frames."""
import logging

import pytest

from tiletable.proto.messages import E_NOT_FOUND, EV_SCORE, GAME_START, JOURNAL_STATUS, RULESET_PUT_BEGIN
from tiletable.engine.rulesets import find_ruleset
from tiletable_host.transport import DeviceError, ReplyTimeout
from tiletable_host.transport_local import LocalTransport


@pytest.fixture
def link(tmp_path):
    transport = LocalTransport(str(tmp_path / "device"))
    transport.hello()
    return transport


def test_hello_reports_the_device_and_its_capabilities(link):
    assert link.device_info["device"] == "tiletable-local"
    assert link.has_capability("journal") and not link.has_capability("game")


def test_a_ruleset_put_is_listed_with_the_hash_the_pc_computed(link):
    ruleset = find_ruleset("muggins")
    reply = link.ruleset_put("muggins", ruleset.to_json().encode(), ruleset.hash)
    assert reply == {"name": "muggins", "version": 1, "hash": ruleset.hash}
    assert link.ruleset_list() == {"muggins": (1, ruleset.hash)}


def test_a_device_error_becomes_a_device_error_naming_request_and_reason(link):
    with pytest.raises(DeviceError) as caught:
        link.ruleset_remove("nosuch")
    assert caught.value.code == E_NOT_FOUND
    assert str(caught.value) == "ruleset remove: not found: no ruleset 'nosuch' installed"


def test_a_request_the_device_lacks_is_refused_as_unsupported(link):
    with pytest.raises(DeviceError, match="game start: unsupported"):
        link.game_start("muggins", ["ann", "bob"])


def test_events_that_arrive_before_a_reply_go_to_the_callback(link):
    seen = []
    link.on_event = lambda name, fields: seen.append((name, fields))
    link.send_event(EV_SCORE, {"seat": 1, "points": "10", "rule": "fives"})
    link.journal_status()
    assert seen == [("score event", {"seat": 1, "points": "10", "rule": "fives"})]


def test_an_idempotent_request_is_sent_again_after_a_lost_reply(link):
    dropped = []

    def drop_first(msg_type):
        if msg_type == JOURNAL_STATUS and not dropped:
            dropped.append(msg_type)
            return True
        return False

    link.before_request = drop_first
    assert link.journal_status()["last"] == 0
    assert dropped == [JOURNAL_STATUS]


def test_a_request_that_changes_state_is_not_repeated(link):
    sent = []
    link.before_request = lambda msg_type: sent.append(msg_type) or True
    with pytest.raises(ReplyTimeout, match="no reply to ruleset put begin after 1 attempt of 0.1 s"):
        link.request(RULESET_PUT_BEGIN, {"name": "x", "size": 10, "hash": "0" * 16})
    assert sent == [RULESET_PUT_BEGIN]


def test_no_reply_at_all_gives_up_after_every_attempt(link):
    link.before_request = lambda msg_type: True
    with pytest.raises(ReplyTimeout, match="no reply to journal status after 3 attempts"):
        link.journal_status()


def test_frames_are_logged_with_direction_marks(link, caplog):
    with caplog.at_level(logging.DEBUG, logger="tiletable.link"):
        link.journal_status()
    lines = [r.getMessage() for r in caplog.records]
    assert lines[0].startswith(">> journal status seq=")
    assert lines[1].startswith("<< journal status reply seq=")


def test_game_requests_are_numbered_and_matched(link):
    link.server.register(GAME_START, lambda fields: {"session": 7}, "game")
    assert link.game_start("muggins", ["ann", "bob"]) == 7


def test_maintenance_command_hands_the_board_to_the_repl(capsys, link):
    from cli import tiletable

    status, out, _ = tiletable(capsys, ["maintenance"], link)
    assert status == 0 and out.startswith("tiletable-local left protocol mode")
    assert link.server.maintenance_requested
