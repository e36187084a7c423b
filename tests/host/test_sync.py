"""``tiletable sync`` against the firmware's LinkServer and RuleStore (in-process device)."""
import json

import pytest

from cli import tiletable
from tiletable.engine.rulesets import find_ruleset, preset_names
from tiletable.proto.messages import HELLO, RULESET_PUT_BEGIN, RULESET_PUT_CHUNK, RULESET_PUT_COMMIT, RULESET_PUT_DEFLATED
from tiletable.runtime.rulestore import INDEX_FILE, RuleStore
from tiletable_host.db import Database
from tiletable_host.sync import preset_hashes, presets_digest
from tiletable_host.transport_local import LocalTransport


class PlainUploads(LocalTransport):
    """A table from before RULESET_PUT_DEFLATED (or without MicroPython's deflate module)."""

    def _boot(self):
        super()._boot()
        del self.server._handlers[RULESET_PUT_DEFLATED]
        self.server._capabilities.remove("ruleset-deflate")


@pytest.fixture
def device(tmp_path):
    return LocalTransport(str(tmp_path / "device"))


def _requests(device):
    """The request types ``device`` receives from now on, in order."""
    seen = []
    device.before_request = lambda msg_type: seen.append(msg_type) and False
    return seen


@pytest.mark.parametrize("table", [LocalTransport, PlainUploads])
def test_each_preset_goes_deflated_in_one_request_to_a_table_that_inflates_else_in_chunks(capsys, tmp_path, table):
    device = table(str(tmp_path / "device"))
    device.hello()
    seen = _requests(device)
    assert _sync(capsys, tmp_path, device, "--force")[0] == 0
    presets = len(preset_names())
    assert seen.count(RULESET_PUT_COMMIT) == presets
    if table is LocalTransport:
        assert (seen.count(RULESET_PUT_DEFLATED), seen.count(RULESET_PUT_BEGIN), seen.count(RULESET_PUT_CHUNK)) == (presets, 0, 0)
    else:
        assert (seen.count(RULESET_PUT_DEFLATED), seen.count(RULESET_PUT_BEGIN)) == (0, presets)
        assert seen.count(RULESET_PUT_CHUNK) > presets  # the larger ones span two chunks
    assert device.rulestore.list() == sorted((n, 1, find_ruleset(n).hash) for n in preset_names())


def test_a_document_whose_deflated_stream_does_not_fit_a_frame_goes_in_chunks(capsys, tmp_path, device):
    import random

    rng = random.Random(7)
    noise = "".join(rng.choice("abcdefghijklmnopqrstuvwxyz ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789") for _ in range(1000))
    path = _write(tmp_path, "noisy.json", {"family": "line", "name": "noisy", "description": noise})
    seen = _requests(device)
    assert _sync(capsys, tmp_path, device, path)[0] == 0
    assert RULESET_PUT_DEFLATED not in seen and seen.count(RULESET_PUT_CHUNK) >= 3, seen
    assert device.rulestore.get("noisy").description == noise


def _sync(capsys, tmp_path, device, *argv):
    return tiletable(capsys, ["sync", "--db", str(tmp_path / "t.db")] + list(argv), device)


def _write(tmp_path, name, doc):
    path = tmp_path / name
    path.write_text(doc if isinstance(doc, str) else json.dumps(doc))
    return str(path)


def test_the_digest_a_table_reports_is_that_of_its_presets(device):
    reported, digest = device.hello()["presets"], presets_digest(preset_hashes())
    assert reported == digest, "the presets changed: put %r in LinkServer._hello (proto/server.py)" % digest


def test_a_table_that_carries_the_pcs_presets_is_sent_none_of_them(capsys, tmp_path, device):
    seen = _requests(device)
    status, out, _ = _sync(capsys, tmp_path, device)
    assert status == 0
    assert "sync: 0 pushed, %d unchanged, 0 removed on tiletable-local (verified by hash)" % len(preset_names()) in out
    assert RULESET_PUT_COMMIT not in seen and device.rulestore.list() == []


class OtherPresets(LocalTransport):
    """A table whose firmware carries other presets (``digest``), or one from before HELLO's
    digest (None)."""

    digest = None

    def _boot(self):
        super()._boot()
        hello = self.server._handlers[HELLO]

        def hello_with_other_presets(fields):
            reply = hello(fields)
            del reply["presets"]
            if self.digest is not None:
                reply["presets"] = self.digest
            return reply

        self.server._handlers[HELLO] = hello_with_other_presets


@pytest.mark.parametrize("digest", [None, "0123456789abcdef"])
def test_every_preset_goes_to_a_table_with_other_presets_then_is_found_unchanged(capsys, tmp_path, digest):
    device = OtherPresets(str(tmp_path / "device"))
    device.digest = digest
    status, out, _ = _sync(capsys, tmp_path, device)
    assert status == 0
    assert "sync: %d pushed, 0 unchanged, 0 removed on tiletable-local (verified by hash)" % len(preset_names()) in out
    assert device.rulestore.list() == sorted((n, 1, find_ruleset(n).hash) for n in preset_names())
    status, out, _ = _sync(capsys, tmp_path, device)
    assert status == 0 and "sync: 0 pushed, %d unchanged" % len(preset_names()) in out


def test_a_house_ruleset_under_a_presets_name_is_replaced_by_the_preset_alone(capsys, tmp_path, device):
    house = _write(tmp_path, "muggins.json", {"family": "line", "name": "muggins", "params": {"target": 100}})
    assert _sync(capsys, tmp_path, device, house)[0] == 0
    status, out, _ = _sync(capsys, tmp_path, device)
    assert status == 0 and "sync: 1 pushed, %d unchanged" % (len(preset_names()) - 1) in out
    assert device.rulestore.list() == [("muggins", 1, find_ruleset("muggins").hash)]


def test_synced_rulesets_are_remembered_for_replays(capsys, tmp_path, device, db_target):
    path = _write(tmp_path, "m61.json", {"family": "line", "name": "m61", "params": {"target": 61}})
    assert tiletable(capsys, ["sync", "--db", db_target, path], device)[0] == 0
    db = Database.open(db_target)
    expected = find_ruleset("muggins").hash  # a different game: only the file was synced
    assert db.ruleset_document(expected) is None
    stored = [h for (n, v, h) in device.rulestore.list() if n == "m61"]
    assert json.loads(db.ruleset_document(stored[0]))["params"]["target"] == 61


def test_a_changed_file_is_pushed_and_the_report_says_what_it_replaced(capsys, tmp_path, device):
    path = _write(tmp_path, "house.json", {"family": "line", "name": "house", "params": {"target": 100}})
    _sync(capsys, tmp_path, device, path)
    old = device.rulestore.list()[0][2]
    _write(tmp_path, "house.json", {"family": "line", "name": "house", "params": {"target": 150}})
    status, out, _ = _sync(capsys, tmp_path, device, path)
    assert status == 0
    assert "pushed" in out and "(was %s)" % old in out
    assert device.rulestore.get("house").params["target"] == 150


def test_dry_run_changes_nothing(capsys, tmp_path, device):
    status, out, _ = _sync(capsys, tmp_path, device, "--dry-run", "--force")
    assert status == 0 and "muggins      would push" in out
    assert device.rulestore.list() == []


def test_prune_removes_rulesets_that_are_not_sources(capsys, tmp_path, device):
    _sync(capsys, tmp_path, device, "--force")
    path = _write(tmp_path, "house.json", {"family": "line", "name": "house"})
    status, out, _ = _sync(capsys, tmp_path, device, "--prune", path)
    assert status == 0
    assert [n for n, _, _ in device.rulestore.list()] == ["house"]
    assert "muggins      removed" in out


@pytest.mark.parametrize(
    "doc, message",
    [
        ("{nope", "bad.json: not valid JSON: Expecting property name enclosed in double quotes (line 1, column 2)"),
        ({"family": "line"}, "bad.json: name: is required"),
        ({"family": "line", "name": "x", "version": "2"}, "bad.json: version: must be a whole number (got '2')"),
        ({"family": "chess", "name": "x"}, "bad.json: family: must be one of line, trick, column, climb, fortytwo, train (got 'chess')"),
        ({"family": "line", "name": "x", "colour": 1}, "bad.json: colour: unknown field (allowed: family, name, version, params, aliases, description)"),
        ({"family": "line", "name": "x", "params": {"target": 0}}, "bad.json: params.target: must be at least 1 (got 0)"),
        ({"family": "line", "name": "x", "params": {"speed": 3}}, "bad.json: params.speed: unknown parameter"),
        ({"family": "line", "name": "x", "version": 65536}, "bad.json: version: must be at most 65535 (got 65536)"),
        ({"family": ["line"], "name": "x"}, "bad.json: family: must be one of line, trick, column, climb, fortytwo, train (got ['line'])"),
        ("[" * 5000 + "]" * 5000, "bad.json: not a ruleset: its JSON is nested too deeply"),
        ('{"family": "line", "name": "x", "version": 1%s}' % ("0" * 5000), "bad.json: not valid JSON: Exceeds the limit (4300 digits) for integer string conversion: value has 5001 digits; use sys.set_int_max_str_digits() to increase the limit"),
        ({"family": "line", "name": "x", "params": {"target": [[[[[[[[[[1]]]]]]]]]]}}, "bad.json: params.target: must be a whole number (got [[[[...]]]])"),
    ],
)
def test_invalid_documents_are_refused_before_anything_is_sent(capsys, tmp_path, device, doc, message):
    path = _write(tmp_path, "bad.json", doc)
    status, out, err = _sync(capsys, tmp_path, device, path)
    assert status == 1
    assert err == "tiletable: sync: %s/%s\n" % (tmp_path, message)
    assert device.rulestore.list() == []


def test_two_files_for_one_ruleset_are_refused(capsys, tmp_path, device):
    a = _write(tmp_path, "a.json", {"family": "line", "name": "same"})
    b = _write(tmp_path, "b.json", {"family": "line", "name": "same"})
    status, _, err = _sync(capsys, tmp_path, device, a, b)
    assert status == 1 and err == "tiletable: sync: %s and %s both define ruleset 'same'\n" % (a, b)


@pytest.mark.parametrize("table, upload", [(PlainUploads, RULESET_PUT_CHUNK), (LocalTransport, RULESET_PUT_DEFLATED), (LocalTransport, RULESET_PUT_COMMIT)])
def test_a_device_reset_in_the_middle_of_an_upload_restarts_it(capsys, tmp_path, table, upload):
    device = table(str(tmp_path / "device"))
    uploads = []

    def reset_at_third_upload_request(msg_type):
        if msg_type == upload:
            uploads.append(msg_type)
            if len(uploads) == 3:
                device.reset()
                return True
        return False

    device.before_request = reset_at_third_upload_request
    status, out, _ = _sync(capsys, tmp_path, device, "--force")
    assert status == 0, out
    assert device.resets == 1
    assert device.rulestore.list() == sorted((n, 1, find_ruleset(n).hash) for n in preset_names())
    files = sorted(f.name for f in (tmp_path / "device" / "rulesets").iterdir())
    assert files == sorted([n + ".json" for n in preset_names()] + [INDEX_FILE])  # no stray upload


def test_a_reset_that_loses_the_commit_reply_is_verified_not_repeated(capsys, tmp_path, device):
    commits = []

    def reset_after_first_commit(msg_type):
        if msg_type == RULESET_PUT_COMMIT:
            commits.append(msg_type)
            if len(commits) == 1:
                reply = device.server.handle(1, msg_type, 0, b"")  # the commit happens...
                assert reply
                device.reset()  # ...and the reply is lost
                return True
        return False

    device.before_request = reset_after_first_commit
    status, out, _ = _sync(capsys, tmp_path, device, "--force")
    assert status == 0, out
    assert len(commits) == len(preset_names())  # the first ruleset was not uploaded twice


@pytest.mark.parametrize("table", [PlainUploads, LocalTransport])
def test_a_power_cut_at_every_frame_of_a_sync_keeps_a_whole_ruleset(capsys, tmp_path, table):
    """Issue: interrupted ruleset sync at every frame. A ruleset spanning several chunks (or one
    deflated put, to a table that inflates) is replaced; the device is cut off at each request
    in turn (and once after a commit whose reply is lost). After every cut it holds the old
    document or the new one, whole; the next sync installs the new one and verifies it by hash."""
    old = {"family": "line", "name": "club", "params": {"target": 100}}
    new = {"family": "line", "name": "club", "version": 2, "params": {"target": 61}, "description": "house rules " * 80}
    frames = []

    def count(msg_type):
        frames.append(msg_type)
        return False

    probe = table(str(tmp_path / "probe"))
    assert _sync(capsys, tmp_path, probe, _write(tmp_path, "old.json", old))[0] == 0
    probe.before_request = count
    assert _sync(capsys, tmp_path, probe, _write(tmp_path, "new.json", new))[0] == 0
    if table is PlainUploads:
        assert frames.count(RULESET_PUT_CHUNK) >= 3, frames  # the document really spans several chunks
    else:
        assert frames.count(RULESET_PUT_DEFLATED) == 1 and RULESET_PUT_CHUNK not in frames, frames
    new_hash = probe.rulestore.get("club").hash
    cuts = [(k, False) for k in range(len(frames))] + [(frames.index(RULESET_PUT_COMMIT), True)]
    for k, after_commit in cuts:
        device = table(str(tmp_path / ("cut%d%s" % (k, "c" if after_commit else ""))))
        assert _sync(capsys, tmp_path, device, _write(tmp_path, "old.json", old))[0] == 0
        old_hash = device.rulestore.get("club").hash
        seen = []

        def cut_at_k(msg_type, device=device, seen=seen, k=k, after_commit=after_commit):
            seen.append(msg_type)
            if len(seen) - 1 != k or device.resets:
                return False
            if after_commit:
                device.server.handle(1, msg_type, 0, b"")  # the commit happens, its reply is lost
            device.reset()
            return True

        device.before_request = cut_at_k
        status, out, err = _sync(capsys, tmp_path, device, _write(tmp_path, "new.json", new))
        assert status == 0 or err.startswith("tiletable: sync: "), (k, err)
        assert device.resets == 1, k
        installed = RuleStore(str(tmp_path / ("cut%d%s" % (k, "c" if after_commit else ""))) + "/rulesets")
        assert installed.get("club").hash in (old_hash, new_hash), k
        device.before_request = None
        assert _sync(capsys, tmp_path, device, _write(tmp_path, "new.json", new))[0] == 0, k
        assert device.rulestore.get("club").hash == new_hash, k
