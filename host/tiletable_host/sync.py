"""``tiletable sync``: validate ruleset documents on the PC and install the changed ones on the table.

Every document is checked before anything is sent: JSON syntax, the ruleset JSON Schema
(schema.py: every problem, with its field), then the engine's own ``load_ruleset``, so a
mistake is reported with its file and field instead of as a device error. What is sent is
the ruleset's canonical document (every parameter spelled out), so the table runs exactly the
game the PC validated, whatever its firmware's defaults. Rulesets whose content hash the table
already has are skipped: those installed, and the presets it carries when its firmware's presets
are the PC's (the digest in its HELLO). Each upload is checked by the hash the table reports,
and once more by listing the table's rulesets at the end. An upload cut by a device reset is
started again.

    tiletable sync house.json --port /dev/ttyACM0
"""
import glob
import hashlib
import os

from tiletable.engine.rulesets import MAX_DOCUMENT, find_ruleset, preset_names
from tiletable.proto.messages import E_SEQUENCE
from tiletable_host import db as dbmod
from tiletable_host import dbtarget
from tiletable_host.connect import add_link_options, close_link, open_link
from tiletable_host.errors import CommandError
from tiletable_host.progress import Progress
from tiletable_host.schema import read_ruleset_file, ruleset_from_bytes, ruleset_schema
from tiletable_host.transport import DeviceError, TransportError

UPLOAD_ATTEMPTS = 3  # an upload cut by a reset is started again this many times in all


def configure(parser):
    parser.add_argument("paths", nargs="*", metavar="PATH", help="ruleset .json files or directories of them (default: every preset)")
    parser.add_argument("--presets", action="store_true", help="also sync every preset of the engine (the default without PATH)")
    parser.add_argument("--prune", action="store_true", help="remove rulesets on the table that are not among the sources")
    parser.add_argument("--dry-run", action="store_true", help="validate and compare, but change nothing on the table")
    parser.add_argument("--force", action="store_true", help="install every document, also those the table has (installed or among its presets)")
    parser.add_argument("--db", default=None, help="database that remembers synced rulesets for replays: " + dbtarget.HELP % dbmod.default_path())
    add_link_options(parser)


class Document:
    """A validated ruleset and where it came from; ``data`` is what the table receives."""

    def __init__(self, source, ruleset):
        self.source = source
        self.ruleset = ruleset
        self.data = ruleset.to_json().encode()


def document_from_file(path, schema):
    """The document of the ruleset file at ``path`` (checked by ``schema.read_ruleset_file``).

    :raises CommandError: ``<path>: <field>: <reason>`` for every problem the schema finds.
    """
    return _checked(Document(path, read_ruleset_file(path, schema)))


def document_from_bytes(path, raw, schema):
    """The document of ``raw``, the bytes of ruleset file ``path`` (``schema.ruleset_from_bytes``).

    :raises CommandError: ``<path>: <field>: <reason>`` for every problem the schema finds.
    """
    return _checked(Document(path, ruleset_from_bytes(path, raw, schema)))


def _checked(document):
    if len(document.data) > MAX_DOCUMENT:
        raise CommandError(
            "%s: document is %d bytes, over the table's limit of %d" % (document.source, len(document.data), MAX_DOCUMENT)
        )
    return document


def collect_documents(paths, presets):
    """The validated documents of ``paths`` (files and directories of .json files) and, with
    ``presets``, of every engine preset.

    :raises CommandError: for an invalid document, a missing path, or two sources of one name.
    """
    schema = ruleset_schema()
    documents = []
    if presets:
        for name in preset_names():
            documents.append(Document("preset %s" % name, find_ruleset(name)))
    for path in paths:
        if os.path.isdir(path):
            files = sorted(glob.glob(os.path.join(path, "*.json")))
            if not files:
                raise CommandError("%s: no .json files in this directory" % path)
        elif os.path.exists(path):
            files = [path]
        else:
            raise CommandError("%s: no such file or directory" % path)
        documents.extend(document_from_file(f, schema) for f in files)
    seen = {}
    for document in documents:
        name = document.ruleset.name
        if name in seen:
            raise CommandError("%s and %s both define ruleset %r" % (seen[name], document.source, name))
        seen[name] = document.source
    return documents


def preset_hashes():
    """``{name: content hash}`` of every preset of the PC's engine."""
    return {name: find_ruleset(name).hash for name in preset_names()}


def presets_digest(hashes):
    """16 hex digits of SHA-256 over the presets' names and content hashes (``preset_hashes``),
    in name order: the firmware reports its own in HELLO (proto/server.py)."""
    lines = "".join("%s %s\n" % (name, hashes[name]) for name in sorted(hashes))
    return hashlib.sha256(lines.encode()).hexdigest()[:16]


def table_presets(link):
    """``{name: content hash}`` of the presets the table plays exactly as the PC's engine does
    (its HELLO's digest is the PC's), else ``{}``. An installed ruleset of a preset's name is
    played instead of that preset (``ruleset_list``)."""
    hashes = preset_hashes()
    return hashes if link.device_info.get("presets") == presets_digest(hashes) else {}


def _on_table(installed, presets, name):
    """The content hash of what the table plays as ``name``, or None."""
    if name in installed:
        return installed[name][1]
    return presets.get(name)


def push(link, document, on_chunk=None):
    """Install one document, starting the upload again if the device resets during it;
    returns the hash the device reports.

    :raises DeviceError: when the device rejects the document; :raises CommandError: when the
        device's hash is not the PC's.
    """
    ruleset = document.ruleset
    for attempt in range(UPLOAD_ATTEMPTS):
        try:
            reply = link.ruleset_put(ruleset.name, document.data, ruleset.hash, on_chunk)
            break
        except DeviceError as exc:
            # E_SEQUENCE: the device forgot the upload (it reset between chunks)
            if exc.code != E_SEQUENCE or attempt + 1 == UPLOAD_ATTEMPTS:
                raise
        except TransportError:
            if attempt + 1 == UPLOAD_ATTEMPTS:
                raise
        link.reconnect()
        link.hello()
        installed = link.ruleset_list().get(ruleset.name)
        if installed is not None and installed[1] == ruleset.hash:
            return installed[1]  # the commit went through; only its reply was lost
    if reply["hash"] != ruleset.hash:
        raise CommandError("%s: the table reports hash %s, the PC computed %s" % (document.source, reply["hash"], ruleset.hash))
    return reply["hash"]


def do_sync(args):
    documents = collect_documents(args.paths, args.presets or not args.paths)
    link = open_link(args)
    try:
        sync_documents(link, documents, dbtarget.resolve(args.db, dbmod.default_path()), args.prune, args.dry_run, args.force)
    finally:
        close_link(args, link)
    return 0


def sync_documents(link, documents, db_path, prune=False, dry_run=False, force=False):
    """Remember ``documents`` in the database at ``db_path``, then install on the table those
    it does not play as they are (with ``force`` every one; with ``prune`` remove the installed
    others) and verify by hash; prints what changed."""
    installed = link.ruleset_list()
    presets = table_presets(link)
    changed = [d for d in documents if force or _on_table(installed, presets, d.ruleset.name) != d.ruleset.hash]
    wanted = {d.ruleset.name for d in documents}
    extra = sorted(name for name in installed if name not in wanted) if prune else []
    device = link.device_info["device"]
    for document in documents:
        if document not in changed:
            print("%-12s unchanged  %s" % (document.ruleset.name, document.ruleset.hash))
    if dry_run:
        for document in changed:
            print("%-12s would push %s (%s)" % (document.ruleset.name, document.ruleset.hash, _was(installed, document)))
        for name in extra:
            print("%-12s would remove" % name)
        return
    # before the table changes: a database another program holds stops the sync here, not
    # after the table took rulesets the PC could not note (a ruleset noted but then refused
    # by the table is only a document kept by its hash)
    remember_documents(db_path, documents)
    total = sum(len(d.data) for d in changed)
    done = 0
    with Progress("sync", total, "bytes") as bar:
        for document in changed:
            try:
                push(link, document, lambda sent, size: bar.update(done + sent))
            except DeviceError as exc:
                raise CommandError("%s: the table refused it: %s" % (document.source, exc.message))
            done += len(document.data)
            print("%-12s pushed     %s (%s)" % (document.ruleset.name, document.ruleset.hash, _was(installed, document)))
    for name in extra:
        link.ruleset_remove(name)
        print("%-12s removed" % name)
    now = link.ruleset_list()
    for document in documents:
        got = _on_table(now, presets, document.ruleset.name)
        if got != document.ruleset.hash:
            raise CommandError("%s: after sync the table has hash %s, expected %s" % (document.source, got, document.ruleset.hash))
    print(
        "sync: %d pushed, %d unchanged, %d removed on %s (verified by hash)"
        % (len(changed), len(documents) - len(changed), len(extra), device)
    )


def remember_documents(db_path, documents):
    """Keep every document in the database at ``db_path``, in one transaction, so a session
    played with it can be replayed with the exact ruleset."""
    db = dbmod.Database.open(db_path)
    try:
        with db.transaction():
            for document in documents:
                db.remember_ruleset(document.ruleset.hash, document.ruleset.name, document.data.decode())
    finally:
        db.close()


def _was(installed, document):
    old = installed.get(document.ruleset.name)
    return "new" if old is None else "was %s" % old[1]
