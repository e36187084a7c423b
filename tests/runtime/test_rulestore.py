# portable
"""The ruleset store: atomic installs, interrupted syncs keep the old ruleset, validation."""
import os

from portable import raises
from runtime import toy_family
from runtime.scratch import file_bytes, fresh_dir, write_bytes

from tiletable.engine.errors import RulesetError
from tiletable.runtime import rulestore
from tiletable.runtime.rulestore import INDEX_FILE, RuleStore


def _installed(root):
    store = RuleStore(root)
    return store.list(), sorted(name for name in os.listdir(root) if name != INDEX_FILE)


@toy_family.with_toy_family
def test_put_list_get_remove():
    root = fresh_dir("rules-basic")
    store = RuleStore(root)
    data, content_hash = toy_family.document("toy", 2, 61)
    ruleset = store.put(data, content_hash)
    assert (ruleset.name, ruleset.version, ruleset.hash, ruleset.params["target"]) == ("toy", 2, content_hash, 61)
    other, other_hash = toy_family.document("alpha")
    store.put(other, other_hash)
    assert store.list() == [("alpha", 1, other_hash), ("toy", 2, content_hash)]
    assert store.get("toy").hash == content_hash
    assert file_bytes(root + "/toy.json") == data
    store.remove("alpha")
    assert store.names() == ["toy"]
    raises(KeyError, store.remove, "alpha")
    raises(KeyError, store.get, "../state")


def _chunks(data, size):
    return [(offset, data[offset : offset + size]) for offset in range(0, len(data), size)]


@toy_family.with_toy_family
def test_interrupted_sync_at_every_chunk_keeps_the_previous_ruleset():
    root = fresh_dir("rules-interrupt")
    old, old_hash = toy_family.document("toy", 1, 100)
    RuleStore(root).put(old, old_hash)
    new, new_hash = toy_family.document("toy", 2, 150)
    chunks = _chunks(new, 16)
    for sent in range(len(chunks) + 1):  # power lost after `sent` chunks, before the commit
        upload = RuleStore(root).begin_put("toy", len(new), new_hash)
        for offset, chunk in chunks[:sent]:
            upload.write(offset, chunk)
        rulesets, files = _installed(root)  # the reboot: a fresh store over the same directory
        assert rulesets == [("toy", 1, old_hash)], sent
        assert files == ["toy.json"], (sent, files)  # the stray upload is gone
    upload = RuleStore(root).begin_put("toy", len(new), new_hash)
    for offset, chunk in chunks:
        upload.write(offset, chunk)
    upload.commit()
    assert _installed(root) == ([("toy", 2, new_hash)], ["toy.json"])


@toy_family.with_toy_family
def test_malformed_ruleset_is_rejected_naming_the_field_and_the_old_one_stays():
    root = fresh_dir("rules-malformed")
    store = RuleStore(root)
    old, old_hash = toy_family.document()
    store.put(old, old_hash)
    cases = [
        (b'{"family":"toy","name":"toy","params":{"target":0}}', "params.target"),
        (b'{"family":"toy","name":"toy","params":{"speed":3}}', "params.speed"),
        (b'{"family":"toy","name":"toy","version":0}', "version"),
        (b'{"family":"toy","name":"toy","colour":1}', "colour"),
        (b'{"family":"toy","name":"toy"', "document"),
    ]
    for data, field in cases:
        upload = store.begin_put("toy", len(data), old_hash)
        upload.write(0, data)
        err = raises(RulesetError, upload.commit)
        assert err.field == field, (data, err.field)
        assert _installed(root) == ([("toy", 1, old_hash)], ["toy.json"])


@toy_family.with_toy_family
def test_hash_mismatch_or_another_name_is_rejected():
    root = fresh_dir("rules-hash")
    store = RuleStore(root)
    data, content_hash = toy_family.document("toy", 1, 100)
    _, other_hash = toy_family.document("toy", 1, 101)
    err = raises(RulesetError, store.put, data, other_hash)
    assert err.field == "hash" and content_hash in str(err) and other_hash in str(err)
    upload = store.begin_put("other", len(data), content_hash)
    upload.write(0, data)
    err = raises(RulesetError, upload.commit)
    assert err.field == "name"
    assert _installed(root) == ([], [])


@toy_family.with_toy_family
def test_chunks_must_arrive_in_order_and_complete():
    root = fresh_dir("rules-chunks")
    store = RuleStore(root)
    data, content_hash = toy_family.document()
    upload = store.begin_put("toy", len(data), content_hash)
    assert upload.write(0, data[:10]) == 10
    assert upload.write(0, data[:10]) == 10  # a retry after a lost reply is harmless
    err = raises(ValueError, upload.write, 20, data[20:30])
    assert "expected 10" in str(err)
    err = raises(ValueError, upload.write, 10, data[10:] + b"xx")
    assert "past the announced size" in str(err)
    err = raises(ValueError, upload.commit)
    assert "10 of %d bytes" % len(data) in str(err)
    assert _installed(root) == ([], [])  # a failed commit discards the upload
    raises(ValueError, store.begin_put, "Bad Name", 10, content_hash)
    raises(ValueError, store.begin_put, "toy", 0, content_hash)
    raises(ValueError, store.begin_put, "toy", 100000, content_hash)


@toy_family.with_toy_family
def test_stray_temporary_files_are_removed_at_open():
    root = fresh_dir("rules-stray")
    write_bytes(root + "/toy.tmp", b'{"fam')
    write_bytes(root + "/other.tmp", b"")
    assert _installed(root) == ([], [])



class _CountedValidation:
    """``rulestore.load_ruleset`` counting its calls, for as long as the ``with`` lasts."""

    def __enter__(self):
        self.calls = 0
        self.known = []  # the content hash each call was handed (None: it computes it)
        self._real = rulestore.load_ruleset

        def counted(data, known_hash=None):
            self.calls += 1
            self.known.append(known_hash)
            return self._real(data, known_hash)

        rulestore.load_ruleset = counted
        return self

    def __exit__(self, *exc):
        rulestore.load_ruleset = self._real


@toy_family.with_toy_family
def test_a_list_answers_from_what_validation_proved_without_validating_again():
    root = fresh_dir("rules-index")
    store = RuleStore(root, "fw1")
    documents = [toy_family.document("toy%d" % i, 1, 50 + i) for i in range(5)]
    for data, content_hash in documents:
        store.put(data, content_hash)
    with _CountedValidation() as validation:
        expected = [("toy%d" % i, 1, documents[i][1]) for i in range(5)]
        assert store.list() == expected
        assert RuleStore(root, "fw1").list() == expected  # after a reboot too
        assert validation.calls == 0


@toy_family.with_toy_family
def test_a_document_the_index_does_not_vouch_for_is_validated_at_open():
    root = fresh_dir("rules-index-stale")
    store = RuleStore(root, "fw1")
    data, content_hash = toy_family.document("toy", 1, 100)
    store.put(data, content_hash)
    other, other_hash = toy_family.document("toy", 2, 120)
    write_bytes(root + "/toy.json", other)  # copied over by hand, at the REPL
    write_bytes(root + "/late.json", b'{"family":"toy","name":"late","params":{"target":0}}')
    with _CountedValidation() as validation:
        assert RuleStore(root, "fw1").list() == [("toy", 2, other_hash)]  # "late" is invalid
        assert validation.calls == 2
    with _CountedValidation() as validation:
        assert RuleStore(root, "fw2").list() == [("toy", 2, other_hash)]  # another firmware's index
        assert validation.calls == 2
        assert RuleStore(root, "fw2").list() == [("toy", 2, other_hash)]
        assert validation.calls == 2


@toy_family.with_toy_family
def test_get_takes_the_content_hash_from_the_index_only_for_the_bytes_it_proved():
    root = fresh_dir("rules-index-get")
    store = RuleStore(root, "fw1")
    data, content_hash = toy_family.document("toy", 1, 100)
    store.put(data, content_hash)
    store.list()  # writes the index
    reopened = RuleStore(root, "fw1")
    with _CountedValidation() as validation:
        assert reopened.get("toy").hash == content_hash
        assert validation.known == [content_hash]
    other, other_hash = toy_family.document("toy", 2, 120)
    write_bytes(root + "/toy.json", other)  # copied over by hand: the index's row is for the old bytes
    with _CountedValidation() as validation:
        assert store.get("toy").hash == other_hash
        assert validation.known == [None]


@toy_family.with_toy_family
def test_get_keeps_the_last_ruleset_it_validated_for_the_same_bytes_only():
    root = fresh_dir("rules-ready")
    store = RuleStore(root, "fw1")
    data, content_hash = toy_family.document("toy", 1, 100)
    store.put(data, content_hash)
    first = store.get("toy")
    with _CountedValidation() as validation:
        assert store.get("toy") is first
        assert validation.calls == 0
    other, other_hash = toy_family.document("toy", 2, 120)
    write_bytes(root + "/toy.json", other)  # other bytes: validated again
    with _CountedValidation() as validation:
        assert store.get("toy").hash == other_hash
        assert validation.calls == 1


@toy_family.with_toy_family
def test_version_65536_is_refused_and_one_bad_file_never_breaks_the_list():
    """Issue 18: a ruleset of version 65536 was installed, then no list reply could encode its
    version (a u16). Now the commit refuses it, and a file no commit would take (left by an
    older firmware, a stray name, a directory) leaves out only its own row."""
    root = fresh_dir("rules-version")
    store = RuleStore(root)
    good, good_hash = toy_family.document("good")
    store.put(good, good_hash)
    big, big_hash = toy_family.document("big", 65536)
    err = raises(RulesetError, store.put, big, big_hash)
    assert err.field == "version" and "1..65535" in err.reason, str(err)
    write_bytes(root + "/big.json", big)
    write_bytes(root + "/Bad.json", good)
    os.mkdir(root + "/dir.json")
    assert store.list() == [("good", 1, good_hash)]
    assert RuleStore(root).list() == [("good", 1, good_hash)]  # and after a reboot
