# portable
"""Requests to a link server as a host sends them, for the link server's tests: one server on a
fresh directory, a request answered (in steps if it is stepped), its reply or its error."""
import gc

from runtime.scratch import fresh_dir

from tiletable.proto.frame import FrameDecoder
from tiletable.proto.messages import ERROR, REPLY, decode_payload, encode_message
from tiletable.proto.server import LinkServer
from tiletable.runtime.journal import Journal
from tiletable.runtime.rulestore import RuleStore

HASH = "0123456789abcdef"
LIST_ALL = {"after": ""}


def server_on(name, policy=None, collector=gc):
    """A server on a fresh directory; ``policy``: its heap policy (tiletable/heap.py), by default the runtime's."""
    root = fresh_dir(name)
    return LinkServer(RuleStore(root + "/rulesets", policy=policy), Journal(root + "/journal"), "0.3.0", "tiletable-test", policy, collector)


def replies_to(server, wire):
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


def ask(server, msg_type, fields=None, seq=None):
    """One request, numbered as a host numbers them (each new request gets the next number)."""
    seq = next(_numbers) & 0xFFFF if seq is None else seq
    replies = replies_to(server, encode_message(msg_type, seq, fields))
    assert len(replies) == 1 and replies[0][1] == seq, replies
    return replies[0][0], replies[0][2]


def ok(server, msg_type, fields=None):
    got_type, reply = ask(server, msg_type, fields)
    assert got_type == msg_type | REPLY, reply
    return reply


def error_message(server, msg_type, fields=None, code=None):
    got_type, reply = ask(server, msg_type, fields)
    assert got_type == ERROR and reply["request"] == msg_type, reply
    assert code is None or reply["code"] == code, reply
    return reply["message"]
